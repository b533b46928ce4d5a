//! The modules stage: every declared tool module, and every file it imports
//! relatively (transitively: its helpers), is read once and parsed once, in
//! parallel (one oxc allocator per thread, on threads with a large stack), and
//! reduced to [`facts::ModuleFacts`], a pure function of the file's bytes and
//! extension; then its imports are resolved. Modules are never run or imported.

pub mod analyse;
pub mod facts;
pub mod resolve;

use crate::cache::{Entry, Key, ModuleCache};
use crate::manifest::load::Parsed;
use crate::manifest::tools::ToolDecl;
use crate::repo::checkout::{Checkout, Resolved};
use crate::repo::fs::{self, Refusal};
use crate::repo::git::IndexStat;
use crate::source::{FileId, Reread, SourceFile, Sources, Span};
use facts::{ImportKind, ModuleFacts, NotAnalysed, SyntaxError};
use gix::ObjectId;
use oxc_allocator::Allocator;
use rayon::prelude::*;
use resolve::{Resolution, Resolver};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many modules a run read and how many it parsed (for `BEEUNI_LINT_STATS`, see [`crate::stats`]).
pub static MODULES_READ: AtomicUsize = AtomicUsize::new(0);
pub static MODULES_PARSED: AtomicUsize = AtomicUsize::new(0);

/// Parsing is recursive in oxc: deep (but accepted) nesting needs a deep stack.
pub(crate) const ANALYSIS_STACK: usize = 64 * 1024 * 1024;

#[derive(Debug)]
pub struct Module {
    /// Repo-relative path.
    pub path: String,
    pub file: FileId,
    /// Indices into `Project::tools` of the entries that declare this module (none for a helper only imported).
    pub declared_by: Vec<usize>,
    /// For a helper (a file the declared modules import relatively, transitively): each declared module that
    /// loads it, as an index into the modules, with the import statement in that module through which it does.
    /// Empty for a declared module.
    pub loaded_by: Vec<(usize, Span)>,
    /// An xcsh custom tool (RULES.md §6): a root of the closure that the xcsh loader finds in a tool folder.
    pub xcsh: bool,
    /// Boxed: moved from the analysis threads to the module list without copying, and a module stays small.
    pub facts: Box<ModuleFacts>,
    /// The resolution of each import of `facts.imports`, by index (type-only imports of non-harness packages
    /// are not resolved: they are erased at run time).
    pub resolutions: Vec<Option<Resolution>>,
}

impl Module {
    /// Declared under `tools:` (rather than only imported by a declared module)?
    pub fn is_declared(&self) -> bool {
        !self.declared_by.is_empty()
    }

    /// Loaded for itself (a declared module or an xcsh tool), not only as a helper?
    pub fn is_root(&self) -> bool {
        self.is_declared() || self.xcsh
    }
}

thread_local! {
    static ALLOCATOR: RefCell<Allocator> = RefCell::new(Allocator::default());
}

/// Extensions of the helpers analysed as code: the module extensions and the JSX ones Bun loads as well.
const HELPER_EXTENSIONS: [&str; 8] = ["ts", "js", "mts", "mjs", "cts", "cjs", "tsx", "jsx"];

/// A file's path, the declarations that name it, and whether it is an xcsh tool.
type Origin = (String, Vec<usize>, bool);

/// What the checkout holds instead of a declared module that does not exist: looked up here, so that rules
/// never touch the file system.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MissingModule {
    /// Linting the index: the file exists in the work tree, not staged.
    pub unstaged: bool,
    /// The same module under another allowed extension, if one exists.
    pub sibling: Option<String>,
}

