//! docs/spec/rules.md §4 (tool modules), §5 (the legacy harness folder) and
//! `secret-not-granted`: one triggering fixture and one clean twin a rule.
//! Module findings point into the module and label the `tools:` entry that
//! declares it (docs/spec/rules.md §10).

use crate::common::*;
use serde_json::Value;

// A rule whose fixture has nothing more to say than its findings is left to the fixture's snapshot
// (tests/it/fixture_reports.rs); the tests below assert what a snapshot does not show.

fn clean_twin(rule: &str) {
    let name = format!("{rule}-clean");
    let (code, report) = run(&name, &[]);
    assert!(of_rule(&report, rule).is_empty(), "{name} still has `{rule}`");
    assert_clean(&name, code, &report);
}

fn trigger(rule: &str, code: i32, expected: &[Expect]) -> Value {
    let (actual, report) = run(rule, &[]);
    assert_findings(&report, expected);
    assert_eq!(actual, code, "exit code of {rule}");
    report
}

const MODULE_PATH: &str = "tools/lookup_order.ts";

/// A finding in tools/lookup_order.ts, which line 7 of beeuni.yaml declares.
fn in_module(rule: &str, severity: &str, line: u64, column: u64, message: &str, code: i32) {
    let report = trigger(rule, code, &[(rule, severity, MODULE_PATH, line, column, message)]);
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 7, 3, "declared here");
    clean_twin(rule);
}

#[test]
fn module_syntax() {
    let message = "`tools/lookup_order.ts` does not parse: Expected `}` but found `EOF`";
    in_module("module-syntax", "error", 6, 1, message, 1);
}

#[test]
fn module_no_default_export() {
    // Line 1 of the module.
    let message = "`tools/lookup_order.ts` has no default export: the module is skipped at load";
    in_module("module-no-default-export", "error", 1, 1, message, 1);
    // The module holds the tool object as `export const lookupOrder = {…}`: export that.
    let (_, report) = run("module-no-default-export", &[]);
    let help = "`lookupOrder` holds the tool object, but only as a named export: add `export default lookupOrder`";
    assert_help(&diagnostics(&report)[0], help);
}

#[test]
fn module_factory_export() {
    // The `export default` line; no field rule for a factory.
    let message = "`tools/lookup_order.ts` exports a function that makes the tool (the xcsh/pi factory form): Beeuni never calls it and expects a plain object `{ description, parameters, execute }`";
    in_module("module-factory-export", "error", 1, 1, message, 1);
}

#[test]
fn module_opencode_tool() {
    let (code, report) = run("module-opencode-tool", &[]);
    assert_eq!(code, 1);
    // Its own rule at the `export default` line, and the import of the harness
    // package; never module-description/-parameters/-execute.
    let harness = "`tools/lookup_order.ts` imports the harness package `@opencode-ai/plugin`: A module never imports a harness package.";
    let opencode = "`tools/lookup_order.ts` exports `tool({ description, args, execute })`, the opencode plugin form: Beeuni loads a plain object";
    assert_findings(
        &report,
        &[
            ("module-harness-import", "error", MODULE_PATH, 1, 1, harness),
            ("module-opencode-tool", "error", MODULE_PATH, 3, 1, opencode),
        ],
    );
}

#[test]
fn module_description() {
    // A wrong field: the field.
    let message = "the `description` of the tool in `tools/lookup_order.ts` is empty";
    in_module("module-description", "error", 2, 3, message, 1);
}

#[test]
fn module_parameters() {
    let message =
        "the `parameters` of the tool in `tools/lookup_order.ts` has no `type: 'object'`: not an object schema";
    in_module("module-parameters", "error", 3, 3, message, 1);
}

#[test]
fn module_required() {
    let message = "`required` names `order_id`, which `properties` does not define";
    in_module("module-required", "warning", 3, 84, message, 1);
}

#[test]
fn module_execute() {
    let message = "the `execute` of the tool in `tools/lookup_order.ts` is not a function";
    in_module("module-execute", "error", 4, 3, message, 1);
}

