//! How `--fix`, `--unsafe-fixes` and `--diff` behave around the fixes: what they print, exit codes, the
//! refusal with `--staged`, atomic writes that keep permissions and symlinks, and the file deletions that
//! need git to report the file unmodified.

use crate::common::{git, project, run_in};
use crate::fix_support;
use crate::fix_support::{diff, files, fix_and_check, lint};

const TYPO: &str =
    "tools:\n  web_search: beeuni:image_search\n  show: beeuni:show\nagents:\n  a:\n    tools: [read, grpe]\n";

#[test]
fn report_marks_fixable_findings_and_counts_them() {
    let dir = project(&[("beeuni.yaml", TYPO)]);
    let run = run_in(dir.path(), &["--color", "never", "."]);
    assert!(run.stdout.contains("error[beeuni-ref] [*]"), "{}", run.stdout);
    assert!(run.stdout.contains("warning[unknown-tool] [*] unsafe"), "{}", run.stdout);
    assert!(run.stdout.ends_with("1 fixable with `--fix`, 1 more with `--unsafe-fixes`\n"), "{}", run.stdout);
    let report = lint(dir.path());
    let fix = &report["diagnostics"][0]["fix"];
    assert_eq!(fix["safety"], "safe");
    assert_eq!(fix["edits"][0]["content"], "beeuni:web_search");
}

