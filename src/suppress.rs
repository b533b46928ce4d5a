//! What the user asked not to see: config levels and path excludes, and
//! inline `beeuni-lint: ignore[...]` comments, with `unused-ignore` for a
//! comment that suppresses nothing.
//!
//! Ignores work in every file a finding points at (docs/spec/rules.md §10, revision 2): the manifest graph and the
//! modules through their parsed comments, any other file (the legacy folder's copies, a misnamed manifest)
//! through its `#` or `//` comments line by line. A finding about a whole file (on line 1) is also suppressed by
//! an ignore alone on any line before the file's first statement. An ignore that names no rule, and a
//! `removed-beeuni-tools` entry of the config that the project loads again, are `unused-ignore`.

use crate::config::{Config, Level};
use crate::diagnostic::{Diagnostic, IGNORES_PER_FILE, Label};
use crate::project::Project;
use crate::rules::{self, unused_ignore};
use crate::source::{FileId, SourceFile, Span};
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

const MARKER: &str = "beeuni-lint: ignore";

/// One rule id of one ignore comment (an empty id: the comment names no rule).
struct Ignore {
    file: FileId,
    /// 0-based line the comment applies to.
    line: usize,
    /// Alone on a line before the file's first statement: it also speaks for the whole file (line 1).
    whole_file: bool,
    rule: String,
    comment: Span,
}

/// Parses `beeuni-lint: ignore[a, b] -- reason` out of a comment's text (after `#` or `//`): the rule ids, an
/// empty list for a comment that names none (`beeuni-lint: ignore`, `ignore[]`), `None` for any other comment.
pub fn parse_ignore(comment: &str) -> Option<Vec<String>> {
    let rest = comment.trim_start().strip_prefix(MARKER)?;
    let Some(list) = rest.strip_prefix('[') else {
        // Bare: the marker alone, or followed by a reason.
        let bare = rest.trim().is_empty() || rest.starts_with(' ') || rest.starts_with('\t');
        return bare.then(Vec::new);
    };
    let (ids, _) = list.split_once(']')?;
    // One more than a file reads: a comment of ten million ids costs no more than that.
    let ids = ids.split(',').map(str::trim).filter(|id| !id.is_empty()).take(IGNORES_PER_FILE + 1);
    Some(ids.map(str::to_string).collect())
}

/// The 0-based line of the file's first statement: the first line that is neither blank nor only a comment.
fn first_statement(source: &SourceFile, yaml: bool) -> usize {
    // The end of the block comment a line opened and did not close (`/* …`, `<!-- …` in Markdown).
    let mut open: Option<&str> = None;
    for line in 0..source.line_count() {
        let text = source.slice(source.line_span(line)).trim();
        if let Some(close) = open {
            open = (!text.contains(close)).then_some(close);
            continue;
        }
        let block = [("/*", "*/"), ("<!--", "-->")].into_iter().find(|(start, _)| text.starts_with(start));
        let comment = if yaml {
            text.starts_with('#') || text == "---"
        } else if let Some((start, close)) = block {
            open = (!text[start.len()..].contains(close)).then_some(close);
            true
        } else {
            text.starts_with("//") || (line == 0 && text.starts_with("#!"))
        };
        if !(text.is_empty() || comment) {
            return line;
        }
    }
    source.line_count()
}

/// The ignores of one file as its comments are read, up to [`IGNORES_PER_FILE`] rule ids.
struct FileIgnores<'s> {
    source: &'s SourceFile,
    file: FileId,
    yaml: bool,
    /// The line of the file's first statement, found when the first ignore comment is.
    first: Option<usize>,
    read: usize,
}

impl<'s> FileIgnores<'s> {
    fn new(source: &'s SourceFile, file: FileId, yaml: bool) -> Self {
        FileIgnores { source, file, yaml, first: None, read: 0 }
    }

    /// Reads the comment at `comment` (`text`: after its `#` or `//`) into `found`; `Break` when the file's ids
    /// are all read (the comment is in `found.unread`: what is past the limit is not looked at).
    fn comment(&mut self, found: &mut Found, comment: Span, text: &str) -> ControlFlow<()> {
        let Some(ids) = parse_ignore(text) else { return ControlFlow::Continue(()) };
        let ids = if ids.is_empty() { vec![String::new()] } else { ids };
        if self.read + ids.len() > IGNORES_PER_FILE {
            found.unread.push(Label::new(self.file, comment));
            return ControlFlow::Break(());
        }
        self.read += ids.len();
        let source = self.source;
        let first = *self.first.get_or_insert_with(|| first_statement(source, self.yaml));
        let line = source.line_index(comment.start());
        let before = &source.text[source.line_start(line)..comment.start()];
        // Alone on its line, a comment speaks for the line below.
        let alone = before.trim().is_empty();
        let target = if alone { line + 1 } else { line };
        let whole_file = alone && line < first;
        for rule in ids {
            found.ignores.push(Ignore { file: self.file, line: target, whole_file, rule, comment });
        }
        ControlFlow::Continue(())
    }
}

