//! Shared helpers of the integration tests: run the real binary on a copy of a
//! fixture (or on a project written on the fly) in a fresh temporary folder,
//! and compare its JSON findings field by field.
//!
//! Every run happens outside the repository of beeuni-lint itself: the binary
//! discovers the git work tree, which for `tests/fixtures/...` would be this
//! repository and not the fixture. A temporary folder has no git, so
//! `file-untracked` is skipped there (tests/it/git.rs covers it).

#![allow(dead_code)] // the hostile suite (tests/hostile) uses a part of these helpers

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tempfile::TempDir;

/// `tests/fixtures/<name>`.
pub fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// Copies `from` into `to`, recursively (files and folders only).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display())) {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A fresh temporary folder holding a copy of the fixture.
pub fn fixture(name: &str) -> TempDir {
    let dir = TempDir::new().unwrap();
    let source = fixture_path(name);
    assert!(source.is_dir(), "no fixture {}", source.display());
    copy_dir(&source, dir.path());
    dir
}

/// A fresh temporary folder with the given files (`path`, `content`).
pub fn project(files: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new().unwrap();
    for (path, content) in files {
        write(dir.path(), path, content.as_bytes());
    }
    dir
}

/// Writes `bytes` to `root/path`, creating folders.
pub fn write(root: &Path, path: &str, bytes: &[u8]) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A minimal valid tool module.
pub const MODULE: &str = "export default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return 'ok' } }\n";

/// The binary, run in `dir`, with no colour and a generous timeout.
pub fn bin(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("beeuni-lint").unwrap();
    cmd.current_dir(dir).env("NO_COLOR", "1").env_remove("GITHUB_STEP_SUMMARY").timeout(Duration::from_secs(60));
    cmd.envs(GIT_ENV);
    for var in GIT_UNSET {
        cmd.env_remove(var);
    }
    cmd
}

/// What a run returned.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary in `dir` with `args` and checks it neither panicked nor timed out.
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    let output = bin(dir).args(args).output().unwrap();
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(!run.stderr.contains("panicked"), "beeuni-lint panicked on {args:?}:\n{}", run.stderr);
    assert!(
        matches!(run.code, 0..=2),
        "exit code {} for {args:?}\nstdout:\n{}\nstderr:\n{}",
        run.code,
        run.stdout,
        run.stderr
    );
    run
}

/// `beeuni-lint --format json ARGS .` in `dir`: the exit code and the parsed report.
pub fn json_in(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    all.push(".");
    let run = run_in(dir, &all);
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\nstderr:\n{}", run.stdout, run.stderr));
    (run.code, report)
}

/// Copies the fixture to a temporary folder and lints it with `--format json`.
pub fn run(fixture_name: &str, args: &[&str]) -> (i32, Value) {
    let dir = fixture(fixture_name);
    json_in(dir.path(), args)
}

/// The findings of a JSON report.
pub fn diagnostics(report: &Value) -> &Vec<Value> {
    report["diagnostics"].as_array().expect("`diagnostics` is an array")
}

/// The rule ids of a JSON report, in order.
pub fn rule_ids(report: &Value) -> Vec<&str> {
    diagnostics(report).iter().map(|d| d["rule"].as_str().unwrap()).collect()
}

/// The findings of one rule.
pub fn of_rule<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    diagnostics(report).iter().filter(|d| d["rule"] == rule).collect()
}

/// One expected finding: rule, severity, path, line, column, exact message.
pub type Expect<'a> = (&'a str, &'a str, &'a str, u64, u64, &'a str);

/// Asserts one finding field by field.
pub fn assert_finding(actual: &Value, expected: &Expect) {
    let (rule, severity, path, line, column, message) = *expected;
    let context = || serde_json::to_string_pretty(actual).unwrap();
    assert_eq!(actual["rule"], rule, "rule of {}", context());
    assert_eq!(actual["severity"], severity, "severity of {}", context());
    assert_eq!(actual["path"], path, "path of {}", context());
    assert_eq!(actual["line"], line, "line of {}", context());
    assert_eq!(actual["column"], column, "column of {}", context());
    assert_eq!(actual["message"], message, "message of {}", context());
    for field in ["end_line", "end_column"] {
        assert!(actual[field].as_u64().is_some_and(|n| n >= 1), "{field} of {}", context());
    }
}

