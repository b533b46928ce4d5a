use super::xcsh_site::{at, capitalised, first_line_from, shown, tool_label};
use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::xcsh::facts::Execute;

crate::rules::declare_rule! {
    /// An xcsh tool lacks `name`, `description`, `parameters` or `execute`, or its `execute` is not a function.
    ///
    /// ## What it checks
    /// Each tool object literal an xcsh factory returns (directly, in an array,
    /// or through a Promise) spells out the four fields the loader needs:
    /// `name`, `description`, `parameters` and `execute`, and `execute` is a
    /// function. A missing field is reported at the object literal, a wrong one
    /// at the field. An object that spreads another may get its fields from
    /// there: it is not reported (`xcsh-unanalyzable` says so).
    ///
    /// ## Why
    /// A tool without them cannot be offered to the model or called: the loader
    /// rejects it.
    ///
    /// ## Example
    /// ```ts
    /// export default (pi) => ({ name: 'repo_stats', execute: 'git ls-files' })
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default (pi) => ({
    ///   name: 'repo_stats',
    ///   description: 'Count the files git tracks',
    ///   parameters: pi.typebox.Type.Object({ glob: pi.typebox.Type.String() }),
    ///   async execute(toolCallId, params, onUpdate, ctx, signal) {
    ///     const result = await pi.exec('git', ['ls-files', params.glob], { signal, cwd: pi.cwd })
    ///     return { content: [{ type: 'text', text: result.stdout }] }
    ///   },
    /// })
    /// ```
    ///
    /// ## Fix
    /// Add the missing fields; `execute(toolCallId, params, onUpdate, ctx,
    /// signal)` is a function.
    id: "xcsh-tool-shape",
    severity: Error,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, tool) in project.xcsh.tools() {
        let path = shown(project, module);
        if !tool.missing.is_empty() {
            let fields: Vec<String> = tool.missing.iter().map(|f| format!("`{f}`")).collect();
            let fields = match fields.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            };
            let message = format!("{} returned by `{path}` lacks {fields}", capitalised(&tool_label(tool)));
            let span = first_line_from(project, module, tool.span.start());
            out.push(at(&RULE, module, span, message).help(
                "an xcsh tool has `name`, `description`, `parameters` (a TypeBox schema) and `execute(toolCallId, params, onUpdate, ctx, signal)`",
            ));
        }
        if let Some((span, Execute::NotFunction)) = &tool.execute {
            let message = format!("`execute` of {} in `{path}` is not a function", tool_label(tool));
            out.push(at(&RULE, module, *span, message).help(
                "xcsh calls `execute(toolCallId, params, onUpdate, ctx, signal)`: make it a function (or a method)",
            ));
        }
    }
}
