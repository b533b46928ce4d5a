//! Loads the manifest graph: `beeuni.yaml` and every file it imports,
//! depth-first, each read once, with cycles detected and never followed.

use crate::cache::ModuleCache;
use crate::diagnostic::Label;
use crate::repo::checkout::{Checkout, Resolved, Side};
use crate::repo::fs::Refusal;
use crate::source::{FileId, SourceFile, Sources, Span};
use crate::yaml::{self, Document};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

mod cycles;
mod imports;
mod limits;
mod parse;
use cycles::{Components, Search};
pub use imports::non_relative_reason;
use imports::{Import, ImportItem, check_import, import_items};
pub use parse::MANIFESTS_PARSED;
use parse::{Ahead, Text, parse_ahead, read_yaml};

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
    /// Linting the index: the imported file exists in the work tree but is not staged (perhaps ignored).
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

struct Frame {
    index: usize,
    imports: Vec<ImportItem>,
    next: usize,
    search: Search,
}

/// The files of one version of the project as parsed, by path: loading another version from git reuses each
/// whose blob is the same instead of parsing it again (a change touches a file or two of a large graph); the
/// language server's next run reuses each YAML file whose text is the same (and each module: see
/// `modules::Reused`).
#[derive(Default)]
pub struct Parsed<'a> {
    files: HashMap<&'a str, (&'a str, Arc<Document>)>,
    /// Which side the files were read from.
    side: Option<Side>,
}

impl<'a> Parsed<'a> {
    /// The files of `graph` that parsed (their text is in `sources`).
    pub fn of(graph: &'a Graph, sources: &'a Sources, side: Side) -> Self {
        let failed: HashSet<FileId> =
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
        Parsed { files, side: Some(side) }
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
    let mut walk = Walk::default();
    let real = match checkout.resolve(manifest) {
        Ok(real) => real,
        Err(Refusal::TooLarge(size)) => {
            too_large(&mut graph, sources, manifest, size, None);
            tell(&graph);
            return graph;
        }
        Err(_) => return graph,
    };
    let input = (checkout, parsed, cache, spawn);
    let root = match open(&mut graph, sources, input, manifest, real, None, &mut walk) {
        Ok(root) => root,
        Err(size) => {
            root_past_bytes(&mut graph, sources, manifest, size);
            tell(&graph);
            return graph;
        }
    };
    let mut components = Components::default();
    components.opened(root.index, None);
    let mut stack = vec![root];
    let mut too_large_seen = HashSet::new();
    let mut imports_followed = 0;
    // Once a limit on what the graph holds is passed, no file is opened any more.
    let mut full = false;
    loop {
        tell(&graph);
        let Some(frame) = stack.last_mut() else { break };
        let Some(item) = frame.imports.get(frame.next) else {
            #[allow(clippy::expect_used, reason = "`frame` is the stack's last, just above")]
            let done = stack.pop().expect("the frame just looked at");
            if let Some(cycle) = components.finished(done, stack.last_mut(), &graph, sources) {
                graph.problems.push(cycle);
            }
            continue;
        };
        frame.next += 1;
        let (label, path) = (item.label.clone(), item.path.clone());
        let from = graph.files[frame.index].file;
        let item = ImportItem { label, path };
        imports_followed += 1;
        if imports_followed > limits::IMPORTS {
            graph.problems.push(limits::passed(&item, limits::Passed::Imports));
            // The files being read are read no further (each is still finished, its cycles reported).
            for frame in &mut stack {
                frame.next = frame.imports.len();
            }
            continue;
        }
        let (rel, real) = match check_import(checkout, sources, from, &item, &mut graph.problems) {
            Some(Import::File(rel, real)) => (rel, real),
            Some(Import::TooLarge(rel, size)) => {
                // Once however many files import it: a file of the graph is there under its path.
                if too_large_seen.insert(rel.clone()) {
                    too_large(&mut graph, sources, &rel, size, Some(item.label));
                }
                continue;
            }
            None => continue,
        };
        if let Some(&opened) = walk.visited.get(&real) {
            components.import_of_opened(frame, opened, &item.label);
            continue;
        }
        // No file is opened any more; the imports of those open are still walked (to the files already read).
        if full {
            continue;
        }
        if graph.files.len() >= limits::FILES {
            graph.problems.push(limits::passed(&item, limits::Passed::Files));
            full = true;
            continue;
        }
        let by = frame.index;
        match open(&mut graph, sources, input, &rel, real, Some(item.label.clone()), &mut walk) {
            Ok(next) => {
                components.opened(next.index, Some(by));
                stack.push(next);
            }
            Err(file) => {
                graph.problems.push(limits::passed(&item, limits::Passed::Bytes { file, held: walk.bytes }));
                full = true;
            }
        }
    }
    graph
}

/// What every file of the walk is opened with: where files come from, the earlier parses, the cache, and how to
/// run a job on another thread.
type Input<'i, 'a> = (&'i Checkout, &'i Parsed<'i>, Option<&'a ModuleCache>, &'i dyn Fn(Job<'a>));

