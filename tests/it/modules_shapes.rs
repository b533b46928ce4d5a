//! Tool modules in the shapes real projects write them, judged as Bun loads them (issue 26): CommonJS
//! `exports.default` without `__esModule`, the AI SDK's `tool()` and a project's own helper that return their
//! argument, LangChain's `tool()` (a StructuredTool), MCP definitions and servers, a plain function as the default
//! export, and imports inside `execute`. Each reading has a fixture `mod-<name>` and its clean twin, a module Bun
//! loads as a tool.

use crate::common::*;
use crate::modules_support::*;

const EXPORTS_DEFAULT_HELP: &str = "assign the tool to the exports themselves, `module.exports = { description, parameters, execute }`, or write an ES module, `export default { … }` (a module compiled from one marks itself with `Object.defineProperty(exports, '__esModule', { value: true })`, and Bun then takes `exports.default`)";

const INPUT_SCHEMA: &str = "rename `inputSchema` to `parameters` (the AI SDK's and MCP's name for it): Beeuni reads a JSON Schema there, `{ type: 'object', properties: { … } }` (for a zod schema, `z.toJSONSchema(...)` of zod 4, or paste the printed schema)";
const HANDLER: &str = "rename `handler` to `execute` (MCP's name for it): Beeuni calls `execute(args, context)`, which returns a string or any JSON value";
const LANGCHAIN: &str = "export a plain object instead of the StructuredTool: `export default { description, parameters, execute }`, with `schema` → `parameters` (as JSON Schema: `z.toJSONSchema(schema)` of zod 4 for a zod schema) and the function passed to `tool()` → `execute(args, context)`";
const SERVER: &str = "the module registers its tools with a server (`server.tool(…)` or `server.registerTool(…)`, the MCP SDK's form), which Beeuni never starts: give each tool a module of its own, `export default { description, parameters, execute }` with its `inputSchema` → `parameters` (as JSON Schema) and its handler → `execute(args, context)`, and declare it under `tools:`";

fn exports_default(path: &str) -> String {
    format!(
        "`{path}` sets `exports.default` in CommonJS without `__esModule`: Bun's default export is then the exports object `{{ default: … }}`, which has no `description`, `parameters` or `execute`: the module is skipped at load"
    )
}

fn skipped(path: &str) -> String {
    format!("`{path}` has no default export: the module is skipped at load")
}

/// Bun's CommonJS interop: without `__esModule`, the default export is the exports object, `{ default: tool }`.
/// The finding is at the assignment (`.cjs`, `.js` with `module.exports.default`, `.ts`); the twin assigns
/// `module.exports`, or marks the module with `__esModule` in either spelling.
#[test]
fn exports_default_without_es_module() {
    let (a, b, c) = (
        exports_default("tools/crm_note.cjs"),
        exports_default("tools/lookup_order.js"),
        exports_default("tools/ticket.ts"),
    );
    let report = trigger(
        "exports-default",
        1,
        &[
            (("module-no-default-export", "error", "tools/crm_note.cjs", 2, 1, &a), 3),
            (("module-no-default-export", "error", "tools/lookup_order.js", 11, 1, &b), 4),
            (("module-no-default-export", "error", "tools/ticket.ts", 2, 1, &c), 5),
        ],
    );
    assert_helps(&report, &[EXPORTS_DEFAULT_HELP; 3]);
    clean_twin("exports-default");
}

/// `tool()` of `ai` and a module's own `defineTool` return what they are given: the object is checked, and the
/// help maps the AI SDK's and MCP's names; the AI SDK 4's zod `parameters` is a zod schema; a named AI SDK export
/// is told to become the default and what to rename.
#[test]
fn identity_wrappers_are_read_through() {
    let zod = "the `parameters` of the tool in `tools/forecast.js` is `z.object({ city: z.string(), days: z.num…`: a zod schema, not JSON Schema: wrap it in `z.toJSONSchema(...)` (zod 4) or paste the printed schema";
    let report = trigger(
        "tool-wrappers",
        1,
        &[
            (
                (
                    "module-execute",
                    "error",
                    "tools/define_tool.ts",
                    6,
                    1,
                    "the tool in `tools/define_tool.ts` has no `execute`",
                ),
                5,
            ),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/define_tool.ts",
                    6,
                    1,
                    "the tool in `tools/define_tool.ts` has no `parameters`",
                ),
                5,
            ),
            (("module-parameters", "error", "tools/forecast.js", 7, 3, zod), 4),
            (("module-no-default-export", "error", "tools/headlines.ts", 1, 1, &skipped("tools/headlines.ts")), 6),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/weather.ts",
                    4,
                    1,
                    "the tool in `tools/weather.ts` has no `parameters`",
                ),
                3,
            ),
        ],
    );
    assert_helps(
        &report,
        &[
            HANDLER,
            INPUT_SCHEMA,
            "write `parameters: { type: 'object', properties: { … }, required: [ … ] }`",
            "`headlines` holds the tool object (`tool()` of `ai` returns the object it is given), but only as a named export: add `export default headlines`, and rename `inputSchema` → `parameters`",
            &INPUT_SCHEMA.replace("the AI SDK's and MCP's name", "the AI SDK's name"),
        ],
    );
    clean_twin("tool-wrappers");
}

