//! xcsh custom tools as xcsh's published loader sees them (docs/spec/rules.md §6, revision 3: the real-loaders issue), one
//! fixture and its clean twin a reading (`tests/fixtures/xcsh-<reading>[-clean]`), through the real binary. The
//! clean twins are tools the loader loads: self-contained, the host API (`pi.typebox`, `pi.exec`) their only
//! dependency, or a package installed beside them.

use crate::common::*;
use serde_json::Value;

const TOOL_PATH: &str = ".xcsh/tools/repo_stats.ts";

/// A complete tool named `a`, in the docs' form.
const TOOL_A: &str = "export default (pi) => ({\n  name: 'a',\n  description: 'x',\n  parameters: pi.typebox.Type.Object({}),\n  async execute(toolCallId, params, onUpdate, ctx, signal) { return { content: [] } },\n})\n";

/// The fixture `xcsh-<reading>` gives exactly `expected` and exits with `code`; its clean twin is clean.
fn reading(name: &str, code: i32, expected: &[Expect]) -> Value {
    let fixture = format!("xcsh-{name}");
    let (actual, report) = run(&fixture, &[]);
    assert_findings(&report, expected);
    assert_eq!(actual, code, "exit code of {fixture}");
    let clean = format!("{fixture}-clean");
    let (clean_code, clean_report) = run(&clean, &[]);
    assert_clean(&clean, clean_code, &clean_report);
    report
}

