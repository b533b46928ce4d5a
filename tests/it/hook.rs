//! Hook mode (`--staged` without PATH, docs/spec/interface.md "Hooks and CI"): every
//! project of the repository that holds a staged change is linted, deletions
//! included, and the exit status is the worst of them. Real git repositories.

use crate::change_support::*;
use crate::common;

const CLEAN: &str = "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n";

/// A manifest with a finding of its own: agent `a` lists `grpe` in apps/a, `reed` in apps/b.
fn typo(app: &str) -> String {
    format!("{CLEAN}agents:\n  a:\n    tools: [{}]\n", unknown(app))
}

fn unknown(app: &str) -> &'static str {
    if app.ends_with('a') { "grpe" } else { "reed" }
}

/// `apps/a` and `apps/b`, each a clean project with one module, committed; no manifest at the top.
fn monorepo() -> Repo {
    let repo = Repo::new();
    for app in ["apps/a", "apps/b"] {
        repo.write(&format!("{app}/beeuni.yaml"), CLEAN);
        repo.write(&format!("{app}/tools/lookup.ts"), MODULE);
    }
    repo.write("README.md", "# shop\n");
    repo.commit("two projects");
    repo
}

fn hook(repo: &Repo) -> common::Run {
    bin_in(&repo.dir, &["--staged", "--format", "short"])
}

/// Asserts the short report is one line per app, each `typo(app)`'s finding at its repo-relative path.
fn assert_typos(run: &common::Run, apps: &[&str]) {
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), apps.len(), "stdout:\n{}stderr:\n{}", run.stdout, run.stderr);
    for (line, app) in lines.iter().zip(apps) {
        let finding = format!("beeuni.yaml:6:13: warning[unknown-tool] {}", unknown_tool("a", unknown(app)));
        assert_eq!(*line, format!("{app}/{finding}"));
    }
}

#[test]
fn a_monorepo_commit_lints_the_project_it_touches() {
    let repo = monorepo();
    // A finding in apps/a's work tree that is not staged, and one staged in apps/b.
    repo.write("apps/a/beeuni.yaml", &typo("apps/a")).commit("a finding in apps/a");
    repo.write("apps/b/beeuni.yaml", &typo("apps/b"));
    repo.git(&["add", "apps/b/beeuni.yaml"]);
    let run = hook(&repo);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_typos(&run, &["apps/b"]);
}

#[test]
fn every_touched_project_is_linted_and_the_worst_status_wins() {
    let repo = monorepo();
    repo.write("apps/a/tools/lookup.ts", &format!("// reworded\n{MODULE}"));
    repo.write("apps/b/beeuni.yaml", &typo("apps/b"));
    repo.stage();
    let run = hook(&repo);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_typos(&run, &["apps/b"]);
    // apps/a is linted too: give its staged manifest a finding and both report, in order.
    repo.write("apps/a/beeuni.yaml", &typo("apps/a")).stage();
    let run = hook(&repo);
    assert_eq!(run.code, 1);
    assert_typos(&run, &["apps/a", "apps/b"]);
}

#[test]
fn a_commit_that_only_deletes_a_module_is_checked() {
    let repo = monorepo();
    repo.git(&["rm", "-q", "apps/a/tools/lookup.ts"]);
    let run = hook(&repo);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stdout);
    assert!(lines[0].starts_with("apps/a/beeuni.yaml:3:3: error[module-missing] module `"), "{}", lines[0]);
    assert!(lines[0].ends_with("tools/lookup.ts` of tool `lookup` does not exist"), "{}", lines[0]);
}

#[test]
fn a_commit_outside_every_project_passes_quietly() {
    let repo = monorepo();
    repo.write("apps/a/beeuni.yaml", &typo("apps/a")).commit("a finding in apps/a");
    repo.write("README.md", "# shop, now documented\n");
    repo.git(&["add", "README.md"]);
    let run = hook(&repo);
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", ""));
}

#[test]
fn in_a_project_folder_its_project_is_linted_even_with_nothing_staged() {
    let repo = monorepo();
    repo.write("apps/a/beeuni.yaml", &typo("apps/a")).commit("a finding in apps/a");
    let run = bin_in(&repo.path("apps/a/tools"), &["--staged", "--format", "short"]);
    assert_eq!(run.code, 1);
    assert_typos(&run, &["apps/a"]);
}

