use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::source::Span;

crate::rules::declare_rule! {
    /// There is no `beeuni.yaml` at the root, but a misnamed manifest is there.
    ///
    /// ## What it checks
    /// The manifest is exactly `beeuni.yaml` at the repository root. A
    /// `beeuni.yml`, or the name in other letter case (`Beeuni.yaml`), is not read
    /// by the platform.
    ///
    /// ## Why
    /// With the manifest under another name the project has no manifest at all:
    /// every declaration in it is ignored.
    ///
    /// ## Example
    /// A repository with `beeuni.yml` and no `beeuni.yaml`.
    ///
    /// ## Use instead
    /// The same repository with the file renamed to `beeuni.yaml` (`git mv beeuni.yml beeuni.yaml`).
    ///
    /// ## Fix
    /// Rename the file to `beeuni.yaml`.
    id: "manifest-name",
    severity: Error,
    category: Manifest,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let Some(file) = project.misnamed_manifest else { return };
    let path = &project.file(file).shown;
    let span = project.file(file).line_span(0);
    let message = format!("the manifest must be named `beeuni.yaml`; `{path}` is not read");
    let help = format!("rename `{path}` to `beeuni.yaml`");
    out.push(RULE.diagnostic(Label::new(file, Span::new(0, span.end())), message).help(help));
}
