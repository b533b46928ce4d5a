//! The fix stage, beside `render`: applies the edits findings carry (docs/spec/rules.md §8).
//!
//! Fixes are planned in memory, over an overlay of the work tree, in rounds ([`rounds`]): safe fixes first, then
//! unsafe ones, each checked alone ([`offer`]) and then by the lint that follows it. A run that applies both
//! is judged as a whole as well ([`together`]): a safe fix that would let the unsafe ones change what an agent
//! can call is not applied with them. Nothing is written until the plan is complete, so `--diff` and a dropped
//! fix never touch a file; [`write()`] then writes each changed file atomically. The other views offer the fixes
//! that pass the same checks ([`offer::verify`]).

mod describe;
mod diff;
pub mod eject;
mod manifest;
pub mod offer;
pub mod restore;
mod rounds;
mod together;
pub mod transaction;
mod write;

pub use diff::diff;
pub use write::write;

pub use rounds::MAX_ROUNDS;

use crate::diagnostic::{Diagnostic, Fix, Safety, Severity};
use crate::lint::{CacheChoice, CheckOptions};
use crate::report::Report;
use crate::source::Span;
use crate::source::escape::escape;
use rounds::{Planned, SafeFix, rounds};
use std::collections::HashSet;
use std::path::PathBuf;

/// Plans judged together before the fixes they keep apart are settled; the last of them sets apart every safe
/// fix still applied with unsafe ones.
const MAX_JUDGEMENTS: usize = 4;

