use crate::diagnostic::Diagnostic;
use crate::manifest::load::ProblemKind;
use crate::project::Project;

crate::rules::declare_rule! {
    /// An `imports:` entry names a file that does not exist.
    ///
    /// ## What it checks
    /// Each item of `imports:` is a repo-relative path; the file must exist and be
    /// a regular file (not a folder or a FIFO). When the path is found relative to
    /// the importing file instead, the help says so.
    ///
    /// ## Why
    /// A missing import drops every tool and agent it was meant to declare.
    ///
    /// ## Example
    /// ```yaml
    /// imports:
    ///   - config/agent.yaml   # the file is config/agents.yaml
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// # beeuni.yaml
    /// imports:
    ///   - config/agents.yaml
    /// # config/agents.yaml
    /// agents: { support: { tools: none } }
    /// ```
    ///
    /// ## Fix
    /// Correct the path (repo-relative) or remove the entry.
    id: "import-missing",
    severity: Error,
    category: Manifest,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    super::load_problems(project, ProblemKind::ImportMissing, &RULE, out);
}
