//! `--format github`: one GitHub Actions workflow command a finding, which the runner turns into an annotation
//! on the file, then a one-line count; and [`step_summary`], a Markdown table for `$GITHUB_STEP_SUMMARY`.
//!
//! `::error file=beeuni.yaml,line=3,col=13,endLine=3,endColumn=16,title=beeuni-lint (unknown-excluded-tool)::…`:
//! `error`, `warning`, and `notice` for info. Columns are UTF-16 code units, as GitHub counts them; a span over
//! several lines has no columns (the runner drops columns whose lines differ). The help and the related
//! locations follow the message, each on a line of its own.

mod prose;

use crate::diagnostic::{Diagnostic, Severity};
use crate::render::{Summary, locate, summary_line};
use crate::report::Report;
use crate::source::escape::{code_span, escape};

/// GitHub shows at most this many annotations of each type for a step.
const SHOWN_A_TYPE: usize = 10;
/// `$GITHUB_STEP_SUMMARY` takes at most 1 MiB a step: rows past this many are counted, not listed.
const SUMMARY_ROWS: usize = 1_000;
/// Messages (and helps) longer than this (in characters) are cut in the summary table.
const SUMMARY_MESSAGE: usize = 500;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        out.push_str(&annotation(report, d));
        out.push('\n');
    }
    let summary = Summary::of(report);
    out.push_str("beeuni-lint: ");
    out.push_str(&summary_line(&summary));
    if [summary.error, summary.warning, summary.info].iter().any(|&n| n > SHOWN_A_TYPE) {
        out.push_str(
            " (GitHub shows only 10 annotations of a type per step: the log above and the job summary list all)",
        );
    }
    out.push('\n');
    out
}

/// The workflow command of one finding, without its line break.
fn annotation(report: &Report, d: &Diagnostic) -> String {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let at = locate(&report.sources, d.primary.file, d.primary.span);
    let mut properties = Vec::new();
    // A label whose file is unknown (a bug elsewhere) still annotates the run, with no place.
    if !at.path.is_empty() {
        properties.push(format!("file={}", property(&escape(at.path))));
        properties.push(format!("line={}", at.start.line));
        if at.start.line == at.end.line {
            properties.push(format!("col={}", at.start.column));
        }
        properties.push(format!("endLine={}", at.end.line));
        if at.start.line == at.end.line {
            properties.push(format!("endColumn={}", at.end.column));
        }
    }
    properties.push(format!("title={}", property(&format!("beeuni-lint ({})", d.rule))));
    // The line breaks the annotation shows are the renderer's own: every part is escaped.
    let mut message = escape(&d.message).into_owned();
    if let Some(help) = d.help.as_deref().filter(|help| !help.is_empty()) {
        message.push_str(&format!("\nhelp: {}", escape(help)));
    }
    for label in &d.related {
        let at = locate(&report.sources, label.file, label.span);
        message.push_str(&format!("\n{}:{}:{}", escape(at.path), at.start.line, at.start.column));
        if let Some(text) = &label.message {
            message.push_str(&format!(": {}", escape(text)));
        }
    }
    format!("::{command} {}::{}", properties.join(","), data(&message))
}

/// Escapes a command's message as the runner expects: `%`, CR and LF.
fn data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a property value: as [`data`], and `:` and `,`, which end values.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// A Markdown summary for `$GITHUB_STEP_SUMMARY`: a heading, the count, and a table of the findings (rule,
/// severity, location, message), at most `SUMMARY_ROWS` (1,000) rows. The caller appends it to the file that
/// variable names, when it is set. The location is a code span ([`code_span`]); the message and its help are
/// prose whose quoted names are code spans ([`prose::prose`]): no text of the repository can form a link, an
/// image, HTML or a mention there.
pub fn step_summary(report: &Report) -> String {
    let mut out = format!("### beeuni-lint\n\n{}\n", summary_line(&Summary::of(report)));
    if report.diagnostics.is_empty() {
        return out;
    }
    out.push_str("\n| Rule | Severity | Location | Message |\n| --- | --- | --- | --- |\n");
    for d in report.diagnostics.iter().take(SUMMARY_ROWS) {
        let at = locate(&report.sources, d.primary.file, d.primary.span);
        let location = code_span(&format!("{}:{}:{}", escape(at.path), at.start.line, at.start.column));
        let mut message = prose::prose(&cut(&escape(&d.message)));
        if let Some(help) = d.help.as_deref().filter(|help| !help.is_empty()) {
            message.push_str(&format!("<br>help: {}", prose::prose(&cut(&escape(help)))));
        }
        out.push_str(&format!("| {} | {} | {location} | {message} |\n", d.rule, d.severity.as_str()));
    }
    if let Some(more) = report.diagnostics.len().checked_sub(SUMMARY_ROWS).filter(|&n| n > 0) {
        out.push_str(&format!("\n… and {more} more: see the step's log.\n"));
    }
    out
}

