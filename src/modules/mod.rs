//! The modules stage: every declared tool module, and every file it imports
//! relatively (transitively: its helpers), is read once and parsed once, in
//! parallel (one oxc allocator per thread, on threads with a large stack), and
//! reduced to [`facts::ModuleFacts`], a pure function of the file's bytes and
//! extension; then its imports are resolved. Modules are never run or imported.

pub mod analyse;
mod declared;
pub mod facts;
mod mailbox;
pub mod resolve;
mod reused;
pub mod schedule;
mod shared;
mod size;
mod wrapped;

pub use declared::DeclaredBy;
pub use reused::Reused;
pub use schedule::{Feed, with_feed};
pub use size::MODULE_BYTES;
use size::too_large;
pub use wrapped::REEXPORT_WITHOUT_DEFAULT;

use crate::cache::{Entry, ModuleCache};
use crate::manifest::tools::ToolDecl;
use crate::repo::checkout::{Checkout, Indexed, Resolved};
use crate::repo::fs::{self, Refusal};
use crate::repo::git::IndexStat;
use crate::source::{FileId, PathText, Span};
use facts::{Collected, ModuleFacts, NotAnalysed, SyntaxError};
use gix::ObjectId;
use oxc_allocator::Allocator;
use resolve::Resolution;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many modules a run read and how many it parsed (for `BEEUNI_LINT_STATS`, see [`crate::stats`]).
pub static MODULES_READ: AtomicUsize = AtomicUsize::new(0);
pub static MODULES_PARSED: AtomicUsize = AtomicUsize::new(0);

#[derive(Debug)]
pub struct Module {
    /// Its file, whose path is the module's (project-relative): see [`crate::project::Project::module_path`].
    pub file: FileId,
    /// Indices into `Project::tools` of the entries that declare this module (none for a helper only imported).
    pub declared_by: DeclaredBy,
    /// For a helper (a file the roots import relatively, transitively): each root that loads it (a declared module
    /// or an xcsh tool: [`Module::is_root`]), as an index into the modules, with the import statement in that root
    /// through which it does. None for every root, declared or xcsh, and for a file no root reaches (most modules:
    /// 8 bytes here where an empty list took 24). In 32 bits each (12 bytes a loader where 24 were): a helper of a
    /// large project is loaded by thousands of modules (1,000 each at the 20k bench). See [`Module::loaded_by`].
    // Boxed for its size in every module (8 bytes, the list's own 24 on the heap for a helper only): the lint's
    // "`Vec` is on the heap already" holds for the items, not for the list.
    #[allow(clippy::box_collection)]
    loaders: Option<Box<Vec<(u32, Span)>>>,
    /// An xcsh custom tool (docs/spec/rules.md §6): a root of the closure that the xcsh loader finds in a tool folder.
    pub xcsh: bool,
    /// Its tool object is wrapped by a function imported from a helper that exports more identity functions than
    /// beeuni-lint keeps ([`analyse::export::MAX_IDENTITY_EXPORTS`]): a limit, not the nature of the call,
    /// left the default export unread (`analysis-limit` reports it, not `module-unanalyzable`).
    pub wrapper_past_limit: bool,
    /// Boxed: moved from the analysis threads to the module list without copying, and a module stays small.
    pub facts: Box<ModuleFacts>,
    /// The resolution of each import of `facts.imports`, by index (type-only imports of non-harness packages
    /// are not resolved: they are erased at run time); shared with the other imports that resolve alike.
    resolved: shared::Resolutions,
}

impl Module {
    /// For a helper: each root that loads it (an index into the modules) with the import statement in that root
    /// through which it does. Empty for a root (a declared module or an xcsh tool).
    pub fn loaded_by(&self) -> &[(u32, Span)] {
        self.loaders.as_deref().map_or(&[], Vec::as_slice)
    }

    /// Declared under `tools:` (rather than only imported by a declared module)?
    pub fn is_declared(&self) -> bool {
        !self.declared_by.is_empty()
    }

    /// Loaded for itself (a declared module or an xcsh tool), not only as a helper?
    pub fn is_root(&self) -> bool {
        self.is_declared() || self.xcsh
    }

