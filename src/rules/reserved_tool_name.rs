use crate::catalog::HarnessTier;
use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool under `tools:` takes a name some harness versions use.
    ///
    /// ## What it checks
    /// A declared name is a tier-2 harness tool: present in some harness
    /// versions or behind flags (`list`, `patch`, `multiedit`, `lsp`, `batch`,
    /// `execute`, …).
    ///
    /// ## Why
    /// Where that harness tool exists, the two collide, and which one the model
    /// calls depends on the harness version.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   list: tools/list.ts
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   list_orders: tools/list_orders.ts
    /// ```
    ///
    /// ## Fix
    /// Prefer a name of your own, e.g. `list_orders`.
    id: "reserved-tool-name",
    severity: Info,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for decl in &project.tools {
        if project.harness.tier(&decl.name) == Some(HarnessTier::Two) {
            let message = format!(
                "`{}` is the name of a harness tool in some versions or behind flags: it may collide",
                decl.name
            );
            let help = "give the tool a more specific name";
            out.push(RULE.diagnostic(Label::new(decl.file, decl.entry()), message).help(help));
        }
    }
}
