//! The shapes of other loaders and libraries: CommonJS `exports.default` as Bun loads it, calls that return their
//! argument (the AI SDK's `tool`, a module's own helper), LangChain's `tool`, MCP names, imports inside functions.

use super::*;

const BODY: &str = "{ description: 'd', parameters: { type: 'object' }, execute(args, context) {} }";

/// Without `__esModule`, Bun's default export of CommonJS is the exports object: `exports.default = tool` makes it
/// `{ default: tool }`; with it, `exports.default` is the default export.
#[test]
fn exports_default_needs_es_module() {
    for (path, text) in [
        ("a.cjs", format!("exports.default = {BODY}")),
        ("a.js", format!("module.exports.default = {BODY}")),
        ("a.ts", format!("exports.default = {BODY}\nexports.helper = 1")),
        ("a.cts", format!("const tool = {BODY}\nexports.default = tool")),
    ] {
        let facts = run(path, &text);
        let export = facts.default_export.as_ref().unwrap();
        assert_eq!(export.kind, DefaultExportKind::ExportsDefault, "{text}");
        assert!(
            slice(&text, export.statement).starts_with("exports.default =") || text.contains("module.exports.default")
        );
        assert!(facts.execute.is_none(), "{text}");
    }
    // `__esModule` before or after, in either spelling: `exports.default` is the tool, read as written.
    for marker in ["exports.__esModule = true", "Object.defineProperty(exports, '__esModule', { value: true })"] {
        for text in [format!("{marker};\nexports.default = {BODY}"), format!("exports.default = {BODY};\n{marker}")] {
            let facts = run("a.cjs", &text);
            assert_eq!(found(&object(&facts).description), Description::Text { blank: false }, "{text}");
        }
    }
    // `module.exports =` wins; fields on the exports object beside `default` make it a tool of those fields.
    let whole = format!("module.exports = {BODY}\nmodule.exports.default = module.exports");
    assert!(matches!(kind("a.cjs", &whole), DefaultExportKind::Object(_)));
    let fields = "exports.default = {}\nexports.description = 'd'\nexports.execute = function () {}";
    assert_eq!(object(&run("a.cjs", fields)).parameters, Field::Missing);
    // An ES module never runs as CommonJS: its `export default` is read.
    let es = format!("export default {BODY}\nexports.default = null");
    assert!(matches!(kind("a.ts", &es), DefaultExportKind::Object(_)));
}

#[test]
fn wrappers_that_return_their_argument_are_seen_through() {
    let cases = [
        ("import { tool } from 'ai'\nexport default tool({BODY})", Wrapper::AiSdk),
        ("import { tool as aiTool } from 'ai'\nconst t = {BODY}\nexport default aiTool(t)", Wrapper::AiSdk),
        ("import * as ai from 'ai'\nexport default ai.tool({BODY})", Wrapper::AiSdk),
        ("import { tool } from '@ai-sdk/provider-utils'\nmodule.exports = tool({BODY})", Wrapper::AiSdk),
        // CommonJS's named import.
        ("const { tool } = require('ai')\nmodule.exports = tool({BODY})", Wrapper::AiSdk),
        ("const { tool: aiTool, ...rest } = require('ai')\nmodule.exports = aiTool({BODY})", Wrapper::AiSdk),
        (
            "function defineTool<T>(t: T): T { return t }\nexport default defineTool({BODY})",
            Wrapper::Identity("defineTool".into()),
        ),
        (
            "const defineTool = (t: Tool) => t as Tool\nexport default defineTool({BODY})",
            Wrapper::Identity("defineTool".into()),
        ),
        ("const tool = function (t) { return (t) }\nexport default tool({BODY})", Wrapper::Identity("tool".into())),
    ];
    for (text, wrapper) in cases {
        let text = text.replace("{BODY}", BODY);
        let facts = run("a.ts", &text);
        let object = object(&facts);
        assert_eq!(object.wrapper, wrapper, "{text}");
        assert_eq!(found(&object.parameters).type_value.as_deref(), Some("object"), "{text}");
        assert!(matches!(found(&object.execute), Execute::Function { .. }), "{text}");
        assert!(facts.execute.is_some(), "{text}");
    }
    // Helpers that do something else, or that come from elsewhere, are not read through.
    for text in [
        "function make(t) { console.log(t); return t }\nexport default make({})",
        "const make = (t, u) => u\nexport default make({}, {})",
        "const make = (t) => { t }\nexport default make({})",
        "import { tool } from 'tool-kit'\nexport default tool({})",
        "import { tool } from 'ai'\nexport default tool(makeTool())",
        "const { tool = make } = require('ai')\nexport default tool({})",
    ] {
        assert!(why(kind("a.ts", text)).starts_with("a call to `"), "{text}");
    }
    // A helper assigned after its declaration may be any function.
    let changed = "let { tool } = require('ai')\ntool = make\nexport default tool({})";
    assert_eq!(why(kind("a.ts", changed)), "the binding `tool`, which is changed after its declaration");
}

