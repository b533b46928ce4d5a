use super::xcsh_site::{at, shown};
use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::xcsh::facts::Name;
use crate::xcsh::is_valid_name;

crate::rules::declare_rule! {
    /// An xcsh tool's `name` is not a non-empty string of letters, digits, `_` or `-`.
    ///
    /// ## What it checks
    /// The `name` of each tool an xcsh factory returns, when it is a literal (or
    /// a `const` holding one): a non-empty string of ASCII letters, digits, `_`
    /// and `-`.
    ///
    /// ## Why
    /// The name is how the model calls the tool; model providers accept only
    /// these characters in a tool name, and the registry is keyed by it.
    ///
    /// ## Example
    /// ```ts
    /// export default (pi) => ({
    ///   name: 'repo stats',
    ///   description: 'Count the files git tracks',
    ///   parameters: pi.typebox.Type.Object({ glob: pi.typebox.Type.String() }),
    ///   async execute(toolCallId, params, onUpdate, ctx, signal) {
    ///     const result = await pi.exec('git', ['ls-files', params.glob], { signal, cwd: pi.cwd })
    ///     return { content: [{ type: 'text', text: result.stdout }] }
    ///   },
    /// })
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
    /// Use a name such as `repo_stats`.
    id: "xcsh-name",
    severity: Error,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, tool) in project.xcsh.tools() {
        let Some((span, name)) = &tool.name else { continue };
        let path = shown(project, module);
        let message = match name {
            Name::Text(name) if name.is_empty() => format!("a tool in `{path}` has an empty `name`"),
            Name::Text(name) if !is_valid_name(name) => {
                format!("the tool name `{name}` in `{path}` is not valid: use letters, digits, `_` or `-`")
            }
            Name::NotString => format!("the `name` of a tool in `{path}` is not a string"),
            Name::Text(_) | Name::Unknown => continue,
        };
        out.push(at(&RULE, module, *span, message).help(
            "`name` is how the model calls the tool: a non-empty string of letters, digits, `_` or `-`, e.g. `repo_stats`",
        ));
    }
}
