use super::xcsh_site::{at, contracts, shown};
use crate::diagnostic::Diagnostic;
use crate::project::Project;

crate::rules::declare_rule! {
    /// An xcsh tool uses `pi.ui` or `ctx.ui` without testing `hasUI`.
    ///
    /// ## What it checks
    /// Each `.ui` read on the host API (the factory's parameter) or on a
    /// context parameter (`ctx` of `execute`, of `onSession`) that is not inside
    /// an `if`, `&&`/`||` or `?:` whose test reads `hasUI`, nor after an
    /// `if (!pi.hasUI) return` in the same block.
    ///
    /// ## Why
    /// In headless and non-interactive runs `hasUI` is false and the UI context
    /// is a no-op: prompts get no answer and notices go nowhere.
    ///
    /// ## Example
    /// ```ts
    /// pi.ui.notify('Scanning…')
    /// ```
    ///
    /// ## Fix
    /// Guard UI use with `pi.hasUI`: `if (pi.hasUI) pi.ui.notify('Scanning…')`.
    id: "xcsh-ui-guard",
    severity: Warning,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, facts) in contracts(project) {
        for (span, written) in &facts.unguarded_ui {
            let message = format!(
                "`{written}` is used in `{}` outside a test of `hasUI`: without a UI it is a no-op",
                shown(project, module)
            );
            out.push(at(&RULE, module, *span, message).help("guard UI use with pi.hasUI: `if (pi.hasUI) { … }`"));
        }
    }
}
