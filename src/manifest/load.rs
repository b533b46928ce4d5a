//! Loads the manifest graph: `beeuni.yaml` and every file it imports,
//! depth-first, each read once, with cycles detected and never followed.

use crate::cache::{Key, ModuleCache};
use crate::diagnostic::Label;
use crate::modules::Module;
use crate::modules::facts::ModuleFacts;
use crate::repo::checkout::{Checkout, Resolved, Side};
use crate::repo::fs::{self, Refusal};
use crate::source::{FileId, SourceFile, Sources, Span};
use crate::yaml::{self, Document, NodeId, SyntaxError, block_item_start};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

/// One file of the graph, parsed (or an empty document when it did not parse).
#[derive(Debug)]
pub struct ManifestFile {
    pub file: FileId,
    /// Shared with another version of the project when the file is the same there (see [`Parsed`]).
    pub doc: Arc<Document>,
    /// The `- path` item that first imported it (`None` for the root).
    pub imported_by: Option<Label>,
    /// Taken from another version of the project (see [`Parsed`]), where it is the same file.
    pub reused: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    Syntax,
    ImportMissing,
    ImportPath,
    ImportCycle,
    /// Linting the index: the imported file exists in the work tree but is not staged.
    Unstaged,
}

/// Something loading found wrong; a rule turns each into a finding.
#[derive(Debug)]
pub struct LoadProblem {
    pub kind: ProblemKind,
    pub at: Label,
    pub message: String,
    pub help: Option<String>,
    pub related: Vec<Label>,
}

#[derive(Debug, Default)]
pub struct Graph {
    /// In graph order: the root, then imports depth-first in the order listed.
    pub files: Vec<ManifestFile>,
    pub problems: Vec<LoadProblem>,
}

/// An `imports:` item of a loaded file.
struct ImportItem {
    label: Label,
    path: String,
}

struct Frame {
    index: usize,
    real: Resolved,
    imports: Vec<ImportItem>,
    next: usize,
}

/// The files of one version of the project as parsed, by path: loading another version from git reuses each
/// whose blob is the same instead of parsing it again (a change touches a file or two of a large graph); the
/// language server's next run reuses each YAML file and module whose text is the same.
#[derive(Default)]
pub struct Parsed<'a> {
    files: HashMap<&'a str, (&'a str, Arc<Document>)>,
    /// Which side the files were read from.
    side: Option<Side>,
    /// Module texts and their facts, by path.
    modules: HashMap<&'a str, (&'a str, &'a ModuleFacts)>,
}

impl<'a> Parsed<'a> {
    /// The files of `graph` that parsed (their text is in `sources`).
    pub fn of(graph: &'a Graph, sources: &'a Sources, side: Side) -> Self {
        let failed: Vec<FileId> =
            graph.problems.iter().filter(|p| p.kind == ProblemKind::Syntax).map(|p| p.at.file).collect();
        let files = graph
            .files
            .iter()
            .filter(|f| !failed.contains(&f.file))
            .map(|f| {
                let source = sources.get(f.file);
                (source.path.as_str(), (source.text.as_str(), f.doc.clone()))
            })
            .collect();
        Parsed { files, side: Some(side), modules: HashMap::new() }
    }

    /// Also the facts of these analysed modules (their text is in `sources`).
    pub fn with_modules(mut self, modules: &'a [Module], sources: &'a Sources) -> Self {
        self.modules =
            modules.iter().map(|m| (m.path.as_str(), (sources.get(m.file).text.as_str(), &*m.facts))).collect();
        self
    }

    /// The text a module had and the facts learnt from it.
    pub fn module(&self, path: &str) -> Option<(&'a str, &'a ModuleFacts)> {
        self.modules.get(path).copied()
    }

    /// The parsed file at `rel`, when `checkout` holds the same bytes there (two work-tree runs: when it reads the
    /// same text there).
    fn reuse(&self, checkout: &Checkout, rel: &str) -> Option<(&'a str, Arc<Document>)> {
        let (text, doc) = self.files.get(rel)?;
        let side = self.side?;
        let same = if side == Side::WorkTree && checkout.side == Side::WorkTree {
            let unchanged = checkout.overlaid(rel).is_none()
                && matches!(checkout.resolve(rel), Ok(Resolved::Path(real)) if checkout.unchanged(&real.path()));
            unchanged || checkout.read(rel).is_ok_and(|bytes| bytes == text.as_bytes())
        } else {
            checkout.holds(rel, text.as_bytes(), side)
        };
        same.then(|| (*text, doc.clone()))
    }
}

