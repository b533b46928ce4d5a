//! The checks every offered fix passes, whichever view offers it (`--fix` and `--diff` through the planner;
//! JSON `fix`, SARIF `fixes` and the language server's code actions through [`verify`]): applied alone to its
//! files, it keeps them YAML, repeats no key, and leaves every scalar outside its spans where it was, with the
//! same value (an edit that swallows a line break glues the next entry into its value: refused). A fix that
//! fails is not offered; its finding stays.

use crate::diagnostic::{Diagnostic, Fix};
use crate::error::Error;
use crate::lint::{CheckOptions, lint};
use crate::report::Report;
use crate::source::{FileId, Sources, Span, is_yaml};
use crate::yaml::{Document, Value};
use std::collections::HashMap;

/// The bytes of YAML re-parsed (before and after) to check the offered fixes of one run, past which the rest are
/// not offered: a large file with many findings would otherwise be parsed twice per fix. A manifest of over
/// 8 MiB offers no fix in the reports (`--fix` still plans them).
const PARSE_BUDGET: usize = 16 << 20;

/// Lints the repository that holds `options.path`. Each finding's fix is offered only when it passes the fix
/// stage's checks ([`verify`]), so every view offers what `--fix` would apply.
pub fn check(options: &CheckOptions) -> Result<Report, Error> {
    let mut report = lint(options, None)?.0;
    verify(&mut report);
    Ok(report)
}

/// Drops from the report every fix that fails the checks. Costs nothing for findings without a fix.
pub fn verify(report: &mut Report) {
    verify_in(&report.sources, &mut report.diagnostics);
}

/// [`verify`] for findings over `sources` (the language server keeps them apart from a report).
pub fn verify_in(sources: &Sources, diagnostics: &mut [Diagnostic]) {
    let mut checker = Checker::new(sources);
    for diagnostic in diagnostics.iter_mut().filter(|d| d.fix.is_some()) {
        if diagnostic.fix.as_ref().is_some_and(|fix| checker.refuses(fix).is_some()) {
            diagnostic.fix = None;
        }
    }
}

/// Checks fixes over one state of the files: each file parsed once as it is, and the bytes parsed for all the
/// fixes checked held to [`PARSE_BUDGET`] (the planner makes one a round: a round of a thousand fixes of a
/// megabyte file would otherwise parse gigabytes).
pub struct Checker<'a> {
    sources: &'a Sources,
    /// Each YAML file's document as it is (`None`: it does not parse, and is not judged by its structure).
    parsed: HashMap<FileId, Option<Document>>,
    budget: usize,
}

impl<'a> Checker<'a> {
    pub fn new(sources: &'a Sources) -> Self {
        Checker { sources, parsed: HashMap::new(), budget: PARSE_BUDGET }
    }

    /// Why applying this fix alone would leave one of its files broken; `None` when it passes.
    pub fn refuses(&mut self, fix: &Fix) -> Option<String> {
        let mut files: Vec<FileId> = fix.edits.iter().map(|e| e.file).collect();
        files.sort_unstable();
        files.dedup();
        for file in files {
            let source = self.sources.get(file);
            let edits: Vec<(Span, &str)> =
                fix.edits.iter().filter(|e| e.file == file).map(|e| (e.span, e.content.as_str())).collect();
            // Counted before the new text is built: a file past the budget is not copied either.
            let grows: usize = edits.iter().map(|(_, content)| content.len()).sum();
            let cost = 2 * source.text.len() + grows;
            if is_yaml(&source.path) {
                let Some(left) = self.budget.checked_sub(cost) else {
                    return Some("too many fixes to check in large files".into());
                };
                self.budget = left;
            }
            let Some(new) = super::splice(&source.text, &edits) else {
                return Some(format!("its edits of {} overlap or fall outside it", source.path));
            };
            if !is_yaml(&source.path) {
                continue;
            }
            let before = self.parsed.entry(file).or_insert_with(|| crate::yaml::parse(&source.text).ok());
            let after = match crate::yaml::parse(&new) {
                Ok(after) => after,
                Err(e) => return Some(format!("it would make {} invalid YAML ({})", source.path, e.message)),
            };
            let Some(before) = before else { continue };
            if after.duplicate_keys.len() > before.duplicate_keys.len() {
                return Some(format!("it would repeat a key in {}", source.path));
            }
            if let Some(at) = moved_scalar(before, &after, &edits) {
                let line = source.position(at).line;
                return Some(format!("it would change {} outside its edit (line {line})", source.path));
            }
        }
        None
    }
}