/// A relative module's export is read through as [`Wrapper::Imported`], named as imported; that module tells
/// which of its exports return their argument.
#[test]
fn imported_wrappers_and_identity_exports() {
    let text =
        "import { defineTool as define } from '../lib/define'\nexport default define({BODY})".replace("{BODY}", BODY);
    let wrapper = object(&run("a.ts", &text)).wrapper.clone();
    let expected = Wrapper::imported("define", "defineTool", "../lib/define");
    assert_eq!(wrapper, expected);
    let helper = "export function a<T>(t: T): T { return t }\n\
                  export const b = (t) => t, c = (t) => ({ ...t })\n\
                  const d = function (t) { return t }\n\
                  export { d as e }\n\
                  export default (t) => t";
    assert_eq!(run("lib.ts", helper).identity_exports(), ["a", "b", "default", "e"]);
    // The first ones of a module of many, sorted.
    let many: String = (0..300).map(|n| format!("export const t{n:03} = (t) => t\n")).collect();
    let kept = run("lib.js", &many).identity_exports().to_vec();
    assert_eq!(
        (kept.len(), kept.first().map(|s| s.as_str()), kept.last().map(|s| s.as_str())),
        (256, Some("t000"), Some("t255"))
    );
    let commonjs = "exports.define = (t) => t\nexports.log = (t) => { console.log(t); return t }";
    assert_eq!(run("lib.cjs", commonjs).identity_exports(), ["define"]);
    assert_eq!(run("lib.mjs", "exports.define = (t) => t").identity_exports(), ["define"]);
}

#[test]
fn foreign_fields_and_langchain() {
    let ai = "import { tool } from 'ai'\nimport { z } from 'zod'\nexport default tool({ description: 'd', inputSchema: z.object({}), execute: async () => 'x' })";
    let facts = run("a.ts", ai);
    let ai = object(&facts);
    assert_eq!((ai.parameters.clone(), ai.foreign.input_schema()), (Field::Missing, true));
    let mcp =
        "export default { name: 'x', description: 'd', inputSchema: { type: 'object' }, handler: async () => ({}) }";
    let facts = run("a.js", mcp);
    let mcp = object(&facts);
    assert!(mcp.foreign.input_schema() && mcp.foreign.handler() && !mcp.foreign.schema());
    assert_eq!(mcp.foreign.renames().as_deref(), Some("`inputSchema` → `parameters`, `handler` → `execute`"));
    // LangChain's `tool` returns a StructuredTool: its config's description, no `parameters`, no `execute`.
    let langchain = "import { tool } from '@langchain/core/tools'\nimport { z } from 'zod'\nexport default tool(async ({ id }) => id, { name: 'x', description: 'd', schema: z.object({ id: z.string() }) })";
    let facts = run("a.ts", langchain);
    let lc = object(&facts);
    assert_eq!(lc.wrapper, Wrapper::LangChain);
    assert_eq!(found(&lc.description), Description::Text { blank: false });
    assert_eq!((&lc.parameters, &lc.execute), (&Field::Missing, &Field::Missing));
    assert!(lc.foreign.schema() && facts.execute.is_none());
}

#[test]
fn named_exports_keep_their_shape() {
    let named = |text: &str| run("a.ts", text).named_tool_object().cloned().unwrap();
    let ai = named(
        "import { tool } from 'ai'\nexport const weather = tool({ description: 'd', inputSchema: {}, execute() {} })",
    );
    assert_eq!((ai.name.as_str(), &ai.wrapper, ai.foreign.input_schema()), ("weather", &Wrapper::AiSdk, true));
    let lc = named(
        "import { tool } from '@langchain/core/tools'\nexport const search = tool(run, { description: 'd', schema: {} })",
    );
    assert_eq!((lc.name.as_str(), &lc.wrapper), ("search", &Wrapper::LangChain));
    let mcp = named("export const echo = { name: 'echo', description: 'd', inputSchema: {}, handler() {} }");
    assert_eq!((&mcp.wrapper, mcp.foreign.handler()), (&Wrapper::None, true));
    // An MCP server registering its tools.
    let server = "const server = new McpServer({ name: 's' })\nserver.tool('echo', 'Echoes', {}, async () => ({}))";
    let facts = run("a.ts", server);
    assert!(facts.serves_tools && facts.named_tool_object().is_none());
}

