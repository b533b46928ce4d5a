//! The fixture pairs of the change-aware rules (docs/spec/rules.md §7). Such a fixture
//! has `base/` and `head/`: the test commits `base/`, then puts `head/` in
//! the work tree and the index, and lints with `--staged` and, once committed,
//! with `--base HEAD~1`. The many other cases of `--base`, `--staged` and
//! `--only-changed` are in tests/it/change_*.rs.

use crate::common::*;
use serde_json::Value;
use std::path::Path;
use tempfile::TempDir;

/// Removes everything in `dir` but `.git`.
fn clear_work_tree(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() == ".git" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            std::fs::remove_dir_all(entry.path()).unwrap();
        } else {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
}

/// A repository whose HEAD is `<name>/base` and whose index and work tree are `<name>/head`.
pub(crate) fn history(name: &str) -> TempDir {
    let dir = TempDir::new().unwrap();
    git(dir.path(), &["init", "-q"]);
    copy_dir(&fixture_path(name).join("base"), dir.path());
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    clear_work_tree(dir.path());
    copy_dir(&fixture_path(name).join("head"), dir.path());
    git(dir.path(), &["add", "-A"]);
    dir
}

/// The findings of the fixture's change, staged and then committed (`--base HEAD~1`): both the same.
fn change(name: &str) -> (i32, Value) {
    let dir = history(name);
    let (code, staged) = json_in(dir.path(), &["--staged"]);
    git(dir.path(), &["commit", "-q", "-m", "head"]);
    let (base_code, based) = json_in(dir.path(), &["--base", "HEAD~1"]);
    // The same findings; only the help says what they were compared with.
    let strip = |report: &Value| {
        let mut found = diagnostics(report).clone();
        for finding in &mut found {
            finding.as_object_mut().unwrap().remove("help");
        }
        found
    };
    assert_eq!((code, strip(&staged)), (base_code, strip(&based)), "--staged and --base differ");
    if let Some(help) = of_rule(&based, "removed-beeuni-tool").first().map(|d| &d["help"]) {
        let help = help.as_str().unwrap();
        let block = help.lines().all(|line| line.contains(": beeuni:"));
        assert!(block || help.starts_with("compared with merge base "), "{help}");
    }
    // Without a base, the change-aware rules are off.
    let (_, plain) = json_in(dir.path(), &[]);
    assert!(rule_ids(&plain).iter().all(|r| !r.starts_with("removed-")), "{plain:#}");
    (code, staged)
}

#[test]
fn removed_beeuni_tool() {
    let (code, report) = change("removed-beeuni-tool");
    assert_eq!(code, 1);
    // The change adds the graph's first `tools:` key, which keeps only web_search.
    // One finding for the change, naming every removed tool, with the lines to paste back as its help.
    let message = "this change removes the Beeuni tools `image_search`, `scrape_webpage`, `memory`, `show`: every agent of the project loses them, on both harnesses, in every session that starts after the change merges. Add the lines below under `tools:` to keep them.";
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, message)]);
    assert_eq!(
        diagnostics(&report)[0]["help"],
        "image_search: beeuni:image_search\nscrape_webpage: beeuni:scrape_webpage\nmemory: beeuni:memory\nshow: beeuni:show"
    );
    let (code, report) = change("removed-beeuni-tool-clean");
    assert_clean("removed-beeuni-tool-clean", code, &report);
}

#[test]
fn removed_tool_in_use() {
    let (code, report) = change("removed-tool-in-use");
    assert_eq!(code, 1);
    let found = of_rule(&report, "removed-tool-in-use");
    assert_eq!(found.len(), 1, "{report:#}");
    let message = "this change removes the tool `lookup_order`, but agent `researcher` still names it";
    assert_finding(found[0], &("removed-tool-in-use", "error", "beeuni.yaml", 9, 19, message));
    let (code, report) = change("removed-tool-in-use-clean");
    assert_clean("removed-tool-in-use-clean", code, &report);
}
