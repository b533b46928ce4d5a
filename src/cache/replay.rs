//! A `check` run's record, replayed while nothing it looked at has changed: the warm run a hook or an editor makes
//! all day costs what `git status` costs, one `lstat` a path, and no module, manifest or cache entry is read.
//!
//! A run that may be replayed notes every path it looks at ([`crate::repo::watch`]): the files it reads, the folders
//! it lists, the paths it finds missing, the links and folders on the way, and the git files discovery reads (the
//! index, HEAD, config and ignore files). When it ends, each path's `lstat` data goes into `run.bin` in the cache
//! folder with what the run printed and its exit code, under a key of everything else the output depends on (the
//! build, the arguments, the current folder, the environment that git and colour read: see `src/replay.rs`). The next
//! run with that key `lstat`s each path again and, when every answer is the same, prints the same output and exits
//! the same way.
//!
//! The answers compared are git's stat data and more: device, inode, kind, size, and modification and change times
//! to the nanosecond ([`observe`]). A file rewritten since is told by its change time, which no program can set back. As in git, a
//! file changed within the clock's resolution of the run could show the same data before and after, so a record is
//! written only when no path it holds changed in the [`RACY`] before the run started (a later run writes it).
//! The key, the output and the exit code are sealed as the cache's entries are ([`super::layout::checksum`]); the
//! record lives only in a folder that is the run's own ([`super::place`]), and is written atomically.

use super::layout::{checksum, header};
use crate::repo::watch::{Look, Note, Watched, path_of};
use observe::{Folder, observe_into, observed_read};
use rayon::prelude::*;
use std::path::Path;
use std::time::{Duration, SystemTime};

mod observe;

/// The record's name in the cache folder.
pub const FILE: &str = "run.bin";
/// After the cache's header (the build): what this file is.
const KIND: &[u8] = b"run\n";
/// How recent a change makes a record unsafe to write: the file systems that keep times to the second (or two,
/// FAT's) could show a later change within it with the same data; Linux's own clock for file times lags by a tick.
pub const RACY: Duration = Duration::from_secs(2);

/// What a run printed (`None`: nothing, `--quiet` and clean) and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub text: Option<String>,
    pub code: u8,
}

/// The outcome recorded in `folder` under `key`, when every path it noted answers as it did.
pub fn replay(folder: &Path, key: &[u8]) -> Option<Outcome> {
    // Mapped, not read: its pages come from the page cache as the paths are looked at, with no copy.
    let bytes = super::bytes::Bytes::of(&folder.join(FILE));
    let mut reader = Reader(bytes.strip_prefix(header().as_slice())?.strip_prefix(KIND)?);
    let sealed = reader.bytes()?;
    let (sum, rest) = reader.0.split_first_chunk::<8>()?;
    if checksum(&[sealed]) != u64::from_le_bytes(*sum) {
        return None;
    }
    reader.0 = rest;
    let (code, text) = outcome_of(sealed, key)?;
    // The paths come in runs of [`RUN`], each path written as the part it does not share with the one before
    // (the first of a run whole): found run by run here, then looked at on the analysis threads (a replayed run's
    // `lstat`s are most of its time).
    let count = reader.number()?;
    let mut runs = Vec::with_capacity(count.div_ceil(RUN).min(reader.0.len()));
    let mut anchored = false;
    for at in 0..count {
        if at % RUN == 0 {
            runs.push((reader.0, (count - at).min(RUN)));
        }
        reader.number()?;
        reader.bytes()?;
        let whole = reader.byte()? == 0;
        let there = reader.bytes()?.first() == Some(&1);
        anchored |= whole && there;
    }
    // A record holds at least one file that is there, looked at whole (every run reads its manifest or a module):
    // one that holds none (or only paths missing, whose answer anyone can write) would replay whatever it says
    // wherever its key matches, and outside git nothing but the key keeps a record made elsewhere out.
    if !reader.0.is_empty() || !anchored {
        return None;
    }
    let unchanged = |&(entries, count): &(&[u8], usize)| unchanged_run(Reader(entries), count).unwrap_or(false);
    let unchanged = match crate::pool::threads() {
        Some(pool) => pool.install(|| runs.par_iter().all(unchanged)),
        None => runs.iter().all(unchanged),
    };
    unchanged.then_some(Outcome { text, code })
}

/// Paths in a run: the first written whole, a task on the analysis threads.
const RUN: usize = 256;

