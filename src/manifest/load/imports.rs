//! The `imports:` entries of a loaded file, and what is wrong with one: a path that is not repo-relative, a file
//! that is missing, outside the repository or not staged, a cycle.

use super::{LoadProblem, ProblemKind};
use crate::diagnostic::Label;
use crate::repo::checkout::{Checkout, Resolved};
use crate::repo::fs::{self, Refusal};
use crate::source::{FileId, Sources, Span};
use crate::yaml::{Document, NodeId, block_item_start};
use std::path::Path;

/// An `imports:` item of a loaded file.
pub(super) struct ImportItem {
    pub(super) label: Label,
    pub(super) path: String,
}

pub(super) fn import_items(doc: &Document, file: FileId, text: &str) -> Vec<ImportItem> {
    let Some(root) = doc.root else { return Vec::new() };
    let Some(imports) = doc.entries(root).and_then(|e| e.into_iter().find(|e| doc.scalar(e.key) == Some("imports")))
    else {
        return Vec::new();
    };
    let items: &[NodeId] = doc.items(imports.value).unwrap_or(&[]);
    items
        .iter()
        .filter_map(|&item| {
            let path = doc.str(item)?.to_string();
            let span = doc.node(item).span;
            let label = Label::new(file, Span::new(block_item_start(text, span.start()), span.end()));
            Some(ImportItem { label, path })
        })
        .collect()
}

/// Why a path is not a plain repo-relative one, if it is not.
pub fn non_relative_reason(path: &str) -> Option<&'static str> {
    let bytes = path.as_bytes();
    // Byte searches: this runs for every declaration and import.
    let scheme = bytes.iter().position(|&b| b == b':').is_some_and(|colon| {
        colon > 0 && bytes[..colon].iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    });
    if path.is_empty() {
        Some("is empty")
    } else if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        Some("starts with a drive letter")
    } else if scheme {
        Some("is a URL or has a scheme")
    } else if path.starts_with('/') {
        Some("is absolute")
    } else if path.starts_with('~') {
        Some("starts with `~`")
    } else if bytes.contains(&b'\\') {
        Some("uses backslashes")
    } else {
        None
    }
}

/// An `imports:` entry that names a file of the repository (repo-relative path).
pub(super) enum Import {
    File(String, Resolved),
    TooLarge(String, u64),
}

pub(super) fn check_import(
    checkout: &Checkout,
    sources: &Sources,
    from: FileId,
    item: &ImportItem,
    problems: &mut Vec<LoadProblem>,
) -> Option<Import> {
    let problem = |kind, message: String, help: Option<String>| LoadProblem {
        kind,
        at: item.label.clone(),
        message,
        help,
        related: Vec::new(),
    };
    let help = Some("import paths are repo-relative, like `config/agents.yaml`".to_string());
    if let Some(reason) = non_relative_reason(&item.path) {
        problems.push(problem(ProblemKind::ImportPath, format!("import path `{}` {reason}", item.path), help));
        return None;
    }
    // `a.yaml/` names a folder: opening it fails ("not a directory") even where `a.yaml` is a file.
    if item.path.ends_with('/') {
        let message = format!("imported file `{}` ends in `/`: it names a folder, not a file", item.path);
        let help = format!("write `{}`", item.path.trim_end_matches('/'));
        problems.push(problem(ProblemKind::ImportMissing, message, Some(help)));
        return None;
    }
    let Some(rel) = fs::normalize(&item.path) else {
        let message = format!("import path `{}` escapes the repository", item.path);
        problems.push(problem(ProblemKind::ImportPath, message, help));
        return None;
    };
    match checkout.resolve(&rel) {
        Ok(real) => Some(Import::File(rel, real)),
        // The file is there: what is wrong is in it, so the finding goes on it, not on this entry.
        Err(Refusal::TooLarge(size)) => Some(Import::TooLarge(rel, size)),
        Err(Refusal::OutsideRepository) => {
            let message = format!("import `{}` resolves through a symlink to outside the repository", item.path);
            problems.push(problem(
                ProblemKind::ImportPath,
                message,
                Some("import a file inside the repository".into()),
            ));
            None
        }
        Err(Refusal::GitFolder) => {
            let message = format!("import `{}` is inside `.git`, git's own folder: it is never read", item.path);
            let help = "import a file of the repository's content, outside `.git`".to_string();
            problems.push(problem(ProblemKind::ImportPath, message, Some(help)));
            None
        }
        Err(Refusal::NotFound) if checkout.only_in_work_tree(&rel) => {
            // Worded as `file-untracked` words it: an ignored file is said to be ignored, and how to add it.
            let (message, help) = checkout.unstaged(&rel).wording(&rel, &checkout.git_prefix, "imported file");
            problems.push(problem(ProblemKind::Unstaged, message, Some(help)));
            None
        }
        Err(refusal) => {
            let beside = Path::new(&sources.get(from).path).parent().map(|dir| dir.join(&item.path));
            let beside =
                beside.and_then(|p| fs::normalize(&p.to_string_lossy())).filter(|p| *p != rel && checkout.is_file(p));
            let help = match beside {
                Some(found) => Some(format!(
                    "import paths are repo-relative; relative to `{}` it is `{found}`: write that instead",
                    sources.get(from).path
                )),
                None => Some("fix the path or remove the entry".into()),
            };
            let message = format!("imported file `{}` {}", item.path, refusal.describe());
            problems.push(problem(ProblemKind::ImportMissing, message, help));
            None
        }
    }
}