/// The ignores of every file, and the first comment of each file whose ignores were not all read.
#[derive(Default)]
struct Found {
    ignores: Vec<Ignore>,
    unread: Vec<Label>,
}

/// The ignore comments of a file without parsed comments: `#` or `//` comments, found line by line.
fn scan_text(found: &mut Found, source: &SourceFile, file: FileId) {
    let yaml = crate::source::is_yaml(&source.path);
    let mut reading = FileIgnores::new(source, file, yaml);
    for line in 0..source.line_count() {
        let span = source.line_span(line);
        let text = source.slice(span);
        let Some(at) = text.find(MARKER) else { continue };
        let head = text[..at].trim_end();
        // `<!-- … -->`: the comment of a Markdown file (an xcsh tool folder's metadata).
        let opener = ["//", "/*", "#", "<!--"].into_iter().find(|o| head.ends_with(o));
        let Some(opener) = opener else { continue };
        let start = span.start() + head.len() - opener.len();
        let body = text[at..].trim_end().trim_end_matches("*/").trim_end_matches("-->");
        if reading.comment(found, Span::new(start, span.end()), body).is_break() {
            return;
        }
    }
}

fn collect_ignores(project: &Project, diagnostics: &[Diagnostic]) -> Found {
    let mut found = Found::default();
    // By file id (dense): which files were looked at already.
    let mut parsed = vec![false; project.sources.len()];
    // A file's lines are looked at only when it has an ignore comment: a module's text may not even be in memory.
    for manifest in &project.graph.files {
        if let Some(parsed) = parsed.get_mut(manifest.file) {
            *parsed = true;
        }
        let mut reading = FileIgnores::new(project.file(manifest.file), manifest.file, true);
        for comment in &manifest.doc.comments {
            if reading.comment(&mut found, comment.span, &comment.text).is_break() {
                break;
            }
        }
    }
    for module in &project.modules {
        if let Some(parsed) = parsed.get_mut(module.file) {
            *parsed = true;
        }
        let mut reading = FileIgnores::new(project.file(module.file), module.file, false);
        for (span, text) in module.facts.comments() {
            if reading.comment(&mut found, *span, text).is_break() {
                break;
            }
        }
    }
    // Every other file a finding points at.
    let others: HashSet<FileId> =
        diagnostics.iter().map(|d| d.primary.file).filter(|&f| parsed.get(f) == Some(&false)).collect();
    let mut others: Vec<FileId> = others.into_iter().collect();
    others.sort_unstable();
    for file in others {
        scan_text(&mut found, project.file(file), file);
    }
    found
}

