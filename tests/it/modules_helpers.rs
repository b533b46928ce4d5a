//! docs/spec/rules.md §4 revision 2, "Helpers are part of the module": the loading rules
//! and `module-process-env` apply to every file a declared module imports
//! relatively, transitively; each finding points at the helper's own statement,
//! once, with the declared modules that load it as related locations.

use crate::common::*;
use serde_json::Value;

/// Asserts that a helper's finding names both declared modules, at their first import.
fn assert_loaded_by_both(finding: &Value) {
    assert_eq!(finding["related"].as_array().map(Vec::len), Some(2), "{finding:#}");
    assert_related(finding, 0, "tools/orders.ts", 1, 1, "imported by `tools/orders.ts`");
    assert_related(finding, 1, "tools/invoices.ts", 1, 1, "imported by `tools/invoices.ts`");
}

#[test]
fn helpers_three_levels_deep_are_checked_once() {
    // tools/{orders,invoices}.ts → lib/summary.ts → lib/format/index.ts → lib/format/pad.ts
    let (code, report) = run("mod-helpers", &[]);
    assert_findings(
        &report,
        &[
            (
                "module-import-missing",
                "error",
                "lib/format/index.ts",
                2,
                1,
                "`lib/format/index.ts` imports `../cache`: no such file (tried the module extensions and `index.*`)",
            ),
            ("module-package-missing", "error", "lib/format/index.ts", 3, 1, "Cannot find package 'zod'"),
            (
                "module-process-env",
                "warning",
                "lib/format/pad.ts",
                1,
                13,
                "`lib/format/pad.ts` reads the secret `ORDERS_API_KEY` from `process.env`",
            ),
            (
                "module-syntax",
                "error",
                "lib/format/pad.ts",
                5,
                7,
                "`lib/format/pad.ts` does not parse: Identifier `width` has already been declared",
            ),
        ],
    );
    for finding in diagnostics(&report) {
        assert_loaded_by_both(finding);
    }
    assert_eq!(code, 1);
    // The twin: the same closure, every helper loading.
    let (code, report) = run("mod-helpers-clean", &[]);
    assert_clean("mod-helpers-clean", code, &report);
}

#[test]
fn an_untracked_helper_of_a_helper_names_the_tools() {
    let dir = fixture("mod-helpers-clean");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "beeuni.yaml", "tools", "lib/summary.ts", "lib/format"]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[(
            "file-untracked",
            "info",
            "lib/format/index.ts",
            2,
            1,
            "imported file `lib/cache.ts` is not tracked by git yet: a config release contains only files Git tracks",
        )],
    );
    assert_loaded_by_both(&diagnostics(&report)[0]);
}

#[test]
fn a_helper_is_not_a_tool_and_a_cycle_ends() {
    // A helper without a default export is no `module-no-default-export`; helpers importing each other end.
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\n"),
        ("tools/a.ts", &format!("import {{ b }} from './lib/b'\nconsole.log(b)\n{MODULE}")),
        ("tools/lib/b.ts", "import { c } from './c'\nexport const b = () => c()\n"),
        ("tools/lib/c.ts", "import { b } from './b'\nexport const c = () => b\nconst token = Bun.env.GITHUB_TOKEN\n"),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[(
            "module-process-env",
            "warning",
            "tools/lib/c.ts",
            3,
            15,
            "`tools/lib/c.ts` reads the secret `GITHUB_TOKEN` from `Bun.env`",
        )],
    );
    assert_related(&diagnostics(&report)[0], 0, "tools/a.ts", 1, 1, "imported by `tools/a.ts`");
}
