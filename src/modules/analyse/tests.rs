use super::*;

fn run(path: &str, text: &str) -> ModuleFacts {
    let mut allocator = Allocator::default();
    analyse(path, text, &mut allocator)
}

/// Runs `f` on a thread with the stack the caller gives analysis threads.
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(64 << 20).spawn(f).unwrap().join().unwrap()
}

fn object(facts: &ModuleFacts) -> &ObjectExport {
    match &facts.default_export {
        Some(DefaultExport { kind: DefaultExportKind::Object(object), .. }) => object,
        other => panic!("expected an object export, got {other:?}"),
    }
}

fn kind(path: &str, text: &str) -> DefaultExportKind {
    let facts = run(path, text);
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
    facts.default_export.unwrap().kind
}

fn why(kind: DefaultExportKind) -> String {
    match kind {
        DefaultExportKind::Unanalyzable { why } => why.into(),
        other => panic!("expected unanalyzable, got {other:?}"),
    }
}

fn found<T: Clone + std::fmt::Debug>(field: &Field<T>) -> T {
    match field {
        Field::Found { value, .. } => value.clone(),
        other => panic!("expected a found field, got {other:?}"),
    }
}

fn slice(text: &str, span: impl Into<Span>) -> &str {
    let span: Span = span.into();
    &text[span.range()]
}

const LOOKUP_ORDER: &str = r#"// tools/lookup_order.ts
export default {
  description: 'Look up an order by id. Returns its status and carrier.',
  parameters: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The order id, e.g. "A-1042"' },
      include_items: { type: 'boolean', description: 'Also list the items' },
    },
    required: ['id'],
  },
  async execute(args, context) {
    const response = await fetch(`https://orders.example.com/v1/orders/${args.id}`, {
      headers: { authorization: `Bearer ${context.env.ORDERS_API_KEY}` },
      signal: context.signal,
    })
    if (!response.ok) throw new Error(`orders API answered ${response.status}`)
    return await response.json()
  },
}
"#;

const WEATHER_NOW: &str = r#"// tools/weather_now.ts
export default {
  description: 'Current weather for a city: temperature in °C and conditions.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name, e.g. "Berlin"' } },
    required: ['city'],
  },
  async execute(args, context) {
    const key = context.env.WEATHER_API_KEY
    if (!key) throw new Error('WEATHER_API_KEY is not set: run `beeuni secrets set WEATHER_API_KEY=-` and grant it to this agent.')
    const url = `https://api.weather.example.com/v1/current?city=${encodeURIComponent(args.city)}`
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: context.signal })
    if (!response.ok) throw new Error(`weather API answered ${response.status}: ${await response.text()}`)
    const data = await response.json()
    return { city: args.city, temperature_c: data.temp_c, conditions: data.conditions }
  },
}
"#;

const ZOD: &str = r#"import { z } from 'zod'

export default {
  description: 'Look up an order by id.',
  parameters: z.toJSONSchema(z.object({ id: z.string().describe('The order id') })),
  async execute(args) {
    return `order ${args.id}: shipped`
  },
}
"#;

