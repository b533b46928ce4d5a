//! The one finding type every rule produces and every renderer formats.

use crate::source::{FileId, Span};
use serde::Serialize;

pub mod cap;

/// Rule ids of ignore comments read in one file (a comment that names none counts one). Beyond them the file's
/// ignores are not read (by `suppress`, nor collected from a module's comments): they suppress nothing, and one
/// `unused-ignore` finding at the first says so. A project needs a handful; a file of millions would cost a
/// finding, and memory, each.
pub const IGNORES_PER_FILE: usize = 1_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A place in a file, with an optional label text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub file: FileId,
    pub span: Span,
    pub message: Option<String>,
}

impl Label {
    pub fn new(file: FileId, span: impl Into<Span>) -> Self {
        Label { file, span: span.into(), message: None }
    }

    pub fn with_message(file: FileId, span: impl Into<Span>, message: impl Into<String>) -> Self {
        Label { file, span: span.into(), message: Some(message.into()) }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Safety {
    Safe,
    Unsafe,
}

/// Replace `span` of `file` by `content`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub file: FileId,
    pub span: Span,
    pub content: String,
}

/// What applying a finding's fix changes: byte-range edits, and files to delete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub safety: Safety,
    pub edits: Vec<Edit>,
    /// Project-relative paths of files the fix deletes (a leftover copy git reports unmodified).
    pub deletes: Vec<String>,
}

impl Fix {
    pub fn new(safety: Safety, edits: Vec<Edit>) -> Fix {
        Fix { safety, edits, deletes: Vec::new() }
    }

    pub fn delete(safety: Safety, path: String) -> Fix {
        Fix { safety, edits: Vec::new(), deletes: vec![path] }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    pub related: Vec<Label>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    pub fn new(rule: &'static str, severity: Severity, primary: Label, message: impl Into<String>) -> Self {
        Diagnostic { rule, severity, message: message.into(), primary, related: Vec::new(), help: None, fix: None }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn maybe_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    pub fn related(mut self, label: Label) -> Self {
        self.related.push(label);
        self
    }

    pub fn fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }
}