/// The offset of the first scalar of `before` that no edit touches but that `after` no longer has at its
/// shifted place with the same value.
fn moved_scalar(before: &Document, after: &Document, edits: &[(Span, &str)]) -> Option<usize> {
    let now = scalars(after);
    let touches = |s: Span| edits.iter().any(|(e, _)| s.start() <= e.end() && e.start() <= s.end());
    let shift = |at: usize| -> usize {
        let moved: isize = edits
            .iter()
            .filter(|(e, _)| e.end() <= at)
            .map(|(e, content)| content.len() as isize - e.len() as isize)
            .sum();
        at.saturating_add_signed(moved)
    };
    let mut old: Vec<(Span, &str)> = scalars(before).into_iter().map(|((s, e), t)| (Span::new(s, e), t)).collect();
    old.sort_by_key(|(span, _)| span.start());
    // An empty value (`tools:` with nothing after it) has no bytes of its own to keep: filling it is the edit.
    old.into_iter()
        .filter(|(span, _)| !span.is_empty() && !touches(*span))
        .find(|(span, text)| now.get(&(shift(span.start()), shift(span.end()))) != Some(text))
        .map(|(span, _)| span.start())
}

/// Every scalar of the document by its span, with its value.
fn scalars(doc: &Document) -> HashMap<(usize, usize), &str> {
    doc.nodes
        .iter()
        .filter_map(|node| match &node.value {
            Value::Scalar { text, .. } => Some(((node.span.start(), node.span.end()), text.as_str())),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Edit, Safety};
    use crate::source::SourceFile;

    fn refused(text: &str, edits: &[(usize, usize, &str)]) -> Option<String> {
        let mut sources = Sources::default();
        let file = sources.add(SourceFile::new("beeuni.yaml", text.into()));
        let edits = edits.iter().map(|&(s, e, c)| Edit { file, span: Span::new(s, e), content: c.into() }).collect();
        Checker::new(&sources).refuses(&Fix::new(Safety::Safe, edits))
    }

    #[test]
    fn a_fix_that_breaks_its_file_is_refused() {
        assert!(refused("a: 1\nb: 2\n", &[(0, 1, "[")]).unwrap().starts_with("it would make beeuni.yaml invalid YAML"));
        assert_eq!(refused("a: 1\nb: 2\n", &[(5, 6, "a")]).unwrap(), "it would repeat a key in beeuni.yaml");
        assert_eq!(refused("a: 1\nb: 2\n", &[(5, 6, "c")]), None);
        assert_eq!(refused("a: 1\n", &[(3, 50, "")]).unwrap(), "its edits of beeuni.yaml overlap or fall outside it");
    }

    #[test]
    fn a_fix_that_changes_what_it_does_not_name_is_refused() {
        // The item with the comma after it: the next item becomes part of the new value.
        let text = "tools:\n  show: x\n  exclude: [a, b]\n";
        let a = text.find('a').unwrap();
        assert_eq!(
            refused(text, &[(a, a + 2, "bash")]).unwrap(),
            "it would change beeuni.yaml outside its edit (line 3)"
        );
        assert_eq!(refused(text, &[(a, a + 1, "bash")]), None);
        // Added lines shift the rest; the rest keeps its values.
        let end = text.find("\n  exclude").unwrap();
        assert_eq!(refused(text, &[(end, end, "\n  memory: beeuni:memory")]), None);
    }
}
