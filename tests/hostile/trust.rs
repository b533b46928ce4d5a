//! Hostile inputs: trust. A pull request cannot have its own cache decide its findings: a cache folder the
//! repository tracks, or one in the work tree that git does not ignore, is not used even when `--cache-dir` names
//! it, and a `--cache-dir` that a link in the repository leads out of it is neither read nor written. Each refusal is
//! one line on standard error, and the run parses every module as a run without a cache does.

#[allow(unused_imports)]
use crate::support::*;
use beeuni_lint::cache::ModuleCache;
use beeuni_lint::modules::facts::ModuleFacts;
use std::path::{Path, PathBuf};

const MANIFEST: &str = "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\n";

/// A module that does not parse, longer than [`MODULE`] (facts forged for it must fit its text).
fn broken() -> String {
    format!("// {}\nexport default {{\n", "-".repeat(MODULE.len()))
}

/// The finding a run without a cache gives for [`broken`].
const SYNTAX: crate::common::Expect =
    ("module-syntax", "error", "tools/a.ts", 3, 1, "`tools/a.ts` does not parse: Expected `}` but found `EOF`");

fn blob_id(bytes: &[u8]) -> gix::ObjectId {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes).expect("a SHA-1 id")
}

/// Writes in `dir` a cache this build accepts whose entry for [`broken`] holds the facts of the good [`MODULE`]: a
/// forgery that says the broken module is fine (made with the build's own code, as one who has the binary can).
fn forge(dir: &Path) {
    let good = tempfile::TempDir::new().expect("temporary folder");
    write(good.path(), "beeuni.yaml", MANIFEST.as_bytes());
    write(good.path(), "tools/a.ts", MODULE.as_bytes());
    let made = good.path().join("made");
    let outcome = run(good.path(), &["--cache-dir", made.to_str().expect("UTF-8"), "."]);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr());
    let cache = ModuleCache::open(made);
    let (facts, _) =
        cache.module::<ModuleFacts>(&blob_id(MODULE.as_bytes()), "tools/a.ts", MODULE.len()).expect("cached facts");
    let forged = ModuleCache::open(dir.to_path_buf());
    let entry = ModuleCache::new_entry(blob_id(broken().as_bytes()), broken().len(), true).expect("a key");
    forged.keep(entry, "tools/a.ts", &facts);
    forged.store();
    assert!(dir.join("modules.bin").is_file(), "the forgery is written");
}

/// A sandbox whose project has the broken module, committed.
fn broken_project() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).file("tools/a.ts", broken()).commit("a broken module");
    sandbox
}

/// Every file under `dir` with its bytes, by path.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        all.push((path.clone(), std::fs::read(&path).expect("a file")));
    }
    all.sort();
    all
}

/// Runs `check --format json --cache-dir CACHE_DIR .`, checks it bounded, the outside folder untouched, the finding
/// of [`broken`] reported, and standard error `note` alone (one line).
fn refused(sandbox: &Sandbox, cache_dir: &str, note: &str) {
    let what = format!("--cache-dir {cache_dir}");
    let outcome = sandbox.run(&["--format", "json", "--cache-dir", cache_dir, "."]);
    outcome.assert_bounded(&what);
    sandbox.assert_untouched(&what, &outcome);
    assert_eq!(outcome.code, Some(1), "{what}: {}", outcome.stderr());
    crate::common::assert_findings(&outcome.json(), &[SYNTAX]);
    assert_eq!(outcome.stderr(), format!("beeuni-lint: cache off: {note}\n"), "{what}");
}

#[test]
fn a_forged_cache_the_pull_request_commits_is_refused_wherever_cache_dir_names_it() {
    let sandbox = broken_project();
    let forged = sandbox.repo.join("ci/cache");
    forge(&forged);
    // The forgery is sound for this build: where it is the user's own (outside the repository), it hides the error.
    let elsewhere = tempfile::TempDir::new().expect("temporary folder");
    forge(elsewhere.path());
    let trusted = sandbox.run(&["--format", "json", "--cache-dir", elsewhere.path().to_str().expect("UTF-8"), "."]);
    assert_eq!((trusted.code, trusted.json()["diagnostics"].clone()), (Some(0), serde_json::json!([])));
    // Its own `.gitignore` keeps it from `git add -A`: the pull request adds it by force.
    git(&sandbox.repo, &["add", "-f", "ci/cache"]);
    sandbox.commit("a forged cache");
    let before = contents(&forged);
    let note = "git tracks `ci/cache` (a repository must not decide its own findings): untrack it with `git rm -r \
                --cached ci/cache`";
    let absolute = forged.to_str().expect("UTF-8").to_string();
    for cache_dir in ["ci/cache", "./ci/../ci/cache/", absolute.as_str()] {
        refused(&sandbox, cache_dir, note);
    }
    // From a subfolder, the path is taken from there; and `--fix` reads the cache as `check` does.
    let from_tools = run(&sandbox.repo.join("tools"), &["--format", "json", "--cache-dir", "../ci/cache", ".."]);
    from_tools.assert_bounded("from tools/");
    crate::common::assert_findings(&from_tools.json(), &[SYNTAX]);
    assert_eq!(from_tools.stderr(), format!("beeuni-lint: cache off: {note}\n"));
    let fixed = sandbox.run(&["--fix", "--format", "json", "--cache-dir", "ci/cache", "."]);
    fixed.assert_bounded("--fix");
    crate::common::assert_findings(&fixed.json(), &[SYNTAX]);
    let summary = "Fixed 0 findings in 0 files; 1 finding remains.\n";
    assert_eq!(fixed.stderr(), format!("beeuni-lint: cache off: {note}\n{summary}"));
    // A file tracked anywhere in it is enough: the folder is the repository's.
    git(&sandbox.repo, &["rm", "-q", "--cached", "ci/cache/modules.bin"]);
    refused(&sandbox, "ci/cache", note);
    assert_eq!(contents(&forged), before, "nothing written in the refused folder");
}

