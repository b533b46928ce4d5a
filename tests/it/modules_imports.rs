//! docs/spec/rules.md §4, the import rules of tool modules: relative imports, Node and
//! Bun built-ins, packages from `node_modules`, harness packages. Imports that
//! count: static `import`, `export … from`, `import('literal')`,
//! `require('literal')`; `import type` is erased. The finding points at the
//! `import` statement (or the `require(`/`import(` call), with the `tools:`
//! entry as the related location. (`module-package-untracked` needs git: see
//! tests/it/modules_git.rs.)

use crate::common::*;
use crate::modules_support::*;

#[test]
fn module_import_missing() {
    let missing = |specifier: &str| {
        format!(
            "`tools/lookup_order.ts` imports `{specifier}`: no such file (tried the module extensions and `index.*`)"
        )
    };
    let (a, b) = (missing("../lib/fromat"), missing("./carrier.js"));
    let d = format!("{}: it fails when the function that holds it is called, not at load", missing("../lib/items"));
    let c = "`tools/lookup_order.ts` imports `../../outside/orders`: it leads outside the repository";
    // A static import, `export … from`, `require(` and `import(`; `import type` of a missing
    // file is erased and not reported; `../lib/money` (extension added) resolves.
    let report = trigger(
        "module-import-missing",
        1,
        &[
            (("module-import-missing", "error", "tools/lookup_order.ts", 2, 1, &a), 3),
            (("module-import-missing", "error", "tools/lookup_order.ts", 3, 1, &b), 3),
            (("module-import-missing", "error", "tools/lookup_order.ts", 6, 16, c), 3),
            (("module-import-missing", "error", "tools/lookup_order.ts", 12, 29, &d), 3),
        ],
    );
    // `import('../lib/items')` runs in `execute`: the module loads, and each call fails.
    let at_load = "a failed import skips the module at load: correct the path or add the file";
    let when_called = "the import runs when the function that holds it is called, and fails each time: correct the path or add the file";
    assert_helps(&report, &[at_load, at_load, at_load, when_called]);
    // The twin: `.js` → `.ts`, `index.ts`, `index.cjs` through `require`, `import('….mjs')`,
    // `export … from './carrier.js'` (carrier.ts), `node:fs/promises`, `fs/promises`, `path`,
    // `bun`, `bun:sqlite`, and `import type` of a file that does not exist.
    clean_twin("module-import-missing");
}

/// A relative import of a file that exists outside the repository is reported, and not read.
#[test]
fn relative_import_of_an_existing_file_outside_the_repository() {
    let outer = tempfile::TempDir::new().unwrap();
    write(outer.path(), "outside/orders.ts", b"export default { description: 'SHARED-OUTSIDE' }\n");
    let root = outer.path().join("repo");
    let module = "import orders from '../../outside/orders'\nimport other from '../../outside/orders.ts'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return [orders, other] } }\n";
    write_module(&root, "tools/lookup_order.ts", module.as_bytes());
    let (code, report) = json_in(&root, &[]);
    let message = |s: &str| format!("`tools/lookup_order.ts` imports `{s}`: it leads outside the repository");
    let (a, b) = (message("../../outside/orders"), message("../../outside/orders.ts"));
    assert_module_findings(
        &report,
        &[
            (("module-import-missing", "error", "tools/lookup_order.ts", 1, 1, &a), 3),
            (("module-import-missing", "error", "tools/lookup_order.ts", 2, 1, &b), 3),
        ],
    );
    assert_eq!(code, 1);
    assert!(!report.to_string().contains("SHARED-OUTSIDE"), "{report:#}");
}

