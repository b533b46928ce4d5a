//! Helpers of the change-aware integration tests (tests/it/change_*.rs): a real
//! git repository in a temporary folder, built with the git CLI, and the real
//! binary run inside it.
//!
//! git runs with `GIT_CONFIG_GLOBAL=/dev/null` and `GIT_CONFIG_NOSYSTEM=1`,
//! so the machine's git configuration (default branch, hooks, signing, …)
//! cannot change what a test builds; the binary runs with the same
//! environment, so it reads only the repository's own config.

use crate::common::Run;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// The five Beeuni tools, in the canonical order.
pub const BEEUNI: [&str; 5] = ["web_search", "image_search", "scrape_webpage", "memory", "show"];

/// The exact message of `removed-beeuni-tool` (docs/spec/rules.md §7).
pub fn removal(name: &str) -> String {
    format!(
        "this change removes the Beeuni tool `{name}`: every agent of the project loses it, on both harnesses, in every session that starts after the change merges. Add `{name}: beeuni:{name}` under `tools:` to keep it."
    )
}

/// The exact message of `removed-beeuni-tool` when one change removes several tools.
pub fn removals(names: &[&str]) -> String {
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!(
        "this change removes the Beeuni tools {}: every agent of the project loses them, on both harnesses, in every session that starts after the change merges. Add the lines below under `tools:` to keep them.",
        names.join(", ")
    )
}

/// The exact message of `removed-tool-in-use`.
pub fn in_use(tool: &str, agent: &str) -> String {
    format!("this change removes the tool `{tool}`, but agent `{agent}` still names it")
}

/// The exact message of `no-beeuni-tools` (docs/spec/rules.md §2).
pub const NO_BEEUNI_TOOLS: &str = "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one.";

/// The exact message of `unknown-tool` without a suggestion.
pub fn unknown_tool(agent: &str, tool: &str) -> String {
    format!("agent `{agent}` lists `{tool}`, which is not a known tool: it is ignored")
}

/// A minimal valid tool module.
pub const MODULE: &str = crate::common::MODULE;

/// The environment of every git and beeuni-lint run.
const ENV: [(&str, &str); 4] =
    [("GIT_CONFIG_GLOBAL", "/dev/null"), ("GIT_CONFIG_NOSYSTEM", "1"), ("GIT_TERMINAL_PROMPT", "0"), ("NO_COLOR", "1")];
/// Variables of the caller's environment that would point git (or gix) elsewhere.
const UNSET: [&str; 7] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GITHUB_STEP_SUMMARY",
];

fn isolate(cmd: &mut std::process::Command) {
    for (var, value) in ENV {
        cmd.env(var, value);
    }
    for var in UNSET {
        cmd.env_remove(var);
    }
}

/// Runs git in `dir` (author and committer `t <t@e>`); panics with git's stderr when it fails. Returns stdout.
pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let mut cmd = std::process::Command::new("git");
    cmd.current_dir(dir).args(["-c", "user.name=t", "-c", "user.email=t@e"]).args(args);
    isolate(&mut cmd);
    let out = cmd.output().expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} in {} failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The binary, run in `dir` with the isolated git environment.
pub fn bin_in(dir: &Path, args: &[&str]) -> Run {
    crate::common::run_in(dir, args)
}

/// `beeuni-lint --format json ARGS .` in `dir`: exit code and parsed report.
pub fn lint_in(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    all.push(".");
    let run = bin_in(dir, &all);
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}) for {args:?}:\n{}\nstderr:\n{}", run.stdout, run.stderr));
    (run.code, report)
}