#[test]
fn fix_applies_safe_fixes_reports_them_and_exits_by_what_remains() {
    let dir = project(&[("beeuni.yaml", TYPO)]);
    let run = run_in(dir.path(), &["--fix", "--color", "never", "."]);
    let text = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
    assert_eq!(text, TYPO.replace("beeuni:image_search", "beeuni:web_search"));
    assert!(
        run.stderr.starts_with(
            "fixed beeuni.yaml:2: safe[beeuni-ref] replaced `beeuni:image_search` with `beeuni:web_search` in \
             `web_search:`\n"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.ends_with("Fixed 1 finding in 1 file; 1 finding remains.\n"), "{}", run.stderr);
    // The unknown tool (a warning) remains, with its unsafe fix: exit 1 at the default --fail-on warning.
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("0 fixable with `--fix`, 1 more with `--unsafe-fixes`"), "{}", run.stdout);
    let run = run_in(dir.path(), &["--unsafe-fixes", "."]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let fixed = "fixed beeuni.yaml:6: unsafe[unknown-tool] replaced `grpe` with `grep` in `tools:`\n";
    assert!(run.stderr.contains(fixed), "{}", run.stderr);
    assert!(std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap().ends_with("tools: [read, grep]\n"));
}

#[test]
fn diff_writes_nothing_and_exits_one_when_there_is_something_to_fix() {
    let dir = project(&[("beeuni.yaml", TYPO)]);
    let before = files(dir.path());
    let run = run_in(dir.path(), &["--diff", "."]);
    assert_eq!(run.code, 1);
    crate::common::assert_applies(dir.path(), &run.stdout);
    assert_eq!(
        run.stdout,
        "--- a/beeuni.yaml\n+++ b/beeuni.yaml\n@@ -1,5 +1,5 @@\n tools:\n-  web_search: beeuni:image_search\n+  web_search: beeuni:web_search\n   show: beeuni:show\n agents:\n   a:\n"
    );
    assert_eq!(files(dir.path()), before);
    let clean = project(&[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")]);
    let run = run_in(clean.path(), &["--diff", "."]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
}

#[test]
fn fix_with_staged_is_refused() {
    let dir = project(&[("beeuni.yaml", TYPO)]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    for flag in ["--fix", "--diff", "--unsafe-fixes"] {
        let run = run_in(dir.path(), &[flag, "--staged", "."]);
        assert_eq!(run.code, 2);
        assert_eq!(
            run.stderr,
            "beeuni-lint: `--fix` edits the work tree, not the index: run `beeuni-lint --fix`, then `git add` the fixed files\n"
        );
    }
    assert_eq!(std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap(), TYPO);
}

#[cfg(unix)]
#[test]
fn writes_keep_permissions_and_symlinks_and_leave_no_temporary_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = project(&[("config/real.yaml", TYPO)]);
    std::os::unix::fs::symlink("config/real.yaml", dir.path().join("beeuni.yaml")).unwrap();
    let real = dir.path().join("config/real.yaml");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    run_in(dir.path(), &["--fix", "."]);
    assert!(std::fs::symlink_metadata(dir.path().join("beeuni.yaml")).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&real).unwrap().contains("beeuni:web_search"));
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
    let names: Vec<String> = files(dir.path()).into_iter().map(|(p, _)| p).collect();
    assert_eq!(names, ["beeuni.yaml", "config/real.yaml"]);
}

#[cfg(unix)]
#[test]
fn a_file_outside_the_repository_is_never_touched() {
    let outside = tempfile::TempDir::new().unwrap();
    let agents = "agents:\n  a:\n    tools: All\n";
    std::fs::write(outside.path().join("agents.yaml"), agents).unwrap();
    let dir = project(&[("beeuni.yaml", "imports:\n  - agents.yaml\nagents:\n  b:\n    tools: NONE\n")]);
    std::os::unix::fs::symlink(outside.path().join("agents.yaml"), dir.path().join("agents.yaml")).unwrap();
    let run = run_in(dir.path(), &["--unsafe-fixes", "--format", "json", "."]);
    // The report stays JSON; the import through the symlink is refused, and only beeuni.yaml is fixed.
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(report["diagnostics"].as_array().unwrap().iter().any(|d| d["rule"] == "import-path"), "{report:#}");
    assert_eq!(std::fs::read_to_string(outside.path().join("agents.yaml")).unwrap(), agents);
    assert!(std::fs::symlink_metadata(dir.path().join("agents.yaml")).unwrap().file_type().is_symlink());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap(),
        "imports:\n  - agents.yaml\nagents:\n  b:\n    tools: none\n"
    );
}

#[test]
fn an_imported_file_is_fixed_where_the_finding_is() {
    let dir = project(&[
        ("beeuni.yaml", "imports:\n  - agents.yaml\ntools:\n  web_search: beeuni:web_search\n"),
        ("agents.yaml", "agents:\n  a:\n    tools: {exclude: [show, bash]}\n"),
    ]);
    let diff = fix_and_check(dir.path());
    assert!(diff.starts_with("--- a/agents.yaml\n+++ b/agents.yaml\n"), "{diff}");
    assert!(std::fs::read_to_string(dir.path().join("agents.yaml")).unwrap().contains("{exclude: [bash]}"));
}

#[test]
fn in_a_monorepo_the_diff_names_repo_relative_paths() {
    let dir = committed(&[("README.md", "x\n"), ("apps/support/beeuni.yaml", TYPO)]);
    let run = run_in(&dir.path().join("apps/support"), &["--diff", "."]);
    crate::common::assert_applies(dir.path(), &run.stdout);
    assert!(
        run.stdout.starts_with("--- a/apps/support/beeuni.yaml\n+++ b/apps/support/beeuni.yaml\n"),
        "{}",
        run.stdout
    );
    let run = run_in(dir.path(), &["--fix", "apps/support"]);
    assert!(run.stderr.starts_with("fixed apps/support/beeuni.yaml:2: safe[beeuni-ref]"), "{}", run.stderr);
    assert!(
        std::fs::read_to_string(dir.path().join("apps/support/beeuni.yaml")).unwrap().contains("beeuni:web_search")
    );
}

#[test]
fn fix_at_the_top_of_a_monorepo_fixes_the_projects_the_commit_touches() {
    let dir = committed(&[("apps/a/beeuni.yaml", TYPO), ("apps/b/beeuni.yaml", TYPO)]);
    std::fs::write(dir.path().join("apps/a/notes.md"), "x\n").unwrap();
    git(dir.path(), &["add", "apps/a/notes.md"]);
    let run = run_in(dir.path(), &["--fix"]);
    assert!(run.stderr.contains("fixed apps/a/beeuni.yaml:2: safe[beeuni-ref]"), "{}", run.stderr);
    assert!(std::fs::read_to_string(dir.path().join("apps/a/beeuni.yaml")).unwrap().contains("beeuni:web_search"));
    assert_eq!(std::fs::read_to_string(dir.path().join("apps/b/beeuni.yaml")).unwrap(), TYPO);
}

/// A repository with one commit of `files`.
fn committed(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = project(files);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

#[test]
fn copies_are_deleted_only_when_git_reports_them_unmodified() {
    let module = crate::common::MODULE;
    let manifest = "tools:\n  web_search: beeuni:web_search\n";
    let dir = committed(&[
        ("beeuni.yaml", manifest),
        ("tools/web_search.ts", module),
        ("harnesses/opencode/tools/memory.ts", module),
    ]);
    let report = lint(dir.path());
    let mut deletes: Vec<&str> =
        report["diagnostics"].as_array().unwrap().iter().filter_map(|d| d["fix"]["delete"][0].as_str()).collect();
    deletes.sort();
    assert_eq!(deletes, ["harnesses/opencode/tools/memory.ts", "tools/web_search.ts"]);
    // SARIF has no form for deleting a file: no `fixes`, and the result's properties name the file.
    let sarif: serde_json::Value =
        serde_json::from_str(&run_in(dir.path(), &["--format", "sarif", "."]).stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let copy = results.iter().find(|r| r["ruleId"] == "legacy-beeuni-copy").unwrap();
    assert_eq!(copy.get("fixes"), None, "{copy:#}");
    let properties = serde_json::json!({"delete": ["harnesses/opencode/tools/memory.ts"], "fixSafety": "unsafe"});
    assert_eq!(copy["properties"], properties, "{copy:#}");
    // Only with --unsafe-fixes.
    assert_eq!(diff(dir.path()).matches("+++ /dev/null").count(), 2);
    run_in(dir.path(), &["--fix", "."]);
    assert!(dir.path().join("tools/web_search.ts").exists());
    fix_and_check(dir.path());
    assert!(!dir.path().join("tools/web_search.ts").exists());
    assert!(!dir.path().join("harnesses/opencode/tools/memory.ts").exists());

    // Modified in the work tree, or staged but not committed: kept, and no fix offered.
    let dir = committed(&[
        ("beeuni.yaml", manifest),
        ("tools/web_search.ts", module),
        ("harnesses/opencode/tools/memory.ts", module),
    ]);
    std::fs::write(dir.path().join("tools/web_search.ts"), format!("{module}// mine\n")).unwrap();
    std::fs::write(dir.path().join("harnesses/opencode/tools/memory.ts"), format!("{module}// mine\n")).unwrap();
    git(dir.path(), &["add", "harnesses"]);
    let report = lint(dir.path());
    assert!(report["diagnostics"].as_array().unwrap().iter().all(|d| d["fix"].is_null()), "{report:#}");
    run_in(dir.path(), &["--unsafe-fixes", "."]);
    assert!(dir.path().join("tools/web_search.ts").exists());
    assert!(dir.path().join("harnesses/opencode/tools/memory.ts").exists());
}

#[test]
fn removed_beeuni_tools_come_back_with_unsafe_fixes() {
    let dir = committed(&[("beeuni.yaml", "agents: {}\n")]);
    git(dir.path(), &["checkout", "-q", "-b", "feature"]);
    std::fs::write(dir.path().join("beeuni.yaml"), "agents: {}\ntools:\n  web_search: beeuni:web_search\n").unwrap();
    let run = run_in(dir.path(), &["--base", "main", "--diff", "--unsafe-fixes", "."]);
    assert_eq!(run.code, 1);
    crate::common::assert_applies(dir.path(), &run.stdout);
    for name in ["image_search", "scrape_webpage", "memory", "show"] {
        assert!(run.stdout.contains(&format!("\n+  {name}: beeuni:{name}\n")), "{}", run.stdout);
    }
    run_in(dir.path(), &["--base", "main", "--unsafe-fixes", "."]);
    let (_, report) = crate::common::json_in(dir.path(), &["--base", "main"]);
    assert!(
        !report["diagnostics"].as_array().unwrap().iter().any(|d| d["rule"] == "removed-beeuni-tool"),
        "{report:#}"
    );
    let text = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3..].sort();
    assert_eq!(
        lines,
        [
            "agents: {}",
            "tools:",
            "  web_search: beeuni:web_search",
            "  image_search: beeuni:image_search",
            "  memory: beeuni:memory",
            "  scrape_webpage: beeuni:scrape_webpage",
            "  show: beeuni:show"
        ]
    );
}

/// `git apply` takes every `--diff`: a fixed block-list item followed at the end of the file by the name it becomes
/// (with and without a last line break), and lone-CR and CRLF line breaks.
#[test]
fn the_diff_is_one_git_apply_takes() {
    let list = "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools:\n      exclude:\n        - bsah\n        - bash";
    for text in [format!("{list}\n"), list.to_string(), list.replace('\n', "\r\n"), list.replace('\n', "\r")] {
        let dir = project(&[("beeuni.yaml", &text)]);
        let diff = diff(dir.path());
        assert!(diff.contains("bsah"), "{text:?}: {diff}");
        // Applied, it gives what `--fix` writes.
        let fixed = project(&[("beeuni.yaml", &text)]);
        run_in(fixed.path(), &["--unsafe-fixes", "."]);
        let mut cmd = std::process::Command::new("git");
        cmd.current_dir(dir.path()).args(["apply", "-"]).stdin(std::process::Stdio::piped());
        crate::common::isolate_git(&mut cmd);
        let mut child = cmd.spawn().unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), diff.as_bytes()).unwrap();
        assert!(child.wait().unwrap().success());
        assert_eq!(files(dir.path()), files(fixed.path()), "{text:?}");
    }
}

/// A `beeuni:` value written as a block scalar: the fix's edit sets a plain value on the key's line, from the
/// indicator to the end of the content (it covered the line break and the next line's indentation, so JSON, SARIF
/// and the editor offered an edit that deleted the next entry), and `--fix` writes exactly that. With a comment on
/// the indicator's line no fix is offered (the edit would lose it).
#[test]
fn a_block_scalar_value_is_fixed_in_place() {
    for header in [">-", "|-", "|", ">", "|2"] {
        let text = format!("tools:\n  show: {header}\n    beeuni:shw\n  web_search: beeuni:web_search\n");
        let dir = project(&[("beeuni.yaml", &text)]);
        let (_, report) = crate::common::json_in(dir.path(), &[]);
        let edit = &report["diagnostics"][0]["fix"]["edits"][0];
        let (start, end) = (text.find(header).unwrap(), text.find("beeuni:shw").unwrap() + 10);
        assert_eq!((edit["start"].as_u64(), edit["end"].as_u64()), (Some(start as u64), Some(end as u64)), "{header}");
        assert_eq!(edit["content"], "beeuni:show");
        let diff = diff(dir.path());
        assert!(diff.contains("+  show: beeuni:show\n"), "{diff}");
        run_in(dir.path(), &["--fix", "."]);
        let fixed = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
        assert_eq!(fixed, "tools:\n  show: beeuni:show\n  web_search: beeuni:web_search\n", "{header}");
    }
    let commented = "tools:\n  show: >- # mine\n    beeuni:shw\n  web_search: beeuni:web_search\n";
    let dir = project(&[("beeuni.yaml", commented)]);
    let (_, report) = crate::common::json_in(dir.path(), &[]);
    assert_eq!(report["diagnostics"][0]["rule"], "beeuni-ref");
    assert!(report["diagnostics"][0].get("fix").is_none(), "{report:#}");
}

const SUPPORT_AND_PRESENTER: &str = "tools:\n  web_search: beeuni:web_search\nagents:\n  support:\n    tools:\n      exclude: [show]\n  presenter:\n    tools: [read, show]\n";

/// `support` excludes `show` while `show` is not loaded (a safe fix deletes the entry: it hides nothing), and
/// `presenter` lists `show` (the unsafe fix loads it). Together they would give `support` the tool it excluded,
/// with no finding left: one `--unsafe-fixes` run applies the unsafe fix and keeps the exclusion, saying why.
#[test]
fn a_safe_fix_is_not_applied_with_an_unsafe_fix_that_changes_what_it_hid() {
    let dir = project(&[("beeuni.yaml", SUPPORT_AND_PRESENTER)]);
    let diff = diff(dir.path());
    assert!(diff.contains("+  show: beeuni:show\n") && !diff.contains("-      exclude: [show]"), "{diff}");
    let run = fix_support::fix(dir.path());
    let written = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
    assert_eq!(
        written,
        SUPPORT_AND_PRESENTER.replace("beeuni:web_search\n", "beeuni:web_search\n  show: beeuni:show\n")
    );
    let fixed = "fixed beeuni.yaml:8: unsafe[unloaded-beeuni-tool] added `show: beeuni:show` to `tools:`\n";
    assert!(run.stderr.contains(fixed), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "not fixed beeuni.yaml:6: [unloaded-beeuni-tool] \"show\" is a Beeuni tool this project does not load: add \
             `show: beeuni:show` under the top-level `tools`, or remove it here. (with the unsafe fixes of this run it \
             would let agent `support` gain `show` on the experimental harness, gain `show` on the standard harness)\n"
        ),
        "{}",
        run.stderr
    );
    let agents = run_in(dir.path(), &["agents", "--json", "."]).stdout;
    let agents: serde_json::Value = serde_json::from_str(&agents).unwrap();
    for entry in agents.as_array().unwrap().iter().filter(|a| a["agent"] == "support") {
        assert!(!entry["tools"].as_array().unwrap().iter().any(|t| t["name"] == "show"), "{entry}");
    }
    // Safe and unsafe fixes that change no agent's tools together go in one run.
    let dir = project(&[("beeuni.yaml", TYPO)]);
    let run = fix_support::fix(dir.path());
    assert!(run.stderr.ends_with("Fixed 2 findings in 1 file; 0 findings remain.\n"), "{}", run.stderr);
    // The clean twin: safe fixes alone delete the entry that hides nothing.
    let dir = project(&[("beeuni.yaml", SUPPORT_AND_PRESENTER)]);
    run_in(dir.path(), &["--fix", "."]);
    let written = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
    assert_eq!(written, SUPPORT_AND_PRESENTER.replace("exclude: [show]", "exclude: []"));
}

