//! The warm cache: module facts by content, so that a second run parses only what changed.
//!
//! A module's facts (`ModuleFacts`) follow from its bytes and its extension alone, so they are stored under
//! the file's git blob id (what the index already holds for a file unchanged since staged; otherwise the bytes
//! are hashed the way git does) with the exact length of the text analysed ([`Content`]), and the part of its name
//! that picks the parser. Everything that depends on
//! other files (resolution, tracking, `node_modules`, tsconfig, package.json, the manifest) is recomputed on
//! every run, and config plays no part in the facts. A manifest file's YAML tree ([`Document`]) is cached the same
//! way (under its bytes hashed as git does). One file, `modules.bin`, in `.beeuni-lint-cache/` at the
//! project root (with a `.gitignore` of `*`) or in `--cache-dir`.
//!
//! Loading it is one mapping and no decoding: the file starts with the tool's version, then come the entries in
//! the order the run that wrote them used them (see [`store`]), then a table of each entry's key prefix and where
//! it starts, sorted by key, and a footer that says where the table starts and how long it is; a lookup is a
//! binary search of the table in place, and only the entries a run uses are touched, checked and decoded, their
//! pages let go behind the readers. Each entry carries a checksum of its key and facts, keyed by the build
//! ([`layout::checksum`]): a file from another build, or an entry that is damaged, made without this build's key
//! or that does not decode, is a miss, and the file is written again (atomically, by rename) with what this run
//! used. Only a folder that is the run's own is used ([`place`]).

pub(crate) mod codec;

use crate::yaml::tree::Document;
use bytes::{Behind, Bytes};
use codec::Codec;
use gix::ObjectId;
use std::cmp::Ordering;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

mod bytes;
mod layout;
pub mod place;
pub mod replay;
mod store;

use layout::{Raw, SLOT, entry_sum, header, layout, prefix, raw_at};

/// The folder's name at the project root.
pub const DIR: &str = ".beeuni-lint-cache";
const FILE: &str = "modules.bin";
const MAGIC: &[u8] = b"beeuni-lint cache\n";
/// Bumped when the layout of the file or of `ModuleFacts` changes within one version (during development), or what
/// a stored tree holds (18: keyed checksums, the text's length in the key; 19: block scalar spans end with their
/// content; 20: an import's kind holds JSX and erased imports; 21: the named export holding the tool object;
/// 22: regular expressions measured, then parsed, after the walk; 23: `exports.default` without `__esModule`, the
/// wrapper and foreign fields of a tool object, deferred imports, `server.tool(…)`; 24: an entry says whether its
/// text is the blob itself).
const FORMAT: u32 = 24;

/// The text an entry is of, as its key names it: git's blob id of the file, then the exact length of the text
/// analysed (4 bytes, little-endian). The id alone does not name the bytes analysed: a work-tree file unchanged
/// since staged is known by the id of the blob the index holds, which is what git makes of the file (`core.autocrlf`,
/// `eol=crlf`: the file has CRLF where the blob has LF, and every position after the first line break differs), so
/// the facts of a `--staged` run, made from the blob, would serve a run of the work tree. Such a conversion changes
/// the length (one byte a line break), and the entry of one text is never found for the other.
///
/// An entry whose text is known to be the blob itself (read from git, or hashed from the bytes analysed) says so
/// ([`Content::is_blob`]): a run that lints git's blobs (`--staged`, `--base`) then finds it by the id alone and
/// takes the length from it, without opening the object for its header (a loose object each: at 2,000 modules, the
/// hook's warm run spent 55 of its 63 ms opening them, twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Content {
    bytes: [u8; CONTENT_MAX],
    len: u8,
    blob: bool,
}

/// The longest id (SHA-256) and the text's length.
const CONTENT_MAX: usize = 32 + 4;

