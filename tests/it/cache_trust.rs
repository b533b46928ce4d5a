//! The cache is the run's own to trust: a cache folder the repository commits, a folder or file that is a link, a
//! FIFO in place of the file are never read (a forged entry there would hide a real finding), never written
//! through, and never hang the run; the findings stay those of a cold run.

use crate::common::*;
use beeuni_lint::cache::ModuleCache;
use beeuni_lint::modules::facts::ModuleFacts;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

const MANIFEST: &str = "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\n";
const DIR: &str = ".beeuni-lint-cache";

/// A module that does not parse, longer than [`MODULE`] (facts forged for it must fit its text).
fn broken() -> String {
    format!("// {}\nexport default {{\n", "-".repeat(MODULE.len()))
}

/// What a cold run finds in [`broken`] at `tools/a.ts`.
const FOUND: &str = "module-syntax tools/a.ts:3 ";

fn blob_id(bytes: &[u8]) -> gix::ObjectId {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes).unwrap()
}

/// Writes in `dir` a cache whose entry for [`broken`] holds the facts of the good [`MODULE`]: a forgery that says
/// the broken module is fine.
fn forge(dir: &Path) {
    let good = project(&[("beeuni.yaml", MANIFEST), ("tools/a.ts", MODULE)]);
    assert_eq!(run_in(good.path(), &["."]).code, 0);
    let cache = ModuleCache::open(good.path().join(DIR));
    let (facts, _) =
        cache.module::<ModuleFacts>(&blob_id(MODULE.as_bytes()), "tools/a.ts", MODULE.len()).expect("cached facts");
    let forged = ModuleCache::open(dir.to_path_buf());
    let entry = ModuleCache::new_entry(blob_id(broken().as_bytes()), broken().len(), true).expect("a key");
    forged.keep(entry, "tools/a.ts", &facts);
    forged.store();
    assert!(dir.join("modules.bin").is_file());
}

/// The project of [`broken`].
fn broken_project() -> tempfile::TempDir {
    project(&[("beeuni.yaml", MANIFEST), ("tools/a.ts", &broken())])
}

/// The findings of `check --format json ARGS .` as `rule path:line message`, and what it printed on standard error.
fn findings(dir: &Path, args: &[&str]) -> (Vec<String>, String) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    all.push(".");
    let run = run_in(dir, &all);
    (listed(run.stdout.as_bytes()), run.stderr)
}

/// The findings of a JSON report as `rule path:line message`.
fn listed(report: &[u8]) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_slice(report).unwrap();
    let text = |value: &serde_json::Value| value.as_str().unwrap().to_string();
    diagnostics(&report)
        .iter()
        .map(|d| format!("{} {}:{} {}", text(&d["rule"]), text(&d["path"]), d["line"], text(&d["message"])))
        .collect()
}

/// The one finding of [`broken`], as [`findings`] gives it, from a cold run.
fn cold(dir: &Path) -> Vec<String> {
    let (found, _) = findings(dir, &["--no-cache"]);
    assert!(found.len() == 1 && found[0].starts_with(FOUND), "{found:?}");
    found
}

/// Every file under `dir` with its bytes (a link as where it points).
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let bytes = match std::fs::read_link(&path) {
                Ok(target) => target.into_os_string().into_encoded_bytes(),
                Err(_) => std::fs::read(&path).unwrap(),
            };
            (path, bytes)
        })
        .collect();
    all.sort();
    all
}

#[test]
fn a_cache_folder_the_repository_commits_is_not_used() {
    let dir = broken_project();
    let expected = cold(dir.path());
    forge(&dir.path().join(DIR));
    // The forgery works where it is trusted (a folder the user names): it hides the finding.
    assert_eq!(findings(dir.path(), &["--cache-dir", DIR]), (vec![], String::new()));
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["add", "-f", DIR]);
    git(dir.path(), &["commit", "-qm", "a forged cache"]);
    let forged = contents(&dir.path().join(DIR));
    let note = "beeuni-lint: cache off: git tracks `.beeuni-lint-cache` (a repository must not decide its own \
                findings): untrack it with `git rm -r --cached .beeuni-lint-cache`\n";
    for args in [&[][..], &["--staged"], &["--base", "HEAD"]] {
        assert_eq!(findings(dir.path(), args), (expected.clone(), note.to_string()), "{args:?}");
    }
    // `--fix` loads the project again after each round of fixes: the note is printed once.
    write(dir.path(), "beeuni.yaml", format!("{MANIFEST}agents:\n  r:\n    tools: All\n").as_bytes());
    let fixed = run_in(dir.path(), &["--fix", "--format", "json", "."]);
    assert_eq!(listed(fixed.stdout.as_bytes()), expected);
    let fix = "fixed beeuni.yaml:6: safe[agent-tools-shape] replaced `All` with `all` in `tools:`\n";
    assert_eq!(fixed.stderr, format!("{note}{fix}Fixed 1 finding in 1 file; 1 finding remains.\n"));
    write(dir.path(), "beeuni.yaml", MANIFEST.as_bytes());
    assert_eq!(contents(&dir.path().join(DIR)), forged, "nothing written there either");
    // Untracked, as the note says: the folder is the user's again (and the forgery theirs to have made).
    git(dir.path(), &["rm", "-rq", "--cached", DIR]);
    assert_eq!(findings(dir.path(), &[]), (vec![], String::new()));
}

