use crate::catalog::HarnessTier;
use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool under `tools:` takes the name of a harness tool.
    ///
    /// ## What it checks
    /// A declared name is one of the harness's own tools (`bash`, `read`,
    /// `write`, `edit`, `glob`, `grep`, `task`, `question`, `apply_patch`, the
    /// terminal plugin's `pty_*`, … and any name added with `harness-tools` in
    /// `beeuni-lint.toml`).
    ///
    /// ## Why
    /// The docs make it an error, and the standard harness does not reject it:
    /// the project tool silently replaces the built-in one.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   bash: tools/bash.ts
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   run_checks: tools/run_checks.ts
    /// ```
    ///
    /// ## Fix
    /// Give the tool its own name.
    id: "harness-tool-name",
    severity: Error,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for decl in &project.tools {
        if project.harness.tier(&decl.name) == Some(HarnessTier::One) {
            let message = format!("`{}` is a harness tool; a project tool cannot take its name", decl.name);
            let help = format!("rename the tool, e.g. `project_{}`", decl.name);
            out.push(RULE.diagnostic(Label::new(decl.file, decl.entry()), message).help(help));
        }
    }
}