/// What the walk keeps of the files it opened and of those parsed ahead of it.
#[derive(Default)]
struct Walk {
    /// Each file opened, by where it leads, with its place in the graph.
    visited: HashMap<Resolved, usize>,
    ahead: Ahead,
    /// Bytes of YAML of the files opened (see [`limits::BYTES`]).
    bytes: usize,
    /// And of those parsed ahead, shared with the threads parsing them.
    reserved: limits::Reserved,
}

impl Walk {
    /// Takes a file of `size` bytes into the graph's bytes, or gives its size back when it does not fit (then
    /// nothing of it is kept). `reserved_ahead`: parsing it ahead took its bytes already.
    fn take_bytes(&mut self, size: usize, reserved_ahead: bool) -> Result<(), usize> {
        if self.bytes.saturating_add(size) > limits::BYTES {
            return Err(size);
        }
        self.bytes += size;
        if !reserved_ahead {
            self.reserved.add(size);
        }
        Ok(())
    }
}

/// Opens the file at `rel`: it joins the graph, unless its bytes do not fit in what the graph may hold (then its
/// size is given back, and it is neither parsed nor kept).
fn open<'a>(
    graph: &mut Graph,
    sources: &mut Sources,
    (checkout, parsed, cache, spawn): Input<'_, 'a>,
    rel: &str,
    real: Resolved,
    imported_by: Option<Label>,
    walk: &mut Walk,
) -> Result<Frame, usize> {
    let (file, doc, reused) = match parsed.reuse(checkout, rel) {
        Some((text, doc)) => {
            walk.take_bytes(text.len(), false)?;
            (sources.add(SourceFile::new(rel.to_string(), text.to_string())), doc, true)
        }
        None => {
            let prepared = walk.ahead.remove(rel).and_then(|parsing| parsing.recv().ok());
            if let (Some(_), Resolved::Path(path), None) = (&prepared, &real, checkout.overlaid(rel)) {
                checkout.saw_real(path);
            }
            let reserved_ahead = prepared.is_some();
            let text = Text::take(checkout, rel, prepared);
            walk.take_bytes(text.len(), reserved_ahead)?;
            // The files its `imports:` list names are read and parsed ahead as soon as that entry is parsed, while
            // the rest of this file parses (a root manifest holds its imports at the top, then long lists).
            let mut started = !parsed.files.is_empty();
            let Walk { visited, ahead, reserved, .. } = &mut *walk;
            let mut early = |doc: &Document, entry: yaml::Entry| {
                if !started && doc.scalar(entry.key) == Some("imports") {
                    started = true;
                    let paths = doc.items(entry.value).unwrap_or(&[]).iter().filter_map(|&item| doc.str(item));
                    parse_ahead(checkout, cache, paths, visited, ahead, reserved, spawn);
                }
            };
            let problems = &mut graph.problems;
            let (file, doc) = read_yaml(checkout, rel, sources, problems, cache, text, &mut early);
            (file, doc, false)
        }
    };
    let imports = import_items(&doc, file, &sources.get(file).text);
    if parsed.files.is_empty() {
        let paths = imports.iter().map(|item| item.path.as_str());
        parse_ahead(checkout, cache, paths, &walk.visited, &mut walk.ahead, &walk.reserved, spawn);
    }
    graph.files.push(ManifestFile { file, doc, imported_by, reused });
    let index = graph.files.len() - 1;
    walk.visited.insert(real, index);
    Ok(Frame { index, imports, next: 0, search: Search::new(index) })
}

/// A root manifest larger alone than the graph may hold: it joins the graph empty, with a `yaml-syntax` finding
/// at its start, as a file too large to read does.
fn root_past_bytes(graph: &mut Graph, sources: &mut Sources, rel: &str, size: usize) {
    let message = format!(
        "this file is {size} bytes, more than the {} bytes (2 MiB) of YAML beeuni-lint loads for a manifest graph: nothing in it was checked",
        limits::BYTES
    );
    let help = "a project's manifests hold a few hundred kilobytes of YAML: shorten it";
    joins_empty(graph, sources, rel, message, help, None);
}

/// A file of the graph too large to read.
fn too_large(graph: &mut Graph, sources: &mut Sources, rel: &str, size: u64, imported_by: Option<Label>) {
    let message = format!("this file {}: nothing in it was checked", Refusal::TooLarge(size).describe());
    joins_empty(graph, sources, rel, message, "a manifest file is a page of YAML; split or shorten it", imported_by);
}

/// A file of the graph that is not read: it joins the graph empty (so tracking still covers it), with a
/// `yaml-syntax` finding at its start saying why.
fn joins_empty(
    graph: &mut Graph,
    sources: &mut Sources,
    rel: &str,
    message: String,
    help: &str,
    imported_by: Option<Label>,
) {
    let file = sources.add(SourceFile::new(rel.to_string(), String::new()));
    let help = Some(help.to_string());
    let at = Label::new(file, Span::empty(0));
    graph.problems.push(LoadProblem { kind: ProblemKind::Syntax, at, message, help, related: Vec::new() });
    graph.files.push(ManifestFile { file, doc: Arc::new(Document::default()), imported_by, reused: false });
}
