//! Output formats of `check`: a human report (miette), one line a finding, JSON, SARIF, GitHub annotations,
//! GitLab Code Quality and JUnit XML.
//!
//! Every renderer takes the [`Report`] as it is: diagnostics arrive sorted and
//! are written in that order. Positions are 1-based lines and UTF-16 columns
//! (see [`SourceFile::position`]). The text renderers (human, short, github) pass every message, help and path
//! through [`crate::source::escape`]; JSON, SARIF and GitLab's report are data, escaped by serde; JUnit escapes
//! for XML (`junit`).

pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;
pub mod several;
pub mod short;

use crate::diagnostic::Severity;
use crate::report::Report;
use crate::source::{FileId, Position, SourceFile, Sources, Span};

/// Counts for the summary line and JSON summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub error: usize,
    pub warning: usize,
    pub info: usize,
    pub files: usize,
}

impl Summary {
    pub fn of(report: &Report) -> Summary {
        let mut summary = Summary { files: report.files, ..Summary::default() };
        for diagnostic in &report.diagnostics {
            match diagnostic.severity {
                Severity::Error => summary.error += 1,
                Severity::Warning => summary.warning += 1,
                Severity::Info => summary.info += 1,
            }
        }
        summary
    }
}

/// `3 errors, 1 warning in 4 files`, `1 error, 2 warnings, 1 info in 1 file`,
/// or `no problems in 4 files`; zero counts are left out.
pub fn summary_line(s: &Summary) -> String {
    let counts: Vec<String> =
        [(s.error, "error", "errors"), (s.warning, "warning", "warnings"), (s.info, "info", "infos")]
            .into_iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, one, many)| plural(n, one, many))
            .collect();
    let files = plural(s.files, "file", "files");
    if counts.is_empty() { format!("no problems in {files}") } else { format!("{} in {files}", counts.join(", ")) }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The file of a label, or `None` for an id that is not in `sources` (a bug
/// elsewhere, which a renderer must survive rather than panic on).
pub(crate) fn file(sources: &Sources, id: FileId) -> Option<&SourceFile> {
    (id < sources.len()).then(|| sources.get(id))
}

/// Where a span lies: its file's path (as the repository has it: a text renderer escapes it) and the start and
/// end positions.
pub(crate) struct Location<'a> {
    pub path: &'a str,
    pub start: Position,
    pub end: Position,
}

pub(crate) fn locate(sources: &Sources, id: FileId, span: Span) -> Location<'_> {
    match file(sources, id) {
        Some(file) => {
            Location { path: &file.shown, start: file.position(span.start()), end: file.position(span.end()) }
        }
        None => {
            let unknown = Position { line: 1, column: 1 };
            Location { path: "", start: unknown, end: unknown }
        }
    }
}

#[cfg(test)]
pub(crate) mod fixture {
    //! A small hand-built report shared by the renderers' tests.

    use crate::diagnostic::{Diagnostic, Edit, Fix, Label, Safety, Severity};
    use crate::report::Report;
    use crate::source::{SourceFile, Sources, Span};

    pub const YAML: &str = "name: démo 😀 agent\ntools:\n  exclude: [bsh]\nmodel:\n";
    pub const MODULE: &str = "export const bash = tool({\n  name: \"bash\",\n});\n";

    fn span_of(text: &str, needle: &str) -> Span {
        let start = text.find(needle).unwrap();
        Span::new(start, start + needle.len())
    }

    pub fn report() -> Report {
        let mut sources = Sources::default();
        let yaml = sources.add(SourceFile::new("beeuni.yaml", YAML.into()));
        let module = sources.add(SourceFile::new("tools/bash.ts", MODULE.into()));
        let bsh = span_of(YAML, "bsh");
        let diagnostics = vec![
            // `agent` follows `é` (2 bytes, 1 UTF-16 unit) and `😀` (4 bytes, 2 units).
            Diagnostic::new(
                "odd-name",
                Severity::Warning,
                Label::with_message(yaml, span_of(YAML, "agent"), "this word"),
                "the name ends in `agent`",
            )
            .related(Label::with_message(yaml, span_of(YAML, "tools"), "tools follow")),
            Diagnostic::new(
                "unknown-excluded-tool",
                Severity::Error,
                Label::with_message(yaml, bsh, "not a tool"),
                "unknown tool `bsh` in `exclude`",
            )
            .help("did you mean `bash`?")
            .related(Label::with_message(module, span_of(MODULE, "bash"), "`bash` is defined here"))
            .fix(Fix::new(Safety::Safe, vec![Edit { file: yaml, span: bsh, content: "bash".into() }])),
            // An empty value: a zero-width span right after `model:`.
            Diagnostic::new(
                "empty-value",
                Severity::Info,
                Label::new(yaml, Span::empty(YAML.find("model:").unwrap() + 6)),
                "`model` has no value",
            ),
        ];
        Report { sources, diagnostics, files: 2 }
    }

    /// Spans at and past the end of files, an empty file and a bad file id.
    pub fn edge_report() -> Report {
        let mut sources = Sources::default();
        let empty = sources.add(SourceFile::new("empty.yaml", String::new()));
        let text = "a: b\r\nc: ü\n";
        let crlf = sources.add(SourceFile::new("crlf.yaml", text.into()));
        let eof = text.len();
        let noeol = sources.add(SourceFile::new("noeol.yaml", "a: é".into()));
        let diagnostics = vec![
            Diagnostic::new("r", Severity::Error, Label::new(empty, Span::new(0, 5)), "empty file"),
            Diagnostic::new("r", Severity::Warning, Label::new(crlf, Span::empty(eof)), "at the end"),
            Diagnostic::new("r", Severity::Info, Label::new(crlf, Span::new(eof - 1, eof + 9)), "past the end")
                .related(Label::new(99, Span::empty(0))),
            Diagnostic::new("r", Severity::Info, Label::new(crlf, Span::new(eof - 2, eof - 1)), "inside `ü`"),
            Diagnostic::new("r", Severity::Error, Label::new(42, Span::new(1, 2)), "no such file"),
            Diagnostic::new("r", Severity::Info, Label::new(noeol, Span::empty(5)), "no line break"),
        ];
        Report { sources, diagnostics, files: 2 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_severities() {
        let summary = Summary::of(&fixture::report());
        assert_eq!(summary, Summary { error: 1, warning: 1, info: 1, files: 2 });
    }

    #[test]
    fn summary_line_omits_zero_counts() {
        let line = |error, warning, info, files| summary_line(&Summary { error, warning, info, files });
        assert_eq!(line(3, 1, 0, 4), "3 errors, 1 warning in 4 files");
        assert_eq!(line(1, 2, 1, 1), "1 error, 2 warnings, 1 info in 1 file");
        assert_eq!(line(0, 0, 2, 3), "2 infos in 3 files");
        assert_eq!(line(0, 0, 0, 4), "no problems in 4 files");
        assert_eq!(line(0, 0, 0, 1), "no problems in 1 file");
    }
}
