use super::shapes;
use super::site::{export_site, in_module, object_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{Execute, Field};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module's `execute` is missing or not a function.
    ///
    /// ## What it checks
    /// The default-exported object has `execute`, a method or function (it may
    /// be `async`).
    ///
    /// The object passed to the AI SDK's `tool({...})` or to a function of the
    /// module that returns its parameter is checked as written; an object with
    /// `handler` (MCP's name) instead is told to rename it. LangChain's
    /// `tool(fn, {...})` returns a StructuredTool, whose function is not
    /// `execute`: the finding says so, and maps the function to `execute`.
    ///
    /// ## Why
    /// Without a function to call, the tool cannot run: the module is skipped.
    ///
    /// ## Example
    /// ```ts
    /// export default { description: '…', parameters: { type: 'object' }, execute: 'lookup' }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: '…',
    ///   parameters: { type: 'object' },
    ///   async execute(args, context) { return lookup(args) },
    /// }
    /// ```
    ///
    /// ## Fix
    /// `async execute(args, context) { … }`.
    id: "module-execute",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, object) in object_modules(project) {
        let (span, message) = match &object.execute {
            Field::Missing => {
                let path = project.module_path(module);
                let message = format!("the tool in `{path}` has no `execute`{}", shapes::missing_because(object));
                let help = shapes::execute_help(object).unwrap_or_else(|| HELP.to_string());
                let diagnostic = in_module(project, &RULE, module, export_site(project, module), message);
                out.push(diagnostic.help(help));
                continue;
            }
            Field::Found { span, value: Execute::NotFunction } => {
                (*span, format!("the `execute` of the tool in `{}` is not a function", project.module_path(module)))
            }
            _ => continue,
        };
        let diagnostic = in_module(project, &RULE, module, span, message);
        out.push(diagnostic.help(HELP));
    }
}

const HELP: &str = "add `async execute(args, context) { … }`: it returns a string or any JSON value";
