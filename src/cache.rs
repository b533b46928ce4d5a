//! The warm cache: module facts by content, so that a second run parses only what changed.
//!
//! A module's facts ([`ModuleFacts`]) follow from its bytes and its extension alone, so they are stored under
//! the file's git blob id (what the index already holds for a file unchanged since staged; otherwise the bytes
//! are hashed the way git does) and the part of its name that picks the parser. Everything that depends on
//! other files (resolution, tracking, `node_modules`, tsconfig, package.json, the manifest) is recomputed on
//! every run, and config plays no part in the facts. A manifest file's YAML tree ([`Document`]) is cached the same
//! way (under its bytes hashed as git does). One file, `modules.bin`, in `.beeuni-lint-cache/` at the
//! project root (with a `.gitignore` of `*`) or in `--cache-dir`.
//!
//! Loading it is one mapping and no decoding: the file starts with the tool's version, then come the entries in
//! the order the run that wrote them used them (see [`store`]), then a table of each entry's key prefix and where
//! it starts, sorted by key, and a footer that says where the table starts and how long it is; a lookup is a
//! binary search of the table in place, and only the entries a run uses are touched, checked and decoded, their pages let go behind the readers. Each entry carries a checksum of its key and facts: a file from another
//! version, or an entry that is damaged or does not decode, is a miss, and the file is written again
//! (atomically, by rename) with what this run used.

pub(crate) mod codec;

use crate::modules::facts::ModuleFacts;
use crate::yaml::tree::Document;
use bytes::{Behind, Bytes};
use codec::Codec;
use gix::ObjectId;
use rustc_hash::FxHasher;
use std::cmp::Ordering;
use std::hash::Hasher;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Mutex;

mod bytes;
pub mod place;
mod store;

/// The folder's name at the project root.
pub const DIR: &str = ".beeuni-lint-cache";
const FILE: &str = "modules.bin";
const MAGIC: &[u8] = b"beeuni-lint cache\n";
/// Bumped when the layout of the file or of [`ModuleFacts`] changes within one version (during development).
const FORMAT: u32 = 16;

/// What a module's facts depend on: its content and the part of its name from the first `.` (`ts`, `d.ts`, `mjs`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub id: ObjectId,
    pub suffix: Box<str>,
}

impl Key {
    pub fn new(id: ObjectId, path: &str) -> Self {
        Key { id, suffix: suffix(path).into() }
    }

    /// The key of a manifest file's YAML tree: its blob id (`known` from git, else its bytes hashed as git does),
    /// and a suffix no module's can be (a file name holds no NUL).
    pub fn manifest(known: Option<ObjectId>, bytes: &[u8], path: &str) -> Option<Self> {
        let hashed = || gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes).ok();
        let id = known.or_else(hashed)?;
        let Key { id, suffix } = Key::new(id, path);
        Some(Key { id, suffix: format!("\0{suffix}").into() })
    }
}

/// The part of a path's file name from the first `.` (`ts`, `d.ts`): what picks the parser.
/// Found by bytes: a warm run asks it of every module, and `str`'s char-pattern searches cost several times as
/// much. `/` and `.` are ASCII, so the cuts fall on character boundaries.
fn suffix(path: &str) -> &str {
    let bytes = path.as_bytes();
    let name = bytes.iter().rposition(|&b| b == b'/').map_or(0, |slash| slash + 1);
    match bytes[name..].iter().position(|&b| b == b'.') {
        Some(dot) => &path[name + dot + 1..],
        None => "",
    }
}

/// A cache entry as this run used it.
pub enum Entry {
    /// Found in the loaded file: the range of the whole entry there (written back as it is, key and all).
    Hit(Range<usize>),
    /// Analysed in this run: the whole entry as it is written to the file (key, checksum, encoded facts), made on
    /// the thread that analysed the module. A manifest tree's is held until the file is opened; a module's only
    /// until the module is taken, when it is written ([`ModuleCache::keep`]).
    New(Box<[u8]>),
}