impl Content {
    /// `None` for a text longer than 4 GiB (never read: see [`crate::repo::fs::MAX_FILE_BYTES`]).
    pub fn new(id: &ObjectId, text_len: usize) -> Option<Content> {
        let (id, text_len) = (id.as_bytes(), u32::try_from(text_len).ok()?.to_le_bytes());
        let mut bytes = [0; CONTENT_MAX];
        bytes.get_mut(..id.len())?.copy_from_slice(id);
        bytes.get_mut(id.len()..id.len() + 4)?.copy_from_slice(&text_len);
        Some(Content { bytes, len: (id.len() + 4) as u8, blob: false })
    }

    /// The content of a text that is the blob `id` itself, `text_len` bytes long.
    pub fn of_blob(id: &ObjectId, text_len: usize) -> Option<Content> {
        Content::new(id, text_len).map(|content| Content { blob: true, ..content })
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Is the text the blob itself (not a file git converts to make the blob)?
    pub fn is_blob(&self) -> bool {
        self.blob
    }
}

/// What a module's facts depend on: its content and the part of its name from the first `.` (`ts`, `d.ts`, `mjs`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub content: Content,
    pub suffix: Box<str>,
}

impl Key {
    pub fn new(content: Content, path: &str) -> Self {
        Key { content, suffix: suffix(path).into() }
    }

    /// The key of a manifest file's YAML tree: its blob id (`known` from git, else its bytes hashed as git does)
    /// with the length of `bytes`, and a suffix no module's can be (a file name holds no NUL).
    pub fn manifest(known: Option<ObjectId>, bytes: &[u8], path: &str) -> Option<Self> {
        let hashed = || gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes).ok();
        let content = Content::new(&known.or_else(hashed)?, bytes.len())?;
        Some(Key { content, suffix: format!("\0{}", suffix(path)).into() })
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

/// A cache entry as this run used it: a module's ([`Entry`], new under its content) or a manifest tree's
/// ([`NewTree`]).
pub enum Entry<New = Content> {
    /// Found in the loaded file: the range of the whole entry there (written back as it is, key and all).
    Hit(Range<usize>),
    /// Made in this run, encoded straight into the file's buffer: a module's when the module is taken
    /// ([`ModuleCache::keep`]), a manifest tree's when the file is opened or ends.
    New(New),
}

/// A manifest tree parsed in this run, under its key, held until the file is opened or ends: the tree itself, not
/// its encoded entry (the graph keeps the tree to the end of the run, so holding it costs a reference).
type NewTree = (Key, Arc<Document>);

pub struct ModuleCache {
    dir: PathBuf,
    /// The file as read: header, the entries, the table of entries (key prefix and offset), then the footer.
    data: Bytes,
    /// Where the table starts in `data` and how many entries it lists (0 when the file is absent or foreign).
    table: usize,
    count: usize,
    /// The manifest entries this run used and not yet written (the module entries come to [`ModuleCache::keep`] as
    /// the modules are taken).
    documents: Mutex<Vec<Entry<NewTree>>>,
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

    /// Stores a manifest file's YAML tree under its `key` (written with the modules' entries). A key too long for
    /// an entry is not kept: it would have a run whose other entries all hit write the file again for nothing.
    pub fn put_document(&self, key: Key, document: Arc<Document>) {
        if store::fits(key.content.as_bytes(), key.suffix.as_bytes()) {
            let mut documents = self.documents.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            documents.push(Entry::New((key, document)));
        }
    }

    /// The facts stored for the module at `path` whose content is the blob `id` as a text exactly `text_len` bytes
    /// long, with their entry (`None` when absent, damaged, or when they do not decode). Looked up in place:
    /// nothing is allocated for the key.
    pub fn module<Facts: Codec>(&self, id: &ObjectId, path: &str, text_len: usize) -> Option<(Facts, Entry)> {
        let content = Content::new(id, text_len)?;
        let (facts, range) = self.find(content.as_bytes(), suffix(path).as_bytes(), text_len)?;
        Some((facts, Entry::Hit(range)))
    }

