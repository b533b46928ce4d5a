//! The fix stage, beside `render`: applies the edits findings carry (RULES.md §8).
//!
//! Fixes are planned in memory, over an [`Overlay`] of the work tree: each round lints the project as the
//! fixes so far leave it, takes every fixable finding whose edits do not overlap an earlier one's, checks each
//! alone (the file must still parse, with no new duplicate key), applies them together, and lints again: a fix
//! whose finding is still there is dropped (and the round retried without it). Overlapping fixes wait for the
//! next round, which sees the file as the earlier ones left it. Nothing is written until the plan is complete,
//! so `--diff` and a dropped fix never touch a file; [`write()`] then writes each changed file atomically.

mod diff;
pub mod edit;
pub mod eject;
mod manifest;
pub mod restore;
pub mod transaction;
mod write;

pub use diff::diff;
pub use write::write;

use crate::diagnostic::{Diagnostic, Fix, Safety, Severity};
use crate::repo::checkout::Overlay;
use crate::source::Span;
use crate::source::escape::escape;
use crate::{CacheChoice, CheckOptions, Report};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

/// Rounds of fix-and-lint before giving up on conflicting fixes (each round applies at least one fix).
pub const MAX_ROUNDS: usize = 16;

/// A finding a fix removed, as it was reported before.
#[derive(Debug, Clone)]
pub struct Applied {
    pub rule: &'static str,
    pub path: String,
    pub line: usize,
    pub message: String,
    pub safety: Safety,
}

/// A fix that was not applied, and why.
#[derive(Debug, Clone)]
pub struct Dropped {
    pub applied: Applied,
    pub reason: String,
}

/// One file the plan changes: its bytes before, and after (`None`: deleted).
#[derive(Debug, Clone)]
pub struct Change {
    /// Project-relative (how the file is written).
    pub path: String,
    /// As reports show it (repo-relative).
    pub shown: String,
    pub before: Vec<u8>,
    pub after: Option<Vec<u8>>,
}

pub struct Outcome {
    /// The findings that remain after the fixes (a dropped fix no longer offered).
    pub report: Report,
    /// The project root, where the changes are written.
    pub root: PathBuf,
    pub applied: Vec<Applied>,
    pub dropped: Vec<Dropped>,
    pub changes: Vec<Change>,
}

/// Which fixes a run applies.
pub fn applies(fix: &Fix, unsafe_fixes: bool) -> bool {
    fix.safety == Safety::Safe || unsafe_fixes
}

