use super::shapes;
use super::site::{export_site, first_line, in_module, tool_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{DefaultExport, DefaultExportKind};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module has no default export.
    ///
    /// ## What it checks
    /// The module must export its tool as the default export: `export default
    /// { … }`, `export { tool as default }`, or in CommonJS `module.exports = { … }`
    /// (Bun runs a module without `export` statements that uses `module` or
    /// `exports` as CommonJS, whatever its extension, `.mjs` too).
    ///
    /// `exports.default = { … }` (or `module.exports.default`) in CommonJS is no
    /// default export under Bun: its CommonJS interop makes the whole exports
    /// object, `{ default: tool }`, the default export, unless the module marks
    /// itself as compiled from an ES module (`exports.__esModule = true` or
    /// `Object.defineProperty(exports, '__esModule', { value: true })`, as
    /// TypeScript and Babel write it), when `exports.default` is taken. The
    /// finding points at the assignment.
    ///
    /// A default export that is a literal other than an object (`null`, a
    /// number, a string, a boolean, an array, a template), directly or through a
    /// module-level `const`, is no tool either. A module of named
    /// `tool({...})` exports (opencode's form) gets help on moving each export
    /// to a module of its own. A module whose tool object is a named export
    /// (`export const crmNote = {…}`, `export { crmNote }`, CommonJS
    /// `exports.crmNote = {…}`, the AI SDK's `export const weather = tool({…})`)
    /// is told how to make that object the default, with the renames its shape
    /// needs (`inputSchema` → `parameters`, `handler` → `execute`); a LangChain
    /// `tool(fn, {…})` export is told what to export instead; a module that
    /// registers its tools with an MCP server (`server.tool(…)`,
    /// `server.registerTool(…)`) is told to give each tool a module of its own.
    ///
    /// ## Why
    /// Without a default export the module is skipped at load; with
    /// `{ default: tool }` as its default export, the tool has none of its
    /// fields and is skipped too.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts
    ///   find_order: tools/find_order.cjs
    /// ```
    ///
    /// ```ts
    /// // tools/lookup_order.ts
    /// export const lookupOrder = { description: 'Look up an order', parameters: { type: 'object' }, async execute() { return 'ok' } }
    /// ```
    ///
    /// ```js
    /// // tools/find_order.cjs
    /// exports.default = { description: 'Look up an order', parameters: { type: 'object' }, async execute() { return 'ok' } }
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts
    ///   find_order: tools/find_order.cjs
    /// ```
    ///
    /// ```ts
    /// // tools/lookup_order.ts
    /// export const lookupOrder = { description: 'Look up an order', parameters: { type: 'object' }, async execute() { return 'ok' } }
    /// export default lookupOrder
    /// ```
    ///
    /// ```js
    /// // tools/find_order.cjs
    /// module.exports = { description: 'Look up an order', parameters: { type: 'object' }, async execute() { return 'ok' } }
    /// ```
    ///
    /// ## Fix
    /// `export default lookupOrder` (the object above), or
    /// `export default { description, parameters, execute }`; in CommonJS,
    /// `module.exports = { description, parameters, execute }`.
    id: "module-no-default-export",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in tool_modules(project).filter(|m| m.facts.is_whole()) {
        let path = &project.module_path(module);
        // Formed only for a module that gets the finding: this loop runs for every tool module.
        let skipped = || format!("`{path}` has no default export: the module is skipped at load");
        let (message, help) = match &module.facts.default_export {
            Some(DefaultExport { kind: DefaultExportKind::Literal { text }, .. }) => (
                format!(
                    "the default export of `{path}` is `{text}`, not the tool object: the module is skipped at load"
                ),
                PLAIN_HELP.to_string(),
            ),
            Some(DefaultExport { kind: DefaultExportKind::ExportsDefault, .. }) => {
                let message = format!(
                    "`{path}` sets `exports.default` in CommonJS without `__esModule`: Bun's default export is then the exports object `{{ default: … }}`, which has no `description`, `parameters` or `execute`: the module is skipped at load"
                );
                // At the assignment, the one place to change (docs/spec/rules.md §10 puts a missing export at line 1).
                let site = export_site(project, module);
                out.push(in_module(project, &RULE, module, site, message).help(EXPORTS_DEFAULT_HELP));
                continue;
            }
            Some(_) => continue,
            None if !module.facts.opencode_exports().is_empty() => {
                (skipped(), opencode_help(path, module.facts.opencode_exports()))
            }
            None => match module.facts.named_tool_object() {
                Some(named) => (skipped(), shapes::named_help(named)),
                None if module.facts.serves_tools || module.facts.registers_tools => {
                    (skipped(), shapes::SERVER_HELP.to_string())
                }
                None => (skipped(), PLAIN_HELP.to_string()),
            },
        };
        let span = first_line(project, module);
        out.push(in_module(project, &RULE, module, span, message).help(help));
    }
}

const PLAIN_HELP: &str = "export the tool: `export default { description, parameters, execute }`";

const EXPORTS_DEFAULT_HELP: &str = "assign the tool to the exports themselves, `module.exports = { description, parameters, execute }`, or write an ES module, `export default { … }` (a module compiled from one marks itself with `Object.defineProperty(exports, '__esModule', { value: true })`, and Bun then takes `exports.default`)";

/// Named `tool({...})` exports are opencode's form (each loaded as `<file>_<export>`): one module each here.
fn opencode_help(path: &str, exports: &[String]) -> String {
    let (stem, ext) = path.rsplit_once('.').unwrap_or((path, "ts"));
    let moves: Vec<String> = exports.iter().map(|name| format!("`{name}` → `{stem}_{name}.{ext}`")).collect();
    format!(
        "this is opencode's form (named `tool({{...}})` exports, each loaded as `<file>_<export>`); Beeuni loads one tool a module, from its default export: move each export to a module of its own ({}) as `export default {{ description, parameters, execute }}` with JSON Schema `parameters`, and declare each under `tools:`",
        moves.join(", ")
    )
}
