//! The modules stage as a stream: each module is handed to the analysis threads the moment its path is known
//! (a declaration as the manifest graph loads, an xcsh tool, a helper as its importer is resolved), while this
//! thread goes on loading, collecting and resolving. Results are taken in the order the modules were named, so
//! the module list, its file ids and every finding come out as a level-by-level walk of the closure gives them.

use super::Reused;
use super::mailbox::Mailbox;
use super::shared::Lists;
use super::{Analysed, Body, DeclaredBy, Edges, Module, Read, Work, analyse_batch, is_code, mark_loaders, read};
use crate::cache::ModuleCache;
use crate::lookup::PositionTable;
use crate::manifest::load::Job;
use crate::manifest::tools::ToolDecl;
use crate::modules::facts::ImportKind;
use crate::modules::resolve::{Resolution, Resolver};
use crate::pool::{on_one_big_stack, threads};
use crate::repo::checkout::{Checkout, Indexed, Resolved};
use crate::repo::fs::Refusal;
use crate::source::{PathText, Reread, SourceFile, Sources};
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// The path of module `at`: taken (in `modules`, its path that of its file in `sources`), or named and not yet taken
/// (`named` holds those after them).
fn path_of<'p>(modules: &[Module], sources: &'p Sources, named: &'p VecDeque<Named>, at: usize) -> &'p [u8] {
    match at.checked_sub(modules.len()) {
        None => sources.get(modules[at].file).path.as_bytes(),
        Some(later) => named[later].path.as_bytes(),
    }
}

/// The analyses of a batch, by module index, or the panic that ended them where panics unwind (tests, debug builds),
/// carried back to this thread and resumed there; the release profile (`panic = "abort"`) ends the process where the
/// panic happens.
type Outcome = std::thread::Result<Vec<(usize, Analysed)>>;

/// Whether the outcome is that of module `at`'s batch (a panic is taken at once, whatever the batch).
fn holds(outcome: &Outcome, at: usize) -> bool {
    outcome.as_ref().map_or(true, |analysed| analysed.iter().any(|&(index, _)| index == at))
}

/// What the stage holds for a module between its naming and its place in the module list.
struct Named {
    path: PathText,
    /// The declarations that name it (indices into `Project::tools`).
    declared_by: DeclaredBy,
    xcsh: bool,
    /// Where its text can be read again.
    reread: Option<Reread>,
    /// Read from that work-tree file now (rather than known from an earlier run).
    from_disk: bool,
    /// Its analysis, once done and not yet taken.
    done: Option<Analysed>,
}

/// How many modules are handed to the analysis threads at once once `named` modules are named: a few at first, so
/// that the threads start at once, then up to 64. A batch's results wake this thread once, not once per module (on
/// the 2,000-module bench, a context switch per module cost the run 12 ms of CPU, more than this thread's own work
/// on them); there are still far more batches than threads.
fn batch_size(named: usize) -> usize {
    (named / 16).clamp(4, 64)
}

/// The modules named so far, and their analyses under way (see the module documentation).
pub struct Feed<'s, 'a> {
    parsed: &'s Reused<'a>,
    cache: Option<&'a ModuleCache>,
    keep_texts: bool,
    /// The largest module or helper analysed (`[limits] module-bytes`): a larger one is neither read nor parsed.
    module_bytes: u64,
    /// The pool's scope, or `None` without a pool: the work then waits in `waiting` and runs on one big-stack thread
    /// when a result is needed (with a pool, `waiting` is the batch being filled).
    scope: Option<&'s rayon::Scope<'a>>,
    waiting: Vec<(usize, Work<'a>)>,
    /// Every module named so far by path: positions only, the paths are those of `modules` and `named` (a map of
    /// its own copies held 1.1 MB at the 20k bench's peak, the end of [`Feed::finish`]).
    index_of: PositionTable,
    /// The modules [`Feed::finish`] has taken, in order.
    modules: Vec<Module>,
    /// The project's files, the taken modules' among them: held by the feed while [`Feed::finish`] runs (given back
    /// at its end), empty before it, while `modules` is empty too. The paths of the taken modules are found here.
    sources: Sources,
    /// The modules named and not yet taken by [`Feed::finish`], by module index from `taken` on: taken from the
    /// front, so that what the stage holds for a module goes as the module joins the list (the stage ends at the
    /// run's peak, with every module in the list).
    named: VecDeque<Named>,
    /// How many modules [`Feed::finish`] has taken (the index of `named`'s first).
    taken: usize,
    /// How many modules the run is expected to name: the cache's entries (the files the last run used), else 0.
    expected: usize,
    results: Arc<Mailbox<Outcome>>,
    /// The outcomes taken from `results` and not yet put in place (kept empty: its room serves every take).
    arrived: Vec<Outcome>,
}

/// Runs `f` with a [`Feed`] whose analyses run on the analysis threads (see [`threads`]) while `f` goes on; every
/// analysis has ended when this returns.
pub fn with_feed<'a, R>(
    parsed: &Reused<'a>,
    cache: Option<&'a ModuleCache>,
    keep_texts: bool,
    module_bytes: u64,
    f: impl FnOnce(&mut Feed<'_, 'a>) -> R,
) -> R {
    match threads() {
        Some(pool) => {
            pool.in_place_scope(|scope| f(&mut Feed::new(parsed, cache, keep_texts, module_bytes, Some(scope))))
        }
        None => f(&mut Feed::new(parsed, cache, keep_texts, module_bytes, None)),
    }
}

