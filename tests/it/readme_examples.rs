//! The commands the README and the pages of `docs/` show are what the binary does in a clone of this repository:
//! every ```` ```text ```` block that opens with `$ beeuni-lint …` is that command's output word for word, every
//! `beeuni-lint …` line of a ```` ```sh ```` block runs (exit 0 or 1), the JSON excerpt's finding and summary are
//! real, the starter lints clean, and the README's first screen shows install, a first run and its output.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

fn page(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

/// The body of the first ```` ```lang ```` block after `heading` in `text`.
fn fenced_block(text: &str, heading: &str, lang: &str) -> String {
    let (_, rest) = text.split_once(heading).unwrap_or_else(|| panic!("no {heading:?}"));
    let (_, rest) = rest.split_once(&format!("```{lang}\n")).unwrap();
    rest.split_once("```").unwrap().0.to_string()
}

/// `(line of the fence, language, body)` of every fenced block of a Markdown page.
fn blocks(text: &str) -> Vec<(usize, String, String)> {
    let mut found = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for (number, line) in text.lines().enumerate() {
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(lang)) => open = Some((number + 1, lang.trim().to_string(), String::new())),
            (Some(_), Some(_)) => found.extend(open.take()),
            (Some((_, _, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    found
}

/// A clone: `examples/` of this repository in a git work tree whose index holds every file.
fn clone_of_examples() -> tempfile::TempDir {
    let dir = tempfile::TempDir::new().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"), &dir.path().join("examples"));
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    dir
}

/// The arguments of a shown command line, `beeuni-lint` dropped; `None` for a line of another program.
fn arguments(line: &str) -> Option<Vec<&str>> {
    let line = line.split(" #").next().unwrap().trim();
    let rest = line.strip_prefix("beeuni-lint")?;
    assert!(!rest.contains(['|', '>', '<', '&', ';', '"', '\'']), "not one plain command: {line}");
    Some(rest.split_whitespace().collect())
}

#[test]
fn every_shown_run_is_what_its_command_prints() {
    let mut checked = 0;
    for (name, text) in documentation() {
        for (line, lang, body) in blocks(&text) {
            let shown = body.lines().find(|line| !line.starts_with("$ cd "));
            if lang != "text" || !shown.is_some_and(|line| line.starts_with("$ beeuni-lint ")) {
                continue;
            }
            let dir = clone_of_examples();
            // `$ cd DIR` lines put the run in a folder of the clone.
            let mut folder = dir.path().to_path_buf();
            let mut lines = body.lines();
            let mut command = lines.next().unwrap();
            let mut rest = &body[command.len() + 1..];
            while let Some(into) = command.strip_prefix("$ cd ") {
                folder.push(into);
                command = lines.next().unwrap();
                rest = &rest[command.len() + 1..];
            }
            let args = arguments(command.strip_prefix("$ ").unwrap()).unwrap();
            let run = run_in(&folder, &args);
            assert!(run.code <= 1, "{name}:{line}: `{command}` exits {}: {}", run.code, run.stderr);
            assert!(
                rest == run.stdout || rest == run.stderr,
                "{name}:{line}: the block differs from what `{command}` prints:\n{}{}",
                run.stdout,
                run.stderr
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} runs shown");
}

#[test]
fn every_command_of_a_shell_block_runs() {
    let mut checked = 0;
    for (name, text) in documentation() {
        for (line, lang, body) in blocks(&text) {
            if lang != "sh" {
                continue;
            }
            for command in body.lines() {
                let Some(args) = arguments(command) else { continue };
                if args.first() == Some(&"lsp") {
                    continue; // a server: tests/lsp.rs
                }
                let dir = clone_of_examples();
                let run = run_in(dir.path(), &args);
                assert!(run.code <= 1, "{name}:{line}: `{command}` exits {}: {}", run.code, run.stderr);
                checked += 1;
            }
        }
    }
    assert!(checked >= 3, "{checked} commands run");
}

#[test]
fn the_first_screen_of_the_readme_is_install_a_first_run_and_its_output() {
    let readme = page("README.md");
    let screen: String = readme.lines().take(45).map(|line| format!("{line}\n")).collect();
    for part in ["## Install", "cargo install --locked", "## First run", "```text\n$ beeuni-lint examples/broken"] {
        assert!(screen.contains(part), "the README's first 45 lines lack {part:?}");
    }
    assert!(screen.contains("examples/broken/beeuni.yaml:4:1: warning[no-beeuni-tools]"), "no output shown");
    // Nothing is published: no line offers to install it from an index.
    for (name, text) in documentation() {
        for offer in ["pip install beeuni-lint", "pipx install", "uvx beeuni-lint", "cargo install beeuni-lint"] {
            assert!(!text.contains(offer), "{name} offers `{offer}`");
        }
    }
    assert!(readme.lines().count() <= 250, "README.md has {} lines", readme.lines().count());
}

#[test]
fn the_json_excerpt_is_a_finding_of_examples_broken_with_its_summary() {
    let dir = clone_of_examples();
    let run = run_in(dir.path(), &["examples/broken", "--format", "json"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let text = page("docs/output.md");
    let excerpt: Value = serde_json::from_str(&fenced_block(&text, "# Reports: positions and JSON", "json")).unwrap();
    assert_eq!(excerpt["project"], report["project"]);
    assert_eq!(report["project"], "examples/broken");
    assert_eq!(excerpt["summary"], report["summary"]);
    let shown = &excerpt["diagnostics"][0];
    assert_eq!(shown["rule"], "unknown-excluded-tool");
    let actual = diagnostics(&report)
        .iter()
        .find(|d| d["rule"] == shown["rule"] && d["line"] == shown["line"])
        .unwrap_or_else(|| panic!("no {} finding at line {}", shown["rule"], shown["line"]));
    for key in ["severity", "message", "path", "line", "column", "end_line", "end_column", "help"] {
        assert_eq!(shown[key], actual[key], "docs/output.md's JSON excerpt: `{key}`");
    }
    let count = diagnostics(&report).len().to_string();
    assert!(text.contains(&format!("(one of the {count} findings of `examples/broken` shown.)")));
}

#[test]
fn the_starter_example_lints_clean() {
    let dir = clone_of_examples();
    let run = run_in(dir.path(), &["examples/starter"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "no problems in 2 files\n"), "{}", run.stderr);
}
