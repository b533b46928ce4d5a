//! The warm cache (`.beeuni-lint-cache/`, `--cache-dir`, `--no-cache`): it never changes a finding. Cold and
//! warm reports are the same on every fixture; a change of content, config or of what other files hold shows
//! on the next warm run; a damaged or foreign cache is ignored and written again.

mod common;

use common::*;
use std::path::Path;

const CACHE: &str = ".beeuni-lint-cache/modules.bin";

/// The report of `check --format json` with these extra arguments, as text (byte-for-byte comparisons).
fn report(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    all.push(".");
    run_in(dir, &all).stdout
}

/// The findings as `rule path:line`, for readable assertions.
fn findings(dir: &Path) -> Vec<String> {
    let (_, report) = json_in(dir, &[]);
    diagnostics(&report)
        .iter()
        .map(|d| format!("{} {}:{}", d["rule"].as_str().unwrap(), d["path"], d["line"]))
        .collect()
}

#[test]
fn cold_and_warm_reports_are_identical_on_every_fixture() {
    let mut names: Vec<_> = std::fs::read_dir(fixture_path("")).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    let mut with_modules = 0;
    for name in names {
        let name = name.to_str().unwrap();
        let dir = fixture(name);
        let cold = report(dir.path(), &["--no-cache"]);
        assert!(!dir.path().join(".beeuni-lint-cache").exists(), "{name}: --no-cache wrote a cache");
        let filling = report(dir.path(), &[]);
        let warm = report(dir.path(), &[]);
        assert_eq!(cold, filling, "{name}: the run that fills the cache differs from a cold one");
        assert_eq!(cold, warm, "{name}: the warm run differs from a cold one");
        with_modules += usize::from(dir.path().join(CACHE).exists());
    }
    assert!(with_modules > 40, "only {with_modules} fixtures cached module facts");
}

#[test]
fn an_unchanged_warm_run_parses_nothing_and_writes_nothing() {
    let dir = fixture("mod-helpers");
    report(dir.path(), &[]);
    let cache = dir.path().join(CACHE);
    let written = std::fs::read(&cache).unwrap();
    assert!(written.starts_with(b"beeuni-lint cache\n"));
    let ignore = std::fs::read_to_string(dir.path().join(".beeuni-lint-cache/.gitignore")).unwrap();
    assert!(ignore.lines().any(|line| line == "*"), "{ignore}");
    // Every entry is a hit: the file is not rewritten (a rewrite would replace it by a new inode).
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let before = inode(&cache);
    report(dir.path(), &[]);
    assert_eq!(inode(&cache), before, "a warm run without changes rewrote the cache");
    assert_eq!(std::fs::read(&cache).unwrap(), written);
}

#[test]
fn a_changed_module_changes_the_findings() {
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\n  b: tools/b.ts\n"),
        ("tools/a.ts", MODULE),
        ("tools/b.ts", MODULE),
    ]);
    assert_eq!(findings(dir.path()), Vec::<String>::new());
    write(dir.path(), "tools/b.ts", b"export default {\n");
    assert_eq!(findings(dir.path()), ["module-syntax \"tools/b.ts\":2"]);
    // Back to the first content: its facts are still cached, and still right.
    write(dir.path(), "tools/b.ts", MODULE.as_bytes());
    assert_eq!(findings(dir.path()), Vec::<String>::new());
}

#[test]
fn the_same_bytes_under_another_extension_are_analysed_again() {
    // `module.exports` is a default export in `.js`, not in `.mjs`: the extension is part of the key.
    let cjs = "module.exports = { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return 'ok' } }\n";
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  a: tools/a.js\n"),
        ("tools/a.js", cjs),
        ("tools/b.mjs", cjs),
    ]);
    assert_eq!(findings(dir.path()), Vec::<String>::new());
    write(dir.path(), "beeuni.yaml", b"tools:\n  web_search: beeuni:web_search\n  a: tools/b.mjs\n");
    let cold = report(dir.path(), &["--no-cache"]);
    assert_eq!(report(dir.path(), &[]), cold);
    assert!(cold.contains("module-no-default-export"), "{cold}");
}

#[test]
fn a_config_change_shows_on_a_warm_run() {
    let dir = fixture("mod-module-syntax");
    let before = findings(dir.path());
    assert!(before.iter().any(|f| f.starts_with("module-syntax ")), "{before:?}");
    write(dir.path(), "beeuni-lint.toml", b"[rules]\nmodule-syntax = \"off\"\n");
    let after = findings(dir.path());
    assert!(!after.iter().any(|f| f.starts_with("module-syntax ")), "{after:?}");
    assert_eq!(report(dir.path(), &[]), report(dir.path(), &["--no-cache"]));
}

