//! The rules' pages under `docs/rules/` are what `rules::docs_page` and `rules::index_page` make of the registry
//! (`BEEUNI_LINT_BLESS_DOCS=1 cargo test --test it rule_pages::` rewrites them), every rule has one, no page is left of a
//! rule that is gone, and every link a report gives to a rule (SARIF `helpUri`, the LSP's `codeDescription`,
//! `explain`) is a page of the documentation site, and its anchor a heading of that page.

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

/// The sidebar's heading of a category's rules.
fn category_title(category: &str) -> &'static str {
    match category {
        "manifest" => "Manifest",
        "tool" => "Tools",
        "agent" => "Agents",
        "module" => "Tool modules",
        "legacy" => "Legacy harness",
        "xcsh" => "xcsh",
        "change-aware" => "Change-aware",
        other => panic!("category `{other}` has no title in the sidebar: add one here"),
    }
}

/// mdBook serves only the pages `docs/SUMMARY.md` lists: every rule's page under the index, grouped by category
/// (an entry of its own with no page, which the sidebar folds) in the order the catalogue first names each.
#[test]
fn the_book_lists_every_rule_page() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/SUMMARY.md");
    let summary = std::fs::read_to_string(&path).unwrap();
    let index = "- [Rules](rules/index.md)\n";
    let (before, after) = summary.split_once(index).expect("docs/SUMMARY.md lists no rules/index.md");
    let listed = after.lines().take_while(|line| line.starts_with("  - [") || line.starts_with("    - [")).count();
    let rest: String = after.lines().skip(listed).map(|line| format!("{line}\n")).collect();
    let mut categories: Vec<&str> = Vec::new();
    for rule in RULES {
        if !categories.contains(&rule.category().as_str()) {
            categories.push(rule.category().as_str());
        }
    }
    let mut entries = String::new();
    for category in categories {
        entries.push_str(&format!("  - [{}]()\n", category_title(category)));
        for rule in RULES.iter().filter(|rule| rule.category().as_str() == category) {
            entries.push_str(&format!("    - [{}](rules/{})\n", rule.id, rules::page_file(rule)));
        }
    }
    let wanted = format!("{before}{index}{entries}{rest}");
    if blessing() {
        std::fs::write(&path, &wanted).unwrap();
    }
    assert!(summary == wanted, "docs/SUMMARY.md does not list the rules' pages: run BEEUNI_LINT_BLESS_DOCS=1");
}

/// `url` is a page of the site (the rendered `docs/`) and its anchor a heading id of that page.
fn assert_resolves(url: &str) {
    assert!(url.starts_with(rules::SITE_URL), "{url} is not a page of {}", rules::SITE_URL);
    if let Some(why) = crate::docs_site::dead_link(url) {
        panic!("{url}: {why}");
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
        assert_eq!(url, format!("{}/{}.html", rules::PAGES_URL, descriptor["id"].as_str().unwrap()));
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
fn an_anchor_resolves_only_to_a_heading_of_the_page() {
    assert_resolves(&format!("{}/unknown-tool.html#what-it-checks", rules::PAGES_URL));
    let missing =
        std::panic::catch_unwind(|| assert_resolves(&format!("{}/unknown-tool.html#no-such", rules::PAGES_URL)));
    assert!(missing.is_err());
}
