//! `--staged` (lint the index, compare with HEAD) and `--only-changed`
//! (docs/spec/interface.md; docs/spec/rules.md §10 readings) on real git repositories.

use crate::change_support::*;
use crate::common::{Expect, assert_clean, assert_finding, assert_findings, diagnostics, of_rule, rule_ids};

const TWO: &str = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n";

fn committed(files: &[(&str, &str)]) -> Repo {
    let repo = Repo::new();
    for (path, content) in files {
        repo.write(path, content);
    }
    repo.commit("base");
    repo
}

#[test]
fn staged_lints_the_index_and_points_at_the_index_line() {
    let repo = committed(&[("beeuni.yaml", TWO)]);
    // The index: image_search removed, `tools:` on line 3.
    repo.write("beeuni.yaml", "# shop\n\ntools:\n  web_search: beeuni:web_search\n").stage();
    // The work tree: restored (and `tools:` back on line 1).
    repo.write("beeuni.yaml", TWO);
    let (code, report) = repo.lint(&["--staged"]);
    assert_eq!(code, 1);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 3, 1, &removal("image_search"))]);
    let head = repo.short("HEAD");
    assert_eq!(diagnostics(&report)[0]["help"], format!("compared with HEAD ({head})"));
    // The work tree against HEAD: nothing removed.
    let (code, report) = repo.lint(&["--base", "HEAD"]);
    assert_clean("work tree restored", code, &report);
}

#[test]
fn staged_reports_the_index_error_not_the_work_tree_one() {
    let repo =
        committed(&[("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read]\n")]);
    // The index has a typo on line 5; the work tree fixes it and makes another on line 7.
    repo.write("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [grpe]\n").stage();
    repo.write(
        "beeuni.yaml",
        "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [grep]\n  b:\n    tools: [red]\n",
    );
    let (code, report) = repo.lint(&["--staged"]);
    assert_eq!(code, 1);
    assert_findings(&report, &[("unknown-tool", "warning", "beeuni.yaml", 5, 13, &unknown_tool("a", "grpe"))]);
    let (_, report) = repo.lint(&[]);
    assert_findings(&report, &[("unknown-tool", "warning", "beeuni.yaml", 7, 13, &unknown_tool("b", "red"))]);
}

#[test]
fn staged_reads_modules_and_imports_from_the_index() {
    let repo = committed(&[
        (
            "beeuni.yaml",
            "imports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n",
        ),
        ("more.yaml", "agents:\n  a:\n    tools: [read, lookup_order]\n"),
        ("tools/lookup_order.ts", MODULE),
    ]);
    // Work tree only: the module is broken, the imported file deleted, the manifest gone. The index is intact.
    repo.write("tools/lookup_order.ts", "export default {\n");
    repo.remove("more.yaml").remove("beeuni.yaml");
    let (code, report) = repo.lint(&["--staged"]);
    assert_clean("the index is intact", code, &report);
    // And what is only in the work tree is not linted: a non-staged manifest is an exit-2 error.
    repo.git(&["rm", "-q", "--cached", "beeuni.yaml"]);
    let message = repo.fails(&["--staged", "."]);
    assert_eq!(message, "no beeuni.yaml in the index: stage it with `git add beeuni.yaml`");
}

#[test]
fn staged_on_an_unborn_head_compares_with_nothing() {
    let repo = Repo::new();
    repo.write(
        "beeuni.yaml",
        "tools:\n  lookup_order: tools/lookup_order.ts\nagents:\n  a:\n    tools: [read, grpe]\n",
    );
    repo.write("tools/lookup_order.ts", MODULE).stage();
    let (code, report) = repo.lint(&["--staged"]);
    assert_eq!(code, 1);
    // Nothing was loaded before the first commit, so nothing is removed; the ordinary findings stay.
    assert_findings(
        &report,
        &[
            ("no-beeuni-tools", "warning", "beeuni.yaml", 1, 1, NO_BEEUNI_TOOLS),
            ("unknown-tool", "warning", "beeuni.yaml", 5, 19, &unknown_tool("a", "grpe")),
        ],
    );
    // Every line of the first commit is added.
    assert_eq!(repo.lint(&["--staged", "--only-changed"]), (code, report));
    // `--base` needs a commit to compare with.
    assert_eq!(repo.fails(&["--base", "main", "."]), "HEAD has no commit yet: there is nothing to compare `main` with");
}

#[test]
fn staged_on_an_unborn_head_without_a_staged_manifest_is_exit_2() {
    let repo = Repo::new();
    repo.write("beeuni.yaml", TWO);
    assert_eq!(repo.fails(&["--staged", "."]), "no beeuni.yaml in the index: stage it with `git add beeuni.yaml`");
}

