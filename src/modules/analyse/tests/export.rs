//! The default export's forms: objects, factories, the opencode form, what cannot be analysed, none.

use super::*;

const BODY: &str = "{ description: 'd', parameters: { type: 'object' }, execute(args, context) {} }";

#[test]
fn object_export_forms() {
    let forms = [
        ("a.ts", format!("export default {BODY}")),
        ("a.ts", format!("const tool = {BODY}\nexport default tool")),
        ("a.js", format!("let tool = {BODY}\nexport default tool")),
        ("a.js", format!("var tool = {BODY}\nexport default tool")),
        ("a.ts", format!("const tool = {BODY}\nexport {{ tool as default }}")),
        ("a.ts", format!("const tool = {BODY} satisfies Tool\nexport default tool")),
        ("a.ts", format!("export default {BODY} satisfies Tool")),
        ("a.ts", format!("export default ({BODY} as Tool)")),
        ("a.ts", format!("export default {BODY} as const")),
        ("a.ts", format!("export default <Tool>{BODY}")),
        ("a.ts", format!("const tool = <Tool>({BODY})\nexport default (tool)")),
        ("a.cjs", format!("module.exports = {BODY}")),
        ("a.js", format!("module.exports = {BODY}")),
        ("a.ts", format!("exports.__esModule = true;\nexports.default = {BODY}")),
        (
            "a.cts",
            format!("module.exports.default = {BODY}\nObject.defineProperty(exports, '__esModule', {{ value: true }})"),
        ),
        ("a.cjs", format!("const tool = {BODY};\nmodule.exports = tool;")),
        ("a.cts", format!("export = {BODY}")),
    ];
    for (path, text) in forms {
        let facts = run(path, &text);
        assert!(facts.syntax_errors().is_empty(), "{text}: {:?}", facts.syntax_errors());
        let object = object(&facts);
        assert_eq!(found(&object.description), Description::Text { blank: false }, "{text}");
        assert_eq!(found(&object.parameters).type_value.as_deref(), Some("object"), "{text}");
        assert!(matches!(found(&object.execute), Execute::Function { .. }), "{text}");
        assert!(facts.execute.is_some(), "{text}");
    }
}

#[test]
fn statement_spans() {
    let text = format!("const tool = {BODY}\nexport {{ tool as default }};\n");
    let facts = run("a.ts", &text);
    assert_eq!(slice(&text, facts.default_export.unwrap().statement), "export { tool as default };");
    let text = format!("'use strict'\nmodule.exports = {BODY};\n");
    let facts = run("a.cjs", &text);
    assert_eq!(slice(&text, facts.default_export.unwrap().statement), format!("module.exports = {BODY};"));
}

#[test]
fn factories() {
    for text in [
        "export default (pi) => ({ name: 'x' })",
        "export default function (pi) { return { name: 'x' } }",
        "export default async function factory(pi) {}",
        "const f = (pi) => ({ name: 'x' }); export default f",
        "function f(pi) {} export { f as default }",
        "export default function named(api) { const x = 1; return { name: 'x' } }",
        "module.exports = function (pi) {}",
        "export default (api) => { return { name: 'x' } }",
    ] {
        assert_eq!(kind("a.ts", text), DefaultExportKind::Factory, "{text}");
    }
    // A function that returns no object and takes no `pi` is not a factory: the tool's body, say.
    for text in [
        "export default function named() {}",
        "export default async function lookup(args) { return 'ok' }",
        "const run = async ({ id }) => `order ${id}`; export default run",
        "module.exports = function (args) { return { ok: true }.ok }",
    ] {
        assert_eq!(kind("a.ts", text), DefaultExportKind::Function, "{text}");
    }
}

#[test]
fn opencode_tools() {
    let text = "import { tool } from '@opencode-ai/plugin'\n\
                export default tool({ description: 'x', args: {}, async execute(args, context) { return 'y' } })";
    assert_eq!(kind("a.ts", text), DefaultExportKind::OpencodeTool);
    let define = "import { tool } from '@opencode-ai/plugin'\nexport default tool.define({})";
    assert_eq!(kind("a.ts", define), DefaultExportKind::OpencodeTool);
    let aliased = "import { tool as t } from '@opencode-ai/plugin'\nconst x = t({}); export default x";
    assert_eq!(kind("a.ts", aliased), DefaultExportKind::OpencodeTool);
    let namespace = "import * as oc from '@opencode-ai/plugin'\nexport default oc.tool({})";
    assert_eq!(kind("a.ts", namespace), DefaultExportKind::OpencodeTool);
    assert!(run("a.ts", text).execute.is_none());
    // A project's own `tool`, or one from nowhere, is not the opencode form (the modules stage settles whether the
    // imported one returns its argument: `crate::modules::wrapped`).
    let imported = Wrapper::imported("tool", "tool", "./tool");
    let facts = run("a.ts", "import { tool } from './tool'\nexport default tool({})");
    assert_eq!(object(&facts).wrapper, imported);
    assert_eq!(why(kind("a.ts", "export default tool.define({})")), "a call to `tool.define(...)`");
    let named = "import { tool } from '@opencode-ai/plugin'\nexport const search = tool({})\nexport const page = tool({})\nexport const other = make({})";
    assert_eq!(run("a.ts", named).opencode_exports(), ["search", "page"]);
}