#[test]
fn one_document_formats_are_one_report_of_every_touched_project() {
    let repo = monorepo();
    repo.write("apps/a/beeuni.yaml", &typo("apps/a"));
    repo.write("apps/b/beeuni.yaml", &typo("apps/b"));
    repo.stage();
    let run = bin_in(&repo.dir, &["--staged", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["projects"], serde_json::json!(["apps/a", "apps/b"]));
    let places: Vec<(&str, &str)> = common::diagnostics(&report)
        .iter()
        .map(|d| (d["path"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect();
    let (a, b) = (unknown_tool("a", "grpe"), unknown_tool("a", "reed"));
    assert_eq!(places, [("apps/a/beeuni.yaml", a.as_str()), ("apps/b/beeuni.yaml", b.as_str())]);
    // With one project touched, JSON is that project's report.
    repo.git(&["reset", "-q", "apps/a/beeuni.yaml"]);
    let run = bin_in(&repo.dir, &["--staged", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!((&report["project"], common::rule_ids(&report)), (&serde_json::json!("apps/b"), vec!["unknown-tool"]));
}

#[test]
fn the_human_report_names_each_project_it_lints() {
    let repo = monorepo();
    repo.write("apps/a/beeuni.yaml", &typo("apps/a"));
    repo.write("apps/b/beeuni.yaml", &typo("apps/b"));
    repo.stage();
    let run = bin_in(&repo.dir, &["--staged", "--color", "never"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let a = run.stdout.find("==> apps/a <==\n").unwrap_or_else(|| panic!("no heading for apps/a:\n{}", run.stdout));
    let b = run.stdout.find("==> apps/b <==\n").unwrap_or_else(|| panic!("no heading for apps/b:\n{}", run.stdout));
    assert_eq!(a, 0, "{}", run.stdout);
    let (in_a, in_b) = (&run.stdout[a..b], &run.stdout[b..]);
    assert!(in_a.contains("[apps/a/beeuni.yaml:6:13]") && in_a.contains("`grpe`"), "{in_a}");
    assert!(in_b.contains("[apps/b/beeuni.yaml:6:13]") && !in_b.contains("apps/a/"), "{in_b}");
    assert_eq!(run.stdout.matches("==> ").count(), 2);
    assert!(in_a.ends_with("`--unsafe-fixes`\n\n"), "a blank line before the next heading:\n{in_a}");
    // One project in a subfolder is named too; the short form, one line a finding, has no heading.
    repo.git(&["reset", "-q", "apps/a/beeuni.yaml"]);
    let run = bin_in(&repo.dir, &["--staged", "--color", "never"]);
    assert!(run.stdout.starts_with("==> apps/b <==\nwarning[unknown-tool]"), "{}", run.stdout);
    assert_typos(&hook(&repo), &["apps/b"]);
    // A repository that is one project: nothing to name.
    let single = Repo::new();
    single.write("beeuni.yaml", &typo("a")).write("tools/lookup.ts", MODULE).stage();
    let run = bin_in(&single.dir, &["--staged", "--color", "never"]);
    assert_eq!(run.code, 1);
    assert!(!run.stdout.contains("==>") && run.stdout.contains("[beeuni.yaml:6:13]"), "{}", run.stdout);
}

#[test]
fn without_a_manifest_in_the_index_the_run_says_what_to_stage() {
    let repo = Repo::new();
    repo.write("beeuni.yaml", CLEAN).write("tools/lookup.ts", MODULE);
    repo.git(&["add", "tools/lookup.ts"]);
    let message = fails_in(&repo.dir, &["--staged"]);
    assert_eq!(message, "no beeuni.yaml in the index: stage it with `git add beeuni.yaml`");
}

#[test]
fn the_published_hooks_run_on_every_commit() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.pre-commit-hooks.yaml")).unwrap();
    let hooks: Vec<&str> = manifest.split("\n- ").collect();
    for id in ["beeuni-lint", "beeuni-lint-wheel"] {
        let hook = hooks
            .iter()
            .find(|hook| hook.trim_start_matches("- ").starts_with(&format!("id: {id}\n")))
            .unwrap_or_else(|| panic!("no hook `{id}` in:\n{manifest}"));
        let entry = "entry: beeuni-lint --staged --min-severity warning\n";
        for line in [entry, "pass_filenames: false\n", "always_run: true\n"] {
            assert!(hook.contains(&format!("  {line}")), "hook `{id}` lacks `{}`:\n{hook}", line.trim());
        }
        assert!(!hook.contains("  files:"), "a `files` pattern never sees a deletion: {hook}");
    }
}

#[test]
fn xcsh_tools_at_the_top_of_a_monorepo_are_a_project_of_their_own() {
    let repo = monorepo();
    repo.write(".xcsh/tools/stats.ts", "export default (pi) => ({ name: 'grep', description: 'x', parameters: pi.typebox.Type.Object({}), execute(id, params) {} })\n");
    repo.git(&["add", ".xcsh/tools/stats.ts"]);
    let run = hook(&repo);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.starts_with(".xcsh/tools/stats.ts:1:27: error[xcsh-name-conflict] the tool name `grep`"),
        "{}",
        run.stdout
    );
}

/// The read-only hooks' entry, as .pre-commit-hooks.yaml has it, without the program's name.
fn published_entry() -> Vec<String> {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.pre-commit-hooks.yaml")).unwrap();
    let hook = manifest.split("\n- ").find(|hook| hook.starts_with("id: beeuni-lint\n")).unwrap();
    let entry = hook.lines().find_map(|line| line.trim().strip_prefix("entry: ")).unwrap();
    entry.split_whitespace().skip(1).map(String::from).collect()
}

#[test]
fn the_published_hook_shows_warnings_and_up_unless_args_ask_for_infos() {
    let repo = monorepo();
    // An info (an empty tool list) and a warning (a misspelt tool).
    repo.write("apps/a/beeuni.yaml", &format!("{CLEAN}agents:\n  a:\n    tools: []\n  b:\n    tools: [grpe]\n"))
        .stage();
    let entry = published_entry();
    let mut args: Vec<&str> = entry.iter().map(String::as_str).collect();
    args.extend(["--format", "short"]);
    let run = bin_in(&repo.dir, &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let warning = format!("apps/a/beeuni.yaml:8:13: warning[unknown-tool] {}\n", unknown_tool("b", "grpe"));
    assert_eq!(run.stdout, warning);
    // pre-commit appends a user's `args:` to the entry: the last --min-severity wins.
    args.extend(["--min-severity", "info"]);
    let run = bin_in(&repo.dir, &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    let info = "apps/a/beeuni.yaml:6:5: info[empty-tool-list] agent `a` has an empty tool list: it gets no tool";
    assert_eq!(lines[0], info);
    assert_eq!(format!("{}\n", lines[1]), warning);
}