#[test]
fn lookup_order_from_the_docs() {
    let facts = run("tools/lookup_order.ts", LOOKUP_ORDER);
    assert!(facts.syntax_errors().is_empty());
    let export = facts.default_export.as_ref().unwrap();
    assert!(slice(LOOKUP_ORDER, export.statement).starts_with("export default {"));
    assert!(slice(LOOKUP_ORDER, export.statement).ends_with('}'));
    let object = object(&facts);
    assert_eq!(
        found(&object.description),
        Description::Text("Look up an order by id. Returns its status and carrier.".into())
    );
    let parameters = found(&object.parameters);
    assert_eq!(parameters.type_value.as_deref(), Some("object"));
    assert!(parameters.has_type && parameters.is_object_literal);
    assert_eq!(parameters.properties, Some(vec!["id".into(), "include_items".into()].into()));
    assert!(slice(LOOKUP_ORDER, parameters.properties_span.unwrap()).starts_with("properties: {"));
    assert_eq!(parameters.required.len(), 1);
    assert_eq!(parameters.required[0].0, "id");
    assert_eq!(slice(LOOKUP_ORDER, parameters.required[0].1), "'id'");
    assert_eq!(found(&object.execute), Execute::Function { params: vec!["args".into(), "context".into()].into() });
    let execute = facts.execute.as_ref().unwrap();
    assert!(slice(LOOKUP_ORDER, execute.span).starts_with("async execute(args, context) {"));
    assert!(execute.fetch_without_signal.is_empty());
    assert_eq!(facts.context_env.to_vec(), vec!["ORDERS_API_KEY".to_string()]);
    assert!(facts.env_reads.is_empty() && facts.imports.is_empty() && facts.comments().is_empty());
}

#[test]
fn weather_now_from_the_docs() {
    let facts = run("tools/weather_now.ts", WEATHER_NOW);
    assert!(facts.syntax_errors().is_empty());
    let object = object(&facts);
    assert!(matches!(found(&object.description), Description::Text(t) if t.starts_with("Current weather")));
    let parameters = found(&object.parameters);
    assert_eq!(parameters.properties, Some(vec!["city".into()].into()));
    assert_eq!(parameters.required.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(), ["city"]);
    assert_eq!(found(&object.execute), Execute::Function { params: vec!["args".into(), "context".into()].into() });
    assert!(facts.execute.unwrap().fetch_without_signal.is_empty());
    assert_eq!(facts.context_env.to_vec(), vec!["WEATHER_API_KEY".to_string()]);
}

