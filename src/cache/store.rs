//! Writing the cache file: the table in key order, the entries in the order the run used them.
//!
//! A run reads the entries in the order it names the files (the manifest's first, then the modules as declared
//! and imported), and the next run, with most files unchanged, reads them in the same order: laid out that way,
//! the pages each batch of modules decodes are next to each other, and a reader lets go of them behind it
//! ([`ModuleCache::decoded`], [`ModuleCache::taken`]) instead of keeping the whole file resident to the end of
//! the modules stage (7 MB at 20,000 modules, a sixth of the warm run's peak).

use super::{Behind, Entry, FILE, KeyBytes, ModuleCache, SLOT, checksum, header, prefix};
use std::io::Write;
use std::path::Path;

impl ModuleCache {
    /// Writes the entries this run used, when it used one the file did not hold. Failing to write (a read-only
    /// project) only costs the next run its warmth. A project without modules writes none: its manifest trees alone
    /// are not worth a file in the project.
    pub fn store(&self, mut used: Vec<Entry>) {
        if used.is_empty() || self.read_only {
            return;
        }
        let mut documents = self.documents.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Nothing new: the file stays as it is (an entry this run did not use may serve the next one). Asked before
        // the lists are joined: a warm run's list of every module's entry is not copied for nothing.
        let hit = |entry: &Entry| matches!(entry, Entry::Hit(_));
        if used.iter().all(hit) && documents.iter().all(hit) {
            return;
        }
        // The new module entries written so far; a spool that failed loses one of them: no file is written.
        let Ok(mut unspool) = self.unspool() else { return };
        // In the order of use: the manifest's trees are read before its modules.
        let mut all = std::mem::take(&mut *documents);
        all.append(&mut used);
        // A hit's key is read from the file (where it was checked when it was found), in the order of use, which
        // is the file's own order when the run used what the last one did: the pages read are let go behind.
        // A suffix longer than its length byte can say is not worth an entry.
        let mut behind = Behind::default();
        let keyed: Vec<(KeyBytes, &Entry)> = all
            .iter()
            .filter_map(|entry| match entry {
                Entry::Hit(range) => {
                    let raw = self.entry_at(range.start);
                    behind.reached(self, range.start);
                    raw.map(|raw| ((raw.id, raw.suffix), entry))
                }
                Entry::New(new) => Some(((new.0.id.as_bytes(), new.0.suffix.as_bytes()), entry)),
                Entry::Spooled(spooled) => Some(((spooled.0.id.as_bytes(), spooled.0.suffix.as_bytes()), entry)),
            })
            .filter(|((_, suffix), _)| suffix.len() <= usize::from(u8::MAX))
            .collect();
        // The table's order: by key, each key's first use kept (a stable sort keeps the uses of a key in order).
        let mut by_key: Vec<usize> = (0..keyed.len()).collect();
        by_key.sort_by(|&a, &b| keyed[a].0.cmp(&keyed[b].0));
        by_key.dedup_by(|a, b| keyed[*a].0 == keyed[*b].0);
        // Where each kept entry starts (`None`: a later use of a key), in the order of use.
        let mut starts: Vec<Option<u32>> = vec![None; keyed.len()];
        let header = header();
        let mut at = header.len() + 4 + SLOT * by_key.len();
        let mut kept = vec![false; keyed.len()];
        by_key.iter().for_each(|&n| kept[n] = true);
        for (n, ((id, suffix), entry)) in keyed.iter().enumerate() {
            if !kept[n] {
                continue;
            }
            // A file past 4 GiB cannot say where its entries start: not written.
            let Ok(start) = u32::try_from(at) else { return };
            starts[n] = Some(start);
            at = at.saturating_add(match entry {
                Entry::Hit(range) => range.len(),
                Entry::New(new) => 1 + id.len() + 1 + suffix.len() + 4 + 8 + new.1.len(),
                Entry::Spooled(spooled) => usize::try_from(spooled.1.end - spooled.1.start).unwrap_or(usize::MAX),
            });
        }
        let _ = write(&self.dir, |out| {
            out.write_all(&header)?;
            out.write_all(&(by_key.len() as u32).to_le_bytes())?;
            for &n in &by_key {
                let ((id, _), _) = keyed[n];
                out.write_all(&prefix(id).to_be_bytes())?;
                out.write_all(&starts[n].unwrap_or_default().to_le_bytes())?;
            }
            let mut behind = Behind::default();
            for (((id, suffix), entry), _) in keyed.iter().zip(&starts).filter(|(_, start)| start.is_some()) {
                match entry {
                    Entry::Hit(range) => {
                        out.write_all(&self.data[range.clone()])?;
                        behind.reached(self, range.end);
                    }
                    Entry::New(new) => {
                        write_entry(out, id, suffix, &new.1)?;
                    }
                    Entry::Spooled(spooled) => {
                        let unspool = unspool.as_mut().ok_or(std::io::ErrorKind::NotFound)?;
                        unspool.copy(&spooled.1, out)?;
                    }
                }
            }
            Ok(())
        });
    }
}