/// A finding a fix removed, as it was reported before, and what the fix changes.
#[derive(Debug, Clone)]
pub struct Applied {
    pub rule: &'static str,
    pub path: String,
    pub line: usize,
    pub message: String,
    pub safety: Safety,
    /// In words, for the log: "removed `bsh` from `exclude:`" ([`describe::describe`]; escaped).
    pub change: String,
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

/// One finding among those of its key (two agents' lists can name one unloaded tool alike): its key, and how
/// many findings of that key come before it in the report.
type Mark = (Key, usize);

fn marks(report: &Report) -> Vec<Mark> {
    let mut seen: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    report
        .diagnostics
        .iter()
        .map(|d| {
            let key = key(report, d);
            let count = seen.entry(key.clone()).or_default();
            *count += 1;
            (key, *count - 1)
        })
        .collect()
}

fn applied(report: &Report, d: &Diagnostic) -> Applied {
    let file = report.sources.get(d.primary.file);
    Applied {
        rule: d.rule,
        path: shown(report, d.primary.file),
        line: file.position(d.primary.span.start()).line,
        message: d.message.clone(),
        safety: d.fix.as_ref().map_or(Safety::Safe, |f| f.safety),
        change: d.fix.as_ref().map(|fix| describe::describe(report, fix)).unwrap_or_default(),
    }
}

fn shown(report: &Report, file: crate::source::FileId) -> String {
    report.sources.get(file).shown.to_string()
}

/// Plans every fix `unsafe_fixes` allows on the work tree of `options`; writes nothing. `min` is
/// `--min-severity`: a finding below it is dropped before anything else (docs/spec/interface.md), so its fix is neither
/// applied nor counted, and it does not remain in the report.
pub fn plan(options: &CheckOptions, unsafe_fixes: bool, min: Severity) -> Result<Outcome, crate::error::Error> {
    if options.staged {
        return Err(crate::error::Error::Usage(
            "`--fix` edits the work tree, not the index: run `beeuni-lint --fix`, then `git add` the fixed files"
                .into(),
        ));
    }
    // Its runs read the cache and leave it as it is.
    let options = &CheckOptions { cache: CacheChoice::ReadOnly(Box::new(options.cache.clone())), ..options.clone() };
    let mut apart: Vec<(Mark, Dropped)> = Vec::new();
    for judgement in 0..=MAX_JUDGEMENTS {
        let forbidden: HashSet<Mark> = apart.iter().map(|(mark, _)| mark.clone()).collect();
        let planned = rounds(options, unsafe_fixes, min, forbidden.clone())?;
        let Some(after_safe) = planned.after_safe.as_ref().filter(|_| planned.applied_unsafe()) else {
            return Ok(finish(planned, apart, min));
        };
        if planned.safe.is_empty() || judgement == MAX_JUDGEMENTS {
            return Ok(finish(planned, apart, min));
        }
        // The unsafe fixes alone: the same plan without the safe fixes it applied.
        let mut without_safe = forbidden;
        without_safe.extend(planned.safe.iter().map(|s| s.mark.clone()));
        let alone = rounds(options, unsafe_fixes, min, without_safe)?;
        let found = together::disagreements(&planned.original, after_safe, &alone.last, &planned.last);
        if found.is_empty() {
            return Ok(finish(planned, apart, min));
        }
        let last_chance = judgement + 1 == MAX_JUDGEMENTS;
        apart.extend(blame(&planned.safe, &found, last_chance));
    }
    Err(crate::error::Error::Fix("the fixes could not be settled".into()))
}

/// The safe fixes to keep apart from the unsafe ones, each with why: those in the declaration of an agent whose
/// tools differ; else those in no agent's declaration (the loaded tools, the `tools:` map); else (or on the
/// last chance) all of them.
fn blame(safe: &[SafeFix], found: &together::Disagreements, all: bool) -> Vec<(Mark, Dropped)> {
    let first_agent = found.iter().next();
    let mut out = Vec::new();
    for fix in safe {
        let agent = found.iter().find(|(agent, _)| fix.agents.contains(agent));
        if let Some((agent, changes)) = agent {
            let reason = together::reason(agent, changes);
            out.push((fix.mark.clone(), Dropped { applied: fix.applied.clone(), reason }));
        }
    }
    if out.is_empty() {
        for fix in safe.iter().filter(|fix| all || fix.agents.is_empty()) {
            let Some((agent, changes)) = first_agent else { break };
            let reason = together::reason(agent, changes);
            out.push((fix.mark.clone(), Dropped { applied: fix.applied.clone(), reason }));
        }
    }
    if out.is_empty() && !all {
        return blame(safe, found, true);
    }
    out
}

/// The outcome of the plan that stands: the fixes kept apart join its dropped ones, and a finding whose fix
/// the plan does not apply no longer offers it.
fn finish(planned: Planned, kept_apart: Vec<(Mark, Dropped)>, min: Severity) -> Outcome {
    let Planned { mut report, root, overlay, originals, blocked, apart, done, mut dropped, .. } = planned;
    dropped.extend(kept_apart.into_iter().map(|(_, dropped)| dropped));
    report.diagnostics.retain(|d| d.severity >= min);
    let blocked_now: Vec<bool> =
        marks(&report).into_iter().map(|mark| blocked.contains(&mark.0) || apart.contains(&mark)).collect();
    for (d, blocked) in report.diagnostics.iter_mut().zip(blocked_now) {
        if blocked {
            d.fix = None;
        }
    }
    offer::verify(&mut report);
    let changes = originals
        .into_iter()
        .filter_map(|(path, (shown, before))| {
            let after = overlay.get(&path)?.clone();
            (after.as_ref() != Some(&before)).then_some(Change { path, shown, before, after })
        })
        .collect();
    Outcome { report, root, applied: done, dropped, changes }
}

/// What `--fix` says it did (on standard error, so that the report itself stays in its format): what each fix
/// changed (`fixed beeuni.yaml:6: safe[unknown-excluded-tool] removed `bsh` from `exclude:``), each dropped fix
/// with the finding it leaves and why, and one line of counts. The paths and messages are the repository's:
/// escaped.
pub fn summary(outcome: &Outcome) -> String {
    let mut out = String::new();
    for a in &outcome.applied {
        let path = escape(&a.path);
        out.push_str(&format!("fixed {path}:{}: {}[{}] {}\n", a.line, safety(a.safety), a.rule, a.change));
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

/// `text` with each span replaced by its content; `None` when spans overlap or fall outside the text or
/// between the bytes of a character. Insertions at one offset go in the order given.
pub fn splice(text: &str, edits: &[(Span, &str)]) -> Option<String> {
    let mut sorted: Vec<&(Span, &str)> = edits.iter().collect();
    sorted.sort_by_key(|(span, _)| (span.start(), span.end()));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (span, content) in sorted {
        if span.start() < at
            || span.end() > text.len()
            || !text.is_char_boundary(span.start())
            || !text.is_char_boundary(span.end())
        {
            return None;
        }
        out.push_str(&text[at..span.start()]);
        out.push_str(content);
        at = span.end();
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
}