    /// The resolution of each import of `facts.imports`, in order (`None`: a type-only import of a package that
    /// is not a harness one, erased at run time and not resolved).
    pub fn resolutions(&self) -> impl Iterator<Item = Option<&Resolution>> {
        self.resolved.iter().map(|shared| shared.0.as_deref())
    }
}

thread_local! {
    static ALLOCATOR: RefCell<Allocator> = RefCell::new(Allocator::default());
    /// The bytes of the last module this thread let go, emptied, for the next module read from disk: a `malloc` of
    /// a module's size (past the small sizes glibc keeps per thread) and its `free` were ~700 instructions a module.
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The largest buffer kept as a thread's [`SPARE`] (a larger one comes from `mmap` and goes back at its `free`).
const SPARE_MAX: usize = 1 << 20;

/// Extensions of the helpers analysed as code: the module extensions and the JSX ones Bun loads as well.
const HELPER_EXTENSIONS: [&str; 8] = ["ts", "js", "mts", "mjs", "cts", "cjs", "tsx", "jsx"];

/// What the checkout holds instead of a declared module that does not exist: looked up here, so that rules
/// never touch the file system.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MissingModule {
    /// Linting the index: the file exists in the work tree, not staged.
    pub unstaged: bool,
    /// The same module under another allowed extension, if one exists.
    pub sibling: Option<String>,
}

/// Each declaration (by index, in order) whose module does not exist, with what exists instead.
pub fn missing_modules(checkout: &Checkout, tools: &[ToolDecl]) -> Vec<(usize, MissingModule)> {
    tools
        .iter()
        .enumerate()
        .filter_map(|(index, decl)| {
            let (Some(path), Some(Err(Refusal::NotFound))) = (decl.module_path(), &decl.module) else {
                return None;
            };
            let stem = path.rsplit_once('.').map_or(path, |(stem, _)| stem);
            let sibling = crate::catalog::MODULE_EXTENSIONS
                .iter()
                .map(|ext| format!("{stem}.{ext}"))
                .find(|candidate| candidate != path && checkout.is_file(candidate));
            Some((index, MissingModule { unstaged: checkout.only_in_work_tree(path), sibling }))
        })
        .collect()
}

/// Fills the loaders ([`Module::loaded_by`]) of every helper: a walk of the import graph from each root (a declared
/// module or an xcsh tool), remembering the import of the root each file was first reached through.
fn mark_loaders(modules: &mut [Module], edges: &Edges) {
    // In 32 bits (there are fewer modules than files), and the roots found as the walk goes rather than listed: this
    // runs at the end of the modules stage, with every module in memory (the run's peak at the 20k bench).
    let mut seen_from = vec![u32::MAX; modules.len()];
    // One stack for every walk: a list of its own per root cost an allocation per declared module.
    let mut stack: Vec<(usize, Span)> = Vec::new();
    for root in 0..modules.len() {
        if !modules[root].is_root() {
            continue;
        }
        let root_id = root as u32;
        seen_from[root] = root_id;
        stack.extend(edges.of(root).rev());
        while let Some((at, via)) = stack.pop() {
            if seen_from[at] == root_id {
                continue;
            }
            seen_from[at] = root_id;
            if !modules[at].is_root() {
                modules[at].loaders.get_or_insert_default().push((root_id, via));
            }
            stack.extend(edges.of(at).rev().map(|(next, _)| (next, via)));
        }
    }
    // Kept to the end of the run: a list grown by doubling holds up to twice what it needs.
    modules.iter_mut().filter_map(|module| module.loaders.as_mut()).for_each(|loaders| loaders.shrink_to_fit());
}

/// The import graph: for each module in order, the modules its imports load, with the import's span (in one list,
/// not one per module: most modules load one helper, and a list of its own would hold four).
#[derive(Default)]
struct Edges {
    /// By module: where its edges end in `targets` (they start where the previous module's end), in 32 bits as the
    /// edges are.
    ends: Vec<u32>,
    /// The module an import loads and the import's span, in 32 bits each (a text is at most 32 MiB, and there are
    /// fewer modules than files): 12 bytes an edge instead of 24, one edge per import of every module.
    targets: Vec<(u32, Span)>,
}

