//! What a fix changes, in words, for the `--fix` log: "removed `bsh` from `exclude:`", "replaced `raed` with
//! `read` in `tools:`", "added `show: beeuni:show` to `tools:`", "deleted `tools/old.ts`". Worked out from the
//! fix's edits (the bytes each replaces and its new text, without the list and line syntax around them) and the
//! YAML key the edit lies under, so that every fix of every rule is told alike. Repository text: escaped.

use crate::diagnostic::Fix;
use crate::report::Report;
use crate::source::escape::escape;
use crate::source::{FileId, Span};
use crate::yaml::{Document, Value};

/// YAML files past this size are not parsed again for the key around an edit: the change is told without it.
const PARSE_AT_MOST: usize = 1 << 20;
/// A text longer than this (in characters), or of more lines than [`LINES_AT_MOST`], is not quoted.
const QUOTED_AT_MOST: usize = 60;
const LINES_AT_MOST: usize = 5;

/// What `fix` changes in the files of `report` (the round it is applied in), its phrases joined by `; `: one a
/// file it edits (its edits there taken together, from the first to the last), one a file it deletes.
pub fn describe(report: &Report, fix: &Fix) -> String {
    let mut phrases: Vec<String> = Vec::new();
    let mut files: Vec<FileId> = fix.edits.iter().map(|edit| edit.file).collect();
    files.dedup();
    for file in files {
        let text = &report.sources.get(file).text;
        let edits: Vec<(Span, &str)> =
            fix.edits.iter().filter(|e| e.file == file).map(|e| (e.span, e.content.as_str())).collect();
        let start = edits.iter().map(|(span, _)| span.start()).min().unwrap_or(0);
        let end = edits.iter().map(|(span, _)| span.end()).max().unwrap_or(0);
        let (Some(old), Some(new)) = (text.get(start..end), super::splice(text, &edits)) else { continue };
        let new = &new[start..new.len() - (text.len() - end)];
        let doc = (text.len() <= PARSE_AT_MOST).then(|| crate::yaml::parse(text).ok()).flatten();
        let key = doc.as_ref().and_then(|doc| key_around(doc, Span::new(start, end)));
        phrases.push(phrase(old, new, key));
    }
    for path in &fix.deletes {
        phrases.push(format!("deleted `{}`", escape(report.sources.shown(path).as_ref())));
    }
    phrases.join("; ")
}

/// One file's change: removed, added or replaced, and under which key.
fn phrase(old: &str, new: &str, key: Option<&str>) -> String {
    let (old, new) = (bare(old), bare(new));
    if old == new {
        return "changed the spacing".into();
    }
    let key = key.map(|key| format!("`{}:`", escape(key)));
    let (to, from, within) = match &key {
        Some(key) => (format!(" to {key}"), format!(" from {key}"), format!(" in {key}")),
        None => Default::default(),
    };
    if new.is_empty() {
        return format!("removed {}{from}", listed(&old));
    }
    if old.is_empty() {
        return format!("added {}{to}", listed(&new));
    }
    match (one(&old), one(&new), key) {
        (None, None, Some(key)) => format!("rewrote {key}"),
        (None, None, None) => format!("rewrote {}", count(&old)),
        (first, then, _) => {
            let (first, then) = (first.unwrap_or_else(|| count(&old)), then.unwrap_or_else(|| count(&new)));
            format!("replaced {first} with {then}{within}")
        }
    }
}

/// The lines of an edit's text without what only lays them out: spaces, a list item's `- `, flow commas.
fn bare(text: &str) -> Vec<&str> {
    text.lines()
        .map(|line| {
            let line = line.trim_matches(|c: char| c.is_whitespace() || c == ',');
            let line = line.strip_prefix("- ").unwrap_or(line);
            line.trim_matches(|c: char| c.is_whitespace() || c == ',')
        })
        .filter(|line| !line.is_empty())
        .collect()
}

/// Each line in backticks, joined by commas; many or long lines as how many they are.
fn listed(lines: &[&str]) -> String {
    if lines.len() > LINES_AT_MOST || lines.iter().any(|line| line.chars().count() > QUOTED_AT_MOST) {
        return count(lines);
    }
    lines.iter().map(|line| format!("`{}`", escape(line))).collect::<Vec<_>>().join(", ")
}

/// One short line, in backticks.
fn one(lines: &[&str]) -> Option<String> {
    match lines {
        [line] if line.chars().count() <= QUOTED_AT_MOST => Some(format!("`{}`", escape(line))),
        _ => None,
    }
}

fn count(lines: &[&str]) -> String {
    if lines.len() == 1 { "a line".into() } else { format!("{} lines", lines.len()) }
}

