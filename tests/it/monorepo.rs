//! A monorepo: two projects (`apps/agent`, `apps/other`) in one git repository, linted from the repository
//! root and from inside a project, in every format. Every path a report prints is relative to the git work
//! tree root (docs/spec/interface.md, Positions), so annotations, SARIF alerts and `git add` hints name real files.

use crate::common;
use crate::common::{bin, git, run_in, write};
use crate::monorepo_support::monorepo;
use serde_json::Value;
use std::path::Path;

const BSH: &str =
    "agent `support` excludes `bsh`, which is not a known tool: it hides nothing, and `bash` stays enabled";

/// The two places a user runs from: the repository root with the project's folder, and inside the project.
fn both_ways(root: &Path) -> [(std::path::PathBuf, &'static str); 2] {
    [(root.to_path_buf(), "apps/agent"), (root.join("apps/agent"), ".")]
}

#[test]
fn json_paths_and_project_are_repo_relative() {
    let dir = monorepo();
    for (cwd, arg) in both_ways(dir.path()) {
        let run = run_in(&cwd, &["--format", "json", arg]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        let report: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(report["project"], "apps/agent");
        let d = common::diagnostics(&report);
        assert_eq!(d.len(), 2, "{report:#}");
        common::assert_finding(
            &d[0],
            &(
                "file-untracked",
                "info",
                "apps/agent/beeuni.yaml",
                3,
                3,
                "module `apps/agent/tools/lookup.ts` is not tracked by git yet: a config release contains only files Git tracks",
            ),
        );
        common::assert_help(&d[0], "run `git add apps/agent/tools/lookup.ts`");
        common::assert_finding(&d[1], &("unknown-excluded-tool", "error", "apps/agent/beeuni.yaml", 7, 17, BSH));
    }
    // The help works: `git add` from the repository root tracks the file, and the finding goes.
    git(dir.path(), &["add", "apps/agent/tools/lookup.ts"]);
    let run = run_in(dir.path(), &["--format", "json", "apps/agent"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(common::rule_ids(&report), ["unknown-excluded-tool"]);
}

#[test]
fn the_project_beside_it_and_the_top_level_project() {
    let dir = monorepo();
    let run = run_in(dir.path(), &["--format", "json", "apps/other"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["project"], "apps/other");
    common::assert_findings(
        &report,
        &[(
            "unknown-tool",
            "warning",
            "apps/other/beeuni.yaml",
            3,
            13,
            "agent `helper` lists `grpe`, which is not a known tool: it is ignored",
        )],
    );
    // Fix edits name the file from the repository root too, in JSON and SARIF.
    assert_eq!(common::diagnostics(&report)[0]["fix"]["edits"][0]["path"], "apps/other/beeuni.yaml");
    let run = run_in(&dir.path().join("apps/other"), &["--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&run.stdout).unwrap();
    let change = &sarif["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0];
    assert_eq!(change["artifactLocation"]["uri"], "apps/other/beeuni.yaml");
    // A file inside a project names that project.
    let run = run_in(dir.path(), &["--format", "json", "apps/other/beeuni.yaml"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["project"], "apps/other");
    // A project at the top: `project` is "".
    write(dir.path(), "beeuni.yaml", b"tools:\n  show: beeuni:show\n");
    let run = run_in(dir.path(), &["--format", "json", "."]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["project"], "");
    assert_eq!(common::rule_ids(&report), ["file-untracked"]);
    assert_eq!(common::diagnostics(&report)[0]["path"], "beeuni.yaml");
}

#[test]
fn sarif_uris_resolve_against_the_repository_root() {
    let dir = monorepo();
    for (cwd, arg) in both_ways(dir.path()) {
        let run = run_in(&cwd, &["--format", "sarif", arg]);
        let sarif: Value = serde_json::from_str(&run.stdout).unwrap();
        let run0 = &sarif["runs"][0];
        assert!(run0["originalUriBaseIds"]["%SRCROOT%"].is_object());
        let results = run0["results"].as_array().unwrap();
        assert_eq!(results.len(), 2);
        for result in results {
            let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
            assert_eq!(location["uri"], "apps/agent/beeuni.yaml", "{result:#}");
            assert_eq!(location["uriBaseId"], "%SRCROOT%");
        }
        assert_eq!(results[1]["ruleId"], "unknown-excluded-tool");
        // `--sarif-file` writes the same paths.
        let file = dir.path().join("out.sarif");
        bin(&cwd).args(["--format", "short", "--sarif-file"]).arg(&file).arg(arg).output().unwrap();
        let written = std::fs::read_to_string(&file).unwrap();
        assert!(written.contains("\"uri\": \"apps/agent/beeuni.yaml\""), "{written}");
    }
}

#[test]
fn short_human_and_github_name_repo_relative_files() {
    let dir = monorepo();
    for (cwd, arg) in both_ways(dir.path()) {
        let short = run_in(&cwd, &["--format", "short", arg]).stdout;
        assert_eq!(
            short.lines().nth(1),
            Some(format!("apps/agent/beeuni.yaml:7:17: error[unknown-excluded-tool] {BSH}").as_str())
        );
        let human = run_in(&cwd, &["--format", "human", "--color", "never", arg]).stdout;
        assert!(human.contains("╭─[apps/agent/beeuni.yaml:7:17]"), "{human}");
        assert!(human.contains("help: run `git add apps/agent/tools/lookup.ts`"), "{human}");
        let github = run_in(&cwd, &["--format", "github", arg]).stdout;
        assert!(
            github.contains(
                "::error file=apps/agent/beeuni.yaml,line=7,col=17,endLine=7,endColumn=20,title=beeuni-lint (unknown-excluded-tool)::"
            ),
            "{github}"
        );
        assert!(github.contains("::notice file=apps/agent/beeuni.yaml,line=3,col=3,"), "{github}");
    }
}

#[test]
fn ls_names_the_manifest_from_the_repository_root() {
    let dir = monorepo();
    for (cwd, arg) in both_ways(dir.path()) {
        let run = run_in(&cwd, &["ls", "--json", arg]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let listing: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(listing["manifest"], "apps/agent/beeuni.yaml");
        // Sources are the manifest's own values (project-relative, as the manifest writes them).
        assert_eq!(listing["tools"][1]["source"], "tools/lookup.ts");
    }
}

#[test]
fn one_config_at_the_repository_root_serves_every_project() {
    let dir = monorepo();
    let root = dir.path();
    // Excludes match paths from the config's folder.
    write(root, "beeuni-lint.toml", b"[rules]\nunknown-tool = \"error\"\n[paths]\nexclude = [\"apps/agent/**\"]\n");
    let run = run_in(&root.join("apps/other"), &["--format", "short", "."]);
    assert_eq!(
        run.stdout,
        "apps/other/beeuni.yaml:3:13: error[unknown-tool] agent `helper` lists `grpe`, which is not a known tool: it is ignored\n"
    );
    let run = run_in(root, &["--format", "short", "apps/agent"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    // The project's own config wins over the one above it.
    write(root, "apps/other/beeuni-lint.toml", b"[rules]\nunknown-tool = \"off\"\n");
    let run = run_in(root, &["--format", "short", "apps/other"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    // A mistake names the config by its repo-relative path.
    write(root, "apps/other/beeuni-lint.toml", b"[rules]\nunknown-toll = \"off\"\n");
    let run = run_in(&root.join("apps/other"), &["."]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "beeuni-lint: apps/other/beeuni-lint.toml:2:1: unknown rule `unknown-toll` in [rules]: did you mean `unknown-tool`?\n"
    );
}

#[test]
fn no_manifest_says_where_it_looked_and_what_to_pass() {
    let dir = monorepo();
    let run = run_in(&dir.path().join("docs"), &["."]);
    assert_eq!(run.code, 2);
    let top = std::fs::canonicalize(dir.path()).unwrap();
    assert_eq!(
        run.stderr,
        format!(
            "beeuni-lint: no beeuni.yaml at {top}: looked in {top}/docs and every folder above it up to {top}; pass a project's folder, e.g. `beeuni-lint ../apps/agent` (projects: `../apps/agent`, `../apps/other`)\n",
            top = top.display()
        )
    );
}

#[test]
fn an_unstaged_manifest_in_a_subfolder_names_it_from_the_repository_root() {
    let dir = monorepo();
    write(dir.path(), "apps/new/beeuni.yaml", b"tools:\n  show: beeuni:show\n");
    let run = run_in(&dir.path().join("apps/new"), &["--staged", "."]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "beeuni-lint: no beeuni.yaml in the index: stage it with `git add apps/new/beeuni.yaml`\n");
}

#[test]
fn a_legacy_copy_in_a_project_below_the_root_is_deleted_by_its_fix() {
    let dir = monorepo();
    let copy = "apps/agent/harnesses/opencode/tools/web_search.ts";
    write(dir.path(), copy, b"export default {}\n");
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "legacy copy"]);
    let run = run_in(dir.path(), &["--format", "json", "apps/agent"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let found = common::of_rule(&report, "legacy-beeuni-copy");
    let message = format!(
        "`{copy}` is an old copy of the Beeuni tool `web_search`: on the standard harness it takes precedence over the hosted tool"
    );
    common::assert_finding(found[0], &("legacy-beeuni-copy", "warning", copy, 1, 1, &message));
    assert_eq!(found[0]["fix"]["delete"], serde_json::json!([copy]), "{report:#}");
    let run = run_in(dir.path(), &["--fix", "--unsafe-fixes", "apps/agent"]);
    assert!(!dir.path().join(copy).exists(), "{}", run.stdout);
    assert!(dir.path().join("apps/agent/beeuni.yaml").exists());
}
