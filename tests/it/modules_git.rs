//! The tool-module rules that need git: `module-package-untracked` (docs/spec/rules.md
//! §4) and `file-untracked` for a module's relative import (§1, §10), and the
//! docs' zod example with a tracked `node_modules`. Each test copies a fixture
//! to a temporary folder and makes it a repository of its own (`git init`,
//! `git add`, a commit); a fixture never carries a `.gitignore` (it would hide
//! files of beeuni-lint's own repository): the tests write it.

use crate::common::*;
use crate::modules_support::*;
use serde_json::Value;

const UNTRACKED: &str = "package `zod` resolves from `node_modules/zod`, which git does not track: the sandbox installs no packages for a tool";
const ZOD_UNANALYZABLE: &str = "`parameters` of `tools/lookup_order.ts` cannot be read without running it (built at run time by `z.toJSONSchema(...)`): it was not checked";

/// `mod-module-package-untracked` (the docs' zod example, zod in `node_modules`) in a
/// repository: the manifest and the module committed, and `node_modules` ignored (`ignore`) or
/// merely not added.
fn zod_repository(ignore: bool) -> tempfile::TempDir {
    let dir = fixture("mod-module-package-untracked");
    if ignore {
        write(dir.path(), ".gitignore", b"node_modules/\n");
        commit(dir.path(), &["beeuni.yaml", "tools", ".gitignore"]);
    } else {
        commit(dir.path(), &["beeuni.yaml", "tools"]);
    }
    dir
}

fn expect_untracked(report: &Value) {
    assert_module_findings(
        report,
        &[
            (("module-package-untracked", "warning", "tools/lookup_order.ts", 1, 1, UNTRACKED), 3),
            (("module-unanalyzable", "info", "tools/lookup_order.ts", 5, 3, ZOD_UNANALYZABLE), 3),
        ],
    );
}

#[test]
fn module_package_untracked() {
    // The docs' zod example, zod in an ignored `node_modules`: a warning at the import.
    let dir = zod_repository(true);
    let (code, report) = json_in(dir.path(), &[]);
    expect_untracked(&report);
    assert_eq!(code, 1);
    let help = "a config release holds only tracked files: drop the dependency (for a zod schema, print the JSON Schema once and paste it into `parameters`), or track the package";
    assert_help(&diagnostics(&report)[0], help);

    // Not ignored, only not added: the same.
    let dir = zod_repository(false);
    let (code, report) = json_in(dir.path(), &[]);
    expect_untracked(&report);
    assert_eq!(code, 1);
}

