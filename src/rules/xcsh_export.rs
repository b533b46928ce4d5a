use super::xcsh_site::{FACTORY_FORM, at, first_line_from, shown};
use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::xcsh::facts::Export;

crate::rules::declare_rule! {
    /// An xcsh custom tool module exports no factory.
    ///
    /// ## What it checks
    /// Every module directly in `.xcsh/tools/`, `.claude/tools/`, `.codex/tools/`
    /// (and the folders of `--xcsh` and `xcsh-paths`) must export a function, the
    /// factory (default export preferred; else a named function export). The
    /// finding says what it exports instead: nothing, or an object or literal. A
    /// plain object with `description`, `parameters` or `execute` is the Beeuni
    /// form: that module gets this finding and no other of the xcsh contract.
    ///
    /// ## Why
    /// The xcsh loader calls the factory with its host API (`pi`) and registers
    /// the tools it returns; a module without one is rejected at load.
    ///
    /// ## Example
    /// ```ts
    /// // .xcsh/tools/lookup_order.ts: the Beeuni form
    /// export default { description: 'Look up an order', parameters, execute(args, context) { … } }
    /// ```
    ///
    /// ## Fix
    /// Export a factory that returns the tool, as in the docs' `repo_stats`
    /// example: `export default (pi) => ({ name, description, parameters:
    /// pi.typebox.Type.Object({ … }), async execute(toolCallId, params, onUpdate,
    /// ctx, signal) { … } })`. A Beeuni tool belongs under `tools:` in
    /// `beeuni.yaml` instead.
    id: "xcsh-export",
    severity: Error,
    category: Xcsh,
    fix: None,
    check: check,
}

const CONTRACT: &str = "an xcsh custom tool module exports a factory `(pi) => tool`";

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, facts) in super::xcsh_site::contracts(project) {
        let path = shown(project, module);
        let (span, message, help) = match &facts.export {
            Export::Missing => (
                project.file(module.file).line_span(0),
                format!("`{path}` exports no function: {CONTRACT}"),
                format!("export a factory that returns the tool: `{FACTORY_FORM}`"),
            ),
            Export::NotFunction { span, beeuni: true, .. } => (
                first_line_from(project, module, span.start),
                format!("`{path}` exports a plain object: this is the Beeuni form; {CONTRACT}"),
                format!(
                    "return the tool from a factory, with `name`, TypeBox `parameters` and `execute(toolCallId, params, onUpdate, ctx, signal)`: `{FACTORY_FORM}`; a Beeuni tool belongs under `tools:` in beeuni.yaml"
                ),
            ),
            Export::NotFunction { span, what, .. } => (
                first_line_from(project, module, span.start),
                format!("`{path}` exports {what}, not a function: {CONTRACT}"),
                format!("export a factory that returns the tool: `{FACTORY_FORM}`"),
            ),
            Export::Factory(_) | Export::Unanalyzable { .. } => continue,
        };
        out.push(at(&RULE, module, span, message).help(help));
    }
}