impl Edges {
    /// The edges of module `at`: (the module loaded, the import's span).
    fn of(&self, at: usize) -> impl DoubleEndedIterator<Item = (usize, Span)> + '_ {
        let start = at.checked_sub(1).map_or(0, |before| self.ends[before] as usize);
        self.targets[start..self.ends[at] as usize].iter().map(|&(to, span)| (to as usize, span))
    }

    /// An edge of the module being added: its import at `span` loads module `to`.
    fn push(&mut self, to: usize, span: Span) {
        self.targets.push((to as u32, span));
    }

    /// Ends the edges of the module being added (those pushed to `targets` since the last one).
    fn end_module(&mut self) {
        self.ends.push(self.targets.len() as u32);
    }
}

/// Is this file code the runtime parses (rather than JSON or text it loads as data)?
fn is_code(path: &str) -> bool {
    // A byte search: this runs per import.
    let dot = path.as_bytes().iter().rposition(|&b| b == b'.');
    dot.is_some_and(|dot| HELPER_EXTENSIONS.contains(&&path[dot + 1..]))
}

/// `indexed`: what the index holds at `path`, when the resolution looked it up already.
fn read(
    checkout: &Checkout,
    path: &str,
    resolved: &Resolved,
    indexed: Indexed,
    cache: Option<&ModuleCache>,
    limit: u64,
) -> Read {
    match (resolved, checkout.overlaid(path)) {
        // An overlay's bytes (pending fixes, unsaved editor buffers) instead of the file's.
        (_, Some(Some(bytes))) => Read::Done { bytes: Ok(bytes.clone()), id: None },
        // Work-tree files are read on the analysis threads; git blobs here (gix is not `Sync`).
        (Resolved::Path(real), _) => {
            Read::Later { real: real.clone(), indexed: indexed.unwrap_or_else(|| checkout.index_stat(path)) }
        }
        // A blob past the limit is not read: its header says how long it is.
        (Resolved::Blob(id), _) => {
            let cache = cache.filter(|cache| cache.holds_entries());
            // Facts an earlier run made of this very blob: found by its id, with its length, the object not opened.
            if let Some((facts, entry, len)) = cache.and_then(|cache| cache.blob_module(id, path)) {
                return match len as u64 > limit {
                    true => Read::TooLarge(len as u64),
                    false => Read::Cached { id: *id, facts: Box::new(facts), entry },
                };
            }
            // Else the blob is read, unless its header says it is past the limit. An entry a work-tree run made of a
            // file the index vouched for is not taken for the blob, though it has its id and maybe its length: git
            // may convert the file to make the blob, and a conversion can keep the length (`working-tree-encoding`
            // from UTF-16, a filter).
            if let Some(len) = checkout.blob_len(*id).filter(|&len| len as u64 > limit) {
                return Read::TooLarge(len as u64);
            }
            MODULES_READ.fetch_add(1, Ordering::Relaxed);
            Read::Done { bytes: checkout.read_resolved(resolved), id: Some(*id) }
        }
    }
}

/// A module's bytes, or where to read them.
enum Read {
    /// A work-tree file, with its index entry when git has one that stat data can vouch for.
    Later { real: crate::repo::fs::RealPath, indexed: Option<IndexStat> },
    /// Bytes (or why there are none), with the blob id when they come from git.
    Done { bytes: Result<Vec<u8>, Refusal>, id: Option<ObjectId> },
    /// The bytes an earlier run read (its text and facts come with the work).
    Known,
    /// A git blob the cache holds the facts of: not read.
    Cached { id: ObjectId, facts: Box<ModuleFacts>, entry: Entry },
    /// A git blob of this many bytes, more than a module analysed: not read.
    TooLarge(u64),
}

/// Where the cache key of a module's bytes comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IdFrom {
    /// The blob the index holds for a work-tree file its stat data says is unchanged since staged: what git makes
    /// of the file (converted, perhaps), not the text itself (see [`crate::cache::Content`]).
    Index,
    /// A git blob read whole, whose entry [`read`] looked for already.
    Blob,
    /// The bytes hashed as git does: the text is that blob.
    Hash,
}

