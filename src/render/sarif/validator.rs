//! The SARIF renderer's logs, validated against the OASIS SARIF 2.1.0 schema (vendored, so that a clone tests on
//! its own) by the `jsonschema` crate.

use serde_json::{Value, json};
use std::sync::LazyLock;

use crate::render::fixture;
use crate::render::sarif::render;

/// The OASIS standard schema (JSON Schema draft 4), compiled once for every test of the process.
static SARIF_SCHEMA: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(include_str!("../../../tests/schemas/sarif-schema-2.1.0.json")).unwrap();
    jsonschema::validator_for(&schema).unwrap()
});

/// The output parsed, after checking it against the OASIS schema.
pub(super) fn parse(text: &str) -> Value {
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
    let log = serde_json::from_str(text).unwrap();
    assert_eq!(errors(&log), Vec::<String>::new(), "not valid SARIF 2.1.0");
    log
}

/// Where `log` breaks the schema, and which keyword it breaks (`/runs/0/results/0: enum`), in document order.
fn errors(log: &Value) -> Vec<String> {
    let mut errors: Vec<String> = SARIF_SCHEMA
        .iter_errors(log)
        .map(|error| format!("{}: {}", error.instance_path(), error.kind().keyword()))
        .collect();
    errors.sort();
    errors
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
        "/runs/0/results/1: required",
        "/runs/0/tool/driver/informationUri: format",
        "/runs/0/tool/driver/rules/0: additionalProperties",
    ];
    assert_eq!(errors(&log), expected);
}
