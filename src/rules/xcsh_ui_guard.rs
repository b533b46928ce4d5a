use super::xcsh_site::{at, contracts, shown};
use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::xcsh::facts::UiUse;

crate::rules::declare_rule! {
    /// An xcsh tool uses `pi.ui` or `ctx.ui` without testing `hasUI`.
    ///
    /// ## What it checks
    /// Each `.ui` read on the host API (the factory's parameter) or on a
    /// context parameter (`ctx` of `execute`, of `onSession`) that runs only
    /// when `hasUI` is true: inside the `if` branch or `?:` consequent of a test
    /// of `hasUI`, the right side of `pi.hasUI && …`, or after
    /// `if (!pi.hasUI) return` in the same block. Tests are read through `!`,
    /// `&&`, `||`, `=== true`/`false`, `Boolean(…)` and a `const` holding one.
    /// A use where the test says there is *no* UI is an inverted guard, not a
    /// guard, and is reported as such: `pi.hasUI || pi.ui.notify()`, the `else`
    /// of `if (pi.hasUI)`, or after `if (pi.hasUI) return …`.
    ///
    /// ## Why
    /// In headless and non-interactive runs `hasUI` is false and the UI context
    /// is a no-op: prompts get no answer and notices go nowhere.
    ///
    /// ## Example
    /// ```ts
    /// export default (pi) => ({
    ///   name: 'repo_stats',
    ///   description: 'Count the files git tracks',
    ///   parameters: pi.typebox.Type.Object({ glob: pi.typebox.Type.String() }),
    ///   async execute(toolCallId, params, onUpdate, ctx, signal) {
    ///     pi.ui.notify('Scanning…') // no test
    ///     pi.hasUI || pi.ui.notify('Scanning…') // runs only without a UI
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
    ///     if (pi.hasUI) pi.ui.notify('Scanning…')
    ///     const result = await pi.exec('git', ['ls-files', params.glob], { signal, cwd: pi.cwd })
    ///     return { content: [{ type: 'text', text: result.stdout }] }
    ///   },
    /// })
    /// ```
    ///
    /// ## Fix
    /// Guard UI use with `pi.hasUI`: `if (pi.hasUI) pi.ui.notify('Scanning…')`,
    /// or `pi.hasUI && pi.ui.notify('Scanning…')`.
    id: "xcsh-ui-guard",
    severity: Warning,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, facts) in contracts(project) {
        let path = shown(project, module);
        for UiUse { span, written, inverted } in &facts.unguarded_ui {
            let (message, help) = match inverted {
                false => (
                    format!("`{written}` is used in `{path}` outside a test of `hasUI`: without a UI it is a no-op"),
                    "guard UI use with pi.hasUI: `if (pi.hasUI) { … }`",
                ),
                true => (
                    format!(
                        "`{written}` is used in `{path}` where `hasUI` is false: an inverted guard, not a guard; it runs only without a UI, where it is a no-op"
                    ),
                    "guard UI use with pi.hasUI the other way round: `if (pi.hasUI) { … }` or `pi.hasUI && …` runs it with a UI; `pi.hasUI || …` and `if (pi.hasUI) return` run it without one",
                ),
            };
            out.push(at(&RULE, module, *span, message).help(help));
        }
    }
}
