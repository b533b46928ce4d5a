//! What the findings about a tool object say of the library shape it was written in (the AI SDK, LangChain, MCP):
//! the runtime's reason in the message, and a help that maps the fields it has onto the ones Beeuni reads.

use crate::modules::facts::{Foreign, NamedToolObject, ObjectExport, Wrapper};

/// The help for a LangChain StructuredTool: what to export instead.
const LANGCHAIN: &str = "export a plain object instead of the StructuredTool: `export default { description, parameters, execute }`, with `schema` → `parameters` (as JSON Schema: `z.toJSONSchema(schema)` of zod 4 for a zod schema) and the function passed to `tool()` → `execute(args, context)`";

/// Added to the message of a field the object lacks because of its wrapper: LangChain's `tool()` returns a
/// StructuredTool, not the object it is given.
pub fn missing_because(object: &ObjectExport) -> &'static str {
    match object.wrapper {
        Wrapper::LangChain => {
            ": `tool()` of `@langchain/core/tools` returns a LangChain StructuredTool, not the object it is given"
        }
        _ => "",
    }
}

/// The help of a missing `parameters`, when the object holds its schema under another library's name.
pub fn parameters_help(object: &ObjectExport) -> Option<String> {
    if object.wrapper == Wrapper::LangChain {
        return Some(LANGCHAIN.to_string());
    }
    let (from, whose) = match object.foreign {
        f if f.input_schema() && object.wrapper == Wrapper::AiSdk => ("inputSchema", "the AI SDK's name for it"),
        f if f.input_schema() => ("inputSchema", "the AI SDK's and MCP's name for it"),
        f if f.schema() => ("schema", "LangChain's name for it"),
        _ => return None,
    };
    Some(format!(
        "rename `{from}` to `parameters` ({whose}): Beeuni reads a JSON Schema there, `{{ type: 'object', properties: {{ … }} }}` (for a zod schema, `z.toJSONSchema(...)` of zod 4, or paste the printed schema)"
    ))
}

/// The help of a missing `execute`, when the object holds its function under another library's name.
pub fn execute_help(object: &ObjectExport) -> Option<String> {
    if object.wrapper == Wrapper::LangChain {
        return Some(LANGCHAIN.to_string());
    }
    object.foreign.handler().then(|| {
        "rename `handler` to `execute` (MCP's name for it): Beeuni calls `execute(args, context)`, which returns a string or any JSON value".to_string()
    })
}

/// The help of a module whose tool object is a named export only, in the shape it was written in.
pub fn named_help(named: &NamedToolObject) -> String {
    let name = &named.name;
    let then_rename = |foreign: Foreign| foreign.renames().map_or(String::new(), |r| format!(", and rename {r}"));
    match &named.wrapper {
        Wrapper::LangChain => format!(
            "`{name}` is a LangChain StructuredTool (`tool()` of `@langchain/core/tools`), not the Beeuni shape, and only a named export: {LANGCHAIN}"
        ),
        // `module.exports = exports.NAME` would read through the exports object, which the analysis does not follow.
        _ if named.commonjs => format!(
            "`exports.{name}` holds the tool object, but only as a named export: assign the object to `module.exports` instead (`module.exports = {{…}}` in place of `exports.{name} = {{…}}`){}",
            then_rename(named.foreign)
        ),
        Wrapper::AiSdk => format!(
            "`{name}` holds the tool object (`tool()` of `ai` returns the object it is given), but only as a named export: add `export default {name}`{}",
            then_rename(named.foreign)
        ),
        Wrapper::Identity(_) | Wrapper::Imported(_) => format!(
            "`{name}` holds the tool object (`{}()` returns the object it is given), but only as a named export: add `export default {name}`{}",
            named.wrapper.helper().unwrap_or_default(),
            then_rename(named.foreign)
        ),
        Wrapper::None => format!(
            "`{name}` holds the tool object, but only as a named export: add `export default {name}`{}",
            then_rename(named.foreign)
        ),
    }
}

/// The help of a module that registers its tools with a server (`server.tool(…)`, `server.registerTool(…)`), the
/// MCP SDK's form, and has no default export.
pub const SERVER_HELP: &str = "the module registers its tools with a server (`server.tool(…)` or `server.registerTool(…)`, the MCP SDK's form), which Beeuni never starts: give each tool a module of its own, `export default { description, parameters, execute }` with its `inputSchema` → `parameters` (as JSON Schema) and its handler → `execute(args, context)`, and declare it under `tools:`";
