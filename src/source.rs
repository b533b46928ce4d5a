//! Source files and positions: every finding points at a byte [`Span`] of a
//! [`SourceFile`]; lines and UTF-16 columns are computed only when rendering.
//!
//! A module's text is let go once its facts are known (a run of 20,000 modules would otherwise hold every
//! text to the end), and a warm run never reads an unchanged module at all: [`Text`] reads it again, from the
//! place it came from, the first time something asks for it (a finding rendered in that file).

use std::ops::Range;

/// A half-open byte range into a source file's text, kept in 32 bits: 8 bytes at each of the dozen spans of every
/// module's facts, held to the end of the run. Every text is far below 4 GiB (a file at most 32 MiB: see
/// [`crate::repo::fs`]); an offset past 4 GiB is cut to it. Offsets come in and go out as `usize`, the type text
/// is sliced with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    start: u32,
    end: u32,
}

/// An offset in 32 bits, cut at 4 GiB (see [`Span`]).
fn cut(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

impl Span {
    /// The bytes `start..end`; an `end` before `start` is taken as `start`.
    pub fn new(start: usize, end: usize) -> Self {
        let (start, end) = (cut(start), cut(end));
        Span { start, end: end.max(start) }
    }

    pub fn empty(at: usize) -> Self {
        let at = cut(at);
        Span { start: at, end: at }
    }

    pub fn start(self) -> usize {
        self.start as usize
    }

    pub fn end(self) -> usize {
        self.end as usize
    }

    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn range(self) -> Range<usize> {
        self.start()..self.end()
    }

    /// Does this span hold all of `inner` (its ends included)?
    pub fn contains(self, inner: Span) -> bool {
        self.start <= inner.start && inner.end <= self.end
    }
}

/// Where the JavaScript parser placed a node: its spans are in 32 bits too.
impl From<oxc_span::Span> for Span {
    fn from(span: oxc_span::Span) -> Span {
        Span { start: span.start, end: span.end.max(span.start) }
    }
}

/// Index of a file in [`Sources`].
pub type FileId = usize;

pub mod escape;

/// Is `path` a YAML file by its name (`.yaml`, `.yml`): how a fix, an ignore comment or a completion tells a
/// manifest file from a module.
pub fn is_yaml(path: &str) -> bool {
    path.ends_with(".yaml") || path.ends_with(".yml")
}
mod text;

pub use text::{Reread, TEXTS_READ_AGAIN, Text};

/// A file's path: inline up to 24 bytes (most are), and a run keeps every file's (20,000 modules' at the 20k bench).
pub type PathText = compact_str::CompactString;

/// A repository file as read: its project-relative path (with `/`), the path reports show, and its text.
#[derive(Debug)]
pub struct SourceFile {
    /// Relative to the project root: how the manifest names the file and how the checkout reads it.
    pub path: PathText,
    /// Relative to the git work tree root (docs/spec/interface.md, Positions): what every report and help prints.
    pub shown: PathText,
    pub text: Text,
}

/// A 1-based line and a 1-based column counted in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(path: impl Into<PathText>, text: String) -> Self {
        SourceFile::of(path.into(), Text::held(text))
    }

    /// A file whose text is read when first used.
    pub fn later(path: impl Into<PathText>, again: Reread) -> Self {
        SourceFile::of(path.into(), Text::later(again))
    }

    fn of(path: PathText, text: Text) -> Self {
        SourceFile { shown: path.clone(), path, text }
    }

    /// The text with its line table (read and built now if not yet).
    pub fn lines(&self) -> Lines<'_> {
        let (text, starts) = self.text.with_line_starts();
        Lines { text, starts }
    }

    /// 0-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        self.lines().line_index(offset)
    }

    /// Byte offset where the 0-based line starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.lines().line_start(line)
    }

    /// Byte range of the 0-based line without its line break (`\n`, `\r\n` or `\r`).
    pub fn line_span(&self, line: usize) -> Span {
        self.lines().line_span(line)
    }

    pub fn line_count(&self) -> usize {
        self.lines().line_count()
    }

    pub fn position(&self, offset: usize) -> Position {
        self.lines().position(offset)
    }

    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }
}

/// Where each line of `text` starts, the first at 0. Line breaks are LF, CRLF and a lone CR, as LSP counts them.
pub fn line_starts(text: &str) -> Box<[u32]> {
    let bytes = text.as_bytes();
    let breaks = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .map(|(i, _)| (i + 1) as u32);
    std::iter::once(0).chain(breaks).collect()
}

/// A file's text and where its lines start, borrowed: what renderers that work across threads (miette) are lent.
#[derive(Clone, Copy, Debug)]
pub struct Lines<'a> {
    pub text: &'a str,
    starts: &'a [u32],
}

impl<'a> Lines<'a> {
    /// The lines of a text that is no [`SourceFile`] (a language server's buffer), `starts` its [`line_starts`].
    pub fn new(text: &'a str, starts: &'a [u32]) -> Self {
        Lines { text, starts }
    }

    /// The byte offset of a 0-based line and a 0-based column counted in UTF-16 code units (as the language server
    /// protocol places them), clamped to the line's end, and past the last line to the text's end.
    pub fn offset(&self, line: usize, utf16_column: usize) -> usize {
        if line >= self.line_count() {
            return self.text.len();
        }
        let span = self.line_span(line);
        // A byte-order mark is not a column (see `position`).
        let start = match line == 0 && self.text.starts_with('\u{feff}') {
            true => '\u{feff}'.len_utf8().min(span.end()),
            false => span.start(),
        };
        let mut units = 0;
        for (at, ch) in self.text[start..span.end()].char_indices() {
            if units >= utf16_column {
                return start + at;
            }
            units += ch.len_utf16();
        }
        span.end()
    }

