use crate::catalog::is_beeuni;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::project::Project;

crate::rules::declare_rule! {
    /// `harnesses/opencode/tools/` holds a tool that runs only on the standard harness.
    ///
    /// ## What it checks
    /// Any file with a module extension in the standard harness's tool folder
    /// that is not a Beeuni tool's copy. Info; a warning when its name (the file
    /// stem) is also a declared project tool, because the folder's copy then
    /// takes precedence on the standard harness.
    ///
    /// ## Why
    /// The experimental harness does not load this folder: the tool silently
    /// exists on one harness only.
    ///
    /// ## Example
    /// `harnesses/opencode/tools/lookup_order.ts`
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts
    /// ```
    ///
    /// ```ts
    /// // tools/lookup_order.ts
    /// export default {
    ///   description: 'Look up an order by its id and return its status',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    ///   async execute(args, context) {
    ///     return `order ${args.id}: shipped`
    ///   },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Move it out, replace `tool({ description, args, execute })` by a plain
    /// object whose `parameters` is JSON Schema, read secrets from
    /// `context.env`, and declare it under `tools:`.
    id: "legacy-harness-tool",
    severity: Info,
    category: Legacy,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (file, stem) in project.legacy_tools.iter().filter(|(_, stem)| !is_beeuni(stem)) {
        let path = &project.file(*file).shown;
        let declared = project.first_declared(stem).and_then(|at| project.tools.get(at));
        let (severity, message) = match declared {
            Some(_) => (
                Severity::Warning,
                format!(
                    "`{path}` shadows the project tool `{stem}` on the standard harness, where the folder's copy takes precedence"
                ),
            ),
            None => (Severity::Info, format!("`{path}` runs only on the standard harness")),
        };
        let help = "to run it on both harnesses, move it out, replace `tool({ description, args, execute })` by a plain object whose `parameters` is JSON Schema, read secrets from `context.env`, and declare it under `tools:`";
        let mut diagnostic =
            RULE.diagnostic_with(severity, Label::new(*file, project.file(*file).line_span(0)), message).help(help);
        if let Some(decl) = declared {
            diagnostic = diagnostic.related(Label::with_message(decl.file, decl.entry(), "declared here"));
        }
        out.push(diagnostic);
    }
}