/// The raw fix of `unknown-tool` for `bahs` in `{bahs: false, bash: false}` would repeat the key `bash`: `--fix`
/// refuses it, and JSON and SARIF do not offer it (the finding stays, without a fix).
#[test]
fn the_reports_offer_only_the_fixes_fix_would_apply() {
    let dir = project(&[("beeuni.yaml", "agents:\n  a:\n    tools: {bahs: false, bash: false}\n")]);
    let (_, report) = crate::common::json_in(dir.path(), &[]);
    let unknown = crate::common::of_rule(&report, "unknown-tool");
    assert_eq!((unknown.len(), &unknown[0]["line"]), (1, &serde_json::json!(3)), "{report:#}");
    assert!(unknown[0].get("fix").is_none(), "{report:#}");
    assert_eq!(crate::common::of_rule(&report, "legacy-tools-map")[0]["fix"]["safety"], "safe");
    let sarif = run_in(dir.path(), &["--format", "sarif", "--fail-on", "never", "."]).stdout;
    let sarif: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let unknown = results.iter().find(|r| r["ruleId"] == "unknown-tool").unwrap();
    assert!(unknown.get("fixes").is_none(), "{unknown:#}");
    assert!(results.iter().any(|r| r["ruleId"] == "legacy-tools-map" && r["fixes"].is_array()));
}