/// A relative import through a symlink to a file outside the repository.
#[cfg(unix)]
#[test]
fn relative_import_through_a_symlink_to_outside() {
    let outer = tempfile::TempDir::new().unwrap();
    write(outer.path(), "elsewhere/helper.ts", b"SECRET-HELPER-CONTENT\n");
    let root = outer.path().join("repo");
    let module = "import { helper } from '../lib/helper'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return helper } }\n";
    write_module(&root, "tools/lookup_order.ts", module.as_bytes());
    std::fs::create_dir_all(root.join("lib")).unwrap();
    std::os::unix::fs::symlink(outer.path().join("elsewhere/helper.ts"), root.join("lib/helper.ts")).unwrap();
    let (code, report) = json_in(&root, &[]);
    let message =
        "`tools/lookup_order.ts` imports `../lib/helper`: it resolves through a symlink to outside the repository";
    assert_module_findings(&report, &[(("module-import-missing", "error", "tools/lookup_order.ts", 1, 1, message), 3)]);
    assert_eq!(code, 1);
    assert!(!report.to_string().contains("SECRET-HELPER"), "{report:#}");
}

/// Findings in a module declared by an imported manifest file relate to that file's entry.
#[test]
fn related_entry_in_an_imported_manifest_file() {
    let module = "import { z } from 'zod'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return z } }\n";
    let dir = project(&[
        ("beeuni.yaml", "imports:\n  - config/tools.yaml\ntools:\n  web_search: beeuni:web_search\n"),
        ("config/tools.yaml", "tools:\n  # project tools\n  lookup_order: tools/lookup_order.ts\n"),
        ("tools/lookup_order.ts", module),
    ]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[("module-package-missing", "error", "tools/lookup_order.ts", 1, 1, "Cannot find package 'zod'")],
    );
    assert_related(&diagnostics(&report)[0], 0, "config/tools.yaml", 3, 3, "declared here");
    assert_eq!(code, 1);
}

#[test]
fn module_package_missing() {
    let help = |name: &str| {
        format!(
            "the sandbox installs no packages for a tool: remove the import of `{name}`, or commit it under a tracked `node_modules` beside or above the module"
        )
    };
    let m = |name: &str| format!("Cannot find package '{name}'");
    let names = ["hubspot-lite", "zod", "@acme/orders-sdk", "date-fns", "broken-main", "left-pad", "nanoid"];
    let mut messages: Vec<String> = names.iter().map(|n| m(n)).collect();
    // Installed packages without the file: the runtime's own words for a missing module.
    messages[3] = "Cannot find module 'date-fns/add-days'".into();
    messages[4] = "Cannot find module 'broken-main'".into();
    // `require` and `import()` inside `execute` run when it is called.
    for deferred in &mut messages[5..] {
        deferred.push_str(": it fails when the function that holds it is called, not at load");
    }
    let at = |i: usize, path: &'static str, line: u64, column: u64, entry: u64| -> Found {
        (("module-package-missing", "error", path, line, column, messages[i].as_str()), entry)
    };
    // `zod`, a scoped package, a subpath whose file the installed `date-fns` lacks, a
    // package whose `main` is missing, `require('left-pad')`, `import('nanoid')`, and a
    // module in a subfolder. `import type` of a missing package is erased.
    let report = trigger(
        "module-package-missing",
        1,
        &[
            at(0, "integrations/crm/note.ts", 2, 1, 4),
            at(1, "tools/lookup_order.ts", 1, 1, 3),
            at(2, "tools/lookup_order.ts", 2, 1, 3),
            at(3, "tools/lookup_order.ts", 3, 1, 3),
            at(4, "tools/lookup_order.ts", 4, 1, 3),
            at(5, "tools/lookup_order.ts", 11, 17, 3),
            at(6, "tools/lookup_order.ts", 12, 30, 3),
        ],
    );
    let mut helps: Vec<String> = names.iter().map(|n| help(n)).collect();
    helps[3] =
        "`node_modules/date-fns` is installed but has no file for `date-fns/add-days`: import a path the package has"
            .into();
    helps[4] =
        "`node_modules/broken-main` is installed but has no file for `broken-main`: import a path the package has"
            .into();
    assert_helps(&report, &helps.iter().map(String::as_str).collect::<Vec<_>>());
    // The twin installs them: `main` without extension, `exports`, `index.js`, a subpath
    // file, a scoped package, and a `node_modules` beside the module (`integrations/crm/`).
    clean_twin("module-package-missing");
}

