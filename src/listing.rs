//! `beeuni-lint ls`: every tool a session gets, like the docs' `beeuni tools ls`, then the xcsh custom tools.

use crate::catalog::{BEEUNI_TOOLS, HarnessTier, XCSH_BUILTIN_TOOLS};
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::tools::ToolValue;
use crate::modules::Module;
use crate::project::Project;
use crate::rules::site::AT_CALL;
use crate::rules::tool_name::name_problem;
use crate::source::FileId;
use crate::source::escape::escape;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    pub kind: &'static str,
    pub source: String,
    /// Its module will be skipped at load (`check` says why): the session does not get the tool. Only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub skipped_at_load: bool,
}

/// The rules whose errors say a declared module is skipped at load (the tool is not offered): it is missing, does
/// not parse, an import of it (or of a helper it loads) fails, or its default export is not the tool object. The
/// same list the Bun test holds to Bun's verdict (`tests/it/bun_runtime.rs`).
const SKIPPED_BY: &[&str] = &[
    "module-missing",
    "module-syntax",
    "module-import-missing",
    "module-package-missing",
    "module-no-default-export",
    "module-factory-export",
    "module-opencode-tool",
    "module-description",
    "module-parameters",
    "module-execute",
];

/// An xcsh custom tool the loader registers (docs/spec/rules.md §6).
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct XcshListed {
    pub name: String,
    pub path: String,
}

#[derive(Serialize, Debug)]
pub struct Listing {
    /// `None` in a project of xcsh tools only (no `beeuni.yaml`).
    pub manifest: Option<String>,
    pub tools_key: bool,
    pub tools: Vec<Listed>,
    pub removed: Vec<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub xcsh: Vec<XcshListed>,
}

/// The findings that keep `ls` and `agents` from answering (docs/spec/rules.md §10, revision 2): a file of the graph that
/// is not YAML, or a top-level value of the wrong type. A view never answers from a manifest it could not read.
pub fn unreadable(project: &Project) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for id in ["yaml-syntax", "manifest-shape"] {
        if let Some(check) = crate::rules::find(id).and_then(|rule| rule.check) {
            check(project, &mut out);
        }
    }
    out.sort_by_key(|d| (project.file(d.primary.file).shown.clone(), d.primary.span.start(), d.rule));
    out
}

pub fn listing(project: &Project) -> Listing {
    let xcsh = xcsh_tools(project);
    let Some(root) = project.root_file() else {
        return Listing { manifest: None, tools_key: false, tools: Vec::new(), removed: Vec::new(), xcsh };
    };
    let mut tools = Vec::new();
    for name in &project.loaded_beeuni {
        let overridden =
            project.tools.iter().find(|d| d.name == *name && d.loads_beeuni()).and_then(|d| d.module_path());
        tools.push(match overridden {
            Some(path) => Listed {
                name: name.to_string(),
                kind: "beeuni (overridden)",
                source: path.to_string(),
                skipped_at_load: false,
            },
            None => Listed {
                name: name.to_string(),
                kind: "beeuni",
                source: format!("beeuni:{name}"),
                skipped_at_load: false,
            },
        });
    }
    // The names listed so far: a search of the list for each declaration cost 2,000,000 comparisons at 2,000 tools
    // (a quarter of `ls`), and grew with the square of the tools.
    let mut listed: HashSet<&str> = project.loaded_beeuni.iter().map(|name| &name[..]).collect();
    for decl in project.tools.iter().filter(|d| !d.is_beeuni_name()) {
        let ToolValue::Module { path: Ok(path) } = &decl.value else {
            continue;
        };
        let refused = name_problem(&decl.name).is_some() || project.harness.tier(&decl.name) == Some(HarnessTier::One);
        if refused || !listed.insert(&decl.name) {
            continue;
        }
        tools.push(Listed {
            name: decl.name.to_string(),
            kind: "project",
            source: path.to_string(),
            skipped_at_load: false,
        });
    }
    let skipped = skipped_modules(project);
    for tool in tools.iter_mut().filter(|t| t.kind != "beeuni") {
        tool.skipped_at_load = skipped.contains(tool.source.as_str());
    }
    let removed = BEEUNI_TOOLS.iter().copied().filter(|name| !project.is_loaded_beeuni(name)).collect();
    let manifest = Some(project.file(root).shown.to_string());
    Listing { manifest, tools_key: !project.tools_keys.is_empty(), tools, removed, xcsh }
}

