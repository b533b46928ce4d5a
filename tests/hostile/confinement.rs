//! Hostile inputs: confinement. Nothing outside the repository is read or written: a committed symlink is
//! followed only when its target stays inside the work tree (and out of `.git`), else the run refuses it with a
//! message that names the path and why, never what the link leads to.

use crate::common::{Expect, assert_findings};
#[allow(unused_imports)]
use crate::support::*;

/// The harness itself: a clean project runs clean, bounded, and leaves the outside folder alone.
#[test]
fn a_clean_project_is_clean_and_bounded() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).commit("clean");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("clean project");
    sandbox.assert_untouched("clean project", &outcome);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stdout());
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]));
}

/// Runs `args` in the sandbox and asserts a bounded refusal (exit 2) whose message is `message`, with nothing
/// outside touched or shown.
fn assert_refused(sandbox: &Sandbox, what: &str, args: &[&str], message: &str) -> Outcome {
    let outcome = sandbox.run(args);
    outcome.assert_bounded(what);
    sandbox.assert_untouched(what, &outcome);
    assert_eq!(outcome.code, Some(2), "{what}: stdout:\n{}\nstderr:\n{}", outcome.stdout(), outcome.stderr());
    assert_eq!(outcome.stderr(), format!("beeuni-lint: {message}\n"), "{what}");
    outcome
}

/// The outside folder's path must not be named either: a refusal names the link, not its target.
fn assert_target_unnamed(sandbox: &Sandbox, what: &str, outcome: &Outcome) {
    let outside = sandbox.outside.to_string_lossy().into_owned();
    assert!(!outcome.stderr().contains(&outside), "{what}: the link's target is named:\n{}", outcome.stderr());
}

const CONFIG_OUTSIDE: &str = "the config `beeuni-lint.toml` resolves through a symlink to outside the repository: \
                              beeuni-lint reads a config only from a regular file inside the repository";

#[test]
fn a_config_that_links_to_a_file_outside_is_refused_unread() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).link("beeuni-lint.toml", sandbox.outside.join("secret.txt"));
    sandbox.commit("config links out");
    let outcome = assert_refused(&sandbox, "config link", &["--format", "json", "."], CONFIG_OUTSIDE);
    assert_target_unnamed(&sandbox, "config link", &outcome);
    // A relative link, from a project in a subfolder (the config is looked for up to the work tree root).
    let sandbox = Sandbox::new();
    sandbox.file("apps/a/beeuni.yaml", MANIFEST).link("beeuni-lint.toml", "../outside/secret.txt");
    sandbox.commit("config links out");
    let message = CONFIG_OUTSIDE.to_string();
    assert_refused(&sandbox, "config link above the project", &["apps/a"], &message);
}

#[test]
fn a_config_that_links_to_proc_self_environ_is_refused_unread() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).link("beeuni-lint.toml", "/proc/self/environ").commit("environ");
    // The environment holds a secret of the runner's: a config error would quote it as an unknown key.
    let outcome = run_with(&sandbox.repo, &["."], &[("RUNNER_TOKEN", SECRET)], None);
    outcome.assert_bounded("environ link");
    sandbox.assert_untouched("environ link", &outcome);
    assert_eq!(outcome.code, Some(2));
    assert_eq!(outcome.stderr(), format!("beeuni-lint: {CONFIG_OUTSIDE}\n"));
}

#[test]
fn a_config_given_by_flag_that_links_out_of_the_repository_is_refused() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).link("ci/lint.toml", sandbox.outside.join("secret.txt"));
    sandbox.link("ci/conf", &sandbox.outside).commit("config links out");
    let repo = sandbox.repo.display();
    let message = format!(
        "--config `ci/lint.toml` is a symlink to outside the repository at {repo}: beeuni-lint reads and writes \
         nothing outside it"
    );
    let outcome = assert_refused(&sandbox, "--config link", &["--config", "ci/lint.toml", "."], &message);
    assert_target_unnamed(&sandbox, "--config link", &outcome);
    // Through a folder that is a link: followed part by part, the link is named, not its target.
    let message = format!(
        "--config `ci/conf/secret.txt` goes through `ci/conf`, a symlink to outside the repository at {repo}: \
         beeuni-lint reads and writes nothing outside it"
    );
    let outcome = assert_refused(&sandbox, "--config folder link", &["--config", "ci/conf/secret.txt", "."], &message);
    assert_target_unnamed(&sandbox, "--config folder link", &outcome);
}