impl<'s, 'a> Feed<'s, 'a> {
    fn new(
        parsed: &'s Reused<'a>,
        cache: Option<&'a ModuleCache>,
        keep_texts: bool,
        module_bytes: u64,
        scope: Option<&'s rayon::Scope<'a>>,
    ) -> Self {
        // A warm run names about as many modules as the cache holds entries: the lists are sized for them at once
        // (grown by a quarter at a time, `named` was copied 14 times at 2,000 modules, and `index_of` rebuilt 11
        // times).
        let expected = cache.map_or(0, ModuleCache::entries);
        Feed {
            parsed,
            cache,
            keep_texts,
            module_bytes,
            scope,
            waiting: Vec::new(),
            index_of: PositionTable::with_room(expected),
            modules: Vec::new(),
            sources: Sources::default(),
            named: VecDeque::with_capacity(expected),
            taken: 0,
            expected,
            results: Arc::new(Mailbox::new()),
            arrived: Vec::new(),
        }
    }

    /// Runs jobs on the analysis threads while the caller goes on (at once, without a pool).
    pub fn spawner(&self) -> impl Fn(Job<'a>) + use<'s, 'a> {
        let scope = self.scope;
        move |job| match scope {
            Some(scope) => scope.spawn(move |_| job()),
            None => job(),
        }
    }

    /// The module of declaration `index` (of `Project::tools`), if it names one that exists (a module too large to
    /// read is there all the same: the runtime loads it, and it comes back not analysed).
    /// `indexed`: what the index holds at the module's path, when its resolution looked it up.
    pub fn declare(&mut self, checkout: &Checkout, index: usize, decl: &ToolDecl, indexed: Indexed) {
        let (Some(path), Some(module @ (Ok(_) | Err(Refusal::TooLarge(_))))) = (decl.module_path(), &decl.module)
        else {
            return;
        };
        if let Some(at) = self.find(path) {
            self.named_mut(at).declared_by.push(index);
            return;
        }
        let read = match module {
            Ok(resolved) => self.read(checkout, path, resolved, indexed),
            Err(refusal) => Read::Done { bytes: Err(refusal.clone()), id: None },
        };
        self.schedule(checkout, PathText::from(path), DeclaredBy::one(index), false, read);
    }

    /// An xcsh custom tool found in a tool folder (docs/spec/rules.md §6).
    pub fn xcsh(&mut self, checkout: &Checkout, path: String, resolved: Result<Resolved, Refusal>) {
        if let Some(at) = self.find(&path) {
            self.named_mut(at).xcsh = true;
            return;
        }
        let path = PathText::from(path);
        let read =
            resolved.map_or_else(|e| Read::Done { bytes: Err(e), id: None }, |r| self.read(checkout, &path, &r, None));
        self.schedule(checkout, path, DeclaredBy::default(), true, read);
    }

    /// Module `at`, named and not yet taken: declarations and xcsh tools are all named before [`Feed::finish`]
    /// takes the first module.
    fn named_mut(&mut self, at: usize) -> &mut Named {
        &mut self.named[at - self.taken]
    }

    /// The number of modules named so far.
    fn count(&self) -> usize {
        self.taken + self.named.len()
    }

    fn read(&self, checkout: &Checkout, path: &str, resolved: &Resolved, indexed: Indexed) -> Read {
        // A git blob whose facts the cache holds is not read (its text is read again only if a finding needs it).
        read(checkout, path, resolved, indexed, self.cache.filter(|_| !self.keep_texts), self.module_bytes)
    }

    /// The module named at this path, if one is.
    fn find(&self, path: &str) -> Option<usize> {
        self.index_of.find(path.as_bytes(), |at| path_of(&self.modules, &self.sources, &self.named, at))
    }

