//! A checker for the part of JSON Schema draft 4 that the vendored OASIS SARIF 2.1.0 schema uses, so the tests
//! validate what the renderer writes without a schema crate.

use serde_json::{Value, json};

use crate::render::fixture;
use crate::render::sarif::render;

/// The output parsed, after checking it against the OASIS schema.
pub(super) fn parse(text: &str) -> Value {
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
    let log = serde_json::from_str(text).unwrap();
    assert_eq!(errors(&log), Vec::<String>::new(), "not valid SARIF 2.1.0");
    log
}

fn errors(log: &Value) -> Vec<String> {
    // The OASIS standard file, vendored so that a clone tests on its own.
    let schema: Value = serde_json::from_str(include_str!("../../../tests/schemas/sarif-schema-2.1.0.json")).unwrap();
    let mut errors = Vec::new();
    check(&schema, &schema, log, "", &mut errors);
    errors
}

/// Validates against the part of JSON Schema draft 4 the SARIF schema uses. `pattern` and `oneOf` (only
/// on properties this renderer never writes) count as failures; `format` is only roughly checked.
fn check(schema: &Value, root: &Value, value: &Value, at: &str, out: &mut Vec<String>) {
    if let Some(reference) = schema["$ref"].as_str() {
        return check(root.pointer(&reference[1..]).unwrap(), root, value, at, out);
    }
    let mut fail = |what: &str| out.push(format!("{at}: {what}"));
    let is = |kind: &Value| match kind.as_str().unwrap() {
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => value.is_null(),
    };
    if schema.get("type").is_some_and(|t| !t.as_array().map_or_else(|| is(t), |ts| ts.iter().any(is))) {
        fail("type");
    }
    if schema["enum"].as_array().is_some_and(|values| !values.contains(value)) {
        fail("enum");
    }
    if let Some(n) = value.as_f64()
        && (schema["minimum"].as_f64().is_some_and(|min| n < min)
            || schema["maximum"].as_f64().is_some_and(|max| n > max))
    {
        fail("range");
    }
    if schema.get("oneOf").is_some() || (value.is_string() && schema.get("pattern").is_some()) {
        fail("unchecked keyword");
    }
    if let (Some(format), Some(s)) = (schema["format"].as_str(), value.as_str())
        && (s.contains(char::is_whitespace) || (format == "uri" && !s.contains(':')))
    {
        fail("format");
    }
    let passes = |s: &Value| {
        let mut errors = Vec::new();
        check(s, root, value, at, &mut errors);
        errors.is_empty()
    };
    if schema["anyOf"].as_array().is_some_and(|any| !any.iter().any(passes)) {
        fail("anyOf");
    }
    if let Some(items) = value.as_array() {
        if schema["minItems"].as_u64().is_some_and(|min| (items.len() as u64) < min) {
            fail("minItems");
        }
        if schema["uniqueItems"] == true && items.iter().enumerate().any(|(i, x)| items[..i].contains(x)) {
            fail("uniqueItems");
        }
        for (i, item) in items.iter().enumerate().filter(|_| schema.get("items").is_some()) {
            check(&schema["items"], root, item, &format!("{at}/{i}"), out);
        }
    }
    for (key, item) in value.as_object().into_iter().flatten() {
        match (schema["properties"].get(key), &schema["additionalProperties"]) {
            (Some(s), _) | (None, s @ Value::Object(_)) => check(s, root, item, &format!("{at}/{key}"), out),
            (None, Value::Bool(false)) => out.push(format!("{at}: `{key}` not allowed")),
            _ => {}
        }
    }
    for key in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if value.as_object().is_some_and(|object| !object.contains_key(key)) {
            out.push(format!("{at}: `{key}` missing"));
        }
    }
}

#[test]
fn the_validator_finds_errors() {
    let mut log = parse(&render(&fixture::report(), "0.1.0"));
    log["runs"][0]["results"][0]["level"] = json!("info");
    log["runs"][0]["results"][1].as_object_mut().unwrap().remove("message");
    log["runs"][0]["tool"]["driver"]["rules"][0]["severity"] = json!("error");
    log["runs"][0]["tool"]["driver"]["informationUri"] = json!("not a URI");
    let expected = [
        "/runs/0/results/0/level: enum",
        "/runs/0/results/1: `message` missing",
        "/runs/0/tool/driver/informationUri: format",
        "/runs/0/tool/driver/rules/0: `severity` not allowed",
    ];
    assert_eq!(errors(&log), expected);
}