/// For each declaration (by index) whose module does not exist, what exists instead.
pub fn missing_modules(checkout: &Checkout, tools: &[ToolDecl]) -> Vec<Option<MissingModule>> {
    tools
        .iter()
        .map(|decl| {
            let (Some(path), Some(Err(Refusal::NotFound))) = (decl.module_path(), &decl.module) else {
                return None;
            };
            let stem = path.rsplit_once('.').map_or(path, |(stem, _)| stem);
            let sibling = crate::catalog::MODULE_EXTENSIONS
                .iter()
                .map(|ext| format!("{stem}.{ext}"))
                .find(|candidate| candidate != path && checkout.is_file(candidate));
            Some(MissingModule { unstaged: checkout.only_in_work_tree(path), sibling })
        })
        .collect()
}

/// A file waiting to be analysed.
struct Pending {
    path: String,
    declared_by: Vec<usize>,
    xcsh: bool,
    read: Read,
}

/// Reads, parses and resolves every module the declarations point at, and the xcsh tools found in the tool
/// folders (RULES.md §6), and every file they import relatively, transitively (the runtime loads that whole
/// closure): each file once, each level of the closure in parallel.
/// A file whose text is what `parsed` holds for its path keeps those facts instead of being parsed again; with a
/// `cache`, so does a file whose content the cache holds (a clean tracked file is then not even read), and the
/// cache is updated with this run's files. Unless `keep_texts`, a text that can be read again from the checkout is
/// let go once analysed (see [`crate::source::Text`]).
pub fn analyse_all(
    checkout: &Checkout,
    tools: &[ToolDecl],
    xcsh: Vec<(String, Result<Resolved, Refusal>)>,
    sources: &mut Sources,
    parsed: &Parsed,
    cache: Option<&ModuleCache>,
    keep_texts: bool,
) -> Vec<Module> {
    let mut index_of: FxHashMap<String, usize> = FxHashMap::default();
    let mut batch: Vec<Pending> = Vec::new();
    // A git blob whose facts the cache holds is not read (its text is read again only if a finding needs it).
    let unread = cache.filter(|_| !keep_texts);
    let read = |path: &str, resolved: &Resolved| read(checkout, path, resolved, unread);
    for (index, decl) in tools.iter().enumerate() {
        // A module too large to read is there all the same (the runtime loads it): it comes back not analysed.
        let (Some(path), Some(Ok(_) | Err(Refusal::TooLarge(_)))) = (decl.module_path(), &decl.module) else {
            continue;
        };
        match index_of.get(path) {
            Some(&at) => batch[at].declared_by.push(index),
            None => {
                index_of.insert(path.to_string(), batch.len());
                let read = match &decl.module {
                    Some(Ok(resolved)) => read(path, resolved),
                    Some(Err(refusal)) => Read::Done { bytes: Err(refusal.clone()), id: None },
                    None => continue,
                };
                batch.push(Pending { path: path.to_string(), declared_by: vec![index], xcsh: false, read });
            }
        }
    }
    for (path, resolved) in xcsh {
        match index_of.get(&path) {
            Some(&at) => batch[at].xcsh = true,
            None => {
                index_of.insert(path.clone(), batch.len());
                let read = resolved.map_or_else(|e| Read::Done { bytes: Err(e), id: None }, |r| read(&path, &r));
                batch.push(Pending { path, declared_by: Vec::new(), xcsh: true, read });
            }
        }
    }
    let mut resolver = Resolver::new(checkout);
    let mut modules: Vec<Module> = Vec::new();
    // Per module: the modules its imports load, with the import's span.
    let mut edges: Vec<Vec<(usize, Span)>> = Vec::new();
    let mut used = Vec::new();
    while !batch.is_empty() {
        let (paths, reads): (Vec<Origin>, Vec<Read>) =
            batch.into_iter().map(|p| ((p.path, p.declared_by, p.xcsh), p.read)).unzip();
        let mut rereads = Vec::with_capacity(paths.len());
        let (work, from_disk): (Vec<Work>, Vec<Option<PathBuf>>) = paths
            .iter()
            .zip(reads)
            .map(|((path, ..), read)| {
                let known = parsed.module(path);
                let reread = match &read {
                    Read::Later { real, .. } => Some(Reread::Disk(real.clone())),
                    Read::Done { bytes: Ok(_), id: Some(id) } => checkout.git.clone().map(|git| Reread::Blob(git, *id)),
                    Read::Cached { key, .. } => checkout.git.clone().map(|git| Reread::Blob(git, key.id)),
                    _ => None,
                };
                let let_go = !keep_texts && reread.is_some();
                rereads.push(reread);
                match read {
                    // Read from disk by an earlier run while the disk is taken as unchanged: that run's facts hold.
                    Read::Later { real, .. } if known.is_some() && checkout.unchanged(&real) => {
                        ((path.as_str(), (Read::Known, known), let_go), None)
                    }
                    Read::Later { real, indexed } => {
                        ((path.as_str(), (Read::Later { real: real.clone(), indexed }, known), let_go), Some(real))
                    }
                    read => ((path.as_str(), (read, known), let_go), None),
                }
            })
            .unzip();
        let analysed = parse_in_parallel(work, cache);
        // Sized exactly per level: a list grown by doubling holds up to twice what it needs at the run's peak (and
        // `reserve` doubles too, once a level of a few helpers follows the 20,000 declared modules).
        modules.reserve_exact(paths.len());
        edges.reserve_exact(paths.len());
        sources.reserve_exact(paths.len());
        for ((body, facts, _), real) in analysed.iter().zip(&from_disk) {
            // Unless the read failed (an empty text with an error).
            let read = !matches!(body, Body::Held(text) if text.is_empty()) || facts.is_whole();
            if let Some(real) = real.as_ref().filter(|_| read) {
                checkout.saw(real);
            }
        }
        let mut next = Vec::new();
        for (((path, declared_by, xcsh), (body, facts, entry)), reread) in paths.into_iter().zip(analysed).zip(rereads)
        {
            used.extend(entry);
            let mut loads = Vec::new();
            let resolutions = facts
                .imports
                .iter()
                .map(|import| {
                    let resolution = resolver.resolve(&path, &import.specifier, import.kind == ImportKind::Require);
                    let erased = import.type_only && !matches!(resolution, Resolution::Harness(_));
                    if let (false, Resolution::File(target)) = (erased, &resolution)
                        && is_code(target)
                    {
                        let scheduled = index_of.len();
                        let at = *index_of.entry(target.clone()).or_insert_with(|| {
                            let read = checkout
                                .resolve_module(target)
                                .map_or_else(|e| Read::Done { bytes: Err(e), id: None }, |r| read(target, &r));
                            next.push(Pending { path: target.clone(), declared_by: Vec::new(), xcsh: false, read });
                            scheduled
                        });
                        loads.push((at, import.span));
                    }
                    (!erased).then_some(resolution)
                })
                .collect();
            let file = match (body, reread) {
                (Body::LetGo, Some(reread)) => SourceFile::later(path.clone(), reread),
                (Body::Held(text), _) => SourceFile::new(path.clone(), text),
                (Body::LetGo, None) => SourceFile::new(path.clone(), String::new()),
            };
            let file = sources.add(file);
            edges.push(loads);
            modules.push(Module { path, file, declared_by, loaded_by: Vec::new(), xcsh, facts, resolutions });
        }
        batch = next;
    }
    mark_loaders(&mut modules, &edges);
    if let Some(cache) = cache {
        cache.store(used);
    }
    modules
}

