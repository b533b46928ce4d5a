//! A monorepo's root (no `beeuni.yaml` there) lints every project the repository tracks, in one report, in
//! every format; several PATHs are several projects in one report. Two projects, `apps/agent` (an error and an
//! info) and `apps/other` (a warning), in a real git repository.

use crate::common;
use crate::common::{bin, git, run_in, write};
use serde_json::{Value, json};

use crate::monorepo_support::{OTHER, monorepo};
use tempfile::TempDir;

const UNTRACKED: &str = "apps/agent/beeuni.yaml:3:3: info[file-untracked] module `apps/agent/tools/lookup.ts` is not tracked by git yet: a config release contains only files Git tracks\n";
const BSH: &str = "apps/agent/beeuni.yaml:7:17: error[unknown-excluded-tool] agent `support` excludes `bsh`, which is not a known tool: it hides nothing, and `bash` stays enabled\n";
const GRPE: &str = "apps/other/beeuni.yaml:3:13: warning[unknown-tool] agent `helper` lists `grpe`, which is not a known tool: it is ignored\n";

fn json(run: &common::Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}{}", run.stdout, run.stderr))
}

#[test]
fn short_at_the_root_is_every_project_and_the_status_counts_them_all() {
    let dir = monorepo();
    for args in [&["--format", "short"][..], &["--format", "short", "."], &["check", "--format", "short"]] {
        let run = run_in(dir.path(), args);
        assert_eq!((run.code, run.stderr.as_str()), (1, ""), "{args:?}");
        assert_eq!(run.stdout, format!("{UNTRACKED}{BSH}{GRPE}"), "{args:?}");
    }
    // The exit status counts every project's findings: apps/other alone passes --fail-on error, the root (with
    // apps/agent's error) fails it.
    let run = run_in(dir.path(), &["--format", "short", "--fail-on", "error", "apps/other"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, GRPE));
    let run = run_in(dir.path(), &["--format", "short", "--fail-on", "error"]);
    assert_eq!(run.code, 1);
    let run = run_in(dir.path(), &["--format", "short", "--min-severity", "warning"]);
    assert_eq!((run.code, run.stdout), (1, format!("{BSH}{GRPE}")));
}

