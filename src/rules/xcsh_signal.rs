use super::xcsh_site::{at, contracts, shown};
use crate::diagnostic::Diagnostic;
use crate::project::Project;

crate::rules::declare_rule! {
    /// `pi.exec(...)` inside an xcsh tool's `execute` does not forward `signal`.
    ///
    /// ## What it checks
    /// Every call of the host API's `exec` (`pi.exec(command, args, options)`,
    /// or an `exec` destructured from it) inside a tool's `execute`, whose
    /// options are missing or an object literal without `signal`. Options held
    /// in a variable, or spread, may carry it and are not reported.
    ///
    /// ## Why
    /// xcsh aborts a tool through the `signal` `execute` receives; a subprocess
    /// started without it keeps running after the user stops the turn.
    ///
    /// ## Example
    /// ```ts
    /// export default (pi) => ({
    ///   name: 'repo_stats',
    ///   description: 'Count the files git tracks',
    ///   parameters: pi.typebox.Type.Object({ glob: pi.typebox.Type.String() }),
    ///   async execute(toolCallId, params, onUpdate, ctx, signal) {
    ///     const result = await pi.exec('git', ['ls-files', params.glob], { cwd: pi.cwd })
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
    /// Forward it: `pi.exec('git', ['ls-files'], { signal, cwd: pi.cwd })`.
    id: "xcsh-signal",
    severity: Warning,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, facts) in contracts(project) {
        let text = &project.file(module.file).text;
        for span in &facts.exec_without_signal {
            let callee = text.get(span.range()).and_then(|call| call.split('(').next()).unwrap_or("exec").trim();
            let message = format!(
                "`{callee}(...)` inside `execute` of `{}` passes no `signal`: stopping the turn does not stop the process",
                shown(project, module)
            );
            out.push(
                at(&RULE, module, *span, message).help("forward signal to subprocess work: pi.exec(..., { signal })"),
            );
        }
    }
}
