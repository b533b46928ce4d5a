//! What `eject` and `restore` share: loading a project they may edit, the trailing comment of a line, the
//! state of a module file, and writing (atomically, re-parsed first).

use super::splice;
use super::transaction::{self, Step};
use crate::diagnostic::Edit;
use crate::error::Error;
use crate::lint::{CheckOptions, Loaded, load};
use crate::manifest::load::ProblemKind;
use crate::project::Project;
use crate::repo::checkout::Checkout;
use crate::source::{FileId, Span};
use std::path::Path;

/// The project that holds `path` and its checkout, when its manifest graph reads cleanly (an edit of a file that
/// does not parse could not keep what the user wrote).
pub fn load_for_edit(path: &Path) -> Result<(Project, Checkout), Error> {
    let Loaded { project, checkout, .. } = load(&CheckOptions::new(path.to_path_buf()))?;
    if project.misnamed_manifest.is_some() {
        return Err(Error::Edit("no beeuni.yaml at the project root (run `beeuni-lint check` for details)".into()));
    }
    if let Some(problem) = project.graph.problems.iter().find(|p| p.kind == ProblemKind::Syntax) {
        let file = project.file(problem.at.file);
        let line = file.position(problem.at.span.start()).line;
        return Err(Error::Edit(format!("{}:{line} is not valid YAML ({}): fix it first", file.path, problem.message)));
    }
    Ok((project, checkout))
}

/// The comment at the end of the line that holds `after` (from its `#`), in a file of the graph.
pub fn trailing_comment(project: &Project, file: FileId, after: usize) -> Option<Span> {
    let manifest = project.graph.files.iter().find(|m| m.file == file)?;
    let source = project.file(file);
    let line = source.line_index(after);
    let comment =
        manifest.doc.comments.iter().find(|c| c.span.start() >= after && source.line_index(c.span.start()) == line)?;
    let hash = source.text[..comment.span.start() + 1].rfind('#')?;
    Some(Span::new(hash, comment.span.end().max(hash + 1)))
}

/// A module file's state, for an edit that would overwrite or delete it.
pub enum Target {
    Absent,
    /// Git reports it unmodified (or there is no git to ask).
    Clean,
    /// It has changes git does not hold, or is not a file inside the repository: why.
    Changed(String),
}

pub fn module_state(checkout: &Checkout, rel: &str) -> Target {
    if !checkout.is_file(rel) {
        return match std::fs::symlink_metadata(checkout.root.join(rel)) {
            Err(_) => Target::Absent,
            Ok(_) => Target::Changed("is not a regular file inside the repository".into()),
        };
    }
    if !checkout.in_git() || checkout.is_unmodified(rel) {
        return Target::Clean;
    }
    Target::Changed(if checkout.is_tracked(rel) {
        "has changes git has not committed".into()
    } else {
        "is not committed".into()
    })
}

/// A manifest file with `edits` applied, checked to still parse; nothing is written. Returns its project-relative
/// path, its new text, and the first edited line as it now reads (for the report).
pub fn edited(project: &Project, file: FileId, edits: &[Edit]) -> Result<Edited, Error> {
    let source = project.file(file);
    let pairs: Vec<(Span, &str)> = edits.iter().map(|e| (e.span, e.content.as_str())).collect();
    let text = splice(&source.text, &pairs).ok_or_else(|| Error::Edit("the edits overlap".into()))?;
    crate::yaml::parse(&text).map_err(|e| {
        Error::Edit(format!("the edit would make {} invalid YAML ({}): nothing written", source.path, e.message))
    })?;
    // The line the first edit's text lands on: an added entry starts with the line break that ends the line
    // before it, which is not the line set (it named the entry above the new one).
    let first = edits.iter().min_by_key(|e| e.span.start());
    let at = first.map_or(0, |e| e.span.start() + e.content.len() - e.content.trim_start_matches(['\r', '\n']).len());
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = text[start..end].trim_start_matches('\u{feff}').trim().trim_end_matches('\r').to_string();
    Ok(Edited { path: source.path.to_string(), text, line })
}

/// A manifest file as an edit leaves it.
pub struct Edited {
    pub path: String,
    pub text: String,
    /// The first edited line.
    pub line: String,
}

/// Writes every step (atomically each, and all of them or none); an error names the file that could not be written.
pub fn write_all(project: &Project, steps: &[Step]) -> Result<(), Error> {
    transaction::apply(&project.root, steps)
        .map_err(|failed| Error::Edit(format!("cannot write {}: {}", steps[failed.at].path(), failed.why)))
}

/// Why `eject NAME` / `restore NAME` refuse a name that is no Beeuni tool, with the one meant when it is near.
pub fn not_a_beeuni_tool(name: &str, command: &str) -> String {
    let hint = crate::suggest::did_you_mean_typed(name, &crate::catalog::BEEUNI_TOOLS)
        .map_or_else(String::new, |hint| format!(" ({hint})"));
    format!("`{name}` is not a Beeuni tool{hint}: {command} takes one of {}", crate::catalog::BEEUNI_TOOLS.join(", "))
}
