use super::site::{first_line, in_module, tool_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{DefaultExport, DefaultExportKind, NamedToolObject};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module has no default export.
    ///
    /// ## What it checks
    /// The module must export its tool as the default export: `export default
    /// { … }`, `export { tool as default }`, or in CommonJS `module.exports = { … }`
    /// / `exports.default = …` (Bun runs both forms in `.cjs`, `.js` and `.ts`).
    ///
    /// A default export that is a literal other than an object (`null`, a
    /// number, a string, a boolean, an array, a template), directly or through a
    /// module-level `const`, is no tool either. A module of named
    /// `tool({...})` exports (opencode's form) gets help on moving each export
    /// to a module of its own. A module whose tool object is a named export
    /// (`export const crmNote = {…}`, `export { crmNote }`, CommonJS
    /// `exports.crmNote = {…}`) is told how to make that object the default.
    ///
    /// ## Why
    /// Without a default export the module is skipped at load.
    ///
    /// ## Example
    /// ```ts
    /// export const lookupOrder = { description: '…', parameters: { type: 'object' }, execute() {} }
    /// ```
    ///
    /// ## Fix
    /// `export default lookupOrder` (the object above), or
    /// `export default { description, parameters, execute }`.
    id: "module-no-default-export",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in tool_modules(project).filter(|m| m.facts.is_whole()) {
        let path = &project.module_path(module);
        let (message, help) = match &module.facts.default_export {
            Some(DefaultExport { kind: DefaultExportKind::Literal { text }, .. }) => (
                format!(
                    "the default export of `{path}` is `{text}`, not the tool object: the module is skipped at load"
                ),
                "export the tool: `export default { description, parameters, execute }`".to_string(),
            ),
            Some(_) => continue,
            None if !module.facts.opencode_exports().is_empty() => (
                format!("`{path}` has no default export: the module is skipped at load"),
                opencode_help(path, module.facts.opencode_exports()),
            ),
            None => (
                format!("`{path}` has no default export: the module is skipped at load"),
                match module.facts.named_tool_object() {
                    Some(named) => named_help(named),
                    None => "export the tool: `export default { description, parameters, execute }`".to_string(),
                },
            ),
        };
        let span = first_line(project, module);
        out.push(in_module(project, RULE.id, RULE.severity, module, span, message).help(help));
    }
}

/// The tool object is there, as a named export: export that as the default.
fn named_help(named: &NamedToolObject) -> String {
    let name = &named.name;
    if named.commonjs {
        // `module.exports = exports.NAME` would read through the exports object, which the analysis does not follow.
        format!(
            "`exports.{name}` holds the tool object, but only as a named export: assign the object to `module.exports` instead (`module.exports = {{…}}` in place of `exports.{name} = {{…}}`)"
        )
    } else {
        format!("`{name}` holds the tool object, but only as a named export: add `export default {name}`")
    }
}

/// Named `tool({...})` exports are opencode's form (each loaded as `<file>_<export>`): one module each here.
fn opencode_help(path: &str, exports: &[String]) -> String {
    let (stem, ext) = path.rsplit_once('.').unwrap_or((path, "ts"));
    let moves: Vec<String> = exports.iter().map(|name| format!("`{name}` → `{stem}_{name}.{ext}`")).collect();
    format!(
        "this is opencode's form (named `tool({{...}})` exports, each loaded as `<file>_<export>`); Beeuni loads one tool a module, from its default export: move each export to a module of its own ({}) as `export default {{ description, parameters, execute }}` with JSON Schema `parameters`, and declare each under `tools:`",
        moves.join(", ")
    )
}
