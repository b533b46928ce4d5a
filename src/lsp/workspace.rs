//! What the server knows: the open buffers (laid over the work tree), and for each project one linted model,
//! rebuilt from the buffers on every change while reusing every file whose text did not change.

use super::convert;
use crate::diagnostic::Diagnostic;
use crate::discover::MANIFEST;
use crate::lint::CheckOptions;
use crate::manifest::load::Parsed;
use crate::modules::Reused;
use crate::project::Project;
use crate::repo::checkout::{Checkout, DiskMemo, Overlay, Side};
use crate::source::escape::escape_lines;
use crate::source::{FileId, SourceFile};
use crate::{rules, suppress};
use lsp_types::{PublishDiagnosticsParams, Uri};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the disk is taken as unchanged between two saves (or opens, or closes): files changed by other
/// programs show within this.
const DISK_TRUSTED_FOR: Duration = Duration::from_secs(2);

pub struct Document {
    pub uri: Uri,
    /// Canonical absolute path.
    pub path: PathBuf,
    pub version: i32,
    pub text: Arc<str>,
    /// The root of the project that holds it (the nearest folder above it with `beeuni.yaml`).
    pub project: Option<PathBuf>,
}

/// One project as last linted.
pub struct Linted {
    pub project: Project,
    /// What the project was read from (the model does not hold it).
    pub checkout: Checkout,
    /// After ignores and config, in report order.
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Default)]
pub struct Workspace {
    /// By URI, as the client sent it.
    pub docs: HashMap<String, Document>,
    pub projects: HashMap<PathBuf, Linted>,
    /// What each project's disk answered lately (see [`DiskMemo`]), and since when.
    memos: HashMap<PathBuf, (Arc<DiskMemo>, Instant)>,
    /// The last error each project's run gave (a bad config, an unreadable repository), to tell the user once.
    errors: HashMap<PathBuf, String>,
}

/// What a lint run asks the client to do.
#[derive(Default)]
pub struct Outcome {
    pub publish: Vec<PublishDiagnosticsParams>,
    /// An error to show (once per new error).
    pub message: Option<String>,
    /// The project's model before this run: freed once the diagnostics are out.
    pub retired: Option<Linted>,
}

impl Workspace {
    pub fn open(&mut self, uri: Uri, version: i32, text: String) -> Option<PathBuf> {
        let path = canonical(&convert::uri_to_path(&uri)?);
        let project = project_root(&path);
        let text = text.into();
        self.docs.insert(uri.as_str().to_string(), Document { uri, path, version, text, project: project.clone() });
        self.disk_changed(project.as_deref());
        project
    }

    /// Replaces a buffer's text; the project to lint again.
    pub fn change(&mut self, uri: &Uri, version: i32, text: String) -> Option<PathBuf> {
        let doc = self.docs.get_mut(uri.as_str())?;
        doc.version = version;
        doc.text = text.into();
        doc.project.clone()
    }

    /// Forgets a buffer (the file on disk counts again); the project to lint again.
    pub fn close(&mut self, uri: &Uri) -> Option<PathBuf> {
        let doc = self.docs.remove(uri.as_str())?;
        // The file on disk counts again, and may differ from what the buffer was.
        self.disk_changed(doc.project.as_deref());
        if let Some(root) = &doc.project
            && !self.docs.values().any(|d| d.project.as_ref() == Some(root))
        {
            // No open file of the project is left: let its model go.
            self.projects.remove(root);
            self.errors.remove(root);
            self.memos.remove(root);
        }
        doc.project
    }

    /// The disk may have changed (a save, a file opened or closed): look again on the next run.
    pub fn disk_changed(&mut self, root: Option<&Path>) {
        if let Some(root) = root {
            self.memos.remove(root);
        }
    }