/// The manifest staged, its new module left out of the index.
fn unstaged_module() -> Repo {
    let repo = committed(&[("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n")]);
    repo.write("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n");
    repo.git(&["add", "beeuni.yaml"]);
    repo.write("tools/lookup_order.ts", MODULE);
    repo
}

#[test]
fn staged_with_an_unstaged_module_is_file_untracked() {
    // docs/spec/rules.md §1 `file-untracked`: "Error ... when linting the index (--staged: it is not in the commit)".
    let repo = unstaged_module();
    let (code, report) = repo.lint(&["--staged"]);
    assert_eq!(code, 1);
    let message = "module `tools/lookup_order.ts` is not staged: the commit being made does not contain it";
    assert_findings(&report, &[("file-untracked", "error", "beeuni.yaml", 3, 3, message)]);
    assert_eq!(diagnostics(&report)[0]["help"], "run `git add tools/lookup_order.ts`");
    // In the work tree the module exists and is merely not added yet: `file-untracked` as info.
    let (code, report) = repo.lint(&[]);
    assert_eq!(code, 0, "an info does not fail the run");
    let message =
        "module `tools/lookup_order.ts` is not tracked by git yet: a config release contains only files Git tracks";
    assert_findings(&report, &[("file-untracked", "info", "beeuni.yaml", 3, 3, message)]);
    // A module in neither the index nor the work tree is missing, also with --staged.
    repo.remove("tools/lookup_order.ts");
    let (_, report) = repo.lint(&["--staged"]);
    let message = "module `tools/lookup_order.ts` of tool `lookup_order` does not exist";
    assert_findings(&report, &[("module-missing", "error", "beeuni.yaml", 3, 3, message)]);
}

#[test]
fn staged_with_an_unstaged_import_or_helper_is_file_untracked() {
    let repo = committed(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n"),
        ("tools/lookup_order.ts", MODULE),
    ]);
    repo.write(
        "beeuni.yaml",
        "imports:\n  - more.yaml\ntools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n",
    );
    repo.write("tools/lookup_order.ts", &format!("import {{ shared }} from './shared'\nconsole.log(shared)\n{MODULE}"));
    repo.git(&["add", "beeuni.yaml", "tools/lookup_order.ts"]);
    repo.write("more.yaml", "agents:\n  a:\n    tools: [read]\n");
    repo.write("tools/shared.ts", "export const shared = 1\n");
    let (code, report) = repo.lint(&["--staged"]);
    assert_eq!(code, 1);
    let found = of_rule(&report, "file-untracked");
    assert_eq!(found.len(), 2, "{report:#}");
    let import = "imported file `more.yaml` is not staged: the commit being made does not contain it";
    // The `- more.yaml` item: the column (the `-` or the path) is disputed in tests/it/bad_input.rs.
    assert_finding(found[0], &("file-untracked", "error", "beeuni.yaml", 2, 3, import));
    let helper = "imported file `tools/shared.ts` is not staged: the commit being made does not contain it";
    assert_finding(found[1], &("file-untracked", "error", "tools/lookup_order.ts", 1, 1, helper));
    assert_eq!(diagnostics(&report).len(), 2, "{report:#}");
}

#[test]
fn staged_with_an_ignored_import_or_helper_says_it_is_ignored() {
    // docs/spec/rules.md §10: an ignored file's help says it is ignored, never a plain `git add` (git refuses it).
    let repo = committed(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n"),
        ("tools/lookup_order.ts", MODULE),
        (".gitignore", "conf/\n*.local.ts\n"),
    ]);
    repo.write(
        "beeuni.yaml",
        "imports: [conf/more.yaml]\ntools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n",
    );
    repo.write(
        "tools/lookup_order.ts",
        &format!("import {{ shared }} from './shared.local'\nconsole.log(shared)\n{MODULE}"),
    );
    repo.stage();
    repo.write("conf/more.yaml", "agents:\n  a:\n    tools: [read]\n");
    repo.write("tools/shared.local.ts", "export const shared = 1\n");
    let (code, report) = repo.lint(&["--staged"]);
    assert_eq!(code, 1);
    let ignored = |what: &str, path: &str| {
        format!("{what} `{path}` is ignored by git: a config release contains only files Git tracks")
    };
    assert_findings(
        &report,
        &[
            ("file-untracked", "error", "beeuni.yaml", 1, 11, &ignored("imported file", "conf/more.yaml")),
            (
                "file-untracked",
                "error",
                "tools/lookup_order.ts",
                1,
                1,
                &ignored("imported file", "tools/shared.local.ts"),
            ),
        ],
    );
    for (finding, path) in diagnostics(&report).iter().zip(["conf/more.yaml", "tools/shared.local.ts"]) {
        let help = format!(
            "`{path}` is ignored by git (a `.gitignore` rule matches it), so a plain `git add` refuses it: remove that rule, or add it anyway with `git add -f {path}`"
        );
        assert_eq!(finding["help"], help);
    }
}

