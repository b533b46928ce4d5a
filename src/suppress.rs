//! What the user asked not to see: config levels and path excludes, and
//! inline `beeuni-lint: ignore[...]` comments, with `unused-ignore` for a
//! comment that suppresses nothing.

use crate::config::{Config, Level};
use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::rules::{self, unused_ignore};
use crate::source::{FileId, Span};

const MARKER: &str = "beeuni-lint: ignore[";

/// One rule id of one ignore comment.
struct Ignore {
    file: FileId,
    /// 0-based line the comment applies to.
    line: usize,
    rule: String,
    comment: Span,
    used: bool,
}

/// Parses `beeuni-lint: ignore[a, b] -- reason` out of a comment's text (after `#` or `//`).
pub fn parse_ignore(comment: &str) -> Option<Vec<String>> {
    let rest = comment.trim_start().strip_prefix(MARKER)?;
    let (ids, _) = rest.split_once(']')?;
    Some(ids.split(',').map(|id| id.trim().to_string()).filter(|id| !id.is_empty()).collect())
}

fn collect_ignores(project: &Project) -> Vec<Ignore> {
    let mut ignores = Vec::new();
    for manifest in &project.graph.files {
        let source = project.file(manifest.file);
        for comment in &manifest.doc.comments {
            let Some(ids) = parse_ignore(&comment.text) else {
                continue;
            };
            let line = source.line_index(comment.span.start);
            let before = &source.text[source.line_start(line)..comment.span.start];
            // Alone on its line, a comment speaks for the line below.
            let target = if before.trim().is_empty() { line + 1 } else { line };
            for rule in ids {
                ignores.push(Ignore { file: manifest.file, line: target, rule, comment: comment.span, used: false });
            }
        }
    }
    for module in &project.modules {
        let source = project.file(module.file);
        for (span, text) in &module.facts.comments {
            let Some(ids) = parse_ignore(text) else { continue };
            let line = source.line_index(span.start);
            let before = &source.text[source.line_start(line)..span.start];
            let target = if before.trim().is_empty() { line + 1 } else { line };
            for rule in ids {
                ignores.push(Ignore { file: module.file, line: target, rule, comment: *span, used: false });
            }
        }
    }
    ignores
}

/// Applies ignores, excludes and levels; adds `unused-ignore` findings; sorts.
pub fn apply(project: &Project, config: &Config, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut ignores = collect_ignores(project);
    let mut kept = Vec::with_capacity(found.len());
    for diagnostic in found {
        let file = project.file(diagnostic.primary.file);
        let line = file.line_index(diagnostic.primary.span.start);
        let mut ignored = false;
        for ignore in ignores.iter_mut() {
            if ignore.file == diagnostic.primary.file && ignore.line == line && ignore.rule == diagnostic.rule {
                ignore.used = true;
                ignored = true;
            }
        }
        if !ignored {
            kept.push(diagnostic);
        }
    }
    // Without a base the change-aware rules do not run: their ignores wait for a run that has one.
    let unused = ignores.iter().filter(|i| !i.used && (project.base.is_some() || !rules::is_change_aware(&i.rule)));
    for ignore in unused {
        let message = match rules::find(&ignore.rule) {
            Some(_) => format!("this ignore comment suppresses no `{}` finding", ignore.rule),
            None => format!("this ignore comment names `{}`, which is not a rule", ignore.rule),
        };
        let label = Label::new(ignore.file, ignore.comment);
        kept.push(
            Diagnostic::new(unused_ignore::RULE.id, unused_ignore::RULE.severity, label, message)
                .help("remove it, or the rule id from it"),
        );
    }
    let mut out: Vec<Diagnostic> = kept
        .into_iter()
        .filter(|d| !config.is_excluded(&project.file(d.primary.file).path))
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

/// Path, line, column, rule: the order every format prints.
fn sort(project: &Project, diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_cached_key(|d| {
        let file = project.file(d.primary.file);
        let position = file.position(d.primary.span.start);
        (file.path.clone(), position.line, position.column, d.rule, d.message.clone())
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
    }
}
