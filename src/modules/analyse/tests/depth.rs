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
                assert!(facts.syntax_errors().iter().all(|e| e.span.end <= end.max(1)), "{end}: {facts:?}");
            }
        }
    }
}
