use super::xcsh_site::{at, capitalised, contracts, first_line_from, shown, tool_label};
use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::xcsh::facts::{Export, Name, Returned, Returns};

crate::rules::declare_rule! {
    /// An xcsh factory or tool is built at run time, so a check could not be made.
    ///
    /// ## What it checks
    /// Where the xcsh contract cannot be read without running the module: the
    /// default export is imported, re-exported, a class, or built by a call (the
    /// finding names what it is, and does not call a helper the factory); a
    /// returned tool is built by a call, imported, or spread into an array; a
    /// tool literal spreads another object (which may supply its fields); a
    /// tool's `name` is computed (its validity and uniqueness go unchecked). The
    /// finding says which.
    ///
    /// ## Why
    /// beeuni-lint never runs a module and never guesses: this says which checks
    /// were skipped, so a clean report is not mistaken for a checked one.
    ///
    /// ## Example
    /// ```ts
    /// export default (pi) => makeTool(pi, 'repo_stats')
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default (pi) => ({
    ///   name: 'repo_stats',
    ///   description: 'Count the files git tracks',
    ///   parameters: pi.typebox.Type.Object({}),
    ///   execute: (toolCallId, params, onUpdate, ctx, signal) => stats(pi, signal),
    /// })
    /// ```
    ///
    /// ## Fix
    /// Nothing is wrong as far as beeuni-lint can tell. To have the tool checked,
    /// return an object literal from the factory.
    id: "xcsh-unanalyzable",
    severity: Info,
    category: Xcsh,
    fix: None,
    check: check,
}

const HELP: &str = "beeuni-lint never runs a module: the checks that need this value were skipped";

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, facts) in contracts(project) {
        let path = shown(project, module);
        match &facts.export {
            Export::Unanalyzable { span, why } => {
                let message = format!("the default export of `{path}` could not be checked: {why}");
                out.push(at(&RULE, module, first_line_from(project, module, span.start()), message).help(HELP));
            }
            Export::Factory(factory) => {
                let Returns::Values(values) = &factory.returns else { continue };
                for value in values {
                    if let Returned::Unanalyzable { span, why } = value {
                        let message = format!("a tool returned by `{path}` could not be checked: {why}");
                        out.push(at(&RULE, module, *span, message).help(HELP));
                    }
                }
            }
            Export::Missing
            | Export::NamedOnly { .. }
            | Export::CommonJsDefault { .. }
            | Export::NotFunction { .. } => {}
        }
    }
    for (module, tool) in project.xcsh.tools() {
        let path = shown(project, module);
        if let Some((span, spread)) = &tool.spread {
            let message = format!(
                "{} in `{path}` could not be fully checked: `{spread}` may supply its fields",
                capitalised(&tool_label(tool))
            );
            out.push(at(&RULE, module, *span, message).help(HELP));
        }
        if let Some((span, Name::Unknown)) = &tool.name {
            let message = format!(
                "the `name` of a tool in `{path}` is computed at run time: its validity and uniqueness were not checked"
            );
            out.push(at(&RULE, module, *span, message).help(HELP));
        }
    }
}
