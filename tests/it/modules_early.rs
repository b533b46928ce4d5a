//! docs/spec/rules.md §4 revision 2, `module-syntax`: the early errors a runtime raises
//! when it loads a file (oxc's semantic checker and regular-expression parser)
//! and JSX only where Bun's loader takes it (`.js`, not `.mjs`).

use crate::common;
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
    // The twin: a plain assignment, overloads, namespaces and `declare module`, top-level `await`, a `var`
    // beside a parameter of its name in sloppy CommonJS, JSX in `.js`, one default export.
    clean_twin("module-syntax-early");
}

/// What Bun's parser rejects beyond JavaScript's early errors (measured with Bun 1.4.5): a letter newer than its
/// Unicode tables (15.1) in any identifier, escaped or not, and a parameter name bound twice in sloppy code.
#[test]
fn identifiers_bun_rejects_are_syntax_errors() {
    let tool = "module.exports = { description: 'x', parameters: { type: 'object' }, execute() {} }\n";
    let letter = format!("const \u{2B81E} = 1\n{tool}");
    let escaped = format!("const o = {{ \\u{{2B81E}}: 1 }}\n{tool}");
    let member = format!("const o = {{}} as any\no.a\u{10D4A} = 1\n{tool}");
    let params = format!("function pick(id, id) {{ return id }}\n{tool}");
    // Unicode 15.1 letters, a joiner inside a name, the new letter in a string and in a comment: all load.
    let clean = format!("const \u{2EBF0}\u{11F04} = 'x\u{2B81E}' // \u{2B81E}\nconst a\u{200C}b = 1\n{tool}");
    let manifest = "tools:\n  web_search: beeuni:web_search\n  letter: tools/letter.cjs\n  escaped: tools/escaped.cjs\n  \
                    member: tools/member.ts\n  params: tools/params.cjs\n  clean: tools/clean.cjs\n";
    let dir = common::project(&[
        ("beeuni.yaml", manifest),
        ("tools/letter.cjs", &letter),
        ("tools/escaped.cjs", &escaped),
        ("tools/member.ts", &member),
        ("tools/params.cjs", &params),
        ("tools/clean.cjs", &clean),
    ]);
    let (code, report) = common::json_in(dir.path(), &[]);
    let too_new = |path, line, column, code_point, place, declared| -> Found<'static> {
        let message = format!(
            "`{path}` does not parse: Invalid identifier: U+{code_point} cannot {place} an identifier under Bun, whose \
             parser reads identifiers by Unicode 15.1"
        );
        (("module-syntax", "error", path, line, column, Box::leak(message.into_boxed_str())), declared)
    };
    let twice = "`tools/params.cjs` does not parse: Identifier `id` has already been declared: Bun rejects a parameter \
                 name bound twice in sloppy code too";
    let expected = [
        too_new("tools/escaped.cjs", 1, 13, "2B81E", "start", 4),
        too_new("tools/letter.cjs", 1, 7, "2B81E", "start", 3),
        too_new("tools/member.ts", 2, 3, "10D4A", "be part of", 5),
        (("module-syntax", "error", "tools/params.cjs", 1, 19, twice), 6),
    ];
    assert_module_findings(&report, &expected);
    assert_eq!(code, 1);
}
