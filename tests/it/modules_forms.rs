//! docs/spec/rules.md §4 revision 2, "Module forms": literal default exports, opencode's
//! named `tool({...})` exports, pi/xcsh extensions, `tool` from the project's
//! own helper against `oc.tool` of `@opencode-ai/plugin`, zod `parameters`,
//! keys in every spelling, and destructured parameters printed as written.

use crate::common::*;
use crate::modules_support::*;

#[test]
fn forms_real_code_uses() {
    let report = trigger(
        "forms",
        1,
        &[
            (
                (
                    "module-factory-export",
                    "error",
                    "tools/extension.ts",
                    1,
                    1,
                    "`tools/extension.ts` exports a pi/xcsh extension (a function that calls `registerTool`): Beeuni expects a plain object `{ description, parameters, execute }`",
                ),
                5,
            ),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/keys.ts",
                    3,
                    3,
                    "the `parameters` of the tool in `tools/keys.ts` has `type: 'string'`: not an object schema",
                ),
                9,
            ),
            (
                (
                    "module-execute-signature",
                    "warning",
                    "tools/keys.ts",
                    4,
                    3,
                    "`execute(toolCallId, { location }, signal)` takes the xcsh/pi order `(toolCallId, params, …)`: Beeuni calls `execute(args, context)`",
                ),
                9,
            ),
            (
                (
                    "module-no-default-export",
                    "error",
                    "tools/literal.ts",
                    1,
                    1,
                    "the default export of `tools/literal.ts` is `null`, not the tool object: the module is skipped at load",
                ),
                3,
            ),
            (
                (
                    "module-harness-import",
                    "error",
                    "tools/namespace.ts",
                    1,
                    1,
                    "`tools/namespace.ts` imports the harness package `@opencode-ai/plugin`: A module never imports a harness package.",
                ),
                7,
            ),
            (
                (
                    "module-opencode-tool",
                    "error",
                    "tools/namespace.ts",
                    3,
                    1,
                    "`tools/namespace.ts` exports `tool({ description, args, execute })`, the opencode plugin form: Beeuni loads a plain object",
                ),
                7,
            ),
            (
                (
                    "module-harness-import",
                    "error",
                    "tools/opencode_named.ts",
                    1,
                    1,
                    "`tools/opencode_named.ts` imports the harness package `@opencode-ai/plugin`: A module never imports a harness package.",
                ),
                4,
            ),
            (
                (
                    "module-no-default-export",
                    "error",
                    "tools/opencode_named.ts",
                    1,
                    1,
                    "`tools/opencode_named.ts` has no default export: the module is skipped at load",
                ),
                4,
            ),
            // `tool` from the project's own helper is not the opencode form; it returns its argument (issue 26), so
            // the object is checked as written: it has no `parameters` and no `execute`.
            (
                (
                    "module-execute",
                    "error",
                    "tools/own_tool.ts",
                    3,
                    1,
                    "the tool in `tools/own_tool.ts` has no `execute`",
                ),
                6,
            ),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/own_tool.ts",
                    3,
                    1,
                    "the tool in `tools/own_tool.ts` has no `parameters`",
                ),
                6,
            ),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/zod.ts",
                    7,
                    3,
                    "the `parameters` of the tool in `tools/zod.ts` is `z.object({ id: z.string() })`: a zod schema, not JSON Schema: wrap it in `z.toJSONSchema(...)` (zod 4) or paste the printed schema",
                ),
                8,
            ),
        ],
    );
    let found = diagnostics(&report);
    assert_help(
        &found[0],
        "an extension registers tools with the harness, and Beeuni loads only a plain tool object: give each registered tool a module of its own, `export default { description, parameters, execute(args, context) }` (without `name`), and declare it under `tools:`",
    );
    assert_help(&found[3], "export the tool: `export default { description, parameters, execute }`");
    assert_help(
        &found[7],
        "this is opencode's form (named `tool({...})` exports, each loaded as `<file>_<export>`); Beeuni loads one tool a module, from its default export: move each export to a module of its own (`search` → `tools/opencode_named_search.ts`, `fetchOrder` → `tools/opencode_named_fetchOrder.ts`) as `export default { description, parameters, execute }` with JSON Schema `parameters`, and declare each under `tools:`",
    );
    // The twin: a `const` object, plain objects, JSON Schema, quoted and computed keys spelled right, and
    // `execute({ location }, context)`.
    clean_twin("forms");
}

