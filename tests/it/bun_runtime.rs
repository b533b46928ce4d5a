//! The fixtures against the runtime: every tool module that beeuni-lint lists in a fixture is imported by Bun
//! (tests/bun/check.ts) and checked against its loader's contract: the Beeuni daemon's for modules declared under
//! `tools:`, the xcsh custom-tool loader's for `.xcsh/tools`, `.claude/tools` and `.codex/tools`. A module the
//! linter passes must load and meet it; one it fails with a load or contract error must not. So no fixture can
//! drift from what Bun does, and every fixture added later is covered.
//!
//! Optional: Bun comes from `BEEUNI_LINT_BUN` (a path) or `bun` on `PATH`; without it the test says it is skipped
//! and passes (`.ci/run` installs Bun and sets `BEEUNI_LINT_BUN`). Bun executes the modules, so it only ever
//! sees copies of this repository's own fixtures, with auto-install off, no network where `unshare` can take it
//! away, and a time limit.

use crate::common::{bin, copy_dir, fixture_path};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// How long one project's modules may take to load, all together.
const BUN_TIME_LIMIT: Duration = Duration::from_secs(60);

/// Findings below error severity that take a module out of the check: a package its `package.json` declares is
/// not installed here (a warning because an install step may exist elsewhere), and the linter could not analyse
/// the module (it passes no judgement on it, so Bun's would contradict none).
const NOT_PASSED: &[&str] = &["module-package-not-installed", "module-unanalyzable", "xcsh-unanalyzable"];

/// Errors that say a module fails at load or breaks its loader's contract. Other errors are policies (a harness
/// import that may well load) or about several tools at once (a name conflict), which one import cannot show.
const FAILS_UNDER_BUN: &[&str] = &[
    "module-syntax",
    "module-import-missing",
    "module-package-missing",
    "module-no-default-export",
    "module-factory-export",
    "module-opencode-tool",
    "module-description",
    "module-parameters",
    "module-execute",
    "xcsh-export",
    "xcsh-factory-return",
    "xcsh-tool-shape",
    "xcsh-name",
];

/// A tool module to load: `kind` is `beeuni` or `xcsh`, `path` relative to its project.
struct Module {
    kind: &'static str,
    path: String,
    judgement: Judgement,
}

/// The Bun binary to use, or `None` when there is none.
fn find_bun() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BEEUNI_LINT_BUN") {
        let path = PathBuf::from(path);
        assert!(path.is_file(), "BEEUNI_LINT_BUN={} is not a file", path.display());
        return Some(path);
    }
    let search = std::env::var_os("PATH")?;
    std::env::split_paths(&search).map(|dir| dir.join("bun")).find(|candidate| candidate.is_file())
}

/// Whether `unshare -rn` can give Bun a network namespace of its own (none on some CI runners).
fn can_unshare_network() -> bool {
    Command::new("unshare").args(["-rn", "true"]).output().is_ok_and(|output| output.status.success())
}

/// The fixture's root and every folder under it that holds a `beeuni.yaml` (the change fixtures keep theirs in
/// `base/` and `head/`), `node_modules` left out.
fn project_folders(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.to_path_buf()];
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() && !path.ends_with("node_modules") && !path.is_symlink() {
                if path != root && path.join("beeuni.yaml").is_file() {
                    found.push(path.clone());
                }
                pending.push(path);
            }
        }
    }
    found
}

/// beeuni-lint's JSON answer for `args` in `dir`, or `None` when it gives none (exit 2: nothing to lint).
fn lint_json(dir: &Path, args: &[&str]) -> Option<Value> {
    let output = bin(dir).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "beeuni-lint panicked on {args:?} in {}:\n{stderr}", dir.display());
    match output.status.code() {
        Some(0 | 1) => Some(serde_json::from_slice(&output.stdout).unwrap()),
        Some(2) => None,
        code => panic!("beeuni-lint {args:?} in {} exited {code:?}:\n{stderr}", dir.display()),
    }
}

/// What the linter says of a module.
#[derive(Clone, PartialEq)]
enum Judgement {
    /// No error, and no finding of `NOT_PASSED`: Bun must load it and find its contract met.
    Passes,
    /// An error of `FAILS_UNDER_BUN` (the rule named) on it or on a helper it imports: Bun must fail it.
    Fails(String),
    /// Another error (a policy, or a conflict between tools) or a finding of `NOT_PASSED`: not compared.
    Unjudged,
}

/// Whether `finding` is about `module`: at it, at a helper it imports (the finding lists the tools importing it
/// as related places), or naming it in the message (`module-missing` points at the manifest line).
fn is_about(finding: &Value, module: &str) -> bool {
    let at = |place: &Value| place["path"] == module;
    at(finding)
        || finding["related"].as_array().into_iter().flatten().any(at)
        || finding["message"].as_str().is_some_and(|message| message.contains(&format!("`{module}`")))
}

/// How a finding says its import fails when a function runs, not when Bun loads the module: loading says nothing of
/// it (only a call would), so it neither fails the module nor keeps it from the check.
const FAILS_WHEN_CALLED: &str = "fails when the function that holds it is called, not at load";

fn judge(report: &Value, module: &str) -> Judgement {
    let mut judgement = Judgement::Passes;
    for finding in report["diagnostics"].as_array().unwrap() {
        let rule = finding["rule"].as_str().unwrap();
        let error = finding["severity"] == "error";
        let at_call = finding["message"].as_str().is_some_and(|message| message.contains(FAILS_WHEN_CALLED));
        if !(error || NOT_PASSED.contains(&rule)) || at_call || !is_about(finding, module) {
            continue;
        }
        let at_module_or_helper = finding["path"] == module
            || finding["related"].as_array().into_iter().flatten().any(|r| r["path"] == module);
        if error && FAILS_UNDER_BUN.contains(&rule) && at_module_or_helper {
            return Judgement::Fails(rule.to_string());
        }
        judgement = Judgement::Unjudged;
    }
    judgement
}

