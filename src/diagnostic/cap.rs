//! At most [`PER_RULE_PER_FILE`] findings of one rule in one file reach the report: a file built to repeat one
//! mistake (ten million ignore comments, say) would otherwise make a report of gigabytes that no reader reads.
//! The rest become one summary finding of that rule, at the first place not shown, that says how many there are.

use super::{Diagnostic, Label};
use crate::source::FileId;
use std::collections::HashMap;

/// Findings of one rule shown in one file; beyond them, one summary.
pub const PER_RULE_PER_FILE: usize = 100;

/// Keeps the first [`PER_RULE_PER_FILE`] findings of each rule in each file (in the order given: the report's)
/// and puts one summary in place of the rest, at the first of them, with the highest severity among them (so
/// that `--fail-on` fails as it would have). Runs last: after ignores, levels and `--min-severity`, whose
/// findings would otherwise be counted.
pub fn per_rule_per_file(diagnostics: &mut Vec<Diagnostic>) {
    let mut totals: HashMap<(FileId, &'static str), usize> = HashMap::new();
    for diagnostic in diagnostics.iter() {
        *totals.entry((diagnostic.primary.file, diagnostic.rule)).or_default() += 1;
    }
    if totals.values().all(|&total| total <= PER_RULE_PER_FILE) {
        return;
    }
    let mut worst = HashMap::new();
    for diagnostic in diagnostics.iter() {
        let severity = worst.entry((diagnostic.primary.file, diagnostic.rule)).or_insert(diagnostic.severity);
        *severity = (*severity).max(diagnostic.severity);
    }
    let mut seen: HashMap<(FileId, &'static str), usize> = HashMap::new();
    diagnostics.retain_mut(|diagnostic| {
        let key = (diagnostic.primary.file, diagnostic.rule);
        let count = seen.entry(key).or_default();
        *count += 1;
        if *count <= PER_RULE_PER_FILE {
            return true;
        }
        if *count > PER_RULE_PER_FILE + 1 {
            return false;
        }
        let more = totals[&key] - PER_RULE_PER_FILE;
        *diagnostic = summary(diagnostic, more, worst[&key]);
        true
    });
}

fn summary(first_dropped: &Diagnostic, more: usize, severity: super::Severity) -> Diagnostic {
    let rule = first_dropped.rule;
    let message = format!(
        "… and {more} more `{rule}` findings in this file (at most {PER_RULE_PER_FILE} of a rule are shown per file)"
    );
    let at = Label::new(first_dropped.primary.file, first_dropped.primary.span);
    Diagnostic::new(rule, severity, at, message)
        .help(format!("fix the `{rule}` findings shown and run again to see the rest"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::source::Span;

    fn finding(file: FileId, rule: &'static str, at: usize, severity: Severity) -> Diagnostic {
        Diagnostic::new(rule, severity, Label::new(file, Span::empty(at)), format!("{rule} at {at}"))
    }

    #[test]
    fn keeps_the_first_of_each_rule_in_each_file_and_sums_up_the_rest() {
        let mut diagnostics = Vec::new();
        for at in 0..PER_RULE_PER_FILE + 5 {
            diagnostics.push(finding(0, "a", at, if at == 103 { Severity::Error } else { Severity::Info }));
            diagnostics.push(finding(0, "b", at, Severity::Warning));
            diagnostics.push(finding(1, "a", at, Severity::Info));
        }
        diagnostics.push(finding(2, "a", 0, Severity::Info));
        per_rule_per_file(&mut diagnostics);
        let of = |file, rule| diagnostics.iter().filter(|d| d.primary.file == file && d.rule == rule).count();
        assert_eq!((of(0, "a"), of(0, "b"), of(1, "a"), of(2, "a")), (101, 101, 101, 1));
        let summary = diagnostics.iter().find(|d| d.message.starts_with('…') && d.primary.file == 0 && d.rule == "a");
        let summary = summary.expect("a summary");
        assert_eq!(summary.primary.span, Span::empty(PER_RULE_PER_FILE));
        assert_eq!(summary.severity, Severity::Error, "the worst of those not shown");
        assert_eq!(
            summary.message,
            "… and 5 more `a` findings in this file (at most 100 of a rule are shown per file)"
        );
        // In place: the order is the report's.
        let position = diagnostics.iter().position(|d| std::ptr::eq(d, summary)).expect("there");
        assert_eq!(diagnostics[position + 1].rule, "b");
    }

    #[test]
    fn leaves_a_report_under_the_cap_as_it_is() {
        let mut diagnostics: Vec<_> = (0..PER_RULE_PER_FILE).map(|at| finding(0, "a", at, Severity::Info)).collect();
        let before = diagnostics.clone();
        per_rule_per_file(&mut diagnostics);
        assert_eq!(diagnostics, before);
    }
}