/// LangChain's `tool(fn, config)` returns a StructuredTool: its `description` comes from the config, and it has
/// neither `parameters` nor `execute`; a named one gets the same mapping.
#[test]
fn langchain_tools_are_not_the_beeuni_shape() {
    let why = ": `tool()` of `@langchain/core/tools` returns a LangChain StructuredTool, not the object it is given";
    let (execute, parameters) = (
        format!("the tool in `tools/search.ts` has no `execute`{why}"),
        format!("the tool in `tools/search.ts` has no `parameters`{why}"),
    );
    let report = trigger(
        "langchain-tool",
        1,
        &[
            (("module-execute", "error", "tools/search.ts", 4, 1, &execute), 3),
            (("module-parameters", "error", "tools/search.ts", 4, 1, &parameters), 3),
            (("module-no-default-export", "error", "tools/summarize.mjs", 1, 1, &skipped("tools/summarize.mjs")), 4),
        ],
    );
    let named = format!(
        "`summarize` is a LangChain StructuredTool (`tool()` of `@langchain/core/tools`), not the Beeuni shape, and only a named export: {LANGCHAIN}"
    );
    assert_helps(&report, &[LANGCHAIN, LANGCHAIN, &named]);
    clean_twin("langchain-tool");
}

/// An MCP tool definition (`name`, `inputSchema`, `handler`) as the default export, and modules that register
/// their tools with an MCP server (`server.tool`, `server.registerTool`, ESM and CommonJS).
#[test]
fn mcp_shapes_get_the_mapping() {
    let report = trigger(
        "mcp-shapes",
        1,
        &[
            (("module-execute", "error", "tools/echo.js", 2, 1, "the tool in `tools/echo.js` has no `execute`"), 3),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/echo.js",
                    2,
                    1,
                    "the tool in `tools/echo.js` has no `parameters`",
                ),
                3,
            ),
            (("module-no-default-export", "error", "tools/register.cjs", 1, 1, &skipped("tools/register.cjs")), 5),
            (("module-no-default-export", "error", "tools/server.ts", 1, 1, &skipped("tools/server.ts")), 4),
        ],
    );
    assert_helps(&report, &[HANDLER, INPUT_SCHEMA, SERVER, SERVER]);
    clean_twin("mcp-shapes");
}

/// A default export that is a plain function (the tool's body alone) is called what it is, not a factory.
#[test]
fn a_plain_function_is_not_called_a_factory() {
    let message = |path: &str| {
        format!(
            "`{path}` exports a function, not a tool object: Beeuni reads `description`, `parameters` and `execute` from the default export and never calls it"
        )
    };
    let report = trigger(
        "plain-function",
        1,
        &[
            (("module-factory-export", "error", "tools/crm_note.cjs", 1, 1, &message("tools/crm_note.cjs")), 4),
            (("module-factory-export", "error", "tools/lookup_order.ts", 2, 1, &message("tools/lookup_order.ts")), 3),
        ],
    );
    let help = "export an object whose `execute` is this function: `export default { description, parameters: { type: 'object', properties: { … } }, execute }`, called as `execute(args, context)`";
    assert_helps(&report, &[help; 2]);
    clean_twin("plain-function");
}

/// `require()` in a helper function and `await import()` in `execute` run when called: the module loads, and the
/// tool fails each time it is called. Still errors, saying when they fail.
#[test]
fn imports_inside_functions_fail_when_called() {
    let when = ": it fails when the function that holds it is called, not at load";
    let package = format!("Cannot find package 'left-pad'{when}");
    let file = format!(
        "`tools/report.ts` imports `../lib/charts`: no such file (tried the module extensions and `index.*`){when}"
    );
    let report = trigger(
        "deferred-import",
        1,
        &[
            (("module-package-missing", "error", "tools/report.ts", 4, 10, &package), 3),
            (("module-import-missing", "error", "tools/report.ts", 11, 29, &file), 3),
        ],
    );
    assert_help(
        &diagnostics(&report)[1],
        "the import runs when the function that holds it is called, and fails each time: correct the path or add the file",
    );
    clean_twin("deferred-import");
}

