//! Git state as the linter needs it, read through `gix` so that linting never depends on a `git` binary.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use gix::bstr::BStr;

mod base;
mod diff;
mod discover;
mod paths;
mod source;
mod staged;
mod trees;

pub use base::Base;
pub use diff::changed_lines;
pub use source::{BLOB_HEADERS_READ, EntryKind, GitSource, IndexStat};

/// A git work tree as the linter sees it: its root, which paths the index tracks, which are ignored, and (for
/// change-aware runs) file contents at a commit or in the index.
///
/// Shared by the threads that run the rules: the ignore stack and `gix::Repository` (not `Sync`) each sit behind
/// a lock, taken per lookup (the rules ask them only of untracked files, and of texts read again).
pub struct GitRepo {
    root: PathBuf,
    /// The index's entries by path (tracking lookups run per module and per import).
    paths: paths::PathTable,
    /// `is_ignored` takes `&self` but the stack caches the `.gitignore` files of the folders it last visited.
    excludes: Mutex<gix::worktree::Stack>,
    /// The stack asks the object database for `.gitignore` blobs of skip-worktree (sparse) entries; change-aware
    /// runs read commits, trees and blobs through it.
    repo: Mutex<gix::Repository>,
    /// The index as read at discovery, for `GitSource::Index` lookups.
    index: gix::worktree::Index,
    /// The tree objects read so far (change-aware runs look paths up below a commit's tree).
    trees: trees::Trees,
}

