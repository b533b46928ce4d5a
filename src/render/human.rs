//! `--format human`: a miette graphical report a finding, each ending with its rule's page (`docs: …`), then the
//! summary line.
//!
//! Files are lent to miette through `FileSource`, which borrows the text and
//! reads snippets by the file's line index (no copy, no scan from the start of
//! the file), and which reports UTF-16 columns like every other format.

use std::borrow::Cow;
use std::fmt;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan,
    SpanContents,
};

use crate::diagnostic::{Diagnostic, Safety, Severity};
use crate::render::{Summary, file, short, summary_line};
use crate::report::Report;
use crate::source::escape::escape;
use crate::source::{Lines, SourceFile, Sources, Span};

/// The report's width: fixed, so that output does not depend on the terminal.
const WIDTH: usize = 100;

pub fn render(report: &Report, color: bool) -> String {
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(WIDTH)
        .with_links(false)
        .without_syntax_highlighting()
        .with_context_lines(1);
    let mut out = String::new();
    for diagnostic in &report.diagnostics {
        let finding = Finding::of(&report.sources, diagnostic);
        let mut text = String::new();
        match handler.render_report(&mut text, &finding) {
            Ok(()) => out.push_str(&text),
            // miette gives up only when a snippet cannot be read; say it in one line instead.
            Err(fmt::Error) => out.push_str(&short::render_one(&report.sources, diagnostic)),
        }
        // The rule's page under the finding (as zizmor does): the address SARIF gives as `helpUri`.
        if let Some(rule) = crate::rules::find(diagnostic.rule) {
            out.push_str(&format!("  docs: {}\n", crate::rules::page_url(rule)));
        }
        out.push('\n');
    }
    out.push_str(&summary_line(&Summary::of(report)));
    out.push('\n');
    let fixable =
        |safety| report.diagnostics.iter().filter(|d| d.fix.as_ref().is_some_and(|f| f.safety == safety)).count();
    let (safe, unsafe_) = (fixable(Safety::Safe), fixable(Safety::Unsafe));
    if safe + unsafe_ > 0 {
        out.push_str(&format!("{safe} fixable with `--fix`, {unsafe_} more with `--unsafe-fixes`\n"));
    }
    out
}

/// The line under the summary of a report that joins several projects (a monorepo's root, several PATHs).
pub fn projects_line(linted: usize, with_findings: usize) -> String {
    format!("{linted} projects linted, {with_findings} with findings\n")
}

/// `[*]` after the rule of a finding `--fix` fixes, `[*] unsafe` for one only `--unsafe-fixes` does (as ruff).
fn fix_mark(d: &Diagnostic) -> &'static str {
    match d.fix.as_ref().map(|f| f.safety) {
        Some(Safety::Safe) => " [*]",
        Some(Safety::Unsafe) => " [*] unsafe",
        None => "",
    }
}

/// One finding as miette sees it.
#[derive(Debug)]
struct Finding<'a> {
    /// `severity[rule-id]`.
    code: Option<String>,
    message: Cow<'a, str>,
    severity: miette::Severity,
    source: Option<FileSource<'a>>,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
}

impl<'a> Finding<'a> {
    fn of(sources: &'a Sources, d: &'a Diagnostic) -> Self {
        let primary = file(sources, d.primary.file);
        let label_text = |message: &Option<String>| message.as_deref().map(|m| escape(m).into_owned());
        let mut labels: Vec<LabeledSpan> =
            primary.map(|f| label(f, d.primary.span, label_text(&d.primary.message), true)).into_iter().collect();
        // A place in another file is one line under the help (`see apps/a/beeuni.yaml:7:3: declared here`), not a
        // second snippet: module findings all carry their `tools:` entry, and a snippet each would repeat it.
        let mut help: Vec<String> =
            d.help.iter().filter(|help| !help.is_empty()).map(|help| escape(help).into_owned()).collect();
        for extra in &d.related {
            match file(sources, extra.file) {
                Some(f) if primary.is_some() && extra.file == d.primary.file => {
                    labels.push(label(f, extra.span, label_text(&extra.message), false))
                }
                Some(f) => {
                    let at = f.position(extra.span.start());
                    let what = escape(extra.message.as_deref().unwrap_or("related location"));
                    help.push(format!("see {}:{}:{}: {what}", escape(&f.shown), at.line, at.column));
                }
                None => {}
            }
        }
        Finding {
            code: Some(format!("{}[{}]{}", d.severity.as_str(), d.rule, fix_mark(d))),
            message: escape(&d.message),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
                Severity::Info => miette::Severity::Advice,
            },
            source: primary.map(FileSource::of),
            labels,
            help: (!help.is_empty()).then(|| help.join("\n")),
        }
    }
}

