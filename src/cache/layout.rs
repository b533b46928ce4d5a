//! The cache file's layout: the header (the tool's version, the format, the build id), each entry (key, length,
//! keyed checksum, facts), the table slot that finds an entry, and the footer that finds the table (see [`super`]).

use super::{FORMAT, MAGIC};
use siphasher::sip::SipHasher13;
use std::hash::Hasher;
use std::ops::Range;
use std::sync::LazyLock;

/// The entry that starts at `start` in `data` (a file, or one entry's bytes).
pub(super) fn raw_at(data: &[u8], start: usize) -> Option<Raw<'_>> {
    let mut cursor = Cursor { data, at: start };
    let id_byte = cursor.take(1)?[0];
    let id = cursor.take(usize::from(id_byte & !BLOB))?;
    let suffix_len = cursor.take(1)?[0] as usize;
    let suffix = cursor.take(suffix_len)?;
    let len = cursor.u32()? as usize;
    let sum = u64::from_le_bytes(cursor.take(8)?.try_into().ok()?);
    let facts = cursor.take(len)?;
    Some(Raw { id, blob: id_byte & BLOB != 0, suffix, sum, facts, range: start..cursor.at })
}

/// The bit of an entry's first byte (its key's id length, at most 36) that says its text is the blob itself
/// ([`super::Content::is_blob`]).
pub(super) const BLOB: u8 = 0x80;

/// The checksum an entry carries: of its key (whether its text is the blob with it) and its facts.
pub(super) fn entry_sum(id: &[u8], blob: bool, suffix: &[u8], facts: &[u8]) -> u64 {
    checksum(&[id, &[u8::from(blob)], suffix, facts])
}

/// An entry as it lies in the file.
pub(super) struct Raw<'a> {
    pub(super) id: &'a [u8],
    /// Its text is the blob itself ([`super::Content::is_blob`]).
    pub(super) blob: bool,
    pub(super) suffix: &'a [u8],
    pub(super) sum: u64,
    pub(super) facts: &'a [u8],
    pub(super) range: Range<usize>,
}

/// The build this tool is: its version, the cache's format and the build id (a digest of the sources it was built
/// from, see `build.rs`).
fn build() -> String {
    format!("{} {FORMAT} {}", env!("CARGO_PKG_VERSION"), env!("BEEUNI_LINT_BUILD_ID"))
}

pub(super) fn header() -> Vec<u8> {
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(build().as_bytes());
    header.push(b'\n');
    header
}

/// The key of the entries' checksums, derived from [`build`]: an entry another build wrote, or one made without
/// this build's key, does not validate even under this build's header. Not a secret (the binary holds it, and the
/// sources it was built from give it): it seals entries against a file made elsewhere, not against someone who
/// takes the key out of the binary. A repository cannot have its committed cache used at all ([`super::place`]).
pub(super) type SealKey = (u64, u64);

pub(super) fn seal_key() -> SealKey {
    static KEY: LazyLock<SealKey> = LazyLock::new(|| {
        let hash = siphasher::sip128::SipHasher13::new().hash(build().as_bytes());
        (hash.h1, hash.h2)
    });
    *KEY
}

/// The checksum of an entry's `parts` (its key and its facts) under this build's key ([`seal_key`]).
pub(super) fn checksum(parts: &[&[u8]]) -> u64 {
    checksum_with(seal_key(), parts)
}

/// SipHash-1-3, keyed: unlike a plain hash of the bytes (the FxHash this file had), its value cannot be worked out
/// without the key, nor the key from the values of entries a build wrote.
pub(super) fn checksum_with((key0, key1): SealKey, parts: &[&[u8]]) -> u64 {
    let mut hasher = SipHasher13::new_with_keys(key0, key1);
    for part in parts {
        hasher.write(part);
        hasher.write_u64(part.len() as u64);
    }
    hasher.finish()
}

/// Where the entry table of a cache file starts and how many entries it lists, from its footer (the table's start
/// and length, 4 bytes each, little-endian); `None` when the file is from another version or its footer does not
/// fit it.
pub(super) fn layout(data: &[u8]) -> Option<(usize, usize)> {
    let header = header();
    data.strip_prefix(header.as_slice())?;
    let footer = data.len().checked_sub(8).filter(|&footer| footer >= header.len())?;
    let mut cursor = Cursor { data, at: footer };
    let (table, count) = (cursor.u32()? as usize, cursor.u32()? as usize);
    (table >= header.len() && table.checked_add(count.checked_mul(SLOT)?)? == footer).then_some((table, count))
}

/// A slot of the table: the entry's [`prefix`] (8 bytes, big-endian) and where the entry starts (4, little-endian).
pub(super) const SLOT: usize = 12;

/// The first 8 bytes of an id as a number that orders as the bytes do (zero-padded: an id is at least 20 bytes).
pub(super) fn prefix(id: &[u8]) -> u64 {
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
