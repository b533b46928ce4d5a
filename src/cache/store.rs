//! Writing the cache file as the run goes: the entries in the order the run used them, then the table in key order.
//!
//! A run reads the entries in the order it names the files (the manifest's first, then the modules as declared
//! and imported), and the next run, with most files unchanged, reads them in the same order: laid out that way,
//! the pages each batch of modules decodes are next to each other, and a reader lets go of them behind it
//! ([`ModuleCache::decoded`], [`ModuleCache::taken`]) instead of keeping the whole file resident to the end of
//! the modules stage (7 MB at 20,000 modules, a sixth of the warm run's peak).
//!
//! A first run (the cache on, no file yet) makes an entry for every module. Each is encoded whole (key, checksum,
//! facts) on the thread that analysed the module ([`encoded`]) and appended, as the module is taken, to a temporary
//! file in the cache folder through one large buffer: only its table slot (12 bytes) waits for the end, where the
//! table and the footer that finds it are appended and the file is renamed over the old one. Nothing is copied at
//! the end, and no entry's bytes are held to it. A run that finds every entry it uses writes nothing: its hits wait
//! as where they start (4 bytes each), and are copied from the old file only once a new entry opens the new one.

use super::bytes::open_regular;
use super::codec::{Codec, Writer};
use super::{Entry, FILE, ModuleCache, SLOT, checksum, header, prefix, raw_at};
use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The cache file being written (see the module documentation).
pub(super) enum Writing {
    /// No new entry yet (a warm run's state to its end): where the module hits so far start in the file, in the order
    /// of use (4 bytes a module: a warm run keeps every module's until its end).
    NotYet(Vec<u32>),
    Open(Box<Out>),
    /// The file could not be made or written: this run writes none (it only costs the next run its warmth).
    Failed,
}

impl Default for Writing {
    fn default() -> Self {
        Writing::NotYet(Vec::new())
    }
}

/// The temporary file being filled, and the table of what it holds so far.
pub(super) struct Out {
    file: BufWriter<File>,
    temp: Temp,
    /// How many bytes the file holds (with what the buffer holds).
    len: usize,
    /// Each entry's slot, in the order written: its key's [`prefix`] (high half, low half) and where it starts, 12
    /// bytes, what the file's table holds (the whole keys stay in the file: see [`Out::finish`]).
    slots: Vec<[u32; 3]>,
}

/// One large buffer: the entries of 20,000 modules (6.8 MB) in about 50 writes.
const BUFFER: usize = 128 * 1024;

impl ModuleCache {
    /// An entry this run used, in the order of use: a new one is written out now, a hit when the file is.
    pub fn keep(&self, entry: Entry) {
        if self.read_only {
            return;
        }
        let mut writing = self.writing.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let written = match (&mut *writing, entry) {
            (Writing::Failed, _) => return,
            (Writing::NotYet(hits), Entry::Hit(range)) => match u32::try_from(range.start) {
                // Always: the file's table gives an entry's start in 4 bytes.
                Ok(start) => {
                    hits.push(start);
                    return;
                }
                Err(_) => Err(std::io::ErrorKind::InvalidData.into()),
            },
            (Writing::NotYet(hits), Entry::New(bytes)) => {
                let hits = std::mem::take(hits);
                Out::open(self, &hits).and_then(|mut out| out.append(&bytes).map(|()| out))
            }
            (Writing::Open(out), entry) => match out.keep(self, &entry) {
                Ok(()) => return,
                Err(error) => Err(error),
            },
        };
        *writing = written.map_or(Writing::Failed, |out| Writing::Open(Box::new(out)));
    }

    /// Ends the file: writes what is left, the table and its footer, and renames it over the old one. A run that
    /// used no module writes none (a project's manifest trees alone are not worth a file in it), nor does one that
    /// used only entries the file holds (the file stays as it is: an entry this run did not use may serve the next).
    pub fn store(&self) {
        if self.read_only {
            return;
        }
        let writing = std::mem::take(&mut *self.writing.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        let out = match writing {
            Writing::NotYet(hits) => {
                let documents = self.documents.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if hits.is_empty() || documents.iter().all(|entry| matches!(entry, Entry::Hit(_))) {
                    return;
                }
                drop(documents);
                Out::open(self, &hits)
            }
            Writing::Open(out) => Ok(*out),
            Writing::Failed => return,
        };
        // Failing to write (a read-only project) only costs the next run its warmth.
        let _ = out.and_then(|out| out.finish(self));
    }

    /// The bytes of an entry this run used.
    fn bytes_of<'e>(&'e self, entry: &'e Entry) -> Option<&'e [u8]> {
        match entry {
            Entry::Hit(range) => self.data.get(range.clone()),
            Entry::New(bytes) => Some(bytes),
        }
    }
}

impl Out {
    /// Makes the temporary file, and writes the header, the manifest trees used so far and the module `hits`.
    fn open(cache: &ModuleCache, hits: &[u32]) -> std::io::Result<Out> {
        prepare(&cache.dir)?;
        remove_stale(&cache.dir);
        let (file, temp) = Temp::create(&cache.dir)?;
        let header = header();
        let mut out = Out { file: BufWriter::with_capacity(BUFFER, file), temp, len: 0, slots: Vec::new() };
        out.file.write_all(&header)?;
        out.len = header.len();
        out.documents(cache)?;
        for &start in hits {
            let range = cache.entry_at(start as usize).ok_or(std::io::ErrorKind::InvalidData)?.range;
            out.append(&cache.data[range])?;
        }
        Ok(out)
    }