/// Does each of the `count` paths `reader` starts at answer as it did? `None` when they do not decode.
fn unchanged_run(mut reader: Reader<'_>, count: usize) -> Option<bool> {
    let (mut path, mut folder) = (Vec::with_capacity(256), Folder::default());
    for _ in 0..count {
        let shared = reader.number().filter(|shared| *shared <= path.len())?;
        path.truncate(shared);
        path.extend_from_slice(reader.bytes()?);
        let look = if reader.byte()? == 0 { Look::Whole } else { Look::Identity };
        let seen = reader.bytes()?;
        let mut changed = None;
        if observe_into(&mut folder, path_of(&path), look, &mut changed)?.as_slice() != seen {
            return Some(false);
        }
    }
    Some(true)
}

/// The exit code and text of the sealed part of a record, when its key is `key`.
fn outcome_of(sealed: &[u8], key: &[u8]) -> Option<(u8, Option<String>)> {
    let mut reader = Reader(sealed);
    if reader.bytes()? != key {
        return None;
    }
    let code = reader.byte()?;
    let text = match reader.byte()? {
        0 => None,
        _ => Some(String::from_utf8(reader.bytes()?.to_vec()).ok()?),
    };
    reader.0.is_empty().then_some((code, text))
}

/// Writes the record of a run that started at `started`, looked at `seen` and ended with `outcome` (nothing when a
/// path cannot be looked at, or changed in the [`RACY`] before the start).
///
/// The key, the exit code and the text are sealed with the cache's keyed checksum; the paths and their `lstat`
/// data are not (a damaged one answers differently, and the run lints).
pub fn record(folder: &Path, key: &[u8], started: SystemTime, seen: &Watched, outcome: &Outcome) {
    let Some(unsafe_from) = started.checked_sub(RACY) else { return };
    // Each run of paths written on its own (a run starts with a path written whole), on the analysis threads.
    let write_run = |run: &[Note]| -> Option<Vec<u8>> {
        let (mut out, mut folder, mut last) = (Vec::with_capacity(run.len() * 96), Folder::default(), &[][..]);
        for (at, note @ Note { look, found, .. }) in run.iter().enumerate() {
            let path = seen.path(note);
            let mut changed = None;
            let observed = match found {
                // A file read: what it answered then (a change since is a change the next run sees).
                Some(found) => observed_read(found, &mut changed),
                None => observe_into(&mut folder, path, *look, &mut changed)?,
            };
            if changed.is_some_and(|changed| changed >= unsafe_from) {
                return None;
            }
            let path = path.as_os_str().as_encoded_bytes();
            let shared = if at == 0 { 0 } else { path.iter().zip(last).take_while(|(a, b)| a == b).count() };
            put_number(&mut out, shared);
            put_bytes(&mut out, &path[shared..]);
            out.push(u8::from(*look == Look::Identity));
            put_bytes(&mut out, observed.as_slice());
            last = path;
        }
        Some(out)
    };
    let runs: Option<Vec<Vec<u8>>> = match crate::pool::threads() {
        Some(pool) => pool.install(|| seen.notes().par_chunks(RUN).map(write_run).collect()),
        None => seen.notes().chunks(RUN).map(write_run).collect(),
    };
    let Some(runs) = runs else { return };
    let mut sealed = Vec::new();
    put_bytes(&mut sealed, key);
    sealed.push(outcome.code);
    match &outcome.text {
        None => sealed.push(0),
        Some(text) => {
            sealed.push(1);
            put_bytes(&mut sealed, text.as_bytes());
        }
    }
    let mut out = header();
    out.extend_from_slice(KIND);
    put_bytes(&mut out, &sealed);
    out.extend_from_slice(&checksum(&[&sealed]).to_le_bytes());
    put_number(&mut out, seen.notes().len());
    // Written run by run, not joined first (at 20,000 modules a record is 1.9 MB, at the run's peak of memory).
    let parts: Vec<&[u8]> = std::iter::once(out.as_slice()).chain(runs.iter().map(Vec::as_slice)).collect();
    // Failing to write only costs the next run its replay.
    let _ = super::store::write_whole(folder, FILE, &parts);
}

