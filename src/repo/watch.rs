//! The paths a run looks at on disk, noted while a `check` run that may be replayed is going: what its record
//! ([`crate::cache::replay`]) must find unchanged, file by file, before a later run replays its report. Every read,
//! `lstat`, listing and link the repository layer makes of the work tree, and the git files discovery reads, is
//! noted here; `tests/it/replay.rs` compares the notes of a run with the paths `strace` sees it touch.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

static ON: AtomicBool = AtomicBool::new(false);
static SEEN: Mutex<Vec<Seen>> = Mutex::new(Vec::new());

/// A path noted: what of it matters, and what it answered when the run opened it (a file read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub path: PathBuf,
    pub look: Look,
    pub found: Option<Found>,
}

/// What a regular file the run opened answered to `fstat`: what `lstat` of its path answers (its last part is no
/// link, or the file opened would be another), taken when it was read, which spares the record an `lstat` of
/// every module at the end of the run. Times are `(seconds, nanoseconds)` since 1970.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub modified: (i64, i64),
    pub changed: (i64, i64),
}

/// What of a path the run's answer depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Look {
    /// Its contents: a file's bytes, a folder's entries (its `lstat` data, all of it).
    Whole,
    /// Only which file or folder it is, and of what kind: a folder on the way to another path (`/tmp`, whose
    /// entries come and go all day), a `.git` looked for and not found.
    Identity,
}

/// Notes from now on (one run a process: `check`'s).
pub fn start() {
    ON.store(true, Ordering::Relaxed);
}

/// Is a run noting what it looks at? (Off, a note costs this load and nothing else.)
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Notes that the run looked at `path` (read, listed, `lstat`ed or found missing).
pub fn note(path: &Path) {
    note_as(path, Look::Whole);
}

/// Notes that the run went through `path` (a folder on the way) or looked for it: only which entry it is matters.
pub fn note_identity(path: &Path) {
    note_as(path, Look::Identity);
}

fn note_as(path: &Path, look: Look) {
    if on() {
        SEEN.lock().unwrap_or_else(PoisonError::into_inner).push(Seen { path: path.to_path_buf(), look, found: None });
    }
}

/// Notes that the run read the regular file at `path`, which answered `metadata` to `fstat`.
pub fn note_read(path: &Path, metadata: &gix::index::fs::Metadata) {
    if !on() {
        return;
    }
    let since_1970 = |time: Option<std::time::SystemTime>| {
        let since = time?.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some((i64::try_from(since.as_secs()).ok()?, i64::from(since.subsec_nanos())))
    };
    let found = match (metadata.is_file(), since_1970(metadata.modified()), since_1970(metadata.created())) {
        (true, Some(modified), Some(changed)) => {
            Some(Found { dev: metadata.dev(), ino: metadata.ino(), size: metadata.len(), modified, changed })
        }
        _ => None,
    };
    SEEN.lock().unwrap_or_else(PoisonError::into_inner).push(Seen {
        path: path.to_path_buf(),
        look: Look::Whole,
        found,
    });
}

/// Stops noting; the paths noted, absolute (a relative one is taken from the current folder, which a run does not
/// change), sorted, each once (as [`Look::Whole`] when noted both ways, with what it answered when read, if it was).
pub fn stop() -> Vec<Seen> {
    ON.store(false, Ordering::Relaxed);
    let mut seen = std::mem::take(&mut *SEEN.lock().unwrap_or_else(PoisonError::into_inner));
    if seen.iter().any(|seen| seen.path.is_relative()) {
        let here = std::env::current_dir().unwrap_or_default();
        for seen in seen.iter_mut().filter(|seen| seen.path.is_relative()) {
            seen.path = here.join(&seen.path);
        }
    }
    // By their bytes (comparing paths part by part cost a first run at 2,000 modules 6 % of its instructions);
    // `Whole` sorts first, then what was read, and `dedup_by` keeps the first of equal paths.
    seen.sort_unstable_by(|a, b| {
        fn bytes(seen: &Seen) -> &[u8] {
            seen.path.as_os_str().as_encoded_bytes()
        }
        bytes(a).cmp(bytes(b)).then(a.look.cmp(&b.look)).then(b.found.is_some().cmp(&a.found.is_some()))
    });
    seen.dedup_by(|later, first| later.path.as_os_str() == first.path.as_os_str());
    seen
}
