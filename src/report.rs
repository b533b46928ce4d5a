//! What a run hands to a renderer.

use crate::diagnostic::{Diagnostic, Severity};
use crate::source;

/// What a run found: every file it read and every finding, sorted.
pub struct Report {
    pub sources: source::Sources,
    pub diagnostics: Vec<Diagnostic>,
    /// how many files were checked (for the summary line)
    pub files: usize,
}

impl Report {
    /// Makes the text of every file a finding points into (renderers show no other) safe to print in a snippet
    /// (see [`source::escape::same_length`]); the renderers escape messages, helps and paths themselves.
    pub fn make_terminal_safe(&mut self) {
        let mut shown = vec![false; self.sources.len()];
        for diagnostic in &self.diagnostics {
            for label in std::iter::once(&diagnostic.primary).chain(&diagnostic.related) {
                if let Some(shown) = shown.get_mut(label.file) {
                    *shown = true;
                }
            }
        }
        for (file, _) in self.sources.iter_mut().zip(shown).filter(|(_, shown)| *shown) {
            file.text.make_terminal_safe();
        }
    }

    /// Is any finding at or above `threshold`?
    pub fn fails(&self, threshold: Option<Severity>) -> bool {
        threshold.is_some_and(|t| self.diagnostics.iter().any(|d| d.severity >= t))
    }
}