    /// The facts stored for the module at `path` whose text is the blob `id` itself, with their entry and the
    /// text's length (the blob's), found by the id alone: `None` when no entry of that blob says its text is the
    /// blob (see [`Content`]), or when it is damaged or does not decode.
    pub fn blob_module<Facts: Codec>(&self, id: &ObjectId, path: &str) -> Option<(Facts, Entry, usize)> {
        let (id, suffix) = (id.as_bytes(), suffix(path).as_bytes());
        for n in self.first_slot(prefix(id))?..self.count {
            let (key_prefix, start) = self.slot(n)?;
            let entry = self.entry_at(start).filter(|_| key_prefix == prefix(id))?;
            match entry.id.get(..id.len()).map(|entry_id| entry_id.cmp(id)) {
                Some(Ordering::Equal) if entry.blob && entry.suffix == suffix => {
                    let text_len = u32::from_le_bytes(entry.id.get(id.len()..)?.try_into().ok()?) as usize;
                    let (facts, range) = self.checked(&entry, text_len)?;
                    return Some((facts, Entry::Hit(range), text_len));
                }
                Some(Ordering::Greater) => return None,
                _ => {}
            }
        }
        None
    }

    /// What is stored for `key` with the entry's range (`None` when absent, damaged, or when it does not decode).
    fn get<T: Codec>(&self, key: &Key, text_len: usize) -> Option<(T, Range<usize>)> {
        self.find(key.content.as_bytes(), key.suffix.as_bytes(), text_len)
    }

    /// The table is sorted by id bytes, then suffix bytes, and holds each entry's [`prefix`]: a binary
    /// search over the table alone (a few KiB, where probing the entries themselves would touch a cache line and
    /// often a page of the file per step), then a look at the entries that share the prefix (as a rule one).
    fn find<T: Codec>(&self, content: &[u8], suffix: &[u8], text_len: usize) -> Option<(T, Range<usize>)> {
        let wanted = prefix(content);
        for n in self.first_slot(wanted)?..self.count {
            let (key_prefix, start) = self.slot(n)?;
            if key_prefix != wanted {
                return None;
            }
            let entry = self.entry_at(start)?;
            match (content, suffix).cmp(&(entry.id, entry.suffix)) {
                Ordering::Equal => return self.checked(&entry, text_len),
                Ordering::Less => return None,
                Ordering::Greater => {}
            }
        }
        None
    }

    /// The first slot of the table whose key prefix is not below `wanted` (a binary search of the table alone).
    fn first_slot(&self, wanted: u64) -> Option<usize> {
        let (mut low, mut high) = (0, self.count);
        while low < high {
            let middle = (low + high) / 2;
            match self.slot(middle)?.0.cmp(&wanted) {
                Ordering::Less => low = middle + 1,
                _ => high = middle,
            }
        }
        Some(low)
    }

    /// The entry's value, when its checksum holds and it decodes (for a text `text_len` bytes long).
    fn checked<T: Codec>(&self, entry: &Raw<'_>, text_len: usize) -> Option<(T, Range<usize>)> {
        if entry_sum(entry.id, entry.blob, entry.suffix, entry.facts) != entry.sum {
            return None;
        }
        Some((T::decode(entry.facts, text_len)?, entry.range.clone()))
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

    /// The entry of facts analysed in this run, for a module whose content is the blob `id`, a text `text_len` bytes
    /// long, the blob itself when `blob` (encoded when the module is taken: [`ModuleCache::keep`]); `None` when no
    /// key can name it.
    pub fn new_entry(id: ObjectId, text_len: usize, blob: bool) -> Option<Entry> {
        match blob {
            true => Content::of_blob(&id, text_len),
            false => Content::new(&id, text_len),
        }
        .map(Entry::New)
    }
}

#[cfg(test)]
mod tests;