#[test]
fn module_execute_signature() {
    // The `execute` property.
    let message = "`execute(toolCallId, params, signal)` takes the xcsh/pi order `(toolCallId, params, …)`: Beeuni calls `execute(args, context)`";
    in_module("module-execute-signature", "warning", 4, 3, message, 1);
}

#[test]
fn module_import_missing() {
    // The import statement.
    let message =
        "`tools/lookup_order.ts` imports `./fromat`: no such file (tried the module extensions and `index.*`)";
    in_module("module-import-missing", "error", 1, 1, message, 1);
}

#[test]
fn module_package_missing() {
    in_module("module-package-missing", "error", 1, 1, "Cannot find package 'zod'", 1);
}

#[test]
fn module_package_not_installed() {
    let message = "package `zod` is declared in `package.json` but not installed in this checkout: the sandbox installs no packages for a tool";
    in_module("module-package-not-installed", "warning", 1, 1, message, 1);
}

#[test]
fn module_harness_import() {
    let message = "`tools/lookup_order.ts` imports the harness package `@opencode-ai/plugin`: A module never imports a harness package.";
    in_module("module-harness-import", "error", 1, 1, message, 1);
}

#[test]
fn module_harness_type_import() {
    let message = "`tools/lookup_order.ts` imports types from the harness package `@opencode-ai/plugin`: it ties the module to one harness";
    in_module("module-harness-type-import", "warning", 1, 1, message, 1);
}

#[test]
fn module_process_env() {
    // The `process.env.X` expression.
    let message = "`tools/lookup_order.ts` reads the secret `ORDERS_API_KEY` from `process.env`";
    in_module("module-process-env", "warning", 5, 17, message, 1);
}

#[test]
fn module_fetch_signal() {
    // The `fetch(` expression.
    let message = "`fetch(...)` inside `execute` passes no `signal`: the request cannot be cancelled";
    in_module("module-fetch-signal", "info", 5, 28, message, 0);
}

#[test]
fn module_unanalyzable() {
    let message = "`parameters` of `tools/lookup_order.ts` cannot be read without running it (built at run time by `schema(...)`): it was not checked";
    in_module("module-unanalyzable", "info", 7, 3, message, 0);
}

#[test]
fn ui_view_contract() {
    let report = run("ui-view-contract", &[]).1;
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 6, 3, "declared here");
}

#[test]
fn secret_not_granted() {
    let report = run("secret-not-granted", &[]).1;
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 7, 3, "the tool is declared here");
}

#[test]
fn legacy_harness_tool_shadowing_a_project_tool_is_a_warning() {
    let dir = fixture("legacy-harness-tool");
    let manifest = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
    write(dir.path(), "beeuni.yaml", format!("{manifest}  lookup_order: tools/lookup_order.ts\n").as_bytes());
    write(dir.path(), "tools/lookup_order.ts", MODULE.as_bytes());
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    let message = "`harnesses/opencode/tools/lookup_order.ts` shadows the project tool `lookup_order` on the standard harness, where the folder's copy takes precedence";
    assert_findings(
        &report,
        &[("legacy-harness-tool", "warning", "harnesses/opencode/tools/lookup_order.ts", 1, 1, message)],
    );
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 7, 3, "declared here");
}

#[test]
fn docs_modules_are_clean() {
    // The docs' lookup_order and weather_now modules pass every §4 rule.
    for name in ["docs-lookup-order", "docs-weather-now", "ls-docs"] {
        let (code, report) = run(name, &["--fail-on", "info"]);
        assert_clean(name, code, &report);
    }
}

#[test]
fn zod_parameters_are_unanalyzable_and_the_package_missing() {
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n"),
        (
            "tools/lookup_order.ts",
            "import { z } from 'zod'\n\nexport default {\n  description: 'Look up an order by id.',\n  parameters: z.toJSONSchema(z.object({ id: z.string().describe('The order id') })),\n  async execute(args) {\n    return `order ${args.id}: shipped`\n  },\n}\n",
        ),
    ]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(rule_ids(&report), ["module-package-missing", "module-unanalyzable"], "{report:#}");
    assert_eq!(of_rule(&report, "module-unanalyzable")[0]["line"], 5);
}