    /// Names module `self.count()` and hands it to the analysis threads.
    fn schedule(&mut self, checkout: &Checkout, path: PathText, declared_by: DeclaredBy, xcsh: bool, read: Read) {
        let at = self.count();
        self.push(checkout, path, declared_by, xcsh, read);
        let (modules, sources, named) = (&self.modules, &self.sources, &self.named);
        self.index_of.push(at, |at| path_of(modules, sources, named, at));
    }

    /// Names module `self.count()` (not yet in `index_of`) and hands it to the analysis threads.
    fn push(&mut self, checkout: &Checkout, path: PathText, declared_by: DeclaredBy, xcsh: bool, read: Read) {
        let index = self.count();
        let known = self.parsed.module(&path);
        let reread = match &read {
            Read::Later { real, .. } => Some(Reread::Disk(real.clone())),
            Read::Done { bytes: Ok(_), id: Some(id) } => checkout.git.clone().map(|git| Reread::Blob(git, *id)),
            Read::Cached { id, .. } => checkout.git.clone().map(|git| Reread::Blob(git, *id)),
            _ => None,
        };
        let let_go = !self.keep_texts && reread.is_some();
        let (read, from_disk) = match read {
            // Read from disk by an earlier run while the disk is taken as unchanged: that run's facts hold.
            Read::Later { real, .. } if known.is_some() && checkout.unchanged(&real.path()) => (Read::Known, false),
            read @ Read::Later { .. } => (read, true),
            read => (read, false),
        };
        if self.named.len() == self.named.capacity() {
            // Grown by a quarter, not doubled: doubling would leave up to half of this list (150 bytes a module)
            // empty.
            self.named.reserve_exact((self.named.len() / 4).max(64));
        }
        self.named.push_back(Named { path: path.clone(), declared_by, xcsh, reread, from_disk, done: None });
        self.waiting.push((index, (path, read, known, let_go)));
        if self.waiting.len() >= batch_size(index + 1) {
            self.hand_over();
            self.take_ready();
        }
    }

    /// Hands the batch being filled to the analysis threads (with a pool).
    fn hand_over(&mut self) {
        let Some(scope) = self.scope.filter(|_| !self.waiting.is_empty()) else { return };
        // The next batch's list sized for it at once (a batch grows by at most 4 within the next 64 modules): grown
        // from empty, every batch cost five reallocations and copies.
        let next = Vec::with_capacity(batch_size(self.count() + 64));
        let (batch, results, cache, limit) =
            (std::mem::replace(&mut self.waiting, next), Arc::clone(&self.results), self.cache, self.module_bytes);
        scope.spawn(move |_| {
            // Caught only where panics unwind: with the release profile's `panic = "abort"` there is none to catch.
            let analysed = std::panic::catch_unwind(AssertUnwindSafe(|| analyse_batch(batch, cache, limit)));
            results.put(analysed, holds);
        });
    }

    /// Waits for at least one more analysis: `false` when none will come (no thread could run them).
    fn wait(&mut self) -> bool {
        if self.scope.is_none() {
            // Without a pool of our own, analyse on one big-stack thread rather than risk the default stack.
            let (waiting, cache, limit) = (std::mem::take(&mut self.waiting), self.cache, self.module_bytes);
            let analysed = on_one_big_stack(move || analyse_batch(waiting, cache, limit));
            let Some(analysed) = analysed.filter(|analysed| !analysed.is_empty()) else { return false };
            self.take(analysed);
            return true;
        }
        self.hand_over();
        // Every module named is in a batch handed over by now, the first not taken among them.
        self.take_arrived(Some(self.taken));
        true
    }

    /// Takes the analyses that are in already, without waiting: while this thread names modules (a warm run names
    /// 20,000 before it takes the first) they would wait in the mailbox, each batch in a list sized for the work it
    /// was handed (2.9 MB at the 20k bench's peak).
    fn take_ready(&mut self) {
        self.take_arrived(None);
    }

