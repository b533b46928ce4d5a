//! The fixtures against the runtime: every tool module that beeuni-lint lists in a fixture and reports no load
//! failure for is imported by Bun (tests/bun/check.ts) and must meet its loader's contract: the Beeuni daemon's
//! for modules declared under `tools:`, the xcsh custom-tool loader's for `.xcsh/tools`, `.claude/tools` and
//! `.codex/tools`. So a clean fixture cannot drift from what Bun does, and every fixture added later is covered.
//!
//! Optional: Bun comes from `BEEUNI_LINT_BUN` (a path) or `bun` on `PATH`; without it the test says it is skipped
//! and passes (`.ci/run` installs Bun and sets `BEEUNI_LINT_BUN`). Bun executes the modules, so it only ever
//! sees copies of this repository's own fixtures, with auto-install off, no network where `unshare` can take it
//! away, and a time limit.

mod common;

use common::{bin, copy_dir, fixture_path};
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

/// A module the linter passes, to be loaded: `kind` is `beeuni` or `xcsh`, `path` relative to its project.
struct Module {
    kind: &'static str,
    path: String,
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

/// The files an error (or a finding of `NOT_PASSED`) is about: its own path, the tools it names as related (a helper's
/// finding lists the tools importing it), and any of `candidates` its message names (`module-missing` points at
/// the manifest line).
fn failing_files(report: &Value, candidates: &[Module]) -> Vec<String> {
    let mut failing = Vec::new();
    for finding in report["diagnostics"].as_array().unwrap() {
        let rule = finding["rule"].as_str().unwrap();
        if finding["severity"] != "error" && !NOT_PASSED.contains(&rule) {
            continue;
        }
        failing.extend(finding["path"].as_str().map(String::from));
        for related in finding["related"].as_array().into_iter().flatten() {
            failing.extend(related["path"].as_str().map(String::from));
        }
        let message = finding["message"].as_str().unwrap_or_default();
        for module in candidates {
            if message.contains(&format!("`{}`", module.path)) {
                failing.push(module.path.clone());
            }
        }
    }
    failing
}

/// The modules of the project in `dir` that beeuni-lint lists and passes: no error and no finding of `NOT_PASSED`.
fn passed_modules(dir: &Path) -> Vec<Module> {
    let (Some(report), Some(listing)) =
        (lint_json(dir, &["--format", "json", "."]), lint_json(dir, &["ls", "--json", "."]))
    else {
        return Vec::new();
    };
    let mut modules = Vec::new();
    for tool in listing["tools"].as_array().unwrap() {
        if tool["kind"] == "project" {
            modules.push(Module { kind: "beeuni", path: tool["source"].as_str().unwrap().to_string() });
        }
    }
    for tool in listing["xcsh"].as_array().into_iter().flatten() {
        modules.push(Module { kind: "xcsh", path: tool["path"].as_str().unwrap().to_string() });
    }
    modules.dedup_by(|a, b| a.kind == b.kind && a.path == b.path);
    let failing = failing_files(&report, &modules);
    modules.retain(|module| !failing.contains(&module.path));
    modules
}

/// Loads `modules` of the project in `dir` with Bun; returns (module, what is wrong) for each that fails.
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
    let mut failures = Vec::new();
    for (index, module) in modules.iter().enumerate() {
        let reason = match verdicts.get(index) {
            Some(verdict) => match verdict["error"].as_str() {
                Some(error) => error.replace(&format!("{}/", dir.display()), ""),
                None => continue,
            },
            None => format!(
                "Bun gave no verdict (exit {:?}): {}",
                output.status.code(),
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        };
        failures.push((label(module), reason));
    }
    failures
}

#[test]
fn every_module_the_linter_passes_loads_under_bun() {
    let Some(bun) = find_bun() else {
        println!("skipped: no Bun (set BEEUNI_LINT_BUN to its path, or put `bun` on PATH)");
        return;
    };
    let unshare = can_unshare_network();
    if !unshare {
        println!("note: `unshare -rn` is not available: Bun runs with auto-install off but with the network");
    }
    let fixtures_dir = fixture_path("");
    let mut names: Vec<String> = std::fs::read_dir(&fixtures_dir)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let (mut checked, mut failures) = ([0usize; 2], Vec::new());
    for name in &names {
        let copy = tempfile::TempDir::new().unwrap();
        copy_dir(&fixture_path(name), copy.path());
        for project in project_folders(copy.path()) {
            let modules = passed_modules(&project);
            if modules.is_empty() {
                continue;
            }
            checked[0] += modules.iter().filter(|module| module.kind == "beeuni").count();
            checked[1] += modules.iter().filter(|module| module.kind == "xcsh").count();
            let folder = project.strip_prefix(copy.path()).unwrap().display().to_string();
            for (module, reason) in load_with_bun(&bun, unshare, &project, &modules) {
                let place = if folder.is_empty() { name.clone() } else { format!("{name}/{folder}") };
                failures.push(format!("{place}: {module}: {reason}"));
            }
        }
    }
    println!("Bun loaded {} Beeuni and {} xcsh tool modules the linter passes", checked[0], checked[1]);
    assert!(failures.is_empty(), "{} modules fail under Bun:\n{}", failures.len(), failures.join("\n"));
    // The selection must not quietly shrink to nothing (a changed `ls --json`, say).
    assert!(checked[0] >= 50 && checked[1] >= 10, "only {checked:?} modules selected");
}
