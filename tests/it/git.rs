//! `file-untracked` (docs/spec/rules.md §1): a file of the graph or a declared module
//! that git does not track. Info when it is merely not added yet, error when
//! git ignores it. Each test builds its own repository in a temporary folder.

use crate::common::*;

const MANIFEST: &str = "imports:\n  - config/agents.yaml\n  - config/local.yaml\ntools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n  draft: tools/draft.ts\n  secret_tool: tools/secret_tool.ts\n";

/// A repository with a tracked manifest, import and module; `tools/draft.ts`
/// untracked; `tools/secret_tool.ts` and `config/local.yaml` ignored.
fn repository() -> tempfile::TempDir {
    let dir = project(&[
        ("beeuni.yaml", MANIFEST),
        (".gitignore", "tools/secret_tool.ts\nconfig/local.yaml\n"),
        ("config/agents.yaml", "agents:\n  researcher:\n    tools: [read, lookup_order]\n"),
        ("config/local.yaml", "agents:\n  tinkerer:\n    tools: [read, draft]\n"),
        ("tools/lookup_order.ts", MODULE),
        ("tools/draft.ts", MODULE),
        ("tools/secret_tool.ts", MODULE),
    ]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "beeuni.yaml", ".gitignore", "config/agents.yaml", "tools/lookup_order.ts"]);
    git(dir.path(), &["commit", "-q", "-m", "init"]);
    dir
}

const IGNORED_IMPORT: &str =
    "file `config/local.yaml` is ignored by git: a config release contains only files Git tracks";
const DRAFT: &str =
    "module `tools/draft.ts` is not tracked by git yet: a config release contains only files Git tracks";
const IGNORED_MODULE: &str =
    "module `tools/secret_tool.ts` is ignored by git: a config release contains only files Git tracks";

#[test]
fn untracked_is_info_and_ignored_is_error() {
    let dir = repository();
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    // The import item's column is disputed (docs/spec/rules.md §10: the `- path` item; see rules_manifest.rs).
    assert_findings(
        &report,
        &[
            ("file-untracked", "error", "beeuni.yaml", 3, 3, IGNORED_IMPORT),
            ("file-untracked", "info", "beeuni.yaml", 7, 3, DRAFT),
            ("file-untracked", "error", "beeuni.yaml", 8, 3, IGNORED_MODULE),
        ],
    );
    assert_help(&diagnostics(&report)[1], "run `git add tools/draft.ts`");
    assert_help(
        &diagnostics(&report)[2],
        "`tools/secret_tool.ts` is ignored by git (a `.gitignore` rule matches it), so a plain `git add` refuses it: remove that rule, or add it anyway with `git add -f tools/secret_tool.ts`",
    );
}

#[test]
fn adding_a_file_is_enough() {
    let dir = repository();
    // In the index, not committed: tracked.
    git(dir.path(), &["add", "tools/draft.ts"]);
    git(dir.path(), &["add", "-f", "tools/secret_tool.ts", "config/local.yaml"]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("all added", code, &report);
}

#[test]
fn only_untracked_modules_pass_fail_on_error() {
    let dir = repository();
    std::fs::write(dir.path().join("beeuni.yaml"), MANIFEST.replace("  - config/local.yaml\n", "")).unwrap();
    std::fs::write(dir.path().join(".gitignore"), "").unwrap();
    git(dir.path(), &["add", "tools/secret_tool.ts"]);
    let (code, report) = json_in(dir.path(), &["--fail-on", "error"]);
    assert_eq!(code, 0);
    assert_findings(&report, &[("file-untracked", "info", "beeuni.yaml", 6, 3, DRAFT)]);
    assert_eq!(json_in(dir.path(), &["--fail-on", "info"]).0, 1);
}

#[test]
fn an_untracked_manifest_points_at_its_first_line() {
    let dir = repository();
    git(dir.path(), &["rm", "-q", "--cached", "beeuni.yaml"]);
    let (_, report) = json_in(dir.path(), &[]);
    let message = "file `beeuni.yaml` is not tracked by git yet: a config release contains only files Git tracks";
    assert_finding(&diagnostics(&report)[0], &("file-untracked", "info", "beeuni.yaml", 1, 1, message));
}

#[test]
fn a_subfolder_lints_the_work_tree() {
    let dir = repository();
    let run = run_in(&dir.path().join("tools"), &["--format", "short"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("beeuni.yaml:7:3: info[file-untracked] module `tools/draft.ts`"), "{}", run.stdout);
}

#[test]
fn untracked_relative_import_of_a_module() {
    let dir = repository();
    std::fs::write(
        dir.path().join("tools/lookup_order.ts"),
        format!("import {{ carrier }} from './helper.ts'\nconsole.log(carrier)\n{MODULE}"),
    )
    .unwrap();
    std::fs::write(dir.path().join("tools/helper.ts"), "export const carrier = 'x'\n").unwrap();
    git(dir.path(), &["add", "tools/lookup_order.ts"]);
    let (_, report) = json_in(dir.path(), &[]);
    // At the module's `import` statement.
    let message =
        "imported file `tools/helper.ts` is not tracked by git yet: a config release contains only files Git tracks";
    let found: Vec<_> =
        of_rule(&report, "file-untracked").into_iter().filter(|d| d["path"] == "tools/lookup_order.ts").collect();
    assert_eq!(found.len(), 1, "{report:#}");
    assert_finding(found[0], &("file-untracked", "info", "tools/lookup_order.ts", 1, 1, message));
}

/// A fixture as a repository: `git init`, then `git add -A` (which honours its `.gitignore`).
fn fixture_repository(name: &str) -> tempfile::TempDir {
    let dir = fixture(name);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    dir
}

#[test]
fn module_package_untracked() {
    // The ignore rule is written here, not kept in the fixture, where it would hide the fixture's own
    // node_modules from this repository.
    let dir = fixture("module-package-untracked");
    std::fs::write(dir.path().join(".gitignore"), "node_modules/\n").unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    let message = "package `zod` resolves from `node_modules/zod`, which git does not track: the sandbox installs no packages for a tool";
    assert_findings(&report, &[("module-package-untracked", "warning", "tools/lookup_order.ts", 1, 1, message)]);
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 7, 3, "declared here");
    // Outside git the rule is skipped.
    let (code, report) = run("module-package-untracked", &[]);
    assert_clean("module-package-untracked outside git", code, &report);
    // The twin tracks node_modules/.
    let clean = fixture_repository("module-package-untracked-clean");
    let (code, report) = json_in(clean.path(), &[]);
    assert_clean("module-package-untracked-clean", code, &report);
}