/// With a `cache`, a file's YAML tree is taken from it when it holds the file's bytes, and put there otherwise.
pub fn load(
    checkout: &Checkout,
    manifest: &str,
    sources: &mut Sources,
    parsed: &Parsed,
    cache: Option<&ModuleCache>,
) -> Graph {
    load_each(checkout, manifest, sources, parsed, cache, |_, _| {}, &|job| job())
}

/// Work handed to other threads while the walk goes on (the files an `imports:` list names, parsed ahead).
pub type Job<'a> = Box<dyn FnOnce() + Send + 'a>;

/// [`load`], calling `opened` with the graph and the index of each file as soon as it joins the graph (in graph
/// order), while the walk goes on: the modules it declares can be analysed while the rest of the graph loads.
/// `spawn` runs a job on another thread (or at once).
pub fn load_each<'a>(
    checkout: &Checkout,
    manifest: &str,
    sources: &mut Sources,
    parsed: &Parsed,
    cache: Option<&'a ModuleCache>,
    mut opened: impl FnMut(&Graph, usize),
    spawn: &dyn Fn(Job<'a>),
) -> Graph {
    let mut graph = Graph::default();
    let mut told = 0;
    let mut tell = |graph: &Graph| {
        while told < graph.files.len() {
            opened(graph, told);
            told += 1;
        }
    };
    let mut visited: HashMap<Resolved, usize> = HashMap::new();
    let real = match checkout.resolve(manifest) {
        Ok(real) => real,
        Err(Refusal::TooLarge(size)) => {
            too_large(&mut graph, sources, manifest, size, None);
            tell(&graph);
            return graph;
        }
        Err(_) => return graph,
    };
    let mut ahead = Ahead::default();
    let input = (checkout, parsed, cache, spawn);
    let root = open(&mut graph, sources, input, manifest, real, None, &mut visited, &mut ahead);
    let mut stack = vec![root];
    loop {
        tell(&graph);
        let Some(frame) = stack.last_mut() else { break };
        let Some(item) = frame.imports.get(frame.next) else {
            stack.pop();
            continue;
        };
        frame.next += 1;
        let (label, path) = (item.label.clone(), item.path.clone());
        let from = graph.files[frame.index].file;
        let item = ImportItem { label, path };
        let (rel, real) = match check_import(checkout, sources, from, &item, &mut graph.problems) {
            Some(Import::File(rel, real)) => (rel, real),
            Some(Import::TooLarge(rel, size)) => {
                // Once however many files import it: a file of the graph is there under its path.
                if !graph.files.iter().any(|f| sources.get(f.file).path == rel) {
                    too_large(&mut graph, sources, &rel, size, Some(item.label));
                }
                continue;
            }
            None => continue,
        };
        if let Some(open_at) = stack.iter().position(|f| f.real == real) {
            graph.problems.push(cycle(&graph, sources, &stack[open_at..], &item));
            continue;
        }
        if visited.contains_key(&real) {
            continue;
        }
        let next = open(&mut graph, sources, input, &rel, real, Some(item.label), &mut visited, &mut ahead);
        stack.push(next);
    }
    graph
}

/// What every file of the walk is opened with: where files come from, the earlier parses, the cache, and how to
/// run a job on another thread.
type Input<'i, 'a> = (&'i Checkout, &'i Parsed<'i>, Option<&'a ModuleCache>, &'i dyn Fn(Job<'a>));

#[allow(clippy::too_many_arguments)]
fn open<'a>(
    graph: &mut Graph,
    sources: &mut Sources,
    (checkout, parsed, cache, spawn): Input<'_, 'a>,
    rel: &str,
    real: Resolved,
    imported_by: Option<Label>,
    visited: &mut HashMap<Resolved, usize>,
    ahead: &mut Ahead,
) -> Frame {
    let (file, doc, reused) = match parsed.reuse(checkout, rel) {
        Some((text, doc)) => (sources.add(SourceFile::new(rel.to_string(), text.to_string())), doc, true),
        None => {
            let prepared = ahead.remove(rel).and_then(|parsing| parsing.recv().ok());
            if let (Some(_), Resolved::Path(path), None) = (&prepared, &real, checkout.overlaid(rel)) {
                checkout.saw_real(path);
            }
            // The files its `imports:` list names are read and parsed ahead as soon as that entry is parsed, while
            // the rest of this file parses (a root manifest holds its imports at the top, then long lists).
            let mut started = !parsed.files.is_empty();
            let mut early = |doc: &Document, entry: yaml::Entry| {
                if !started && doc.scalar(entry.key) == Some("imports") {
                    started = true;
                    let paths = doc.items(entry.value).unwrap_or(&[]).iter().filter_map(|&item| doc.str(item));
                    parse_ahead(checkout, cache, paths, visited, ahead, spawn);
                }
            };
            let problems = &mut graph.problems;
            let (file, doc) = read_yaml(checkout, rel, sources, problems, cache, prepared, &mut early);
            (file, Arc::new(doc), false)
        }
    };
    let imports = import_items(&doc, file, &sources.get(file).text);
    if parsed.files.is_empty() {
        parse_ahead(checkout, cache, imports.iter().map(|item| item.path.as_str()), visited, ahead, spawn);
    }
    graph.files.push(ManifestFile { file, doc, imported_by, reused });
    let index = graph.files.len() - 1;
    visited.insert(real.clone(), index);
    Frame { index, real, imports, next: 0 }
}

