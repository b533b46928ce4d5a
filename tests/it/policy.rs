//! `--policy` (docs/policy.md): repositories of two commits (`main`, then `feature` checked out), one for each kind
//! of guarded gain, judged by `check --base main --policy` (every finding of `policy-gain` asserted: file, line,
//! column, message) and by `impact --base main --policy` (its exit and its JSON's `policy`).

use crate::change_support::bin_in;
use crate::impact::two_commits;
use serde_json::Value;

const GUARDS: &str = "[policy]\nguard = [\n  { agents = \"*\", tools = [\"bash\", \"write\"] },\n  { agents = \"support*\", secrets = [\"STRIPE_*\"] },\n]\n";
const PTY: &str = "`pty_spawn`, `pty_write`, `pty_read`, `pty_list`, `pty_kill`";

type Found = (String, String, u64, u64, String);

/// `check --base main --policy --format json ARGS .`: the exit, and the `policy-gain` findings as (severity, path,
/// line, column, message).
fn check(repo_dir: &std::path::Path, args: &[&str]) -> (i32, Vec<Found>) {
    let mut all = vec!["check", "--base", "main", "--policy", "--format", "json"];
    all.extend_from_slice(args);
    let run = bin_in(repo_dir, &all);
    let report: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    let found = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "policy-gain")
        .map(|d| {
            let text = |k: &str| d[k].as_str().unwrap().to_string();
            (
                text("severity"),
                text("path"),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                text("message"),
            )
        })
        .collect();
    (run.code, found)
}

fn one(severity: &str, path: &str, line: u64, column: u64, message: &str) -> Found {
    (severity.into(), path.into(), line, column, message.into())
}

/// `impact --base main --policy --format json`: the exit and the first project's `policy`.
fn impact(repo_dir: &std::path::Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["impact", "--base", "main", "--policy", "--format", "json"];
    all.extend_from_slice(args);
    let run = bin_in(repo_dir, &all);
    let report: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    (run.code, report["projects"][0]["policy"].clone())
}

#[test]
fn a_guarded_tool_with_its_pty_tools_fails_at_the_line_that_gives_it() {
    let repo = two_commits(
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read]\n")],
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read, bash]\n")],
    );
    let (code, found) = check(&repo.dir, &[]);
    assert_eq!(code, 1);
    let message = format!(
        "agent `support` gains `bash`, {PTY}, guarded by the policy (`beeuni-lint.toml:3`): `tools:` lists `bash`"
    );
    assert_eq!(found, [one("error", "beeuni.yaml", 3, 19, &message)]);
    let (code, policy) = impact(&repo.dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(policy["level"], "error");
    assert_eq!(policy["findings"][0]["message"], message.as_str());
    assert_eq!(policy["findings"][0]["approved"], false);
    assert_eq!(policy["findings"][0]["guard"], "beeuni-lint.toml:3");
}

#[test]
fn approved_gains_are_listed_marked_and_do_not_fail() {
    let repo = two_commits(
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read]\n")],
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read, bash]\n")],
    );
    let (code, found) = check(&repo.dir, &["--approved"]);
    assert_eq!(code, 0);
    let message = format!(
        "agent `support` gains `bash`, {PTY}, guarded by the policy (`beeuni-lint.toml:3`): `tools:` lists `bash` (approved)"
    );
    assert_eq!(found, [one("info", "beeuni.yaml", 3, 19, &message)]);
    let (code, policy) = impact(&repo.dir, &["--approved"]);
    assert_eq!(code, 0);
    assert_eq!(policy["findings"][0]["approved"], true);
    // Without --policy the impact has no `policy` field and exits 0.
    let run = bin_in(&repo.dir, &["impact", "--base", "main", "--format", "json"]);
    assert_eq!(run.code, 0);
    assert!(!run.stdout.contains("\"policy\""), "{}", run.stdout);
}

#[test]
fn the_write_group_and_a_secret_glob_are_guarded_per_agent_glob() {
    let head = "agents:\n  support:\n    tools: [read]\n    secrets: [STRIPE_KEY]\n  writer:\n    tools: [read, edit]\n    secrets: [STRIPE_KEY]\n";
    let repo = two_commits(
        &[
            ("beeuni-lint.toml", GUARDS),
            ("beeuni.yaml", "agents:\n  support:\n    tools: [read]\n  writer:\n    tools: [read]\n"),
        ],
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", head)],
    );
    let (code, found) = check(&repo.dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        [
            one(
                "error",
                "beeuni.yaml",
                4,
                5,
                "agent `support` gains the secrets `STRIPE_KEY`, guarded by the policy (`beeuni-lint.toml:4`): `secrets:` list changed"
            ),
            one(
                "error",
                "beeuni.yaml",
                6,
                19,
                "agent `writer` gains `write`, `edit`, `apply_patch`, guarded by the policy (`beeuni-lint.toml:3`): `tools:` lists `edit`"
            ),
        ]
    );
}