/// The key of the innermost mapping entry the edit starts in: after its key's first byte (an edit from there on
/// is of the entry itself, told by its parent's key) and up to the end of its value (an insertion, into a list or
/// a mapping, may start right after the value's line).
fn key_around(doc: &Document, span: Span) -> Option<&str> {
    let at = span.start();
    let mut best: Option<(usize, &str)> = None;
    for node in &doc.nodes {
        let Value::Map(entries) = &node.value else { continue };
        for entry in entries {
            let (key, value) = (doc.node(entry.key).span, doc.node(entry.value).span);
            // An insertion goes into a list or a mapping, maybe right after its last line.
            let insertion = span.is_empty();
            let collection = matches!(doc.node(doc.resolve(entry.value)).value, Value::Map(_) | Value::Seq(_));
            let slack = if insertion { 2 } else { 0 };
            if key.start() < at && at <= value.end() + slack && (collection || !insertion) {
                let size = value.end() - key.start();
                if best.is_none_or(|(smallest, _)| size < smallest) {
                    best = doc.scalar(entry.key).map(|name| (size, name));
                }
            }
        }
    }
    best.map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Edit, Safety};
    use crate::source::{SourceFile, Sources};

    fn told(text: &str, old: &str, content: &str) -> String {
        let mut sources = Sources::default();
        let file = sources.add(SourceFile::new("beeuni.yaml", text.into()));
        let start = text.find(old).unwrap();
        let span = if old.is_empty() { Span::empty(text.len()) } else { Span::new(start, start + old.len()) };
        let fix = Fix::new(Safety::Safe, vec![Edit { file, span, content: content.into() }]);
        describe(&Report { sources, diagnostics: Vec::new(), files: 1 }, &fix)
    }

    #[test]
    fn each_edit_says_what_it_did_and_where() {
        let yaml =
            "tools:\n  web_search: beeuni:websearch\nagents:\n  support:\n    tools:\n      exclude: [bsh, read]\n";
        assert_eq!(told(yaml, "bsh, ", ""), "removed `bsh` from `exclude:`");
        assert_eq!(told(yaml, "bsh", "bash"), "replaced `bsh` with `bash` in `exclude:`");
        assert_eq!(
            told(yaml, "beeuni:websearch", "beeuni:web_search"),
            "replaced `beeuni:websearch` with `beeuni:web_search` in `web_search:`"
        );
        let block = "agents:\n  a:\n    tools:\n      - read\n      - show\n";
        assert_eq!(told(block, "      - show\n", ""), "removed `show` from `tools:`");
        let map = "tools:\n  lookup: tools/lookup.ts\n";
        assert_eq!(told(map, "", "  show: beeuni:show\n"), "added `show: beeuni:show` to `tools:`");
        assert_eq!(
            told(map, "lookup: tools/lookup.ts\n", "a: 1\nb: 2\n"),
            "replaced `lookup: tools/lookup.ts` with 2 lines in `tools:`"
        );
        assert_eq!(told("tools:\n  a: 1\n  b: 2\n", "  a: 1\n  b: 2\n", "  c: 3\n  d: 4\n"), "rewrote `tools:`");
    }

    #[test]
    fn edits_of_one_file_are_told_together_and_deletions_by_path() {
        let text = "agents:\n  a:\n    tools:\n      bash: false\n      glob: false\n";
        let mut sources = Sources::default();
        let file = sources.add(SourceFile::new("beeuni.yaml", text.into()));
        let at = |needle: &str| Span::new(text.find(needle).unwrap(), text.find(needle).unwrap() + needle.len());
        let edits = vec![
            Edit { file, span: at("bash: false"), content: "exclude: [bash, glob]".into() },
            Edit { file, span: at("\n      glob: false"), content: String::new() },
        ];
        let mut fix = Fix::new(Safety::Safe, edits);
        fix.deletes.push("tools/old\u{1b}.ts".into());
        let report = Report { sources, diagnostics: Vec::new(), files: 1 };
        assert_eq!(
            describe(&report, &fix),
            "replaced 2 lines with `exclude: [bash, glob]` in `tools:`; deleted `tools/old\\u{1b}.ts`"
        );
    }

    #[test]
    fn repository_text_is_escaped_and_long_text_counted() {
        assert_eq!(told("x: [a\u{202e}b]\n", "a\u{202e}b", ""), "removed `a\\u{202e}b` from `x:`");
        let long = "y".repeat(80);
        assert_eq!(told(&format!("x: {long}\n"), &long, "z"), "replaced a line with `z` in `x:`");
        assert_eq!(told("x: 1\n", "1", "1 "), "changed the spacing");
    }
}
