//! Change-aware runs: the base version of the project (read from git
//! objects), what it loaded, and which lines a change adds or modifies.

use crate::catalog::BEEUNI_TOOLS;
use crate::diagnostic::Diagnostic;
use crate::manifest::load::{self, Parsed, ProblemKind};
use crate::manifest::tools;
use crate::project::{BaseFacts, Project};
use crate::repo::checkout::{Checkout, Side};
use crate::repo::git::{GitSource, changed_lines};
use crate::rules;
use crate::source::{FileId, Sources};
use std::collections::{HashMap, HashSet};

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

/// Reads the base's manifest graph (files the head parsed are reused where the base holds the same bytes, and
/// so are their declarations) and reduces it to the facts the §7 rules read.
pub fn base_facts(head: &Project, head_checkout: &Checkout, sides: &Sides) -> BaseFacts {
    let checkout = head_checkout.at(sides.base);
    let description = sides.base_description.clone();
    let Ok(Ok(manifest)) = crate::discover::manifest(&checkout) else {
        return BaseFacts { description, ..BaseFacts::default() };
    };
    let mut sources = Sources::default();
    let parsed = Parsed::of(&head.graph, &head.sources, head_checkout.side);
    let graph = load::load(&checkout, &manifest, &mut sources, &parsed, None);
    if graph.problems.iter().any(|p| p.kind == ProblemKind::Syntax) {
        // What sessions got from a base that does not parse is unknown: claim no removal.
        return BaseFacts { description, ..BaseFacts::default() };
    }
    // A reused file declares at the base what it declares in the head.
    let reused: HashSet<&str> =
        graph.files.iter().filter(|f| f.reused).map(|f| sources.get(f.file).path.as_str()).collect();
    let mut tools_key = head.tools_keys.iter().any(|k| reused.contains(head.file(k.file).path.as_str()));
    // Of a reused file only its Beeuni tools matter: its project tools are all still declared in the head.
    let mut declared: Vec<(String, String, bool, bool)> = head
        .tools
        .iter()
        .filter(|d| d.loads_beeuni() && reused.contains(head.file(d.file).path.as_str()))
        .map(|d| (d.name.to_string(), head.file(d.file).path.to_string(), true, true))
        .collect();
    for (index, file) in graph.files.iter().enumerate().filter(|(_, f)| !f.reused) {
        let (mut keys, mut decls) = (Vec::new(), Vec::new());
        tools::collect_file(&graph, index, None, &mut keys, &mut decls, &mut Vec::new());
        tools_key |= !keys.is_empty();
        let path = &sources.get(file.file).path;
        declared
            .extend(decls.iter().map(|d| (d.name.to_string(), path.to_string(), d.loads_beeuni(), d.is_beeuni_name())));
    }
    let loaded_beeuni = BEEUNI_TOOLS
        .iter()
        .copied()
        .filter(|name| !tools_key || declared.iter().any(|(n, _, loads, _)| n == name && *loads))
        .collect();
    let beeuni_declared_in = declared
        .iter()
        .filter(|(_, _, loads, _)| *loads)
        .map(|(name, path, _, _)| (name.clone(), path.clone()))
        .collect();
    let project_tools = declared.into_iter().filter(|(_, _, _, beeuni)| !beeuni).map(|(name, ..)| name).collect();
    BaseFacts { description, loaded_beeuni, beeuni_declared_in, project_tools }
}

/// Keeps the findings on lines the change adds or modifies, and every change-aware finding (they are about the
/// change itself, wherever they point).
pub fn only_changed(
    project: &Project,
    checkout: &Checkout,
    sides: &Sides,
    diagnostics: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let base = checkout.at(sides.base);
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
            lines.contains(&project.file(file).position(d.primary.span.start()).line)
        })
        .collect()
}
