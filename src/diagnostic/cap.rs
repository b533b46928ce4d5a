//! At most [`PER_RULE_PER_FILE`] findings of one rule in one file reach the report, and [`PER_RULE`] of one rule
//! in all: a file built to repeat one mistake (ten million ignore comments, say), or a thousand files built to
//! repeat it a hundred times each, would otherwise make a report of gigabytes that no reader reads. The rest
//! become one summary finding of that rule, at the first place not shown, that says how many there are: one for
//! the file, or one for the project once the rule has shown its most.

use super::{Diagnostic, Label, Severity};
use crate::source::FileId;
use std::collections::HashMap;

/// Findings of one rule shown in one file; beyond them, one summary.
pub const PER_RULE_PER_FILE: usize = 100;
/// Findings of one rule shown in the report (the summaries of files included); beyond them, one summary.
pub const PER_RULE: usize = 1_000;

/// How many findings of a rule (in a file, or in all) there are, have been looked at, and are shown.
#[derive(Default)]
struct Count {
    total: usize,
    seen: usize,
    shown: usize,
    /// The highest severity among them: a summary has it, so that `--fail-on` fails as it would have.
    worst: Option<Severity>,
}

/// Keeps the first findings of each rule (in the order given: the report's), within the limits, and puts one
/// summary in place of the rest, at the first of them. Runs last: after ignores, levels and `--min-severity`,
/// whose findings would otherwise be counted.
pub fn apply(diagnostics: &mut Vec<Diagnostic>) {
    let mut in_file: HashMap<(FileId, &'static str), Count> = HashMap::new();
    let mut in_all: HashMap<&'static str, Count> = HashMap::new();
    for diagnostic in diagnostics.iter() {
        for count in [
            in_file.entry((diagnostic.primary.file, diagnostic.rule)).or_default(),
            in_all.entry(diagnostic.rule).or_default(),
        ] {
            count.total += 1;
            count.worst = count.worst.max(Some(diagnostic.severity));
        }
    }
    if in_file.values().all(|c| c.total <= PER_RULE_PER_FILE) && in_all.values().all(|c| c.total <= PER_RULE) {
        return;
    }
    // The worst among those after each place is not known in one pass: a summary has the worst of all those not
    // shown in its file (or in all), which is at least as severe.
    diagnostics.retain_mut(|diagnostic| {
        let (file, rule) = (diagnostic.primary.file, diagnostic.rule);
        #[allow(clippy::expect_used, reason = "the pass above counted every finding, by rule and by file and rule")]
        let all = in_all.get_mut(rule).expect("counted");
        all.seen += 1;
        if all.shown > PER_RULE {
            return false;
        }
        #[allow(clippy::expect_used, reason = "counted by the pass above, as `all`")]
        let one = in_file.get_mut(&(file, rule)).expect("counted");
        one.seen += 1;
        if one.seen > PER_RULE_PER_FILE + 1 {
            return false;
        }
        all.shown += 1;
        if all.shown > PER_RULE {
            let more = all.total - all.seen + 1;
            let message = format!("… and {more} more `{rule}` findings in the project (at most {PER_RULE} of a rule are shown)");
            *diagnostic = summary(diagnostic, message, all.worst);
        } else if one.seen > PER_RULE_PER_FILE {
            let more = one.total - PER_RULE_PER_FILE;
            let message = format!("… and {more} more `{rule}` findings in this file (at most {PER_RULE_PER_FILE} of a rule are shown per file)");
            *diagnostic = summary(diagnostic, message, one.worst);
        }
        true
    });
}

fn summary(first_dropped: &Diagnostic, message: String, worst: Option<Severity>) -> Diagnostic {
    let rule = first_dropped.rule;
    let at = Label::new(first_dropped.primary.file, first_dropped.primary.span);
    Diagnostic::new(rule, worst.unwrap_or(first_dropped.severity), at, message)
        .help(format!("fix the `{rule}` findings shown and run again to see the rest"))
}

#[cfg(test)]
mod tests {
    use super::*;
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
        apply(&mut diagnostics);
        let of = |file, rule| diagnostics.iter().filter(|d| d.primary.file == file && d.rule == rule).count();
        assert_eq!((of(0, "a"), of(0, "b"), of(1, "a"), of(2, "a")), (101, 101, 101, 1));
        let summary = diagnostics.iter().find(|d| d.message.starts_with('…') && d.primary.file == 0 && d.rule == "a");
        let summary = summary.expect("a summary");
        assert_eq!(summary.primary.span, Span::empty(PER_RULE_PER_FILE));
        assert_eq!(summary.severity, Severity::Error, "the worst of the rule's in the file");
        assert_eq!(
            summary.message,
            "… and 5 more `a` findings in this file (at most 100 of a rule are shown per file)"
        );
        // In place: the order is the report's.
        let position = diagnostics.iter().position(|d| std::ptr::eq(d, summary)).expect("there");
        assert_eq!(diagnostics[position + 1].rule, "b");
    }

    #[test]
    fn keeps_at_most_a_thousand_of_a_rule_in_all() {
        // 15 files of 150 findings each: 101 a file shown (100 and a summary) until 1,000 are.
        let mut diagnostics = Vec::new();
        for file in 0..15 {
            diagnostics.extend((0..150).map(|at| finding(file, "a", at, Severity::Warning)));
        }
        diagnostics.push(finding(15, "b", 0, Severity::Info));
        apply(&mut diagnostics);
        assert_eq!(diagnostics.len(), PER_RULE + 1 + 1);
        let last = &diagnostics[PER_RULE];
        // 9 files of 101, then 91 of the tenth: the 92nd of that file (offset 91) is where the rest start.
        assert_eq!((last.primary.file, last.primary.span), (9, Span::empty(91)));
        let rest = 15 * 150 - (9 * 150 + 91);
        let message = format!("… and {rest} more `a` findings in the project (at most 1000 of a rule are shown)");
        assert_eq!(last.message, message);
        assert_eq!(last.severity, Severity::Warning);
        assert_eq!(diagnostics[PER_RULE + 1].rule, "b");
        let file_summaries = diagnostics.iter().filter(|d| d.message.contains("in this file")).count();
        assert_eq!(file_summaries, 9);
    }

    #[test]
    fn leaves_a_report_under_the_cap_as_it_is() {
        let mut diagnostics: Vec<_> = (0..PER_RULE_PER_FILE).map(|at| finding(0, "a", at, Severity::Info)).collect();
        let before = diagnostics.clone();
        apply(&mut diagnostics);
        assert_eq!(diagnostics, before);
    }
}
