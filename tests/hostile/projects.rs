//! How many projects a run at a monorepo's root lints: every project the repository tracks, up to 10,000. Each is
//! a run of its own; the git index is read once for them all (read again for each, the run grew with the square of
//! the projects: 10,000 took 44 s of CPU). Past the bound the run is refused before any project is linted.

use crate::support::{Sandbox, TIME_LIMIT};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A project that lints clean: one agent with one harness tool.
const PROJECT: &str = "agents:\n  helper:\n    tools: [read]\n";

/// 1,000 one-line projects linted from the root, each counted in the summary: in well under the suite's bound (a
/// release build takes 0.1 s of CPU, 0.15 s by the clock; a debug build some 0.45 s of CPU).
#[test]
fn a_thousand_projects_at_the_root_are_linted_in_a_fraction_of_the_bound() {
    let sandbox = Sandbox::new();
    for i in 0..1000 {
        sandbox.file(&format!("apps/p{i:04}/beeuni.yaml"), PROJECT);
    }
    sandbox.commit("a thousand projects");
    let outcome = sandbox.run(&["--color", "never", "--no-cache"]);
    outcome.assert_bounded("1,000 projects at the root");
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr());
    assert_eq!(outcome.stdout(), "no problems in 1000 files\n1000 projects linted, 0 with findings\n");
    assert!(outcome.cpu < TIME_LIMIT / 4, "1,000 projects took {:?} of CPU (wall {:?})", outcome.cpu, outcome.wall);
}

/// 10,001 projects in the index (one blob, written once): refused before a project is read, naming the bound.
#[test]
fn more_projects_than_the_bound_are_refused_before_linting() {
    let sandbox = Sandbox::new();
    let blob = git_output(&sandbox, &["hash-object", "-w", "--stdin"], PROJECT.as_bytes());
    let entries: String = (0..10_001).map(|i| format!("100644 {blob}\tp{i:05}/beeuni.yaml\n")).collect();
    git_output(&sandbox, &["update-index", "--index-info"], entries.as_bytes());
    let outcome = sandbox.run(&["--format", "short"]);
    outcome.assert_bounded("10,001 projects at the root");
    assert_eq!((outcome.code, outcome.stdout().as_str()), (Some(2), ""));
    assert_eq!(
        outcome.stderr(),
        "beeuni-lint: the repository tracks 10001 projects, more than the 10000 a run at its root lints: name the projects to lint as PATHs\n"
    );
    assert!(outcome.cpu < Duration::from_secs(1), "refused after {:?} of CPU", outcome.cpu);
}

/// Runs git in the sandbox's repository with `input` on its standard input; its output, trimmed.
fn git_output(sandbox: &Sandbox, args: &[&str], input: &[u8]) -> String {
    let mut command = Command::new("git");
    command.current_dir(&sandbox.repo).args(args).stdin(Stdio::piped()).stdout(Stdio::piped());
    crate::common::isolate_git(&mut command);
    let mut child = command.spawn().expect("git");
    child.stdin.take().expect("stdin").write_all(input).expect("git's input");
    let output = child.wait_with_output().expect("git");
    assert!(output.status.success(), "git {args:?} failed");
    String::from_utf8(output.stdout).expect("UTF-8").trim().to_string()
}