/// `import()` and `require()` inside a function run when it is called; at the top level, when the module loads.
#[test]
fn imports_inside_functions_are_deferred() {
    let text = "const a = require('./a')\nexport default { async execute() { const b = await import('./b'); return require('./c') } };\n(() => require('./d'))()";
    let facts = run("a.js", text);
    let deferred: Vec<(&str, bool)> = facts.imports.iter().map(|i| (i.specifier.as_str(), i.deferred)).collect();
    assert_eq!(deferred, [("./a", false), ("./b", true), ("./c", true), ("./d", false)]);
}

/// An ES `import` Bun keeps, beside CommonJS's exports and without an `export`: Bun refuses to compile it.
#[test]
fn import_statements_in_commonjs() {
    let error =
        |path: &str, text: &str| run(path, text).syntax_errors().first().map(|e| slice(text, e.span).to_string());
    let body = "module.exports = { description: 'd' }";
    for (path, text) in [
        ("a.ts", format!("import {{ z }} from 'zod'\nconsole.log(z)\n{body}")),
        ("a.js", format!("import {{ unused }} from 'zod'\n{body}")),
        ("a.ts", "import 'node:process'\nexports.tool = 1".to_string()),
        ("a.cts", "import {} from 'x'\nexport = {}".to_string()),
        // Every extension alike: an `.mjs` that uses `module` is CommonJS; so is one that only asks `typeof module`.
        ("a.mjs", format!("import x from 'x'\n{body}")),
        ("a.js", "import x from 'x'\nfunction commonjs() { return typeof module }\nexports.tool = x".to_string()),
    ] {
        let first = text.lines().next().unwrap();
        assert_eq!(error(path, &text).as_deref(), Some(first), "{text}");
    }
    for (path, text) in [
        // Erased: used only as a type, or unused, in TypeScript.
        ("a.ts", format!("import {{ Order }} from './types'\nlet o: Order\n{body}")),
        ("a.ts", format!("import type {{ Order }} from './types'\n{body}")),
        // CommonJS's own imports.
        ("a.ts", format!("import path = require('node:path')\nconsole.log(path)\n{body}")),
        ("a.js", format!("const path = require('node:path')\n{body}")),
        // An ES module (an `export`), or CommonJS only below the top level (a UMD wrapper).
        ("a.js", "import x from 'x'\nexport default x\nif (typeof module === 'object') module.exports = x".to_string()),
        // `module` bound by the module itself is no CommonJS name.
        ("a.js", "import x from 'x'\nfunction f(module) { return module.exports }\nf(x)".to_string()),
        // A top-level `await` makes an ES module (whose `module.exports` then throws at load: `load_error`).
        ("a.mts", format!("import x from 'x'\nawait x\n{body}")),
    ] {
        assert_eq!(error(path, &text), None, "{text}");
    }
}

/// CommonJS's exports assigned at the top level of a module with an `export` statement: they throw at load.
#[test]
fn commonjs_exports_in_es_modules() {
    let load_error =
        |text: &str| run("a.ts", text).load_error().map(|e| (slice(text, e.span).to_string(), e.message.clone()));
    let (at, message) = load_error("export type X = 1\nmodule.exports = {}").unwrap();
    assert_eq!((at.as_str(), message.starts_with("module is not defined")), ("module.exports = {}", true));
    let (at, message) = load_error("export const a = 1\nexports.b = 2;").unwrap();
    assert_eq!((at.as_str(), message.starts_with("exports is not defined")), ("exports.b = 2;", true));
    let (at, message) = load_error("const ready = await Promise.resolve(1)\nmodule.exports = {}").unwrap();
    assert_eq!((at.as_str(), message.contains("as it has a top-level `await`")), ("module.exports = {}", true));
    for text in [
        "module.exports = {}",
        "export = {}",
        // An `await` inside a function is no top-level one, nor one inside a function called where it is written.
        "async function f() { await 0 }\nmodule.exports = {}",
        "(async () => { await 0 })()\nmodule.exports = {}",
        "export default {}\nif (typeof module === 'object') module.exports = {}",
        "export default {}\nfunction f() { module.exports = {} }",
    ] {
        assert_eq!(load_error(text), None, "{text}");
    }
}