pub struct ModuleCache {
    dir: PathBuf,
    /// The file as read: header, the entries, the table of entries (key prefix and offset), then the footer.
    data: Bytes,
    /// Where the table starts in `data` and how many entries it lists (0 when the file is absent or foreign).
    table: usize,
    count: usize,
    /// The manifest entries this run used and not yet written (the module entries come to [`ModuleCache::keep`] as
    /// the modules are taken).
    documents: Mutex<Vec<Entry>>,
    /// Never written (see [`ModuleCache::read_only`]).
    read_only: bool,
    /// How far the modules taken in order have let go of the file's pages (see [`ModuleCache::taken`]).
    taken: Mutex<Behind>,
    /// The file this run writes (see [`store`]).
    writing: Mutex<store::Writing>,
}

impl ModuleCache {
    /// Opens the cache in `dir`, empty when there is none yet or it is from another version.
    pub fn open(dir: PathBuf) -> Self {
        let data = Bytes::of(&dir.join(FILE));
        let (table, count) = layout(&data).unwrap_or((0, 0));
        ModuleCache {
            dir,
            data,
            table,
            count,
            documents: Mutex::default(),
            read_only: false,
            taken: Mutex::default(),
            writing: Mutex::default(),
        }
    }

    /// The size of the entries a warm run may decode: the file's, or 0 when it holds none.
    pub fn decodable_bytes(&self) -> usize {
        if self.count > 0 { self.data.len() } else { 0 }
    }

    /// Whether the file holds any entry to look up (not on a first run).
    pub fn holds_entries(&self) -> bool {
        self.count > 0
    }

    /// How many entries the file holds: the modules and manifest files the run that wrote it used, about as many
    /// as a run of the same project names (0 on a first run).
    pub fn entries(&self) -> usize {
        self.count
    }

    /// The same cache, read but never written.
    pub fn read_only(self) -> Self {
        ModuleCache { read_only: true, ..self }
    }

    /// The YAML tree stored for a manifest file's `key` (its text `text_len` bytes long), remembered as used.
    pub fn document(&self, key: &Key, text_len: usize) -> Option<Document> {
        let (document, range) = self.get(key, text_len)?;
        self.documents.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(Entry::Hit(range));
        Some(document)
    }

    /// Stores a manifest file's YAML tree under its `key` (written with the modules' entries).
    pub fn put_document(&self, key: Key, document: &Document) {
        if let Some(bytes) = store::encoded(key.id.as_bytes(), key.suffix.as_bytes(), document) {
            self.documents.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(Entry::New(bytes));
        }
    }

    /// The facts stored for the module at `path` whose content is the blob `id`, `text_len` bytes long, with their
    /// entry (`None` when absent, damaged, or when they do not decode). Looked up in place: nothing is allocated
    /// for the key.
    pub fn module(&self, id: &ObjectId, path: &str, text_len: usize) -> Option<(ModuleFacts, Entry)> {
        let (facts, range) = self.find(id.as_bytes(), suffix(path).as_bytes(), text_len)?;
        Some((facts, Entry::Hit(range)))
    }

    /// What is stored for `key` with the entry's range (`None` when absent, damaged, or when it does not decode).
    fn get<T: Codec>(&self, key: &Key, text_len: usize) -> Option<(T, Range<usize>)> {
        self.find(key.id.as_bytes(), key.suffix.as_bytes(), text_len)
    }

    /// The table is sorted by id bytes, then suffix bytes, and holds each entry's [`prefix`]: a binary
    /// search over the table alone (a few KiB, where probing the entries themselves would touch a cache line and
    /// often a page of the file per step), then a look at the entries that share the prefix (as a rule one).
    fn find<T: Codec>(&self, id: &[u8], suffix: &[u8], text_len: usize) -> Option<(T, Range<usize>)> {
        let wanted = prefix(id);
        let (mut low, mut high) = (0, self.count);
        while low < high {
            let middle = (low + high) / 2;
            match self.slot(middle)?.0.cmp(&wanted) {
                Ordering::Less => low = middle + 1,
                _ => high = middle,
            }
        }
        for n in low..self.count {
            let (key_prefix, start) = self.slot(n)?;
            if key_prefix != wanted {
                return None;
            }
            let entry = self.entry_at(start)?;
            match (id, suffix).cmp(&(entry.id, entry.suffix)) {
                Ordering::Equal => {
                    if checksum(&[entry.id, entry.suffix, entry.facts]) != entry.sum {
                        return None;
                    }
                    return Some((T::decode(entry.facts, text_len)?, entry.range));
                }
                Ordering::Less => return None,
                Ordering::Greater => {}
            }
        }
        None
    }

