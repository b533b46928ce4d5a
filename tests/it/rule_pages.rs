//! The rules' pages under `docs/rules/` are what `rules::docs_page` and `rules::index_page` make of the registry
//! (`BEEUNI_LINT_BLESS_DOCS=1 cargo test --test it rule_pages::` rewrites them), every rule has one, no page is left of a
//! rule that is gone, and every link a report gives to a rule (SARIF `helpUri`, the LSP's `codeDescription`,
//! `explain`) is a file of this repository, and its anchor a heading of that file.

use crate::common::*;
use beeuni_lint::rules::{self, RULES};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn pages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules")
}

fn blessing() -> bool {
    std::env::var_os("BEEUNI_LINT_BLESS_DOCS").is_some_and(|value| value == "1")
}

#[test]
fn every_rule_has_its_current_page_and_no_page_is_left_over() {
    let mut wanted: Vec<(String, String)> =
        RULES.iter().map(|rule| (rules::page_file(rule), rules::docs_page(rule))).collect();
    wanted.push(("index.md".into(), rules::index_page()));
    let dir = pages_dir();
    if blessing() {
        // Only what differs is written and only what no rule has is removed: the other tests of this binary read
        // the pages meanwhile.
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".md") && !wanted.iter().any(|(wanted, _)| *wanted == name) {
                std::fs::remove_file(dir.join(name)).unwrap();
            }
        }
        for (name, page) in &wanted {
            if std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(page) {
                std::fs::write(dir.join(name), page).unwrap();
            }
        }
    }
    let mut stale = Vec::new();
    for (name, page) in &wanted {
        if std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(page) {
            stale.push(name.clone());
        }
    }
    assert!(
        stale.is_empty(),
        "docs/rules/ is not current ({stale:?}): run BEEUNI_LINT_BLESS_DOCS=1 cargo test --test it rule_pages::"
    );
    let names: BTreeSet<String> = wanted.into_iter().map(|(name, _)| name).collect();
    let present: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(present, names, "docs/rules/ holds a page of no rule");
}

/// mdBook serves only the pages `docs/SUMMARY.md` lists: every rule's page, in catalogue order, under the index.
#[test]
fn the_book_lists_every_rule_page() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/SUMMARY.md");
    let summary = std::fs::read_to_string(&path).unwrap();
    let index = "- [Rules](rules/index.md)\n";
    let (before, after) = summary.split_once(index).expect("docs/SUMMARY.md lists no rules/index.md");
    let listed = after.lines().take_while(|line| line.starts_with("  - [")).count();
    let rest: String = after.lines().skip(listed).map(|line| format!("{line}\n")).collect();
    let entries: String =
        RULES.iter().map(|rule| format!("  - [{}](rules/{})\n", rule.id, rules::page_file(rule))).collect();
    let wanted = format!("{before}{index}{entries}{rest}");
    if blessing() {
        std::fs::write(&path, &wanted).unwrap();
    }
    assert!(summary == wanted, "docs/SUMMARY.md does not list the rules' pages: run BEEUNI_LINT_BLESS_DOCS=1");
}

/// GitHub's anchor of a Markdown heading: lower case, spaces as `-`, punctuation but `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Where `url` points in this repository: the file (it must exist) and the anchor (a heading of it), if any.
fn assert_resolves(url: &str) {
    let prefix = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/");
    let path = url.strip_prefix(prefix).unwrap_or_else(|| panic!("{url} is not a file of {prefix}"));
    let (path, fragment) = path.split_once('#').map_or((path, None), |(path, fragment)| (path, Some(fragment)));
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{url}: {path} is not in the repository: {e}"));
    if let Some(fragment) = fragment {
        let headings: Vec<String> =
            text.lines().filter_map(|line| line.strip_prefix('#')).map(|h| anchor(h.trim_start_matches('#'))).collect();
        assert!(headings.iter().any(|h| h == fragment), "{url}: no heading #{fragment} in {path}");
    }
}

#[test]
fn every_help_uri_of_a_sarif_report_is_a_page_of_the_repository() {
    let dir = tempfile::TempDir::new().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/broken"), dir.path());
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    let run = run_in(dir.path(), &["--format", "sarif"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let log: Value = serde_json::from_str(&run.stdout).unwrap();
    let descriptors = log["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(descriptors.len(), RULES.len());
    for descriptor in descriptors {
        let url = descriptor["helpUri"].as_str().unwrap();
        assert_eq!(url, format!("{}/{}.md", rules::PAGES_URL, descriptor["id"].as_str().unwrap()));
        assert_resolves(url);
    }
}

#[test]
fn explain_ends_with_the_page_of_the_rule() {
    let dir = tempfile::TempDir::new().unwrap();
    for rule in RULES {
        let run = run_in(dir.path(), &["explain", rule.id]);
        let url = run.stdout.lines().last().and_then(|line| line.strip_prefix("Online: ")).unwrap_or_else(|| {
            panic!("`explain {}` names no page:\n{}", rule.id, run.stdout);
        });
        assert_eq!(url, rules::page_url(rule));
        assert_resolves(url);
    }
}

#[test]
fn an_anchor_resolves_only_to_a_heading_of_the_file() {
    assert_eq!(anchor(" What it checks"), "what-it-checks");
    assert_eq!(anchor("`unknown-tool`"), "unknown-tool");
    assert_resolves(&format!("{}/unknown-tool.md#what-it-checks", rules::PAGES_URL));
    let missing =
        std::panic::catch_unwind(|| assert_resolves(&format!("{}/unknown-tool.md#no-such", rules::PAGES_URL)));
    assert!(missing.is_err());
}
