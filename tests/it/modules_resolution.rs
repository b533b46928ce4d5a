//! docs/spec/rules.md §4 revision 2, "Resolution mirrors Bun": `tsconfig.json` `paths`
//! (with `baseUrl`, comments and trailing commas), `#name` through
//! `package.json` `imports`, `exports` maps with Bun's conditions, specifiers
//! that cannot be package names, and `import()` inside `try`/`catch`.

use crate::common::*;
use crate::modules_support::*;

#[test]
fn aliases_imports_and_exports_resolve_as_bun_does() {
    let report = trigger(
        "resolution",
        1,
        &[
            (
                (
                    "module-import-missing",
                    "error",
                    "tools/lookup.ts",
                    2,
                    1,
                    "`tools/lookup.ts` imports `@/reports/weekly`: the alias `@/reports/*` of `tsconfig.json` maps it to no file (tried `src/reports/weekly`, `generated/reports/weekly`)",
                ),
                3,
            ),
            (
                (
                    "module-import-missing",
                    "error",
                    "tools/lookup.ts",
                    4,
                    1,
                    "`tools/lookup.ts` imports `#cache`: `#cache` is not defined by \"imports\" in `package.json`",
                ),
                3,
            ),
            (
                (
                    "module-package-missing",
                    "error",
                    "tools/lookup.ts",
                    6,
                    1,
                    "Package subpath './esm/internal.js' is not defined by \"exports\" in node_modules/order-format/package.json",
                ),
                3,
            ),
            (
                (
                    "module-import-missing",
                    "error",
                    "tools/lookup.ts",
                    7,
                    1,
                    "`tools/lookup.ts` imports `@/theme`: it is not a package name, and no `paths` alias of `tsconfig.json` maps it",
                ),
                3,
            ),
            (
                (
                    "module-package-missing",
                    "warning",
                    "tools/lookup.ts",
                    14,
                    29,
                    "Cannot find package 'order-pdf': it fails when called, not at load (a `catch` handles it)",
                ),
                3,
            ),
        ],
    );
    assert_help(
        &diagnostics(&report)[2],
        "import a subpath that `node_modules/order-format/package.json` lists under \"exports\"",
    );
    // The twin: the aliases map to files, `#config` picks its `bun` condition, `order-format/currency` is
    // exported (`node` condition), and the guarded `import()` finds its package.
    clean_twin("resolution");
}

#[test]
fn require_picks_the_require_condition() {
    let dir = fixture("mod-resolution-clean");
    // Only the `require` condition leads to a file: `import` of the same package misses its file.
    std::fs::remove_file(dir.path().join("node_modules/order-format/esm/index.js")).unwrap();
    write(
        dir.path(),
        "tools/lookup.ts",
        format!("const {{ format }} = require('order-format')\nimport {{ x }} from 'order-format'\nconsole.log(format, x)\n{MODULE}")
            .as_bytes(),
    );
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[("module-package-missing", "error", "tools/lookup.ts", 2, 1, "Cannot find module 'order-format'")],
    );
}

#[test]
fn a_jsconfig_alias_and_base_url() {
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  a: app/tools/a.js\n"),
        ("app/jsconfig.json", r#"{"compilerOptions": {"baseUrl": "src"}}"#),
        ("app/src/shared/text.js", "export const text = 1\n"),
        ("app/tools/a.js", &format!("import {{ text }} from 'shared/text'\nimport x from 'left-pad'\n{MODULE}")),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    // `shared/text` is found under `baseUrl`; an unknown package still is a missing package.
    assert_findings(
        &report,
        &[("module-package-missing", "error", "app/tools/a.js", 2, 1, "Cannot find package 'left-pad'")],
    );
}