#[test]
fn an_import_of_git_internals_is_a_located_finding() {
    let sandbox = Sandbox::new();
    let manifest = format!("{MANIFEST}imports:\n  - .git/config\n  - .GIT/HEAD\n  - shared.yaml\n");
    sandbox.file("beeuni.yaml", manifest).link("shared.yaml", ".git/config").commit("git internals");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("import .git");
    sandbox.assert_untouched("import .git", &outcome);
    assert_eq!(outcome.code, Some(1));
    assert!(!outcome.stdout().contains("repositoryformatversion"), "git's config is shown:\n{}", outcome.stdout());
    let finding = |line, path: &str| -> (u64, String) {
        (line, format!("import `{path}` is inside `.git`, git's own folder: it is never read"))
    };
    let expected: Vec<(u64, String)> = vec![finding(11, ".git/config"), finding(12, ".GIT/HEAD")];
    let mut expected: Vec<Expect> = expected
        .iter()
        .map(|(line, message)| ("import-path", "error", "beeuni.yaml", *line, 3, message.as_str()))
        .collect();
    // Through a symlink inside the repository: the link resolves into `.git`.
    let through = finding(13, "shared.yaml").1;
    expected.push(("import-path", "error", "beeuni.yaml", 13, 3, &through));
    assert_findings(&outcome.json(), &expected);
}

#[test]
fn a_node_modules_link_to_the_root_folder_is_not_listed() {
    let sandbox = Sandbox::new();
    let manifest = MANIFEST.replace("  show: beeuni:show\n", "  show: beeuni:show\n  etc: tools/etc.ts\n");
    let module = format!("import passwd from 'etc';\nconsole.log(passwd);\n{MODULE}");
    sandbox.file("beeuni.yaml", manifest).file("tools/etc.ts", module).link("node_modules", "/").commit("root");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("node_modules -> /");
    sandbox.assert_untouched("node_modules -> /", &outcome);
    assert_eq!(outcome.code, Some(1));
    assert!(!outcome.stdout().contains("passwd\""), "{}", outcome.stdout());
    assert_findings(
        &outcome.json(),
        &[("module-package-missing", "error", "tools/etc.ts", 1, 1, "Cannot find package 'etc'")],
    );
}

#[test]
fn a_project_path_that_links_out_of_the_repository_is_neither_linted_cached_nor_fixed() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).link("apps/agent", &sandbox.outside).commit("project links out");
    let repo = sandbox.repo.display();
    let message = format!(
        "PATH `apps/agent` is a symlink to outside the repository at {repo}: beeuni-lint reads and writes nothing \
         outside it"
    );
    // As the GitHub Action passes it (`path: apps/agent`), with the cache on, and with `--fix`.
    for args in [&["apps/agent"][..], &["--fix", "apps/agent"], &["ls", "apps/agent"], &["apps/agent/secret.txt"]] {
        let what = format!("PATH link: {args:?}");
        let expected = message.replace("`apps/agent`", &format!("`{}`", args[args.len() - 1]));
        let expected = expected.replace("is a symlink", "goes through `apps/agent`, a symlink");
        let expected = if args[args.len() - 1] == "apps/agent" { message.clone() } else { expected };
        let outcome = assert_refused(&sandbox, &what, args, &expected);
        assert_target_unnamed(&sandbox, &what, &outcome);
    }
}

