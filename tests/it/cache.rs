//! The warm cache (`.beeuni-lint-cache/`, `--cache-dir`, `--no-cache`): it never changes a finding. Cold and
//! warm reports are the same on every fixture; a change of content, config or of what other files hold shows
//! on the next warm run; a damaged or foreign cache is ignored and written again.

use crate::common::*;
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
    // A type annotation is TypeScript, a syntax error in `.js`: the extension is part of the key.
    let typed = "export default { description: 'x', parameters: { type: 'object', properties: {} }, async execute(args: unknown) { return 'ok' } }\n";
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\n"),
        ("tools/a.ts", typed),
        ("tools/b.js", typed),
    ]);
    assert_eq!(findings(dir.path()), Vec::<String>::new());
    write(dir.path(), "beeuni.yaml", b"tools:\n  web_search: beeuni:web_search\n  a: tools/b.js\n");
    let cold = report(dir.path(), &["--no-cache"]);
    assert_eq!(report(dir.path(), &[]), cold);
    assert!(cold.contains("module-syntax"), "{cold}");
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
    let module = format!("import {{ x }} from '@/util/x'\nconsole.log(x)\n{MODULE}");
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

/// A repository of `files`, committed with modification times well before the index's, so that its stat data
/// vouches for every file (git's "racily clean" rule distrusts a file changed in the second the index was written).
fn committed(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = project(files);
    let past = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_500_000_000);
    for (path, _) in files {
        std::fs::File::options().write(true).open(dir.path().join(path)).unwrap().set_modified(past).unwrap();
    }
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "all"]);
    dir
}

/// The JSON report of a run with `BEEUNI_LINT_STATS` set, and the counts it printed: modules read, modules
/// parsed, texts read again, manifest files parsed.
fn counted(dir: &Path, args: &[&str]) -> (String, [usize; 4]) {
    let (report, [read, parsed, again, manifests, _]) = counted_all(dir, args);
    (report, [read, parsed, again, manifests])
}

/// [`counted`], and then the git objects the run opened for their length.
fn counted_all(dir: &Path, args: &[&str]) -> (String, [usize; 5]) {
    let mut all = if args.contains(&"--format") { vec![] } else { vec!["--format", "json"] };
    all.extend_from_slice(args);
    all.push(".");
    let output = bin(dir).env("BEEUNI_LINT_STATS", "1").args(&all).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let line = stderr.lines().find_map(|l| l.strip_prefix("stats: ")).unwrap_or_else(|| panic!("no stats: {stderr}"));
    let numbers: Vec<usize> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    (String::from_utf8_lossy(&output.stdout).into_owned(), numbers.try_into().unwrap())
}

const TWO_MODULES: &str = "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\n  b: tools/b.ts\n";

#[test]
fn a_warm_run_with_nothing_changed_reads_no_module() {
    let dir = committed(&[("beeuni.yaml", TWO_MODULES), ("tools/a.ts", MODULE), ("tools/b.ts", MODULE)]);
    let (cold, counts) = counted(dir.path(), &["--no-cache"]);
    assert_eq!(counts, [2, 2, 0, 1], "cold");
    let (filling, counts) = counted(dir.path(), &[]);
    assert_eq!(counts, [2, 2, 0, 1], "the run that fills the cache");
    let (warm, counts) = counted(dir.path(), &[]);
    assert_eq!(counts, [0, 0, 0, 0], "warm: every module is known by its index stat data and cached, and the manifest");
    assert_eq!((&filling, &warm), (&cold, &cold));
}

#[test]
fn one_changed_module_costs_one_read_and_one_parse() {
    let dir = committed(&[("beeuni.yaml", TWO_MODULES), ("tools/a.ts", MODULE), ("tools/b.ts", MODULE)]);
    counted(dir.path(), &[]);
    write(dir.path(), "tools/b.ts", b"export default {\n");
    let (warm, counts) = counted(dir.path(), &[]);
    // Read to be keyed by its hash, and parsed; a module that does not parse keeps its text for its finding.
    assert_eq!(counts, [1, 1, 0, 0], "{warm}");
    assert!(warm.contains("module-syntax"), "{warm}");
    assert_eq!(warm, report(dir.path(), &["--no-cache"]));
    // Changed but not staged: read (and hashed) on every run, parsed no more.
    let (again, counts) = counted(dir.path(), &[]);
    assert_eq!((counts, &again), ([1, 0, 0, 0], &warm));
    write(dir.path(), "tools/b.ts", format!("{MODULE}// edited\n").as_bytes());
    assert_eq!(counted(dir.path(), &[]).1, [1, 1, 0, 0]);
    // A manifest edit costs that file's parse, and nothing more.
    write(dir.path(), "beeuni.yaml", format!("# edited\n{TWO_MODULES}").as_bytes());
    assert_eq!(counted(dir.path(), &[]).1, [1, 0, 0, 1]);
}

