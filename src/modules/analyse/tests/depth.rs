//! Modules nested too deeply to parse: refused by the scan, never a stack overflow.

use super::docs::{LOOKUP_ORDER, WEATHER_NOW, ZOD};
use super::*;

/// Runs `f` on a thread with the stack the caller gives analysis threads.
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(64 << 20).spawn(f).unwrap().join().unwrap()
}

/// The facts of a module that was not analysed: nothing but why, and where.
fn not_analysed(facts: ModuleFacts) -> NotAnalysed {
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
    assert!(facts.default_export.is_none() && facts.imports.is_empty(), "{facts:?}");
    facts.not_analysed().expect("not analysed").clone()
}

#[test]
fn fifty_thousand_parentheses_are_not_analysed() {
    let text = format!("export default {}1{}", "(".repeat(50_000), ")".repeat(50_000));
    let not = not_analysed(on_big_stack(move || run("a.ts", &text)));
    assert_eq!(not.why, "is nested more than 5000 brackets deep, deeper than beeuni-lint analyses");
    assert_eq!(not.span, Span::new(15 + 5000, 15 + 5001));
}

#[test]
fn other_deep_chains_are_not_analysed() {
    let chained = "chains operators or statements deeper than beeuni-lint analyses";
    let cases = [
        format!("x = {}1", "!".repeat(500_000)),
        format!("x = {}1", "a => ".repeat(200_000)),
        format!("x = {}1", "a = ".repeat(200_000)),
        format!("x = {}1", "a ? b : ".repeat(200_000)),
        format!("{}{{}}", "if (a) x; else ".repeat(200_000)),
        format!("x = `{}`", "${`".repeat(50_000)),
        format!("let x: {}A", "keyof ".repeat(300_000)),
        format!("x = {}1", "<A>".repeat(500_000)),
        format!("let x: A<{}1{}", "1, A<".repeat(60_000), ">".repeat(60_000)),
        // Nested without a bracket for the checker to recurse into (it walks types too).
        format!("type T = A{}", "[]".repeat(200_000)),
        format!("type T = A{}", "['k'] ".repeat(200_000)),
    ];
    for text in cases {
        // Refused by the scan, before the parser could overflow.
        let why = not_analysed(on_big_stack(move || run("a.ts", &text))).why;
        assert!(why == chained || why.contains("brackets deep"), "{why}");
    }
}

#[test]
fn long_flat_chains_stop_the_visitor_not_the_stack() {
    // The parser builds these without recursing; the visitor must not recurse all the way down.
    let visited =
        "nests more than 25000 expressions and statements inside one another, deeper than beeuni-lint analyses";
    let cases = [
        format!("x = a{}", ".b".repeat(100_000)),
        format!("x = 'a'{}", " + 'a'".repeat(100_000)),
        format!("x = f{}", "()".repeat(100_000)),
    ];
    for text in cases {
        assert_eq!(not_analysed(on_big_stack(move || run("a.ts", &text))).why, visited);
    }
    let text = format!("x = 'a'{}", " + 'a'".repeat(20_000));
    assert!(on_big_stack(move || run("a.ts", &text)).is_whole());
}

/// Deeper than the 1,000 brackets of earlier versions, as Bun loads them: analysed (a regression: these were
/// `module-syntax` errors).
#[test]
fn five_thousand_levels_parse_and_visit() {
    let inner = format!("{}process.env.DEEP{}", "(".repeat(4_998), ")".repeat(4_998));
    let text = format!(
        "export default {{ description: 'd', async execute(args, context) {{ return {inner} + fetch(url) }} }}"
    );
    let facts = on_big_stack(move || run("a.ts", &text));
    assert!(facts.is_whole(), "{:?} {:?}", facts.syntax_errors(), facts.not_analysed());
    assert_eq!(facts.env_reads.len(), 1);
    assert_eq!(facts.execute.unwrap().fetch_without_signal.len(), 1);
    for (open, close) in [("[", "]"), ("{a:", "}"), ("function () { return ", "}"), ("`${", "}`")] {
        let text = format!("x = {}1{}", open.repeat(4_999), close.repeat(4_999));
        assert!(on_big_stack(move || run("a.ts", &text)).is_whole(), "{open}");
    }
}

