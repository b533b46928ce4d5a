//! The warm cache: module facts by content, so that a second run parses only what changed.
//!
//! A module's facts ([`ModuleFacts`]) follow from its bytes and its extension alone, so they are stored under
//! the file's git blob id (what the index already holds for a file unchanged since staged; otherwise the bytes
//! are hashed the way git does) and the part of its name that picks the parser. Everything that depends on
//! other files (resolution, tracking, `node_modules`, tsconfig, package.json, the manifest) is recomputed on
//! every run, and config plays no part in the facts. One file, `modules.bin`, in `.beeuni-lint-cache/` at the
//! project root (with a `.gitignore` of `*`) or in `--cache-dir`. It starts with the tool's version and a
//! checksum: a file from another version, a damaged one or an entry that does not decode is ignored, and the
//! file is written again (atomically, by rename) with what this run used.

use crate::modules::facts::ModuleFacts;
use gix::ObjectId;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::Hasher;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The folder's name at the project root.
pub const DIR: &str = ".beeuni-lint-cache";
const FILE: &str = "modules.bin";
const MAGIC: &[u8] = b"beeuni-lint cache\n";
/// Bumped when the layout of the file or of [`ModuleFacts`] changes within one version (during development).
const FORMAT: u32 = 1;

/// What a module's facts depend on: its content and the part of its name from the first `.` (`ts`, `d.ts`, `mjs`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub id: ObjectId,
    pub suffix: Box<str>,
}

impl Key {
    pub fn new(id: ObjectId, path: &str) -> Self {
        let name = path.rsplit('/').next().unwrap_or(path);
        Key { id, suffix: name.split_once('.').map_or("", |(_, suffix)| suffix).into() }
    }
}

/// A cache entry as this run used it.
pub enum Entry {
    /// Found in the loaded file (the range of its encoded facts there).
    Hit(Range<usize>),
    /// Analysed in this run: its encoded facts.
    New(Vec<u8>),
}

pub struct ModuleCache {
    dir: PathBuf,
    /// The file as read: header, then entries.
    data: Vec<u8>,
    /// Where each key's encoded facts lie in `data`.
    index: FxHashMap<Key, Range<usize>>,
}

impl ModuleCache {
    /// Opens the cache in `dir`, empty when there is none yet or it cannot be trusted.
    pub fn open(dir: PathBuf) -> Self {
        let data = std::fs::read(dir.join(FILE)).unwrap_or_default();
        let index = parse(&data).unwrap_or_default();
        ModuleCache { dir, data, index }
    }

    /// The facts stored for `key` (`None` when absent, or when the entry does not decode).
    pub fn get(&self, key: &Key) -> Option<(ModuleFacts, Range<usize>)> {
        let range = self.index.get(key)?.clone();
        let facts = postcard::from_bytes(&self.data[range.clone()]).ok()?;
        Some((facts, range))
    }

    /// Encodes facts for [`Entry::New`].
    pub fn encode(facts: &ModuleFacts) -> Vec<u8> {
        postcard::to_allocvec(facts).unwrap_or_default()
    }

    /// Writes the entries this run used, unless they are exactly what was loaded. Failing to write (a read-only
    /// project) only costs the next run its warmth.
    pub fn store(&self, used: Vec<(Key, Entry)>) {
        let unchanged = used.len() == self.index.len() && used.iter().all(|(_, entry)| matches!(entry, Entry::Hit(_)));
        if unchanged {
            return;
        }
        let mut body = Vec::new();
        body.extend_from_slice(&(used.len() as u32).to_le_bytes());
        for (key, entry) in &used {
            let facts = match entry {
                Entry::Hit(range) => &self.data[range.clone()],
                Entry::New(bytes) => bytes,
            };
            body.push(key.id.as_bytes().len() as u8);
            body.extend_from_slice(key.id.as_bytes());
            body.push(key.suffix.len().min(255) as u8);
            body.extend_from_slice(&key.suffix.as_bytes()[..key.suffix.len().min(255)]);
            body.extend_from_slice(&(facts.len() as u32).to_le_bytes());
            body.extend_from_slice(facts);
        }
        let mut file = header();
        file.extend_from_slice(&checksum(&body).to_le_bytes());
        file.extend_from_slice(&body);
        let _ = write(&self.dir, &file);
    }
}

