//! A file's text, held or let go and read again the first time something asks for it (see [`super`]).

use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where a text that was let go is read again: the same checkout source it was first read from (the repository
/// layer knows how; see `repo::reread`).
pub trait ReadAgain: std::fmt::Display + Send + Sync {
    /// The bytes as the source holds them now; `None` when they cannot be read any more (deleted since).
    fn read_again(&self) -> Option<Vec<u8>>;
}

/// How many texts were read again (for `BEEUNI_LINT_STATS`, see [`crate::stats`]).
pub static TEXTS_READ_AGAIN: AtomicUsize = AtomicUsize::new(0);

/// The text `again` holds now; empty when it cannot be read any more (deleted since).
fn read(again: &dyn ReadAgain) -> String {
    TEXTS_READ_AGAIN.fetch_add(1, Ordering::Relaxed);
    again
        .read_again()
        .map(|bytes| String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
        .unwrap_or_default()
}

/// A file's text: held, or read again on first use (it dereferences to the `String`, so that every reader of
/// a file's text is unchanged and only what is read pays).
pub struct Text {
    /// The text once in memory, with its line table. Boxed: a text let go (every module's of a large project, kept
    /// to the end of the run) costs its file 16 bytes here, where the text and the table beside it took 56.
    held: OnceLock<Box<Held>>,
    again: Option<Box<dyn ReadAgain>>,
    /// Made safe for a snippet ([`super::escape::same_length`]) when read again.
    terminal_safe: bool,
}

/// A text in memory, and where each of its lines starts (byte offsets; files are at most 32 MiB): built on first
/// use, so only for the files a finding is placed in.
struct Held {
    text: String,
    line_starts: OnceLock<Box<[u32]>>,
}

impl Held {
    fn new(text: String) -> Box<Held> {
        Box::new(Held { text, line_starts: OnceLock::new() })
    }
}

impl Text {
    /// A text in memory.
    pub fn held(text: String) -> Self {
        Text { held: OnceLock::from(Held::new(text)), again: None, terminal_safe: false }
    }

    /// A text read from `again` when first used.
    pub fn later(again: impl ReadAgain + 'static) -> Self {
        Text { held: OnceLock::new(), again: Some(Box::new(again)), terminal_safe: false }
    }

    /// Is the text in memory (held, or read again already)?
    pub fn is_held(&self) -> bool {
        self.held.get().is_some()
    }

    /// Replaces the characters a terminal acts on now, or when the text is read again (see
    /// [`crate::report::Report::make_terminal_safe`]).
    pub fn make_terminal_safe(&mut self) {
        match self.held.get_mut() {
            Some(held) => {
                if let Some(clean) = super::escape::same_length(&held.text) {
                    held.text = clean;
                }
            }
            None => self.terminal_safe = true,
        }
    }

    /// The text in memory (read again now if it was let go).
    fn in_memory(&self) -> &Held {
        self.held.get_or_init(|| {
            let text = self.again.as_deref().map(read).unwrap_or_default();
            Held::new(match self.terminal_safe {
                true => super::escape::same_length(&text).unwrap_or(text),
                false => text,
            })
        })
    }

    /// The text with where each of its lines starts (the table built now if not yet).
    pub(super) fn with_line_starts(&self) -> (&str, &[u32]) {
        let held = self.in_memory();
        let starts = held.line_starts.get_or_init(|| {
            // Line breaks are LF, CRLF and a lone CR, as LSP counts them.
            let bytes = held.text.as_bytes();
            let breaks = bytes
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
                .map(|(i, _)| (i + 1) as u32);
            std::iter::once(0).chain(breaks).collect()
        });
        (&held.text, starts)
    }
}

impl Deref for Text {
    type Target = String;

    fn deref(&self) -> &String {
        &self.in_memory().text
    }
}

impl DerefMut for Text {
    fn deref_mut(&mut self) -> &mut String {
        let _ = self.in_memory();
        &mut self.held.get_mut().expect("read just above").text
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.held.get(), &self.again) {
            (Some(held), _) => held.text.fmt(f),
            (None, Some(again)) => write!(f, "<not read: {again}>"),
            (None, None) => f.write_str("\"\""),
        }
    }
}