/// A run that must fail with exit 2 and a one-line message on stderr (and nothing on stdout); returns the message.
pub fn fails_in(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let run = bin_in(dir, &all);
    assert_eq!(run.code, 2, "exit code for {args:?}\nstdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "", "no report on an exit-2 error for {args:?}");
    let message = run.stderr.trim_end();
    assert!(!message.is_empty() && !message.contains('\n'), "one line expected for {args:?}:\n{}", run.stderr);
    message.strip_prefix("beeuni-lint: ").unwrap_or_else(|| panic!("no `beeuni-lint: ` prefix: {message}")).to_owned()
}

/// A git repository in a temporary folder (optionally in a subfolder of it), on branch `main`, with no commit yet.
pub struct Repo {
    pub tmp: TempDir,
    pub dir: PathBuf,
}

impl Repo {
    pub fn new() -> Repo {
        Repo::in_folder("repo")
    }

    /// The repository at `<tmp>/<folder>` (the folder name may hold spaces and non-ASCII letters).
    pub fn in_folder(folder: &str) -> Repo {
        let tmp = TempDir::new().unwrap();
        let dir = tmp.path().join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        git_in(&dir, &["init", "-q", "-b", "main"]);
        Repo { tmp, dir }
    }

    /// A path inside the work tree.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    pub fn write(&self, rel: &str, content: &str) -> &Self {
        let path = self.dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        self
    }

    pub fn remove(&self, rel: &str) -> &Self {
        std::fs::remove_file(self.dir.join(rel)).unwrap();
        self
    }

    pub fn git(&self, args: &[&str]) -> String {
        git_in(&self.dir, args)
    }

    /// `git add -A` and a commit.
    pub fn commit(&self, message: &str) -> &Self {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
        self
    }

    /// `git add -A`.
    pub fn stage(&self) -> &Self {
        self.git(&["add", "-A"]);
        self
    }

    /// The full id of a revision.
    pub fn rev(&self, spec: &str) -> String {
        self.git(&["rev-parse", "--verify", "-q", spec]).trim().to_owned()
    }

    /// The first 7 hexadecimal digits of a revision's id (as the `help` of a change-aware finding shows it).
    pub fn short(&self, spec: &str) -> String {
        self.rev(spec)[..7].to_owned()
    }

    pub fn lint(&self, args: &[&str]) -> (i32, Value) {
        lint_in(&self.dir, args)
    }

    pub fn fails(&self, args: &[&str]) -> String {
        fails_in(&self.dir, args)
    }
}

/// A repository whose `main` holds `base` (one commit) and whose branch `feature`, checked out, has `head` in
/// the index and the work tree, not committed yet.
pub fn change(base: &[(&str, &str)], head: &[(&str, &str)]) -> Repo {
    let repo = Repo::new();
    for (path, content) in base {
        repo.write(path, content);
    }
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.git(&["rm", "-r", "-q", "."]);
    for (path, content) in head {
        repo.write(path, content);
    }
    repo.stage();
    repo
}

/// The findings of a [`change`] seen the three ways a change-aware run can see it, which must agree but for the
/// `help` (it names the base): `--staged` (index against HEAD), `--base main` on the uncommitted work tree, and
/// `--base main` once committed. Returns the exit code and report of the last. Also checks that the `help` of
/// each change-aware finding names the base, and that without a base the change-aware rules are off.
pub fn three_ways(repo: &Repo) -> (i32, Value) {
    let head = repo.short("HEAD");
    let (staged_code, staged) = repo.lint(&["--staged"]);
    let (work_code, work) = repo.lint(&["--base", "main"]);
    repo.git(&["commit", "-q", "-m", "head"]);
    let (code, committed) = repo.lint(&["--base", "main"]);
    let (_, plain) = repo.lint(&[]);
    let change_aware = |d: &Value| matches!(d["rule"].as_str(), Some("removed-beeuni-tool" | "removed-tool-in-use"));
    for (report, base) in [
        (&staged, format!("HEAD ({head})")),
        (&work, format!("merge base {head} of main and HEAD")),
        (&committed, format!("merge base {head} of main and HEAD")),
    ] {
        for finding in crate::common::diagnostics(report).iter().filter(|d| change_aware(d)) {
            // The help names the base, but for several removed tools, where it is the block to paste.
            let help = finding["help"].as_str().unwrap_or_default();
            let block = help.lines().all(|line| line.contains(": beeuni:"));
            assert!(block || help.contains(&format!("compared with {base}")), "help should name `{base}`: {finding:#}");
        }
    }
    let strip = |report: &Value| {
        let mut found = crate::common::diagnostics(report).clone();
        for finding in &mut found {
            let finding = finding.as_object_mut().unwrap();
            finding.remove("help");
        }
        found
    };
    assert_eq!((staged_code, strip(&staged)), (code, strip(&committed)), "--staged and --base main (committed) differ");
    assert_eq!((work_code, strip(&work)), (code, strip(&committed)), "--base main: work tree and commit differ");
    assert!(crate::common::diagnostics(&plain).iter().all(|d| !change_aware(d)), "no base, yet: {plain:#}");
    (code, committed)
}

/// The rules of a report with their lines, e.g. `["removed-beeuni-tool@2"]`: a compact view for assertions about
/// which findings a run kept.
pub fn rules_at(report: &Value) -> Vec<String> {
    crate::common::diagnostics(report)
        .iter()
        .map(|d| format!("{}@{}", d["rule"].as_str().unwrap(), d["line"]))
        .collect()
}