/// A miette label at `span` made safe to draw: inside the file, on
/// character boundaries, and never at the very end of the file, where miette
/// would draw no mark (it moves to the end of the last line, or onto the last
/// character when the file does not end in a line break).
fn label(file: &SourceFile, span: Span, message: Option<String>, primary: bool) -> LabeledSpan {
    let text = file.text.as_str();
    let mut start = floor_boundary(text, span.start().min(text.len()));
    let mut end = ceil_boundary(text, span.end().clamp(start, text.len()));
    if start == end && start == text.len() && !text.is_empty() {
        // miette draws nothing past the last character of the last line.
        let last = file.line_count() - 1;
        start = if last > 0 && file.line_start(last) == text.len() {
            file.line_span(last - 1).end()
        } else {
            floor_boundary(text, text.len() - 1)
        };
        end = start;
    }
    let span = SourceSpan::from(start..end);
    if primary { LabeledSpan::new_primary_with_span(message, span) } else { LabeledSpan::new_with_span(message, span) }
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

impl fmt::Display for Finding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Finding<'_> {}

impl miette::Diagnostic for Finding<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.code.as_ref().map(|code| Box::new(code) as Box<dyn fmt::Display + 'b>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help.as_ref().map(|help| Box::new(help) as Box<dyn fmt::Display + 'b>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|source| source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        (!self.labels.is_empty()).then(|| Box::new(self.labels.iter().cloned()) as Box<dyn Iterator<Item = _>>)
    }
}

/// A borrowed [`SourceFile`] as miette source code, named by its repo-relative path (escaped). Its text is what
/// miette prints of the snippet: made safe beforehand, offsets kept ([`crate::report::Report::make_terminal_safe`]).
#[derive(Debug)]
struct FileSource<'a>(Cow<'a, str>, Lines<'a>);

impl<'a> FileSource<'a> {
    fn of(file: &'a SourceFile) -> Self {
        FileSource(escape(&file.shown), file.lines())
    }
}

/// What miette is shown of an empty file: one empty line, so a label still has
/// somewhere to point.
const EMPTY_FILE: &[u8] = b"\n";