/// Writes an entry as it lies in the file (the key with its lengths, the facts' length, the checksum, the facts),
/// giving how many bytes it took. The suffix is at most 255 bytes (checked by the callers).
pub(super) fn write_entry(out: &mut dyn Write, id: &[u8], suffix: &[u8], facts: &[u8]) -> std::io::Result<u64> {
    out.write_all(&[id.len() as u8])?;
    out.write_all(id)?;
    out.write_all(&[suffix.len() as u8])?;
    out.write_all(suffix)?;
    out.write_all(&(facts.len() as u32).to_le_bytes())?;
    out.write_all(&checksum(&[id, suffix, facts]).to_le_bytes())?;
    out.write_all(facts)?;
    Ok((1 + id.len() + 1 + suffix.len() + 4 + 8 + facts.len()) as u64)
}

/// Makes the cache folder, with a `.gitignore` that keeps it out of version control.
pub(super) fn prepare(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "# written by beeuni-lint: its cache is not for version control\n*\n")?;
    }
    Ok(())
}

/// Writes the cache file with `fill`, through a temporary file and a rename, so that a reader never sees half.
fn write(dir: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    prepare(dir)?;
    let temp = dir.join(format!("{FILE}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&temp).and_then(|file| {
        let mut out = std::io::BufWriter::with_capacity(64 * 1024, file);
        fill(&mut out)?;
        out.flush()
    });
    written.and_then(|()| std::fs::rename(&temp, dir.join(FILE))).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Entry, ModuleCache, PAGE};
    use crate::modules::facts::{Collected, Import, ImportKind, ModuleFacts};
    use crate::source::Span;
    use gix::ObjectId;

    /// Facts of some size, told apart by `n`.
    fn facts(n: usize) -> ModuleFacts {
        let import = |k: usize| Import {
            specifier: format!("../lib/helper_{n}_{k}_with_a_long_name.ts").into(),
            span: Span::new(k, k + n).into(),
            kind: ImportKind::Static,
            type_only: false,
            guarded: false,
        };
        ModuleFacts::from(Collected { imports: (0..8).map(import).collect(), ..Collected::default() })
    }

    fn id(n: usize) -> ObjectId {
        let mut bytes = [0; 20];
        bytes[..8].copy_from_slice(&(n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).to_be_bytes());
        ObjectId::from_bytes_or_panic(&bytes)
    }

    #[test]
    fn entries_are_laid_out_in_the_order_of_use_and_read_alike_after_their_pages_are_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let order: Vec<usize> = (0..300).map(|n| n * 7 % 300).collect();
        let entries = order.iter().map(|&n| ModuleCache::new_entry(id(n), "a.ts", &facts(n))).collect();
        ModuleCache::open(dir.path().to_path_buf()).store(entries);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        assert!(cache.data.len() > 8 * PAGE, "a file of several pages");
        let hits: Vec<Entry> = order.iter().map(|&n| cache.module(&id(n), "x/a.ts", usize::MAX).unwrap().1).collect();
        let starts: Vec<usize> =
            hits.iter().map(|hit| if let Entry::Hit(range) = hit { range.start } else { 0 }).collect();
        assert!(starts.windows(2).all(|pair| pair[0] < pair[1]), "in the order of use, not of the keys");
        for batch in hits.chunks(64) {
            cache.decoded(batch);
        }
        hits.iter().for_each(|hit| cache.taken(hit));
        for &n in &order {
            assert_eq!(cache.module(&id(n), "a.ts", usize::MAX).map(|(facts, _)| facts), Some(facts(n)), "{n}");
        }
        // A new entry rewrites the file: the hits are copied from the pages let go, in the same order.
        let mut used = hits;
        used.insert(10, ModuleCache::new_entry(id(1000), "b.ts", &facts(1000)));
        cache.store(used);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        for n in order.iter().copied().chain([1000]) {
            let path = if n == 1000 { "b.ts" } else { "a.ts" };
            assert_eq!(cache.module(&id(n), path, usize::MAX).map(|(facts, _)| facts), Some(facts(n)), "{n}");
        }
    }
}