#[test]
fn a_folder_in_the_work_tree_that_git_does_not_ignore_is_refused() {
    let sandbox = broken_project();
    // Untracked, but not ignored: one `git add -A` from being the repository's (its `.gitignore` gone).
    for dir in ["scratch/cache", ".beeuni-lint-cache"] {
        let folder = sandbox.repo.join(dir);
        forge(&folder);
        std::fs::remove_file(folder.join(".gitignore")).expect("the folder's .gitignore");
    }
    let note = "`scratch/cache` is in the work tree and git does not ignore it (a repository must not decide its own \
                findings): ignore it in `.gitignore`, or pass a `--cache-dir` outside the repository";
    refused(&sandbox, "scratch/cache", note);
    // The project's own folder alike.
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("the project's folder");
    crate::common::assert_findings(&outcome.json(), &[SYNTAX]);
    let note = note.replace("scratch/cache", ".beeuni-lint-cache");
    assert_eq!(outcome.stderr(), format!("beeuni-lint: cache off: {note}\n"));
    // The work tree's root, whatever its ignore rules say of the file.
    sandbox.file(".gitignore", "modules.bin\n");
    let root = "`.` is in the work tree and git does not ignore it (a repository must not decide its own findings): \
                ignore it in `.gitignore`, or pass a `--cache-dir` outside the repository";
    refused(&sandbox, ".", root);
    assert!(!sandbox.repo.join("modules.bin").exists(), "nothing written at the root");
    // Ignored (and untracked), it is the user's folder: used, and written.
    sandbox.file(".gitignore", "/scratch/\n");
    let outcome = sandbox.run(&["--format", "json", "--cache-dir", "scratch/cache", "."]);
    outcome.assert_bounded("ignored");
    assert_eq!((outcome.code, outcome.stderr()), (Some(0), String::new()), "the user's own forgery is theirs");
    // An empty folder is the run's to fill: its `.gitignore` is written first.
    let empty = sandbox.repo.join("fresh");
    std::fs::create_dir(&empty).expect("a folder");
    let outcome = sandbox.run(&["--format", "json", "--cache-dir", "fresh", "."]);
    outcome.assert_bounded("empty");
    crate::common::assert_findings(&outcome.json(), &[SYNTAX]);
    assert_eq!(outcome.stderr(), "");
    assert!(empty.join("modules.bin").is_file() && empty.join(".gitignore").is_file());
}

#[test]
fn a_cache_dir_a_committed_link_leads_out_of_the_repository_is_neither_read_nor_written() {
    let sandbox = broken_project();
    sandbox.link("cache-link", "../outside").link("deep/link", &sandbox.outside).commit("links out");
    // A path given on the command line through a committed link out of the repository is refused as every such
    // path is (crate::repo::given): exit 2, nothing read or written there.
    sandbox.link("dangling", "../outside/none").commit("a dangling link");
    let root = sandbox.repo.display().to_string();
    for (given, link) in [
        ("cache-link", None),
        ("cache-link/made", Some("cache-link")),
        ("deep/link/x/y", Some("deep/link")),
        ("dangling/c", Some("dangling")),
    ] {
        let what = format!("--cache-dir {given}");
        let outcome = sandbox.run(&["--format", "json", "--cache-dir", given, "."]);
        outcome.assert_bounded(&what);
        sandbox.assert_untouched(&what, &outcome);
        assert_eq!(outcome.code, Some(2), "{what}: {}", outcome.stderr());
        let through = match link {
            None => "is a symlink".to_string(),
            Some(link) => format!("goes through `{link}`, a symlink"),
        };
        let message = format!(
            "beeuni-lint: --cache-dir `{given}` {through} to outside the repository at {root}: beeuni-lint reads and \
             writes nothing outside it\n"
        );
        assert_eq!(outcome.stderr(), message, "{what}");
    }
    // A link that stays inside is judged where it leads: here an ignored folder, used.
    sandbox.file(".gitignore", "/kept/\n").file("kept/.keep", "");
    sandbox.link("inner", "kept");
    let outcome = sandbox.run(&["--format", "json", "--cache-dir", "inner", "."]);
    outcome.assert_bounded("inner link");
    sandbox.assert_untouched("inner link", &outcome);
    crate::common::assert_findings(&outcome.json(), &[SYNTAX]);
    assert_eq!(outcome.stderr(), "");
    assert!(sandbox.repo.join("kept/modules.bin").is_file(), "written where the link leads");
}

#[test]
fn a_refused_folder_s_name_reaches_standard_error_without_its_control_bytes() {
    let sandbox = broken_project();
    let name = "evil\u{1b}[2J\u{202e}\r";
    let forged = sandbox.repo.join(name);
    forge(&forged);
    git(&sandbox.repo, &["add", "-f", "--", name]);
    sandbox.commit("a forged cache with a terminal in its name");
    // Shown escaped, as every output shows repository text (crate::source::escape).
    let shown = "evil\\u{1b}[2J\\u{202e}\\r";
    let note = format!(
        "git tracks `{shown}` (a repository must not decide its own findings): untrack it with `git rm -r --cached \
         {shown}`"
    );
    refused(&sandbox, name, &note);
}