/// The shapes of real tool modules, one project of them: ES modules and CommonJS, TypeScript and JavaScript;
/// opencode's `tool()`, the AI SDK (`import` and `require`), LangChain, MCP, pi factories and extensions,
/// TypeScript's and Babel's CommonJS output, a project's helper, and a wrapper nobody knows. Packages are installed
/// (a `node_modules` of stand-ins), so each finding is about the shape alone.
const CORPUS: &[(&str, &str)] = &[
    (
        "tools/oc_search.ts",
        "import { tool } from '@opencode-ai/plugin'\n\nexport default tool({\n  description: 'Search the docs.',\n  args: { query: tool.schema.string() },\n  async execute(args) {\n    return args.query\n  },\n})\n",
    ),
    (
        "tools/ai_weather.js",
        "const { tool } = require('ai')\n\nmodule.exports = tool({\n  description: 'Get the weather in a city.',\n  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },\n  execute: async ({ city }) => `sunny in ${city}`,\n})\n",
    ),
    (
        "tools/ai_v4.ts",
        "import { tool } from 'ai'\nimport { z } from 'zod'\n\nexport default tool({\n  description: 'Convert a temperature.',\n  parameters: z.object({ celsius: z.number() }),\n  execute: async ({ celsius }: { celsius: number }) => celsius * 1.8 + 32,\n})\n",
    ),
    (
        "tools/lc_lookup.cjs",
        "const { tool } = require('@langchain/core/tools')\n\nmodule.exports = tool(async ({ id }) => `order ${id}`, {\n  name: 'lookup',\n  description: 'Look up an order.',\n  schema: { type: 'object', properties: { id: { type: 'string' } } },\n})\n",
    ),
    (
        "tools/mcp_echo.ts",
        "module.exports = {\n  name: 'echo',\n  description: 'Echo the text back.',\n  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },\n  async handler({ text }: { text: string }) {\n    return { content: [{ type: 'text', text }] }\n  },\n}\n",
    ),
    (
        "tools/pi_factory.ts",
        "const factory = (pi: unknown) => ({\n  name: 'greet',\n  description: 'Greet someone.',\n  parameters: { type: 'object', properties: {} },\n  async execute(toolCallId: string, params: object) {\n    return 'hi'\n  },\n})\n\nexport default factory\n",
    ),
    (
        "tools/pi_extension.js",
        "export default function (pi) {\n  pi.registerTool({ name: 'greet', description: 'Greet.', parameters: {}, execute: async () => 'hi' })\n}\n",
    ),
    (
        "tools/tsc_output.js",
        "\"use strict\";\nObject.defineProperty(exports, \"__esModule\", { value: true });\nexports.default = {\n    description: 'Compiled by tsc.',\n    parameters: { type: 'object', properties: {} },\n    execute: async () => 'ok',\n};\n",
    ),
    (
        "tools/babel_output.cjs",
        "exports.default = {\n  description: 'Compiled by Babel.',\n  parameters: { type: 'object', properties: {} },\n  execute: async () => 'ok',\n}\nmodule.exports.__esModule = true\n",
    ),
    (
        "tools/hand_cjs.ts",
        "const tool = {\n  description: 'Written by hand.',\n  parameters: { type: 'object', properties: {} },\n  execute: async () => 'ok',\n}\nexports.default = tool\n",
    ),
    (
        "tools/helper.mjs",
        "const defineTool = (definition) => definition\n\nexport default defineTool({\n  description: 'Through a helper.',\n  parameters: { type: 'object', properties: {} },\n  execute: async () => 'ok',\n})\n",
    ),
    (
        "tools/mastra.ts",
        "import { createTool } from '@mastra/core/tools'\n\nexport default createTool({\n  id: 'quote',\n  description: 'Quote of the day.',\n  inputSchema: {},\n  execute: async () => 'carpe diem',\n})\n",
    ),
];

