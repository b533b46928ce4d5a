//! `check --base REV --policy`: the verdict as findings of `policy-gain` in the check's report, so that every check
//! format (SARIF, GitHub annotations, JSON, human) carries them. They join after ignores and the head's config were
//! applied: neither an ignore comment nor a level the change sets silences them.

use super::{Verdict, severity};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::report::Report;
use crate::rules::policy_gain;
use crate::source::{FileId, SourceFile, Span};
use std::collections::HashMap;

/// Adds the verdict's findings at or above `min` to `report` (and the head's config to its files, when a finding
/// points into it).
pub fn add(report: &mut Report, verdict: &Verdict, min: Severity) {
    // The files by the path shown, the first of a path (each finding looked for among every module's file was
    // findings times files).
    let mut by_shown: HashMap<String, FileId> = HashMap::new();
    for (at, file) in report.sources.iter_mut().enumerate() {
        by_shown.entry(file.shown.to_string()).or_insert(at);
    }
    for finding in &verdict.findings {
        let severity = severity(verdict, finding);
        if severity < min {
            continue;
        }
        let file = match by_shown.get(&finding.path) {
            Some(&file) => file,
            None => {
                let config = verdict.config.as_ref().filter(|(path, _)| *path == finding.path);
                let text = config.map(|(_, text)| text.clone()).unwrap_or_default();
                let file = report.sources.add_shown(SourceFile::new(finding.path.as_str(), text));
                by_shown.insert(finding.path.clone(), file);
                file
            }
        };
        let span = span_at(report.sources.get(file), finding.line, finding.column);
        let message =
            if finding.approved { format!("{} (approved)", finding.message) } else { finding.message.clone() };
        report.diagnostics.push(Diagnostic::new(policy_gain::RULE.id, severity, Label::new(file, span), message));
    }
    // Path, line, column, rule: the order every format prints (as the check's own findings are sorted).
    let sources = &report.sources;
    report.diagnostics.sort_by_cached_key(|d| {
        let file = sources.get(d.primary.file);
        (file.shown.clone(), file.line_index(d.primary.span.start()), d.primary.span.start(), d.rule, d.message.clone())
    });
}

/// The empty span at `line`:`column` (columns counted in characters; clamped to the line).
fn span_at(file: &SourceFile, line: usize, column: usize) -> Span {
    let lines = file.lines();
    if lines.line_count() == 0 || line == 0 {
        return Span::empty(0);
    }
    let line_span = lines.line_span(line.min(lines.line_count()) - 1);
    let text = &lines.text[line_span.range()];
    let offset = text.char_indices().nth(column.saturating_sub(1)).map_or(text.len(), |(at, _)| at);
    Span::empty(line_span.start() + offset)
}