#[test]
fn a_project_in_a_subfolder_is_told_the_path_from_the_repository_root() {
    let dir = tempfile::TempDir::new().unwrap();
    write(dir.path(), "apps/agent/beeuni.yaml", MANIFEST.as_bytes());
    write(dir.path(), "apps/agent/tools/a.ts", broken().as_bytes());
    // Committed in another spelling: on a case-insensitive file system it is the folder the run would open.
    write(dir.path(), "apps/agent/.Beeuni-Lint-Cache/modules.bin", b"");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    let note = "beeuni-lint: cache off: git tracks `apps/agent/.Beeuni-Lint-Cache` (a repository must not decide \
                its own findings): untrack it with `git rm -r --cached apps/agent/.Beeuni-Lint-Cache`\n";
    let (found, stderr) = findings(&dir.path().join("apps/agent"), &[]);
    assert_eq!((found.len(), stderr.as_str()), (1, note), "{found:?}");
}

#[cfg(unix)]
#[test]
fn a_cache_folder_that_is_a_link_is_neither_read_nor_written() {
    let dir = broken_project();
    let expected = cold(dir.path());
    let outside = tempfile::TempDir::new().unwrap();
    forge(outside.path());
    // A temporary file old enough for a run to clean up, were it in the run's own folder.
    let stale = outside.path().join("modules.bin.4242.tmp");
    std::fs::File::create(&stale).unwrap().set_modified(SystemTime::now() - Duration::from_secs(7200)).unwrap();
    let before = contents(outside.path());
    std::os::unix::fs::symlink(outside.path(), dir.path().join(DIR)).unwrap();
    let note = "beeuni-lint: cache off: `.beeuni-lint-cache` is a symbolic link: replace it with a folder, or pass \
                `--cache-dir DIR`\n";
    assert_eq!(findings(dir.path(), &[]), (expected, note.to_string()));
    assert_eq!(contents(outside.path()), before);
}

/// The project of [`broken`] and its cache folder: the project's own, or one named by `--cache-dir` (its
/// arguments) in `elsewhere`.
fn cache_folder(dir: &Path, elsewhere: &Path, explicit: bool) -> (PathBuf, Vec<String>) {
    let (folder, args) = match explicit {
        true => (elsewhere.join("c"), vec!["--cache-dir".to_string(), elsewhere.join("c").display().to_string()]),
        false => (dir.join(DIR), vec![]),
    };
    std::fs::create_dir_all(&folder).unwrap();
    (folder, args)
}

#[cfg(unix)]
#[test]
fn a_cache_file_that_is_a_link_is_not_read() {
    for explicit in [false, true] {
        let dir = broken_project();
        let expected = cold(dir.path());
        let (outside, elsewhere) = (tempfile::TempDir::new().unwrap(), tempfile::TempDir::new().unwrap());
        forge(outside.path());
        let target = outside.path().join("modules.bin");
        let before = std::fs::read(&target).unwrap();
        let (folder, args) = cache_folder(dir.path(), elsewhere.path(), explicit);
        std::os::unix::fs::symlink(&target, folder.join("modules.bin")).unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(findings(dir.path(), &args), (expected, String::new()), "--cache-dir: {explicit}");
        assert_eq!(std::fs::read(&target).unwrap(), before);
        // The run put its own file in the link's place, not through it.
        assert!(std::fs::symlink_metadata(folder.join("modules.bin")).unwrap().is_file());
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_the_cache_file_does_not_hang_the_run() {
    for explicit in [false, true] {
        let dir = broken_project();
        let expected = cold(dir.path());
        let elsewhere = tempfile::TempDir::new().unwrap();
        let (folder, mut args) = cache_folder(dir.path(), elsewhere.path(), explicit);
        let fifo = folder.join("modules.bin");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        args.extend(["--format", "json", "."].map(String::from));
        // Opening a FIFO to read waits for a writer: a run that did would be killed at the deadline.
        let output = bin(dir.path()).timeout(Duration::from_secs(20)).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "--cache-dir: {explicit}: {output:?}");
        assert_eq!(listed(&output.stdout), expected);
    }
}

#[cfg(unix)]
#[test]
fn a_dangling_gitignore_link_in_the_cache_folder_is_not_followed() {
    let dir = broken_project();
    let outside = tempfile::TempDir::new().unwrap();
    let target = outside.path().join("made");
    std::fs::create_dir(dir.path().join(DIR)).unwrap();
    std::os::unix::fs::symlink(&target, dir.path().join(DIR).join(".gitignore")).unwrap();
    let expected = cold(dir.path());
    assert_eq!(findings(dir.path(), &[]), (expected, String::new()));
    assert!(dir.path().join(DIR).join("modules.bin").is_file(), "the cache is written");
    assert!(std::fs::symlink_metadata(&target).is_err(), "the link's target was made");
    assert_eq!(std::fs::read_link(dir.path().join(DIR).join(".gitignore")).unwrap(), target);
}