    /// Writes the manifest trees used since the last call: they are read before the modules. Ordered by key, not
    /// as they came (the manifest's files are parsed in parallel), so that two runs write the same bytes.
    fn documents(&mut self, cache: &ModuleCache) -> std::io::Result<()> {
        let documents = std::mem::take(&mut *cache.documents.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        let mut bytes: Vec<&[u8]> = documents.iter().filter_map(|entry| cache.bytes_of(entry)).collect();
        bytes.sort_by_cached_key(|bytes| raw_at(bytes, 0).map(|raw| (raw.id, raw.suffix)));
        bytes.into_iter().try_for_each(|bytes| self.append(bytes))
    }

    fn keep(&mut self, cache: &ModuleCache, entry: &Entry) -> std::io::Result<()> {
        self.append(cache.bytes_of(entry).ok_or(std::io::ErrorKind::InvalidData)?)
    }

    /// Appends a whole entry (its bytes as they lie in a file) and notes its slot.
    fn append(&mut self, entry: &[u8]) -> std::io::Result<()> {
        let raw = raw_at(entry, 0).ok_or(std::io::ErrorKind::InvalidData)?;
        // A file past 4 GiB cannot say where its entries start: not written.
        let too_large = || std::io::Error::from(std::io::ErrorKind::FileTooLarge);
        let start = u32::try_from(self.len).map_err(|_| too_large())?;
        self.file.write_all(entry)?;
        self.len += entry.len();
        let prefix = prefix(raw.id);
        self.slots.push([(prefix >> 32) as u32, prefix as u32, start]);
        Ok(())
    }

    /// Writes the manifest trees used since the file was opened, the table in key order (each key's first use: a
    /// module used twice, the same bytes under two names, was written twice) and the footer, then puts the file in
    /// place.
    fn finish(mut self, cache: &ModuleCache) -> std::io::Result<()> {
        self.documents(cache)?;
        // By prefix, then where the entry starts; the few slots that share a prefix (as a rule, one content under
        // two extensions or two names) are put in the order of their whole keys, read back from the file.
        radix_sort(&mut self.slots);
        // In place: a group of slots is never shorter sorted and deduplicated than it was.
        let (mut at, mut kept) = (0, 0);
        while at < self.slots.len() {
            let [high, low, start] = self.slots[at];
            let same = self.slots[at..].iter().take_while(|slot| slot[..2] == [high, low]).count();
            if same == 1 {
                self.slots[kept] = [high, low, start];
                kept += 1;
            } else {
                self.file.flush()?;
                let mut keyed = Vec::with_capacity(same);
                for &[_, _, start] in &self.slots[at..at + same] {
                    keyed.push((key_at(self.file.get_ref(), start)?, start));
                }
                // Where the writer left it (reading may have moved it: see [`read_at`]).
                self.file.seek(std::io::SeekFrom::Start(self.len as u64))?;
                // The sort is stable: a key's first use stays first, and is the one kept.
                keyed.sort_by(|a, b| a.0.cmp(&b.0));
                keyed.dedup_by(|later, first| later.0 == first.0);
                for (_, start) in keyed {
                    self.slots[kept] = [high, low, start];
                    kept += 1;
                }
            }
            at += same;
        }
        self.slots.truncate(kept);
        let table = u32::try_from(self.len).map_err(|_| std::io::Error::from(std::io::ErrorKind::FileTooLarge))?;
        for &[high, low, start] in &self.slots {
            let mut bytes = [0; SLOT];
            bytes[..4].copy_from_slice(&high.to_be_bytes());
            bytes[4..8].copy_from_slice(&low.to_be_bytes());
            bytes[8..].copy_from_slice(&start.to_le_bytes());
            self.file.write_all(&bytes)?;
        }
        self.file.write_all(&table.to_le_bytes())?;
        self.file.write_all(&(self.slots.len() as u32).to_le_bytes())?;
        self.file.flush()?;
        std::fs::rename(&self.temp.0, cache.dir.join(FILE))?;
        self.temp.0 = PathBuf::new();
        Ok(())
    }
}

/// Sorts slots by their key prefix, keeping the order of those that share one (they were noted in the order they
/// were written, so where they start orders them): a least-significant-digit radix sort, a byte a pass. The table
/// is sorted after the last module, while the analysis threads wait for the rules; a comparison sort of 20,000
/// slots cost 7.4 M instructions there, this about a quarter of that.
fn radix_sort(slots: &mut Vec<[u32; 3]>) {
    let mut other = vec![[0; 3]; slots.len()];
    for pass in 0..8 {
        // The prefix's low half first (its high half is the first u32).
        let (word, shift) = (1 - pass / 4, 8 * (pass % 4));
        let digit = |slot: &[u32; 3]| (slot[word] >> shift) as u8 as usize;
        let mut at = [0usize; 256];
        slots.iter().for_each(|slot| at[digit(slot)] += 1);
        let mut sum = 0;
        for count in &mut at {
            (*count, sum) = (sum, sum + *count);
        }
        for slot in slots.iter() {
            let place = &mut at[digit(slot)];
            other[*place] = *slot;
            *place += 1;
        }
        std::mem::swap(slots, &mut other);
    }
}

/// The key of the entry written at `start` in `file` (whole: flushed), id bytes then suffix bytes, as the table
/// orders keys.
fn key_at(file: &File, start: u32) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    // A key's two lengths are a byte each.
    let mut bytes = vec![0; 2 * (1 + usize::from(u8::MAX))];
    let read = read_at(file, &mut bytes, u64::from(start))?;
    let bytes = &bytes[..read];
    let part = |at: usize| -> Option<&[u8]> { bytes.get(at + 1..at + 1 + usize::from(*bytes.get(at)?)) };
    let key = part(0).and_then(|id| Some((id.to_vec(), part(1 + id.len())?.to_vec())));
    key.ok_or_else(|| std::io::ErrorKind::UnexpectedEof.into())
}

/// Reads what `file` holds at `at` into `buffer` (as much as it holds, up to the buffer's length). Elsewhere than
/// on Unix this moves the file's position (the caller puts it back).
fn read_at(file: &File, buffer: &mut [u8], at: u64) -> std::io::Result<usize> {
    #[cfg(not(unix))]
    let mut file = file;
    #[cfg(not(unix))]
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(at))?;
    let mut read = 0;
    while read < buffer.len() {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(file, &mut buffer[read..], at + read as u64)?;
        #[cfg(not(unix))]
        let n = std::io::Read::read(&mut file, &mut buffer[read..])?;
        if n == 0 {
            break;
        }
        read += n;
    }
    Ok(read)
}

