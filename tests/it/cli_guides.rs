//! A CLI that guides: did-you-mean for commands and `--base` refs, a base past the first commit, every config
//! mistake in one run, `--min-severity`, exit codes in `--help`, and no text pointing at a command this build
//! does not have.

use crate::common;
use crate::common::{documentation, fixture, git, json_in, project, run_in, write};

#[test]
fn a_mistyped_command_gets_did_you_mean() {
    let dir = project(&[("beeuni.yaml", "tools:\n  show: beeuni:show\n")]);
    let run = run_in(dir.path(), &["chek"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "beeuni-lint: `chek` is neither a command nor a file or folder here: did you mean `beeuni-lint check`? (`beeuni-lint --help` lists the commands)\n"
    );
    let run = run_in(dir.path(), &["agnets"]);
    assert!(run.stderr.contains("did you mean `beeuni-lint agents`?"), "{}", run.stderr);
    // A folder of that name is a path, as before.
    write(dir.path(), "lst/beeuni.yaml", b"tools:\n  show: beeuni:show\n");
    assert_eq!(run_in(dir.path(), &["lst"]).code, 0);
}

fn one_commit() -> tempfile::TempDir {
    let dir = project(&[("beeuni.yaml", "tools:\n  show: beeuni:show\n")]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "one"]);
    dir
}

#[test]
fn base_revisions_that_are_not_there_say_why() {
    let dir = one_commit();
    let run = run_in(dir.path(), &["--base", "HEAD~1"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "beeuni-lint: revision `HEAD~1` does not exist: the history of `HEAD` does not reach back that far (count the commits with `git log --oneline HEAD`)\n"
    );
    let run = run_in(dir.path(), &["--base", "mian"]);
    assert_eq!((run.code, run.stderr.as_str()), (2, "beeuni-lint: revision `mian` not found: did you mean `main`?\n"));
    let run = run_in(dir.path(), &["--base", "nothing-like-it"]);
    assert_eq!(
        run.stderr,
        "beeuni-lint: revision `nothing-like-it` not found: no branch, tag or commit of that name, and this repository has no remote to fetch it from\n"
    );
    git(dir.path(), &["remote", "add", "origin", "https://example.com/shop.git"]);
    let run = run_in(dir.path(), &["--base", "origin/main"]);
    assert_eq!(
        run.stderr,
        "beeuni-lint: revision `origin/main` not found: fetch it first (`git fetch origin main`), or in GitHub Actions check out with `fetch-depth: 0`\n"
    );
}

#[test]
fn every_config_mistake_in_one_run() {
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  show: beeuni:show\n"),
        ("beeuni-lint.toml", "harness-tool = [\"x\"]\n[rules]\nunknown-tol = \"off\"\ntool-name = \"warn\"\n"),
    ]);
    let run = run_in(dir.path(), &["."]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "beeuni-lint: beeuni-lint.toml:1:1: unknown key `harness-tool`: did you mean `harness-tools`?\n\
         beeuni-lint: beeuni-lint.toml:3:1: unknown rule `unknown-tol` in [rules]: did you mean `unknown-tool`?\n\
         beeuni-lint: beeuni-lint.toml:4:13: `warn` is not a level: use error, warning, info or off (did you mean `warning`?)\n"
    );
}

#[test]
fn min_severity_drops_findings_from_output_and_fail_on() {
    // The docs' agents example: four infos on every clean run.
    let dir = fixture("docs-agents");
    let (code, report) = json_in(dir.path(), &["--fail-on", "info"]);
    assert_eq!((code, report["summary"]["info"].as_u64()), (1, Some(4)));
    let (code, report) = json_in(dir.path(), &["--fail-on", "info", "--min-severity", "warning"]);
    assert_eq!((code, common::diagnostics(&report).len()), (0, 0), "{report:#}");
    assert_eq!(report["summary"]["info"], 0);
    let run = run_in(dir.path(), &["--min-severity", "warning", "--format", "human", "--color", "never", "."]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "no problems in 2 files\n"));
    // `error` drops warnings too: a warning-only project passes the default `--fail-on warning`.
    let warn = project(&[("beeuni.yaml", "agents:\n  a:\n    tools: [grpe]\n")]);
    assert_eq!(json_in(warn.path(), &[]).0, 1);
    assert_eq!(json_in(warn.path(), &["--min-severity", "error"]).0, 0);
    let run = run_in(warn.path(), &["--min-severity", "loud", "."]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("[possible values: info, warning, error]"), "{}", run.stderr);
}