/// The declared modules (project-relative paths) that an error of [`SKIPPED_BY`] says are skipped at load: the
/// module of the finding, or for a helper the declared modules that load it; `module-missing` points at the
/// `tools:` entry. An import that fails only when a function runs does not stop the load.
fn skipped_modules(project: &Project) -> HashSet<&str> {
    let mut findings = Vec::new();
    for id in SKIPPED_BY {
        if let Some(check) = crate::rules::find(id).and_then(|rule| rule.check) {
            check(project, &mut findings);
        }
    }
    let by_file: HashMap<FileId, &Module> = project.modules.iter().map(|m| (m.file, m)).collect();
    // The declarations by where their entry starts, made at the first finding at an entry (`module-missing`):
    // searched for each finding, the declarations were tools times findings.
    let mut by_entry: Option<HashMap<(FileId, usize), Vec<&str>>> = None;
    let mut skipped = HashSet::new();
    for finding in findings.iter().filter(|d| d.severity == Severity::Error && !d.message.ends_with(AT_CALL)) {
        let at = &finding.primary;
        match by_file.get(&at.file) {
            Some(module) if module.is_declared() => {
                skipped.insert(project.module_path(module));
            }
            Some(helper) => skipped.extend(
                helper.loaded_by().iter().map(|&(root, _)| project.module_path(&project.modules[root as usize])),
            ),
            None => {
                let by_entry = by_entry.get_or_insert_with(|| {
                    let mut by_entry: HashMap<(FileId, usize), Vec<&str>> = HashMap::new();
                    for decl in &project.tools {
                        if let Some(path) = decl.module_path() {
                            by_entry.entry((decl.file, decl.entry().start())).or_default().push(path);
                        }
                    }
                    by_entry
                });
                skipped.extend(by_entry.get(&(at.file, at.span.start())).into_iter().flatten().copied());
            }
        }
    }
    skipped
}

/// The xcsh tools the loader registers: valid names, not a built-in's, the first of a name.
fn xcsh_tools(project: &Project) -> Vec<XcshListed> {
    let mut listed: Vec<XcshListed> = Vec::new();
    let mut seen = HashSet::new();
    for (name, module, _) in project.xcsh.named_tools() {
        if XCSH_BUILTIN_TOOLS.contains(&name) || !seen.insert(name) {
            continue;
        }
        listed.push(XcshListed { name: name.to_string(), path: project.file(module.file).shown.to_string() });
    }
    listed
}

/// The docs' table: each column as wide as its longest cell plus two. Names and paths are the repository's: each
/// cell is escaped ([`escape`]) before it is measured.
pub fn render_text(listing: &Listing) -> String {
    let mut out = if listing.manifest.is_some() { beeuni_table(listing) } else { String::new() };
    if !listing.xcsh.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str("xcsh custom tools:\n");
        let rows: Vec<[Cow<str>; 2]> = listing.xcsh.iter().map(|t| [escape(&t.name), escape(&t.path)]).collect();
        let width = rows.iter().map(|[name, _]| name.chars().count()).max().unwrap_or(0).max(4) + 2;
        out.push_str(&format!("{:<width$}FILE\n", "NAME"));
        for [name, path] in &rows {
            out.push_str(&format!("{name:<width$}{path}\n"));
        }
    }
    out
}

fn beeuni_table(listing: &Listing) -> String {
    let rows: Vec<[Cow<str>; 3]> = std::iter::once(["NAME", "KIND", "SOURCE"].map(Cow::Borrowed))
        .chain(listing.tools.iter().map(|t| [escape(&t.name), Cow::Borrowed(t.kind), escape(&t.source)]))
        .collect();
    let width = |column: usize| rows.iter().map(|r| r[column].chars().count()).max().unwrap_or(0) + 2;
    let (name_width, kind_width) = (width(0), width(1));
    let mut out = String::new();
    for [name, kind, source] in &rows {
        out.push_str(&format!("{name:<name_width$}{kind:<kind_width$}{source}\n"));
    }
    if !listing.removed.is_empty() {
        out.push_str(&format!("\nRemoved Beeuni tools: {}\n", listing.removed.join(", ")));
        out.push_str("Add `<name>: beeuni:<name>` under `tools:` to get one back.\n");
    }
    // After the documented table, which lists what the manifest gives: the tools a session will not get after all.
    let skipped: Vec<&Listed> = listing.tools.iter().filter(|t| t.skipped_at_load).collect();
    if !skipped.is_empty() {
        out.push('\n');
    }
    for tool in skipped {
        out.push_str(&format!(
            "{}: {} will be skipped at load, so sessions do not get the tool (`beeuni-lint check` says why)\n",
            escape(&tool.name),
            escape(&tool.source)
        ));
    }
    out
}

pub fn render_json(listing: &Listing) -> String {
    crate::source::escape::json_document(listing)
}
