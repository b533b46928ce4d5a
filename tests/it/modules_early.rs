//! RULES.md §4 revision 2, `module-syntax`: the early errors a runtime raises
//! when it loads a file (oxc's semantic checker and regular-expression parser)
//! and JSX only where Bun's loader takes it (`.js`, not `.mjs`).

use crate::modules_support::*;

#[test]
fn early_errors_are_syntax_errors() {
    let syntax = |path, line, column, what| {
        let message: &'static str = Box::leak(format!("`{path}` does not parse: {what}").into_boxed_str());
        ("module-syntax", "error", path, line, column, message)
    };
    let report = trigger(
        "module-syntax-early",
        1,
        &[
            (
                syntax(
                    "tools/await.ts",
                    2,
                    10,
                    "`await` is only allowed within async functions and at the top levels of modules",
                ),
                6,
            ),
            (
                syntax(
                    "tools/nested_export.ts",
                    2,
                    3,
                    "'export statement' declaration can only be used at the top level of a module",
                ),
                5,
            ),
            (syntax("tools/params.ts", 1, 27, "Identifier `id` has already been declared"), 7),
            (syntax("tools/redeclared.ts", 2, 5, "Identifier `count` has already been declared"), 3),
            (syntax("tools/regex.js", 1, 18, "Invalid regular expression: Duplicated capturing group names"), 4),
            (syntax("tools/twice.ts", 4, 1, "A module cannot have multiple default exports."), 9),
            (syntax("tools/view.mjs", 1, 14, "Unexpected JSX expression"), 8),
        ],
    );
    assert_helps(&report, &["the module is skipped at load until it parses"; 7]);
    // The twin: a plain assignment, overloads, namespaces and `declare module`, top-level `await`, duplicate
    // parameters in sloppy CommonJS, JSX in `.js`, one default export.
    clean_twin("module-syntax-early");
}
