//! The paths a run looks at on disk, noted while a `check` run that may be replayed is going: what its record
//! ([`crate::cache::replay`]) must find unchanged, file by file, before a later run replays its report. Every read,
//! `lstat`, listing and link the repository layer makes of the work tree, and the git files discovery reads, is
//! noted here; `tests/it/replay.rs` compares the notes of a run with the paths `strace` sees it touch.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

static ON: AtomicBool = AtomicBool::new(false);
static SEEN: Mutex<Vec<(PathBuf, Look)>> = Mutex::new(Vec::new());

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
        SEEN.lock().unwrap_or_else(PoisonError::into_inner).push((path.to_path_buf(), look));
    }
}

/// Stops noting; the paths noted, absolute (a relative one is taken from the current folder, which a run does not
/// change), sorted, each once (as [`Look::Whole`] when noted both ways).
pub fn stop() -> Vec<(PathBuf, Look)> {
    ON.store(false, Ordering::Relaxed);
    let mut seen = std::mem::take(&mut *SEEN.lock().unwrap_or_else(PoisonError::into_inner));
    if seen.iter().any(|(path, _)| path.is_relative()) {
        let here = std::env::current_dir().unwrap_or_default();
        for (path, _) in seen.iter_mut().filter(|(path, _)| path.is_relative()) {
            *path = here.join(&*path);
        }
    }
    // By their bytes (comparing paths part by part cost a first run at 2,000 modules 6 % of its instructions);
    // `Whole` sorts first, and `dedup_by` keeps the first of equal paths.
    seen.sort_unstable_by(|(a, a_look), (b, b_look)| {
        a.as_os_str().as_encoded_bytes().cmp(b.as_os_str().as_encoded_bytes()).then(a_look.cmp(b_look))
    });
    seen.dedup_by(|later, first| later.0.as_os_str() == first.0.as_os_str());
    seen
}