/// `--min-severity` drops findings "before anything else" (docs/spec/interface.md): a hidden finding's fix is neither
/// applied by `--fix` nor shown by `--diff`, and the count of what remains leaves it out.
#[test]
fn min_severity_drops_findings_before_fixes_too() {
    let manifest = "tools:\n  web_search: web_search\nagents:\n  a:\n    tools: {bash: false}\n";
    let dir = project(&[("beeuni.yaml", manifest)]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_eq!(common::rule_ids(&report), ["no-beeuni-tools", "beeuni-ref", "legacy-tools-map"], "{report:#}");
    let run = run_in(dir.path(), &["--diff", "--min-severity", "warning", "."]);
    assert_eq!(run.code, 1);
    common::assert_applies(dir.path(), &run.stdout);
    assert!(run.stdout.contains("+  web_search: beeuni:web_search\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("exclude"), "{}", run.stdout);
    let run = run_in(dir.path(), &["--fix", "--min-severity", "warning", "--format", "short", "."]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    assert!(run.stderr.ends_with("Fixed 1 finding in 1 file; 0 findings remain.\n"), "{}", run.stderr);
    assert!(!run.stderr.contains("legacy-tools-map"), "{}", run.stderr);
    let fixed = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
    assert_eq!(fixed, "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: {bash: false}\n");
    // Shown, the info is fixed too.
    let run = run_in(dir.path(), &["--fix", "--format", "short", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let fixed = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
    assert!(fixed.ends_with("    tools: {exclude: [bash]}\n"), "{fixed}");
}

#[test]
fn help_lists_the_exit_codes() {
    let dir = project(&[]);
    for args in [&["--help"][..], &["check", "--help"]] {
        let run = run_in(dir.path(), args);
        assert_eq!(run.code, 0);
        assert!(run.stdout.contains("Exit status:\n  0  no finding at or above --fail-on"), "{}", run.stdout);
        assert!(run.stdout.contains("\n  1  at least one finding at or above --fail-on\n"), "{}", run.stdout);
        assert!(run.stdout.contains("\n  2  the run could not happen"), "{}", run.stdout);
        assert!(run.stdout.contains("--min-severity <MIN_SEVERITY>"), "{}", run.stdout);
    }
}

/// Every `` `beeuni-lint WORD`` (as code) in the rules' docs, the README and the pages of docs/ names a command or
/// an option of this build.
#[test]
fn no_text_points_at_a_command_that_does_not_exist() {
    let dir = project(&[]);
    let help = run_in(dir.path(), &["--help"]).stdout;
    let commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let mut texts: Vec<String> = documentation().into_iter().map(|(_, text)| text).collect();
    for line in run_in(dir.path(), &["rules"]).stdout.lines() {
        let id = line.split_whitespace().next().unwrap();
        texts.push(run_in(dir.path(), &["explain", id]).stdout);
    }
    let mut checked = 0;
    for text in &texts {
        for mention in text.split("`beeuni-lint ").skip(1) {
            let word: String = mention.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            if word.starts_with("--") {
                assert!(help.contains(&word) || word == "--help" || word == "--version", "no option {word}");
                checked += 1;
            } else if !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase()) && mention.starts_with(&word) {
                // A lower-case word right after the name is a command, unless a path follows
                // (`beeuni-lint examples/x`).
                let rest = &mention[word.len()..];
                if !rest.starts_with('/') && !rest.starts_with('.') {
                    assert!(commands.contains(&word.as_str()), "`beeuni-lint {word}` is not a command of this build");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10, "{checked}");
}