/// `text` within `SUMMARY_MESSAGE` characters, its end replaced by `…` when it is longer.
fn cut(text: &str) -> String {
    if text.chars().count() <= SUMMARY_MESSAGE {
        return text.to_owned();
    }
    text.chars().take(SUMMARY_MESSAGE - 1).chain(['…']).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Label;
    use crate::render::fixture;
    use crate::source::{SourceFile, Sources, Span};

    #[test]
    fn one_command_a_finding_then_the_count() {
        let expected = [
            "::warning file=beeuni.yaml,line=1,col=15,endLine=1,endColumn=20,title=beeuni-lint (odd-name)::\
             the name ends in `agent`%0Abeeuni.yaml:2:1: tools follow",
            "::error file=beeuni.yaml,line=3,col=13,endLine=3,endColumn=16,title=beeuni-lint (unknown-excluded-tool)::\
             unknown tool `bsh` in `exclude`%0Ahelp: did you mean `bash`?%0Atools/bash.ts:1:14: `bash` is defined here",
            "::notice file=beeuni.yaml,line=4,col=7,endLine=4,endColumn=7,title=beeuni-lint (empty-value)::\
             `model` has no value",
            "beeuni-lint: 1 error, 1 warning, 1 info in 2 files",
            "",
        ];
        assert_eq!(render(&fixture::report()), expected.join("\n"));
    }

    #[test]
    fn values_are_escaped() {
        assert_eq!(data("100%\r\nsure: a,b"), "100%25%0D%0Asure: a,b");
        assert_eq!(property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        let mut sources = Sources::default();
        let text = "a:\n  b: [x]\n";
        let file = sources.add(SourceFile::new("dir,1/we:ird%\u{1b}\u{202e}.yaml", text.into()));
        let diagnostics = vec![
            Diagnostic::new("r", Severity::Error, Label::new(file, Span::new(0, 7)), "two\r\nlines: 50%").help("a,b"),
            Diagnostic::new("r", Severity::Info, Label::new(7, Span::empty(0)), "::stop-commands::x"),
        ];
        let report = Report { sources, diagnostics, files: 1 };
        let lines: Vec<String> = render(&report).lines().map(String::from).collect();
        // Over two lines: no columns. An unknown file: no place at all. A line break of the message is the
        // message's (escaped); only the renderer's own (before `help:`) is the annotation's.
        let first = "::error file=dir%2C1/we%3Aird%25\\u{1b}\\u{202e}.yaml,line=1,endLine=2,title=beeuni-lint (r)::";
        assert_eq!(lines[0], format!("{first}two\\r\\nlines: 50%25%0Ahelp: a,b"));
        assert_eq!(lines[1], "::notice title=beeuni-lint (r)::::stop-commands::x");
        assert_eq!(lines[2], "beeuni-lint: 1 error, 1 info in 1 file");
    }

    #[test]
    fn the_count_warns_past_ten_of_a_type() {
        let mut report = fixture::report();
        let warning = report.diagnostics[0].clone();
        report.diagnostics.extend(std::iter::repeat_n(warning, 10));
        let text = render(&report);
        assert_eq!(text.lines().count(), 14);
        assert!(text.ends_with(
            "beeuni-lint: 1 error, 11 warnings, 1 info in 2 files \
             (GitHub shows only 10 annotations of a type per step: the log above and the job summary list all)\n"
        ));
    }

    #[test]
    fn step_summary_table() {
        let mut report = fixture::report();
        report.diagnostics[2].message = "a | b\nc `![x](http://e/x.png)`".into();
        let expected = "### beeuni-lint\n\n1 error, 1 warning, 1 info in 2 files\n\n\
            | Rule | Severity | Location | Message |\n| --- | --- | --- | --- |\n\
            | odd-name | warning | `beeuni.yaml:1:15` | the name ends in `agent` |\n\
            | unknown-excluded-tool | error | `beeuni.yaml:3:13` | \
            unknown tool `bsh` in `exclude`<br>help: did you mean `bash`? |\n\
            | empty-value | info | `beeuni.yaml:4:7` | a \\| b\\\\nc `![x](http://e/x.png)` |\n";
        assert_eq!(step_summary(&report), expected);
        report.diagnostics.clear();
        assert_eq!(step_summary(&report), "### beeuni-lint\n\nno problems in 2 files\n");
        report.diagnostics = vec![fixture::report().diagnostics[2].clone(); SUMMARY_ROWS + 2];
        let summary = step_summary(&report);
        assert_eq!(summary.lines().filter(|l| l.starts_with("| empty-value")).count(), SUMMARY_ROWS);
        assert!(summary.ends_with("\n… and 2 more: see the step's log.\n"));
    }
}
