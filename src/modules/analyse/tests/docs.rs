//! The platform docs' own example modules, read whole.

use super::*;

pub(super) const LOOKUP_ORDER: &str = r#"// tools/lookup_order.ts
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

pub(super) const WEATHER_NOW: &str = r#"// tools/weather_now.ts
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

pub(super) const ZOD: &str = r#"import { z } from 'zod'

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
    assert_eq!(found(&object.description), Description::Text { blank: false });
    let parameters = found(&object.parameters);
    assert_eq!(parameters.type_value.as_deref(), Some("object"));
    assert!(parameters.has_type && parameters.is_object_literal);
    assert_eq!(parameters.properties, Some(Properties::new(["id", "include_items"])));
    assert!(slice(LOOKUP_ORDER, parameters.properties_span.unwrap()).starts_with("properties: {"));
    assert!(parameters.required_undefined.is_empty(), "`id` is defined");
    assert_eq!(found(&object.execute), Execute::Function { params: Params::new(["args", "context"]) });
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
    assert!(matches!(found(&object.description), Description::Text { blank: false }));
    let parameters = found(&object.parameters);
    assert_eq!(parameters.properties, Some(Properties::new(["city"])));
    assert!(parameters.required_undefined.is_empty(), "`city` is defined");
    assert_eq!(found(&object.execute), Execute::Function { params: Params::new(["args", "context"]) });
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
    assert_eq!(found(&object.execute), Execute::Function { params: Params::new(["args"]) });
    assert_eq!(facts.imports.len(), 1);
    assert_eq!(facts.imports[0].specifier, "zod");
    assert_eq!(facts.imports[0].kind, ImportKind::Static);
    assert!(!facts.imports[0].type_only);
    assert_eq!(slice(ZOD, facts.imports[0].span), "import { z } from 'zod'");
}