    /// 0-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        let offset = u32::try_from(offset).unwrap_or(u32::MAX);
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte offset where the 0-based line starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).map_or(self.text.len(), |&start| start as usize)
    }

    /// Byte range of the 0-based line without its line break (`\n`, `\r\n` or `\r`).
    pub fn line_span(&self, line: usize) -> Span {
        let start = self.line_start(line);
        let mut end = self.starts.get(line + 1).map_or(self.text.len(), |&next| next as usize - 1);
        if end > start && self.text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Span::new(start, end.max(start))
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_index(offset);
        let start = self.line_start(line);
        let mut column = self.text[start..offset].encode_utf16().count() + 1;
        // A byte-order mark is not a column: editors and GitHub start line 1 after it.
        if line == 0 && offset > 0 && self.text.starts_with('\u{feff}') {
            column -= 1;
        }
        Position { line: line + 1, column }
    }
}

/// Every file a run has read, addressed by [`FileId`].
#[derive(Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
    /// The project root relative to the git work tree root (`""` at the top), with `/`.
    prefix: String,
}

impl Sources {
    /// Files of a project whose root is `prefix` inside the repository: each is shown as `prefix/path`.
    pub fn with_prefix(prefix: &str) -> Self {
        Sources { files: Vec::new(), prefix: prefix.to_string() }
    }

    /// The project root, repo-relative (`""` at the top).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// A project-relative path as reports show it: relative to the git work tree root.
    pub fn shown(&self, path: &str) -> PathText {
        if self.prefix.is_empty() {
            PathText::from(path)
        } else {
            compact_str::format_compact!("{}/{path}", self.prefix)
        }
    }

    /// A file outside the project's folders (a config above the project root): shown as its `path` says.
    pub fn add_shown(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        self.files.len() - 1
    }

    pub fn add(&mut self, mut file: SourceFile) -> FileId {
        file.shown = self.shown(&file.path);
        self.files.push(file);
        self.files.len() - 1
    }

    /// Room for exactly `more` files more (a caller that knows how many comes spares the list its growth by
    /// doubling).
    pub fn reserve_exact(&mut self, more: usize) {
        self.files.reserve_exact(more);
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id]
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut SourceFile> {
        self.files.iter_mut()
    }

    pub fn find(&self, path: &str) -> Option<FileId> {
        self.files.iter().position(|f| f.path == path)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The files, in [`FileId`] order (to join several projects' reports into one).
    pub fn into_files(self) -> Vec<SourceFile> {
        self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        let file = SourceFile::new("a", "ab\nü😀x\r\nz".into());
        assert_eq!(file.position(0), Position { line: 1, column: 1 });
        assert_eq!(file.position(3), Position { line: 2, column: 1 });
        // `ü` is one UTF-16 unit, the emoji two.
        let x = file.text.find('x').unwrap();
        assert_eq!(file.position(x), Position { line: 2, column: 4 });
        assert_eq!(file.slice(file.line_span(1)), "ü😀x");
        assert_eq!(file.position(file.text.len()), Position { line: 3, column: 2 });
    }

    #[test]
    fn a_text_let_go_is_read_again_on_first_use_only() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("a.ts");
        std::fs::write(&real, "a\u{1b}\nb\n").unwrap();
        let mut file = SourceFile::later("a.ts", Reread::Disk(real.clone().into()));
        assert!(!file.text.is_held());
        file.text.make_terminal_safe();
        assert!(!file.text.is_held(), "made safe when read, not read for it");
        assert_eq!(file.position(3), Position { line: 2, column: 1 });
        assert_eq!(file.text.as_str(), "a?\nb\n");
        std::fs::write(&real, "changed").unwrap();
        assert_eq!(file.slice(file.line_span(1)), "b", "read once");
        let gone = SourceFile::later("b.ts", Reread::Disk(dir.path().join("b.ts").into()));
        assert_eq!((gone.text.as_str(), gone.line_count()), ("", 1));
    }

    #[test]
    fn a_span_is_8_bytes_and_cut_at_4_gib() {
        assert_eq!(std::mem::size_of::<Span>(), 8);
        let span = Span::new(3, 9);
        assert_eq!((span.start(), span.end(), span.len(), span.range()), (3, 9, 6, 3..9));
        assert_eq!(Span::new(9, 3), Span::empty(9), "an end before the start is the start");
        let past = Span::new(5, usize::MAX);
        assert_eq!((past.start(), past.end()), (5, u32::MAX as usize));
        assert_eq!(Span::empty(usize::MAX).range(), u32::MAX as usize..u32::MAX as usize);
    }

    #[test]
    fn a_lone_cr_breaks_a_line() {
        let file = SourceFile::new("a", "a: 1\rb: 2\r\nc: 3\r\rd".into());
        assert_eq!(file.line_count(), 5);
        assert_eq!(file.position(file.text.find('b').unwrap()), Position { line: 2, column: 1 });
        assert_eq!(file.position(file.text.find('c').unwrap()), Position { line: 3, column: 1 });
        assert_eq!(file.position(file.text.find('d').unwrap()), Position { line: 5, column: 1 });
        assert_eq!(file.slice(file.line_span(0)), "a: 1");
        assert_eq!(file.slice(file.line_span(1)), "b: 2");
        assert_eq!(file.slice(file.line_span(3)), "");
    }
}
