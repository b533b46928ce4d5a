use super::site::{export_site, in_module, tool_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::DefaultExportKind;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module exports `tool({ … })` from `@opencode-ai/plugin`.
    ///
    /// ## What it checks
    /// The default export is a call of `tool(...)` (or `tool.define(...)`), the
    /// opencode plugin's form with `args` in zod.
    ///
    /// ## Why
    /// That form runs only on the standard harness, through the harness package
    /// a module never imports. Beeuni loads plain objects on both harnesses.
    ///
    /// ## Example
    /// ```ts
    /// import { tool } from '@opencode-ai/plugin'
    /// export default tool({ description: '…', args: { id: tool.schema.string() }, async execute(args) {} })
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: '…',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    ///   async execute(args, context) {},
    /// }
    /// ```
    ///
    /// ## Fix
    /// Move to a plain object whose `parameters` is JSON Schema, read secrets
    /// from `context.env`, and declare it under `tools:`.
    id: "module-opencode-tool",
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
        if export.kind != DefaultExportKind::OpencodeTool {
            continue;
        }
        let message = format!(
            "`{}` exports `tool({{ description, args, execute }})`, the opencode plugin form: Beeuni loads a plain object",
            project.module_path(module)
        );
        let diagnostic = in_module(project, &RULE, module, export_site(project, module), message);
        out.push(diagnostic.help(
            "move to a plain object whose `parameters` is JSON Schema, read secrets from `context.env`, declare it under `tools:`",
        ));
    }
}
