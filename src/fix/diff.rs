//! `--diff`: the plan as a unified diff that `git apply` takes.
//!
//! Written raw (its bytes exactly, for `git apply`) or shown (the repository's characters that act on a terminal
//! or GitHub's log escaped, [`escape`]; LF and the CR of CRLF kept): a diff of a line holding a lone CR or ESC
//! then shows it, and no longer applies as a patch. Lines are what git calls lines: each ends after a `\n` (a lone `\r` is inside a line, as git reads it, so a
//! file with lone-CR line breaks is one line), and a last line without `\n` is followed by `\ No newline at end
//! of file`. Hunk headers are counted from those same lines, so they always agree with the lines shown.

use super::Change;
use crate::source::escape::escape;
use similar::{Algorithm, DiffTag, capture_diff_slices, group_diff_ops};
use std::fmt::Write as _;

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// The plan as a unified diff (`a/` and `b/` paths, three lines of context); line breaks are kept as they are, and
/// the rest too when `raw` (else shown: see the module).
pub fn diff(changes: &[Change], raw: bool) -> String {
    let mut out = String::new();
    for change in changes {
        let before = String::from_utf8_lossy(&change.before);
        let after = change.after.as_deref().map(String::from_utf8_lossy).unwrap_or_default();
        let shown = if raw { change.shown.as_str().into() } else { escape(&change.shown) };
        let new_name = if change.after.is_some() { format!("b/{shown}") } else { "/dev/null".into() };
        let hunks = hunks(&lines(&before), &lines(&after), raw);
        if !hunks.is_empty() {
            let _ = writeln!(out, "--- a/{shown}\n+++ {new_name}");
            out.push_str(&hunks);
        }
    }
    out
}

/// `text` cut after each `\n`.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

fn hunks(old: &[&str], new: &[&str], raw: bool) -> String {
    let mut out = String::new();
    for group in group_diff_ops(capture_diff_slices(Algorithm::Myers, old, new), CONTEXT) {
        let Some(first) = group.first() else { continue };
        // The counts come from the lines written, not from the ops' ranges: similar places an insertion that
        // follows a deletion and a kept line at the old index before that kept line (`- bsah`, ` bash`, `+bash`
        // gave `@@ -2,4 +2,5 @@` over five old lines, which `git apply` refuses).
        let (mut body, mut old_count, mut new_count) = (String::new(), 0, 0);
        for op in &group {
            let (tag, old_lines, new_lines) = op.as_tag_tuple();
            if matches!(tag, DiffTag::Equal) {
                old_count += old_lines.len();
                new_count += old_lines.len();
                old[old_lines].iter().for_each(|line| push_line(&mut body, ' ', line, raw));
                continue;
            }
            old_count += old_lines.len();
            new_count += new_lines.len();
            old[old_lines].iter().for_each(|line| push_line(&mut body, '-', line, raw));
            new[new_lines].iter().for_each(|line| push_line(&mut body, '+', line, raw));
        }
        let (old_start, new_start) = (first.old_range().start, first.new_range().start);
        let _ = writeln!(out, "@@ -{} +{} @@", range(old_start, old_count), range(new_start, new_count));
        out.push_str(&body);
    }
    out
}

/// A hunk range as unified diffs write it: 1-based start and count (left out when it is 1); an empty range starts
/// at the line before.
fn range(start: usize, count: usize) -> String {
    match count {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{count}", start + 1),
    }
}

fn push_line(out: &mut String, sign: char, line: &str, raw: bool) {
    out.push(sign);
    if raw {
        out.push_str(line);
    } else {
        // The line's own break (LF, CRLF) is kept; anything else that acts is shown.
        let body = line.strip_suffix('\n').map_or(line, |body| body.strip_suffix('\r').unwrap_or(body));
        out.push_str(&escape(body));
        out.push_str(&line[body.len()..]);
    }
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(before: &str, after: Option<&str>) -> Change {
        Change {
            path: "beeuni.yaml".into(),
            shown: "beeuni.yaml".into(),
            before: before.as_bytes().to_vec(),
            after: after.map(|a| a.as_bytes().to_vec()),
        }
    }

    #[test]
    fn a_fixed_item_followed_by_the_name_it_becomes() {
        let before = "agents:\n  a:\n    tools:\n      exclude:\n        - bsah\n        - bash\n";
        let after = "agents:\n  a:\n    tools:\n      exclude:\n        - bash\n        - bash\n";
        let text = diff(&[change(before, Some(after))], true);
        // Whatever the alignment, the header counts exactly the lines shown.
        let body: Vec<&str> = text.lines().skip(3).collect();
        let old_count = body.iter().filter(|l| l.starts_with(' ') || l.starts_with('-')).count();
        let new_count = body.iter().filter(|l| l.starts_with(' ') || l.starts_with('+')).count();
        let header = text.lines().nth(2).unwrap();
        assert_eq!(header, format!("@@ -{},{old_count} +{},{new_count} @@", 6 - old_count + 1, 6 - new_count + 1));
        assert!(text.contains("-        - bsah\n") && text.contains("+        - bash\n"), "{text}");
    }

    #[test]
    fn no_newline_at_the_end_and_lone_carriage_returns() {
        let text = diff(&[change("a: 1\nb: bsah", Some("a: 1\nb: bash"))], true);
        assert_eq!(
            text,
            "--- a/beeuni.yaml\n+++ b/beeuni.yaml\n@@ -1,2 +1,2 @@\n a: 1\n-b: bsah\n\\ No newline at end of file\n+b: bash\n\\ No newline at end of file\n"
        );
        // A lone CR is inside a line for git: the whole file is one line.
        let text = diff(&[change("a: 1\rb: bsah\r", Some("a: 1\rb: bash\r"))], true);
        assert_eq!(
            text,
            "--- a/beeuni.yaml\n+++ b/beeuni.yaml\n@@ -1 +1 @@\n-a: 1\rb: bsah\r\n\\ No newline at end of file\n+a: 1\rb: bash\r\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn a_deleted_file_and_an_unchanged_one() {
        assert_eq!(
            diff(&[change("x\ny\n", None)], true),
            "--- a/beeuni.yaml\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n"
        );
        assert_eq!(diff(&[change("x\n", Some("x\n"))], true), "");
    }

    #[test]
    fn shown_the_repository_characters_that_act_are_escaped_and_line_breaks_kept() {
        let mut shown = change("x: 1\r\ny: \u{1b}[2J\rz\nw: bsh\n", Some("x: 1\r\ny: \u{1b}[2J\rz\nw: bash\n"));
        shown.shown = "d\u{1b}/a.yaml".into();
        assert_eq!(
            diff(&[shown], false),
            "--- a/d\\u{1b}/a.yaml\n+++ b/d\\u{1b}/a.yaml\n@@ -1,3 +1,3 @@\n x: 1\r\n y: \\u{1b}[2J\\rz\n-w: bsh\n+w: bash\n"
        );
    }
}