impl SourceCode for FileSource<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let file = self.1;
        let text = file.text.as_bytes();
        let name = self.0.to_string();
        if text.is_empty() {
            let contents = MietteSpanContents::new_named(name, EMPTY_FILE, (0, EMPTY_FILE.len()).into(), 0, 0, 1);
            return Ok(Box::new(contents));
        }
        let start = span.offset();
        let end = start.checked_add(span.len()).filter(|end| *end <= text.len()).ok_or(MietteError::OutOfBounds)?;
        let first = file.line_index(start);
        let last = file.line_index(if end > start { end - 1 } else { start });
        // Like miette's own readers: without lines before, the contents start
        // at the span (the column is then the span's own, in UTF-16 units).
        let (from, line, column) = match context_lines_before {
            0 => (start, first, file.position(start).column - 1),
            n => (file.line_start(first.saturating_sub(n)), first.saturating_sub(n), 0),
        };
        let end_line = (last + context_lines_after).min(file.line_count() - 1);
        // Whole lines, line break included, except for a read without lines after.
        let to = match context_lines_after {
            0 => end,
            _ => file.line_start(end_line + 1),
        };
        let data = text.get(from..to.max(from)).ok_or(MietteError::OutOfBounds)?;
        let contents =
            MietteSpanContents::new_named(name, data, (from, data.len()).into(), line, column, end_line - line + 1);
        Ok(Box::new(contents))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fixture;

    #[test]
    fn plain_report_shows_every_part() {
        let out = render(&fixture::report(), false);
        assert!(!out.contains('\u{1b}'), "{out}");
        for part in [
            "warning[odd-name]",
            "⚠ the name ends in `agent`",
            // The header column counts UTF-16 units, like `short` and JSON.
            "╭─[beeuni.yaml:1:15]",
            "1 │ name: démo 😀 agent",
            "╰── this word",
            // A related label in the same file is drawn in the same snippet.
            "╰── tools follow",
            // A finding `--fix` fixes is marked, as ruff marks it.
            "error[unknown-excluded-tool] [*]",
            "× unknown tool `bsh` in `exclude`",
            "╭─[beeuni.yaml:3:13]",
            "╰── not a tool",
            "help: did you mean `bash`?",
            // A related label in another file is one line under the help, not a second snippet.
            "help: did you mean `bash`?\n        see tools/bash.ts:1:14: `bash` is defined here\n",
            "info[empty-value]",
            "╭─[beeuni.yaml:4:7]",
        ] {
            assert!(out.contains(part), "missing {part:?} in\n{out}");
        }
        // The zero-width span still gets a mark, under the end of `model:`.
        assert!(out.contains("4 │ model:\n   ·       ▲\n"), "{out}");
        assert!(
            out.ends_with(
                "╰────\n\n1 error, 1 warning, 1 info in 2 files\n1 fixable with `--fix`, 0 more with `--unsafe-fixes`\n"
            ),
            "{out}"
        );
        assert_eq!(out, render(&fixture::report(), false));
    }

    #[test]
    fn a_finding_of_a_known_rule_ends_with_its_page() {
        let mut report = fixture::report();
        report.diagnostics[1].rule = "agent-tools-shape";
        let out = render(&report, false);
        let page = crate::rules::page_url(crate::rules::find("agent-tools-shape").unwrap());
        assert!(page.ends_with("/rules/agent-tools-shape.html"), "{page}");
        // One line under the finding (after its help); a rule the registry does not know (the fixture's others) has
        // none.
        let under = format!("\n        see tools/bash.ts:1:14: `bash` is defined here\n  docs: {page}\n\n");
        assert!(out.contains(&under), "{out}");
        assert_eq!(out.matches("  docs: ").count(), 1, "{out}");
    }

    #[test]
    fn color_report_is_styled() {
        let out = render(&fixture::report(), true);
        assert!(out.contains("\u{1b}["));
        assert!(out.contains("unknown-excluded-tool") && out.contains("beeuni.yaml:3:13"));
    }

    #[test]
    fn clean_report_is_the_summary() {
        let mut report = fixture::report();
        report.diagnostics.clear();
        assert_eq!(render(&report, false), "no problems in 2 files\n");
    }

    #[test]
    fn edge_spans_render_without_panic() {
        let out = render(&fixture::edge_report(), false);
        for part in
            ["╭─[empty.yaml:1:1]\n 1 │ \n   · ▲\n", "⚠ at the end", "╭─[crlf.yaml:2:5]", "inside `ü`", "no such file"]
        {
            assert!(out.contains(part), "missing {part:?} in\n{out}");
        }
        // The span at the very end is drawn after the last line's text.
        assert!(out.contains("⚠ at the end\n   ╭─[crlf.yaml:2:5]\n 1 │ a: b\n 2 │ c: ü\n   ·     ▲\n"), "{out}");
        // Without a final line break, the mark goes under the last character.
        assert!(out.contains("no line break\n   ╭─[noeol.yaml:1:4]\n 1 │ a: é\n   ·    ▲\n"), "{out}");
    }

    #[test]
    fn file_source_reads_whole_lines_with_context() {
        let file = SourceFile::new("f", "a\nbb\nccc\ndd\n".into());
        let source = FileSource::of(&file);
        let contents = source.read_span(&(5..6).into(), 1, 1).unwrap();
        assert_eq!(contents.data(), b"bb\nccc\ndd\n");
        assert_eq!((contents.line(), contents.column(), contents.line_count()), (1, 0, 3));
        assert_eq!(contents.name(), Some("f"));
        let contents = source.read_span(&(6..7).into(), 0, 0).unwrap();
        assert_eq!((contents.line(), contents.column(), contents.data()), (2, 1, &b"c"[..]));
        assert!(source.read_span(&(10..20).into(), 1, 1).is_err());
    }
}