/// Fills `loaded_by` of every helper: a walk of the import graph from each root (a declared module or an xcsh
/// tool), remembering the import of the root each file was first reached through.
fn mark_loaders(modules: &mut [Module], edges: &[Vec<(usize, Span)>]) {
    let mut seen_from = vec![usize::MAX; modules.len()];
    let roots: Vec<usize> = (0..modules.len()).filter(|&m| modules[m].is_root()).collect();
    for root in roots {
        seen_from[root] = root;
        let mut stack: Vec<(usize, Span)> = edges[root].iter().rev().copied().collect();
        while let Some((at, via)) = stack.pop() {
            if seen_from[at] == root {
                continue;
            }
            seen_from[at] = root;
            if !modules[at].is_root() {
                modules[at].loaded_by.push((root, via));
            }
            stack.extend(edges[at].iter().rev().map(|&(next, _)| (next, via)));
        }
    }
}

/// Is this file code the runtime parses (rather than JSON or text it loads as data)?
fn is_code(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(_, ext)| HELPER_EXTENSIONS.contains(&ext))
}

fn read(checkout: &Checkout, path: &str, resolved: &Resolved, cache: Option<&ModuleCache>) -> Read {
    match (resolved, checkout.overlaid(path)) {
        // An overlay's bytes (pending fixes, unsaved editor buffers) instead of the file's.
        (_, Some(Some(bytes))) => Read::Done { bytes: Ok(bytes.clone()), id: None },
        // Work-tree files are read on the analysis threads; git blobs here (gix is not `Sync`).
        (Resolved::Path(real), _) => Read::Later { real: real.clone(), indexed: checkout.index_stat(path) },
        (Resolved::Blob(id), _) => {
            let key = Key::new(*id, path);
            if let Some((facts, entry)) = cache.and_then(|cache| cache.get(&key)) {
                return Read::Cached { key, facts: Box::new(facts), entry };
            }
            MODULES_READ.fetch_add(1, Ordering::Relaxed);
            Read::Done { bytes: checkout.read_resolved(resolved), id: Some(*id) }
        }
    }
}

