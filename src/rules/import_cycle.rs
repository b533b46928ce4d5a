use crate::diagnostic::Diagnostic;
use crate::manifest::load::ProblemKind;
use crate::project::Project;

crate::rules::declare_rule! {
    /// The imports form a cycle.
    ///
    /// ## What it checks
    /// Walking `imports:` depth-first from `beeuni.yaml`, an import that leads
    /// back to a file still being read closes a cycle. Files that import one
    /// another through cycles (a strongly connected group of the import graph)
    /// are one finding, however many imports close cycles among them: at the
    /// first such item the walk meets, naming that cycle (its first 8 files, then
    /// how many more) and, when the group is larger than the cycle, how many
    /// files it holds; the other entries of the named cycle are related
    /// locations. Paths are compared after normalisation, so `./a.yaml` and
    /// `config/../a.yaml` are the same file.
    ///
    /// ## Why
    /// A cycle has no defined order: which file's declarations come first is
    /// unclear, and a loader that follows it never ends.
    ///
    /// ## Example
    /// ```yaml
    /// # beeuni.yaml
    /// imports: [config/agents.yaml]
    /// # config/agents.yaml
    /// imports: [beeuni.yaml]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// # beeuni.yaml
    /// imports: [config/agents.yaml]
    /// # config/agents.yaml
    /// agents: { support: { tools: none } }
    /// ```
    ///
    /// ## Fix
    /// Remove one import of the cycle.
    id: "import-cycle",
    severity: Error,
    category: Manifest,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    super::load_problems(project, ProblemKind::ImportCycle, &RULE, out);
}