#[test]
fn export_forms_builtins_and_package_resolution_load_cleanly() {
    let lib = "export default 1\n";
    let dir = project(&[
        (
            "beeuni.yaml",
            "tools:\n  web_search: beeuni:web_search\n  t1: tools/t1.ts\n  t2: tools/t2.cjs\n  t3: tools/t3.mjs\n",
        ),
        (
            "tools/t1.ts",
            "import fs from 'fs'\nimport { readFile } from 'node:fs/promises'\nimport { $ } from 'bun'\nimport { Database } from 'bun:sqlite'\nimport helper from '../lib/helper.js'\nimport idx from '../lib'\nimport pkg from '@scope/pkg'\nimport fp from 'lodash/fp'\nconst tool = { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return [fs, readFile, $, Database, helper, idx, pkg, fp].length } }\nexport { tool as default }\n",
        ),
        ("lib/helper.ts", lib),
        ("lib/index.ts", lib),
        ("node_modules/@scope/pkg/package.json", "{\"name\": \"@scope/pkg\", \"main\": \"index.js\"}\n"),
        ("node_modules/@scope/pkg/index.js", "module.exports = 1\n"),
        ("node_modules/lodash/package.json", "{\"name\": \"lodash\"}\n"),
        ("node_modules/lodash/fp/index.js", "module.exports = 1\n"),
        (
            "tools/t2.cjs",
            "module.exports = { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return 'ok' } }\n",
        ),
        ("tools/t3.mjs", MODULE),
    ]);
    let (code, report) = json_in(dir.path(), &["--fail-on", "info"]);
    assert_clean("export forms", code, &report);
}

#[test]
fn secrets_read_from_process_env_in_every_form() {
    let dir = project(&[
        (
            "beeuni.yaml",
            "tools:\n  web_search: beeuni:web_search\n  t4: tools/t4.js\nagents:\n  a:\n    secrets: [MY_SECRET]\n",
        ),
        (
            "tools/t4.js",
            "const { GITHUB_TOKEN } = process.env\nexports.default = { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return Bun.env.OPENAI_API_KEY + process.env['DB_PASSWORD'] + process.env.HOME + process.env.MY_SECRET + GITHUB_TOKEN } }\n",
        ),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    let read: Vec<_> = of_rule(&report, "module-process-env")
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["message"].as_str().unwrap().to_string()))
        .collect();
    let message = |name: &str, via: &str| format!("`tools/t4.js` reads the secret `{name}` from `{via}`");
    // `HOME` is neither a secret of the project nor named like one.
    assert_eq!(
        read,
        [
            (1, message("GITHUB_TOKEN", "process.env")),
            (2, message("OPENAI_API_KEY", "Bun.env")),
            (2, message("DB_PASSWORD", "process.env")),
            (2, message("MY_SECRET", "process.env")),
        ]
    );
}

/// A finding about a whole module that starts with `#!` is on line 1, and an ignore alone below the hashbang
/// (before the first statement) suppresses it: nothing may stand above a hashbang.
#[test]
fn a_whole_module_finding_below_a_hashbang_is_ignored_from_the_line_below() {
    let manifest = "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n";
    let module = "#!/usr/bin/env bun\nexport const lookup = { description: 'x' }\n";
    let dir = project(&[("beeuni.yaml", manifest), ("tools/lookup.ts", module)]);
    let (_, report) = json_in(dir.path(), &[]);
    let found = of_rule(&report, "module-no-default-export");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!((found[0]["path"].as_str(), found[0]["line"].as_u64()), (Some("tools/lookup.ts"), Some(1)));
    let ignored = "#!/usr/bin/env bun\n// beeuni-lint: ignore[module-no-default-export]\nexport const lookup = { description: 'x' }\n";
    let dir = project(&[("beeuni.yaml", manifest), ("tools/lookup.ts", ignored)]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("ignored below the hashbang", code, &report);
}
