//! Change-aware runs: the base version of the project (read from git
//! objects), what it loaded, and which lines a change adds or modifies.

use crate::diagnostic::Diagnostic;
use crate::manifest::load::{Parsed, ProblemKind};
use crate::project::{Project, ProjectInput};
use crate::repo::checkout::{Checkout, Side};
use crate::repo::git::{GitSource, changed_lines};
use crate::rules;
use crate::source::FileId;
use std::collections::{HashMap, HashSet};

/// What the base version of the project declared and loaded: all §7 rules need.
#[derive(Debug, Default)]
pub struct BaseFacts {
    /// "merge base 1a2b3c4 of origin/main and HEAD", "HEAD (1a2b3c4)", …
    pub description: String,
    pub loaded_beeuni: Vec<&'static str>,
    /// Where each loaded Beeuni tool was declared at the base: (name, project-relative file).
    pub beeuni_declared_in: Vec<(String, String)>,
    /// Names declared under `tools:` that are not Beeuni tools.
    pub project_tools: Vec<String>,
}

/// The two versions a change-aware run compares.
pub struct Sides {
    pub base: Side,
    pub base_description: String,
    pub head: Side,
}

/// Picks base and head for `--base REV` and/or `--staged`.
pub fn sides(work: &Checkout, base: Option<&str>, staged: bool) -> Result<Sides, String> {
    let flag = if staged && base.is_none() { "--staged" } else { "--base" };
    let git = work
        .git
        .as_ref()
        .ok_or_else(|| format!("`{flag}` needs a git repository; none holds {}", work.root.display()))?;
    let found = match base {
        Some(rev) => git.merge_base(rev)?,
        None => git.head_base()?,
    };
    let head = if staged { Side::Git(GitSource::Index) } else { Side::WorkTree };
    let base = found.source.map_or(Side::Empty, Side::Git);
    Ok(Sides { base, base_description: found.description, head })
}

/// Builds the base project (manifest graph only; files the head parsed are reused where the base holds the same
/// bytes) and reduces it to the facts the §7 rules read.
pub fn base_facts(head: &Project, sides: &Sides, harness_tools: &[String]) -> BaseFacts {
    let work = &head.checkout;
    let checkout = work.at(sides.base);
    let description = sides.base_description.clone();
    let Ok(Ok(manifest)) = crate::discover::manifest(&checkout) else {
        return BaseFacts { description, ..BaseFacts::default() };
    };
    let base = Project::build(ProjectInput {
        checkout,
        manifest: Ok(manifest),
        harness_tools: harness_tools.to_vec(),
        analyse_modules: false,
        parsed: &Parsed::of(&head.graph, &head.sources),
    });
    if base.graph.problems.iter().any(|p| p.kind == ProblemKind::Syntax) {
        // What sessions got from a base that does not parse is unknown: claim no removal.
        return BaseFacts { description, ..BaseFacts::default() };
    }
    let beeuni_declared_in = base
        .tools
        .iter()
        .filter(|t| t.loads_beeuni())
        .map(|t| (t.name.clone(), base.file(t.file).path.clone()))
        .collect();
    let project_tools = base.tools.iter().filter(|t| !t.is_beeuni_name()).map(|t| t.name.clone()).collect();
    BaseFacts { description, loaded_beeuni: base.loaded_beeuni.clone(), beeuni_declared_in, project_tools }
}

/// Keeps the findings on lines the change adds or modifies, and every change-aware finding (they are about the
/// change itself, wherever they point).
pub fn only_changed(project: &Project, sides: &Sides, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let base = project.checkout.at(sides.base);
    let mut changed: HashMap<FileId, HashSet<usize>> = HashMap::new();
    diagnostics
        .into_iter()
        .filter(|d| {
            if rules::is_change_aware(d.rule) {
                return true;
            }
            let file = d.primary.file;
            let lines = changed.entry(file).or_insert_with(|| {
                let head = project.file(file);
                let old = base.read(&head.path).ok().map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
                changed_lines(old.as_deref(), &head.text).into_iter().collect()
            });
            lines.contains(&project.file(file).position(d.primary.span.start).line)
        })
        .collect()
}