/// A module whose tool object is a named export is told to export that object as the default, by its name;
/// the first named export that holds a tool object counts, and an object with none of a tool's fields does not.
#[test]
fn a_named_tool_object_is_what_to_export_as_default() {
    const TOOL: &str = "{\n  description: 'Write a CRM note.',\n  parameters: { type: 'object', properties: {} },\n  execute() {\n    return 'ok'\n  },\n}\n";
    let es =
        |name: &str| format!("`{name}` holds the tool object, but only as a named export: add `export default {name}`");
    let cases = [
        ("tools/crm_note.ts", format!("export const crmNote = {TOOL}"), es("crmNote")),
        ("tools/crm_note.ts", format!("const crmNote = {TOOL}\nexport {{ crmNote as note }}\n"), es("crmNote")),
        ("tools/crm_note.ts", format!("const base = {TOOL}\nexport const crmNote = base satisfies object\n"), es("crmNote")),
        ("tools/crm_note.ts", format!("export const config = {{ retries: 3 }}\nexport const crmNote = {TOOL}"), es("crmNote")),
        (
            "tools/crm_note.cjs",
            format!("exports.crmNote = {TOOL}"),
            "`exports.crmNote` holds the tool object, but only as a named export: assign the object to `module.exports` instead (`module.exports = {…}` in place of `exports.crmNote = {…}`)".to_string(),
        ),
        (
            "tools/crm_note.ts",
            "export const config = { retries: 3 }\n".to_string(),
            "export the tool: `export default { description, parameters, execute }`".to_string(),
        ),
    ];
    for (module, source, help) in cases {
        let dir = project(&[]);
        write_module(dir.path(), module, source.as_bytes());
        let (code, report) = json_in(dir.path(), &[]);
        assert_eq!(code, 1, "{source}");
        let message = format!("`{module}` has no default export: the module is skipped at load");
        assert_findings(&report, &[("module-no-default-export", "error", module, 1, 1, &message)]);
        assert_help(&diagnostics(&report)[0], &help);
        // The remedy works: with it, the module is clean.
        let fixed = match module.ends_with(".cjs") {
            true => source.replace("exports.crmNote =", "module.exports ="),
            false if help.starts_with('`') => format!("{source}export default crmNote\n"),
            false => continue,
        };
        write_module(dir.path(), module, fixed.as_bytes());
        let (code, report) = json_in(dir.path(), &[]);
        assert_clean(&fixed, code, &report);
    }
}

/// A binding the default export is read through, changed after its declaration (reassigned, written
/// through, given to `Object.assign`): the declared value is not what the platform loads, so checking it
/// would report a missing `execute` or a `required` name that the module adds. It is `module-unanalyzable`;
/// reading, spreading or freezing the object changes nothing and the missing `execute` is still an error.
#[test]
fn changed_bindings_are_not_read_as_declared() {
    let why = |file: &str| {
        format!(
            "the default export of `{file}` cannot be read without running it (the binding `tool`, which is changed after its declaration): it was not checked"
        )
    };
    let (assigned, reassigned, written) =
        (why("tools/assigned.ts"), why("tools/reassigned.ts"), why("tools/written.ts"));
    let schema = "the default export of `tools/schema_written.ts` cannot be read without running it (the binding `parameters`, which is changed after its declaration): it was not checked";
    trigger(
        "changed",
        1,
        &[
            (("module-unanalyzable", "info", "tools/assigned.ts", 6, 1, &assigned), 5),
            (
                (
                    "module-execute",
                    "error",
                    "tools/read_only.ts",
                    8,
                    1,
                    "the tool in `tools/read_only.ts` has no `execute`",
                ),
                7,
            ),
            (("module-unanalyzable", "info", "tools/reassigned.ts", 7, 1, &reassigned), 3),
            (("module-unanalyzable", "info", "tools/schema_written.ts", 4, 1, schema), 6),
            (("module-unanalyzable", "info", "tools/written.ts", 6, 1, &written), 4),
        ],
    );
    // The twin: a `let` never assigned again, a local of the same name, `Object.assign` into a new object,
    // a copy written instead of the schema: all read as declared, and complete.
    clean_twin("changed");
}
