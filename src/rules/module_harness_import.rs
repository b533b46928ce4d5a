use super::site::{beeuni_loaded, in_module};
use crate::diagnostic::Diagnostic;
use crate::modules::resolve::Resolution;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module imports a harness package.
    ///
    /// ## What it checks
    /// A runtime import of `@opencode-ai/plugin`, `@opencode-ai/sdk`,
    /// `opencode-ai`, the xcsh / pi coding-agent packages, or a subpath of them.
    /// An import Bun's transpiler drops (in TypeScript, one whose names are used
    /// only as types or not at all) is `module-harness-type-import` instead.
    ///
    /// ## Why
    /// "A module never imports a harness package." The daemon runs modules for
    /// both harnesses; the experimental harness has no such package.
    ///
    /// ## Example
    /// ```ts
    /// import { tool } from '@opencode-ai/plugin'
    ///
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: {} },
    ///   async execute() { return typeof tool },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: '…',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   async execute(args, context) {},
    /// }
    /// ```
    ///
    /// ## Fix
    /// Remove the import: a module is a plain object with a JSON Schema.
    id: "module-harness-import",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in beeuni_loaded(project) {
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let Some(Resolution::Harness(name)) = resolution else {
                continue;
            };
            if import.type_only {
                continue;
            }
            let message = format!(
                "`{}` imports the harness package `{name}`: A module never imports a harness package.",
                project.module_path(module)
            );
            let diagnostic = in_module(project, &RULE, module, import.span, message);
            out.push(
                diagnostic
                    .help("remove the import; write the tool as a plain object whose `parameters` is JSON Schema"),
            );
        }
    }
}
