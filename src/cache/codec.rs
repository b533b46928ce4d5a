//! The bytes of a cache entry: a compact binary form of a module's facts (their [`Codec`] is beside them, in
//! `modules::facts`) and of a manifest's [`Document`], written
//! and read by hand (a warm run decodes every module's facts, and a general serialisation framework spent most of
//! that run's worker time in its visitors, its per-string UTF-8 checks and in lists grown then shrunk).
//!
//! An entry is the length of its text part (a varint), the text part, then the structure. Every string of the
//! value lies in the text part, one after the other in the order the structure names them, so that one UTF-8
//! check covers them all; the structure gives each string's length. Numbers (lengths, counts, offsets) are
//! LEB128 varints; a span is its start and its length. Reading never trusts the bytes: every read is
//! bounds-checked, a list's length is checked against the bytes left before anything is allocated for it (each
//! item takes at least its smallest encoded size), a span must lie within the text it is of, a string must end on
//! a character boundary, a tag must be known, and both parts must be used up exactly. Bytes that fail any of this
//! decode to `None`: the entry is a miss and the module is analysed again.

mod document;

use crate::source::Span;

// The fewest bytes of the structure each kind of item takes (see [`Reader::list`]): a number (a length, a count,
// an index) or a byte takes one, a span two (its start and length).
pub const NUMBER: usize = 1;
pub const BYTE: usize = 1;
pub const STR: usize = NUMBER;
pub const SPAN: usize = 2 * NUMBER;

/// A value the cache stores as an entry.
pub trait Codec: Sized {
    /// Writes the value's parts (see [`Writer::finish_into`] for the whole).
    fn write(&self, w: &mut Writer);

    fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        self.write(&mut w);
        w.finish()
    }

    /// `None` when `bytes` are not an entry this version writes (damaged, cut short, or from elsewhere), or when
    /// a span in them ends past `text_len`, the length of the text the value is of (the entry is keyed by that
    /// text's content, so a span past its end was never written for it).
    fn decode(bytes: &[u8], text_len: usize) -> Option<Self>;
}

/// Builds an entry: the structure and the text part are written apart and joined at the end.
pub struct Writer {
    structure: Vec<u8>,
    text: Vec<u8>,
}

impl Default for Writer {
    /// Room for a typical module's facts from the start (a first run encodes every module): grown from empty, the
    /// two lists would be reallocated a dozen times an entry.
    fn default() -> Self {
        Writer { structure: Vec::with_capacity(256), text: Vec::with_capacity(256) }
    }
}

// The small writes are inlined always (the whole release build kept `str` apart, a call per string of every
// module's facts), and a number of one or two bytes (most lengths and counts, a span's length, an offset in a
// module up to 16 KiB) is written without a loop: called through the loop of [`varint`] for every number, they
// were most of a first run's encoding cost.
impl Writer {
    #[inline(always)]
    pub fn byte(&mut self, byte: u8) {
        self.structure.push(byte);
    }

    #[inline(always)]
    pub fn number(&mut self, n: usize) {
        if n < 0x80 {
            self.structure.push(n as u8);
        } else if n < 0x4000 {
            // Two pushes: a slice of two would be copied by a call.
            self.structure.push(n as u8 | 0x80);
            self.structure.push((n >> 7) as u8);
        } else {
            varint(&mut self.structure, n as u64);
        }
    }

    #[inline(always)]
    pub fn str(&mut self, text: &str) {
        self.number(text.len());
        self.text.extend_from_slice(text.as_bytes());
    }

    /// Its start and length (the length is short, and a span's end is never before its start: [`Span::new`]).
    #[inline(always)]
    pub fn span(&mut self, span: Span) {
        self.number(span.start());
        self.number(span.len());
    }

    /// A list: its length, then each item as `write` writes it.
    pub fn list<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Self, &T)) {
        self.number(items.len());
        for item in items {
            write(self, item);
        }
    }

    pub fn finish(self) -> Vec<u8> {
        let mut entry = Vec::with_capacity(self.encoded_len());
        self.finish_into(&mut entry);
        entry
    }

    /// How many bytes [`Writer::finish_into`] appends.
    pub fn encoded_len(&self) -> usize {
        varint_len(self.text.len() as u64) + self.text.len() + self.structure.len()
    }

    /// Appends the value's bytes to `out`: the length of the text part, the text part, the structure.
    pub fn finish_into(&self, out: &mut Vec<u8>) {
        varint(out, self.text.len() as u64);
        out.extend_from_slice(&self.text);
        out.extend_from_slice(&self.structure);
    }

    /// Empties the writer for the next value, keeping its room (a thread encodes module after module).
    pub fn clear(&mut self) {
        self.structure.clear();
        self.text.clear();
    }
}

