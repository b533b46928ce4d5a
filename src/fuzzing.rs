//! The bodies of the fuzz targets in `fuzz/` (libFuzzer through cargo-fuzz's layout). They live here so that
//! the normal build compiles them (a change of the API they call breaks that build, not only the fuzz smoke)
//! and `tests/it/fuzz_seeds.rs` replays every checked-in seed through them. Not an API: hidden from the docs.
//! A fuzz target reports what it finds by panicking: these bodies may `expect`, as tests do.
#![allow(clippy::expect_used)]

use crate::diagnostic::Severity;
use crate::lint::CheckOptions;
use crate::modules::analyse::analyse;
use crate::pool::ANALYSIS_STACK;
use oxc_allocator::Allocator;
use std::path::Path;

/// The files a project input fills, in order; its parts are split at NUL bytes (text files hold none).
/// The seeds' `beeuni.yaml` imports the other YAML files and declares the module.
pub const FILES: [&str; 4] = ["beeuni.yaml", "a.yaml", "b/c.yaml", "tools/t.ts"];

/// The module analyser (oxc parse, early errors, facts) on the analysis stack; the first byte picks the
/// extension. Every span it reports lies within the text.
pub fn module(data: &[u8]) {
    const EXTENSIONS: [&str; 8] = ["ts", "js", "mts", "mjs", "cts", "cjs", "tsx", "jsx"];
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let path = format!("tools/t.{}", EXTENSIONS[usize::from(first) % EXTENSIONS.len()]);
    let facts = on_analysis_stack(|| analyse(&path, text, &mut Allocator::default()));
    let spans = facts.syntax_errors().iter().map(|e| e.span).chain(facts.imports.iter().map(|i| i.span));
    for span in spans.chain(facts.not_analysed().iter().map(|n| n.span)) {
        assert!(span.start() <= span.end() && span.end() <= text.len().max(1), "a span off the text: {span:?}");
    }
}

/// The xcsh contract reader, on what the module analyser accepts (the linter runs it on nothing else: the
/// parser recurses); the first byte picks the extension.
pub fn xcsh(data: &[u8]) {
    const EXTENSIONS: [&str; 4] = ["ts", "js", "mts", "mjs"];
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let path = format!(".xcsh/tools/t/index.{}", EXTENSIONS[usize::from(first) % EXTENSIONS.len()]);
    on_analysis_stack(|| {
        if analyse(&path, text, &mut Allocator::default()).is_whole() {
            crate::xcsh::analyse::analyse(&path, text);
        }
    });
}

/// The `beeuni-lint.toml` reader on any bytes (as UTF-8, lossily: the loader refuses other bytes before it
/// parses): it never panics; a config it accepts answers what the run asks of it, and a refusal names at least one
/// mistake, located in the file.
pub fn config(data: &[u8]) {
    use crate::config::{Config, FILE_NAME};
    let text = String::from_utf8_lossy(data);
    match Config::parse(&text, FILE_NAME) {
        Ok(config) => {
            let _ = (config.xcsh_folders(), config.is_excluded("tools/a.ts"), config.is_excluded(""));
        }
        Err(message) => assert!(message.starts_with("beeuni-lint.toml:"), "an unlocated refusal: {message}"),
    }
}

/// The cache's entry decoder on any bytes (the first byte picks module facts or a YAML tree): it never panics,
/// and what decodes encodes to bytes that decode to the same value (spans unbounded: no text comes with the
/// bytes). A decoded tree is walked as the loader walks one (its checks must make every index valid and every
/// alias chain one step long).
pub fn cache(data: &[u8]) {
    use crate::cache::codec::Codec;
    use crate::modules::facts::ModuleFacts;
    use crate::yaml::tree::Document;
    let Some((&first, entry)) = data.split_first() else { return };
    if first % 2 == 0 {
        if let Some(facts) = ModuleFacts::decode(entry, usize::MAX) {
            assert_eq!(ModuleFacts::decode(&facts.encode(), usize::MAX).as_ref(), Some(&facts));
        }
    } else if let Some(document) = Document::decode(entry, usize::MAX) {
        for id in 0..document.nodes.len() {
            let _ = (document.entries(id), document.items(id), document.describe(id), document.is_null(id));
        }
        let _ = document.root.map(|root| document.scalar(root));
        assert_eq!(Document::decode(&document.encode(), usize::MAX).as_ref(), Some(&document));
    }
}

/// A whole `check` of the project the input fills in `root` (a folder outside git): YAML, the spanned tree,
/// the import graph, the modules, the rules. A project's files never make the run fail (exit 2).
pub fn manifest(root: &Path, data: &[u8]) {
    if fill(root, data).is_none() {
        return;
    }
    if let Err(message) = crate::fix::offer::check(&CheckOptions::new(root.to_path_buf())) {
        panic!("a project's files made the run fail: {message}");
    }
}

/// `--fix --unsafe-fixes` planned and applied on the project the input fills in `root`: each YAML file that
/// parsed before still parses after, and fixing the fixed project changes nothing (idempotence).
pub fn fix(root: &Path, data: &[u8]) {
    if fill(root, data).is_none() {
        return;
    }
    let options = CheckOptions::new(root.to_path_buf());
    let plan = || crate::fix::plan(&options, true, Severity::Info);
    let outcome = plan().unwrap_or_else(|message| panic!("--fix failed: {message}"));
    for change in &outcome.changes {
        let path = root.join(&change.path);
        let Some(after) = &change.after else {
            std::fs::remove_file(&path).expect("delete a fixed file");
            continue;
        };
        std::fs::write(&path, after).expect("write a fixed file");
        let before = String::from_utf8_lossy(&change.before);
        let after = std::str::from_utf8(after).expect("a fix keeps the file UTF-8");
        if change.path.ends_with(".yaml")
            && crate::yaml::parse(&before).is_ok()
            && let Err(e) = crate::yaml::parse(after)
        {
            panic!("a fix broke {}: {} at {}\n{after}", change.path, e.message, e.offset);
        }
    }
    if outcome.changes.is_empty() {
        return;
    }
    let again = plan().unwrap_or_else(|message| panic!("--fix failed on fixed files: {message}"));
    let changed: Vec<&str> = again.changes.iter().map(|c| c.path.as_str()).collect();
    assert!(changed.is_empty(), "a second --fix changed {changed:?}");
}

/// Writes the input's parts as the project's files under `root` (a part the input lacks is removed).
/// `None` when a part is not UTF-8: the loaders' handling of bad bytes has tests of its own.
fn fill(root: &Path, data: &[u8]) -> Option<()> {
    let parts: Vec<&[u8]> = data.split(|&b| b == 0).take(FILES.len()).collect();
    if parts.iter().any(|part| std::str::from_utf8(part).is_err()) {
        return None;
    }
    for (i, name) in FILES.iter().enumerate() {
        let path = root.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create a project folder");
        }
        match parts.get(i) {
            Some(part) => std::fs::write(&path, part).expect("write a project file"),
            None => match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => panic!("remove {}: {e}", path.display()),
            },
        }
    }
    Some(())
}

/// Runs `f` on a thread with the analysis stack, as the linter does.
fn on_analysis_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new().stack_size(ANALYSIS_STACK).spawn_scoped(scope, f);
        match handle.expect("spawn an analysis thread").join() {
            Ok(value) => value,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
