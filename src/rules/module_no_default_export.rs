//! A tool module has no default export.
//!
//! ## What it checks
//! The module must export its tool as the default export: `export default
//! { … }`, `export { tool as default }`, or in CommonJS `module.exports = { … }`
//! / `exports.default = …` (Bun runs both forms in `.cjs`, `.js` and `.ts`).
//!
//! ## Why
//! Without a default export the module is skipped at load.
//!
//! ## Example
//! ```ts
//! export const lookupOrder = { description: '…', parameters: { type: 'object' }, execute() {} }
//! ```
//!
//! ## Fix
//! `export default { description, parameters, execute }`.

use super::site::{first_line, in_module, tool_modules};
use crate::diagnostic::{Diagnostic, Severity};
use crate::project::Project;
use crate::rules::Rule;

pub static RULE: Rule =
    Rule::new("module-no-default-export", Severity::Error, include_str!("module_no_default_export.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in tool_modules(project).filter(|m| m.facts.syntax_errors.is_empty()) {
        if module.facts.default_export.is_none() {
            let message = format!("`{}` has no default export: the module is skipped at load", module.path);
            let span = first_line(project, module);
            let diagnostic = in_module(project, RULE.id, RULE.severity, module, span, message);
            out.push(diagnostic.help("export the tool: `export default { description, parameters, execute }`"));
        }
    }
}