#[test]
fn a_report_file_that_is_a_committed_symlink_is_refused_not_written_through() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).link("report.json", sandbox.outside.join("secret.txt"));
    sandbox.link("reports", &sandbox.outside).commit("report paths link out");
    for flag in ["--output", "--sarif-file"] {
        let message = format!(
            "{flag} `report.json` is a symlink in the repository: beeuni-lint never writes a report through a link \
             (remove it, or name another file)"
        );
        assert_refused(&sandbox, flag, &[flag, "report.json", "."], &message);
        let repo = sandbox.repo.display();
        let message = format!(
            "{flag} `reports/new.json` goes through `reports`, a symlink to outside the repository at {repo}: beeuni-lint \
             reads and writes nothing outside it"
        );
        let outcome = assert_refused(&sandbox, flag, &[flag, "reports/new.json", "."], &message);
        assert_target_unnamed(&sandbox, flag, &outcome);
    }
    // A new report file inside the repository is written as before.
    let outcome = sandbox.run(&["--output", "out/../report.sarif", "--format", "sarif", "."]);
    outcome.assert_bounded("a new report");
    sandbox.assert_untouched("a new report", &outcome);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr());
    assert!(std::fs::read_to_string(sandbox.repo.join("report.sarif")).is_ok_and(|text| text.contains("\"runs\"")));
}

#[test]
fn a_cache_folder_that_links_out_of_the_repository_is_refused() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).link("cache", &sandbox.outside).commit("cache links out");
    let repo = sandbox.repo.display();
    let message = format!(
        "--cache-dir `cache/lint` goes through `cache`, a symlink to outside the repository at {repo}: beeuni-lint \
         reads and writes nothing outside it"
    );
    assert_refused(&sandbox, "--cache-dir link", &["--cache-dir", "cache/lint", "."], &message);
}

#[test]
fn a_refused_eject_leaves_every_file_as_it_was() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).link("tools", &sandbox.outside).commit("tools links out");
    let message = "cannot write tools/web_search.ts: its folder resolves through a symlink to outside the repository";
    assert_refused(&sandbox, "eject into a link", &["eject", "web_search", "--template"], message);
    assert_eq!(std::fs::read_to_string(sandbox.repo.join("beeuni.yaml")).unwrap(), MANIFEST, "beeuni.yaml edited");
}

/// The positive twins: links whose targets are tracked files and folders inside the repository work as before.
#[test]
fn links_that_stay_inside_the_repository_are_followed() {
    let sandbox = Sandbox::new();
    let manifest = MANIFEST.replace("  show: beeuni:show\n", "  show: beeuni:show\n  mine: tools/mine.ts\n");
    let module = "export default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() \
                  { return await fetch('https://example.com') } }\n";
    sandbox.file("projects/agent/beeuni.yaml", manifest).file("projects/agent/lib/mine.ts", module);
    sandbox.link("projects/agent/tools/mine.ts", "../lib/mine.ts");
    // The config turns off the one finding: a clean run proves it was read through its link.
    sandbox.file("common/lint.toml", "[rules]\nmodule-fetch-signal = \"off\"\n").file("common/empty.toml", "");
    sandbox.link("projects/agent/beeuni-lint.toml", "../../common/lint.toml");
    sandbox.link("apps/agent", "../projects/agent").commit("links inside");
    for args in [&["apps/agent"][..], &["--config", "apps/agent/beeuni-lint.toml", "apps/agent"]] {
        let mut args = args.to_vec();
        args.extend(["--format", "json"]);
        let outcome = sandbox.run(&args);
        outcome.assert_bounded("links inside");
        sandbox.assert_untouched("links inside", &outcome);
        assert_eq!(outcome.code, Some(0), "{args:?}: {}\n{}", outcome.stderr(), outcome.stdout());
        assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]), "{args:?}");
    }
    // Without the config the module's finding is there.
    let outcome = sandbox.run(&["--config", "common/empty.toml", "--format", "json", "apps/agent"]);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr());
    let fetch = outcome.json()["diagnostics"][0]["rule"].clone();
    assert_eq!(fetch, "module-fetch-signal", "{}", outcome.stdout());
}