#[test]
fn only_a_module_a_finding_is_shown_in_is_read_again() {
    let broken = "// beeuni-lint: ignore[module-no-default-export]\nexport default {\n";
    let dir = committed(&[("beeuni.yaml", TWO_MODULES), ("tools/a.ts", MODULE), ("tools/b.ts", broken)]);
    let (cold, _) = counted(dir.path(), &["--no-cache"]);
    assert!(cold.contains("module-syntax"), "{cold}");
    counted(dir.path(), &[]);
    for format in ["json", "human", "sarif"] {
        let (_, counts) = counted(dir.path(), &["--format", format]);
        assert_eq!(counts, [0, 0, 1, 0], "--format {format}: only tools/b.ts is read, to place its findings");
    }
    assert_eq!(counted(dir.path(), &[]).0, cold);
}

#[test]
fn a_warm_staged_run_reads_no_blob_it_has_facts_for() {
    let broken = "export default {\n";
    let dir = committed(&[("beeuni.yaml", TWO_MODULES), ("tools/a.ts", MODULE), ("tools/b.ts", broken)]);
    let (cold, counts) = counted(dir.path(), &["--staged", "--no-cache"]);
    assert_eq!(counts, [2, 2, 0, 1], "cold: both blobs read and parsed");
    assert!(cold.contains("module-syntax"), "{cold}");
    counted(dir.path(), &["--staged"]);
    let (warm, counts) = counted(dir.path(), &["--staged"]);
    // Only the blob a finding is shown in is read, from git, to place it.
    assert_eq!((counts, &warm), ([0, 0, 1, 0], &cold));
}

/// The pre-commit hook lints the index (`--staged`) on every commit. Once a run has made a module's facts of its
/// blob, the hook finds them by the blob's id alone: it opens no git object, not even for its header (a loose object
/// each: a file opened, mapped and inflated).
#[test]
fn a_warm_staged_run_opens_no_git_object() {
    let other = MODULE.replace("'x'", "'y'");
    let dir = committed(&[("beeuni.yaml", TWO_MODULES), ("tools/a.ts", MODULE), ("tools/b.ts", &other)]);
    let (cold, all) = counted_all(dir.path(), &["--staged", "--no-cache"]);
    assert_eq!(all, [2, 2, 0, 1, 2], "cold: each blob's length asked (the module limit), then the blob read");
    // A work-tree run fills the cache: the index's stat data vouches for the files, which are not known to be the
    // blobs (git may convert them, keeping the length: see the test below), so the hook's first run reads them.
    counted(dir.path(), &[]);
    let (first, all) = counted_all(dir.path(), &["--staged"]);
    assert_eq!(all, [2, 2, 0, 0, 2], "the hook's first run after a work-tree run");
    let (warm, all) = counted_all(dir.path(), &["--staged"]);
    assert_eq!(all, [0, 0, 0, 0, 0], "the hook's next runs open no object");
    assert_eq!((&first, &warm), (&cold, &cold));
    // The entries made of the blobs serve the work tree too (git converts nothing here).
    assert_eq!(counted_all(dir.path(), &[]).1, [0, 0, 0, 0, 0]);
    assert_eq!(counted_all(dir.path(), &["--staged"]).1, [0, 0, 0, 0, 0], "and the hook after it");
    // A module staged with new content: its blob's length asked, the blob read and parsed; the other untouched.
    write(dir.path(), "tools/b.ts", b"export default {\n");
    git(dir.path(), &["add", "tools/b.ts"]);
    let (changed, all) = counted_all(dir.path(), &["--staged"]);
    assert_eq!(all, [1, 1, 0, 0, 1], "{changed}");
    assert_eq!(changed, report(dir.path(), &["--staged", "--no-cache"]));
    assert!(changed.contains("module-syntax"), "{changed}");
    // Made of the blob, its entry is found by the id next time; the blob is read again only to show the finding.
    assert_eq!(counted_all(dir.path(), &["--staged"]), (changed, [0, 0, 1, 0, 0]));
}

/// A clean filter that keeps the length (`BAD)` in the work tree is `BAD ` in the blob): the work-tree file does not
/// parse, the blob does, and both have the blob's id and length. A `--staged` run after a work-tree run, and `impact`
/// after it, must say what the blob says, never what the cached work-tree file said.
#[test]
fn a_filter_that_keeps_the_length_never_gives_the_work_tree_s_facts_to_the_blob() {
    let module = "export default { description: 'x', b: BAD), parameters: { type: 'object', properties: {} }, async execute() { return 'ok' } }\n";
    let dir = project(&[("beeuni.yaml", TWO_MODULES), ("tools/a.ts", module), ("tools/b.ts", MODULE)]);
    write(dir.path(), ".gitattributes", b"tools/*.ts filter=fix\n");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["config", "filter.fix.clean", "sed 's/BAD)/BAD /'"]);
    git(dir.path(), &["config", "filter.fix.smudge", "cat"]);
    let past = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_500_000_000);
    for path in ["beeuni.yaml", "tools/a.ts", "tools/b.ts", ".gitattributes"] {
        std::fs::File::options().write(true).open(dir.path().join(path)).unwrap().set_modified(past).unwrap();
    }
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "all"]);
    let blob = report(dir.path(), &["--staged", "--no-cache"]);
    assert!(!blob.contains("module-syntax"), "the blob parses: {blob}");
    let work_tree = report(dir.path(), &[]);
    assert!(work_tree.contains("module-syntax"), "the work-tree file does not: {work_tree}");
    assert_eq!(report(dir.path(), &["--staged"]), blob, "the hook after the work-tree run");
    assert_eq!(report(dir.path(), &["--staged"]), blob, "and again");
}