impl GitRepo {
    /// The repository, locked until the guard drops: never call another method that takes it while holding it.
    /// A lock a panic left poisoned is taken over: that panic is what gets reported, not a second one here.
    fn repo(&self) -> MutexGuard<'_, gix::Repository> {
        self.repo.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The work tree root (absolute, canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Tracked files named `name` (e.g. every `beeuni.yaml` of a monorepo), repo-relative, sorted.
    pub fn tracked_named(&self, name: &str) -> Vec<String> {
        let suffix = format!("/{name}");
        let named = |path: &&BStr| *path == name || path.ends_with(suffix.as_bytes());
        let mut found: Vec<String> = self.index_paths().filter(named).map(path_to_string).collect();
        found.dedup();
        found
    }

    /// Every path the index holds (with `/`), sorted, each once.
    pub fn tracked(&self) -> Vec<String> {
        let mut tracked: Vec<String> = self.index_paths().map(path_to_string).collect();
        tracked.dedup();
        tracked
    }

    /// The index's paths in its order (by path bytes; a conflicted path once per stage).
    fn index_paths(&self) -> impl Iterator<Item = &BStr> {
        self.index.entries().iter().map(|entry| entry.path(&self.index))
    }

    /// Is this repo-relative path (with `/` separators, no leading `./`) an entry in the index?
    pub fn is_tracked(&self, rel: &str) -> bool {
        self.paths.first(&self.index, normalize(rel)).is_some()
    }

    /// Does the index hold any entry under this repo-relative folder (e.g. "node_modules/zod")?
    ///
    /// A submodule (gitlink) or sparse-directory entry at exactly `rel_dir` counts too: the folder's
    /// content is then under version control even though the index lists nothing below it.
    pub fn tracks_under(&self, rel_dir: &str) -> bool {
        let dir = normalize(rel_dir);
        if dir.is_empty() {
            return !self.index.entries().is_empty();
        }
        self.is_tracked(dir) || self.index.prefixed_entries(format!("{dir}/").as_str().into()).is_some()
    }

    /// The spelling under which the index holds `rel_dir` or an entry under it, its ASCII letters matched in either
    /// case, the parent folders' as well as the folder's own: on a case-insensitive file system (macOS, Windows)
    /// `App/.Cache/x` is checked out in the folder `app/.cache` opens, `app/x` beside it. `None` when it holds none.
    pub fn tracked_spelling(&self, rel_dir: &str) -> Option<String> {
        let dir = normalize(rel_dir);
        // Every spelling lies between the path in upper case and in lower case (at each byte, `A`..`Z` order before
        // `a`..`z`), and the index is sorted by path: a binary search, then the entries of that stretch.
        let low = dir.to_ascii_uppercase();
        let high = dir.to_ascii_lowercase();
        let entries = self.index.entries();
        let start = entries.partition_point(|entry| entry.path(&self.index) < low.as_bytes());
        let path = entries[start..]
            .iter()
            .map(|entry| entry.path(&self.index))
            .take_while(|path| path.get(..high.len()).unwrap_or(path) <= high.as_bytes())
            .find(|path| {
                path.get(..high.len()).is_some_and(|head| head.eq_ignore_ascii_case(high.as_bytes()))
                    && path.get(high.len()).is_none_or(|&after| after == b'/')
            })?;
        Some(path_to_string(&path[..high.len()]))
    }

    /// Would git ignore this repo-relative path (per .gitignore files in the work tree, .git/info/exclude and
    /// core.excludesFile)? `is_dir` says whether it is a folder. Must also be true when a parent folder is ignored.
    ///
    /// This is about the ignore rules only: a tracked file that matches a pattern is reported as ignored,
    /// so callers that care should check `is_tracked` as well.
    pub fn is_ignored(&self, rel: &str, is_dir: bool) -> bool {
        let rel = normalize(rel);
        if rel.is_empty() {
            return false;
        }
        if super::watch::on() {
            // The stack reads the `.gitignore` of each folder on the path's way (the path's own, for a folder).
            let folders = rel.match_indices('/').map(|(at, _)| &rel[..at]).chain(is_dir.then_some(rel));
            for folder in std::iter::once("").chain(folders) {
                super::watch::note(&self.root.join(folder).join(".gitignore"));
            }
        }
        // The stack, then the repository: the one order these two locks are taken in.
        let mut stack = self.excludes.lock().unwrap_or_else(PoisonError::into_inner);
        let mode = is_dir.then_some(gix::index::entry::Mode::DIR);
        // `..`, `.` or absolute components make the stack refuse the path; such a path is outside the rules.
        match stack.at_path(rel, mode, &self.repo().objects) {
            // The stack also reports paths below an excluded folder as excluded, as git does.
            Ok(platform) => platform.is_excluded(),
            Err(_) => false,
        }
    }
}

/// Repo-relative paths from callers may carry a leading `./` or a trailing `/`; the index has neither.
fn normalize(rel: &str) -> &str {
    let mut rel = rel;
    while let Some(rest) = rel.strip_prefix("./") {
        rel = rest;
    }
    rel.trim_end_matches('/')
}

/// Index paths are bytes; non-UTF-8 names are rare enough that a lossy, still unique-ish key is acceptable.
fn path_to_string(path: &BStr) -> String {
    match std::str::from_utf8(path) {
        Ok(path) => path.to_owned(),
        Err(_) => String::from_utf8_lossy(path).into_owned(),
    }
}

/// gix's alternate (`{:#}`) format depends on its error features and can span lines or print `Debug` forms, so the
/// message is assembled from its cause list, which already leaves out the classification markers.
fn one_line(err: &gix::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in err.iter_errors().filter(|cause| !cause.is::<gix::Error>()) {
        let text = cause.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
        // I/O errors are listed both with and without their payload; wrappers often repeat their cause.
        if !text.is_empty() && !parts.iter().any(|part| part.contains(&text)) {
            parts.push(text);
        }
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::process::Command;

    /// Runs the git CLI isolated from the user's and system config so the fixtures are the same everywhere.
    pub(super) fn git(dir: &Path, args: &[&str]) {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@e", "-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// The object id `git rev-parse` gives for `spec`.
    pub(super) fn rev_parse(dir: &Path, spec: &str) -> gix::ObjectId {
        let out = Command::new("git")
            .args(["rev-parse", "--verify", spec])
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git rev-parse {spec} failed");
        gix::ObjectId::from_hex(String::from_utf8_lossy(&out.stdout).trim().as_bytes()).expect("an object id")
    }

    pub(super) fn write(dir: &Path, rel: &str, content: &str) {
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
    }

    pub(super) fn init(dir: &Path) {
        git(dir, &["init", "-q"]);
    }

    pub(super) fn commit_all(dir: &Path) {
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", "c"]);
    }

    pub(super) fn open(path: &Path) -> GitRepo {
        GitRepo::discover(path).expect("readable").expect("a repository")
    }

    #[test]
    fn tracked_untracked_and_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, ".gitignore", "*.log\nbuild/\n");
        write(dir, "a.txt", "a");
        write(dir, "src/lib.rs", "");
        write(dir, "src/.gitignore", "gen/\n!keep.log\n");
        commit_all(dir);
        write(dir, "b.txt", "b");
        write(dir, "x.log", "");
        write(dir, "build/out/y.txt", "");
        write(dir, "src/gen/z.rs", "");

        let repo = open(dir);
        assert_eq!(repo.root(), fs::canonicalize(dir).unwrap());
        assert!(repo.is_tracked("a.txt"));
        assert!(repo.is_tracked("src/lib.rs"));
        assert!(repo.is_tracked("./src/lib.rs"));
        assert!(!repo.is_tracked("b.txt"));
        assert!(!repo.is_tracked("src"), "folders are not index entries");

        assert!(repo.is_ignored("x.log", false));
        assert!(repo.is_ignored("deep/er/x.log", false), "non-existent paths follow the rules too");
        assert!(!repo.is_ignored("src/keep.log", false), "a nested .gitignore can re-include");
        assert!(repo.is_ignored("build", true));
        assert!(!repo.is_ignored("build", false), "`build/` only matches folders");
        assert!(repo.is_ignored("build/out/y.txt", false), "a parent folder is ignored");
        assert!(repo.is_ignored("build/out", true));
        assert!(repo.is_ignored("src/gen/z.rs", false));
        assert!(!repo.is_ignored("gen/z.rs", false), "src/.gitignore applies below src only");
        assert!(!repo.is_ignored("b.txt", false));
        assert!(!repo.is_ignored("a.txt", false));
        assert!(!repo.is_ignored("src", true));
        assert!(!repo.is_ignored("", true));
        assert!(!repo.is_ignored("../outside.log", false), "paths leaving the work tree are refused, not panicked on");
    }

    #[test]
    fn info_exclude_and_core_excludes_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, ".git/info/exclude", "secret.txt\n");
        let excludes = tmp.path().join(".git/my-excludes");
        fs::write(&excludes, "*.bak\n").unwrap();
        git(dir, &["config", "core.excludesFile", excludes.to_str().unwrap()]);

