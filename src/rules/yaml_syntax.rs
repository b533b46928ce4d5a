use crate::diagnostic::Diagnostic;
use crate::manifest::load::ProblemKind;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A file of the manifest graph is not valid YAML, not UTF-8, or holds more than one document.
    ///
    /// ## What it checks
    /// Every file of the graph (`beeuni.yaml` and every file it imports) must be
    /// one UTF-8 YAML document. The finding points at the parser's error
    /// position; a non-UTF-8 byte at its own line; a second document at its `---`.
    ///
    /// ## Why
    /// The platform cannot read a file it cannot parse: every tool, agent and
    /// import it declares is lost.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    ///  memory: beeuni:memory   # wrong indentation
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    ///   memory: beeuni:memory
    /// ```
    ///
    /// ## Fix
    /// Correct the YAML at the position shown. No automatic fix.
    id: "yaml-syntax",
    severity: Error,
    category: Manifest,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    super::load_problems(project, ProblemKind::Syntax, &RULE, out);
}
