//! Where a project's files come from: the work tree (read safely, inside the
//! root), and what git knows about them (tracked, ignored).

use super::fs::{self, Refusal};
use super::git::{EntryKind, GitRepo, GitSource};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

mod tracking;

pub use tracking::Untracked;

/// Symlinks followed on one path in git objects, so that a loop of links ends.
const MAX_GIT_LINK_HOPS: usize = 16;

/// Work-tree files as a fix would leave them, before anything is written: new bytes, or `None` for a deleted file.
/// Keys are project-relative paths.
pub type Overlay = HashMap<String, Option<Vec<u8>>>;

/// What the work tree's disk answered, kept from one run to the next while the disk is taken as unchanged: the
/// language server keeps one per project between saves (and for a few seconds at most), so an edit of one
/// buffer neither looks up nor reads every module again. Git sides do not use it.
#[derive(Default)]
pub struct DiskMemo {
    resolved: Mutex<HashMap<String, Result<Resolved, Refusal>>>,
    /// Files read from disk while this memo lived: an earlier run's text of them is still what the disk holds.
    seen: Mutex<HashSet<PathBuf>>,
}

impl DiskMemo {
    fn resolve(&self, root: &Path, rel: &str) -> Result<Resolved, Refusal> {
        let mut resolved = self.resolved.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = resolved.get(rel) {
            return known.clone();
        }
        let answer =
            fs::resolve(root, rel).map(|real| Resolved::Path(fs::RealPath::new(&Arc::new(root.to_path_buf()), real)));
        resolved.insert(rel.to_string(), answer.clone());
        answer
    }
}

/// What [`Checkout::index_stat`] gave for a path (`Some`), when a lookup already asked it.
pub type Indexed = Option<Option<super::git::IndexStat>>;

/// A file found by [`Checkout::resolve`], ready to read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Resolved {
    /// Kept by a declared module's declaration and by its file (to read it again), and handed to the thread that
    /// reads it.
    Path(fs::RealPath),
    Blob(gix::ObjectId),
}

/// Which version of the files a checkout shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    WorkTree,
    /// A commit's tree or the index, read from git objects (never checked out).
    Git(GitSource),
    /// Nothing: the base of a first commit.
    Empty,
}

pub struct Checkout {
    /// The project root (absolute, canonical).
    pub root: PathBuf,
    pub git: Option<Arc<GitRepo>>,
    /// The project root relative to the git work tree root (`""` when the same), with `/`.
    pub git_prefix: String,
    pub side: Side,
    /// Pending fixes over the work tree (see [`Overlay`]); git sides ignore it.
    pub overlay: Option<Arc<Overlay>>,
    /// The disk's answers, kept across runs while the disk is taken as unchanged (see [`DiskMemo`]).
    pub memo: Option<Arc<DiskMemo>>,
    /// This run's folder listings (work tree only).
    listings: Arc<fs::Listings>,
}

impl Checkout {
    pub fn work_tree(root: PathBuf, git: Option<Arc<GitRepo>>, git_prefix: String) -> Self {
        let listings = Arc::default();
        Checkout { root, git, git_prefix, side: Side::WorkTree, overlay: None, memo: None, listings }
    }

    /// The same project as another version of its files: a tree, the index, or nothing.
    pub fn at(&self, side: Side) -> Checkout {
        Checkout {
            root: self.root.clone(),
            git: self.git.clone(),
            git_prefix: self.git_prefix.clone(),
            side,
            overlay: self.overlay.clone(),
            memo: self.memo.clone(),
            listings: self.listings.clone(),
        }
    }

    /// What the overlay says of a work-tree path: `Some(None)` deleted, `Some(Some(bytes))` rewritten.
    pub fn overlaid(&self, rel: &str) -> Option<Option<&Vec<u8>>> {
        if self.side != Side::WorkTree {
            return None;
        }
        self.overlay.as_ref()?.get(rel).map(Option::as_ref)
    }

    /// Are these the index's files (`--staged`)? Then a file missing from them is not in the commit.
    pub fn is_index(&self) -> bool {
        self.side == Side::Git(GitSource::Index)
    }

    /// Where a project-relative path leads, without reading it.
    pub fn resolve(&self, rel: &str) -> Result<Resolved, Refusal> {
        self.resolve_vouched(rel, None)
    }

    /// [`Checkout::resolve`] for a tool module or a file a module imports, where a file too large to read counts as
    /// there all the same (the modules stage reports it not analysed): a regular file that the git index tracks
    /// within the size limit is taken from its folder's listing without an `lstat`, its size checked when it is
    /// read (one `fstat`).
    pub fn resolve_module(&self, rel: &str) -> Result<Resolved, Refusal> {
        self.resolve_module_indexed(rel).0
    }

    /// [`Checkout::resolve_module`], with what [`Checkout::index_stat`] gives when the resolution looked the path
    /// up in the index already (`None` when it did not): a module is then read without a second lookup.
    pub fn resolve_module_indexed(&self, rel: &str) -> (Result<Resolved, Refusal>, Indexed) {
        let looked_up = std::cell::Cell::new(None);
        let resolved = self.resolve_vouched(rel, Some(&looked_up));
        (resolved, looked_up.into_inner())
    }

