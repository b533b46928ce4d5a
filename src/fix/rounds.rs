//! The rounds of one plan: each lints the project as the fixes so far leave it (through an [`Overlay`]), takes
//! every fixable finding whose edits do not touch an earlier one's, checks each alone ([`super::offer`]),
//! applies them together and lints again: a fix whose finding is still there is dropped (and the round retried
//! without it). Safe fixes go first; unsafe ones only in a round where no safe fix is left.

use super::together::Access;
use super::{Applied, Dropped, Key, Mark, applied, key, marks, splice};
use crate::diagnostic::{Diagnostic, Fix, Safety, Severity};
use crate::lint::CheckOptions;
use crate::repo::checkout::Overlay;
use crate::report::Report;
use crate::source::Span;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rounds of fix-and-lint before giving up on conflicting fixes (each round applies at least one fix).
pub const MAX_ROUNDS: usize = 16;

/// A safe fix the plan applied, and the agents whose declaration it edits.
pub struct SafeFix {
    pub mark: Mark,
    pub applied: Applied,
    pub agents: Vec<String>,
}

/// What the rounds of one plan leave.
pub struct Planned {
    pub report: Report,
    pub root: PathBuf,
    pub overlay: Overlay,
    /// Each file a fix touched, as it was before: (shown path, bytes).
    pub originals: BTreeMap<String, (String, Vec<u8>)>,
    /// Findings whose fix is not applied: dropped (every finding of that key), or kept apart from the others
    /// (that one finding).
    pub blocked: HashSet<Key>,
    pub apart: HashSet<Mark>,
    pub done: Vec<Applied>,
    pub dropped: Vec<Dropped>,
    /// What agents can call as the files are, after the safe rounds (when an unsafe round followed), and at the end.
    pub original: Access,
    pub after_safe: Option<Access>,
    pub last: Access,
    pub safe: Vec<SafeFix>,
}

impl Planned {
    pub fn applied_unsafe(&self) -> bool {
        self.done.iter().any(|a| a.safety == Safety::Unsafe)
    }
}