/// The clean twin: the docs' zod example with zod in a tracked `node_modules` lints clean
/// but for the `module-unanalyzable` info on `z.toJSONSchema(...)` (the docs' own fallback).
#[test]
fn module_package_untracked_clean_twin_is_the_docs_zod_example() {
    let dir = fixture("mod-module-package-untracked-clean");
    commit(dir.path(), &["."]);
    for args in [&[][..], &["--staged"][..]] {
        let (code, report) = json_in(dir.path(), args);
        assert!(of_rule(&report, "module-package-untracked").is_empty(), "{report:#}");
        assert_module_findings(
            &report,
            &[(("module-unanalyzable", "info", "tools/lookup_order.ts", 5, 3, ZOD_UNANALYZABLE), 3)],
        );
        assert_no_warning("mod-module-package-untracked-clean", code, &report);
    }
    // `git add` is enough: a staged package is tracked.
    let dir = fixture("mod-module-package-untracked-clean");
    commit(dir.path(), &["beeuni.yaml", "tools"]);
    git(dir.path(), &["add", "node_modules"]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(rule_ids(&report), ["module-unanalyzable"], "{report:#}");
    assert_eq!(code, 0);
}

/// Outside git, `module-package-untracked` is skipped: the same project has only the info.
#[test]
fn module_package_untracked_needs_git() {
    let (code, report) = run("mod-module-package-untracked", &[]);
    assert_eq!(rule_ids(&report), ["module-unanalyzable"], "{report:#}");
    assert_eq!(code, 0);
}

/// With `--staged` the index is linted: an untracked `node_modules` is not in it at all.
#[test]
fn untracked_package_is_missing_from_the_index() {
    let dir = zod_repository(true);
    let (code, report) = json_in(dir.path(), &["--staged"]);
    assert_module_findings(
        &report,
        &[
            (("module-package-missing", "error", "tools/lookup_order.ts", 1, 1, "Cannot find package 'zod'"), 3),
            (("module-unanalyzable", "info", "tools/lookup_order.ts", 5, 3, ZOD_UNANALYZABLE), 3),
        ],
    );
    assert_eq!(code, 1);
}

/// `mod-file-untracked-import` in a repository: `lib/local.ts` ignored, `lib/money.ts` not added,
/// everything else committed.
fn import_repository() -> tempfile::TempDir {
    let dir = fixture("mod-file-untracked-import");
    write(dir.path(), ".gitignore", b"lib/local.ts\n");
    commit(dir.path(), &["beeuni.yaml", "tools", ".gitignore", "lib/items.ts"]);
    dir
}

const MONEY_HELP: &str = "run `git add lib/money.ts`";
const LOCAL_HELP: &str = "`lib/local.ts` is ignored by git (a `.gitignore` rule matches it), so a plain `git add` refuses it: remove that rule, or add it anyway with `git add -f lib/local.ts`";
const LOCAL_IGNORED: &str =
    "imported file `lib/local.ts` is ignored by git: a config release contains only files Git tracks";

#[test]
fn file_untracked_for_a_modules_relative_import() {
    let dir = import_repository();
    let (code, report) = json_in(dir.path(), &[]);
    // At the module's `import` statement (docs/spec/rules.md §10); `../lib/money.js` is `lib/money.ts`.
    // Info when merely not added, error when ignored. The tracked `./carrier` and the
    // tracked `import('../lib/items')` are fine.
    assert_findings(
        &report,
        &[
            (
                "file-untracked",
                "info",
                "tools/lookup_order.ts",
                1,
                1,
                "imported file `lib/money.ts` is not tracked by git yet: a config release contains only files Git tracks",
            ),
            ("file-untracked", "error", "tools/lookup_order.ts", 2, 1, LOCAL_IGNORED),
        ],
    );
    assert_helps(&report, &[MONEY_HELP, LOCAL_HELP]);
    assert_eq!(code, 1);
}

#[test]
fn file_untracked_for_a_modules_relative_import_when_staged() {
    let dir = import_repository();
    let (code, report) = json_in(dir.path(), &["--staged"]);
    let not_staged = "imported file `lib/money.ts` is not staged: the commit being made does not contain it";
    assert_findings(
        &report,
        &[
            ("file-untracked", "error", "tools/lookup_order.ts", 1, 1, not_staged),
            ("file-untracked", "error", "tools/lookup_order.ts", 2, 1, LOCAL_IGNORED),
        ],
    );
    assert_eq!(code, 1);
}

#[test]
fn file_untracked_clean_when_every_import_is_tracked() {
    let dir = fixture("mod-file-untracked-import");
    commit(dir.path(), &["."]);
    for args in [&[][..], &["--staged"][..]] {
        let (code, report) = json_in(dir.path(), args);
        assert_clean("mod-file-untracked-import (committed)", code, &report);
    }
}

/// docs/spec/rules.md §8: `legacy-beeuni-copy` offers an unsafe fix that deletes the file, only when git
/// reports it unmodified. The implementation offers no fix (and has no `--fix`).
#[test]
#[ignore = "spec: docs/spec/rules.md §5/§8 unsafe delete fix for legacy-beeuni-copy is not implemented"]
fn spec_legacy_beeuni_copy_offers_an_unsafe_delete_fix() {
    let dir = fixture("mod-legacy-beeuni-copy");
    commit(dir.path(), &["."]);
    write(dir.path(), "harnesses/opencode/tools/memory.js", b"// changed\nexport default {}\n");
    let (_, report) = json_in(dir.path(), &[]);
    let findings = of_rule(&report, "legacy-beeuni-copy");
    assert_eq!(findings.len(), 2, "{report:#}");
    // memory.js is modified: no fix; web_search.ts is unmodified: an unsafe fix.
    assert!(findings[0]["fix"].is_null(), "{report:#}");
    assert_eq!(findings[1]["fix"]["safety"], "unsafe", "{report:#}");
}

/// docs/spec/rules.md §4 `module-package-untracked`: "the package resolves only from a `node_modules`
/// that git does not track". With only `package.json` tracked, the entry file `index.js` is
/// not in a release: the work tree lints clean, while `--staged` says the package is missing.
#[test]
fn spec_package_with_an_untracked_entry_file_is_untracked() {
    let dir = project(&[("node_modules/left-pad/package.json", r#"{ "name": "left-pad", "main": "index.js" }"#)]);
    write(dir.path(), "node_modules/left-pad/index.js", b"module.exports = (s) => s\n");
    let module = "import pad from 'left-pad'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return pad('x') } }\n";
    write_module(dir.path(), "tools/lookup_order.ts", module.as_bytes());
    commit(dir.path(), &["beeuni.yaml", "tools", "node_modules/left-pad/package.json"]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_eq!(rule_ids(&report), ["module-package-untracked"], "{report:#}");
}
