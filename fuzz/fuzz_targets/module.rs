//! The module analyser: oxc parse, early errors, the facts the module rules read, on the stack the linter
//! gives it. The first byte picks the extension (it decides TS or JS, module or CommonJS, JSX).
#![no_main]

use beeuni_lint::modules::analyse::analyse;
use beeuni_lint_fuzz::on_analysis_stack;
use libfuzzer_sys::fuzz_target;
use oxc_allocator::Allocator;

const EXTENSIONS: [&str; 8] = ["ts", "js", "mts", "mjs", "cts", "cjs", "tsx", "jsx"];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let path = format!("tools/t.{}", EXTENSIONS[usize::from(first) % EXTENSIONS.len()]);
    let facts = on_analysis_stack(|| analyse(&path, text, &mut Allocator::default()));
    for error in &facts.syntax_errors {
        assert!(error.span.end <= text.len(), "a syntax error outside the text: {:?}", error.span);
    }
    for import in &facts.imports {
        assert!(text.get(import.span.range()).is_some(), "an import span off the text: {:?}", import.span);
    }
});
