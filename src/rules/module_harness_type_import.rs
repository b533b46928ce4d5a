use super::site::{beeuni_loaded, in_module};
use crate::diagnostic::Diagnostic;
use crate::modules::resolve::Resolution;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module imports types from a harness package.
    ///
    /// ## What it checks
    /// An `import type` (or an import of only `type` names) from a harness
    /// package (`@opencode-ai/plugin`, the xcsh / pi packages, …), or, in
    /// TypeScript, an import whose names are used only as types or not at all:
    /// Bun's transpiler drops it as well.
    ///
    /// ## Why
    /// It is erased at run time, so the module still loads, but it ties the
    /// module to one harness and invites a runtime import next.
    ///
    /// ## Example
    /// ```ts
    /// import type { ToolContext } from '@opencode-ai/plugin'
    ///
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: {} },
    ///   async execute(args, context: ToolContext) { return 'ok' },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// type ToolContext = { env: Record<string, string>; signal: AbortSignal }
    ///
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: {} },
    ///   async execute(args, context: ToolContext) { return 'ok' },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Declare the few types you need locally.
    id: "module-harness-type-import",
    severity: Warning,
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
            if !import.type_only {
                continue;
            }
            let message = format!(
                "`{}` imports types from the harness package `{name}`: it ties the module to one harness",
                project.module_path(module)
            );
            let diagnostic = in_module(project, &RULE, module, import.span, message);
            out.push(diagnostic.help("declare the types the module needs locally"));
        }
    }
}