/// A finding's identity across rounds (spans move as earlier fixes change the file).
type Key = (&'static str, String, String);

fn key(report: &Report, d: &Diagnostic) -> Key {
    (d.rule, report.sources.get(d.primary.file).path.to_string(), d.message.clone())
}

fn count(report: &Report, wanted: &Key) -> usize {
    report.diagnostics.iter().filter(|d| key(report, d) == *wanted).count()
}

fn applied(report: &Report, d: &Diagnostic) -> Applied {
    let file = report.sources.get(d.primary.file);
    Applied {
        rule: d.rule,
        path: shown(report, d.primary.file),
        line: file.position(d.primary.span.start).line,
        message: d.message.clone(),
        safety: d.fix.as_ref().map_or(Safety::Safe, |f| f.safety),
    }
}

fn shown(report: &Report, file: crate::source::FileId) -> String {
    report.sources.get(file).shown.to_string()
}

/// Plans every fix `unsafe_fixes` allows on the work tree of `options`; writes nothing. `min` is
/// `--min-severity`: a finding below it is dropped before anything else (INTERFACE.md), so its fix is neither
/// applied nor counted, and it does not remain in the report.
pub fn plan(options: &CheckOptions, unsafe_fixes: bool, min: Severity) -> Result<Outcome, String> {
    if options.staged {
        return Err(
            "`--fix` edits the work tree, not the index: run `beeuni-lint --fix`, then `git add` the fixed files"
                .into(),
        );
    }
    // Its runs read the cache and leave it as it is.
    let options = &CheckOptions { cache: CacheChoice::ReadOnly(Box::new(options.cache.clone())), ..options.clone() };
    let (mut report, root) = crate::lint(options, None)?;
    let mut overlay = Overlay::new();
    let mut originals: BTreeMap<String, (String, Vec<u8>)> = BTreeMap::new();
    let mut blocked: HashSet<Key> = HashSet::new();
    let mut done = Vec::new();
    let mut dropped = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let mut candidates: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity >= min && d.fix.as_ref().is_some_and(|f| applies(f, unsafe_fixes)))
            .filter(|d| !blocked.contains(&key(&report, d)))
            .collect();
        if candidates.is_empty() {
            break;
        }
        // Safe fixes first: an unsafe one may no longer be needed once they are in (a wrong `beeuni:` value
        // fixed leaves nothing for `no-beeuni-tools` to add).
        if candidates.iter().any(|d| d.fix.as_ref().is_some_and(|f| f.safety == Safety::Safe)) {
            candidates.retain(|d| d.fix.as_ref().is_some_and(|f| f.safety == Safety::Safe));
        }
        let mut chosen: Vec<&Diagnostic> = Vec::new();
        let mut taken = Taken::default();
        for d in candidates {
            let Some(fix) = &d.fix else { continue };
            if taken.conflicts(&report, fix) {
                continue;
            }
            if let Some(reason) = breaks_a_file(&report, fix) {
                blocked.insert(key(&report, d));
                dropped.push(Dropped { applied: applied(&report, d), reason });
                continue;
            }
            taken.take(&report, fix);
            chosen.push(d);
        }
        if chosen.is_empty() {
            continue;
        }
        let mut next = overlay.clone();
        for d in &chosen {
            let Some(fix) = &d.fix else { continue };
            for path in &fix.deletes {
                remember(&mut originals, &root, &report, path);
                next.insert(path.clone(), None);
            }
        }
        for (path, edits) in edits_by_file(&report, &chosen) {
            remember(&mut originals, &root, &report, &path);
            let Some(file) = report.sources.find(&path) else { continue };
            let text = &report.sources.get(file).text;
            let new = splice(text, &edits).ok_or_else(|| format!("overlapping fixes in {path}"))?;
            next.insert(path, Some(new.into_bytes()));
        }
        let (after, _) = crate::lint(options, Some(Arc::new(next.clone())))?;
        let mut wanted: HashMap<Key, usize> = HashMap::new();
        for d in &chosen {
            *wanted.entry(key(&report, d)).or_default() += 1;
        }
        let failed: Vec<&Key> = wanted
            .iter()
            .filter(|(k, n)| count(&report, k).saturating_sub(count(&after, k)) < **n)
            .map(|(k, _)| k)
            .collect();
        if failed.is_empty() {
            done.extend(chosen.iter().map(|d| applied(&report, d)));
            overlay = next;
            report = after;
            continue;
        }
        for d in chosen.iter().filter(|d| failed.contains(&&key(&report, d))) {
            dropped.push(Dropped { applied: applied(&report, d), reason: "it does not remove its finding".into() });
        }
        blocked.extend(failed.into_iter().cloned());
    }
    report.diagnostics.retain(|d| d.severity >= min);
    // A blocked finding stays, but its fix is no longer offered.
    let blocked_now: Vec<bool> = report.diagnostics.iter().map(|d| blocked.contains(&key(&report, d))).collect();
    for (d, blocked) in report.diagnostics.iter_mut().zip(blocked_now) {
        if blocked {
            d.fix = None;
        }
    }
    let changes = originals
        .into_iter()
        .filter_map(|(path, (shown, before))| {
            let after = overlay.get(&path)?.clone();
            (after.as_ref() != Some(&before)).then_some(Change { path, shown, before, after })
        })
        .collect();
    Ok(Outcome { report, root, applied: done, dropped, changes })
}

/// What `--fix` says it did (on standard error, so that the report itself stays in its format): each fixed
/// finding, each dropped fix and why, and one line of counts. The paths and messages are the repository's: escaped.
pub fn summary(outcome: &Outcome) -> String {
    let mut out = String::new();
    for a in &outcome.applied {
        let (path, message) = (escape(&a.path), escape(&a.message));
        out.push_str(&format!("fixed {path}:{}: {}[{}] {message}\n", a.line, safety(a.safety), a.rule));
    }
    for d in &outcome.dropped {
        let a = &d.applied;
        let (path, message, reason) = (escape(&a.path), escape(&a.message), escape(&d.reason));
        out.push_str(&format!("not fixed {path}:{}: [{}] {message} ({reason})\n", a.line, a.rule));
    }
    let files = outcome.changes.len();
    let remain = outcome.report.diagnostics.len();
    out.push_str(&format!(
        "Fixed {} in {}; {} remain{}.\n",
        plural(outcome.applied.len(), "finding"),
        plural(files, "file"),
        plural(remain, "finding"),
        if remain == 1 { "s" } else { "" }
    ));
    out
}

fn safety(safety: Safety) -> &'static str {
    match safety {
        Safety::Safe => "safe",
        Safety::Unsafe => "unsafe",
    }
}

