use super::shapes;
use super::site::{export_site, in_module, object_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{Field, Parameters};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module's `parameters` is missing or not an object schema.
    ///
    /// ## What it checks
    /// The default-exported object has `parameters`, a JSON Schema object literal
    /// whose `type` is `'object'`.
    ///
    /// A zod schema (`z.object({...})`, a call on a binding imported from `zod`)
    /// is not JSON Schema; `z.toJSONSchema(...)` builds one (and is not checked
    /// further: `module-unanalyzable`).
    ///
    /// The object passed to the AI SDK's `tool({...})` (of `ai`, which returns
    /// its argument) or to a function of the module that returns its parameter
    /// is checked as written, and so is a field a spread of a module-level
    /// object (`export default { ...readFileTool, execute }`) or a read of
    /// one (`parameters: details.function.parameters`) gives it. An object with `inputSchema` (the AI SDK 5's and
    /// MCP's name) or `schema` (LangChain's) instead is told to rename it; a
    /// LangChain `tool(fn, { schema })` (of `@langchain/core/tools`) returns a
    /// StructuredTool, which has no `parameters`: the finding says so.
    ///
    /// ## Why
    /// "Not an object schema" is a load failure: the module is skipped.
    ///
    /// ## Example
    /// ```ts
    /// export default { description: '…', parameters: { properties: { id: { type: 'string' } } }, execute() {} }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: '…',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   execute() {},
    /// }
    /// ```
    ///
    /// ## Fix
    /// `parameters: { type: 'object', properties: { … }, required: [ … ] }`.
    id: "module-parameters",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, object) in object_modules(project) {
        let path = &project.module_path(module);
        let (span, message) = match &object.parameters {
            Field::Missing => {
                let message = format!("the tool in `{path}` has no `parameters`{}", shapes::missing_because(object));
                let help = shapes::parameters_help(object).unwrap_or_else(|| HELP.to_string());
                let diagnostic = in_module(project, &RULE, module, export_site(project, module), message);
                out.push(diagnostic.help(help));
                continue;
            }
            Field::Found { span, value: Parameters { zod: Some(schema), .. } } => (
                *span,
                format!(
                    "the `parameters` of the tool in `{path}` is `{schema}`: a zod schema, not JSON Schema: wrap it in `z.toJSONSchema(...)` (zod 4) or paste the printed schema"
                ),
            ),
            Field::Found { span, value } if !value.is_object_literal => {
                (*span, format!("the `parameters` of the tool in `{path}` is not an object schema"))
            }
            Field::Found { span, value } if !value.has_type => (
                *span,
                format!("the `parameters` of the tool in `{path}` has no `type: 'object'`: not an object schema"),
            ),
            Field::Found { span, value } => match &value.type_value {
                Some(kind) if kind != "object" => (
                    *span,
                    format!("the `parameters` of the tool in `{path}` has `type: '{kind}'`: not an object schema"),
                ),
                _ => continue,
            },
            Field::Unanalyzable { .. } => continue,
        };
        let diagnostic = in_module(project, &RULE, module, span, message);
        out.push(diagnostic.help(HELP));
    }
}

const HELP: &str = "write `parameters: { type: 'object', properties: { … }, required: [ … ] }`";