#[test]
fn real_code_shapes() {
    let mut manifest = String::from("tools:\n  web_search: beeuni:web_search\n");
    for (path, _) in CORPUS {
        let name = path.trim_start_matches("tools/").split('.').next().unwrap();
        manifest.push_str(&format!("  {name}: {path}\n"));
    }
    let dir = project(CORPUS);
    write(dir.path(), "beeuni.yaml", manifest.as_bytes());
    for package in ["ai", "zod", "@langchain/core", "@mastra/core"] {
        let exports = r#"{ ".": "./index.js", "./tools": "./index.js" }"#;
        let json = format!("{{ \"name\": \"{package}\", \"exports\": {exports} }}\n");
        write(dir.path(), &format!("node_modules/{package}/package.json"), json.as_bytes());
        write(dir.path(), &format!("node_modules/{package}/index.js"), b"exports.tool = (t) => t\n");
    }
    let (code, report) = json_in(dir.path(), &[]);
    let opencode = "`tools/oc_search.ts` exports `tool({ description, args, execute })`, the opencode plugin form: Beeuni loads a plain object";
    let harness = "`tools/oc_search.ts` imports the harness package `@opencode-ai/plugin`: A module never imports a harness package.";
    let zod = "the `parameters` of the tool in `tools/ai_v4.ts` is `z.object({ celsius: z.number() })`: a zod schema, not JSON Schema: wrap it in `z.toJSONSchema(...)` (zod 4) or paste the printed schema";
    let langchain = |field: &str| {
        format!(
            "the tool in `tools/lc_lookup.cjs` has no `{field}`: `tool()` of `@langchain/core/tools` returns a LangChain StructuredTool, not the object it is given"
        )
    };
    let (lc_execute, lc_parameters) = (langchain("execute"), langchain("parameters"));
    let mastra = "the default export of `tools/mastra.ts` cannot be read without running it (a call to `createTool(...)`): it was not checked";
    let factory = "`tools/pi_factory.ts` exports a function that makes the tool (the xcsh/pi factory form): Beeuni never calls it and expects a plain object `{ description, parameters, execute }`";
    let extension = "`tools/pi_extension.js` exports a pi/xcsh extension (a function that calls `registerTool`): Beeuni expects a plain object `{ description, parameters, execute }`";
    let hand = exports_default("tools/hand_cjs.ts");
    assert_module_findings(
        &report,
        &[
            (("module-parameters", "error", "tools/ai_v4.ts", 6, 3, zod), 5),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/ai_weather.js",
                    3,
                    1,
                    "the tool in `tools/ai_weather.js` has no `parameters`",
                ),
                4,
            ),
            (("module-no-default-export", "error", "tools/hand_cjs.ts", 6, 1, &hand), 12),
            (("module-execute", "error", "tools/lc_lookup.cjs", 3, 1, &lc_execute), 6),
            (("module-parameters", "error", "tools/lc_lookup.cjs", 3, 1, &lc_parameters), 6),
            (("module-unanalyzable", "info", "tools/mastra.ts", 3, 1, mastra), 14),
            (
                (
                    "module-execute",
                    "error",
                    "tools/mcp_echo.ts",
                    1,
                    1,
                    "the tool in `tools/mcp_echo.ts` has no `execute`",
                ),
                7,
            ),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/mcp_echo.ts",
                    1,
                    1,
                    "the tool in `tools/mcp_echo.ts` has no `parameters`",
                ),
                7,
            ),
            (("module-harness-import", "error", "tools/oc_search.ts", 1, 1, harness), 3),
            (("module-opencode-tool", "error", "tools/oc_search.ts", 3, 1, opencode), 3),
            (("module-factory-export", "error", "tools/pi_extension.js", 1, 1, extension), 9),
            (("module-factory-export", "error", "tools/pi_factory.ts", 10, 1, factory), 8),
        ],
    );
    assert_eq!(code, 1);
    let helps: Vec<&str> = diagnostics(&report).iter().map(|d| d["help"].as_str().unwrap()).collect();
    assert_eq!(helps[1], INPUT_SCHEMA.replace("the AI SDK's and MCP's name", "the AI SDK's name"));
    assert_eq!(helps[2], EXPORTS_DEFAULT_HELP);
    assert_eq!((helps[3], helps[4]), (LANGCHAIN, LANGCHAIN));
    assert_eq!((helps[6], helps[7]), (HANDLER, INPUT_SCHEMA));
}