/// A module's text after its analysis.
enum Body {
    Held(String),
    /// Let go (or never read): read again from the checkout if something needs it.
    LetGo,
}

/// A module's text, its facts, and the cache entry that holds them (when there is a cache).
type Analysed = (Body, Box<ModuleFacts>, Option<Entry>);

/// The facts of a clean tracked work-tree file that the cache holds, from one `stat` (git's test of "unchanged
/// since staged") and without reading the file.
fn cached_unread(
    path: &str,
    real: &std::path::Path,
    indexed: Option<IndexStat>,
    cache: &ModuleCache,
    limit: u64,
) -> Option<Analysed> {
    let stat = crate::repo::folders::stat_no_follow(real).ok()?;
    if stat.size as u64 > limit {
        return Some(too_large(stat.size as u64, limit));
    }
    // The file's length is the one the index recorded, which `id_if_same` has found it still is: the entry is the one
    // of a text that long, never the blob's when git converts the file (line endings) to make the blob.
    let (facts, entry) = cache.module(&indexed?.id_if_same(&stat)?, path, stat.size as usize)?;
    Some((Body::LetGo, Box::new(facts), Some(entry)))
}

/// A module handed to the analysis threads: its path, its bytes (or where to read them), the text and facts an
/// earlier run had for it, and whether its text may be let go.
type Work<'a> = (PathText, Read, Option<(&'a str, &'a ModuleFacts)>, bool);

/// How many modules a batch read and parsed, added to [`MODULES_READ`] and [`MODULES_PARSED`] once a batch:
/// counted a module at a time, the analysis threads took turns at the cache line the counters share (perf, 20k
/// bench: a quarter of `analyse_bytes`' own samples were its `lock inc`).
#[derive(Default)]
struct Counted {
    read: usize,
    parsed: usize,
}

/// Analyses a batch of modules (on an analysis thread), by module index.
fn analyse_batch<'a>(
    batch: Vec<(usize, Work<'a>)>,
    cache: Option<&'a ModuleCache>,
    limit: u64,
) -> Vec<(usize, Analysed)> {
    let mut counted = Counted::default();
    let mut analyse =
        |(path, read, known, let_go): Work<'a>| analyse_bytes(&path, read, known, (cache, limit), let_go, &mut counted);
    let analysed: Vec<(usize, Analysed)> = batch.into_iter().map(|(index, work)| (index, analyse(work))).collect();
    MODULES_READ.fetch_add(counted.read, Ordering::Relaxed);
    MODULES_PARSED.fetch_add(counted.parsed, Ordering::Relaxed);
    if let Some(cache) = cache {
        cache.decoded(analysed.iter().filter_map(|(_, (_, _, entry))| entry.as_ref()));
    }
    analysed
}

