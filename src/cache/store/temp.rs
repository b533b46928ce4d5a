//! The temporary file a run writes the cache file into, and the clean-up of those that killed runs left (see
//! [`super`]); the cache folder made with its `.gitignore`.

use super::super::bytes::open_regular;
use super::super::{FILE, replay};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Makes the cache folder, with a `.gitignore` that keeps it out of version control. One already there, whatever
/// it is, is left as it is: made only where nothing is (`O_EXCL`), a link there is never followed (a dangling one
/// would have the file made wherever it points).
pub(super) fn prepare(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    match File::options().write(true).create_new(true).open(dir.join(".gitignore")) {
        Ok(mut ignore) => ignore.write_all(b"# written by beeuni-lint: its cache is not for version control\n*\n"),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(error),
    }
}

/// The temporary file, removed when it goes unless it was put in place (its path then empty). A run that ends
/// without dropping it (killed, or a panic in a release build, whose profile aborts) leaves the file; its end releases
/// its lock, and a later run that writes the cache removes it once it has gone unwritten for [`STALE`] (an hour).
pub(super) struct Temp(pub(super) PathBuf);

impl Temp {
    /// A new file under a name no other run has: the process id (for a person looking at the folder) and a random
    /// number (two processes in different pid namespaces, two containers, may share one project and one pid).
    pub(super) fn create(dir: &Path, name: &str) -> std::io::Result<(File, Temp)> {
        use std::hash::BuildHasher;
        let nonce = std::collections::hash_map::RandomState::new().hash_one(SystemTime::now());
        let path = dir.join(format!("{name}.{}-{nonce:016x}.tmp", std::process::id()));
        // Never an existing file (or a link someone left under that name).
        let file = File::options().read(true).write(true).create_new(true).open(&path)?;
        // Held until the file is put in place or removed: it tells this run's file, however long the run goes
        // between two writes, from one a killed run left ([`remove_stale`]). A file system without locks only
        // leaves the file's age to tell.
        let _ = file.try_lock();
        Ok((file, Temp(path)))
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.0.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// How long a temporary file goes unwritten before it is taken for one a killed run left: a run writes its file
/// from its first new entry to its end, seconds.
const STALE: Duration = Duration::from_secs(60 * 60);

/// Removes the temporary files of runs that were killed before they removed them (they would pile up, one a run):
/// only regular files named as this tool names them (with older versions' spool files), not written to for
/// [`STALE`] and whose lock no run holds ([`Temp::create`]), never a link or what it points to.
pub(super) fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        if !entry.file_name().to_str().is_some_and(is_temporary) {
            continue;
        }
        // `DirEntry::metadata` does not follow a link.
        let Ok(metadata) = entry.metadata() else { continue };
        let age = metadata.modified().ok().and_then(|modified| now.duration_since(modified).ok());
        if !metadata.file_type().is_file() || age.is_none_or(|age| age < STALE) {
            continue;
        }
        let Some(file) = open_regular(&entry.path()) else { continue };
        // A run still writing it holds its lock; where locks are not to be had, its age alone tells.
        let dead = !matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock));
        drop(file);
        if dead {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// `modules.bin.<pid>-<nonce>.tmp` (or `run.bin.…`, a run's record), or an older version's `modules.bin.<pid>.tmp`
/// or `modules.bin.<pid>.spool`.
fn is_temporary(name: &str) -> bool {
    let rest = name.strip_prefix(FILE).or_else(|| name.strip_prefix(replay::FILE));
    let Some(rest) = rest.and_then(|rest| rest.strip_prefix('.')) else { return false };
    let Some(middle) = rest.strip_suffix(".tmp").or_else(|| rest.strip_suffix(".spool")) else { return false };
    !middle.is_empty() && middle.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
}