#[test]
fn reach_through_task_and_a_new_agent_are_gains() {
    let base = "agents:\n  lead:\n    tools: [read]\n  ops:\n    tools: [read, bash]\n";
    let head =
        "agents:\n  lead:\n    tools: [read, task]\n  ops:\n    tools: [read, bash]\n  intern:\n    tools: [write]\n";
    let guards =
        "[policy]\nguard = [{ agents = \"lead\", tools = [\"bash\"] }, { agents = \"intern\", tools = [\"write\"] }]\n";
    let repo = two_commits(
        &[("beeuni-lint.toml", guards), ("beeuni.yaml", base)],
        &[("beeuni-lint.toml", guards), ("beeuni.yaml", head)],
    );
    let (code, found) = check(&repo.dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        [
            one(
                "error",
                "beeuni.yaml",
                3,
                19,
                &format!(
                    "agent `lead` gains `bash`, {PTY}, guarded by the policy (`beeuni-lint.toml:2`): `tools:` lists `task`"
                )
            ),
            one(
                "error",
                "beeuni.yaml",
                6,
                3,
                "agent `intern` gains `write`, `edit`, `apply_patch`, guarded by the policy (`beeuni-lint.toml:2`): new agent"
            ),
        ]
    );
}

#[test]
fn losses_never_fail_and_unguarded_gains_are_not_findings() {
    let repo = two_commits(
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read, bash]\n")],
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read, webfetch]\n")],
    );
    assert_eq!(check(&repo.dir, &[]), (0, Vec::new()));
    let (code, policy) = impact(&repo.dir, &[]);
    assert_eq!((code, policy["findings"].as_array().unwrap().len()), (0, 0));
}

#[test]
fn a_policy_weakened_in_the_same_change_is_judged_by_the_base_and_reported() {
    let weaker = "[policy]\nguard = [\n  { agents = \"support*\", secrets = [\"STRIPE_*\"] },\n]\n";
    let repo = two_commits(
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read]\n")],
        &[("beeuni-lint.toml", weaker), ("beeuni.yaml", "agents:\n  support:\n    tools: [read, bash]\n")],
    );
    let (code, found) = check(&repo.dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        [
            one(
                "error",
                "beeuni-lint.toml",
                1,
                1,
                "this change weakens the policy: the base's guard at `beeuni-lint.toml:3` (agents `*`) is gone or changed; a guard is judged by the base's policy until the change merges"
            ),
            one(
                "error",
                "beeuni.yaml",
                3,
                19,
                &format!(
                    "agent `support` gains `bash`, {PTY}, guarded by the policy (`beeuni-lint.toml:3`): `tools:` lists `bash`"
                )
            ),
        ]
    );
}

#[test]
fn turning_the_rule_off_in_the_change_is_judged_by_the_base() {
    let off = format!("{GUARDS}[rules]\npolicy-gain = \"off\"\n");
    let repo = two_commits(
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read]\n")],
        &[
            ("beeuni-lint.toml", &off),
            ("beeuni.yaml", "agents:\n  support:\n    tools: [read, bash]  # beeuni-lint-ignore policy-gain\n"),
        ],
    );
    let (code, found) = check(&repo.dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1.as_str(), found[0].2), ("beeuni.yaml", 3));
    // Off at the base: the team's own choice, honoured.
    let repo = two_commits(
        &[("beeuni-lint.toml", &off), ("beeuni.yaml", "agents:\n  support:\n    tools: [read]\n")],
        &[("beeuni-lint.toml", &off), ("beeuni.yaml", "agents:\n  support:\n    tools: [read, bash]\n")],
    );
    assert_eq!(check(&repo.dir, &[]), (0, Vec::new()));
}

