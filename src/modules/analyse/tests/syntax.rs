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