/// Asserts that the report holds exactly these findings, in this order.
pub fn assert_findings(report: &Value, expected: &[Expect]) {
    let actual = diagnostics(report);
    assert_eq!(
        actual.len(),
        expected.len(),
        "expected {} findings, got:\n{}",
        expected.len(),
        serde_json::to_string_pretty(actual).unwrap()
    );
    for (a, e) in actual.iter().zip(expected) {
        assert_finding(a, e);
    }
}

/// Asserts one related location of a finding.
pub fn assert_related(finding: &Value, index: usize, path: &str, line: u64, column: u64, message: &str) {
    let related = &finding["related"][index];
    assert_eq!(related["path"], path, "related path in {finding:#}");
    assert_eq!(related["line"], line, "related line in {finding:#}");
    assert_eq!(related["column"], column, "related column in {finding:#}");
    assert_eq!(related["message"], message, "related message in {finding:#}");
}

/// Asserts the help text of a finding.
pub fn assert_help(finding: &Value, help: &str) {
    assert_eq!(finding["help"], help, "help of {finding:#}");
}

/// Asserts that a report has no finding at all and a zeroed summary.
pub fn assert_clean(name: &str, code: i32, report: &Value) {
    assert_eq!(
        diagnostics(report).len(),
        0,
        "{name} should be clean:\n{}",
        serde_json::to_string_pretty(report).unwrap()
    );
    assert_eq!(code, 0, "{name}: exit code");
    for severity in ["error", "warning", "info"] {
        assert_eq!(report["summary"][severity], 0, "{name}: summary.{severity}");
    }
}

/// Runs git in `dir` with a fixed identity and branch name, ignoring the caller's git environment.
pub fn git(dir: &Path, args: &[&str]) {
    let mut cmd = std::process::Command::new("git");
    cmd.current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@e", "-c", "init.defaultBranch=main"])
        .args(args);
    isolate_git(&mut cmd);
    let status = cmd.status().expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// Keeps the machine's git configuration and the caller's git environment out of a run.
pub fn isolate_git(cmd: &mut std::process::Command) {
    cmd.envs(GIT_ENV);
    for var in GIT_UNSET {
        cmd.env_remove(var);
    }
}

/// Set for every git and beeuni-lint run: no global or system git config.
const GIT_ENV: [(&str, &str); 2] = [("GIT_CONFIG_GLOBAL", "/dev/null"), ("GIT_CONFIG_NOSYSTEM", "1")];
/// Removed from every run: variables that would point git (or gix) elsewhere.
const GIT_UNSET: [&str; 6] =
    ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES"];

/// `git apply --check` in `dir` accepts `diff` (an empty one is fine).
pub fn assert_applies(dir: &Path, diff: &str) {
    use std::io::Write;
    if diff.is_empty() {
        return;
    }
    let mut cmd = std::process::Command::new("git");
    cmd.current_dir(dir).args(["apply", "--check", "-"]);
    isolate_git(&mut cmd);
    let mut child =
        cmd.stdin(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().expect("git apply runs");
    child.stdin.take().unwrap().write_all(diff.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "git apply --check refuses the diff:\n{diff}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The documentation a user reads: `(path, text)` of README.md, CONTRIBUTING.md and every Markdown page under
/// `docs/`, in path order.
pub fn documentation() -> Vec<(String, String)> {
    fn pages(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                pages(root, &path, out);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                let name = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for page in ["README.md", "CONTRIBUTING.md"] {
        out.push((page.to_string(), std::fs::read_to_string(root.join(page)).unwrap()));
    }
    pages(root, &root.join("docs"), &mut out);
    out
}