/// A module's bytes, or where to read them.
enum Read {
    /// A work-tree file, with its index entry when git has one that stat data can vouch for.
    Later { real: PathBuf, indexed: Option<IndexStat> },
    /// Bytes (or why there are none), with the blob id when they come from git.
    Done { bytes: Result<Vec<u8>, Refusal>, id: Option<ObjectId> },
    /// The bytes an earlier run read (its text and facts come with the work).
    Known,
    /// A git blob the cache holds the facts of: not read.
    Cached { key: Key, facts: Box<ModuleFacts>, entry: std::ops::Range<usize> },
}

/// A file's path, its bytes, the text and facts an earlier run had for it, and whether its text may be let go
/// (it can be read again from the checkout, and the run does not keep texts).
type Work<'a> = (&'a str, (Read, Option<(&'a str, &'a ModuleFacts)>), bool);

/// A module's text after its analysis.
enum Body {
    Held(String),
    /// Let go (or never read): read again from the checkout if something needs it.
    LetGo,
}

/// A module's text, its facts, and the cache entry that holds them (when there is a cache).
type Analysed = (Body, Box<ModuleFacts>, Option<(Key, Entry)>);

/// The analysis threads (with large stacks: parsing is recursive in oxc), made once per process: every level of
/// the closure and the manifest's YAML files run on the same threads, which keep their parse allocators warm.
pub(crate) fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().stack_size(ANALYSIS_STACK).build().ok()).as_ref()
}

fn parse_in_parallel(work: Vec<Work>, cache: Option<&ModuleCache>) -> Vec<Analysed> {
    let analyse = |(path, (read, known), let_go): Work| analyse_bytes(path, read, known, cache, let_go);
    match pool() {
        Some(pool) => pool.install(|| work.into_par_iter().map(analyse).collect()),
        // Without a pool of our own, analyse on one big-stack thread rather than risk the default stack.
        None => on_one_big_stack(|| work.into_iter().map(analyse).collect()).unwrap_or_default(),
    }
}

/// Runs `f` on one thread with the analysis stack: `None` when no such thread could be started or it panicked.
pub(crate) fn on_one_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new().stack_size(ANALYSIS_STACK).spawn_scoped(scope, f).ok()?;
        handle.join().ok()
    })
}

