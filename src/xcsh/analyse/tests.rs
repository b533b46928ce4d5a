use super::analyse;
use crate::xcsh::facts::*;

fn facts(source: &str) -> XcshFacts {
    analyse("t.ts", source).expect("parses")
}

fn tools(facts: &XcshFacts) -> Vec<&Tool> {
    let Export::Factory(Factory { returns: Returns::Values(values), .. }) = &facts.export else {
        panic!("no factory returning values: {:?}", facts.export)
    };
    values.iter().filter_map(|v| if let Returned::Tool(t) = v { Some(t) } else { None }).collect()
}

const TOOL: &str = "{ name: 'a', description: 'd', parameters: Type.Object({}), execute(id, params) {} }";

#[test]
fn commonjs_promises_conditionals_and_local_consts_are_followed() {
    let f = facts(&format!(
        "module.exports = async (pi) => {{ const t = {TOOL}; return Promise.resolve(pi.x ? [t] : t) }}"
    ));
    let found = tools(&f);
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|t| t.missing.is_empty() && matches!(t.parameters, Some((_, Parameters::TypeBox)))));
}

#[test]
fn a_let_binding_is_not_guessed() {
    let f = facts(&format!("export default (pi) => {{ let t = {TOOL}; return t }}"));
    let Export::Factory(Factory { returns: Returns::Values(values), .. }) = &f.export else { panic!() };
    assert!(matches!(&values[..], [Returned::Unanalyzable { why, .. }] if why.contains("`t`")), "{values:?}");
}

#[test]
fn typebox_through_a_destructured_or_imported_type_and_zod_through_a_chain() {
    let f = facts(
        "import * as tb from '@sinclair/typebox'\nimport { z } from 'zod'\nconst P = tb.Object({})\nexport default (pi) => [{ name: 'a', parameters: P }, { name: 'b', parameters: z.object({}).describe('x') }, { name: 'c', parameters: helper() }]",
    );
    let kinds: Vec<_> = tools(&f).iter().map(|t| t.parameters.clone().unwrap().1).collect();
    assert_eq!(kinds, [Parameters::TypeBox, Parameters::Zod, Parameters::Other]);
}

#[test]
fn exec_needs_a_signal_inside_execute_only() {
    let source = "export default ({ exec }) => ({ name: 'a', description: 'd', parameters: {}, async execute(id, p, u, ctx, signal) { await exec('ls', [], { cwd: '.' }); await exec('ls', [], opts); await exec('ls', [], { signal }) } })\nexport async function outside(pi) { await pi.exec('ls') }";
    assert_eq!(facts(source).exec_without_signal.len(), 1);
}

/// The UI uses no test guards, each with whether a test says there is no UI there (an inverted guard).
fn unguarded(body: &str) -> Vec<(String, bool)> {
    let source = format!(
        "export default (pi) => ({{ name: 'a', description: 'd', parameters: {{}}, execute(id, p, u, ctx) {{\n{body}\n}} }})"
    );
    facts(&source).unguarded_ui.into_iter().map(|u| (u.written, u.inverted)).collect()
}

#[test]
fn ui_guards_cover_if_ternary_and_early_return() {
    let source = "export default (pi) => ({ name: 'a', description: 'd', parameters: {}, execute(id, p, u, ctx) {\n  if (pi.hasUI) { pi.ui.notify('a') }\n  const x = ctx.hasUI ? ctx.ui.confirm() : null\n  pi.hasUI && pi.ui.notify('c')\n  const interactive = pi.hasUI\n  if (interactive) pi.ui.notify('f')\n  if (!pi.hasUI) return\n  pi.ui.notify('d')\n}, onSession(event, c2) { c2.ui.notify('e') } })";
    let unguarded: Vec<_> = facts(source).unguarded_ui.into_iter().map(|u| (u.written, u.inverted)).collect();
    assert_eq!(unguarded, [("c2.ui".to_string(), false)]);
}

#[test]
fn guards_read_through_negations_comparisons_and_flags() {
    for guarded in [
        "if (!(!pi.hasUI)) pi.ui.notify('a')",
        "if (pi.hasUI === true) pi.ui.notify('a')",
        "if (ctx.hasUI !== false && p.verbose) ctx.ui.notify('a')",
        "const headless = !pi.hasUI\nif (!headless) pi.ui.notify('a')",
        "if (Boolean(pi.hasUI)) pi.ui.notify('a')",
        "if (!pi.hasUI) { return } else { pi.ui.notify('a') }",
        "if (pi.hasUI) {} else { return }\npi.ui.notify('a')",
    ] {
        assert_eq!(unguarded(guarded), [], "{guarded}");
    }
}

