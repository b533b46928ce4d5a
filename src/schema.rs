//! `beeuni-lint schema`: a JSON Schema (draft 2020-12) of `beeuni.yaml` for editors
//! (`# yaml-language-server: $schema=…`). It states the documented shapes; the lint checks the rest.

use crate::catalog::BEEUNI_TOOLS;
use serde_json::{Value, json};

pub fn schema() -> Value {
    let beeuni_refs: Vec<String> = BEEUNI_TOOLS.iter().map(|name| format!("beeuni:{name}")).collect();
    let module_path = json!({
        "type": "string",
        "pattern": "^(?![/~\\\\])(?!.*://)(?!.*\\.d\\.ts$).*\\.(ts|js|mts|mjs|cts|cjs)$",
        "description": "A repo-relative path to a .ts, .js, .mts, .mjs, .cts or .cjs module"
    });
    let mut beeuni_tools = serde_json::Map::new();
    for name in BEEUNI_TOOLS {
        beeuni_tools.insert(
            name.to_string(),
            json!({
                "description": format!("The Beeuni tool `{name}`: `beeuni:{name}`, or a module that replaces it"),
                "anyOf": [{ "const": format!("beeuni:{name}") }, module_path.clone()]
            }),
        );
    }
    let tool_names = json!({ "type": "array", "items": { "type": "string" } });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/beeuni/beeuni-lint/beeuni.schema.json",
        "title": "beeuni.yaml",
        "description": "A Beeuni project's manifest: the tools its sessions get and who may call them.",
        "type": "object",
        "properties": {
            "imports": {
                "description": "Repo-relative paths of YAML files whose declarations join this one",
                "type": "array",
                "items": { "type": "string" }
            },
            "tools": {
                "description": "Tool names mapped to `beeuni:<name>` (a Beeuni tool) or a module path. A `tools:` key anywhere in the graph means sessions get only the Beeuni tools it lists.",
                "type": ["object", "null"],
                "properties": beeuni_tools,
                "propertyNames": { "pattern": "^[a-z][a-z0-9_]{0,63}$" },
                "additionalProperties": module_path,
                "examples": [{ "web_search": beeuni_refs[0], "lookup_order": "tools/lookup_order.ts" }]
            },
            "agents": {
                "description": "Agents by name",
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {
                        "tools": {
                            "description": "`all` (the default), `none`, a list, `{ exclude: [...] }`, or the earlier map of booleans",
                            "anyOf": [
                                { "enum": ["all", "none", null] },
                                tool_names,
                                {
                                    "type": "object",
                                    "properties": { "exclude": tool_names },
                                    "required": ["exclude"],
                                    "additionalProperties": false
                                },
                                { "type": "object", "additionalProperties": { "type": "boolean" } }
                            ]
                        },
                        "secrets": {
                            "description": "`all`, or the names of the project secrets this agent gets in `context.env`",
                            "anyOf": [{ "const": "all" }, { "type": "array", "items": { "type": "string" } }]
                        },
                        "connectors": { "type": "array", "items": { "type": "string" } },
                        "permission": { "type": "object" }
                    }
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_the_documented_shapes() {
        let schema = schema();
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert_eq!(schema["properties"]["tools"]["properties"]["show"]["anyOf"][0]["const"], "beeuni:show");
        assert_eq!(schema["properties"]["tools"]["propertyNames"]["pattern"], "^[a-z][a-z0-9_]{0,63}$");
        let tools = &schema["properties"]["agents"]["additionalProperties"]["properties"]["tools"]["anyOf"];
        assert_eq!(tools[2]["required"][0], "exclude");
    }
}