fn put_number(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&(n as u64).to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_number(out, bytes.len());
    out.extend_from_slice(bytes);
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    fn number(&mut self) -> Option<usize> {
        let (n, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        usize::try_from(u64::from_le_bytes(*n)).ok()
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = self.number()?;
        let (bytes, rest) = self.0.split_at_checked(len)?;
        self.0 = rest;
        Some(bytes)
    }
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn outcome() -> Outcome {
        Outcome { text: Some("tools/a.ts:1:1: error[module-syntax] …\n".into()), code: 1 }
    }

    /// A file made `RACY` ago: old enough to be recorded.
    fn settled(dir: &Path) -> (PathBuf, SystemTime) {
        let file = dir.join("a.ts");
        std::fs::write(&file, "export {}\n").unwrap();
        (file, SystemTime::now() + RACY + Duration::from_millis(10))
    }

    #[test]
    fn replays_while_every_path_answers_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let (file, later) = settled(dir.path());
        let missing = dir.path().join("b.ts");
        let seen = Watched::of(&[(&file, Look::Whole), (&missing, Look::Whole), (dir.path(), Look::Identity)]);
        let cache = dir.path().join("cache");
        record(&cache, b"key", later, &seen, &outcome());
        assert_eq!(replay(&cache, b"key"), Some(outcome()));
        assert_eq!(replay(&cache, b"other key"), None, "another key is another run");
        // A file where a missing one was: no replay.
        std::fs::write(&missing, "").unwrap();
        assert_eq!(replay(&cache, b"key"), None);
        std::fs::remove_file(&missing).unwrap();
        assert_eq!(replay(&cache, b"key"), Some(outcome()));
        // The same size, the modification time set back: the change time tells.
        let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
        std::fs::write(&file, "export {} \n".trim_end()).unwrap();
        std::fs::write(&file, "export {}\n").unwrap();
        std::fs::File::options().write(true).open(&file).unwrap().set_modified(modified).unwrap();
        assert_eq!(replay(&cache, b"key"), None);
    }

    #[test]
    fn a_record_of_no_file_there_is_never_replayed() {
        // Paths missing and folders on the way answer what anyone could write down: a record made of them alone
        // (or of nothing) would replay whatever it says.
        let dir = tempfile::tempdir().unwrap();
        let (_, later) = settled(dir.path());
        let missing = dir.path().join("b.ts");
        let cache = dir.path().join("cache");
        for seen in [Watched::of(&[]), Watched::of(&[(&missing, Look::Whole), (dir.path(), Look::Identity)])] {
            record(&cache, b"key", later, &seen, &outcome());
            assert!(cache.join(FILE).is_file());
            assert_eq!(replay(&cache, b"key"), None);
        }
    }

    #[test]
    fn a_link_made_again_is_told_even_where_only_its_identity_matters() {
        let dir = tempfile::tempdir().unwrap();
        let (file, _) = settled(dir.path());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("a.ts", &link).unwrap();
        let later = SystemTime::now() + RACY + Duration::from_millis(10);
        let cache = dir.path().join("cache");
        record(&cache, b"key", later, &Watched::of(&[(&file, Look::Whole), (&link, Look::Identity)]), &outcome());
        assert_eq!(replay(&cache, b"key"), Some(outcome()));
        // Made again (its inode may well be the one it had): another link.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink("b.ts", &link).unwrap();
        assert_eq!(replay(&cache, b"key"), None);
    }

    #[test]
    fn a_path_changed_just_before_the_run_is_not_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let (file, _) = settled(dir.path());
        let cache = dir.path().join("cache");
        record(&cache, b"key", SystemTime::now(), &Watched::of(&[(&file, Look::Whole)]), &outcome());
        assert_eq!(replay(&cache, b"key"), None);
        assert!(!cache.join(FILE).exists());
    }

    #[test]
    fn a_damaged_record_is_not_replayed() {
        let dir = tempfile::tempdir().unwrap();
        let (file, later) = settled(dir.path());
        let cache = dir.path().join("cache");
        record(&cache, b"key", later, &Watched::of(&[(&file, Look::Whole)]), &outcome());
        let mut bytes = std::fs::read(cache.join(FILE)).unwrap();
        // A byte of the text (sealed: no path's answer would tell).
        let at = bytes.windows(11).position(|w| w == b"tools/a.ts:").unwrap();
        bytes[at] ^= 1;
        std::fs::write(cache.join(FILE), &bytes).unwrap();
        assert_eq!(replay(&cache, b"key"), None);
    }
}