#[test]
fn unanalyzable_default_exports() {
    assert_eq!(why(kind("a.ts", "export default makeTool({})")), "a call to `makeTool(...)`");
    assert_eq!(why(kind("a.ts", "export default new Tool()")), "an object built by `new Tool(...)`");
    assert_eq!(why(kind("a.ts", "export default class {}")), "a class");
    assert_eq!(why(kind("a.ts", "class T {} export default T")), "a class");
    assert_eq!(why(kind("a.ts", "import x from './x'\nexport default x")), "the imported binding `x`");
    assert_eq!(why(kind("a.ts", "import x from './x'\nexport { x as default }")), "the imported binding `x`");
    assert_eq!(why(kind("a.ts", "export { default } from './x'")), "re-exported from `./x`");
    assert_eq!(why(kind("a.ts", "export default y")), "the binding `y`, whose value is not known statically");
    assert_eq!(
        why(kind("a.ts", "const { y } = z; export default y")),
        "the binding `y`, whose value is not known statically"
    );
    assert_eq!(
        why(kind("a.ts", "const a = b; const b = a; export default a")),
        "the binding `a`, whose value is not known statically"
    );
    assert_eq!(why(kind("a.ts", "export default await load()")), "an awaited value");
    assert_eq!(why(kind("a.ts", "export default tools.lookup")), "the value of `tools.lookup`");
}

#[test]
fn literal_default_exports() {
    for (text, literal) in [
        ("export default 42", "42"),
        ("const nothing = null\nexport default nothing", "null"),
        ("export default ['a', 'b']", "['a', 'b']"),
        ("export default `tool`", "`tool`"),
        ("module.exports = true", "true"),
        ("export default undefined", "undefined"),
    ] {
        assert_eq!(kind("a.ts", text), DefaultExportKind::Literal { text: literal.into() }, "{text}");
    }
}

#[test]
fn no_default_export() {
    for text in [
        "export const tool = {}",
        "export { tool }; const tool = {}",
        "export type { default } from './x'",
        "export default interface Tool {}",
        "module.exports.tool = {}",
        "exports.tool = {}",
        "function f() { module.exports = {} }",
        "export const tool = {}; if (typeof module === 'object') module.exports = tool",
        "Object.defineProperty(exports, '__esModule', { value: true }); exports.tool = {}",
        "exports.__esModule = true; exports.tool = {}",
        "",
    ] {
        let facts = run("a.ts", text);
        assert!(facts.syntax_errors().is_empty(), "{text}: {:?}", facts.syntax_errors());
        assert_eq!(facts.default_export, None, "{text}");
    }
}

/// Without `module.exports =`, Bun's default export of CommonJS is the `exports` object, with the fields set on
/// it (read as the tool when one of them is a tool field; else the tool was meant as a named export); below the top level (outside functions not called where they are written) it is not read.
#[test]
fn commonjs_exports_object() {
    let missing = |text: &str| match kind("a.js", text) {
        DefaultExportKind::Object(object) => {
            assert_eq!(object.parameters, Field::Missing, "{text}");
            assert_eq!(object.execute, Field::Missing, "{text}");
            object.description
        }
        other => panic!("{text}: {other:?}"),
    };
    assert!(matches!(missing("exports.helper = {}; module.exports.description = 'x'"), Field::Found { .. }));
    for text in [
        "if (typeof module === 'object') module.exports = {}",
        "(function () { module.exports = {} })()",
        "(function () { exports.execute = run }).call(this)",
    ] {
        assert!(matches!(kind("a.js", text), DefaultExportKind::Unanalyzable { .. }), "{text}");
    }
}

#[test]
fn empty_file() {
    assert_eq!(run("tools/empty.ts", ""), ModuleFacts::default());
    assert_eq!(run("tools/empty.cjs", "\n\n"), ModuleFacts::default());
}

#[test]
fn named_tool_objects_without_a_default_export() {
    let named = |path: &str, text: &str| run(path, text).named_tool_object().map(|n| (n.name.clone(), n.commonjs));
    let es = |name: &str| Some((name.to_string(), false));
    assert_eq!(named("a.ts", &format!("export const crmNote = {BODY}")), es("crmNote"));
    assert_eq!(named("a.ts", &format!("const crmNote = {BODY}\nexport {{ crmNote as note }}")), es("crmNote"));
    assert_eq!(named("a.ts", &format!("const base = {BODY}\nexport const crmNote = (base as Tool)")), es("crmNote"));
    // The first that holds a tool object: one field of a tool is enough; other objects are not tools.
    let text = "export const config = { retries: 3 }\nexport const b = { execute() {} }\nexport const c = { description: 'c' }";
    assert_eq!(named("a.ts", text), es("b"));
    assert_eq!(named("a.ts", "export const config = { retries: 3, ['execute']: 1 }"), None);
    assert_eq!(
        named("a.cjs", &format!("exports.helper = 1\nexports.crmNote = {BODY}")),
        Some(("crmNote".into(), true))
    );
    // Bun runs an `.mjs` without `import` or `export` as CommonJS too (`format`).
    assert_eq!(named("a.mjs", &format!("exports.crmNote = {BODY}")), Some(("crmNote".into(), true)));
    // A module with a default export needs none.
    assert_eq!(named("a.ts", &format!("export const crmNote = {BODY}\nexport default crmNote")), None);
    assert_eq!(named("a.ts", &format!("export const crmNote = {BODY}\nexport default null")), None);
}