    /// The `n`th slot of the table: the key prefix and the start of its entry (`None` when the file is damaged there).
    fn slot(&self, n: usize) -> Option<(u64, usize)> {
        let at = self.table + SLOT * n;
        let slot = self.data.get(at..at + SLOT)?;
        let key_prefix = u64::from_be_bytes(slot[..8].try_into().ok()?);
        Some((key_prefix, u32::from_le_bytes(slot[8..].try_into().ok()?) as usize))
    }

    /// The entry that starts at `start` in the file.
    fn entry_at(&self, start: usize) -> Option<Raw<'_>> {
        raw_at(&self.data, start)
    }

    /// The entry of facts analysed in this run, for the module at `path` whose content is the blob `id` (`None`
    /// when its name's suffix is too long for an entry).
    pub fn new_entry(id: ObjectId, path: &str, facts: &ModuleFacts) -> Option<Entry> {
        store::encoded(id.as_bytes(), suffix(path).as_bytes(), facts).map(Entry::New)
    }
}

/// The entry that starts at `start` in `data` (a file, or one entry's bytes).
fn raw_at(data: &[u8], start: usize) -> Option<Raw<'_>> {
    let mut cursor = Cursor { data, at: start };
    let id_len = cursor.take(1)?[0] as usize;
    let id = cursor.take(id_len)?;
    let suffix_len = cursor.take(1)?[0] as usize;
    let suffix = cursor.take(suffix_len)?;
    let len = cursor.u32()? as usize;
    let sum = u64::from_le_bytes(cursor.take(8)?.try_into().ok()?);
    let facts = cursor.take(len)?;
    Some(Raw { id, suffix, sum, facts, range: start..cursor.at })
}

/// An entry as it lies in the file.
struct Raw<'a> {
    id: &'a [u8],
    suffix: &'a [u8],
    sum: u64,
    facts: &'a [u8],
    range: Range<usize>,
}

fn header() -> Vec<u8> {
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(format!("{} {FORMAT}\n", env!("CARGO_PKG_VERSION")).as_bytes());
    header
}

fn checksum(parts: &[&[u8]]) -> u64 {
    let mut hasher = FxHasher::default();
    for part in parts {
        hasher.write(part);
        hasher.write_usize(part.len());
    }
    hasher.finish()
}

/// Where the entry table of a cache file starts and how many entries it lists, from its footer (the table's start
/// and length, 4 bytes each, little-endian); `None` when the file is from another version or its footer does not
/// fit it.
fn layout(data: &[u8]) -> Option<(usize, usize)> {
    let header = header();
    data.strip_prefix(header.as_slice())?;
    let footer = data.len().checked_sub(8).filter(|&footer| footer >= header.len())?;
    let mut cursor = Cursor { data, at: footer };
    let (table, count) = (cursor.u32()? as usize, cursor.u32()? as usize);
    (table >= header.len() && table.checked_add(count.checked_mul(SLOT)?)? == footer).then_some((table, count))
}

/// A slot of the table: the entry's [`prefix`] (8 bytes, big-endian) and where the entry starts (4, little-endian).
const SLOT: usize = 12;

