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
    let total = lines.len();
    for (line, approved) in lines.into_iter().take(MARKDOWN_LINES) {
        let mark = if approved { "approved" } else { "**needs approval**" };
        out.push_str(&format!("- {mark}: {}\n", code_span(&shortened(&escape(&line)))));
    }
    if total > MARKDOWN_LINES {
        let more = total - MARKDOWN_LINES;
        out.push_str(&format!("- and {more} more: `beeuni-lint impact --policy` lists them all\n"));
    }
    out
}

/// The guarded gains a Markdown section lists, each of at most `MARKDOWN_LINE_BYTES`: beside the impact's own
/// budget (60,000 bytes) the comment stays under GitHub's 65,536 characters whatever the repository's names.
const MARKDOWN_LINES: usize = 10;
const MARKDOWN_LINE_BYTES: usize = 300;

/// `line` cut to `MARKDOWN_LINE_BYTES` at a character's start, `…` marking the cut (the JSON and the human
/// report keep it whole).
fn shortened(line: &str) -> String {
    if line.len() <= MARKDOWN_LINE_BYTES {
        return line.to_string();
    }
    let mut end = MARKDOWN_LINE_BYTES;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &line[..end])
}

/// A code span that no backtick in `text` can end early.
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    format!("{fence} {text} {fence}")
}