#[test]
fn each_project_of_a_monorepo_is_judged_by_its_own_config() {
    let guard = "[policy]\nguard = [{ agents = \"*\", tools = [\"bash\"] }]\n";
    let before = "agents:\n  support:\n    tools: [read]\n";
    let after = "agents:\n  support:\n    tools: [read, bash]\n";
    let repo = two_commits(
        &[("apps/a/beeuni-lint.toml", guard), ("apps/a/beeuni.yaml", before), ("apps/b/beeuni.yaml", before)],
        &[("apps/a/beeuni-lint.toml", guard), ("apps/a/beeuni.yaml", after), ("apps/b/beeuni.yaml", after)],
    );
    let (code, found) = check(&repo.dir, &["."]);
    assert_eq!(code, 1);
    let message = format!(
        "agent `support` gains `bash`, {PTY}, guarded by the policy (`apps/a/beeuni-lint.toml:2`): `tools:` lists `bash`"
    );
    assert_eq!(found, [one("error", "apps/a/beeuni.yaml", 3, 19, &message)]);
    let run = bin_in(&repo.dir, &["impact", "--base", "main", "--policy", "--format", "json", "apps/b"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn policy_needs_a_change() {
    let repo = two_commits(&[("beeuni.yaml", "agents: {}\n")], &[("beeuni.yaml", "agents: {}\n")]);
    let run = bin_in(&repo.dir, &["check", "--policy"]);
    assert_eq!(
        (run.code, run.stderr.trim_end()),
        (2, "beeuni-lint: `--policy` judges a change: add `--base REV` (or `--staged`)")
    );
}

#[test]
fn check_carries_the_finding_into_sarif_and_github_annotations() {
    let repo = two_commits(
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read]\n")],
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents:\n  support:\n    tools: [read, bash]\n")],
    );
    let message = format!(
        "agent `support` gains `bash`, {PTY}, guarded by the policy (`beeuni-lint.toml:3`): `tools:` lists `bash`"
    );
    let run = bin_in(&repo.dir, &["check", "--base", "main", "--policy", "--format", "sarif"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let sarif: Value = serde_json::from_str(&run.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let result = results.iter().find(|r| r["ruleId"] == "policy-gain").expect("a policy-gain result");
    assert_eq!(result["level"], "error");
    assert_eq!(result["message"]["text"], message.as_str());
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "beeuni.yaml");
    assert_eq!(
        (location["region"]["startLine"].as_u64(), location["region"]["startColumn"].as_u64()),
        (Some(3), Some(19))
    );
    let run = bin_in(&repo.dir, &["check", "--base", "main", "--policy", "--format", "github"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("::error file=beeuni.yaml,line=3,"), "{}", run.stdout);
    assert!(run.stdout.contains("title=beeuni-lint (policy-gain)::agent `support` gains `bash`"), "{}", run.stdout);
}

#[test]
fn a_guard_may_name_one_harness_and_a_guard_the_head_adds_counts() {
    // The experimental harness has no terminal plugin: its gain is `bash` alone.
    let guards = "[policy]\nguard = [{ agents = \"ops\", harness = \"experimental\", tools = [\"bash\"] }]\n";
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  ops:\n    tools: [read]\n")],
        &[("beeuni-lint.toml", guards), ("beeuni.yaml", "agents:\n  ops:\n    tools: [read, bash]\n")],
    );
    let (code, found) = check(&repo.dir, &[]);
    assert_eq!(code, 1);
    let message = "agent `ops` gains `bash`, guarded by the policy (`beeuni-lint.toml:2`): `tools:` lists `bash`";
    assert_eq!(found, [one("error", "beeuni.yaml", 3, 19, message)]);
}

/// The Markdown section (what the Action's comment carries) lists ten guarded gains, each cut to 300 bytes, then how
/// many more: beside the impact's own budget the comment stays under GitHub's limit whatever the names.
#[test]
fn the_markdown_section_is_bounded_whatever_the_gains() {
    let long = "a".repeat(900);
    let agents =
        |tools: &str| -> String { (0..30).map(|i| format!("  support_{i}_{long}:\n    tools: {tools}\n")).collect() };
    let repo = two_commits(
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", &format!("agents:\n{}", agents("[read]")))],
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", &format!("agents:\n{}", agents("[read, bash]")))],
    );
    let run = bin_in(&repo.dir, &["impact", "--base", "main", "--policy", "--format", "markdown"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let section = &run.stdout[run.stdout.find("### Policy").expect("a policy section")..];
    let listed: Vec<&str> = section.lines().filter(|l| l.starts_with("- **needs approval**: ")).collect();
    assert_eq!(listed.len(), 10, "{section}");
    assert!(listed.iter().all(|l| l.len() < 360 && l.contains('…')), "{section}");
    assert!(section.contains("- and 20 more: `beeuni-lint impact --policy` lists them all\n"), "{section}");
}

/// A base whose manifest cannot be read is not compared: with a policy, that is one finding (every gain of the head
/// needs approval), never a pass; approved, it is listed and passes.
#[test]
fn a_base_that_cannot_be_read_is_not_a_pass() {
    let head = "agents:\n  support:\n    tools: [read, bash]\n";
    let repo = two_commits(
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", "agents: [\n")],
        &[("beeuni-lint.toml", GUARDS), ("beeuni.yaml", head)],
    );
    let message = "the base's manifest cannot be read, so what this change gives each agent cannot be judged by the \
                   policy: every gain needs approval (or fix the base's manifest first)";
    let (code, found) = check(&repo.dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(found, vec![one("error", "beeuni.yaml", 1, 1, message)]);
    let (code, policy) = impact(&repo.dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(policy["findings"][0]["message"], message);
    assert_eq!(policy["findings"][0]["guard"], "beeuni-lint.toml:3");
    let (code, policy) = impact(&repo.dir, &["--approved"]);
    assert_eq!((code, &policy["findings"][0]["approved"]), (0, &serde_json::json!(true)));
}