#[test]
fn staged_and_base_together_compare_the_index_with_the_merge_base() {
    let repo = committed(&[(
        "beeuni.yaml",
        "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  memory: beeuni:memory\n",
    )]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("beeuni.yaml", TWO).commit("drop memory");
    let head = repo.short("HEAD");
    repo.write("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n").stage();
    // The work tree differs from the index (restores everything): only the index counts.
    repo.write("beeuni.yaml", "# all five\n");

    let (_, report) = repo.lint(&["--staged"]);
    assert_eq!(rule_ids(&report), ["removed-beeuni-tool"]);
    assert_eq!(diagnostics(&report)[0]["message"], removal("image_search"));
    assert_eq!(diagnostics(&report)[0]["help"], format!("compared with HEAD ({head})"));

    let (_, report) = repo.lint(&["--staged", "--base", "main"]);
    // One finding for one change, naming every tool; its help is the block of lines to paste back.
    let message = removals(&["image_search", "memory"]);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &message)]);
    assert_eq!(diagnostics(&report)[0]["help"], "image_search: beeuni:image_search\nmemory: beeuni:memory");
    // The work tree against the same base: nothing removed.
    let (code, report) = repo.lint(&["--base", "main"]);
    assert_clean("work tree", code, &report);
}

// --only-changed

const OLD: &str =
    "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read, grpe]\n  b:\n    tools: [read]\n";

