//! Syntax errors, and the lint comments, which survive a parser that gives up.

use super::*;

#[test]
fn lint_comments() {
    let text = "// beeuni-lint: ignore[module-process-env] -- reason\n\
                /* beeuni-lint: ignore[module-fetch-signal] */\n\
                // an ordinary comment\n\
                export default {}\n";
    let facts = run("a.ts", text);
    let got: Vec<_> = facts.comments().iter().map(|(s, t)| (slice(text, *s), t.as_str())).collect();
    assert_eq!(
        got,
        [
            (
                "// beeuni-lint: ignore[module-process-env] -- reason",
                " beeuni-lint: ignore[module-process-env] -- reason"
            ),
            ("/* beeuni-lint: ignore[module-fetch-signal] */", " beeuni-lint: ignore[module-fetch-signal] ")
        ]
    );
}

#[test]
fn syntax_error_with_position() {
    let text = "export default {\n  description: 'x',\n  parameters: { type: 'object' ,, },\n}\n";
    let facts = run("a.ts", text);
    assert!(!facts.syntax_errors().is_empty());
    let error = &facts.syntax_errors()[0];
    assert!(!error.message.is_empty());
    assert_eq!(error.span.start(), text.find(",,").unwrap() + 1, "{error:?}");
    // TypeScript is a syntax error in a `.js` module; a top-level `return` only in an ES module.
    assert!(!run("a.js", "const x: number = 1\nexport default {}").syntax_errors().is_empty());
    assert!(!run("a.mjs", "return").syntax_errors().is_empty());
    assert!(run("a.cjs", "if (!ok) return\nmodule.exports = {}").syntax_errors().is_empty());
    assert!(run("a.js", "if (!ok) return\nmodule.exports = {}").syntax_errors().is_empty());
}

#[test]
fn comments_survive_a_parser_that_gives_up() {
    let text = "// beeuni-lint: ignore[module-syntax]\nexport default {{{ ]]] \n";
    let facts = run("a.ts", text);
    assert!(!facts.syntax_errors().is_empty());
    assert_eq!(facts.comments().len(), 1);
}

/// A parameter name bound twice in sloppy code, Bun's early error, through destructuring and defaults; each
/// function's list on its own.
#[test]
fn parameter_bound_twice_in_sloppy_code() {
    let tool = "\nmodule.exports = {}";
    let twice = |text: &str| {
        let text = format!("{text}{tool}");
        run("a.cjs", &text).syntax_errors().first().map(|e| slice(&text, e.span).to_string())
    };
    assert_eq!(twice("function f({ a, b: [c] }, { ...c }) {}").as_deref(), Some("c"));
    assert_eq!(twice("function f(a = 1, [, b], ...a) {}").as_deref(), Some("a"));
    assert_eq!(twice("function f(a, b) {}\nfunction g(a, b) {}"), None);
    assert_eq!(twice("function f(a) { return function (b = a, c) {} }"), None);
}

/// JSX in a module Bun runs as CommonJS: the `import` Bun compiles it to lands in the CommonJS wrapper and fails,
/// whether the runtime's package is installed or not, so the import is not counted (no package finding).
#[test]
fn jsx_in_commonjs() {
    let tool = "{ description: 'd', parameters: { type: 'object' }, execute: () => <b>hi</b> }";
    for text in [
        format!("module.exports = {tool}"),
        format!("const {{ sep }} = require('node:path')\nconst view = () => <i>{{sep}}</i>\nmodule.exports = {tool}"),
        "'use strict'\nconst view = () => <b>hi</b>".to_string(),
    ] {
        let facts = run("a.js", &text);
        let error = facts.syntax_errors().first().unwrap_or_else(|| panic!("{text}"));
        let at = slice(&text, error.span);
        assert!(at == "<b>" || at == "<i>", "{text}: {at}");
        assert!(
            error.message.starts_with(
                "Unexpected token '{'. import call expects one or two arguments. (Bun runs the module as CommonJS"
            ),
            "{}",
            error.message
        );
        assert!(facts.imports.iter().all(|i| i.kind != ImportKind::Jsx), "{text}");
    }
    // An ES module, or the classic runtime (no import): the JSX compiles and the runtime's import is counted.
    let facts = run("a.js", &format!("export default {tool}"));
    assert!(facts.syntax_errors().is_empty());
    assert!(facts.imports.iter().any(|i| i.kind == ImportKind::Jsx && i.specifier == "react/jsx-dev-runtime"));
    let classic = format!("/** @jsxRuntime classic */\nconst React = require('react')\nmodule.exports = {tool}");
    assert!(run("a.js", &classic).syntax_errors().is_empty());
}