/// The facts of a clean tracked work-tree file that the cache holds, from one `stat` (git's test of "unchanged
/// since staged") and without reading the file.
fn cached_unread(
    path: &str,
    real: &std::path::Path,
    indexed: Option<IndexStat>,
    cache: &ModuleCache,
) -> Option<Analysed> {
    let metadata = gix::index::fs::Metadata::from_path_no_follow(real).ok()?;
    let key = Key::new(indexed?.id_if_clean(&metadata)?, path);
    let (facts, range) = cache.get(&key)?;
    Some((Body::LetGo, Box::new(facts), Some((key, Entry::Hit(range)))))
}

fn analyse_bytes(
    path: &str,
    read: Read,
    known: Option<(&str, &ModuleFacts)>,
    cache: Option<&ModuleCache>,
    let_go: bool,
) -> Analysed {
    let (bytes, id) = match (read, known) {
        (Read::Cached { key, facts, entry }, _) => return (Body::LetGo, facts, Some((key, Entry::Hit(entry)))),
        (Read::Known, Some((text, facts))) => return (Body::Held(text.to_string()), Box::new(facts.clone()), None),
        (Read::Later { real, indexed }, _) => {
            if let Some(cache) = cache.filter(|_| let_go && indexed.is_some())
                && let Some(hit) = cached_unread(path, &real, indexed, cache)
            {
                return hit;
            }
            MODULES_READ.fetch_add(1, Ordering::Relaxed);
            match fs::read_with_metadata(&real) {
                Ok((bytes, metadata)) => {
                    let id = indexed.and_then(|indexed| indexed.id_if_clean(&metadata));
                    (Ok(bytes), id)
                }
                Err(refusal) => (Err(refusal), None),
            }
        }
        (Read::Done { bytes, id }, _) => (bytes, id),
        (Read::Known, None) => (Err(Refusal::NotFound), None),
    };
    let bytes = match bytes {
        Ok(bytes) => bytes,
        Err(refusal @ Refusal::TooLarge(_)) => {
            let not_analysed = Some(NotAnalysed { span: Default::default(), why: refusal.describe() });
            return (Body::Held(String::new()), Box::new(ModuleFacts { not_analysed, ..Default::default() }), None);
        }
        Err(refusal) => {
            let error = SyntaxError { span: Default::default(), message: format!("the module {}", refusal.describe()) };
            let facts = ModuleFacts { syntax_errors: vec![error], ..Default::default() };
            return (Body::Held(String::new()), Box::new(facts), None);
        }
    };
    if let Some((text, facts)) = known.filter(|(text, _)| text.as_bytes() == bytes) {
        return (Body::Held(text.to_string()), Box::new(facts.clone()), None);
    }
    // A module that does not parse is all but sure to be shown: it keeps its text.
    let body = |text: String, facts: &ModuleFacts| match let_go && facts.is_whole() {
        true => Body::LetGo,
        false => Body::Held(text),
    };
    // The cache key: the blob id git already knows, or the bytes hashed as git would.
    let key = cache.and_then(|_| {
        let id = id.or_else(|| gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, &bytes).ok())?;
        Some(Key::new(id, path))
    });
    match String::from_utf8(bytes) {
        Ok(text) => {
            if let (Some(cache), Some(key)) = (cache, &key)
                && let Some((facts, range)) = cache.get(key)
            {
                return (body(text, &facts), Box::new(facts), Some((key.clone(), Entry::Hit(range))));
            }
            MODULES_PARSED.fetch_add(1, Ordering::Relaxed);
            let facts = ALLOCATOR.with(|allocator| analyse::analyse(path, &text, &mut allocator.borrow_mut()));
            let entry = key.map(|key| (key, Entry::New(ModuleCache::encode(&facts))));
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
            (Body::Held(text), Box::new(ModuleFacts { syntax_errors: vec![error], ..Default::default() }), None)
        }
    }
}