/// Plans every fix `unsafe_fixes` allows but those of the findings in `apart`.
pub fn rounds(
    options: &CheckOptions,
    unsafe_fixes: bool,
    min: Severity,
    apart: HashSet<Mark>,
) -> Result<Planned, crate::error::Error> {
    // Only a run that may apply unsafe fixes judges its fixes together: the others need no access model.
    let look = |project: &crate::project::Project| if unsafe_fixes { Access::of(project) } else { Access::default() };
    let (report, root, original) = crate::lint::lint_then(options, None, look)?;
    let mut plan = Planned {
        report,
        root,
        overlay: Overlay::new(),
        originals: BTreeMap::new(),
        blocked: HashSet::new(),
        apart,
        done: Vec::new(),
        dropped: Vec::new(),
        last: original.clone(),
        original,
        after_safe: None,
        safe: Vec::new(),
    };
    for _ in 0..MAX_ROUNDS {
        let report = &plan.report;
        let marks = marks(report);
        let mut candidates: Vec<(&Diagnostic, &Mark)> = report
            .diagnostics
            .iter()
            .zip(&marks)
            .filter(|(d, _)| d.severity >= min && d.fix.as_ref().is_some_and(|f| super::applies(f, unsafe_fixes)))
            .filter(|(_, mark)| !plan.blocked.contains(&mark.0) && !plan.apart.contains(*mark))
            .collect();
        if candidates.is_empty() {
            break;
        }
        // Safe fixes first: an unsafe one may no longer be needed once they are in (a wrong `beeuni:` value
        // fixed leaves nothing for `no-beeuni-tools` to add).
        if candidates.iter().any(|(d, _)| d.fix.as_ref().is_some_and(|f| f.safety == Safety::Safe)) {
            candidates.retain(|(d, _)| d.fix.as_ref().is_some_and(|f| f.safety == Safety::Safe));
        } else if plan.after_safe.is_none() {
            plan.after_safe = Some(plan.last.clone());
        }
        let mut chosen: Vec<&Diagnostic> = Vec::new();
        let mut chosen_marks: Vec<&Mark> = Vec::new();
        let mut taken = Taken::default();
        let mut refused = Vec::new();
        let mut checker = super::offer::Checker::new(&report.sources);
        for (d, mark) in candidates {
            let Some(fix) = &d.fix else { continue };
            if taken.conflicts(report, fix) {
                continue;
            }
            if let Some(reason) = checker.refuses(fix) {
                refused.push((key(report, d), Dropped { applied: applied(report, d), reason }));
                continue;
            }
            taken.take(report, fix);
            chosen.push(d);
            chosen_marks.push(mark);
        }
        for (key, dropped) in refused {
            plan.blocked.insert(key);
            plan.dropped.push(dropped);
        }
        if chosen.is_empty() {
            continue;
        }
        let mut next = plan.overlay.clone();
        for d in &chosen {
            for path in d.fix.iter().flat_map(|f| &f.deletes) {
                remember(&mut plan.originals, &plan.root, report, path);
                next.insert(path.clone(), None);
            }
        }
        for (path, edits) in edits_by_file(report, &chosen) {
            remember(&mut plan.originals, &plan.root, report, &path);
            let Some(file) = report.sources.find(&path) else { continue };
            let new = splice(&report.sources.get(file).text, &edits)
                .ok_or_else(|| crate::error::Error::Fix(format!("overlapping fixes in {path}")))?;
            next.insert(path, Some(new.into_bytes()));
        }
        let (after, _, access) = crate::lint::lint_then(options, Some(Arc::new(next.clone())), look)?;
        let mut wanted: HashMap<Key, usize> = HashMap::new();
        for d in &chosen {
            *wanted.entry(key(report, d)).or_default() += 1;
        }
        // Every finding's key counted once a side (counted again for each key wanted, the findings were walked
        // once per fix chosen).
        let (before, now) = (counts(report), counts(&after));
        let count = |counts: &HashMap<Key, usize>, k: &Key| counts.get(k).copied().unwrap_or(0);
        let failed: Vec<&Key> = wanted
            .iter()
            .filter(|(k, n)| count(&before, k).saturating_sub(count(&now, k)) < **n)
            .map(|(k, _)| k)
            .collect();
        if failed.is_empty() {
            for (d, mark) in chosen.iter().zip(chosen_marks) {
                let applied = applied(report, d);
                if applied.safety == Safety::Safe {
                    let spans = d.fix.iter().flat_map(|f| &f.edits);
                    let spans: Vec<(String, Span)> =
                        spans.map(|e| (report.sources.get(e.file).path.to_string(), e.span)).collect();
                    let agents = plan.last.agents_at(&spans);
                    plan.safe.push(SafeFix { mark: mark.clone(), applied: applied.clone(), agents });
                }
                plan.done.push(applied);
            }
            plan.overlay = next;
            plan.report = after;
            plan.last = access;
            continue;
        }
        let failed_keys: std::collections::HashSet<&Key> = failed.iter().copied().collect();
        for d in chosen.iter().filter(|d| failed_keys.contains(&key(report, d))) {
            let reason = "it does not remove its finding".into();
            plan.dropped.push(Dropped { applied: applied(report, d), reason });
        }
        let failed: Vec<Key> = failed.into_iter().cloned().collect();
        plan.blocked.extend(failed);
    }
    Ok(plan)
}

/// How many findings of the report have each key.
fn counts(report: &Report) -> HashMap<Key, usize> {
    let mut counts = HashMap::new();
    for d in &report.diagnostics {
        *counts.entry(key(report, d)).or_default() += 1;
    }
    counts
}

/// Keeps a file's bytes as they were before the first fix touched it.
fn remember(originals: &mut BTreeMap<String, (String, Vec<u8>)>, root: &Path, report: &Report, path: &str) {
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
        let near = |a: Span, b: Span| a.start() <= b.end() && b.start() <= a.end();
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

fn edits_by_file<'a>(report: &Report, chosen: &[&'a Diagnostic]) -> BTreeMap<String, Vec<(Span, &'a str)>> {
    let mut by_file: BTreeMap<String, Vec<(Span, &str)>> = BTreeMap::new();
    for d in chosen {
        for edit in d.fix.iter().flat_map(|f| &f.edits) {
            by_file.entry(report.sources.get(edit.file).path.to_string()).or_default().push((edit.span, &edit.content));
        }
    }
    by_file
}