#[test]
fn zod_parameters_are_built_at_run_time() {
    let facts = run("tools/lookup.ts", ZOD);
    let object = object(&facts);
    match &object.parameters {
        Field::Unanalyzable { span, why } => {
            assert_eq!(&**why, "built at run time by `z.toJSONSchema(...)`");
            assert!(slice(ZOD, *span).starts_with("parameters: z.toJSONSchema("));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(found(&object.execute), Execute::Function { params: vec!["args".into()].into() });
    assert_eq!(facts.imports.len(), 1);
    assert_eq!(facts.imports[0].specifier, "zod");
    assert_eq!(facts.imports[0].kind, ImportKind::Static);
    assert!(!facts.imports[0].type_only);
    assert_eq!(slice(ZOD, facts.imports[0].span), "import { z } from 'zod'");
}

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
        ("a.ts", format!("exports.default = {BODY}")),
        ("a.cts", format!("module.exports.default = {BODY}")),
        ("a.cjs", format!("const tool = {BODY};\nmodule.exports = tool;")),
        ("a.cts", format!("export = {BODY}")),
    ];
    for (path, text) in forms {
        let facts = run(path, &text);
        assert!(facts.syntax_errors().is_empty(), "{text}: {:?}", facts.syntax_errors());
        let object = object(&facts);
        assert_eq!(found(&object.description), Description::Text("d".into()), "{text}");
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
        "export default function named() {}",
        "module.exports = function (pi) {}",
    ] {
        assert_eq!(kind("a.ts", text), DefaultExportKind::Factory, "{text}");
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
    // A project's own `tool`, or one from nowhere, is not the opencode form.
    assert_eq!(why(kind("a.ts", "import { tool } from './tool'\nexport default tool({})")), "a call to `tool(...)`");
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
fn field_values() {
    let text = r#"
const schema = { 'type': `object`, properties: { a: {}, 'b-c': {} }, required: ['a', `b-c`, 3] }
const describe = 'shared'
async function run(toolCallId, params, signal, onUpdate, ctx) {}
export default { 'description': describe, parameters: schema, execute: run }
"#;
    let facts = run("a.ts", text);
    let object = object(&facts);
    assert_eq!(found(&object.description), Description::Text("shared".into()));
    let parameters = found(&object.parameters);
    assert_eq!(parameters.type_value.as_deref(), Some("object"));
    assert_eq!(parameters.properties, Some(vec!["a".into(), "b-c".into()].into()));
    assert_eq!(parameters.required.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(), ["a", "b-c"]);
    let params = ["toolCallId", "params", "signal", "onUpdate", "ctx"].map(InlineStr::from).to_vec();
    assert_eq!(found(&object.execute), Execute::Function { params: params.into() });
}

#[test]
fn xcsh_order_execute_params() {
    let text = "export default { description: 'd', parameters: { type: 'object' },\n\
                async execute(toolCallId, params, signal, onUpdate, ctx) { return ctx.env.X } }";
    let facts = run("a.ts", text);
    let params = ["toolCallId", "params", "signal", "onUpdate", "ctx"].map(InlineStr::from).to_vec();
    assert_eq!(found(&object(&facts).execute), Execute::Function { params: params.into() });
    // The second parameter is `params`, so `ctx.env.X` is not read as `context.env`.
    assert!(facts.context_env.is_empty());
}

#[test]
fn description_kinds() {
    let cases = [
        ("'x'", Description::Text("x".into())),
        ("`multi\nline`", Description::Text("multi\nline".into())),
        ("`a ${b}`", Description::Other),
        ("d", Description::Other),
        ("t('x')", Description::Other),
        ("42", Description::NotString),
        ("null", Description::NotString),
        ("undefined", Description::NotString),
        ("{}", Description::NotString),
        ("['x']", Description::NotString),
        ("''", Description::Text("".into())),
    ];
    for (value, expected) in cases {
        let text = format!("export default {{ description: {value} }}");
        assert_eq!(found(&object(&run("a.ts", &text)).description), expected, "{value}");
    }
}

#[test]
fn parameter_kinds() {
    let text = "export default { parameters: 'x' }";
    let parameters = found(&object(&run("a.ts", text)).parameters);
    assert!(!parameters.is_object_literal && !parameters.has_type);
    let text = "export default { parameters: { type: kind, properties: { ...base, a: {} }, required: 'a' } }";
    let parameters = found(&object(&run("a.ts", text)).parameters);
    assert!(parameters.has_type && parameters.is_object_literal);
    assert_eq!(parameters.type_value, None);
    assert_eq!(parameters.properties, None);
    assert!(parameters.required.is_empty());
    let text = "export default { parameters: { properties: { [k]: {} } } }";
    let parameters = found(&object(&run("a.ts", text)).parameters);
    assert!(!parameters.has_type);
    assert_eq!(parameters.properties, None);
    let cases = [
        ("import s from './s'\nexport default { parameters: s }", "the imported binding `s`"),
        ("export default { parameters: schemas.order }", "read from `schemas.order` at run time"),
        ("export default { parameters: { ...base, properties: {} } }", "the parameters object spreads `base`"),
        ("export default { parameters: build() }", "built at run time by `build(...)`"),
    ];
    for (text, expected) in cases {
        match &object(&run("a.ts", text)).parameters {
            Field::Unanalyzable { why, .. } => assert_eq!(&**why, expected),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn execute_kinds() {
    let cases = [
        (
            "execute: async (args, { env }) => {}",
            Execute::Function { params: vec!["args".into(), "{ env }".into()].into() },
        ),
        (
            "execute: function ({ location }: { location: string } = {}, ...rest) {}",
            Execute::Function { params: vec!["{ location }".into(), "...rest".into()].into() },
        ),
        ("execute: 'run'", Execute::NotFunction),
        ("execute: 42", Execute::NotFunction),
        ("execute: {}", Execute::NotFunction),
        ("execute: handler", Execute::Other),
        ("execute: make()", Execute::Other),
    ];
    for (property, expected) in cases {
        let text = format!("export default {{ {property} }}");
        assert_eq!(found(&object(&run("a.ts", &text)).execute), expected, "{property}");
    }
    let text = "const run = async (args, context) => {}\nexport default { execute: run }";
    let params = vec!["args".into(), "context".into()];
    assert_eq!(found(&object(&run("a.ts", text)).execute), Execute::Function { params: params.into() });
}

#[test]
fn spread_and_computed_keys() {
    let text = "const base = {}\nexport default { ...base, description: 'd', ['parameters']: {} }";
    let facts = run("a.ts", text);
    let export = object(&facts);
    assert_eq!(found(&export.description), Description::Text("d".into()));
    // `['parameters']` spells the key out, after the spread: it is what the object holds.
    assert!(found(&export.parameters).is_object_literal);
    let shown = format!("{:?}", export.execute);
    assert!(shown.contains("Unanalyzable") && shown.contains("the object spreads `base`"), "{shown}");
    match &export.execute {
        Field::Unanalyzable { span, .. } => assert_eq!(slice(text, *span), "...base"),
        other => panic!("{other:?}"),
    }
    assert!(facts.execute.is_none());
    // Keys count in every spelling, a `const` key too; a symbol names no field; another computed key may be any.
    for key in ["'description'", "['description']", "[`description`]"] {
        let facts = run("a.ts", &format!("export default {{ {key}: 'd' }}"));
        assert_eq!(found(&object(&facts).description), Description::Text("d".into()), "{key}");
    }
    let facts = run("a.ts", "const k = 'description'\nexport default { [k]: 'd' }");
    assert_eq!(found(&object(&facts).description), Description::Text("d".into()));
    let facts = run("a.ts", "export default { [Symbol.iterator]: 'd' }");
    assert_eq!(object(&facts).description, Field::Missing);
    let facts = run("a.ts", "export default { [key()]: 'd' }");
    assert!(matches!(object(&facts).description, Field::Unanalyzable { .. }));
}

#[test]
fn imports_of_every_kind() {
    let text = r#"#!/usr/bin/env bun
import 'side-effect'
import def, { a } from './a.js'
import * as ns from 'node:fs'
import type { T } from '@opencode-ai/plugin'
import { type A, type B } from './types'
import { type C, d } from './mixed'
import {} from './empty'
export { x } from './x'
export type { Y } from './y'
export { type Z } from './z'
export * from './star'
export type * from './star-types'
import fs = require('fs')
const lazy = await import('./lazy')
const tpl = import(`./tpl`)
const notStatic = import(name)
const dep = require('dep')
const notDep = require(name)
function later() { return require('./nested') }
"#;
    let facts = run("a.ts", text);
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
    let got: Vec<_> = facts.imports.iter().map(|i| (i.specifier.as_str(), i.kind, i.type_only)).collect();
    use ImportKind::*;
    assert_eq!(
        got,
        [
            ("side-effect", Static, false),
            ("./a.js", Static, false),
            ("node:fs", Static, false),
            ("@opencode-ai/plugin", Static, true),
            ("./types", Static, true),
            ("./mixed", Static, false),
            ("./empty", Static, false),
            ("./x", ReExport, false),
            ("./y", ReExport, true),
            ("./z", ReExport, true),
            ("./star", ReExport, false),
            ("./star-types", ReExport, true),
            ("fs", Require, false),
            ("./lazy", Dynamic, false),
            ("./tpl", Dynamic, false),
            ("dep", Require, false),
            ("./nested", Require, false),
        ]
    );
    let spans: Vec<_> = facts.imports.iter().map(|i| slice(text, i.span)).collect();
    assert_eq!(spans[0], "import 'side-effect'");
    assert_eq!(spans[13], "import('./lazy')");
    assert_eq!(spans[15], "require('dep')");
}

#[test]
fn commonjs_requires() {
    let text = "const { a } = require('./a.cjs');\nmodule.exports = { description: require('./d.json').text };";
    let facts = run("a.cjs", text);
    let got: Vec<_> = facts.imports.iter().map(|i| i.specifier.as_str()).collect();
    assert_eq!(got, ["./a.cjs", "./d.json"]);
    assert_eq!(found(&object(&facts).description), Description::Other);
}

#[test]
fn env_reads() {
    let text = r#"
const key = process.env.OPENAI_API_KEY
const other = process.env['X']
const { A, B: renamed, ...rest } = process.env
const bun = Bun.env.BUN_KEY
const bun2 = Bun.env["BUN_2"]
const dynamic = process.env[name]
const optional = process?.env?.OPT
const notEnv = process.envs.X
"#;
    let facts = run("a.ts", text);
    let got: Vec<_> = facts.env_reads.iter().map(|r| (r.name.as_str(), r.via, slice(text, r.span))).collect();
    assert_eq!(
        got,
        [
            ("OPENAI_API_KEY", "process.env", "process.env.OPENAI_API_KEY"),
            ("X", "process.env", "process.env['X']"),
            ("A", "process.env", "A"),
            ("B", "process.env", "B: renamed"),
            ("BUN_KEY", "Bun.env", "Bun.env.BUN_KEY"),
            ("BUN_2", "Bun.env", "Bun.env[\"BUN_2\"]"),
            ("OPT", "process.env", "process?.env?.OPT"),
        ]
    );
}

#[test]
fn context_env_reads() {
    let text = r#"
export default {
  async execute(args, ctx) {
    const a = ctx.env.FIRST
    const b = ctx.env['SECOND']
    const { THIRD, FIRST } = ctx.env
    return context.env.NOT_THE_PARAMETER
  },
}
"#;
    assert_eq!(run("a.ts", text).context_env.to_vec(), ["FIRST", "SECOND", "THIRD"]);
    // Without a second parameter, the usual names count.
    let text = "function helper(ctx) { return ctx.env.B }\n\
                export default { execute(args) { return context.env.A + helper(globalThis.ctx) } }";
    assert_eq!(run("a.ts", text).context_env.to_vec(), ["B", "A"]);
    // The context's `env` destructured or bound to a name, inside `execute` only.
    let text = "const env = load(); env.OUTSIDE\n\
                export default { execute(args, { env: e, signal }) {\n\
                  const { env } = context; const direct = context.env\n\
                  return [e.ONE, env['TWO'], direct.THREE, e.ONE] } }";
    assert_eq!(run("a.ts", text).context_env.to_vec(), ["ONE", "TWO", "THREE"]);
}

#[test]
fn fetch_signals() {
    let text = r#"
fetch('https://outside.example.com')
export default {
  async execute(args, context) {
    await fetch(url)
    await fetch(url, { method: 'POST' })
    await fetch(url, { signal: context.signal })
    await fetch(url, { signal })
    await fetch(url, options)
    await fetch(url, { ...options })
    await fetch(url, { [key]: value })
    await globalThis.fetch(url, { headers: {} })
    await fetch(...args)
    await fetch(new Request(url, { signal: context.signal }))
    await fetch(new Request(url, init))
    await fetch(new Request(url))
    const nested = () => fetch(url)
  },
}
"#;
    let facts = run("a.ts", text);
    let got: Vec<_> = facts.execute.unwrap().fetch_without_signal.iter().map(|s| slice(text, *s)).collect();
    assert_eq!(
        got,
        [
            "fetch(url)",
            "fetch(url, { method: 'POST' })",
            "globalThis.fetch(url, { headers: {} })",
            "fetch(new Request(url))",
            "fetch(url)"
        ]
    );
    let text = "async function run(args, context) { return fetch(args.url) }\nexport default { execute: run }";
    assert_eq!(run("a.ts", text).execute.unwrap().fetch_without_signal.len(), 1);
}

#[test]
fn lint_comments() {
    let text = "// beeuni-lint: ignore[module-process-env] -- reason\n\
                /* beeuni-lint: ignore[module-fetch-signal] */\n\
                // an ordinary comment\n\
                export default {}\n";
    let facts = run("a.ts", text);
    let got: Vec<_> = facts.comments().iter().map(|(s, t)| (slice(text, *s), t.as_str())).collect();
    assert_eq!(
        got,
        [
            (
                "// beeuni-lint: ignore[module-process-env] -- reason",
                " beeuni-lint: ignore[module-process-env] -- reason"
            ),
            ("/* beeuni-lint: ignore[module-fetch-signal] */", " beeuni-lint: ignore[module-fetch-signal] ")
        ]
    );
}

#[test]
fn syntax_error_with_position() {
    let text = "export default {\n  description: 'x',\n  parameters: { type: 'object' ,, },\n}\n";
    let facts = run("a.ts", text);
    assert!(!facts.syntax_errors().is_empty());
    let error = &facts.syntax_errors()[0];
    assert!(!error.message.is_empty());
    assert_eq!(error.span.start, text.find(",,").unwrap() + 1, "{error:?}");
    // TypeScript is a syntax error in a `.js` module; a top-level `return` only in an ES module.
    assert!(!run("a.js", "const x: number = 1\nexport default {}").syntax_errors().is_empty());
    assert!(!run("a.mjs", "return").syntax_errors().is_empty());
    assert!(run("a.cjs", "if (!ok) return\nmodule.exports = {}").syntax_errors().is_empty());
    assert!(run("a.js", "if (!ok) return\nmodule.exports = {}").syntax_errors().is_empty());
}

#[test]
fn comments_survive_a_parser_that_gives_up() {
    let text = "// beeuni-lint: ignore[module-syntax]\nexport default {{{ ]]] \n";
    let facts = run("a.ts", text);
    assert!(!facts.syntax_errors().is_empty());
    assert_eq!(facts.comments().len(), 1);
}

/// The facts of a module that was not analysed: nothing but why, and where.
fn not_analysed(facts: ModuleFacts) -> NotAnalysed {
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
    assert!(facts.default_export.is_none() && facts.imports.is_empty(), "{facts:?}");
    facts.not_analysed().expect("not analysed").clone()
}

#[test]
fn fifty_thousand_parentheses_are_not_analysed() {
    let text = format!("export default {}1{}", "(".repeat(50_000), ")".repeat(50_000));
    let not = not_analysed(on_big_stack(move || run("a.ts", &text)));
    assert_eq!(not.why, "is nested more than 5000 brackets deep, deeper than beeuni-lint analyses");
    assert_eq!(not.span, Span::new(15 + 5000, 15 + 5001));
}

#[test]
fn other_deep_chains_are_not_analysed() {
    let chained = "chains operators or statements deeper than beeuni-lint analyses";
    let cases = [
        format!("x = {}1", "!".repeat(500_000)),
        format!("x = {}1", "a => ".repeat(200_000)),
        format!("x = {}1", "a = ".repeat(200_000)),
        format!("x = {}1", "a ? b : ".repeat(200_000)),
        format!("{}{{}}", "if (a) x; else ".repeat(200_000)),
        format!("x = `{}`", "${`".repeat(50_000)),
        format!("let x: {}A", "keyof ".repeat(300_000)),
        format!("x = {}1", "<A>".repeat(500_000)),
        format!("let x: A<{}1{}", "1, A<".repeat(60_000), ">".repeat(60_000)),
        // Nested without a bracket for the checker to recurse into (it walks types too).
        format!("type T = A{}", "[]".repeat(200_000)),
        format!("type T = A{}", "['k'] ".repeat(200_000)),
    ];
    for text in cases {
        // Refused by the scan, before the parser could overflow.
        let why = not_analysed(on_big_stack(move || run("a.ts", &text))).why;
        assert!(why == chained || why.contains("brackets deep"), "{why}");
    }
}

#[test]
fn long_flat_chains_stop_the_visitor_not_the_stack() {
    // The parser builds these without recursing; the visitor must not recurse all the way down.
    let visited =
        "nests more than 25000 expressions and statements inside one another, deeper than beeuni-lint analyses";
    let cases = [
        format!("x = a{}", ".b".repeat(100_000)),
        format!("x = 'a'{}", " + 'a'".repeat(100_000)),
        format!("x = f{}", "()".repeat(100_000)),
    ];
    for text in cases {
        assert_eq!(not_analysed(on_big_stack(move || run("a.ts", &text))).why, visited);
    }
    let text = format!("x = 'a'{}", " + 'a'".repeat(20_000));
    assert!(on_big_stack(move || run("a.ts", &text)).is_whole());
}

/// Deeper than the 1,000 brackets of earlier versions, as Bun loads them: analysed (a regression: these were
/// `module-syntax` errors).
#[test]
fn five_thousand_levels_parse_and_visit() {
    let inner = format!("{}process.env.DEEP{}", "(".repeat(4_998), ")".repeat(4_998));
    let text = format!(
        "export default {{ description: 'd', async execute(args, context) {{ return {inner} + fetch(url) }} }}"
    );
    let facts = on_big_stack(move || run("a.ts", &text));
    assert!(facts.is_whole(), "{:?} {:?}", facts.syntax_errors(), facts.not_analysed());
    assert_eq!(facts.env_reads.len(), 1);
    assert_eq!(facts.execute.unwrap().fetch_without_signal.len(), 1);
    for (open, close) in [("[", "]"), ("{a:", "}"), ("function () { return ", "}"), ("`${", "}`")] {
        let text = format!("x = {}1{}", open.repeat(4_999), close.repeat(4_999));
        assert!(on_big_stack(move || run("a.ts", &text)).is_whole(), "{open}");
    }
}

#[test]
fn short_modules_are_not_scanned_but_keep_their_comments() {
    // Under 5,001 bytes nothing can reach the limits; a parser that gives up still leaves the ignore comments.
    let text = "// beeuni-lint: ignore[module-syntax]\nexport default (((((\n";
    let facts = run("a.ts", text);
    assert!(!facts.syntax_errors().is_empty());
    assert_eq!(facts.comments().len(), 1);
    let text = "(".repeat(5_000);
    assert!(on_big_stack(move || run("a.ts", &text)).not_analysed().is_none());
}

#[test]
fn the_scan_skips_strings_comments_and_regular_expressions() {
    let noise = "'((((' + \"[[[[\" + `{{{{ ${'(('} ` + /\\([((]/.source // ((((\n /* [[[[ */ + ";
    let text = format!("x = {}1{}", format!("({noise}").repeat(999), ")".repeat(999));
    assert!(on_big_stack(move || run("a.ts", &text)).syntax_errors().is_empty());
    // Brackets in control-flow heads and a regular expression after them.
    let text = "if (a) /[)]/.test(b); while (x) { y = a / b / c }".repeat(2_000);
    assert!(run("a.ts", &text).syntax_errors().is_empty());
}

#[test]
fn a_module_of_ordinary_size_is_not_refused() {
    // Many statements at one level must not add up to a nesting depth.
    let text = "if (a) { b = !c ? d : e } else { f = g => h }\nx = y ? -1 : +2;\n".repeat(5_000);
    let facts = on_big_stack(move || run("a.ts", &text));
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
}

#[test]
fn truncated_modules_never_panic() {
    let mut allocator = Allocator::default();
    for text in [LOOKUP_ORDER, WEATHER_NOW, ZOD] {
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            for path in ["a.ts", "a.cjs"] {
                let facts = analyse(path, &text[..end], &mut allocator);
                assert!(facts.syntax_errors().iter().all(|e| e.span.end <= end.max(1)), "{end}: {facts:?}");
            }
        }
    }
}