        let repo = open(dir);
        assert!(repo.is_ignored("secret.txt", false));
        assert!(repo.is_ignored("a/b.bak", false));
        assert!(!repo.is_ignored("b.txt", false));
    }

    #[test]
    fn missing_core_excludes_file_is_not_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        init(tmp.path());
        git(tmp.path(), &["config", "core.excludesFile", "/nonexistent/ignore"]);
        assert!(!open(tmp.path()).is_ignored("a", false));
    }

    #[test]
    fn staged_files_in_an_unborn_repository_are_tracked() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        let fresh = open(dir);
        assert!(!fresh.is_tracked("a.txt"), "no index file yet");
        assert!(!fresh.tracks_under(""));

        write(dir, "a.txt", "a");
        write(dir, "b.txt", "b");
        git(dir, &["add", "a.txt"]);
        let repo = open(dir);
        assert!(repo.is_tracked("a.txt"));
        assert!(!repo.is_tracked("b.txt"));
    }

    #[test]
    fn tracks_under_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "node_modules/zod/index.js", "");
        write(dir, "node_modules/zod-extra/index.js", "");
        write(dir, "node_modules/zod.js", "");
        git(dir, &["add", "node_modules/zod/index.js"]);

        let repo = open(dir);
        assert!(repo.tracks_under("node_modules/zod"));
        assert!(repo.tracks_under("node_modules/zod/"));
        assert!(repo.tracks_under("node_modules"));
        assert!(repo.tracks_under(""));
        assert!(!repo.tracks_under("node_modules/zo"));
        assert!(!repo.tracks_under("node_modules/zod-extra"));
        assert!(!repo.tracks_under("node_modules/zod.js"));
        assert!(!repo.tracks_under("other"));
    }

    #[test]
    fn a_folder_is_found_tracked_in_any_case_of_its_path() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        for file in [".A/x", ".bEEf/x", ".beefs/y", ".beef.txt", "app/.BEEF/x", "app/.beef-other", "BEEF/z", "c/.beef"]
        {
            write(dir, file, "");
        }
        commit_all(dir);
        // Index entries only: on a case-insensitive file system these would share folders in the work tree.
        for file in ["Web/.beef/modules.bin", "web/beeuni.yaml", "PKG/Sub/.Beef/x", "webs/beeuni.yaml"] {
            let empty = format!("100644,{},{file}", gix::ObjectId::empty_blob(gix::hash::Kind::Sha1));
            git(dir, &["update-index", "--add", "--cacheinfo", &empty]);
        }
        let repo = open(dir);
        assert_eq!(repo.tracked_spelling(".beef").as_deref(), Some(".bEEf"));
        assert_eq!(repo.tracked_spelling(".BEEF").as_deref(), Some(".bEEf"));
        assert_eq!(repo.tracked_spelling("app/.beef").as_deref(), Some("app/.BEEF"));
        assert_eq!(repo.tracked_spelling("c/.beef").as_deref(), Some("c/.beef"), "an entry at the path itself");
        assert_eq!(repo.tracked_spelling("beef").as_deref(), Some("BEEF"));
        assert_eq!(repo.tracked_spelling("APP/.beef").as_deref(), Some("app/.BEEF"), "the parent in any case too");
        assert_eq!(repo.tracked_spelling("web/.beef").as_deref(), Some("Web/.beef"), "beside `web/beeuni.yaml`");
        assert_eq!(repo.tracked_spelling("web/.Beef").as_deref(), Some("Web/.beef"));
        assert_eq!(repo.tracked_spelling("pkg/sub/.beef").as_deref(), Some("PKG/Sub/.Beef"));
        assert_eq!(repo.tracked_spelling("web/.bee"), None);
        assert_eq!(repo.tracked_spelling("we/.beef"), None);
        assert_eq!(repo.tracked_spelling("webs/.beef"), None);
        assert_eq!(repo.tracked_spelling(".bee"), None);
        assert_eq!(repo.tracked_spelling("app/.beef-"), None);
        assert_eq!(repo.tracked_spelling(".none"), None);
    }

    #[test]
    fn a_submodule_folder_counts_as_tracked_content() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        let gitlink = "160000,1111111111111111111111111111111111111111,vendor/lib";
        git(dir, &["update-index", "--add", "--cacheinfo", gitlink]);

        let repo = open(dir);
        assert!(repo.is_tracked("vendor/lib"));
        assert!(repo.tracks_under("vendor/lib"));
        assert!(repo.tracks_under("vendor"));
    }

    #[test]
    fn spaces_and_non_ascii_names() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "dir with space/naïve ü 名前.txt", "");
        write(dir, ".gitignore", "wörk dir/\n");
        write(dir, "wörk dir/x.txt", "");
        commit_all(dir);

        let repo = open(&dir.join("dir with space"));
        assert!(repo.is_tracked("dir with space/naïve ü 名前.txt"));
        assert!(repo.tracks_under("dir with space"));
        assert!(repo.is_ignored("wörk dir/x.txt", false));
        assert!(!repo.is_ignored("dir with space/naïve ü 名前.txt", false));
    }
}