/// How many bytes [`varint`] writes for `n`.
fn varint_len(n: u64) -> usize {
    (64 - (n | 1).leading_zeros() as usize).div_ceil(7)
}

/// LEB128: seven bits a byte, low bits first, the high bit set on every byte but the last.
fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Reads an entry. Every method returns `None` when the bytes do not hold what it reads. The small ones are
/// inlined always: a reader kept in registers across a whole decode, rather than in memory behind a call, is
/// most of what a decode costs besides its allocations.
pub struct Reader<'a> {
    structure: &'a [u8],
    /// The text part not yet read, checked as UTF-8 once, whole.
    text: &'a str,
    /// Where every span must end by: the length of the text the entry is of.
    text_len: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `entry`, the value of a text `text_len` bytes long.
    pub fn new(entry: &'a [u8], text_len: usize) -> Option<Self> {
        let mut reader = Reader { structure: entry, text: "", text_len };
        let len = reader.number()?;
        if len > reader.structure.len() {
            return None;
        }
        let (text, structure) = reader.structure.split_at(len);
        Some(Reader { structure, text: std::str::from_utf8(text).ok()?, text_len })
    }

    #[inline(always)]
    pub fn byte(&mut self) -> Option<u8> {
        let (&byte, rest) = self.structure.split_first()?;
        self.structure = rest;
        Some(byte)
    }

    /// Most numbers of an entry (lengths, counts, a span's length, offsets in a module up to 16 KiB) take one or
    /// two bytes: those are read without a loop.
    #[inline(always)]
    pub fn number(&mut self) -> Option<usize> {
        match *self.structure {
            [low, ref rest @ ..] if low < 0x80 => {
                self.structure = rest;
                Some(usize::from(low))
            }
            [low, high, ref rest @ ..] if high < 0x80 => {
                self.structure = rest;
                Some(usize::from(low & 0x7f) | usize::from(high) << 7)
            }
            _ => self.long_number(),
        }
    }

    #[cold]
    fn long_number(&mut self) -> Option<usize> {
        let mut n: u64 = 0;
        // Ten bytes carry 64 bits; the tenth may carry only the top bit.
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            let bits = u64::from(byte & 0x7f);
            if shift == 63 && bits > 1 {
                return None;
            }
            n |= bits << shift;
            if byte < 0x80 {
                return usize::try_from(n).ok();
            }
        }
        None
    }

    /// The next string of the text part (`split_at_checked` checks that it ends on a character boundary; the
    /// text part starts on one).
    #[inline(always)]
    pub fn str(&mut self) -> Option<&'a str> {
        let len = self.number()?;
        let (text, rest) = self.text.split_at_checked(len)?;
        self.text = rest;
        Some(text)
    }

    /// A span of the text, which must end within it (so below 4 GiB, as every text is: a span past it is not
    /// one, rather than one cut to it). Inlined always, as the other small reads: once a span is checked against
    /// its text's length, the compiler kept this one apart, a call per span of every module's facts (8 M
    /// instructions at 20,000 modules).
    #[inline(always)]
    pub fn span(&mut self) -> Option<Span> {
        let start = self.number()?;
        let end = start.checked_add(self.number()?)?;
        (end <= self.text_len && u32::try_from(end).is_ok()).then(|| Span::new(start, end))
    }

    /// How many items a list has whose items take at least `least` bytes of the structure each (`least` >= 1); more
    /// than the bytes left can hold is a damaged entry, caught before anything is allocated for them (so that what
    /// a list allocates is bounded by its entry's size, however its count was crafted).
    #[inline(always)]
    pub fn count(&mut self, least: usize) -> Option<usize> {
        let count = self.number()?;
        (count <= self.structure.len() / least.max(1)).then_some(count)
    }

    /// A list whose items take at least `least` bytes of the structure each, allocated once at its exact length.
    #[inline(always)]
    pub fn list<T>(&mut self, least: usize, mut read: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let count = self.count(least)?;
        let mut items = Vec::with_capacity(count);
        for _ in 0..count {
            items.push(read(self)?);
        }
        Some(items)
    }

    /// `value`, when the entry held nothing more.
    pub fn end<T>(self, value: T) -> Option<T> {
        (self.structure.is_empty() && self.text.is_empty()).then_some(value)
    }
}

#[cfg(test)]
mod tests;