/// A file of the graph too large to read: it joins the graph empty (so tracking still covers it), with a
/// `yaml-syntax` finding at its start.
fn too_large(graph: &mut Graph, sources: &mut Sources, rel: &str, size: u64, imported_by: Option<Label>) {
    let file = sources.add(SourceFile::new(rel.to_string(), String::new()));
    let message = format!("this file {}: nothing in it was checked", Refusal::TooLarge(size).describe());
    let help = Some("a manifest file is a page of YAML; split or shorten it".to_string());
    let at = Label::new(file, Span::empty(0));
    graph.problems.push(LoadProblem { kind: ProblemKind::Syntax, at, message, help, related: Vec::new() });
    graph.files.push(ManifestFile { file, doc: Arc::new(Document::default()), imported_by, reused: false });
}

/// What parsing a file gave, with its text.
type Prepared = (String, Result<Document, SyntaxError>);

/// Files parsed ahead of the walk that opens them, by repo-relative path: where their text and what parsing it gave
/// will come from.
type Ahead = HashMap<String, Receiver<Prepared>>;

/// Reads the files these import paths name (those not opened yet nor read already) and parses them on other threads
/// (reading work-tree files there too; or takes their trees from the cache), ahead of the depth-first walk that opens them one at a time: a manifest
/// that imports a hundred files does not parse them one by one on the thread everything else waits for. What is
/// not UTF-8 is left to [`read_yaml`].
fn parse_ahead<'p, 'a>(
    checkout: &Checkout,
    cache: Option<&'a ModuleCache>,
    paths: impl Iterator<Item = &'p str>,
    visited: &HashMap<Resolved, usize>,
    ahead: &mut Ahead,
    spawn: &dyn Fn(Job<'a>),
) {
    for path in paths.filter(|path| non_relative_reason(path).is_none() && !path.ends_with('/')) {
        let Some(rel) = fs::normalize(path).filter(|rel| !ahead.contains_key(rel)) else { continue };
        let Some(real) = checkout.resolve(&rel).ok().filter(|real| !visited.contains_key(real)) else { continue };
        // A work-tree file is read by the job too (the walk marks it read from disk when it takes the parse); the
        // bytes of pending fixes, or of git objects, are taken here.
        let bytes = match (&real, checkout.overlaid(&rel)) {
            (_, Some(Some(bytes))) => Some(bytes.clone()),
            (Resolved::Path(_), _) => None,
            (Resolved::Blob(_), _) => match checkout.read_resolved(&real) {
                Ok(bytes) => Some(bytes),
                Err(_) => continue,
            },
        };
        let kept = kept(checkout, &rel, cache);
        let (sender, parsing) = channel();
        ahead.insert(rel.clone(), parsing);
        spawn(Box::new(move || {
            let bytes = match (bytes, real) {
                (Some(bytes), _) => bytes,
                (None, Resolved::Path(path)) => match fs::read_resolved(&path.path()) {
                    Ok(bytes) => bytes,
                    Err(_) => return,
                },
                (None, Resolved::Blob(_)) => return,
            };
            // What is not UTF-8 (or not readable) is left to the walk: it reads the file again and says so.
            let Ok(text) = String::from_utf8(bytes) else { return };
            let parsed = parse_text(&rel, &text, kept, |_, _| {});
            // The walk may have stopped waiting for it (a file it never opens).
            let _ = sender.send((text, parsed));
        }));
    }
}

/// The cache, with the file's blob id when git knows it without hashing.
type Kept<'c> = (&'c ModuleCache, Option<gix::ObjectId>);

/// The cache, for a file whose trees it keeps: bytes of pending fixes are not worth keeping (the cache is for what
/// is on disk).
fn kept<'c>(checkout: &Checkout, rel: &str, cache: Option<&'c ModuleCache>) -> Option<Kept<'c>> {
    cache.filter(|_| checkout.overlaid(rel).is_none()).map(|cache| (cache, blob_id(checkout, rel)))
}

