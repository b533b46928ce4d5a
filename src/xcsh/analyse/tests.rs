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

#[test]
fn ui_guards_cover_if_ternary_and_early_return() {
    let source = "export default (pi) => ({ name: 'a', description: 'd', parameters: {}, execute(id, p, u, ctx) {\n  if (pi.hasUI) { pi.ui.notify('a') } else { ctx.ui.notify('b') }\n  const x = ctx.hasUI ? ctx.ui.confirm() : null\n  pi.hasUI && pi.ui.notify('c')\n  const interactive = pi.hasUI\n  if (interactive) pi.ui.notify('f')\n  if (!pi.hasUI) return\n  pi.ui.notify('d')\n}, onSession(event, c2) { c2.ui.notify('e') } })";
    let unguarded: Vec<_> = facts(source).unguarded_ui.into_iter().map(|(_, w)| w).collect();
    assert_eq!(unguarded, ["c2.ui"]);
}

#[test]
fn an_object_with_a_name_is_a_tool_not_the_beeuni_form() {
    let f = facts(&format!("export default {TOOL}"));
    assert!(matches!(f.export, Export::NotFunction { beeuni: false, ref what, .. } if what == "an object"));
    let f = facts("export { default } from './impl'");
    assert!(matches!(f.export, Export::Unanalyzable { ref why, .. } if why.contains("re-exported from `./impl`")));
}

/// The bindings are the Beeuni module analyser's (`modules::analyse::bindings`), `const` values only: a class is
/// not followed, and `import x = require(...)` is an import.
#[test]
fn shared_top_level_bindings() {
    let why = |source: &str| match facts(source).export {
        Export::Unanalyzable { why, .. } => why,
        other => panic!("{other:?}"),
    };
    assert_eq!(why("import f = require('./impl')\nexport default f"), "the factory is `f`, imported from `./impl`");
    assert!(why("class F {}\nexport default F").contains("`F`"));
    assert!(why("let f = (pi) => ({})\nexport default f").contains("`f`"));
}