/// The module limit holds for a blob found by its id: the entry gives its length, and a blob past the limit is
/// reported as without its entry, with no object opened.
#[test]
fn a_blob_past_the_limit_is_known_by_its_entry_s_length() {
    let dir = committed(&[
        ("beeuni.yaml", TWO_MODULES),
        ("tools/a.ts", MODULE),
        ("tools/b.ts", MODULE),
        ("small.toml", "[limits]\nmodule-bytes = 20\n"),
    ]);
    counted(dir.path(), &["--staged"]);
    counted(dir.path(), &["--staged"]);
    assert_eq!(counted_all(dir.path(), &["--staged"]).1, [0, 0, 0, 0, 0]);
    let (limited, all) = counted_all(dir.path(), &["--staged", "--config", "small.toml"]);
    assert_eq!(all[4], 0, "{limited}");
    assert_eq!(limited, report(dir.path(), &["--staged", "--no-cache", "--config", "small.toml"]));
    assert!(limited.contains("analysis-limit"), "{limited}");
}

/// Writes `files` with CRLF line breaks (as git checks them out under `core.autocrlf=true`), dated in the past (not
/// racy), and commits them in a repository with `core.autocrlf=true`: the blobs hold LF, the work tree CRLF, and the
/// index's stat data says the files are unchanged since staged.
fn committed_crlf(files: &[(&str, &str)]) -> tempfile::TempDir {
    let crlf: Vec<(&str, String)> = files.iter().map(|&(path, text)| (path, text.replace('\n', "\r\n"))).collect();
    let crlf: Vec<(&str, &str)> = crlf.iter().map(|(path, text)| (*path, text.as_str())).collect();
    let dir = project(&[]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["config", "core.autocrlf", "true"]);
    let past = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_500_000_000);
    for (path, text) in &crlf {
        write(dir.path(), path, text.as_bytes());
        std::fs::File::options().write(true).open(dir.path().join(path)).unwrap().set_modified(past).unwrap();
    }
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "crlf"]);
    dir
}

/// The pre-commit hook's `--staged` run caches what it made of the index's LF blobs; the work-tree run after it
/// reads the CRLF files (the same blob ids, from the index's stat data) and must not be given those facts: every
/// position past the first line break would be off, and `--fix` would write its edit bytes away from `All`.
#[test]
fn a_staged_run_s_entries_never_serve_a_work_tree_that_git_converts() {
    let manifest = "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\nagents:\n  r:\n    tools: All\n";
    let module = "// one\n// two\nexport default { description: 'x', ) }\n";
    let dir = committed_crlf(&[("beeuni.yaml", manifest), ("tools/a.ts", module)]);
    assert_eq!(std::fs::read(dir.path().join("tools/a.ts")).unwrap(), module.replace('\n', "\r\n").as_bytes());
    let cold = report(dir.path(), &["--no-cache"]);
    let (_, staged) = counted(dir.path(), &["--staged"]);
    assert_eq!(staged[..2], [1, 1], "the staged run parsed the blob (and cached it)");
    let (warm, counts) = counted(dir.path(), &[]);
    assert_eq!(warm, cold, "the work-tree run after the staged one");
    assert_eq!(counts[..2], [1, 1], "the work-tree file read and parsed, not taken from the blob's entry");
    let expected: [Expect; 2] = [
        (
            "agent-tools-shape",
            "error",
            "beeuni.yaml",
            6,
            12,
            "`tools` of agent `r` must be `all`, `none`, a list of tools, `{exclude: [...]}` or a map of booleans, not \
             `All`",
        ),
        ("module-syntax", "error", "tools/a.ts", 3, 36, "`tools/a.ts` does not parse: Unexpected token"),
    ];
    assert_findings(&serde_json::from_str(&warm).unwrap(), &expected);
    // Both runs' entries in the cache, the staged run again and `--fix` on the work tree.
    counted(dir.path(), &["--staged"]);
    let fixed = run_in(dir.path(), &["--fix", "--format", "json", "."]);
    assert_eq!(fixed.code, 1, "{}", fixed.stderr);
    let fixed_manifest = manifest.replace("tools: All", "tools: all").replace('\n', "\r\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap(), fixed_manifest);
    assert_eq!(std::fs::read(dir.path().join("tools/a.ts")).unwrap(), module.replace('\n', "\r\n").as_bytes());
}
