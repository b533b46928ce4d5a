use crate::diagnostic::Diagnostic;
use crate::manifest::load::ProblemKind;
use crate::project::Project;

crate::rules::declare_rule! {
    /// An import path is absolute, a URL, escapes the repository, or leads outside it through a symlink.
    ///
    /// ## What it checks
    /// Import paths are repo-relative, like module paths: no leading `/`, no
    /// `~`, no scheme (`https:`), no drive letter or backslashes, no `../` above
    /// the root, and no symlink whose target lies outside the repository (its
    /// target is never read).
    ///
    /// ## Why
    /// A config release contains only the repository's tracked files: anything
    /// outside it does not exist where sessions run.
    ///
    /// ## Example
    /// ```yaml
    /// imports:
    ///   - ../outside/agents.yaml
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// # beeuni.yaml
    /// imports:
    ///   - config/agents.yaml   # the file moved into the repository
    /// # config/agents.yaml
    /// agents: { support: { tools: none } }
    /// ```
    ///
    /// ## Fix
    /// Move the file into the repository and import it by its repo-relative path.
    id: "import-path",
    severity: Error,
    category: Manifest,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    super::load_problems(project, ProblemKind::ImportPath, &RULE, out);
}
