use super::xcsh_site::{at, shown, tool_label};
use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::xcsh::facts::Execute;

crate::rules::declare_rule! {
    /// An xcsh tool's `execute` takes Beeuni's order `(args, context)`.
    ///
    /// ## What it checks
    /// `execute` of each tool an xcsh factory returns, when it takes one or two
    /// parameters and the first is named `params`, `args` or `input`, or is
    /// destructured (`{ glob }`): the shape of Beeuni's `execute(args, context)`.
    ///
    /// ## Why
    /// xcsh calls `execute(toolCallId, params, onUpdate, ctx, signal)`: the
    /// first argument is the call id, so such a function reads its arguments
    /// from a string and never sees them.
    ///
    /// ## Example
    /// ```ts
    /// export default (pi) => ({
    ///   name: 'repo_stats',
    ///   description: 'Count the files git tracks',
    ///   parameters: pi.typebox.Type.Object({ glob: pi.typebox.Type.String() }),
    ///   async execute({ glob }) {
    ///     const result = await pi.exec('git', ['ls-files', glob], { cwd: pi.cwd })
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
    /// Take `execute(toolCallId, params, onUpdate, ctx, signal)` and read the
    /// arguments from `params`.
    id: "xcsh-execute-signature",
    severity: Warning,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, tool) in project.xcsh.tools() {
        let Some((span, Execute::Function { params, first_destructured })) = &tool.execute else { continue };
        let beeuni_first =
            *first_destructured || params.first().is_some_and(|p| matches!(p.as_str(), "params" | "args" | "input"));
        if !(1..=2).contains(&params.len()) || !beeuni_first {
            continue;
        }
        let message = format!(
            "`execute({})` of {} in `{}` takes Beeuni's order: xcsh calls execute(toolCallId, params, onUpdate, ctx, signal): the first argument is the call id",
            params.join(", "),
            tool_label(tool),
            shown(project, module)
        );
        out.push(
            at(&RULE, module, *span, message)
                .help("take `execute(toolCallId, params, onUpdate, ctx, signal)` and read the arguments from `params`"),
        );
    }
}