fn plural(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// Keeps a file's bytes as they were before the first fix touched it.
fn remember(originals: &mut BTreeMap<String, (String, Vec<u8>)>, root: &std::path::Path, report: &Report, path: &str) {
    if originals.contains_key(path) {
        return;
    }
    let bytes = match report.sources.find(path) {
        Some(file) => report.sources.get(file).text.clone().into_bytes(),
        None => crate::repo::fs::read(root, path).unwrap_or_default(),
    };
    let shown = report.sources.shown(path).into();
    originals.insert(path.to_string(), (shown, bytes));
}

/// What the fixes chosen in a round touch: byte ranges per file, and whole files (deleted).
#[derive(Default)]
struct Taken {
    spans: HashMap<String, Vec<Span>>,
    files: HashSet<String>,
}

impl Taken {
    /// Does the fix touch (or border on) bytes or a file an earlier fix of the round touches?
    fn conflicts(&self, report: &Report, fix: &Fix) -> bool {
        let near = |a: Span, b: Span| a.start <= b.end && b.start <= a.end;
        fix.deletes.iter().any(|path| self.files.contains(path) || self.spans.contains_key(path))
            || fix.edits.iter().any(|edit| {
                let path = report.sources.get(edit.file).path.as_str();
                self.files.contains(path)
                    || self.spans.get(path).is_some_and(|spans| spans.iter().any(|s| near(*s, edit.span)))
            })
    }

    fn take(&mut self, report: &Report, fix: &Fix) {
        self.files.extend(fix.deletes.iter().cloned());
        for edit in &fix.edits {
            self.spans.entry(report.sources.get(edit.file).path.to_string()).or_default().push(edit.span);
        }
    }
}

/// Why applying this fix alone would leave one of its files invalid: no longer YAML, or with a repeated key.
fn breaks_a_file(report: &Report, fix: &Fix) -> Option<String> {
    let mut files: Vec<crate::source::FileId> = fix.edits.iter().map(|e| e.file).collect();
    files.dedup();
    for file in files {
        let source = report.sources.get(file);
        let edits: Vec<_> = fix.edits.iter().filter(|e| e.file == file).map(|e| (e.span, e.content.as_str())).collect();
        let Some(new) = splice(&source.text, &edits) else {
            return Some(format!("its edits of {} overlap", source.path));
        };
        let before = crate::yaml::parse(&source.text).map(|d| d.duplicate_keys.len()).unwrap_or(usize::MAX);
        match crate::yaml::parse(&new) {
            Err(e) => return Some(format!("it would make {} invalid YAML ({})", source.path, e.message)),
            Ok(doc) if doc.duplicate_keys.len() > before => {
                return Some(format!("it would repeat a key in {}", source.path));
            }
            Ok(_) => {}
        }
    }
    None
}

fn edits_by_file<'a>(report: &Report, chosen: &[&'a Diagnostic]) -> BTreeMap<String, Vec<(Span, &'a str)>> {
    let mut by_file: BTreeMap<String, Vec<(Span, &str)>> = BTreeMap::new();
    for d in chosen {
        for edit in d.fix.iter().flat_map(|f| &f.edits) {
            by_file.entry(report.sources.get(edit.file).path.to_string()).or_default().push((edit.span, &edit.content));
        }
    }
    by_file
}

/// `text` with each span replaced by its content; `None` when spans overlap or fall outside the text or
/// between the bytes of a character. Insertions at one offset go in the order given.
pub fn splice(text: &str, edits: &[(Span, &str)]) -> Option<String> {
    let mut sorted: Vec<&(Span, &str)> = edits.iter().collect();
    sorted.sort_by_key(|(span, _)| (span.start, span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (span, content) in sorted {
        if span.start < at
            || span.end > text.len()
            || !text.is_char_boundary(span.start)
            || !text.is_char_boundary(span.end)
        {
            return None;
        }
        out.push_str(&text[at..span.start]);
        out.push_str(content);
        at = span.end;
    }
    out.push_str(&text[at..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_keep_every_other_byte() {
        let text = "\u{feff}a: 1\r\nb: 2\r\n";
        let a = text.find('1').unwrap();
        let out = splice(text, &[(Span::new(a, a + 1), "x"), (Span::empty(text.len()), "c: 3\r\n")]).unwrap();
        assert_eq!(out, "\u{feff}a: x\r\nb: 2\r\nc: 3\r\n");
        assert_eq!(splice(text, &[(Span::new(3, 6), ""), (Span::new(5, 7), "")]), None);
        assert_eq!(splice(text, &[(Span::new(1, 2), "")]), None);
    }

    #[test]
    fn a_fix_that_breaks_its_file_is_refused() {
        use crate::diagnostic::Edit;
        let mut sources = crate::source::Sources::default();
        let file = sources.add(crate::source::SourceFile::new("beeuni.yaml", "a: 1\nb: 2\n".into()));
        let report = Report { sources, diagnostics: Vec::new(), files: 1 };
        let fix = |start, end, content: &str| {
            Fix::new(Safety::Safe, vec![Edit { file, span: Span::new(start, end), content: content.into() }])
        };
        assert!(breaks_a_file(&report, &fix(0, 1, "[")).unwrap().starts_with("it would make beeuni.yaml invalid YAML"));
        assert_eq!(breaks_a_file(&report, &fix(5, 6, "a")).unwrap(), "it would repeat a key in beeuni.yaml");
        assert_eq!(breaks_a_file(&report, &fix(5, 6, "c")), None);
    }
}