thread_local! {
    /// Each analysis thread's writer, reused from module to module (its parts keep their room).
    static WRITER: RefCell<Writer> = RefCell::new(Writer::default());
}

/// `value`'s entry under the key `id` and `suffix`, whole as it lies in the file (see [`entry`]); `None` when its
/// key or facts are too long for the lengths the file gives them (not worth an entry).
pub(super) fn encoded<T: Codec>(id: &[u8], suffix: &[u8], value: &T) -> Option<Box<[u8]>> {
    WRITER.with_borrow_mut(|w| {
        w.clear();
        value.write(w);
        entry(id, suffix, w.encoded_len(), |out| w.finish_into(out))
    })
}

/// An entry as it lies in the file: the key with its lengths, the facts' length, the checksum of key and facts,
/// then the `len` bytes of facts that `facts` appends; allocated once at its exact size.
pub(super) fn entry(id: &[u8], suffix: &[u8], len: usize, facts: impl FnOnce(&mut Vec<u8>)) -> Option<Box<[u8]>> {
    let (id_len, suffix_len, facts_len) =
        (u8::try_from(id.len()).ok()?, u8::try_from(suffix.len()).ok()?, u32::try_from(len).ok()?);
    let head = 1 + id.len() + 1 + suffix.len() + 4 + 8;
    let mut out = Vec::with_capacity(head + len);
    out.push(id_len);
    out.extend_from_slice(id);
    out.push(suffix_len);
    out.extend_from_slice(suffix);
    out.extend_from_slice(&facts_len.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    facts(&mut out);
    if out.len() != head + len {
        return None;
    }
    let sum = checksum(&[id, suffix, &out[head..]]);
    out[head - 8..head].copy_from_slice(&sum.to_le_bytes());
    Some(out.into_boxed_slice())
}

/// Makes the cache folder, with a `.gitignore` that keeps it out of version control. One already there, whatever
/// it is, is left as it is: made only where nothing is (`O_EXCL`), a link there is never followed (a dangling one
/// would have the file made wherever it points).
fn prepare(dir: &Path) -> std::io::Result<()> {
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
struct Temp(PathBuf);

impl Temp {
    /// A new file under a name no other run has: the process id (for a person looking at the folder) and a random
    /// number (two processes in different pid namespaces, two containers, may share one project and one pid).
    fn create(dir: &Path) -> std::io::Result<(File, Temp)> {
        use std::hash::BuildHasher;
        let nonce = std::collections::hash_map::RandomState::new().hash_one(SystemTime::now());
        let path = dir.join(format!("{FILE}.{}-{nonce:016x}.tmp", std::process::id()));
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
fn remove_stale(dir: &Path) {
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

/// `modules.bin.<pid>-<nonce>.tmp`, or an older version's `modules.bin.<pid>.tmp` or `modules.bin.<pid>.spool`.
fn is_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(FILE).and_then(|rest| rest.strip_prefix('.')) else { return false };
    let Some(middle) = rest.strip_suffix(".tmp").or_else(|| rest.strip_suffix(".spool")) else { return false };
    !middle.is_empty() && middle.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
}

#[cfg(test)]
mod tests;