/// The blob id of a file, when git knows it without hashing: a file of a git side, or a work-tree file unchanged
/// since staged (one `stat`, compared with the index's stat data as git does).
fn blob_id(checkout: &Checkout, rel: &str) -> Option<gix::ObjectId> {
    match checkout.resolve(rel).ok()? {
        Resolved::Blob(id) => Some(id),
        Resolved::Path(real) => {
            checkout.index_stat(rel)?.id_if_same(&crate::repo::folders::stat_no_follow(&real.path()).ok()?)
        }
    }
}

/// How many manifest files a run parsed (for `BEEUNI_LINT_STATS`, see [`crate::stats`]).
pub static MANIFESTS_PARSED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The tree of a file's text: from the cache when it holds these bytes, else parsed (and put there), calling
/// `top_entry` as [`yaml::parse_with`] does.
fn parse_text(
    rel: &str,
    text: &str,
    cache: Option<Kept>,
    top_entry: impl FnMut(&Document, yaml::Entry),
) -> Result<Document, SyntaxError> {
    let parse = |text: &str| {
        MANIFESTS_PARSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        yaml::split::parse_split(text, top_entry, crate::modules::pool)
    };
    match cache.and_then(|(cache, known)| Some((cache, Key::manifest(known, text.as_bytes(), rel)?))) {
        Some((cache, key)) => match cache.document(&key, text.len()) {
            Some(document) => Ok(document),
            None => parse(text).inspect(|document| cache.put_document(key, document)),
        },
        None => parse(text),
    }
}

/// Reads and parses one file (or takes what [`parse_ahead`] read and parsed); problems become `yaml-syntax`
/// findings and an empty document.
fn read_yaml(
    checkout: &Checkout,
    rel: &str,
    sources: &mut Sources,
    problems: &mut Vec<LoadProblem>,
    cache: Option<&ModuleCache>,
    ahead: Option<Prepared>,
    top_entry: impl FnMut(&Document, yaml::Entry),
) -> (FileId, Document) {
    let (text, bad_byte, parsed) = match ahead {
        Some((text, parsed)) => (text, None, Some(parsed)),
        None => match String::from_utf8(checkout.read(rel).unwrap_or_default()) {
            Ok(text) => (text, None, None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at), None)
            }
        },
    };
    let file = sources.add(SourceFile::new(rel.to_string(), text));
    let source = sources.get(file);
    let syntax = |offset: usize, message: String| LoadProblem {
        kind: ProblemKind::Syntax,
        at: Label::new(file, Span::empty(offset)),
        message,
        help: None,
        related: Vec::new(),
    };
    if let Some(at) = bad_byte {
        let line = source.line_index(at);
        let mut problem = syntax(at, "this file is not valid UTF-8: YAML files must be UTF-8".into());
        problem.at.span = source.line_span(line);
        problems.push(problem);
        return (file, Document::default());
    }
    match parsed.unwrap_or_else(|| parse_text(rel, &source.text, kept(checkout, rel, cache), top_entry)) {
        Ok(doc) => (file, doc),
        Err(e) => {
            problems.push(syntax(e.offset, e.message));
            (file, Document::default())
        }
    }
}

fn import_items(doc: &Document, file: FileId, text: &str) -> Vec<ImportItem> {
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
            let label = Label::new(file, Span::new(block_item_start(text, span.start), span.end));
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
enum Import {
    File(String, Resolved),
    TooLarge(String, u64),
}

fn check_import(
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
        Err(Refusal::NotFound) if checkout.only_in_work_tree(&rel) => {
            let message = format!("imported file `{rel}` is not staged: the commit being made does not contain it");
            problems.push(problem(
                ProblemKind::Unstaged,
                message,
                Some(format!("run `git add {}`", checkout.git_path(&rel))),
            ));
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

fn cycle(graph: &Graph, sources: &Sources, open: &[Frame], closing: &ImportItem) -> LoadProblem {
    let names: Vec<&str> = open.iter().map(|f| sources.get(graph.files[f.index].file).path.as_str()).collect();
    let message = format!("import cycle: {} → {}", names.join(" → "), names[0]);
    // The other entries of the cycle: the items that opened each file after the first.
    let related = open[1..]
        .iter()
        .filter_map(|f| graph.files[f.index].imported_by.clone())
        .map(|mut label| {
            label.message = Some("part of the cycle".into());
            label
        })
        .collect();
    LoadProblem {
        kind: ProblemKind::ImportCycle,
        at: closing.label.clone(),
        message,
        help: Some("remove one of these imports; each file needs to be imported once".into()),
        related,
    }
}