fn header() -> Vec<u8> {
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(format!("{} {FORMAT}\n", env!("CARGO_PKG_VERSION")).as_bytes());
    header
}

fn checksum(bytes: &[u8]) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(bytes);
    hasher.write_usize(bytes.len());
    hasher.finish()
}

/// The index of a cache file; `None` when it is from another version or damaged in any way.
fn parse(data: &[u8]) -> Option<FxHashMap<Key, Range<usize>>> {
    let header = header();
    let rest = data.strip_prefix(header.as_slice())?;
    let (sum, body) = rest.split_first_chunk::<8>()?;
    if u64::from_le_bytes(*sum) != checksum(body) {
        return None;
    }
    let mut cursor = Cursor { data, at: header.len() + 8 };
    let count = cursor.u32()? as usize;
    let mut index = FxHashMap::with_capacity_and_hasher(count.min(1 << 20), Default::default());
    for _ in 0..count {
        let id_len = cursor.take(1)?[0] as usize;
        let id = ObjectId::try_from(cursor.take(id_len)?).ok()?;
        let suffix_len = cursor.take(1)?[0] as usize;
        let suffix = std::str::from_utf8(cursor.take(suffix_len)?).ok()?.into();
        let len = cursor.u32()? as usize;
        let start = cursor.at;
        cursor.take(len)?;
        index.insert(Key { id, suffix }, start..start + len);
    }
    (cursor.at == data.len()).then_some(index)
}

struct Cursor<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let bytes = self.data.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(bytes)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}

/// Writes `bytes` as the cache file, through a temporary file and a rename, so that a reader never sees half.
fn write(dir: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "# written by beeuni-lint: its cache is not for version control\n*\n")?;
    }
    let temp = dir.join(format!("{FILE}.{}.tmp", std::process::id()));
    std::fs::write(&temp, bytes)?;
    std::fs::rename(&temp, dir.join(FILE)).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modules::facts::{EnvRead, SyntaxError};
    use crate::source::Span;

    fn facts() -> ModuleFacts {
        ModuleFacts {
            syntax_errors: vec![SyntaxError { span: Span::new(1, 2), message: "m".into() }],
            env_reads: vec![EnvRead { name: "KEY".into(), span: Span::new(3, 9), via: "Bun.env" }],
            ..ModuleFacts::default()
        }
    }

    fn key(byte: u8, path: &str) -> Key {
        Key::new(ObjectId::from_bytes_or_panic(&[byte; 20]), path)
    }

    #[test]
    fn entries_come_back_as_stored_under_content_and_extension() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ModuleCache::open(dir.path().to_path_buf());
        assert!(cache.get(&key(1, "tools/a.ts")).is_none());
        cache.store(vec![(key(1, "tools/a.ts"), Entry::New(ModuleCache::encode(&facts())))]);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        assert_eq!(cache.get(&key(1, "other/b.ts")).map(|(f, _)| f), Some(facts()));
        assert!(cache.get(&key(1, "tools/a.mts")).is_none());
        assert!(cache.get(&key(2, "tools/a.ts")).is_none());
        assert_eq!(key(1, "x/a.d.ts").suffix.as_ref(), "d.ts");
    }

    #[test]
    fn an_entry_that_does_not_decode_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ModuleCache::open(dir.path().to_path_buf());
        cache.store(vec![(key(1, "a.ts"), Entry::New(vec![0xff; 7]))]);
        assert!(ModuleCache::open(dir.path().to_path_buf()).get(&key(1, "a.ts")).is_none());
    }

    #[test]
    fn an_unwritable_folder_is_no_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let cache = ModuleCache::open(file.join("cache"));
        cache.store(vec![(key(1, "a.ts"), Entry::New(ModuleCache::encode(&facts())))]);
    }
}