    /// Lints the project at `root` with the buffers in place, and the diagnostics of each of its open files.
    pub fn lint(&mut self, root: &Path) -> Outcome {
        let mut options = CheckOptions::new(root.to_path_buf());
        options.keep_texts = true;
        let previous = self.projects.remove(root);
        let parsed = previous.as_ref().map_or_else(Reused::default, |linted| {
            let project = &linted.project;
            let files = Parsed::of(&project.graph, &project.sources, Side::WorkTree);
            Reused::new(files, &project.modules, &project.sources)
        });
        let memo = match self.memos.get(root) {
            Some((memo, since)) if since.elapsed() < DISK_TRUSTED_FOR => memo.clone(),
            _ => {
                let memo = Arc::new(DiskMemo::default());
                crate::repo::fs::forget_folders();
                self.memos.insert(root.to_path_buf(), (memo.clone(), Instant::now()));
                memo
            }
        };
        let loaded = crate::lint::load_over(&options, Some(Arc::new(self.overlay(root))), &parsed, Some(memo));
        drop(parsed);
        let mut outcome = Outcome { retired: previous, ..Outcome::default() };
        match loaded {
            Ok(loaded) => {
                self.errors.remove(root);
                let mut diagnostics =
                    suppress::apply(&loaded.project, &loaded.config, None, rules::check(&loaded.project));
                rules::hints::complete(&loaded.project, &mut diagnostics);
                // The code actions offer what `--fix` would apply: the fixes that pass the fix stage's checks.
                crate::fix::offer::verify_in(&loaded.project.sources, &mut diagnostics);
                self.projects.insert(
                    root.to_path_buf(),
                    Linted { project: loaded.project, checkout: loaded.checkout, diagnostics },
                );
            }
            Err(error) => {
                let message = error.to_string();
                if self.errors.insert(root.to_path_buf(), message.clone()).as_ref() != Some(&message) {
                    outcome.message = Some(format!("beeuni-lint: {}", escape_lines(&message)));
                }
            }
        }
        outcome.publish = self.diagnostics_of(root);
        outcome
    }

    /// The open buffers of the project at `root`, by project-relative path, to lay over its files.
    fn overlay(&self, root: &Path) -> Overlay {
        let buffers = self.docs.values().filter(|d| d.project.as_deref() == Some(root));
        buffers.filter_map(|d| Some((relative(root, &d.path)?, Some(d.text.as_bytes().to_vec())))).collect()
    }

    /// The diagnostics of every open file of the project at `root` (an empty list clears a file's).
    fn diagnostics_of(&self, root: &Path) -> Vec<PublishDiagnosticsParams> {
        let linted = self.projects.get(root);
        let mut out = Vec::new();
        for doc in self.docs.values().filter(|d| d.project.as_deref() == Some(root)) {
            let mut diagnostics = Vec::new();
            if let Some((linted, file)) = linted.and_then(|l| Some((l, self.file_of(l, doc)?))) {
                let source = linted.project.file(file);
                let locate = |id: FileId| {
                    let file = linted.project.sources.get(id);
                    Some((file, self.uri_of(&linted.project, file)?))
                };
                diagnostics.extend(
                    linted
                        .diagnostics
                        .iter()
                        .filter(|d| d.primary.file == file)
                        .map(|d| convert::diagnostic(source, d, locate)),
                );
            }
            out.push(PublishDiagnosticsParams { uri: doc.uri.clone(), diagnostics, version: Some(doc.version) });
        }
        out.sort_by(|a, b| a.uri.as_str().cmp(b.uri.as_str()));
        out
    }

    /// The open document at `uri`, its project's model, and its file in that model (when the run read it).
    pub fn lookup(&self, uri: &Uri) -> Option<(&Document, &Linted, FileId)> {
        let doc = self.docs.get(uri.as_str())?;
        let linted = self.projects.get(doc.project.as_ref()?)?;
        Some((doc, linted, self.file_of(linted, doc)?))
    }

    /// The file of the model that is this document (the model's text is the buffer's).
    fn file_of(&self, linted: &Linted, doc: &Document) -> Option<FileId> {
        let id = linted.project.sources.find(&relative(&linted.project.root, &doc.path)?)?;
        (*linted.project.file(id).text == *doc.text).then_some(id)
    }

    /// The URI of a file of the model: the client's own URI when it is open.
    pub fn uri_of(&self, project: &Project, file: &SourceFile) -> Option<Uri> {
        self.uri_of_path(project, &file.path)
    }

    /// The URI of a project-relative path.
    pub fn uri_of_path(&self, project: &Project, rel: &str) -> Option<Uri> {
        let path = project.root.join(rel);
        match self.docs.values().find(|d| d.path == path) {
            Some(doc) => Some(doc.uri.clone()),
            None => convert::path_to_uri(&path),
        }
    }
}

/// A path below `root` as the project names it (with `/`).
fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

/// The canonical form of a path (its folder's, for a file not on disk yet).
fn canonical(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    match (path.parent().and_then(|dir| std::fs::canonicalize(dir).ok()), path.file_name()) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// The project of a file: the nearest folder at or above it that holds `beeuni.yaml`, not above the git work tree.
fn project_root(path: &Path) -> Option<PathBuf> {
    for dir in path.ancestors().skip(1) {
        if dir.join(MANIFEST).is_file() {
            return Some(dir.to_path_buf());
        }
        if dir.join(".git").exists() {
            return None;
        }
    }
    None
}