#[test]
fn short_modules_are_not_scanned_but_keep_their_comments() {
    // Under 5,001 bytes nothing can reach the limits; a parser that gives up still leaves the ignore comments.
    let text = "// beeuni-lint: ignore[module-syntax]\nexport default (((((\n";
    let facts = run("a.ts", text);
    assert!(!facts.syntax_errors().is_empty());
    assert_eq!(facts.comments().len(), 1);
    let text = "(".repeat(5_000);
    assert!(on_big_stack(move || run("a.ts", &text)).not_analysed().is_none());
}

#[test]
fn the_scan_skips_strings_comments_and_regular_expressions() {
    let noise = "'((((' + \"[[[[\" + `{{{{ ${'(('} ` + /\\([((]/.source // ((((\n /* [[[[ */ + ";
    let text = format!("x = {}1{}", format!("({noise}").repeat(999), ")".repeat(999));
    assert!(on_big_stack(move || run("a.ts", &text)).syntax_errors().is_empty());
    // Brackets in control-flow heads and a regular expression after them.
    let text = "if (a) /[)]/.test(b); while (x) { y = a / b / c }".repeat(2_000);
    assert!(run("a.ts", &text).syntax_errors().is_empty());
}

#[test]
fn a_module_of_ordinary_size_is_not_refused() {
    // Many statements at one level must not add up to a nesting depth.
    let text = "if (a) { b = !c ? d : e } else { f = g => h }\nx = y ? -1 : +2;\n".repeat(5_000);
    let facts = on_big_stack(move || run("a.ts", &text));
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
}

#[test]
fn truncated_modules_never_panic() {
    let mut allocator = Allocator::default();
    for text in [LOOKUP_ORDER, WEATHER_NOW, ZOD] {
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            for path in ["a.ts", "a.cjs"] {
                let facts = analyse(path, &text[..end], &mut allocator);
                assert!(facts.syntax_errors().iter().all(|e| e.span.end() <= end.max(1)), "{end}: {facts:?}");
            }
        }
    }
}

/// The finding of a module refused for a regular expression: where (a byte offset) and why.
fn refused_regex(text: String) -> (usize, String) {
    let not = not_analysed(on_big_stack(move || run("a.ts", &text)));
    (not.span.start(), not.why.to_string())
}

const NESTED_REGEX: &str =
    "has a regular expression nested more than 1000 groups or classes deep, deeper than beeuni-lint analyses";
const NAMED_GROUPS: &str = "has a regular expression with more than 1000 named groups, more than beeuni-lint analyses";
const MODULE_NAMED_GROUPS: &str =
    "has more than 10000 named groups in its regular expressions, more than beeuni-lint analyses";

#[test]
fn regular_expressions_nested_too_deeply_are_not_analysed() {
    // Each at the opener past the limit: `x = /` is 5 bytes, each opener 1 to 6.
    let cases = [
        (format!("x = /{}a{}/", "(".repeat(100_000), ")".repeat(100_000)), 5 + 1_000),
        (format!("x = /{}a{}/u", "(?:".repeat(100_000), ")".repeat(100_000)), 5 + 3 * 1_000),
        (format!("x = /{}a{}/", "(?<=".repeat(100_000), ")".repeat(100_000)), 5 + 4 * 1_000),
        (format!("x = /{}a{}/v", "[".repeat(200_000), "]".repeat(200_000)), 5 + 1_000),
        (format!("x = /{}[[a]]{}/v", "(".repeat(999), ")".repeat(999)), 5 + 999 + 1),
        // A class read as the parser reads it: `[)]` closes no group.
        (format!("x = /{}/", "([)]".repeat(100_000)), 5 + 4 * 1_000),
        // Nested named groups pass the nesting limit first.
        (format!("x = /{}a{}/", "(?<g>".repeat(30_000), ")".repeat(30_000)), 5 + 5 * 1_000),
    ];
    for (text, at) in cases {
        assert_eq!(refused_regex(text), (at, NESTED_REGEX.to_string()));
    }
    // Found exactly where the parser finds it, after a block the depth scan reads `/` as a division after.
    let text = format!("function f() {{}}\n/'{}a{}/", "(".repeat(100_000), ")".repeat(100_000));
    assert_eq!(refused_regex(text), (18 + 1_000, NESTED_REGEX.to_string()));
}

