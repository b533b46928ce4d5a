//! What a tool object's fields hold: description, parameters and execute, spreads and computed keys.

use super::*;

#[test]
fn field_values() {
    let text = r#"
const schema = { 'type': `object`, properties: { a: {}, 'b-c': {} }, required: ['a', 'z', `b-c`, 3, `y`] }
const describe = 'shared'
async function run(toolCallId, params, signal, onUpdate, ctx) {}
export default { 'description': describe, parameters: schema, execute: run }
"#;
    let facts = run("a.ts", text);
    let object = object(&facts);
    assert_eq!(found(&object.description), Description::Text { blank: false });
    // The binding's value is what is read: a blank one is blank.
    let blank = text.replace("'shared'", "' '");
    let facts = run("a.ts", &blank);
    assert_eq!(found(&super::object(&facts).description), Description::Text { blank: true });
    let parameters = found(&object.parameters);
    assert_eq!(parameters.type_value.as_deref(), Some("object"));
    assert_eq!(parameters.properties, Some(Properties::new(["a", "b-c"])));
    let undefined: Vec<(&str, &str)> =
        parameters.required_undefined.iter().map(|(name, at)| (name.as_str(), slice(text, *at))).collect();
    assert_eq!(undefined, [("z", "'z'"), ("y", "`y`")]);
    let params = ["toolCallId", "params", "signal", "onUpdate", "ctx"].map(InlineStr::from).to_vec();
    assert_eq!(found(&object.execute), Execute::Function { params: Params::new(&params) });
}

/// A schema of many names: the names `required` lists and `properties` does not define are found as for a short one
/// (by hash past 64 pairs), in the order written.
#[test]
fn required_names_of_a_large_schema() {
    let properties: Vec<String> = (0..40).map(|i| format!("p{i}: {{}}")).collect();
    let required: Vec<String> = (0..40).rev().map(|i| format!("'p{i}'")).chain(["'q'".into(), "'p'".into()]).collect();
    let text = format!(
        "export default {{ description: 'd', parameters: {{ type: 'object', properties: {{ {} }}, required: [{}] }} }}",
        properties.join(", "),
        required.join(", ")
    );
    let facts = run("a.ts", &text);
    let parameters = found(&object(&facts).parameters);
    let undefined: Vec<&str> = parameters.required_undefined.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(undefined, ["q", "p"]);
}

#[test]
fn xcsh_order_execute_params() {
    let text = "export default { description: 'd', parameters: { type: 'object' },\n\
                async execute(toolCallId, params, signal, onUpdate, ctx) { return ctx.env.X } }";
    let facts = run("a.ts", text);
    let params = ["toolCallId", "params", "signal", "onUpdate", "ctx"].map(InlineStr::from).to_vec();
    assert_eq!(found(&object(&facts).execute), Execute::Function { params: Params::new(&params) });
    // The second parameter is `params`, so `ctx.env.X` is not read as `context.env`.
    assert!(facts.context_env.is_empty());
}

