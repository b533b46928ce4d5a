//! Shared checks of the fix tests: run `--diff` and `--fix` on a project and prove what a fix must hold.

use crate::common::{self, Run, diagnostics, run_in};
use serde_json::Value;
use std::path::Path;

/// `beeuni-lint --format json .` in `dir`.
pub fn lint(dir: &Path) -> Value {
    let run = run_in(dir, &["--format", "json", "--fail-on", "never", "."]);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", run.stdout, run.stderr))
}

/// `--diff --unsafe-fixes`: the unified diff (writes nothing), checked to be one `git apply` takes.
pub fn diff(dir: &Path) -> String {
    let diff = run_in(dir, &["--diff", "--unsafe-fixes", "."]).stdout;
    common::assert_applies(dir, &diff);
    diff
}

/// `--unsafe-fixes`: applies every fix.
pub fn fix(dir: &Path) -> Run {
    run_in(dir, &["--unsafe-fixes", "--format", "json", "--fail-on", "never", "."])
}

/// Line breaks and a BOM made visible, for snapshots.
pub fn visible(text: &str) -> String {
    text.replace('\r', "␍").replace('\u{feff}', "<BOM>")
}

/// Every file under `dir` (but `.git`), with its bytes.
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The (rule, path, message) of every finding.
pub fn findings(report: &Value) -> Vec<(String, String, String)> {
    diagnostics(report)
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().into(),
                d["path"].as_str().unwrap().into(),
                d["message"].as_str().unwrap().into(),
            )
        })
        .collect()
}

/// Applies every fix of `dir` and checks what a fix promises, given the report before:
/// - `--diff` printed exactly the change `--fix` then made, and wrote nothing;
/// - no file is left with a YAML error or a repeated key that was not there before;
/// - every finding whose fix was applied is gone (by rule, path and message);
/// - outside the bytes the first round's edits name, a changed file keeps its bytes, line by line;
/// - a second run changes nothing.
///
/// Returns the diff.
pub fn fix_and_check(dir: &Path) -> String {
    let before_files = files(dir);
    let before = lint(dir);
    let printed = diff(dir);
    assert_eq!(files(dir), before_files, "--diff wrote something");
    let run = fix(dir);
    let after: Value = serde_json::from_str(&run.stdout).unwrap();
    let after_files = files(dir);
    // What --diff printed is what --fix did.
    assert_eq!(printed.is_empty(), after_files == before_files, "{printed}\n{}", run.stderr);
    for rule in ["yaml-syntax", "duplicate-key"] {
        let count = |r: &Value| findings(r).iter().filter(|f| f.0 == rule).count();
        assert!(count(&after) <= count(&before), "the fixes left a {rule}:\n{}", run.stdout);
    }
    // Each fixed finding is gone: no finding of its rule is left on the line the log names (which says what the
    // fix changed, not the finding), in a file whose lines the fixes did not add or take away (there a line of
    // the log may name another line now).
    let left = diagnostics(&after);
    let lines = |files: &[(String, Vec<u8>)], path: &str| {
        files.iter().find(|(p, _)| p == path).map(|(_, bytes)| bytes.iter().filter(|&&b| b == b'\n').count())
    };
    for line in run.stderr.lines().filter_map(|l| l.strip_prefix("fixed ")) {
        let (place, rest) = line.split_once(": ").unwrap();
        let (path, number) = place.rsplit_once(':').unwrap();
        let rule = rest.split_once('[').unwrap().1.split_once(']').unwrap().0;
        if lines(&before_files, path) != lines(&after_files, path) {
            continue;
        }
        let still = left.iter().any(|d| {
            d["rule"] == rule
                && d["path"] == path
                && d["line"].as_u64().map(|n| n.to_string()).as_deref() == Some(number)
        });
        assert!(!still, "a fixed finding is still reported: {line}\n{}", run.stderr);
    }
    keeps_bytes_outside_edits(&before, &before_files, &after_files);
    // Idempotent: nothing more to do.
    assert_eq!(diff(dir), "", "a second run would change more");
    let again = fix(dir);
    assert!(again.stderr.contains("Fixed 0 findings in 0 files"), "{}", again.stderr);
    assert_eq!(files(dir), after_files);
    printed
}

/// Every changed file: each line of the old text that no edit of the first report touches is still there, in
/// order (a line-level LCS would be stronger, but edits of later rounds only touch lines earlier edits touched
/// or lines they added).
pub fn keeps_bytes_outside_edits(report: &Value, before: &[(String, Vec<u8>)], after: &[(String, Vec<u8>)]) {
    for (path, old) in before {
        let Some((_, new)) = after.iter().find(|(p, _)| p == path) else { continue };
        if old == new {
            continue;
        }
        let mut touched: Vec<(usize, usize)> = Vec::new();
        for d in diagnostics(report) {
            for edit in d["fix"]["edits"].as_array().into_iter().flatten() {
                if edit["path"].as_str() == Some(path.as_str()) {
                    touched.push((edit["start"].as_u64().unwrap() as usize, edit["end"].as_u64().unwrap() as usize));
                }
            }
        }
        let old = String::from_utf8_lossy(old);
        let new = String::from_utf8_lossy(new);
        // BOM, and the line break after the last line, are kept exactly.
        assert_eq!(old.starts_with('\u{feff}'), new.starts_with('\u{feff}'), "{path}: BOM");
        assert_eq!(old.ends_with('\n'), new.ends_with('\n'), "{path}: final line break");
        assert_eq!(old.contains("\r\n"), new.contains("\r\n"), "{path}: CRLF");
        let mut rest = new.as_ref();
        let mut start = 0;
        for line in old.split_inclusive('\n') {
            let end = start + line.len();
            let edited = touched.iter().any(|&(s, e)| s <= end && e >= start);
            if !edited {
                let at =
                    rest.find(line).unwrap_or_else(|| panic!("{path}: the untouched line {line:?} is gone:\n{new}"));
                rest = &rest[at + line.len()..];
            }
            start = end;
        }
    }
}