#[test]
fn regular_expressions_within_the_limits_are_parsed() {
    let cases = [
        format!("x = /{}a{}/", "(".repeat(1_000), ")".repeat(1_000)),
        format!("x = /{}a{}/v", "[".repeat(1_000), "]".repeat(1_000)),
        format!("x = /{}a{}/", (0..1_000).map(|i| format!("(?<g{i}>")).collect::<String>(), ")".repeat(1_000)),
        // Without the `v` flag a class does not nest: its `[` are characters.
        format!("x = /[{}]/", "[".repeat(100_000)),
        format!("x = /{}/", (0..1_000).map(|i| format!("(?<g{i}>a)")).collect::<String>()),
        format!("x = /{}/", "(?<=a)(?<!b)".repeat(20_000)),
        format!("x = /{}/", r"\(\[".repeat(100_000)),
    ];
    for text in cases {
        let facts = on_big_stack(move || run("a.ts", &text));
        assert!(facts.is_whole(), "{:?} {:?}", facts.syntax_errors(), facts.not_analysed());
    }
}

#[test]
fn more_than_a_mebibyte_of_patterns_is_not_analysed() {
    // Two patterns of 2^19 bytes are analysed; one byte more is refused at the pattern that passes.
    let half = "a".repeat(1 << 19);
    let two = format!("x = /{half}/;\ny = /{half}/;\n");
    let facts = on_big_stack({
        let two = two.clone();
        move || run("a.ts", &two)
    });
    assert!(facts.is_whole(), "{:?} {:?}", facts.syntax_errors(), facts.not_analysed());
    let three = format!("{two}z = /a/");
    let why = "has more than 1 MiB of regular expressions, more than beeuni-lint analyses";
    assert_eq!(refused_regex(three), (two.len() + 5, why.to_string()));
}

#[test]
fn too_many_named_groups_are_not_analysed() {
    let named = |n: usize, from: usize| (from..from + n).map(|i| format!("(?<g{i}>a)")).collect::<String>();
    // At the 1,001st group, flat or nested in pairs.
    let pairs = (0..1_000).map(|i| format!("(?<a{i}>(?<b{i}>a))")).collect::<String>();
    for pattern in [named(120_000, 0), pairs] {
        let at = 5 + pattern.match_indices("(?<").nth(1_000).unwrap().0;
        assert_eq!(refused_regex(format!("x = /{pattern}/")), (at, NAMED_GROUPS.to_string()));
    }
    // Ten patterns of 1,000 are analysed, an eleventh group refused at its own pattern.
    let ten = (0..10).map(|p| format!("x = /{}/;\n", named(1_000, p * 1_000))).collect::<String>();
    let facts = on_big_stack({
        let ten = ten.clone();
        move || run("a.ts", &ten)
    });
    assert!(facts.is_whole(), "{:?} {:?}", facts.syntax_errors(), facts.not_analysed());
    let eleven = format!("{ten}y = /(?<h>a)/");
    assert_eq!(refused_regex(eleven), (ten.len() + 5, MODULE_NAMED_GROUPS.to_string()));
}

/// The syntax errors oxc's parser gives `text` when it parses regular expressions itself.
fn parser_errors(text: &str) -> Vec<SyntaxError> {
    let allocator = Allocator::default();
    let options = ParseOptions { parse_regular_expression: true, ..ParseOptions::default() };
    let parsed = Parser::new(&allocator, text, SourceType::ts()).with_options(options).parse();
    parsed.diagnostics.errors().map(|d| early::syntax_error(d, false)).collect()
}

