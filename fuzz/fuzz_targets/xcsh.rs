//! xcsh tool analysis: the factory's returned tools, their metadata and the `exec`/UI uses. The linter runs it
//! only on a module that the module analyser accepted (the parser recurses), so this target does too.
#![no_main]

use beeuni_lint::modules::analyse::analyse;
use beeuni_lint::xcsh;
use beeuni_lint_fuzz::on_analysis_stack;
use libfuzzer_sys::fuzz_target;
use oxc_allocator::Allocator;

const EXTENSIONS: [&str; 4] = ["ts", "js", "mts", "mjs"];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let path = format!(".xcsh/tools/t/index.{}", EXTENSIONS[usize::from(first) % EXTENSIONS.len()]);
    on_analysis_stack(|| {
        let facts = analyse(&path, text, &mut Allocator::default());
        if facts.syntax_errors.is_empty() {
            xcsh::analyse::analyse(&path, text);
        }
    });
});
