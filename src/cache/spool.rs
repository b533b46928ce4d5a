//! The spool: a run's new module entries, written to a temporary file in the cache folder as the modules are taken.
//!
//! A first run (no cache file yet, the cache on by default) makes an entry for every module; held in memory until
//! the file is written at the end, their bytes raised the run's peak by about 13 MB at 20,000 modules. Written as
//! they come, in the order of use, only their keys wait; [`ModuleCache::store`] copies them from the spool into the
//! file, which is still replaced whole by a rename.

use super::{Entry, FILE, ModuleCache, store};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

#[derive(Default)]
pub(super) enum Spooling {
    /// No new entry yet: no file either (a warm run makes none).
    #[default]
    NotYet,
    Open(Spool),
    /// The spool could not be made or written: this run writes no cache file (it only costs the next run its warmth).
    Failed,
}

pub(super) struct Spool {
    out: BufWriter<File>,
    len: u64,
    _removed: Removed,
}

/// Removes the spool file when the spool goes (written out, or the run ends without writing the cache).
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl Spool {
    fn create(dir: &Path) -> std::io::Result<Spool> {
        store::prepare(dir)?;
        let path = dir.join(format!("{FILE}.{}.spool", std::process::id()));
        let file = File::options().read(true).write(true).create(true).truncate(true).open(&path)?;
        Ok(Spool { out: BufWriter::with_capacity(64 * 1024, file), len: 0, _removed: Removed(path) })
    }
}

/// The spool read back from its start, in the order its entries were written.
pub(super) struct Unspool {
    input: BufReader<File>,
    at: u64,
    _removed: Removed,
}

impl Unspool {
    /// Copies the entry spooled at `range` to `out`.
    pub(super) fn copy(&mut self, range: &std::ops::Range<u64>, out: &mut dyn Write) -> std::io::Result<()> {
        // In the order of use, as written: a jump only past a later use of a key already copied.
        if range.start != self.at {
            let by = i64::try_from(range.start).ok().zip(i64::try_from(self.at).ok()).map(|(to, at)| to - at);
            self.input.seek_relative(by.ok_or(std::io::ErrorKind::InvalidInput)?)?;
        }
        let len = range.end - range.start;
        let copied = std::io::copy(&mut (&mut self.input).take(len), out)?;
        if copied != len {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        self.at = range.end;
        Ok(())
    }
}

impl ModuleCache {
    /// An entry this run used, as it waits for [`ModuleCache::store`]: a new module entry is written to the spool
    /// now and only its key is kept (`None`: nothing to keep, the cache is read-only or the spool failed).
    pub fn keep(&self, entry: Entry) -> Option<Entry> {
        let Entry::New(new) = entry else { return Some(entry) };
        // A suffix longer than its length byte can say is not worth an entry (as in the file).
        if self.read_only || new.0.suffix.len() > usize::from(u8::MAX) {
            return None;
        }
        let mut spooling = self.spool.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Spooling::NotYet = *spooling {
            *spooling = Spool::create(&self.dir).map_or(Spooling::Failed, Spooling::Open);
        }
        let Spooling::Open(spool) = &mut *spooling else { return None };
        let (key, facts) = *new;
        let start = spool.len;
        match store::write_entry(&mut spool.out, key.id.as_bytes(), key.suffix.as_bytes(), &facts) {
            Ok(written) => {
                spool.len += written;
                Some(Entry::Spooled(Box::new((key, start..spool.len))))
            }
            Err(_) => {
                *spooling = Spooling::Failed;
                None
            }
        }
    }

    /// The spool to copy the spooled entries from (`Ok(None)` when there are none; an error when the spool failed).
    pub(super) fn unspool(&self) -> std::io::Result<Option<Unspool>> {
        let spooling = std::mem::take(&mut *self.spool.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        match spooling {
            Spooling::NotYet => Ok(None),
            Spooling::Failed => Err(std::io::ErrorKind::Other.into()),
            Spooling::Open(Spool { out, _removed, .. }) => {
                let mut file = out.into_inner().map_err(std::io::IntoInnerError::into_error)?;
                file.rewind()?;
                Ok(Some(Unspool { input: BufReader::with_capacity(64 * 1024, file), at: 0, _removed }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Entry, FILE, ModuleCache};
    use crate::modules::facts::{Collected, EnvRead, ModuleFacts};
    use crate::source::Span;
    use gix::ObjectId;

    fn facts(n: u8) -> ModuleFacts {
        let read = |k: usize| EnvRead {
            name: format!("KEY_{n}_{k}").into(),
            span: Span::new(k, k + 3).into(),
            via: "Bun.env",
        };
        ModuleFacts::from(Collected { env_reads: (0..usize::from(n)).map(read).collect(), ..Collected::default() })
    }

    fn id(n: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[n; 20])
    }

    fn files(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name().to_string_lossy().into()).collect();
        names.sort();
        names
    }

    #[test]
    fn new_entries_are_written_out_as_kept_and_a_warm_run_reads_what_the_first_one_made() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ModuleCache::open(dir.path().to_path_buf());
        // A module used twice (the same content under two names) is stored once.
        let order = [3, 1, 4, 1, 5];
        let kept: Vec<Entry> =
            order.iter().filter_map(|&n| cache.keep(ModuleCache::new_entry(id(n), "a.ts", &facts(n)))).collect();
        assert!(kept.iter().all(|entry| matches!(entry, Entry::Spooled(_))), "only the keys are held");
        let spool = format!("{FILE}.{}.spool", std::process::id());
        assert_eq!(files(dir.path()), [".gitignore".to_string(), spool]);
        cache.store(kept);
        assert_eq!(files(dir.path()), [".gitignore", FILE], "the spool is gone, the file is in place");
        let cache = ModuleCache::open(dir.path().to_path_buf());
        for n in order {
            assert_eq!(cache.module(&id(n), "b.ts", usize::MAX).map(|(facts, _)| facts), Some(facts(n)), "{n}");
        }
        // Read-only: nothing is written, nothing is kept.
        let cache = ModuleCache::open(dir.path().to_path_buf()).read_only();
        assert!(cache.keep(ModuleCache::new_entry(id(9), "a.ts", &facts(9))).is_none());
        assert_eq!(files(dir.path()), [".gitignore", FILE]);
    }
}