#[test]
fn description_kinds() {
    let cases = [
        ("'x'", Description::Text { blank: false }),
        ("`multi\nline`", Description::Text { blank: false }),
        ("' \\t\\n'", Description::Text { blank: true }),
        ("`\n `", Description::Text { blank: true }),
        ("'\\u0020'", Description::Text { blank: true }),
        ("' x '", Description::Text { blank: false }),
        ("`a ${b}`", Description::Other),
        ("d", Description::Other),
        ("t('x')", Description::Other),
        ("42", Description::NotString),
        ("null", Description::NotString),
        ("undefined", Description::NotString),
        ("{}", Description::NotString),
        ("['x']", Description::NotString),
        ("''", Description::Text { blank: true }),
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
    assert!(parameters.required_undefined.is_empty(), "`properties` is not read");
    let text = "export default { parameters: { properties: { [k]: {} } } }";
    let parameters = found(&object(&run("a.ts", text)).parameters);
    assert!(!parameters.has_type);
    assert_eq!(parameters.properties, None);
    // The names are kept joined in one string: none, one empty name and two are told apart, and a name holding a
    // NUL (the separator, until a name holds it) is kept whole and `required` read against it.
    for (properties, names) in [("{}", &[][..]), ("{ '': {} }", &[""]), ("{ '': {}, a: {} }", &["", "a"])] {
        let text = format!("export default {{ parameters: {{ properties: {properties}, required: [''] }} }}");
        let parameters = found(&object(&run("a.ts", &text)).parameters);
        let kept = parameters.properties.unwrap();
        assert_eq!((kept.iter().collect::<Vec<_>>(), kept.len()), (names.to_vec(), names.len()), "{properties}");
        assert_eq!(parameters.required_undefined.len(), usize::from(names.is_empty()), "{properties}");
    }
    let text = "export default { parameters: { properties: { 'a\\0b': {}, c: {} }, required: ['a\0b', 'c', 'a'] } }";
    let parameters = found(&object(&run("a.ts", text)).parameters);
    let kept = parameters.properties.unwrap();
    assert_eq!(kept.iter().collect::<Vec<_>>(), ["a\0b", "c"]);
    let undefined: Vec<&str> = parameters.required_undefined.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(undefined, ["a"]);
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
        ("execute: async (args, { env }) => {}", Execute::Function { params: Params::new(["args", "{ env }"]) }),
        (
            "execute: function ({ location }: { location: string } = {}, ...rest) {}",
            Execute::Function { params: Params::new(["{ location }", "...rest"]) },
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
    let params = ["args", "context"];
    assert_eq!(found(&object(&run("a.ts", text)).execute), Execute::Function { params: Params::new(params) });
}

/// Spreads of module-level objects (and of what the AI SDK's `tool({...})` is given) and reads of their fields are
/// followed, so the fields are checked where they are written; what may change them stays unanalysable.
#[test]
fn spreads_and_member_reads_of_module_level_objects() {
    let text = "import { tool } from 'ai'\nimport { z } from 'zod'\n\
                const base = tool({ description: 'd', parameters: z.object({}), execute: async () => 1 })\n\
                export default { ...base, execute: async (args) => 2 }";
    let facts = run("a.ts", text);
    let export = object(&facts);
    assert_eq!(found(&export.description), Description::Text { blank: false });
    match &export.parameters {
        Field::Found { span, value } => {
            assert_eq!((slice(text, *span), value.zod.as_deref()), ("parameters: z.object({})", Some("z.object({})")))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(found(&export.execute), Execute::Function { params: Params::new(["args"]) });
    let text = "const details = { function: { description: 'd', parameters: { properties: {} } } }\n\
                export default { description: details.function.description, parameters: details.function.parameters, execute() {} }";
    let export = object(&run("a.ts", text)).clone();
    assert_eq!(found(&export.description), Description::Text { blank: false });
    assert!(!found(&export.parameters).has_type);
    // A spread after the field, a spread of a cycle, a `let` written later: not read.
    let after =
        "import x from 'x'\nconst d = { description: 'd', ...x }\nexport default { description: d.description }";
    assert_eq!(found(&object(&run("a.ts", after)).description), Description::Other);
    let cycle = "const a = { ...b }\nconst b = { ...a }\nexport default { ...a }";
    let shown = format!("{:?}", object(&run("a.ts", cycle)).description);
    assert!(shown.contains("Unanalyzable") && shown.contains("the object spreads"), "{shown}");
    let later = "let base = { description: 'd' }\nbase = {}\nexport default { ...base }";
    assert!(matches!(kind("a.ts", later), DefaultExportKind::Unanalyzable { .. }));
}

#[test]
fn spread_and_computed_keys() {
    let text = "import { base } from './base'\nexport default { ...base, description: 'd', ['parameters']: {} }";
    let facts = run("a.ts", text);
    let export = object(&facts);
    assert_eq!(found(&export.description), Description::Text { blank: false });
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
        assert_eq!(found(&object(&facts).description), Description::Text { blank: false }, "{key}");
    }
    let facts = run("a.ts", "const k = 'description'\nexport default { [k]: 'd' }");
    assert_eq!(found(&object(&facts).description), Description::Text { blank: false });
    let facts = run("a.ts", "export default { [Symbol.iterator]: 'd' }");
    assert_eq!(object(&facts).description, Field::Missing);
    let facts = run("a.ts", "export default { [key()]: 'd' }");
    assert!(matches!(object(&facts).description, Field::Unanalyzable { .. }));
}
