//! The paths a run looks at on disk, noted while a `check` run that may be replayed is going: what its record
//! ([`crate::cache::replay`]) must find unchanged, file by file, before a later run replays its report. Every read,
//! `lstat`, listing and link the repository layer makes of the work tree, and the git files discovery reads, is
//! noted here; `tests/it/replay.rs` compares the notes of a run with the paths `strace` sees it touch.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

static ON: AtomicBool = AtomicBool::new(false);
static NOTED: Mutex<Watched> = Mutex::new(Watched { paths: Vec::new(), notes: Vec::new() });

/// The paths a run noted: their bytes one after the other in one buffer (a run at 20,000 modules notes as many
/// paths; one allocation each cost it 5 MiB at its peak), and what each is noted as.
#[derive(Debug, Default)]
pub struct Watched {
    paths: Vec<u8>,
    notes: Vec<Note>,
}

/// A path noted: where its bytes are, what of it matters, and what it answered when the run opened it (a file
/// read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note {
    start: usize,
    len: usize,
    pub look: Look,
    pub found: Option<Found>,
}

impl Watched {
    /// The paths noted, in order.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The path of `note` (one of [`Watched::notes`]).
    pub fn path(&self, note: &Note) -> &Path {
        path_of(self.paths.get(note.start..note.start + note.len).unwrap_or_default())
    }

    /// Notes `path`.
    fn push(&mut self, path: &Path, look: Look, found: Option<Found>) {
        let start = self.paths.len();
        self.paths.extend_from_slice(path.as_os_str().as_encoded_bytes());
        self.notes.push(Note { start, len: self.paths.len() - start, look, found });
    }

    /// These paths, as noted (tests of the record).
    #[doc(hidden)]
    pub fn of(paths: &[(&Path, Look)]) -> Watched {
        let mut watched = Watched::default();
        for (path, look) in paths {
            watched.push(path, *look, None);
        }
        watched
    }
}

/// A path from the bytes [`Watched`] (and a record) keeps of it: `as_encoded_bytes` of a path of this platform.
pub fn path_of(bytes: &[u8]) -> &Path {
    // Any bytes are a path on Unix; elsewhere the bytes are those of a `str`.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Path::new(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        Path::new(std::str::from_utf8(bytes).unwrap_or_default())
    }
}

/// What a regular file the run opened answered to `fstat`: what `lstat` of its path answers (its last part is no
/// link, or the file opened would be another), taken when it was read, which spares the record an `lstat` of
/// every module at the end of the run. Times are `(seconds, nanoseconds)` since 1970.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub modified: (i64, u32),
    pub changed: (i64, u32),
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
        NOTED.lock().unwrap_or_else(PoisonError::into_inner).push(path, look, None);
    }
}

/// Notes that the run read the regular file at `path`, which answered `metadata` to `fstat`.
pub fn note_read(path: &Path, metadata: &gix::index::fs::Metadata) {
    if !on() {
        return;
    }
    let since_1970 = |time: Option<std::time::SystemTime>| {
        let since = time?.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some((i64::try_from(since.as_secs()).ok()?, since.subsec_nanos()))
    };
    let found = match (metadata.is_file(), since_1970(metadata.modified()), since_1970(metadata.created())) {
        (true, Some(modified), Some(changed)) => {
            Some(Found { dev: metadata.dev(), ino: metadata.ino(), size: metadata.len(), modified, changed })
        }
        _ => None,
    };
    NOTED.lock().unwrap_or_else(PoisonError::into_inner).push(path, Look::Whole, found);
}

/// Stops noting; the paths noted, absolute (a relative one is taken from the current folder, which a run does not
/// change), sorted, each once (as [`Look::Whole`] when noted both ways, with what it answered when read, if it was).
pub fn stop() -> Watched {
    ON.store(false, Ordering::Relaxed);
    let mut watched = std::mem::take(&mut *NOTED.lock().unwrap_or_else(PoisonError::into_inner));
    if watched.notes.iter().any(|note| watched.path(note).is_relative()) {
        let here = std::env::current_dir().unwrap_or_default();
        let mut absolute = Watched::default();
        for note in &watched.notes {
            absolute.push(&here.join(watched.path(note)), note.look, note.found);
        }
        watched = absolute;
    }
    // By their bytes (comparing paths part by part cost a first run at 2,000 modules 6 % of its instructions);
    // `Whole` sorts first, then what was read, and `dedup_by` keeps the first of equal paths.
    let Watched { paths, mut notes } = watched;
    let bytes = |note: &Note| &paths[note.start..note.start + note.len];
    notes.sort_unstable_by(|a, b| {
        bytes(a).cmp(bytes(b)).then(a.look.cmp(&b.look)).then(b.found.is_some().cmp(&a.found.is_some()))
    });
    notes.dedup_by(|later, first| bytes(later) == bytes(first));
    Watched { paths, notes }
}
