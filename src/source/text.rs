//! A file's text, held or let go and read again the first time something asks for it (see [`super`]).

use crate::repo::git::GitRepo;
use gix::ObjectId;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Where a text that was let go is read again: the same checkout source it was first read from.
pub enum Reread {
    /// A work-tree file, as [`crate::repo::fs::resolve`] found it inside the repository (never a symlink out).
    Disk(crate::repo::fs::RealPath),
    /// A git blob (a file of the index or of a commit's tree).
    Blob(Arc<GitRepo>, ObjectId),
}

/// How many texts were read again (for `BEEUNI_LINT_STATS`, see [`crate::stats`]).
pub static TEXTS_READ_AGAIN: AtomicUsize = AtomicUsize::new(0);

impl Reread {
    /// The text as the source holds it now; empty when it cannot be read any more (deleted since).
    fn read(&self) -> String {
        TEXTS_READ_AGAIN.fetch_add(1, Ordering::Relaxed);
        let bytes = match self {
            Reread::Disk(real) => crate::repo::fs::read_resolved(&real.path()).ok(),
            Reread::Blob(git, id) => git.read_blob(*id).ok(),
        };
        bytes
            .map(|bytes| String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
            .unwrap_or_default()
    }
}

/// A file's text: held, or read again on first use (it dereferences to the `String`, so that every reader of
/// a file's text is unchanged and only what is read pays).
pub struct Text {
    /// The text once in memory, with its line table. Boxed: a text let go (every module's of a large project, kept
    /// to the end of the run) costs its file 16 bytes here, where the text and the table beside it took 56.
    held: OnceLock<Box<Held>>,
    again: Option<Reread>,
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
    pub fn later(again: Reread) -> Self {
        Text { held: OnceLock::new(), again: Some(again), terminal_safe: false }
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
            let text = self.again.as_ref().map(Reread::read).unwrap_or_default();
            Held::new(match self.terminal_safe {
                true => super::escape::same_length(&text).unwrap_or(text),
                false => text,
            })
        })
    }

    /// The text with where each of its lines starts (the table built now if not yet).
    pub(super) fn with_line_starts(&self) -> (&str, &[u32]) {
        let held = self.in_memory();
        let starts = held.line_starts.get_or_init(|| super::line_starts(&held.text));
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
        #[allow(clippy::expect_used, reason = "`in_memory` just above fills `held`")]
        &mut self.held.get_mut().expect("read just above").text
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.held.get(), &self.again) {
            (Some(held), _) => held.text.fmt(f),
            (None, Some(Reread::Disk(real))) => write!(f, "<not read: {}>", real.path().display()),
            (None, Some(Reread::Blob(_, id))) => write!(f, "<not read: blob {id}>"),
            (None, None) => f.write_str("\"\""),
        }
    }
}
