//! The verdict in `impact`'s text formats: a section after the impact, one line a finding (the JSON holds the
//! verdict as each project's `policy`). Every name is the repository's: escaped in text, a code span in Markdown.

use super::Verdict;
use crate::impact::Impact;
use crate::source::escape::escape;

/// One line a finding of every project, `path:line: message`, marked `(approved)` where it is; empty when
/// `--policy` found nothing.
fn lines(impact: &Impact) -> Vec<(String, bool)> {
    let verdicts = impact.projects.iter().filter_map(|p| p.policy.as_ref());
    verdicts
        .flat_map(|verdict: &Verdict| verdict.findings.iter().map(move |f| (verdict, f)))
        .map(|(verdict, f)| (format!("{}:{}: {} [{}]", f.path, f.line, f.message, verdict.level), f.approved))
        .collect()
}

pub fn human(impact: &Impact) -> String {
    let lines = lines(impact);
    if impact.projects.iter().all(|p| p.policy.is_none()) {
        return String::new();
    }
    let mut out = String::from("\nPolicy (policy-gain): ");
    if lines.is_empty() {
        out.push_str("no guarded gain\n");
        return out;
    }
    out.push_str(&format!("{} guarded\n", lines.len()));
    for (line, approved) in lines {
        let mark = if approved { " (approved)" } else { "" };
        out.push_str(&format!("  {}{mark}\n", escape(&line)));
    }
    out
}

pub fn markdown(impact: &Impact) -> String {
    if impact.projects.iter().all(|p| p.policy.is_none()) {
        return String::new();
    }
    let lines = lines(impact);
    let mut out = String::from("\n### Policy\n\n");
    if lines.is_empty() {
        out.push_str("No guarded gain.\n");
        return out;
    }
    for (line, approved) in lines {
        let mark = if approved { "approved" } else { "**needs approval**" };
        out.push_str(&format!("- {mark}: {}\n", code_span(&escape(&line))));
    }
    out
}

/// A code span that no backtick in `text` can end early.
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    format!("{fence} {text} {fence}")
}