fn analyse_bytes(
    path: &str,
    read: Read,
    known: Option<(&str, &ModuleFacts)>,
    (cache, limit): (Option<&ModuleCache>, u64),
    let_go: bool,
    counted: &mut Counted,
) -> Analysed {
    let (bytes, id, id_from) = match (read, known) {
        (Read::TooLarge(size), _) => return too_large(size, limit),
        (Read::Cached { facts, entry, .. }, _) => return (Body::LetGo, facts, Some(entry)),
        (Read::Known, Some((text, facts))) => return (Body::Held(text.to_string()), Box::new(facts.clone()), None),
        (Read::Later { real, indexed }, _) => {
            let real = real.path();
            // An empty cache (a first run) holds nothing to find: no `stat` for it.
            if let Some(cache) = cache.filter(|cache| let_go && indexed.is_some() && cache.holds_entries())
                && let Some(hit) = cached_unread(path, &real, indexed, cache, limit)
            {
                return hit;
            }
            counted.read += 1;
            let mut bytes = SPARE.take();
            // Its size is checked on the open file, before a byte is read.
            let mut size = 0;
            match fs::read_into_admitted(&real, &mut bytes, |len| {
                size = len;
                len <= limit
            }) {
                Ok(Some(metadata)) => {
                    let id = indexed.and_then(|indexed| indexed.id_if_clean(&metadata));
                    (Ok(bytes), id, IdFrom::Index)
                }
                Ok(None) => {
                    SPARE.set(bytes);
                    return too_large(size, limit);
                }
                Err(refusal) => (Err(refusal), None, IdFrom::Hash),
            }
        }
        // Only a git blob comes with its id, and `read` looked it up already.
        (Read::Done { bytes, id }, _) => (bytes, id, IdFrom::Blob),
        (Read::Known, None) => (Err(Refusal::NotFound), None, IdFrom::Hash),
    };
    let bytes = match bytes {
        Ok(bytes) => bytes,
        Err(refusal @ Refusal::TooLarge(_)) => {
            let not_analysed = Some(NotAnalysed { span: Default::default(), why: refusal.describe() });
            let facts = Collected { not_analysed, ..Default::default() }.into();
            return (Body::Held(String::new()), Box::new(facts), None);
        }
        Err(refusal) => {
            let error = SyntaxError { span: Default::default(), message: format!("the module {}", refusal.describe()) };
            let facts = ModuleFacts::from(Collected { syntax_errors: vec![error], ..Default::default() });
            return (Body::Held(String::new()), Box::new(facts), None);
        }
    };
    // An overlay's bytes (an editor buffer, pending fixes) are held already; past the limit they are not parsed.
    if bytes.len() as u64 > limit {
        return too_large(bytes.len() as u64, limit);
    }
    if let Some((text, facts)) = known.filter(|(text, _)| text.as_bytes() == bytes) {
        return (Body::Held(text.to_string()), Box::new(facts.clone()), None);
    }
    // A module that does not parse is all but sure to be shown: it keeps its text.
    let body = |text: String, facts: &ModuleFacts| match let_go && facts.is_whole() {
        true => {
            // Up to a size most modules are under: a larger buffer is not held for the thread's life.
            if text.capacity() <= SPARE_MAX {
                SPARE.set(text.into_bytes());
            }
            Body::LetGo
        }
        false => {
            // Read into the thread's spare buffer, the text has the capacity of the largest module the thread read
            // (up to `SPARE_MAX`); a held text (the language server holds them all) keeps its length only.
            let mut text = text;
            text.shrink_to_fit();
            Body::Held(text)
        }
    };
    // The cache key: the blob id git already knows, or the bytes hashed as git would, with the text's length (what
    // tells the work-tree file from the blob git converts it to: see [`crate::cache::Content`]).
    let (id, id_from) = match id {
        Some(id) => (cache.map(|_| id), id_from),
        None => {
            let hashed = || gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, &bytes).ok();
            (cache.and_then(|_| hashed()), IdFrom::Hash)
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => {
            // An empty cache (a first run) holds nothing to find. Bytes hashed here are the blob of that id, and take
            // only an entry made of that blob: one a work-tree run made of a file the index vouched for may hold
            // another text of that length.
            let found = |cache: &ModuleCache, id: &ObjectId| match id_from {
                IdFrom::Index => cache.module(id, path, text.len()),
                IdFrom::Blob => None,
                IdFrom::Hash => {
                    cache.blob_module(id, path).filter(|(.., len)| *len == text.len()).map(|(f, e, _)| (f, e))
                }
            };
            if let (Some(cache), Some(id)) = (cache.filter(|cache| cache.holds_entries()), &id)
                && let Some((facts, entry)) = found(cache, id)
            {
                return (body(text, &facts), Box::new(facts), Some(entry));
            }
            counted.parsed += 1;
            let facts = ALLOCATOR.with(|allocator| size::analyse_in_turn(path, &text, allocator));
            let entry = id.and_then(|id| ModuleCache::new_entry(id, text.len(), id_from != IdFrom::Index));
            (body(text, &facts), Box::new(facts), entry)
        }
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let error = SyntaxError {
                span: crate::source::Span::new(line_start, line_end),
                message: "the module is not valid UTF-8".into(),
            };
            let facts = ModuleFacts::from(Collected { syntax_errors: vec![error], ..Default::default() });
            (Body::Held(text), Box::new(facts), None)
        }
    }
}

#[cfg(test)]
mod tests;