/// The discovery globs of each provider: `<dir>/index.ts` is a tool of `.xcsh/tools` (its missing description
/// is found), a `.sh` there is metadata, `.mjs` and `.cjs` helpers are no tools (they would get `xcsh-export`),
/// and every file of `.claude/tools` is loaded, a `NOTES.txt` too.
#[test]
fn discovery_globs_each_folder_as_its_provider_does() {
    let notes = "`.claude/tools/NOTES.txt` is no module, but xcsh loads every file in `.claude/tools` as a tool: the loader fails with \"Tool must export a default function\"";
    let index = ".xcsh/tools/line_count/index.ts";
    let lacks = "The tool `line_count` returned by `.xcsh/tools/line_count/index.ts` lacks `description`";
    let metadata = "`.xcsh/tools/release.sh` is metadata in an xcsh tool folder: the loader never loads it as a tool";
    let report = reading(
        "discovery",
        1,
        &[
            ("xcsh-export", "error", ".claude/tools/NOTES.txt", 1, 1, notes),
            ("xcsh-tool-shape", "error", index, 3, 25, lacks),
            ("xcsh-metadata-file", "info", ".xcsh/tools/release.sh", 1, 1, metadata),
        ],
    );
    assert_help(
        &diagnostics(&report)[0],
        "move the file out of `.claude/tools` (beside it in `.claude/`, say), or make it a module that exports a factory `(pi) => tool`",
    );
    // `ls` lists the tools the loader takes, the folder's `index.ts` under its own name.
    let dir = fixture("xcsh-discovery-clean");
    let listed = run_in(dir.path(), &["ls", "--json", "."]).stdout;
    let listed: Value = serde_json::from_str(&listed).expect("ls --json");
    let tools: Vec<(&str, &str)> = listed["xcsh"]
        .as_array()
        .expect("xcsh tools")
        .iter()
        .map(|t| (t["name"].as_str().unwrap(), t["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        tools,
        [
            ("line_count", ".xcsh/tools/line_count/index.ts"),
            ("todo_list", ".claude/tools/todo.ts"),
            ("code_search", ".codex/tools/search.js")
        ]
    );
}

/// The loader takes `module.default ?? module` and requires a function: a factory exported by name only is
/// never called (the docs call the default export "preferred"; the loader requires it).
#[test]
fn a_factory_exported_by_name_only_fails_to_load() {
    let path = ".xcsh/tools/repo_stats.ts";
    let message = "`.xcsh/tools/repo_stats.ts` has no default export: the loader takes `module.default ?? module`, not the named `repoStats`, and the loader fails with \"Tool must export a default function\"";
    let report = reading("named-factory", 1, &[("xcsh-export", "error", path, 1, 1, message)]);
    assert_help(&diagnostics(&report)[0], "export the factory as the default: `export default repoStats`");
}

/// §4's package rules run on xcsh tools: a package `package.json` declares and no `node_modules` holds.
#[test]
fn a_declared_package_not_installed_fails_an_xcsh_tool() {
    let path = ".xcsh/tools/word_count.js";
    let message = "package `count-words` is declared in `package.json` but not installed in this checkout: xcsh imports the tool with Bun, which fails with Cannot find package 'count-words' until it is installed";
    reading("package", 1, &[("module-package-not-installed", "warning", path, 1, 1, message)]);
}

/// `pi.hasUI || pi.ui.notify()` and `if (ctx.hasUI) return …; ctx.ui.setStatus()` run the UI call only without a
/// UI: inverted guards, not guards.
#[test]
fn an_inverted_has_ui_test_is_no_guard() {
    let path = ".xcsh/tools/deploy.ts";
    let inverted = |written: &str| {
        format!(
            "`{written}` is used in `.xcsh/tools/deploy.ts` where `hasUI` is false: an inverted guard, not a guard; it runs only without a UI, where it is a no-op"
        )
    };
    let (pi, ctx) = (inverted("pi.ui"), inverted("ctx.ui"));
    let report = reading(
        "ui-guard-inverted",
        1,
        &[("xcsh-ui-guard", "warning", path, 6, 17, &pi), ("xcsh-ui-guard", "warning", path, 9, 5, &ctx)],
    );
    assert_help(
        &diagnostics(&report)[0],
        "guard UI use with pi.hasUI the other way round: `if (pi.hasUI) { … }` or `pi.hasUI && …` runs it with a UI; `pi.hasUI || …` and `if (pi.hasUI) return` run it without one",
    );
}

/// A factory that returns `null` on one path hands the loader a value whose `name` it reads: the load throws.
#[test]
fn a_factory_returning_null_is_an_error() {
    let path = ".xcsh/tools/gh_issue.js";
    let message = "the factory of `.xcsh/tools/gh_issue.js` returns `null`, not a tool: it must return a tool, an array of tools, or a Promise of either";
    let report = reading("factory-return-null", 1, &[("xcsh-factory-return", "error", path, 1, 16, message)]);
    assert_related(&diagnostics(&report)[0], 0, path, 2, 37, "`null` returned here");
    assert_help(
        &diagnostics(&report)[0],
        "the loader reads `name` of each value the factory returns: return the tool object, or `[]` for no tool",
    );
}

/// CommonJS `exports.default = factory` without `__esModule`: Bun's default export is the exports object, so
/// `module.default ?? module` is `{ default: factory }`, no function. With the marker (what `tsc` writes) it loads.
#[test]
fn commonjs_exports_default_without_es_module_fails_to_load() {
    let path = ".xcsh/tools/branch_name.js";
    let message = "`.xcsh/tools/branch_name.js` sets `exports.default` without `__esModule`: Bun's default export is then the exports object `{ default: … }`, and the loader fails with \"Tool must export a default function\"";
    let report = reading("commonjs-default", 1, &[("xcsh-export", "error", path, 1, 1, message)]);
    assert_help(
        &diagnostics(&report)[0],
        "assign the factory to `module.exports`, or mark the module with `Object.defineProperty(exports, '__esModule', { value: true })`",
    );
}

#[test]
fn the_package_rules_apply_to_xcsh_tools() {
    // docs/spec/rules.md §6 (as the real-loaders issue settles it): §4's package rules apply to xcsh tools, with xcsh's
    // reason: it imports the tool with Bun from the checkout, which installs nothing by itself.
    let source = format!("import {{ Type }} from '@sinclair/typebox'\nconsole.log(Type)\n{}", TOOL_A);
    let package = "{ \"dependencies\": { \"@sinclair/typebox\": \"^0.34.0\" } }\n";
    let (code, report) = json_in(project(&[(TOOL_PATH, &source), ("package.json", package)]).path(), &[]);
    let message = "package `@sinclair/typebox` is declared in `package.json` but not installed in this checkout: xcsh imports the tool with Bun, which fails with Cannot find package '@sinclair/typebox' until it is installed";
    assert_findings(&report, &[("module-package-not-installed", "warning", TOOL_PATH, 1, 1, message)]);
    assert_help(
        &diagnostics(&report)[0],
        "install the packages (`bun install` beside `package.json`) wherever the tool runs, or drop the import (the injected `pi.typebox` needs no package)",
    );
    assert_eq!(code, 1);
    let (_, report) = json_in(project(&[(TOOL_PATH, &source)]).path(), &[]);
    assert_findings(
        &report,
        &[("module-package-missing", "error", TOOL_PATH, 1, 1, "Cannot find package '@sinclair/typebox'")],
    );
    assert_help(
        &diagnostics(&report)[0],
        "xcsh imports the tool with Bun from the checkout: declare `@sinclair/typebox` in a package.json and install it, or remove what needs it (the injected `pi.typebox` needs no package)",
    );
}

#[test]
fn an_xcsh_helpers_package_only_in_an_ignored_node_modules_is_untracked() {
    let helper = "import { Type } from '@sinclair/typebox'\nexport const schema = Type.Object({})\n";
    let source = format!("import {{ schema }} from './lib/schema'\nconsole.log(schema)\n{}", TOOL_A);
    let dir = project(&[
        (TOOL_PATH, &source),
        (".xcsh/tools/lib/schema.ts", helper),
        (
            "node_modules/@sinclair/typebox/package.json",
            "{ \"name\": \"@sinclair/typebox\", \"main\": \"index.js\" }\n",
        ),
        (
            "node_modules/@sinclair/typebox/index.js",
            "exports.Type = { Object: (p) => ({ type: 'object', properties: p }) }\n",
        ),
        (".gitignore", "node_modules/\n"),
    ]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    let (code, report) = json_in(dir.path(), &[]);
    let message = "package `@sinclair/typebox` resolves from `node_modules/@sinclair/typebox`, which git does not track: a fresh clone does not have it, and xcsh fails to load the tool there";
    assert_findings(&report, &[("module-package-untracked", "warning", ".xcsh/tools/lib/schema.ts", 1, 1, message)]);
    assert_related(&diagnostics(&report)[0], 0, TOOL_PATH, 1, 1, "imported by `.xcsh/tools/repo_stats.ts`");
    assert_eq!(code, 1);
}