    /// Puts the analyses that are in in place, first waiting for module `waiting_for`'s if none is.
    fn take_arrived(&mut self, waiting_for: Option<usize>) {
        let mut arrived = std::mem::take(&mut self.arrived);
        match waiting_for {
            Some(at) => self.results.take_waiting(at, &mut arrived),
            None => self.results.take(&mut arrived),
        }
        for outcome in arrived.drain(..) {
            self.take(outcome.unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        self.arrived = arrived;
    }

    fn take(&mut self, analysed: Vec<(usize, Analysed)>) {
        for (index, analysed) in analysed {
            self.named[index - self.taken].done = Some(analysed);
        }
    }

    /// Takes every analysis in the order the modules were named, resolves each module's imports (naming the code
    /// files they load as more modules), and gives the module list; the cache, if any, is updated with this run's
    /// files. The feed holds `sources` while it runs: the taken modules' paths are found there.
    pub fn finish(&mut self, checkout: &Checkout, sources: &mut Sources) -> Vec<Module> {
        let mut resolver = Resolver::new(checkout);
        let mut lists = Lists::default();
        let mut edges = Edges::default();
        std::mem::swap(&mut self.sources, sources);
        while let Some(first) = self.named.front_mut() {
            let Some((body, facts, entry)) = first.done.take() else {
                if !self.wait() {
                    break;
                }
                continue;
            };
            // Unless the read failed (an empty text with an error).
            let read = !matches!(&body, Body::Held(text) if text.is_empty()) || facts.is_whole();
            if let (Some(Reread::Disk(real)), true, true) = (&first.reread, first.from_disk, read) {
                checkout.saw_real(real);
            }
            if let (Some(cache), Some(entry)) = (self.cache, entry) {
                cache.taken(&entry);
                // A new entry is encoded and written out now, not held to the end of the run.
                cache.keep(entry, &first.path, &*facts);
            }
            // The module stays first of `named` while its imports are resolved: `index_of` finds its path there.
            let folder = resolver.folder(&first.path);
            let resolved = lists.list(facts.imports.iter().map(|import| {
                let resolution = resolver.resolve_in(folder, &import.specifier, import.kind == ImportKind::Require);
                let erased = import.type_only && !matches!(*resolution, Resolution::Harness(_));
                if let (false, Resolution::File(target)) = (erased, &*resolution)
                    && is_code(target)
                {
                    let at = match self.find(target) {
                        Some(at) => at,
                        None => {
                            let (resolved, indexed) = checkout.resolve_module_indexed(target);
                            let read = resolved.map_or_else(
                                |e| Read::Done { bytes: Err(e), id: None },
                                |r| self.read(checkout, target, &r, indexed),
                            );
                            let path = PathText::from(target.as_str());
                            self.schedule(checkout, path, DeclaredBy::default(), false, read);
                            self.count() - 1
                        }
                    };
                    edges.push(at, import.span);
                }
                (!erased).then_some(resolution)
            }));
            let Some(Named { path, declared_by, xcsh, reread, .. }) = self.named.pop_front() else { break };
            self.taken += 1;
            if self.named.capacity() > 64 && self.named.len() < self.named.capacity() / 2 {
                // The pages of the modules taken stay resident until the list shrinks (in place: a large block shrinks
                // by `mremap`), while the module list grows: shrunk at half (at a quarter, the stage's peak held three
                // quarters of the list, 2.3 MB at 20,000 modules, beside the modules taken). Moves what is left, half
                // at most: every module is moved once on average.
                self.named.shrink_to_fit();
            }
            if self.modules.len() == self.modules.capacity() {
                // Sized exactly for the modules named so far (or expected): a list grown by doubling holds up to
                // twice what it needs at the run's peak.
                let more = self.count().max(self.expected) - self.modules.len();
                self.modules.reserve_exact(more);
                edges.ends.reserve_exact(more);
                self.sources.reserve_exact(more);
            }
            let file = match (body, reread) {
                (Body::LetGo, Some(reread)) => SourceFile::later(path, reread),
                (Body::Held(text), _) => SourceFile::new(path, text),
                (Body::LetGo, None) => SourceFile::new(path, String::new()),
            };
            let file = self.sources.add(file);
            edges.end_module();
            self.modules.push(Module {
                file,
                declared_by,
                loaders: None,
                xcsh,
                wrapper_past_limit: false,
                facts,
                resolved,
            });
        }
        // Every module is taken, so the cache file is complete: it is ended (the table sorted, the rest written and
        // the file put in place) on an analysis thread, idle now, while this one marks the loaders and completes the
        // model; the stage waits for it at its end (the pool's scope).
        if let Some(cache) = self.cache {
            match self.scope {
                Some(scope) => scope.spawn(move |_| cache.store()),
                None => cache.store(),
            }
        }
        // The stage's bookkeeping goes before the loaders are marked and the model is completed, not when the feed
        // ends.
        (self.named, self.index_of) = (VecDeque::new(), PositionTable::new(0, |_| &[]));
        std::mem::swap(&mut self.sources, sources);
        drop((resolver, lists));
        let mut modules = std::mem::take(&mut self.modules);
        // Grown by doubling, held while the loaders are marked (the stage's peak).
        edges.targets.shrink_to_fit();
        mark_loaders(&mut modules, &edges);
        super::wrapped::settle_imported_wrappers(&mut modules, &edges);
        super::wrapped::settle_reexported_defaults(&mut modules, &edges);
        modules
    }
}