#[test]
fn a_package_removed_from_node_modules_shows_on_a_warm_run() {
    let dir = fixture("mod-module-package-not-installed-clean");
    let before = findings(dir.path());
    assert!(!before.iter().any(|f| f.starts_with("module-package-not-installed ")), "{before:?}");
    std::fs::remove_dir_all(dir.path().join("node_modules/zod")).unwrap();
    let after = findings(dir.path());
    assert!(after.iter().any(|f| f.starts_with("module-package-not-installed ")), "{after:?}");
    assert_eq!(report(dir.path(), &[]), report(dir.path(), &["--no-cache"]));
}

#[test]
fn a_helper_untracked_shows_on_a_warm_run() {
    let dir = fixture("mod-helpers-clean");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "all"]);
    assert!(!findings(dir.path()).iter().any(|f| f.starts_with("file-untracked ")));
    let helper = helper_of(dir.path());
    git(dir.path(), &["rm", "-q", "--cached", &helper]);
    let after = findings(dir.path());
    assert!(after.iter().any(|f| f.starts_with("file-untracked ")), "{after:?}");
    assert_eq!(report(dir.path(), &[]), report(dir.path(), &["--no-cache"]));
}

/// A tracked helper file of the fixture (under `lib/` or `helpers/`).
fn helper_of(root: &Path) -> String {
    for folder in ["lib", "helpers", "tools/lib"] {
        if let Ok(entries) = std::fs::read_dir(root.join(folder)) {
            let mut names: Vec<String> = entries.map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
            names.sort();
            if let Some(name) = names.into_iter().find(|n| n.ends_with(".ts") || n.ends_with(".js")) {
                return format!("{folder}/{name}");
            }
        }
    }
    panic!("no helper in {}", root.display());
}

#[test]
fn a_damaged_or_foreign_cache_is_ignored_and_written_again() {
    let dir = fixture("mod-module-process-env");
    let cold = report(dir.path(), &["--no-cache"]);
    report(dir.path(), &[]);
    let cache = dir.path().join(CACHE);
    let good = std::fs::read(&cache).unwrap();
    let version = format!("beeuni-lint cache\n{} ", env!("CARGO_PKG_VERSION"));
    assert!(good.starts_with(version.as_bytes()));

    let mut flipped = good.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x55;
    let foreign = [b"beeuni-lint cache\n0.0.0-other 1\n".as_slice(), &good[version.len() + 2..]].concat();
    for (what, bytes) in [
        ("a flipped byte", flipped),
        ("a truncated file", good[..good.len() / 2].to_vec()),
        ("another version", foreign),
        ("garbage", b"not a cache at all".to_vec()),
        ("an empty file", Vec::new()),
    ] {
        std::fs::write(&cache, &bytes).unwrap();
        assert_eq!(report(dir.path(), &[]), cold, "with {what} in the cache");
        assert_eq!(std::fs::read(&cache).unwrap(), good, "the cache was not rewritten after {what}");
    }
}

#[test]
fn cache_dir_and_no_cache() {
    let dir = fixture("mod-module-process-env");
    let elsewhere = tempfile::TempDir::new().unwrap();
    let cache_dir = elsewhere.path().join("c");
    let cold = report(dir.path(), &["--cache-dir", cache_dir.to_str().unwrap()]);
    assert!(cache_dir.join("modules.bin").is_file());
    assert!(!dir.path().join(".beeuni-lint-cache").exists());
    assert_eq!(report(dir.path(), &["--cache-dir", cache_dir.to_str().unwrap()]), cold);
    let both = run_in(dir.path(), &["--no-cache", "--cache-dir", "x", "."]);
    assert_eq!(both.code, 2, "{}", both.stderr);
}

#[test]
fn a_tsconfig_paths_edit_shows_on_a_warm_run() {
    let module = format!("import {{ x }} from '@/util/x'\n{MODULE}");
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\n"),
        ("tools/a.ts", &module),
        ("src/util/x.ts", "export const x = 1\n"),
        ("tsconfig.json", "{ \"compilerOptions\": { \"paths\": { \"@/*\": [\"./src/*\"] } } }\n"),
    ]);
    assert!(!findings(dir.path()).iter().any(|f| f.starts_with("module-import-missing ")));
    write(dir.path(), "tsconfig.json", b"{ \"compilerOptions\": { \"paths\": { \"@/*\": [\"./lib/*\"] } } }\n");
    let after = findings(dir.path());
    assert!(after.iter().any(|f| f.starts_with("module-import-missing ")), "{after:?}");
    assert_eq!(report(dir.path(), &[]), report(dir.path(), &["--no-cache"]));
}
