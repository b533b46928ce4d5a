//! Idioms of real tool modules that load on the platform (Bun) and were reported as broken, or that cannot be
//! read statically and must say so (`module-unanalyzable`, info) rather than guess: each module of the fixtures
//! is a minimal reproduction of one idiom.

use crate::common;
use crate::modules_support::*;

/// CommonJS as Bun loads it: the `exports` object filled field by field is the default export (checked like a
/// literal: `partial.cjs` lacks `parameters`); a UMD wrapper that assigns `module.exports` inside a function and
/// an `if`, exports filled by `Object.assign(module.exports, {...})`, and a field set on `module.exports` after the
/// whole object, are not read; a module compiled from an
/// ES module (`__esModule`) exports only `exports.default`, so without one it has no default export.
/// `toJSONSchema` imported from zod by name builds JSON Schema (not a zod schema); an import inside an ambient
/// `declare module` block loads nothing; `__proto__: base` inherits the fields it does not write; `fetch(request)`
/// passes the signal of the `new Request(url, { signal })` that `request` holds (and none without one);
/// `node-fetch`, `ws`, `undici` and Node's internal `_stream_*` modules are served by Bun itself, installed or not;
/// a computed key naming a field through a `const` is that field, a symbol key names none, and another computed
/// key may name any (the fields it may supply are not read).
#[test]
fn real_code_idioms() {
    let unread = |file: &str, why: &str| {
        format!("the default export of `{file}` cannot be read without running it ({why}): it was not checked")
    };
    let extended = unread("tools/extended.cjs", "`execute` is set on the exports after they are assigned");
    let assigned = unread("tools/assigned.cjs", "the exports are changed by `Object.assign` or its kin");
    let wrapped = unread("tools/wrapped.js", "`module.exports` is assigned inside a block or a function");
    let inherited = |field: &str| {
        format!(
            "`{field}` of `tools/inherits.ts` cannot be read without running it (the object inherits from `base`): it was not checked"
        )
    };
    let (execute, parameters) = (inherited("execute"), inherited("parameters"));
    let computed = |field: &str| {
        format!(
            "`{field}` of `tools/dynamic_key.ts` cannot be read without running it (the object has the computed key `[pick()]`): it was not checked"
        )
    };
    let zod = "`parameters` of `tools/zod_by_name.ts` cannot be read without running it (built at run time by `toJSONSchema(...)`): it was not checked";
    trigger(
        "real-code",
        1,
        &[
            (("module-unanalyzable", "info", "tools/assigned.cjs", 1, 1, &assigned), 15),
            (
                (
                    "module-no-default-export",
                    "error",
                    "tools/compiled.js",
                    1,
                    1,
                    "`tools/compiled.js` has no default export: the module is skipped at load",
                ),
                6,
            ),
            (("module-unanalyzable", "info", "tools/dynamic_key.ts", 5, 3, &computed("execute")), 14),
            (("module-unanalyzable", "info", "tools/dynamic_key.ts", 5, 3, &computed("parameters")), 14),
            (("module-unanalyzable", "info", "tools/extended.cjs", 1, 1, &extended), 7),
            (("module-unanalyzable", "info", "tools/inherits.ts", 8, 18, &execute), 10),
            (("module-unanalyzable", "info", "tools/inherits.ts", 8, 18, &parameters), 10),
            (
                (
                    "module-parameters",
                    "error",
                    "tools/partial.cjs",
                    1,
                    1,
                    "the tool in `tools/partial.cjs` has no `parameters`",
                ),
                5,
            ),
            (
                (
                    "module-fetch-signal",
                    "info",
                    "tools/request.ts",
                    8,
                    21,
                    "`fetch(...)` inside `execute` passes no `signal`: the request cannot be cancelled",
                ),
                11,
            ),
            (("module-unanalyzable", "info", "tools/wrapped.js", 3, 5, &wrapped), 3),
            (("module-unanalyzable", "info", "tools/zod_by_name.ts", 5, 3, zod), 8),
        ],
    );
}

/// A relative import of a folder loads the `module`/`main` of its `package.json` (Bun's `loadAsFileOrDirectory`,
/// before `index.*`): the import resolves, and the file it names is a helper like any other (here with an
/// import of its own that fails).
#[test]
fn a_folder_import_loads_its_package_main() {
    let dir = common::project(&[
        ("beeuni.yaml", &manifest_for("tools/shared_user.ts")),
        (
            "tools/shared_user.ts",
            "import { shared } from '../lib/shared'\n\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return shared } }\n",
        ),
        ("lib/shared/package.json", "{ \"name\": \"shared\", \"main\": \"./src/main\" }\n"),
        ("lib/shared/src/main.ts", "import { gone } from './gone'\nexport const shared = gone\n"),
    ]);
    let (code, report) = common::json_in(dir.path(), &[]);
    let message = "`lib/shared/src/main.ts` imports `./gone`: no such file (tried the module extensions and `index.*`)";
    common::assert_findings(&report, &[("module-import-missing", "error", "lib/shared/src/main.ts", 1, 1, message)]);
    assert_eq!(code, 1);
}