    /// `index_vouches`: a module's resolution, which takes the index's word for a file's size, and leaves there what
    /// the lookup found.
    fn resolve_vouched(
        &self,
        rel: &str,
        index_vouches: Option<&std::cell::Cell<Indexed>>,
    ) -> Result<Resolved, Refusal> {
        match (self.side, &self.git) {
            (Side::Git(source), Some(git)) => self.resolve_in_git(git, source, rel),
            (Side::WorkTree, _) if self.overlaid(rel) == Some(None) => Err(Refusal::NotFound),
            (Side::WorkTree, _) => match &self.memo {
                Some(memo) => memo.resolve(&self.root, rel),
                None => {
                    let within_limit = || index_vouches.is_some_and(|found| self.indexed_within_limit(rel, found));
                    fs::resolve_listed(&self.root, rel, &self.listings, within_limit).map(Resolved::Path)
                }
            },
            _ => Err(Refusal::NotFound),
        }
    }

    /// Does the git index record this work-tree path as a regular file no larger than [`fs::MAX_FILE_BYTES`]?
    /// (Its size when staged: a file grown past the limit since is refused when it is read.) Only for
    /// [`Checkout::resolve_module`], where that refusal means what the `lstat`'s would have.
    fn indexed_within_limit(&self, rel: &str, found: &std::cell::Cell<Indexed>) -> bool {
        let Some(git) = &self.git else {
            found.set(Some(None));
            return false;
        };
        let (size, stat) = git.indexed_size_and_stat(&self.git_path(rel));
        found.set(Some(stat));
        size.is_some_and(|size| size <= fs::MAX_FILE_BYTES)
    }

    /// Looks a path up in git objects, following symlinks that stay inside the project (a few hops at most): the
    /// file's own link, and a linked folder on the way (`tools -> lib/tools` for `tools/x.ts`), as the work tree
    /// follows them; git records a link as a link, so the path beyond one is no entry of its own.
    fn resolve_in_git(&self, git: &GitRepo, source: GitSource, rel: &str) -> Result<Resolved, Refusal> {
        let mut path = rel.to_string();
        for _ in 0..MAX_GIT_LINK_HOPS {
            // git keeps no `.git` in a tree; a symlink may still name one (of the work tree it was committed from).
            if fs::in_git_folder(Path::new(&path)) {
                return Err(Refusal::GitFolder);
            }
            let (link, id, rest) = match git.entry(source, &self.git_path(&path)) {
                Some((id, EntryKind::File | EntryKind::Executable)) => return Ok(Resolved::Blob(id)),
                Some((_, EntryKind::Submodule)) => return Err(Refusal::Directory),
                Some((id, EntryKind::Symlink)) => (path.as_str(), id, ""),
                None if git.is_dir(source, &self.git_path(&path)) => return Err(Refusal::Directory),
                None => match git.link_on_the_way(source, &self.git_path(&path)) {
                    // Where the link ends in the git path, less the project's prefix (and its `/`).
                    Some((end, id)) if end > self.prefix_len() => {
                        let end = end - self.prefix_len();
                        (&path[..end], id, &path[end + 1..])
                    }
                    _ => return Err(Refusal::NotFound),
                },
            };
            let target = git.read_blob(id).map_err(Refusal::Io)?;
            let target = String::from_utf8_lossy(&target);
            let folder = fs::split_folder(link).0;
            let mut joined = if folder.is_empty() { target.into_owned() } else { format!("{folder}/{target}") };
            if !rest.is_empty() {
                joined = format!("{joined}/{rest}");
            }
            path = fs::normalize(&joined).ok_or(Refusal::OutsideRepository)?;
        }
        Err(Refusal::NotFound)
    }

    /// The length of the git blob `id`, without reading it (`None` without git, or when it is not there).
    pub fn blob_len(&self, id: gix::ObjectId) -> Option<usize> {
        self.git.as_ref()?.blob_len(id)
    }

    pub fn read_resolved(&self, resolved: &Resolved) -> Result<Vec<u8>, Refusal> {
        let bytes = match (resolved, &self.git) {
            (Resolved::Path(path), _) => {
                let path = path.path();
                let bytes = fs::read_resolved(&path);
                if bytes.is_ok() {
                    self.saw(&path);
                }
                return bytes;
            }
            (Resolved::Blob(id), Some(git)) => git.read_blob(*id).map_err(Refusal::Io)?,
            (Resolved::Blob(_), None) => return Err(Refusal::NotFound),
        };
        if bytes.len() as u64 > fs::MAX_FILE_BYTES {
            return Err(Refusal::TooLarge(bytes.len() as u64));
        }
        Ok(bytes)
    }