/// The first 8 bytes of an id as a number that orders as the bytes do (zero-padded: an id is at least 20 bytes).
fn prefix(id: &[u8]) -> u64 {
    let mut bytes = [0; 8];
    let n = id.len().min(8);
    bytes[..n].copy_from_slice(&id[..n]);
    u64::from_be_bytes(bytes)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modules::facts::{Collected, EnvRead, SyntaxError};
    use crate::source::Span;

    fn facts() -> ModuleFacts {
        ModuleFacts::from(Collected {
            syntax_errors: vec![SyntaxError { span: Span::new(1, 2), message: "m".into() }],
            env_reads: vec![EnvRead { name: "KEY".into(), span: Span::new(3, 9).into(), via: "Bun.env" }],
            ..Collected::default()
        })
    }

    /// The length of the text `facts` are of (their spans end by 9).
    const TEXT: usize = 9;

    fn id(byte: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[byte; 20])
    }

    fn key(byte: u8, path: &str) -> Key {
        Key::new(id(byte), path)
    }

    fn new(byte: u8, path: &str) -> Entry {
        ModuleCache::new_entry(id(byte), path, &facts()).unwrap()
    }

    /// A run's use of `entries`, in order, and its end.
    fn store(cache: &ModuleCache, entries: Vec<Entry>) {
        entries.into_iter().for_each(|entry| cache.keep(entry));
        cache.store();
    }

    #[test]
    fn entries_come_back_as_stored_under_content_and_extension() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ModuleCache::open(dir.path().to_path_buf());
        assert!(cache.get::<ModuleFacts>(&key(1, "tools/a.ts"), TEXT).is_none());
        store(&cache, vec![new(1, "tools/a.ts")]);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        assert_eq!(cache.get::<ModuleFacts>(&key(1, "other/b.ts"), TEXT).map(|(f, _)| f), Some(facts()));
        assert!(cache.get::<ModuleFacts>(&key(1, "tools/a.mts"), TEXT).is_none());
        assert!(cache.get::<ModuleFacts>(&key(2, "tools/a.ts"), TEXT).is_none());
        assert_eq!(key(1, "x/a.d.ts").suffix.as_ref(), "d.ts");
    }

    #[test]
    fn a_run_keeps_the_entries_it_used_and_rewrites_nothing_when_all_were_hits() {
        let dir = tempfile::tempdir().unwrap();
        store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts"), new(2, "b.d.ts")]);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        let (facts_1, hit) = cache.module(&id(1), "x/a.ts", TEXT).unwrap();
        assert_eq!(facts_1, facts());
        assert!(cache.module(&id(2), "b.ts", TEXT).is_none(), "the suffix is part of the key");
        store(&cache, vec![hit, new(3, "c.ts")]);
        let path = dir.path().join(FILE);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        assert!(cache.module(&id(1), "a.ts", TEXT).is_some() && cache.module(&id(3), "c.ts", TEXT).is_some());
        assert!(cache.module(&id(2), "b.d.ts", TEXT).is_none(), "an entry the run did not use is dropped");
        let hits = vec![cache.module(&id(3), "c.ts", TEXT).unwrap().1];
        std::fs::write(&path, b"").unwrap();
        store(&cache, hits);
        assert!(std::fs::read(&path).unwrap().is_empty(), "nothing new: the file is not written");
    }

    #[test]
    fn keys_that_share_the_table_prefix_are_told_apart_by_the_whole_key() {
        let dir = tempfile::tempdir().unwrap();
        let near = |last: u8| {
            let mut bytes = [7; 20];
            bytes[19] = last;
            ObjectId::from_bytes_or_panic(&bytes)
        };
        let entries = [(2, "a.ts"), (2, "a.d.ts"), (4, "a.ts"), (9, "b.mts")];
        let stored =
            entries.iter().map(|&(last, path)| ModuleCache::new_entry(near(last), path, &facts()).unwrap()).collect();
        store(&ModuleCache::open(dir.path().to_path_buf()), stored);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        for (last, path) in entries {
            assert!(cache.module(&near(last), path, TEXT).is_some(), "{last} {path}");
        }
        for (last, path) in [(1, "a.ts"), (3, "a.ts"), (2, "a.mts"), (4, "a.d.ts"), (10, "b.mts")] {
            assert!(cache.module(&near(last), path, TEXT).is_none(), "{last} {path}");
        }
    }

    #[test]
    fn an_entry_that_does_not_decode_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ModuleCache::open(dir.path().to_path_buf());
        let undecodable = store::entry(id(1).as_bytes(), b"ts", 7, |out| out.extend_from_slice(&[0xff; 7])).unwrap();
        store(&cache, vec![Entry::New(undecodable)]);
        assert!(ModuleCache::open(dir.path().to_path_buf()).get::<ModuleFacts>(&key(1, "a.ts"), TEXT).is_none());
    }

    #[test]
    fn facts_with_a_span_past_the_text_they_are_of_are_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts")]);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        assert!(cache.module(&id(1), "a.ts", TEXT - 1).is_none(), "a span ends at {TEXT}");
        assert!(cache.module(&id(1), "a.ts", TEXT).is_some());
    }

    #[test]
    fn a_damaged_entry_is_a_miss_and_the_others_still_hit() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ModuleCache::open(dir.path().to_path_buf());
        let entries = (1..=3).map(|n| new(n, "a.ts")).collect();
        store(&cache, entries);
        let path = dir.path().join(FILE);
        let mut bytes = std::fs::read(&path).unwrap();
        // The last entry's last byte: the table and its footer follow the entries.
        let (table, _) = layout(&bytes).unwrap();
        bytes[table - 1] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        let cache = ModuleCache::open(dir.path().to_path_buf());
        assert_eq!(cache.get::<ModuleFacts>(&key(1, "a.ts"), TEXT).map(|(f, _)| f), Some(facts()));
        assert_eq!(cache.get::<ModuleFacts>(&key(2, "a.ts"), TEXT).map(|(f, _)| f), Some(facts()));
        assert!(cache.get::<ModuleFacts>(&key(3, "a.ts"), TEXT).is_none());
    }

    #[test]
    fn a_file_of_another_version_or_cut_short_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts")]);
        let path = dir.path().join(FILE);
        let bytes = std::fs::read(&path).unwrap();
        let foreign = String::from_utf8_lossy(&bytes).replacen(env!("CARGO_PKG_VERSION"), "0.0.0-other", 1);
        std::fs::write(&path, foreign.as_bytes()).unwrap();
        assert!(ModuleCache::open(dir.path().to_path_buf()).get::<ModuleFacts>(&key(1, "a.ts"), TEXT).is_none());
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        assert!(ModuleCache::open(dir.path().to_path_buf()).get::<ModuleFacts>(&key(1, "a.ts"), TEXT).is_none());
    }

    #[test]
    fn a_manifest_tree_is_kept_apart_from_a_module_of_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ModuleCache::open(dir.path().to_path_buf());
        let bytes = b"tools:\n  a: tools/a.ts # c\n";
        let tree = Key::manifest(None, bytes, "beeuni.yaml").unwrap();
        assert!(cache.document(&tree, bytes.len()).is_none());
        cache.put_document(tree.clone(), &crate::yaml::parse(std::str::from_utf8(bytes).unwrap()).unwrap());
        store(&cache, vec![new(1, "a.ts")]);
        let cache = ModuleCache::open(dir.path().to_path_buf());
        let document = cache.document(&tree, bytes.len()).unwrap();
        assert_eq!((document.nodes.len(), document.comments[0].text.as_str()), (5, " c"));
        assert!(cache.get::<ModuleFacts>(&Key::new(tree.id, "beeuni.yaml"), TEXT).is_none());
    }

    #[test]
    fn the_suffix_is_the_file_name_from_its_first_dot() {
        let cases = [
            ("tools/a.ts", "ts"),
            ("x/a.d.ts", "d.ts"),
            ("a.mjs", "mjs"),
            ("dir.v2/file", ""),
            ("lib/.hidden.ts", "hidden.ts"),
            ("name.", ""),
            ("ü/ä.ö.ts", "ö.ts"),
        ];
        for (path, expected) in cases {
            assert_eq!(suffix(path), expected, "{path}");
        }
    }

    #[test]
    fn an_unwritable_folder_is_no_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let cache = ModuleCache::open(file.join("cache"));
        store(&cache, vec![new(1, "a.ts")]);
    }
}