#[test]
fn an_inverted_test_is_no_guard() {
    let inverted = |body: &str| unguarded(body).into_iter().map(|(_, inverted)| inverted).collect::<Vec<_>>();
    assert_eq!(inverted("pi.hasUI || pi.ui.notify('a')"), [true]);
    assert_eq!(inverted("if (pi.hasUI) return 'done'\npi.ui.notify('a')"), [true]);
    assert_eq!(inverted("if (pi.hasUI) { x() } else { ctx.ui.notify('a') }"), [true]);
    assert_eq!(inverted("const headless = !pi.hasUI\nheadless && pi.ui.notify('a')"), [true]);
    assert_eq!(inverted("!pi.hasUI ? pi.ui.notify('a') : null"), [true]);
    // A test that says nothing of `hasUI` either way is no guard, and not an inverted one.
    assert_eq!(inverted("pi.hasUI ?? pi.ui.notify('a')"), [false]);
    assert_eq!(inverted("if (pi.hasUI || p.force) pi.ui.notify('a')"), [false]);
}

#[test]
fn returned_values_that_are_no_tool() {
    let returned = |source: &str| match facts(source).export {
        Export::Factory(Factory { returns: Returns::Values(values), .. }) => values
            .into_iter()
            .map(|v| match v {
                Returned::NotTool { what, .. } => what,
                Returned::Tool(_) => "tool".into(),
                Returned::Unanalyzable { why, .. } => why,
            })
            .collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    let source = format!("export default (pi) => pi.x ? [{TOOL}, null] : Promise.resolve(void 0)");
    assert_eq!(returned(&source), ["tool", "`null`", "`void 0`"]);
    let source = "export default (pi) => { if (pi.x) return; if (pi.y) return 42; return undefined }";
    assert_eq!(returned(source), ["`undefined` (a bare `return;`)", "`42`", "`undefined`"]);
    // Only bare returns: the factory returns nothing.
    assert!(matches!(
        facts("export default (pi) => { return }").export,
        Export::Factory(Factory { returns: Returns::Nothing, .. })
    ));
}

#[test]
fn a_named_factory_alone_is_not_taken_by_the_loader() {
    for source in [
        "export function make(pi) {}",
        "export const make = (pi) => ({})",
        "const make = (pi) => ({})\nexport { make }",
    ] {
        assert_eq!(facts(source).export, Export::NamedOnly { local: "make".into() }, "{source}");
    }
    assert_eq!(facts("export const make = 1").export, Export::Missing);
}

#[test]
fn an_object_with_a_name_is_a_tool_not_the_beeuni_form() {
    let f = facts(&format!("export default {TOOL}"));
    assert!(
        matches!(f.export, Export::NotFunction { beeuni: false, ref what, ref keys, .. } if what == "an object" && keys == &["name", "description", "parameters", "execute"])
    );
    let f = facts("const lookup = { description: 'd', execute(args) {} }\nexport default lookup");
    assert!(
        matches!(f.export, Export::NotFunction { beeuni: true, ref binding, .. } if binding.as_deref() == Some("lookup"))
    );
    let f = facts("export { default } from './impl'");
    assert!(matches!(f.export, Export::Unanalyzable { ref why, .. } if why == "it is re-exported from `./impl`"));
}

/// The bindings are the Beeuni module analyser's (`modules::analyse::bindings`), `const` values only: a class is
/// not followed, and `import x = require(...)` is an import.
#[test]
fn shared_top_level_bindings() {
    let why = |source: &str| match facts(source).export {
        Export::Unanalyzable { why, .. } => why,
        other => panic!("{other:?}"),
    };
    assert_eq!(why("import f = require('./impl')\nexport default f"), "it is `f`, imported from `./impl`");
    assert!(why("class F {}\nexport default F").contains("`F`"));
    assert!(why("let f = (pi) => ({})\nexport default f").contains("`f`"));
}

/// Bun reads `exports.default` as the default export only beside `__esModule` (TypeScript's and Babel's output);
/// without it the default export is the exports object. `module.exports =` wins over both.
#[test]
fn commonjs_exports_default_needs_es_module() {
    let factory = format!("(pi) => ({TOOL})");
    let f = facts(&format!("exports.default = {factory}"));
    assert!(matches!(f.export, Export::CommonJsDefault { .. }), "{:?}", f.export);
    for marked in [
        format!("Object.defineProperty(exports, '__esModule', {{ value: true }})\nexports.default = {factory}"),
        format!("exports.__esModule = true\nmodule.exports.default = {factory}"),
        format!("exports.default = 1\nmodule.exports = {factory}"),
        // A chain exports its last value, as the modules' analysis reads it (the two share `commonjs_statement`).
        format!("exports = module.exports = {factory}"),
        format!("export = {factory}"),
    ] {
        assert!(matches!(facts(&marked).export, Export::Factory(_)), "{marked}");
    }
}
