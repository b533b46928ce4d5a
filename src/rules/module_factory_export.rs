use super::site::{export_site, in_module, tool_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::DefaultExportKind;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module's default export is a function (the xcsh/pi factory form).
    ///
    /// ## What it checks
    /// The default export is a function or arrow function. One that returns an
    /// object literal or takes `pi` is xcsh's `CustomToolFactory` form
    /// (`export default (pi) => ({ name, description, … })`), and the finding
    /// says so; another function (the tool's body alone, say) is called what it
    /// is, a function where the tool object belongs.
    ///
    /// A function that calls `pi.registerTool({...})` is a pi/xcsh *extension*:
    /// the finding says so.
    ///
    /// ## Why
    /// Beeuni expects a plain object `{ description, parameters, execute }`: a
    /// function is never called, and the module does not load as a tool.
    ///
    /// ## Example
    /// ```ts
    /// export default (pi) => ({
    ///   name: 'lookup_order',
    ///   description: 'Look up an order by its id',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   async execute(args, context) { return `order ${args.id}` },
    /// })
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: 'Look up an order by its id',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   async execute(args, context) { return `order ${args.id}` },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Export the object the factory returns: drop `name` (the key under
    /// `tools:` names the tool), keep `description`, `parameters` (JSON Schema)
    /// and `execute(args, context)`. An xcsh custom tool keeps its factory and
    /// belongs in `.xcsh/tools/` (see `xcsh-export`, its mirror). A plain
    /// function becomes the `execute` of the exported object.
    id: "module-factory-export",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in tool_modules(project).filter(|m| m.facts.is_whole()) {
        let Some(export) = &module.facts.default_export else {
            continue;
        };
        let path = project.module_path(module);
        let (message, help) = match export.kind {
            DefaultExportKind::Factory | DefaultExportKind::Function if module.facts.registers_tools => (
                format!(
                    "`{path}` exports a pi/xcsh extension (a function that calls `registerTool`): Beeuni expects a plain object `{{ description, parameters, execute }}`"
                ),
                "an extension registers tools with the harness, and Beeuni loads only a plain tool object: give each registered tool a module of its own, `export default { description, parameters, execute(args, context) }` (without `name`), and declare it under `tools:`",
            ),
            DefaultExportKind::Factory => (
                format!(
                    "`{path}` exports a function that makes the tool (the xcsh/pi factory form): Beeuni never calls it and expects a plain object `{{ description, parameters, execute }}`"
                ),
                "export the object the factory returns, without `name`, with `execute(args, context)`: `export default { description, parameters, execute }`; an xcsh custom tool belongs in `.xcsh/tools/`",
            ),
            DefaultExportKind::Function => (
                format!(
                    "`{path}` exports a function, not a tool object: Beeuni reads `description`, `parameters` and `execute` from the default export and never calls it"
                ),
                "export an object whose `execute` is this function: `export default { description, parameters: { type: 'object', properties: { … } }, execute }`, called as `execute(args, context)`",
            ),
            _ => continue,
        };
        let diagnostic = in_module(project, &RULE, module, export_site(project, module), message);
        out.push(diagnostic.help(help));
    }
}