/// The modules of the project in `dir` that beeuni-lint lists, with what it says of each, those it passes no
/// judgement on left out.
fn judged_modules(dir: &Path) -> Vec<Module> {
    let (Some(report), Some(listing)) =
        (lint_json(dir, &["--format", "json", "."]), lint_json(dir, &["ls", "--json", "."]))
    else {
        return Vec::new();
    };
    let mut modules = Vec::new();
    for tool in listing["tools"].as_array().unwrap() {
        if tool["kind"] == "project" {
            modules.push(("beeuni", tool["source"].as_str().unwrap()));
        }
    }
    for tool in listing["xcsh"].as_array().into_iter().flatten() {
        modules.push(("xcsh", tool["path"].as_str().unwrap()));
    }
    // `ls` lists the xcsh tools it can name; one the loader rejects is found by its finding.
    for finding in report["diagnostics"].as_array().unwrap() {
        let rule = finding["rule"].as_str().unwrap();
        if rule.starts_with("xcsh-") && FAILS_UNDER_BUN.contains(&rule) {
            modules.push(("xcsh", finding["path"].as_str().unwrap()));
        }
    }
    modules.sort();
    modules.dedup();
    modules
        .into_iter()
        .map(|(kind, path)| Module { kind, path: path.to_string(), judgement: judge(&report, path) })
        .filter(|module| module.judgement != Judgement::Unjudged)
        .collect()
}

/// Loads `modules` of the project in `dir` with Bun; returns, for each module where Bun and the linter disagree,
/// the module and the disagreement.
fn load_with_bun(bun: &Path, unshare: bool, dir: &Path, modules: &[Module]) -> Vec<(String, String)> {
    let checker = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bun/check.ts");
    let mut command = assert_cmd::Command::new(if unshare { Path::new("unshare") } else { bun });
    if unshare {
        command.args(["-rn".as_ref(), bun.as_os_str()]);
    }
    let home = tempfile::TempDir::new().unwrap();
    command
        .arg("--no-install")
        .arg(&checker)
        .args(modules.iter().map(|module| format!("{}={}", module.kind, dir.join(&module.path).display())))
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("NO_COLOR", "1")
        .env("BUN_RUNTIME_TRANSPILER_CACHE_PATH", "0")
        .timeout(BUN_TIME_LIMIT);
    let label = |module: &Module| format!("{} ({})", module.path, module.kind);
    let output = match command.output() {
        Ok(output) => output,
        Err(error) => {
            let reason = format!("Bun did not finish (time limit {BUN_TIME_LIMIT:?}): {error}");
            return modules.iter().map(|module| (label(module), reason.clone())).collect();
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let verdicts: Vec<Value> = stdout.lines().filter_map(|line| serde_json::from_str(line).ok()).collect();
    let mut disagreements = Vec::new();
    for (index, module) in modules.iter().enumerate() {
        let Some(verdict) = verdicts.get(index) else {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let reason = format!("Bun gave no verdict (exit {:?}): {}", output.status.code(), stderr.trim());
            disagreements.push((label(module), reason));
            continue;
        };
        let bun_error = verdict["error"].as_str().map(|error| error.replace(&format!("{}/", dir.display()), ""));
        let reason = match (&module.judgement, bun_error) {
            (Judgement::Passes, Some(error)) => format!("the linter passes it, Bun does not: {error}"),
            (Judgement::Fails(rule), None) => {
                format!("the linter reports `{rule}`, but Bun loads it and its contract holds")
            }
            _ => continue,
        };
        disagreements.push((label(module), reason));
    }
    disagreements
}

/// The fixtures' names, sorted.
fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture_path(""))
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn bun_agrees_with_the_linter_on_every_fixture_module() {
    let Some(bun) = find_bun() else {
        println!("skipped: no Bun (set BEEUNI_LINT_BUN to its path, or put `bun` on PATH)");
        return;
    };
    let unshare = can_unshare_network();
    if !unshare {
        println!("note: `unshare -rn` is not available: Bun runs with auto-install off but with the network");
    }
    // Modules passed and failed, Beeuni and xcsh.
    let (mut counts, mut disagreements) = ([[0usize; 2]; 2], Vec::new());
    for name in fixture_names() {
        let copy = tempfile::TempDir::new().unwrap();
        copy_dir(&fixture_path(&name), copy.path());
        for project in project_folders(copy.path()) {
            let modules = judged_modules(&project);
            if modules.is_empty() {
                continue;
            }
            for module in &modules {
                counts[usize::from(module.judgement != Judgement::Passes)][usize::from(module.kind == "xcsh")] += 1;
            }
            let folder = project.strip_prefix(copy.path()).unwrap().display().to_string();
            let place = if folder.is_empty() { name.clone() } else { format!("{name}/{folder}") };
            for (module, reason) in load_with_bun(&bun, unshare, &project, &modules) {
                disagreements.push(format!("{place}: {module}: {reason}"));
            }
        }
    }
    let [[passed, passed_xcsh], [failed, failed_xcsh]] = counts;
    println!(
        "Bun loaded {passed} Beeuni and {passed_xcsh} xcsh modules the linter passes, and {failed} Beeuni and \
         {failed_xcsh} xcsh modules it fails"
    );
    assert!(
        disagreements.is_empty(),
        "Bun and the linter disagree on {} modules:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    // The selection must not quietly shrink to nothing (a changed `ls --json`, say).
    assert!(passed >= 100 && passed_xcsh >= 15 && failed >= 40 && failed_xcsh >= 3, "only {counts:?} modules");
}