#[test]
fn regular_expression_errors_are_found_as_the_parser_found_them() {
    let cases = [
        "x = /(?<n>a)(?<n>b)/",
        "x = /(/\ny = /[b-a]/u\nz = /a{2,1}/",
        "x = /(/gg",
        "x = /(/uv",
        "x = 1 + /(/ + `${/)/}`",
        "x = { a: /\\k<z>/u, b: /\\k<z>(?<y>)/ }",
        "class A { static #x = /(?<a>)\\k<b>/ }",
        "f(/[[a]]/v, /[a&&&b]/v, /[^\\q{ab}]/v)",
        "x = 08;\ny = /(/;\nz = 09",
        "x = /a{99999999999999999999999}/",
    ];
    // The parser's errors but its patterns', and the first of those, in source order (the parser lists its lexer's
    // errors first).
    let invalid = |e: &SyntaxError| e.message.starts_with("Invalid regular expression");
    for text in cases {
        let parsed = parser_errors(text);
        let mut expected: Vec<SyntaxError> = parsed.iter().filter(|e| !invalid(e)).cloned().collect();
        if let Some(first) = parsed.iter().filter(|e| invalid(e)).min_by_key(|e| e.span.start()) {
            let at = expected.iter().position(|e| e.span.start() > first.span.start()).unwrap_or(expected.len());
            expected.insert(at, first.clone());
        }
        assert!(!expected.is_empty(), "{text}");
        assert_eq!(run("a.ts", text).syntax_errors(), &expected[..], "{text}");
    }
    // A syntax error is the finding that matters, also beside a pattern past a limit.
    let text = format!("x = /(/;\ny = /{}/", "(".repeat(10_000));
    let facts = on_big_stack(move || run("a.ts", &text));
    assert_eq!(facts.syntax_errors()[0].message, "Invalid regular expression: Unterminated capturing group");
    assert!(facts.not_analysed().is_none());
}

#[test]
fn a_slash_read_both_ways_hides_no_nesting() {
    let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let cases = [
        // A regular expression after a block, which the scan's guess takes for a division: its quote or
        // backtick would hide the rest of the line, or of the file.
        format!("if (true) {{}}\n/'/; x = {deep}"),
        format!("if (true) {{}}\n/`/; x = {deep}"),
        // Divisions the guess takes for regular expressions.
        format!("x = function () {{}} / '/' + {deep}"),
        format!("x = o.in / '/' + {deep}"),
        format!("x = a++ / '/' + {deep}"),
    ];
    for text in cases {
        let why = not_analysed(on_big_stack(move || run("a.ts", &text))).why;
        assert_eq!(why, "is nested more than 5000 brackets deep, deeper than beeuni-lint analyses");
    }
}

#[test]
fn slashes_read_both_ways_are_not_refused() {
    let text = "x = {} / 2; if (a) {} /re/.test(b); y = a++ / 2; z = o.in / 3; w = `${a}` / 2\n".repeat(5_000);
    let facts = on_big_stack(move || run("a.ts", &text));
    assert!(facts.is_whole(), "{:?} {:?}", facts.syntax_errors(), facts.not_analysed());
}

/// What the parser does not recurse into is not nesting: type parameters and arguments closed by their `>`,
/// comparisons (a statement ends where a declaration starts a line after an operand), a list of JSX siblings.
#[test]
fn flat_generics_comparisons_and_jsx_siblings_are_analysed() {
    let cases = [
        ("a.ts", (0..8_000).map(|i| format!("function f{i}<T>(x: T): T {{ return x }}\n")).collect::<String>()),
        ("a.ts", (0..8_000).map(|i| format!("export function f{i}<T>(x: T): Array<T> {{ return [x] }}\n")).collect()),
        ("a.ts", (0..5_000).map(|i| format!("const a{i} = {i} < 2\n")).collect()),
        ("a.tsx", format!("const list = <ul>\n{}</ul>\n", "  <li>item; let</li>\n  <br />\n".repeat(2_000))),
    ];
    for (path, text) in cases {
        let facts = on_big_stack(move || run(path, &text));
        assert!(facts.is_whole(), "{path}: {:?} {:?}", facts.syntax_errors(), facts.not_analysed());
    }
}

/// What the parser does recurse into is still counted, whatever a statement's end would reset: nested JSX elements
/// (their text holding `;` and declarations on lines of their own), and a chain that `as const` continues.
#[test]
fn nested_jsx_and_continued_chains_are_still_refused() {
    let chained = "chains operators or statements deeper than beeuni-lint analyses";
    let cases = [
        ("a.tsx", format!("x = {}{}", "<a>".repeat(100_000), "</a>".repeat(100_000))),
        ("a.tsx", format!("x = {}", "<a>y;\nconst\n".repeat(100_000))),
        ("a.ts", format!("x = {}1", "a ? 'b' as\nconst : ".repeat(100_000))),
    ];
    for (path, text) in cases {
        let why = not_analysed(on_big_stack(move || run(path, &text))).why;
        assert_eq!(why, chained, "{path}");
    }
}
