//! `partialFingerprints`: stable identities for findings, so code scanning tracks them across commits.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::render::file;
use crate::report::Report;
use crate::source::FileId;

/// `partialFingerprints` that survive unrelated edits: a hash of the rule, the path, the primary line's trimmed
/// text, how many lines above it in the file have that same text, where the finding starts in that text, and its
/// message (two secrets not granted on one line are two alerts, which code scanning would merge under one
/// fingerprint). No line number goes in, so lines added or removed elsewhere change nothing. Findings still alike
/// in all of that are told apart by their order in the report (it is sorted, so the same from run to run). Numbers
/// in the message are left out: a count changes without the finding being another one.
#[derive(Default)]
pub(crate) struct Fingerprints {
    /// Per file, per 0-based line: how many earlier lines have the same trimmed text.
    occurrences: HashMap<FileId, Vec<usize>>,
    /// How many findings of the run had each fingerprint so far.
    given: HashMap<String, usize>,
}

impl Fingerprints {
    pub(crate) fn of(&mut self, report: &Report, d: &Diagnostic) -> String {
        let print = self.located(report, d);
        let repeats = self.given.entry(print.clone()).or_default();
        *repeats += 1;
        match *repeats {
            1 => print,
            n => fnv1a(&[&print, &(n - 1).to_string()]),
        }
    }

    fn located(&mut self, report: &Report, d: &Diagnostic) -> String {
        let Some(source) = file(&report.sources, d.primary.file) else {
            return fnv1a(&[d.rule, "", "", "0", "0", &without_numbers(&d.message)]);
        };
        let start = d.primary.span.start().min(source.text.len());
        let line = source.line_index(start);
        let line_span = source.line_span(line);
        let text = source.slice(line_span);
        let indent = text.len() - text.trim_start().len();
        let within = start.saturating_sub(line_span.start() + indent);
        let occurrences = self.occurrences.entry(d.primary.file).or_insert_with(|| {
            let mut seen: HashMap<&str, usize> = HashMap::new();
            (0..source.line_count())
                .map(|line| {
                    let count = seen.entry(source.slice(source.line_span(line)).trim()).or_default();
                    *count += 1;
                    *count - 1
                })
                .collect()
        });
        let occurrence = occurrences.get(line).copied().unwrap_or_default();
        fnv1a(&[
            d.rule,
            &source.shown,
            text.trim(),
            &occurrence.to_string(),
            &within.to_string(),
            &without_numbers(&d.message),
        ])
    }
}

/// The message with each run of digits as `#`: a count in a message ("… and 37 more `rule` findings in this
/// file") changes from run to run without the finding being another one.
fn without_numbers(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for c in message.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// 64-bit FNV-1a over the parts, each followed by a 0xff byte (never in UTF-8), as 16 hex digits.
fn fnv1a(parts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in parts.iter().flat_map(|part| part.bytes().chain([0xff])) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::super::validator::parse;
    use super::super::{FINGERPRINT_KEY, render};
    use crate::diagnostic::{Diagnostic, Label, Severity};
    use crate::report::Report;
    use crate::source::{SourceFile, Sources, Span};
    use serde_json::Value;

    #[test]
    fn fingerprints_ignore_line_numbers() {
        let prints = |text: &str| -> Vec<Value> {
            let mut sources = Sources::default();
            let file = sources.add(SourceFile::new("a b.yaml", text.into()));
            let at = |(at, _)| Diagnostic::new("r", Severity::Error, Label::new(file, Span::new(at, at + 3)), "m");
            let diagnostics = text.match_indices("bsh").map(at).collect();
            let log = parse(&render(&Report { sources, diagnostics, files: 1 }, "0.1.0"));
            let results = log["runs"][0]["results"].as_array().unwrap().clone();
            assert_eq!(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "a%20b.yaml");
            results.iter().map(|r| r["partialFingerprints"][FINGERPRINT_KEY].clone()).collect()
        };
        let before = prints("a: [bsh]\nb: [bsh, bsh]\n  a: [bsh]\n");
        // Lines above, indentation and trailing blanks change nothing.
        assert_eq!(prints("# new\n\nx: 1\na: [bsh]\nb: [bsh, bsh]\n    a: [bsh]  \n"), before);
        // Two findings on one line, and two lines of the same text, are told apart.
        assert!(before.iter().enumerate().all(|(i, print)| !before[..i].contains(print)));
    }

    #[test]
    fn findings_at_one_place_get_fingerprints_of_their_own() {
        let prints = |messages: &[&str]| -> Vec<Value> {
            let mut sources = Sources::default();
            let file = sources.add(SourceFile::new("beeuni.yaml", "agents:\n  a: {secrets: [X, Y]}\n".into()));
            let at = |m: &&str| Diagnostic::new("r", Severity::Error, Label::new(file, Span::new(12, 13)), *m);
            let diagnostics = messages.iter().map(at).collect();
            let log = parse(&render(&Report { sources, diagnostics, files: 1 }, "0.1.0"));
            let results = log["runs"][0]["results"].as_array().unwrap().clone();
            results.iter().map(|r| r["partialFingerprints"][FINGERPRINT_KEY].clone()).collect()
        };
        // Different messages at one span: different alerts.
        let two = prints(&["secret `X`", "secret `Y`"]);
        assert_ne!(two[0], two[1]);
        // The same message three times at one span: still three, and the same three on the next run.
        let three = prints(&["m", "m", "m"]);
        assert!(three.iter().enumerate().all(|(i, print)| !three[..i].contains(print)), "{three:?}");
        assert_eq!(prints(&["m", "m", "m"]), three);
        // The first keeps the fingerprint it had alone.
        assert_eq!(prints(&["m"])[0], three[0]);
        // A summary whose count changed is the same alert.
        assert_eq!(prints(&["… and 37 more `r` findings"]), prints(&["… and 412 more `r` findings"]));
    }
}