/// A wrapper imported from a relative module is seen through when that module exports it as a function that
/// returns its argument (ESM, and CommonJS through `require`); another imported function stays unanalysable.
#[test]
fn imported_helpers_are_seen_through_when_they_return_their_argument() {
    let tool = |helper: &str, from: &str| {
        format!(
            "import {{ {helper} }} from '{from}'\n\nexport default {helper}({{\n  description: 'Convert an amount.',\n  inputSchema: {{ type: 'object', properties: {{}} }},\n  execute: async () => 'ok',\n}})\n"
        )
    };
    let dir = project(&[
        (
            "beeuni.yaml",
            "tools:\n  web_search: beeuni:web_search\n  convert: tools/convert.ts\n  logged: tools/logged.ts\n  legacy: tools/legacy.cjs\n",
        ),
        ("tools/convert.ts", &tool("defineTool", "../lib/define")),
        ("tools/logged.ts", &tool("logTool", "../lib/define")),
        (
            "tools/legacy.cjs",
            "const { defineTool } = require('../lib/define.cjs')\n\nmodule.exports = defineTool({\n  description: 'Legacy.',\n  parameters: { type: 'object', properties: {} },\n  handler: async () => 'ok',\n})\n",
        ),
        (
            "lib/define.ts",
            "export function defineTool<T>(definition: T): T {\n  return definition\n}\n\nexport const logTool = <T,>(definition: T): T => {\n  console.log(definition)\n  return definition\n}\n",
        ),
        ("lib/define.cjs", "exports.defineTool = (definition) => definition\n"),
    ]);
    let (code, report) = json_in(dir.path(), &[]);
    let logged = "the default export of `tools/logged.ts` cannot be read without running it (a call to `logTool(...)`): it was not checked";
    assert_module_findings(
        &report,
        &[
            (
                (
                    "module-parameters",
                    "error",
                    "tools/convert.ts",
                    3,
                    1,
                    "the tool in `tools/convert.ts` has no `parameters`",
                ),
                3,
            ),
            (
                (
                    "module-execute",
                    "error",
                    "tools/legacy.cjs",
                    3,
                    1,
                    "the tool in `tools/legacy.cjs` has no `execute`",
                ),
                5,
            ),
            (("module-unanalyzable", "info", "tools/logged.ts", 3, 1, logged), 4),
        ],
    );
    let helps: Vec<&str> = diagnostics(&report).iter().map(|d| d["help"].as_str().unwrap()).collect();
    assert_eq!((helps[0], helps[1]), (INPUT_SCHEMA, HANDLER));
    assert_eq!(code, 1);
}

/// ES `import` statements in a module that uses `module` or `exports` and has no `export`: Bun compiles it as
/// CommonJS and refuses the import, so it does not load. The twin imports with `require`, or exports as an ES
/// module; an import used only as a type is erased and does not count.
#[test]
fn an_import_statement_in_commonjs_does_not_load() {
    let message = |path: &str, name: &str| {
        format!(
            "`{path}` does not parse: Cannot use import statement with CommonJS-only features: the module uses `{name}`, so Bun compiles it as CommonJS and refuses the import (use `require()`)"
        )
    };
    trigger(
        "import-in-commonjs",
        1,
        &[
            (("module-syntax", "error", "tools/crm_note.js", 1, 1, &message("tools/crm_note.js", "exports")), 4),
            (("module-syntax", "error", "tools/lookup_order.ts", 2, 1, &message("tools/lookup_order.ts", "module")), 3),
        ],
    );
    clean_twin("import-in-commonjs");
}

/// A top-level assignment to `module.exports` or `exports` in a module with an `export` statement (a type's too):
/// Bun runs it as an ES module, where they are not defined, and the assignment throws at load. The twin exports
/// as an ES module only.
#[test]
fn commonjs_exports_in_an_es_module_throw_at_load() {
    let message = |path: &str, name: &str| {
        format!(
            "`{path}` fails when Bun loads it: {name} is not defined (the module is an ES module, as it has an `export` statement: CommonJS's `module` and `exports` do not exist there)"
        )
    };
    let report = trigger(
        "commonjs-in-es-module",
        1,
        &[
            (("module-syntax", "error", "tools/crm_note.js", 8, 1, &message("tools/crm_note.js", "exports")), 4),
            (("module-syntax", "error", "tools/lookup_order.ts", 3, 1, &message("tools/lookup_order.ts", "module")), 3),
        ],
    );
    let help = "the module is skipped at load: write it as an ES module (`export default { … }`) or as CommonJS (`module.exports = { … }`, without `import` or `export` statements), not both";
    assert_helps(&report, &[help; 2]);
    clean_twin("commonjs-in-es-module");
}