#[test]
fn module_package_not_installed() {
    let message = |name: &str, manifest: &str| {
        format!(
            "package `{name}` is declared in `{manifest}` but not installed in this checkout: the sandbox installs no packages for a tool"
        )
    };
    let a = message("date-fns", "package.json");
    let b = message("hubspot-lite", "integrations/crm/package.json");
    let c = message("zod", "package.json");
    let d = message("@acme/orders-sdk", "package.json");
    // `dependencies`, `devDependencies` (a scoped package's subpath), `optionalDependencies`
    // in the root `package.json`; `peerDependencies` in one beside the module.
    let report = trigger(
        "module-package-not-installed",
        1,
        &[
            (("module-package-not-installed", "warning", "integrations/crm/note.ts", 1, 1, &a), 4),
            (("module-package-not-installed", "warning", "integrations/crm/note.ts", 2, 1, &b), 4),
            (("module-package-not-installed", "warning", "tools/lookup_order.ts", 1, 1, &c), 3),
            (("module-package-not-installed", "warning", "tools/lookup_order.ts", 2, 1, &d), 3),
        ],
    );
    assert_help(
        &diagnostics(&report)[2],
        "Cannot find package 'zod' at run time: drop the import, or commit the package",
    );
    // A warning, not `module-package-missing` as well.
    assert!(of_rule(&report, "module-package-missing").is_empty());
    clean_twin("module-package-not-installed");
}