    /// Records that the work-tree file at `real` was read from disk (for the [`DiskMemo`], if any).
    pub fn saw(&self, real: &Path) {
        if let Some(memo) = &self.memo {
            memo.seen.lock().unwrap_or_else(PoisonError::into_inner).insert(real.to_path_buf());
        }
    }

    /// [`Checkout::saw`] of a resolved path, built only when there is a memo to record it in (a warm run takes every
    /// module this way, and building its path cost more than the rest of taking it).
    pub fn saw_real(&self, real: &fs::RealPath) {
        if self.memo.is_some() {
            self.saw(&real.path());
        }
    }

    /// Was the work-tree file at `real` read from disk while the [`DiskMemo`] lived (so an earlier run of it holds
    /// its bytes)?
    pub fn unchanged(&self, real: &Path) -> bool {
        self.memo.as_ref().is_some_and(|memo| memo.seen.lock().unwrap_or_else(PoisonError::into_inner).contains(real))
    }

    pub fn read(&self, rel: &str) -> Result<Vec<u8>, Refusal> {
        let resolved = self.resolve(rel)?;
        if let Some(Some(bytes)) = self.overlaid(rel) {
            // An editor's buffer is held to the limit of a file read, like the file it stands for.
            if bytes.len() as u64 > fs::MAX_FILE_BYTES {
                return Err(Refusal::TooLarge(bytes.len() as u64));
            }
            return Ok(bytes.clone());
        }
        self.read_resolved(&resolved)
    }

    /// Linting the index: is this file missing from it but present in the work tree (created, not staged)?
    pub fn only_in_work_tree(&self, rel: &str) -> bool {
        self.is_index() && fs::is_file(&self.root, rel)
    }

    /// Does this checkout hold exactly `bytes` at `rel`? Only git sides answer (by the blob's id, without reading
    /// it); the work tree says no.
    /// `head` is the side `bytes` were read from: the index, or a work-tree file unchanged since staged, names its
    /// blob without hashing.
    pub fn holds(&self, rel: &str, bytes: &[u8], head: Side) -> bool {
        let (Side::Git(source), Some(git)) = (self.side, &self.git) else { return false };
        let path = self.git_path(rel);
        let Some((id, EntryKind::File | EntryKind::Executable)) = git.entry(source, &path) else {
            return false;
        };
        let known = match head {
            Side::Git(GitSource::Index) => git.entry(GitSource::Index, &path).map(|(head_id, _)| head_id),
            // A file the overlay rewrote no longer has the bytes its stat data describes.
            Side::WorkTree if self.overlay.as_ref().is_some_and(|o| o.contains_key(rel)) => None,
            Side::WorkTree => git.clean_index_id(&path, &self.root.join(rel)),
            _ => None,
        };
        match known {
            Some(head_id) => head_id == id,
            None => gix::objs::compute_hash(id.kind(), gix::objs::Kind::Blob, bytes).is_ok_and(|hash| hash == id),
        }
    }

    /// The index's blob id and stat data of a work-tree file (see [`GitRepo::index_stat`]); `None` on git sides.
    pub fn index_stat(&self, rel: &str) -> Option<super::git::IndexStat> {
        match (self.side, &self.git) {
            (Side::WorkTree, Some(git)) => git.index_stat(&self.git_path(rel)),
            _ => None,
        }
    }

    pub fn is_file(&self, rel: &str) -> bool {
        self.resolve(rel).is_ok()
    }

    /// Is there a folder at this path (inside the repository)?
    pub fn is_dir(&self, rel: &str) -> bool {
        matches!(self.resolve(rel), Err(Refusal::Directory))
    }

    /// The names directly inside a folder, sorted (none when it is not a folder inside the repository).
    pub fn list_dir(&self, rel: &str) -> Vec<String> {
        match (self.side, &self.git) {
            (Side::Git(source), Some(git)) => return git.list_dir(source, &self.git_path(rel)),
            (Side::WorkTree, _) => {}
            _ => return Vec::new(),
        }
        if !rel.is_empty() && !self.is_dir(rel) {
            return Vec::new();
        }
        let folder = self.root.join(rel);
        super::watch::note(&folder);
        let Ok(entries) = std::fs::read_dir(&folder) else { return Vec::new() };
        let deleted = |name: &str| {
            let path = if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
            self.overlaid(&path) == Some(None)
        };
        let mut names: Vec<String> =
            entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| !deleted(n)).collect();
        names.sort();
        names
    }

    /// A project-relative path as git names it (relative to the work tree root). Borrowed when the project is
    /// the work tree root: tracking lookups run per module and per import.
    pub fn git_path<'a>(&self, rel: &'a str) -> std::borrow::Cow<'a, str> {
        if self.git_prefix.is_empty() { rel.into() } else { format!("{}/{rel}", self.git_prefix).into() }
    }

    /// How much [`Checkout::git_path`] puts before a project-relative path.
    fn prefix_len(&self) -> usize {
        if self.git_prefix.is_empty() { 0 } else { self.git_prefix.len() + 1 }
    }

    pub fn in_git(&self) -> bool {
        self.git.is_some()
    }
}