#[test]
fn human_at_the_root_shows_repo_relative_files_and_one_summary() {
    let dir = monorepo();
    let run = run_in(dir.path(), &["--color", "never"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let at: Vec<usize> =
        ["[apps/agent/beeuni.yaml:3:3]", "[apps/agent/beeuni.yaml:7:17]", "[apps/other/beeuni.yaml:3:13]"]
            .iter()
            .map(|place| run.stdout.find(place).unwrap_or_else(|| panic!("no {place} in:\n{}", run.stdout)))
            .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{}", run.stdout);
    assert!(run.stdout.contains("  × agent `support` excludes `bsh`, which is not a known tool"), "{}", run.stdout);
    assert!(run.stdout.contains("  ⚠ agent `helper` lists `grpe`, which is not a known tool: it is ignored"));
    assert_eq!(run.stdout.matches(" in 3 files\n").count(), 1, "one summary:\n{}", run.stdout);
    assert!(run.stdout.contains("\n1 error, 1 warning, 1 info in 3 files\n"), "{}", run.stdout);
    assert!(run.stdout.ends_with("\n2 projects linted, 2 with findings\n"), "{}", run.stdout);
}

/// A clean project beside the others is counted: without the line it would be invisible. One project is reported
/// as ever (no such line), and the machine formats stay as they were (JSON lists the projects already).
#[test]
fn human_at_the_root_counts_the_projects_linted_and_those_with_findings() {
    let dir = monorepo();
    write(dir.path(), "apps/clean/beeuni.yaml", b"agents:\n  helper:\n    tools: [read]\n");
    git(dir.path(), &["add", "apps/clean/beeuni.yaml"]);
    let run = run_in(dir.path(), &["--color", "never"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.ends_with("1 error, 1 warning, 1 info in 4 files\n0 fixable with `--fix`, 2 more with `--unsafe-fixes`\n3 projects linted, 2 with findings\n"), "{}", run.stdout);
    let run = run_in(dir.path(), &["--color", "never", "apps/clean", "apps/other"]);
    assert!(run.stdout.ends_with("\n2 projects linted, 1 with findings\n"), "{}", run.stdout);
    let run = run_in(dir.path(), &["--color", "never", "apps/clean"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "no problems in 1 file\n"));
    let run = run_in(dir.path(), &["--format", "short"]);
    assert_eq!(run.stdout, format!("{UNTRACKED}{BSH}{GRPE}"));
    assert_eq!(
        json(&run_in(dir.path(), &["--format", "json"]))["projects"],
        json!(["apps/agent", "apps/clean", "apps/other"])
    );
}

/// `ls` and `agents` answer for one project: at the root they exit 2, and the hint names the command to run.
#[test]
fn ls_and_agents_at_the_root_name_their_own_command() {
    let dir = monorepo();
    let top = std::fs::canonicalize(dir.path()).unwrap();
    for command in ["ls", "agents"] {
        let run = run_in(dir.path(), &[command]);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{command}");
        assert_eq!(
            run.stderr,
            format!(
                "beeuni-lint: no beeuni.yaml at {0}: looked in {0}; pass a project's folder, e.g. `beeuni-lint {command} apps/agent` (projects: `apps/agent`, `apps/other`)\n",
                top.display()
            )
        );
        assert_eq!(run_in(dir.path(), &[command, "apps/agent"]).code, 0, "{command}");
    }
    // `check` keeps its own (the default command, left out).
    let run = run_in(&dir.path().join("docs"), &[]);
    assert!(run.stderr.contains("; pass a project's folder, e.g. `beeuni-lint ../apps/agent`"), "{}", run.stderr);
}

/// A `beeuni-lint.toml` at the top whose `[paths] exclude` globs match a project's folder or manifest leaves the
/// project out of a run at the root (test fixtures, vendored examples); `--config` names another. Named as a
/// PATH, a project is linted as ever.
#[test]
fn the_config_at_the_top_excludes_projects_from_a_run_at_the_root() {
    let dir = monorepo();
    write(dir.path(), "beeuni-lint.toml", b"[paths]\nexclude = [\"apps/other/**\"]\n");
    let run = run_in(dir.path(), &["--format", "short"]);
    assert_eq!((run.code, run.stdout), (1, format!("{UNTRACKED}{BSH}")), "{}", run.stderr);
    write(dir.path(), "beeuni-lint.toml", b"[paths]\nexclude = [\"apps/agent\"]\n");
    let run = run_in(dir.path(), &["--format", "short"]);
    assert_eq!((run.code, run.stdout.as_str()), (1, GRPE), "{}", run.stderr);
    write(dir.path(), "other.toml", b"[paths]\nexclude = [\"apps/*/beeuni.yaml\"]\n");
    let run = run_in(dir.path(), &["--format", "short", "--config", "other.toml"]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "beeuni-lint: every project the repository tracks is excluded by `[paths] exclude` in other.toml: name a project to lint as a PATH\n"
    );
    let run = run_in(dir.path(), &["--format", "short", "apps/agent"]);
    assert_eq!((run.code, run.stdout), (1, format!("{UNTRACKED}{BSH}")));
}

#[test]
fn json_at_the_root_lists_the_projects_and_names_none() {
    let dir = monorepo();
    let run = run_in(dir.path(), &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    assert_eq!(report["project"], Value::Null);
    assert_eq!(report["projects"], json!(["apps/agent", "apps/other"]));
    assert_eq!(report["summary"], json!({"error": 1, "warning": 1, "info": 1, "files": 3}));
    common::assert_findings(
        &report,
        &[
            (
                "file-untracked",
                "info",
                "apps/agent/beeuni.yaml",
                3,
                3,
                "module `apps/agent/tools/lookup.ts` is not tracked by git yet: a config release contains only files Git tracks",
            ),
            (
                "unknown-excluded-tool",
                "error",
                "apps/agent/beeuni.yaml",
                7,
                17,
                "agent `support` excludes `bsh`, which is not a known tool: it hides nothing, and `bash` stays enabled",
            ),
            (
                "unknown-tool",
                "warning",
                "apps/other/beeuni.yaml",
                3,
                13,
                "agent `helper` lists `grpe`, which is not a known tool: it is ignored",
            ),
        ],
    );
    common::assert_help(&common::diagnostics(&report)[0], "run `git add apps/agent/tools/lookup.ts`");
    // One project is reported as before: `project` names it, no `projects`.
    let report = json(&run_in(dir.path(), &["--format", "json", "apps/other"]));
    assert_eq!(report["project"], "apps/other");
    assert!(report.get("projects").is_none(), "{report:#}");
}

/// A SARIF result as its rule, uri and start line.
type Place = (String, String, u64);

/// The SARIF runs: each project's automation id, and its results.
fn runs(sarif: &Value) -> Vec<(String, Vec<Place>)> {
    let runs = sarif["runs"].as_array().unwrap();
    runs.iter()
        .map(|run| {
            let results = run["results"].as_array().unwrap().iter().map(|r| {
                let at = &r["locations"][0]["physicalLocation"];
                let uri = at["artifactLocation"]["uri"].as_str().unwrap().to_string();
                (r["ruleId"].as_str().unwrap().to_string(), uri, at["region"]["startLine"].as_u64().unwrap())
            });
            (run["automationDetails"]["id"].as_str().unwrap().to_string(), results.collect())
        })
        .collect()
}

#[test]
fn sarif_at_the_root_is_a_run_a_project_each_its_own_category() {
    let dir = monorepo();
    let expected = vec![
        (
            "beeuni-lint/apps/agent/".to_string(),
            vec![
                ("file-untracked".to_string(), "apps/agent/beeuni.yaml".to_string(), 3),
                ("unknown-excluded-tool".to_string(), "apps/agent/beeuni.yaml".to_string(), 7),
            ],
        ),
        (
            "beeuni-lint/apps/other/".to_string(),
            vec![("unknown-tool".to_string(), "apps/other/beeuni.yaml".to_string(), 3)],
        ),
    ];
    let run = run_in(dir.path(), &["--format", "sarif"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(runs(&json(&run)), expected);
    // --sarif-file beside another format writes the same runs.
    let sarif = dir.path().join("out.sarif");
    let run = run_in(dir.path(), &["--format", "short", "--sarif-file", sarif.to_str().unwrap()]);
    assert_eq!(run.stdout, format!("{UNTRACKED}{BSH}{GRPE}"));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(runs(&written), expected);
}

#[test]
fn github_at_the_root_annotates_and_summarises_every_project() {
    let dir = monorepo();
    let summary = dir.path().join("summary.md");
    let output = bin(dir.path()).args(["--format", "github"]).env("GITHUB_STEP_SUMMARY", &summary).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("::notice file=apps/agent/beeuni.yaml,line=3,col=3,endLine=3,endColumn=26,title=beeuni-lint (file-untracked)::module `apps/agent/tools/lookup.ts` is not tracked"), "{stdout}");
    assert!(lines[1].starts_with("::error file=apps/agent/beeuni.yaml,line=7,col=17,endLine=7,endColumn=20,title=beeuni-lint (unknown-excluded-tool)::agent `support` excludes `bsh`"), "{stdout}");
    assert!(lines[2].starts_with("::warning file=apps/other/beeuni.yaml,line=3,col=13,endLine=3,endColumn=17,title=beeuni-lint (unknown-tool)::agent `helper` lists `grpe`"), "{stdout}");
    assert_eq!(lines[3], "beeuni-lint: 1 error, 1 warning, 1 info in 3 files");
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert!(summary.starts_with("### beeuni-lint\n\n1 error, 1 warning, 1 info in 3 files\n"), "{summary}");
    for row in [
        "| file-untracked | info | `apps/agent/beeuni.yaml:3:3` |",
        "| unknown-excluded-tool | error | `apps/agent/beeuni.yaml:7:17` |",
        "| unknown-tool | warning | `apps/other/beeuni.yaml:3:13` |",
    ] {
        assert!(summary.contains(row), "no `{row}` in:\n{summary}");
    }
}

#[test]
fn several_paths_are_their_projects_in_the_order_given() {
    let dir = monorepo();
    let run = run_in(dir.path(), &["--format", "short", "apps/other", "apps/agent"]);
    assert_eq!((run.code, run.stdout), (1, format!("{GRPE}{UNTRACKED}{BSH}")));
    let report = json(&run_in(dir.path(), &["check", "--format", "json", "apps/other", "apps/agent/tools"]));
    assert_eq!(report["projects"], json!(["apps/other", "apps/agent"]));
    assert_eq!(common::rule_ids(&report), ["unknown-tool", "file-untracked", "unknown-excluded-tool"]);
    // Two paths in one project are that project once.
    let report = json(&run_in(&dir.path().join("apps"), &["--format", "json", "agent", "agent/beeuni.yaml"]));
    assert_eq!((&report["project"], common::rule_ids(&report).len()), (&json!("apps/agent"), 2), "{report:#}");
}

#[test]
fn a_project_that_cannot_be_linted_says_why_and_the_others_are_reported() {
    let dir = monorepo();
    // Tracked, but gone from the work tree: its project cannot be read.
    write(dir.path(), "apps/gone/beeuni.yaml", OTHER.as_bytes());
    git(dir.path(), &["add", "apps/gone/beeuni.yaml"]);
    std::fs::remove_file(dir.path().join("apps/gone/beeuni.yaml")).unwrap();
    let run = run_in(dir.path(), &["--format", "short"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, format!("{UNTRACKED}{BSH}{GRPE}"));
    let top = std::fs::canonicalize(dir.path()).unwrap();
    assert!(run.stderr.starts_with(&format!("beeuni-lint: no beeuni.yaml at {}", top.display())), "{}", run.stderr);
}

#[test]
fn xcsh_tools_at_the_top_are_a_project_beside_the_others() {
    let dir = monorepo();
    let tool = "export default (pi) => ({ name: 'grep', description: 'x', parameters: pi.typebox.Type.Object({}), execute(id, params) {} })\n";
    write(dir.path(), ".xcsh/tools/stats.ts", tool.as_bytes());
    git(dir.path(), &["add", ".xcsh/tools/stats.ts"]);
    let run = run_in(dir.path(), &["--format", "json", "--min-severity", "warning"]);
    let report = json(&run);
    assert_eq!(report["projects"], json!(["", "apps/agent", "apps/other"]));
    let first = &common::diagnostics(&report)[0];
    assert_eq!(
        (&first["rule"], &first["path"], &first["line"]),
        (&json!("xcsh-name-conflict"), &json!(".xcsh/tools/stats.ts"), &json!(1))
    );
}

#[test]
fn an_xcsh_only_repository_is_still_its_own_project() {
    let dir = TempDir::new().unwrap();
    git(dir.path(), &["init", "-q"]);
    let tool = "export default (pi) => ({ name: 'grep', description: 'x', parameters: pi.typebox.Type.Object({}), execute(id, params) {} })\n";
    write(dir.path(), ".xcsh/tools/stats.ts", tool.as_bytes());
    git(dir.path(), &["add", "."]);
    let report = json(&run_in(dir.path(), &["--format", "json"]));
    assert_eq!(report["project"], "");
    assert!(report.get("projects").is_none());
    assert_eq!(common::rule_ids(&report)[0], "xcsh-name-conflict");
}

#[test]
fn outside_git_a_root_without_manifest_and_several_projects_are_refused() {
    let dir = TempDir::new().unwrap();
    write(dir.path(), "apps/a/beeuni.yaml", OTHER.as_bytes());
    write(dir.path(), "apps/b/beeuni.yaml", OTHER.as_bytes());
    let run = run_in(dir.path(), &[]);
    let top = std::fs::canonicalize(dir.path()).unwrap();
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with(&format!("beeuni-lint: no beeuni.yaml at {}", top.display())), "{}", run.stderr);
    let run = run_in(dir.path(), &["apps/a", "apps/b"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "beeuni-lint: `apps/a` is not in a git repository: several projects are linted together only inside one (their paths are shown from its root); lint each on its own\n"
    );
    // One project outside git is linted as ever.
    assert_eq!(run_in(dir.path(), &["--format", "short", "apps/a"]).code, 1);
}

#[test]
fn the_projects_a_sarif_report_holds_are_bounded() {
    let dir = TempDir::new().unwrap();
    git(dir.path(), &["init", "-q"]);
    for i in 0..21 {
        write(dir.path(), &format!("p{i:03}/beeuni.yaml"), OTHER.as_bytes());
    }
    git(dir.path(), &["add", "."]);
    // The projects a root lints are bounded too: tests/hostile/projects.rs measures it.
    // Named, they are linted; SARIF (a run a project) takes 20 of them, as GitHub code scanning does.
    let paths: Vec<String> = (0..21).map(|i| format!("p{i:03}")).collect();
    let mut args: Vec<&str> = vec!["--format", "short"];
    args.extend(paths.iter().map(String::as_str));
    let run = run_in(dir.path(), &args);
    assert_eq!((run.code, run.stdout.lines().count()), (1, 21), "{}", run.stderr);
    args[1] = "sarif";
    let run = run_in(dir.path(), &args);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert_eq!(
        run.stderr,
        "beeuni-lint: 21 projects: a SARIF report holds a run a project, and GitHub code scanning takes at most 20 runs a file; name at most 20 projects as PATHs\n"
    );
    let run = run_in(dir.path(), &args[..args.len() - 1]);
    assert_eq!(json(&run)["runs"].as_array().unwrap().len(), 20);
}

/// `beeuni-lint` at the root of this repository's clone: its `beeuni-lint.toml` leaves out the test fixtures (two
/// hundred projects, broken on purpose), so the run lints the examples and reports their real findings, where it
/// was exit 2 ("209 projects, more than the 200").
#[test]
fn this_repository_lints_its_own_root_without_its_fixtures() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join(".git").exists() {
        return; // a source package without git: no run at a repository's root to check
    }
    let run = run_in(root, &["--format", "json", "--no-cache", "--min-severity", "warning"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    assert_eq!(report["projects"], json!(["examples/broken", "examples/starter"]));
    let paths: Vec<&str> = common::diagnostics(&report).iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert!(paths.iter().all(|p| p.starts_with("examples/broken/")), "{paths:?}");
    assert!(common::rule_ids(&report).contains(&"unknown-excluded-tool"), "{report:#}");
}