/// Applies ignores, excludes and levels; adds `unused-ignore` findings; sorts. `config_file` is the config's
/// place among the project's sources, when it was added there (its `removed-beeuni-tools` entries may be unused).
pub fn apply(
    project: &Project,
    config: &Config,
    config_file: Option<FileId>,
    found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let Found { ignores, unread } = collect_ignores(project, &found);
    // Where each file's ignores of each rule are: a finding looks at those alone.
    let mut by_file_and_rule: HashMap<(FileId, &str), Vec<usize>> = HashMap::new();
    for (at, ignore) in ignores.iter().enumerate() {
        by_file_and_rule.entry((ignore.file, ignore.rule.as_str())).or_default().push(at);
    }
    let mut used = vec![false; ignores.len()];
    let mut kept = Vec::with_capacity(found.len());
    for diagnostic in found {
        let mut ignored = false;
        // The finding's line only where an ignore could apply (it costs the file's line table).
        let mut line = None;
        let file = diagnostic.primary.file;
        for &at in by_file_and_rule.get(&(file, diagnostic.rule)).map_or(&[][..], Vec::as_slice) {
            let ignore = &ignores[at];
            let line = *line.get_or_insert_with(|| project.file(file).line_index(diagnostic.primary.span.start()));
            if ignore.line == line || (ignore.whole_file && line == 0) {
                used[at] = true;
                ignored = true;
            }
        }
        if !ignored {
            kept.push(diagnostic);
        }
    }
    for label in unread {
        let message = format!(
            "this file names more than {IGNORES_PER_FILE} rules in ignore comments: from this comment on they are not read, and suppress nothing"
        );
        let help = "turn the rule off for these files in `beeuni-lint.toml` (`[rules]`, `exclude`) instead of ignoring each finding";
        kept.push(unused_ignore::RULE.diagnostic(label, message).help(help));
    }
    // Without a base the change-aware rules do not run: their ignores wait for a run that has one.
    let unused = ignores
        .iter()
        .zip(used)
        .filter(|(i, used)| !used && (project.base.is_some() || !rules::is_change_aware(&i.rule)))
        .map(|(i, _)| i);
    for ignore in unused {
        let (message, help) = if ignore.rule.is_empty() {
            (
                "this ignore comment names no rule, so it suppresses nothing".to_string(),
                "name the rule it is for: `beeuni-lint: ignore[rule-id]` (`beeuni-lint rules` lists them)".to_string(),
            )
        } else if rules::find(&ignore.rule).is_some() {
            (
                format!("this ignore comment suppresses no `{}` finding", ignore.rule),
                "remove it, or the rule id from it".to_string(),
            )
        } else {
            let ids = rules::RULES.iter().map(|r| r.id);
            let help = match crate::suggest::did_you_mean(&ignore.rule, ids) {
                Some(hint) => hint,
                None => "remove it, or the rule id from it (`beeuni-lint rules` lists them)".to_string(),
            };
            (format!("this ignore comment names `{}`, which is not a rule", ignore.rule), help)
        };
        let label = Label::new(ignore.file, ignore.comment);
        kept.push(unused_ignore::RULE.diagnostic(label, message).help(help));
    }
    if let Some(file) = config_file {
        for (name, span) in config.removed_beeuni_tools.iter().filter(|(name, _)| project.is_loaded_beeuni(name)) {
            let message = format!(
                "`removed-beeuni-tools` names `{name}`, but the project loads it: the entry accepts no removal"
            );
            let help =
                format!("remove `{name}` from `removed-beeuni-tools`, or remove `{name}: beeuni:{name}` from `tools:`");
            let label = Label::new(file, *span);
            kept.push(unused_ignore::RULE.diagnostic(label, message).help(help));
        }
    }
    let mut out: Vec<Diagnostic> = kept
        .into_iter()
        .filter(|d| Some(d.primary.file) == config_file || !config.is_excluded(&project.file(d.primary.file).path))
        .filter_map(|mut d| match config.levels.get(d.rule) {
            Some(Level::Off) => None,
            Some(Level::On(severity)) => {
                d.severity = *severity;
                Some(d)
            }
            None => Some(d),
        })
        .collect();
    sort(project, &mut out);
    out
}

/// Path, line, column, rule: the order every format prints. Within a line the byte offset orders as the column
/// does, without counting the line's UTF-16 units up to each finding (a module of one long line with thousands of
/// findings made that quadratic).
fn sort(project: &Project, diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_cached_key(|d| {
        let file = project.file(d.primary.file);
        let offset = d.primary.span.start();
        (file.shown.clone(), file.line_index(offset), offset, d.rule, d.message.clone())
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ignore_comments() {
        assert_eq!(
            parse_ignore(" beeuni-lint: ignore[unknown-tool, tool-name] -- reason"),
            Some(vec!["unknown-tool".to_string(), "tool-name".to_string()])
        );
        assert_eq!(parse_ignore(" ejected from beeuni:web_search"), None);
        assert_eq!(parse_ignore(" beeuni-lint: ignore[x"), None);
        assert_eq!(parse_ignore(" beeuni-lint: ignore"), Some(Vec::new()));
        assert_eq!(parse_ignore(" beeuni-lint: ignore -- legacy"), Some(Vec::new()));
        assert_eq!(parse_ignore(" beeuni-lint: ignore[]"), Some(Vec::new()));
        assert_eq!(parse_ignore(" beeuni-lint: ignored"), None);
    }

    #[test]
    fn the_first_statement_skips_comments_and_blank_lines() {
        let ts = SourceFile::new("a.ts", "#!/usr/bin/env bun\n// a\n/* b\n c */\n\nexport default {}\n".into());
        assert_eq!(first_statement(&ts, false), 5);
        let md = SourceFile::new("a.md", "<!-- a -->\n<!--\n b -->\n# Stats\n".into());
        assert_eq!(first_statement(&md, false), 3);
        let yaml = SourceFile::new("a.yaml", "# a\n\ntools:\n".into());
        assert_eq!(first_statement(&yaml, true), 2);
    }
}