#[test]
fn only_changed_keeps_findings_on_added_lines() {
    let repo = committed(&[("beeuni.yaml", OLD)]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    // One line added (c's list): a new finding there; a's old typo stays untouched.
    let new = "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read, grpe]\n  b:\n    tools: [read]\n  c:\n    tools: [red]\n";
    repo.write("beeuni.yaml", new).stage();
    let (old, added) = (unknown_tool("a", "grpe"), unknown_tool("c", "red"));
    let all: [Expect; 2] = [
        ("unknown-tool", "warning", "beeuni.yaml", 5, 19, &old),
        ("unknown-tool", "warning", "beeuni.yaml", 9, 13, &added),
    ];
    for args in [&["--staged"][..], &["--base", "main"][..]] {
        let (_, report) = repo.lint(args);
        assert_findings(&report, &all);
        let only: Vec<&str> = args.iter().copied().chain(["--only-changed"]).collect();
        let (code, report) = repo.lint(&only);
        assert_eq!(code, 1, "{args:?}");
        assert_findings(&report, &all[1..]);
        assert_eq!(report["summary"]["warning"], 1, "the summary counts what is reported");
    }
    repo.git(&["commit", "-q", "-m", "c"]);
    let (_, report) = repo.lint(&["--base", "main", "--only-changed"]);
    assert_findings(&report, &all[1..]);
    // Against itself nothing changed: nothing is reported, and the old warning does not fail the run.
    let (code, report) = repo.lint(&["--base", "HEAD", "--only-changed"]);
    assert_clean("no change", code, &report);
}

#[test]
fn only_changed_counts_a_modified_line() {
    let repo = committed(&[("beeuni.yaml", OLD)]);
    // a's line gains `bash`: modified, so its old typo is reported again; b's untouched line is not.
    repo.write(
        "beeuni.yaml",
        &OLD.replace("[read, grpe]", "[read, grpe, bash]").replace("    tools: [read]\n", "    tools: [red]\n"),
    )
    .stage();
    let (_, report) = repo.lint(&["--staged"]);
    assert_eq!(diagnostics(&report).len(), 2, "{report:#}");
    // Change b back: its line is untouched again; only a's modified line stays.
    repo.write("beeuni.yaml", &OLD.replace("[read, grpe]", "[read, grpe, bash]")).stage();
    let (code, report) = repo.lint(&["--staged", "--only-changed"]);
    assert_eq!(code, 1);
    assert_findings(&report, &[("unknown-tool", "warning", "beeuni.yaml", 5, 19, &unknown_tool("a", "grpe"))]);
}

#[test]
fn only_changed_always_keeps_the_change_aware_findings() {
    let base = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  lookup_order: tools/lookup_order.ts\nagents:\n  a:\n    tools: [read, lookup_order, grpe]\n";
    let repo = committed(&[("beeuni.yaml", base), ("tools/lookup_order.ts", MODULE)]);
    // Only deletions: the `tools:` key (line 1) and a's list (line 5) are untouched lines.
    repo.write(
        "beeuni.yaml",
        "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read, lookup_order, grpe]\n",
    );
    repo.remove("tools/lookup_order.ts").stage();
    let (code, report) = repo.lint(&["--staged", "--only-changed"]);
    assert_eq!(code, 1);
    assert_findings(
        &report,
        &[
            ("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &removal("image_search")),
            ("removed-tool-in-use", "error", "beeuni.yaml", 5, 19, &in_use("lookup_order", "a")),
        ],
    );
    // Without --only-changed, the unknown-tool (`grpe`) on the untouched list line is there too.
    let (_, report) = repo.lint(&["--staged"]);
    assert_eq!(rules_at(&report), ["removed-beeuni-tool@1", "removed-tool-in-use@5", "unknown-tool@5"]);
}

#[test]
fn only_changed_drops_findings_of_untouched_files_and_keeps_all_of_new_ones() {
    let repo = committed(&[
        ("beeuni.yaml", "imports: [old.yaml]\ntools:\n  web_search: beeuni:web_search\n"),
        ("old.yaml", "agents:\n  a:\n    tools: [grpe]\n"),
    ]);
    repo.write("beeuni.yaml", "imports: [old.yaml, new.yaml]\ntools:\n  web_search: beeuni:web_search\n");
    repo.write("new.yaml", "agents:\n  b:\n    tools: [red]\n").stage();
    let (_, report) = repo.lint(&["--base", "HEAD"]);
    assert_eq!(rules_at(&report), ["unknown-tool@3", "unknown-tool@3"]);
    let (_, report) = repo.lint(&["--base", "HEAD", "--only-changed"]);
    assert_findings(&report, &[("unknown-tool", "warning", "new.yaml", 3, 13, &unknown_tool("b", "red"))]);
}

#[test]
fn only_changed_needs_a_change() {
    let repo = committed(&[("beeuni.yaml", TWO)]);
    let message = "`--only-changed` needs a change to look at: add `--base REV` or `--staged`";
    assert_eq!(repo.fails(&["--only-changed", "."]), message);
    assert_eq!(repo.fails(&["--only-changed"]), message);
}

/// Installs a pre-commit hook that writes `beeuni-lint --staged --format json .` to `.git/report.json` (and lets
/// the commit through, so the test can read what the hook saw).
fn install_hook(repo: &Repo) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = assert_cmd::cargo::cargo_bin("beeuni-lint");
    let out = repo.path(".git/report.json");
    let hook = repo.path(".git/hooks/pre-commit");
    std::fs::create_dir_all(hook.parent().unwrap()).unwrap();
    let script = format!("#!/bin/sh\n'{}' --staged --format json . > '{}'\nexit 0\n", bin.display(), out.display());
    std::fs::write(&hook, script).unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    out
}

fn hook_report(out: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out).expect("the hook ran");
    std::fs::remove_file(out).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn staged_in_a_pre_commit_hook_lints_the_index_git_is_committing() {
    let repo = committed(&[("beeuni.yaml", TWO)]);
    let out = install_hook(&repo);
    // `git commit -a`: the commit is made from a temporary index (GIT_INDEX_FILE), not from `.git/index`.
    repo.write("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n");
    repo.git(&["commit", "-q", "-a", "-m", "drop image_search"]);
    let report = hook_report(&out);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &removal("image_search"))]);

    // `git commit PATH` with something else staged: the commit holds the work tree's PATH, not the staged version.
    repo.write("beeuni.yaml", "tools:\n  memory: beeuni:memory\n").stage();
    repo.write("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  show: beeuni:show\n");
    repo.git(&["commit", "-q", "-m", "add show", "beeuni.yaml"]);
    let report = hook_report(&out);
    assert!(diagnostics(&report).is_empty(), "the hook saw `.git/index`, not the commit's index:\n{report:#}");
}

#[test]
fn staged_manifest_deleted_in_the_work_tree_only_at_the_root() {
    let repo = committed(&[("beeuni.yaml", TWO)]);
    repo.write("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n").stage();
    repo.remove("beeuni.yaml");
    let (_, report) = repo.lint(&["--staged"]);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &removal("image_search"))]);
}

#[test]
fn staged_manifest_deleted_in_the_work_tree_only_in_a_subfolder() {
    let repo = committed(&[("README.md", "monorepo\n"), ("apps/shop/beeuni.yaml", TWO)]);
    repo.write("apps/shop/beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n").stage();
    repo.remove("apps/shop/beeuni.yaml");
    let (_, report) = lint_in(&repo.path("apps/shop"), &["--staged"]);
    assert_findings(
        &report,
        &[("removed-beeuni-tool", "warning", "apps/shop/beeuni.yaml", 1, 1, &removal("image_search"))],
    );
}
