//! Source files and positions: every finding points at a byte [`Span`] of a
//! [`SourceFile`]; lines and UTF-16 columns are computed only when rendering.

use std::ops::Range;

/// A half-open byte range into a source file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end: end.max(start) }
    }

    pub fn empty(at: usize) -> Self {
        Span { start: at, end: at }
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// Index of a file in [`Sources`].
pub type FileId = usize;

/// A repository file as read: its project-relative path (with `/`), the path reports show, and its text.
#[derive(Debug)]
pub struct SourceFile {
    /// Relative to the project root: how the manifest names the file and how the checkout reads it.
    pub path: String,
    /// Relative to the git work tree root (INTERFACE.md, Positions): what every report and help prints.
    pub shown: String,
    pub text: String,
    line_starts: Vec<usize>,
}

/// A 1-based line and a 1-based column counted in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(path: String, text: String) -> Self {
        let mut line_starts = vec![0];
        // Line breaks are LF, CRLF and a lone CR, as LSP counts them.
        let bytes = text.as_bytes();
        line_starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
                .map(|(i, _)| i + 1),
        );
        SourceFile { shown: path.clone(), path, text, line_starts }
    }

    /// 0-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte offset where the 0-based line starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts.get(line).copied().unwrap_or(self.text.len())
    }

    /// Byte range of the 0-based line without its line break (`\n`, `\r\n` or `\r`).
    pub fn line_span(&self, line: usize) -> Span {
        let start = self.line_start(line);
        let mut end = self.line_starts.get(line + 1).map_or(self.text.len(), |next| next - 1);
        if end > start && self.text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Span::new(start, end.max(start))
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    pub fn position(&self, offset: usize) -> Position {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let mut column = self.text[start..offset].encode_utf16().count() + 1;
        // A byte-order mark is not a column: editors and GitHub start line 1 after it.
        if line == 0 && offset > 0 && self.text.starts_with('\u{feff}') {
            column -= 1;
        }
        Position { line: line + 1, column }
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
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
    pub fn shown(&self, path: &str) -> String {
        if self.prefix.is_empty() { path.to_string() } else { format!("{}/{path}", self.prefix) }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        let file = SourceFile::new("a".into(), "ab\nü😀x\r\nz".into());
        assert_eq!(file.position(0), Position { line: 1, column: 1 });
        assert_eq!(file.position(3), Position { line: 2, column: 1 });
        // `ü` is one UTF-16 unit, the emoji two.
        let x = file.text.find('x').unwrap();
        assert_eq!(file.position(x), Position { line: 2, column: 4 });
        assert_eq!(file.slice(file.line_span(1)), "ü😀x");
        assert_eq!(file.position(file.text.len()), Position { line: 3, column: 2 });
    }

    #[test]
    fn a_lone_cr_breaks_a_line() {
        let file = SourceFile::new("a".into(), "a: 1\rb: 2\r\nc: 3\r\rd".into());
        assert_eq!(file.line_count(), 5);
        assert_eq!(file.position(file.text.find('b').unwrap()), Position { line: 2, column: 1 });
        assert_eq!(file.position(file.text.find('c').unwrap()), Position { line: 3, column: 1 });
        assert_eq!(file.position(file.text.find('d').unwrap()), Position { line: 5, column: 1 });
        assert_eq!(file.slice(file.line_span(0)), "a: 1");
        assert_eq!(file.slice(file.line_span(1)), "b: 2");
        assert_eq!(file.slice(file.line_span(3)), "");
    }
}