/// Package resolution reads nothing outside the repository: a `node_modules` above the root,
/// or a package that is a symlink to outside, does not count.
#[cfg(unix)]
#[test]
fn packages_outside_the_repository_do_not_count() {
    let outer = tempfile::TempDir::new().unwrap();
    write(outer.path(), "node_modules/zod/package.json", br#"{ "name": "zod", "main": "index.js" }"#);
    write(outer.path(), "node_modules/zod/index.js", b"exports.z = {}\n");
    write(outer.path(), "store/left-pad/index.js", b"module.exports = (s) => s\n");
    let root = outer.path().join("repo");
    let module = "import { z } from 'zod'\nimport pad from 'left-pad'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return pad(z) } }\n";
    write_module(&root, "tools/lookup_order.ts", module.as_bytes());
    std::fs::create_dir_all(root.join("node_modules")).unwrap();
    std::os::unix::fs::symlink(outer.path().join("store/left-pad"), root.join("node_modules/left-pad")).unwrap();
    let (code, report) = json_in(&root, &[]);
    assert_module_findings(
        &report,
        &[
            (("module-package-missing", "error", "tools/lookup_order.ts", 1, 1, "Cannot find package 'zod'"), 3),
            (("module-package-missing", "error", "tools/lookup_order.ts", 2, 1, "Cannot find package 'left-pad'"), 3),
        ],
    );
    assert_eq!(code, 1);
}

const HARNESS: &str = "A module never imports a harness package.";

#[test]
fn module_harness_import() {
    let message = |name: &str| format!("`tools/lookup_order.ts` imports the harness package `{name}`: {HARNESS}");
    let (a, b, c) =
        (message("@opencode-ai/sdk"), message("@mariozechner/pi-coding-agent"), message("@opencode-ai/plugin"));
    // A subpath (`@opencode-ai/sdk/client`), `require(`, `import(`. None is installed: docs/spec/rules.md
    // §10 allows `module-package-missing` beside each (this implementation adds none); any
    // other finding fails.
    let (code, mut report) = run("mod-module-harness-import", &[]);
    let harness_lines = [1, 3, 9];
    let findings = report["diagnostics"].as_array_mut().unwrap();
    findings.retain(|d| {
        let allowed = d["rule"] == "module-package-missing" && harness_lines.contains(&d["line"].as_u64().unwrap());
        !allowed
    });
    assert_module_findings(
        &report,
        &[
            (("module-harness-import", "error", "tools/lookup_order.ts", 1, 1, &a), 3),
            (("module-harness-import", "error", "tools/lookup_order.ts", 3, 12, &b), 3),
            (("module-harness-import", "error", "tools/lookup_order.ts", 9, 26, &c), 3),
        ],
    );
    assert_eq!(code, 1);
    let help = "remove the import; write the tool as a plain object whose `parameters` is JSON Schema";
    assert_helps(&report, &[help; 3]);
    clean_twin("module-harness-import");
}

/// Installed or not, a harness package at run time is the harness rule's.
#[test]
fn installed_harness_package_is_still_a_harness_import() {
    let dir = fixture("mod-module-harness-import");
    for package in ["@opencode-ai/sdk", "@opencode-ai/plugin", "@mariozechner/pi-coding-agent"] {
        write(dir.path(), &format!("node_modules/{package}/package.json"), b"{ \"main\": \"index.js\" }");
        write(dir.path(), &format!("node_modules/{package}/index.js"), b"module.exports = {}\n");
    }
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(rule_ids(&report), ["module-harness-import"; 3], "{report:#}");
    assert_eq!(code, 1);
}

#[test]
fn module_harness_type_import() {
    let message = |name: &str| {
        format!(
            "`tools/lookup_order.ts` imports types from the harness package `{name}`: it ties the module to one harness"
        )
    };
    let (a, b, c) =
        (message("@opencode-ai/plugin"), message("@mariozechner/pi-coding-agent"), message("@opencode-ai/sdk"));
    // `import type`, an import of only `type` names, `export type … from`: a warning, not an
    // error, and not `module-package-missing` either (erased at run time).
    let report = trigger(
        "module-harness-type-import",
        1,
        &[
            (("module-harness-type-import", "warning", "tools/lookup_order.ts", 1, 1, &a), 3),
            (("module-harness-type-import", "warning", "tools/lookup_order.ts", 2, 1, &b), 3),
            (("module-harness-type-import", "warning", "tools/lookup_order.ts", 3, 1, &c), 3),
        ],
    );
    assert_helps(&report, &["declare the types the module needs locally"; 3]);
    clean_twin("module-harness-type-import");
}

/// One import mixing a `type` name and a value name is a runtime import.
#[test]
fn mixed_type_and_value_import_is_a_runtime_import() {
    let module = "import { type ToolContext, tool } from '@opencode-ai/plugin'\nimport { type A, b } from 'missing-pkg'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return [b, tool] } }\n";
    let dir = project(&[]);
    write_module(dir.path(), "tools/lookup_order.ts", module.as_bytes());
    let (_, report) = json_in(dir.path(), &[]);
    let harness = format!("`tools/lookup_order.ts` imports the harness package `@opencode-ai/plugin`: {HARNESS}");
    assert_module_findings(
        &report,
        &[
            (("module-harness-import", "error", "tools/lookup_order.ts", 1, 1, &harness), 3),
            (
                ("module-package-missing", "error", "tools/lookup_order.ts", 2, 1, "Cannot find package 'missing-pkg'"),
                3,
            ),
        ],
    );
}

/// Bun's order for a specifier without its extension: `.tsx`, `.jsx`, `.ts`, `.mjs`, `.js`, `.cjs` (and `index.*`
/// alike); a `.mts` or `.cts` file is not tried, so an import that only such a file would answer is missing.
#[test]
fn an_import_without_extension_finds_what_bun_finds() {
    let manifest = "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n";
    let importer = format!(
        "import {{ v }} from './view'\nimport {{ w }} from './widgets'\nimport {{ m }} from './meta'\nconsole.log(v, w, m)\n{MODULE}"
    );
    let dir = project(&[
        ("beeuni.yaml", manifest),
        ("tools/lookup.ts", &importer),
        ("tools/view.tsx", "export const v = 1\n"),
        ("tools/widgets/index.jsx", "export const w = 1\n"),
        ("tools/meta.mts", "export const m = 1\n"),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    let message = "`tools/lookup.ts` imports `./meta`: no such file (tried the module extensions and `index.*`)";
    assert_findings(&report, &[("module-import-missing", "error", "tools/lookup.ts", 3, 1, message)]);
}
