//! Finding the repository whose work tree holds a path, as git does, and reading its index and ignore rules once.

use std::path::Path;
use std::sync::Mutex;

use gix::worktree::stack::state::ignore::Source;

use super::{GitRepo, one_line, paths};

impl GitRepo {
    /// Discover the repository whose work tree holds `path` (a folder or file; walks up like git does).
    /// Ok(None) when `path` is not inside a git work tree (or the repository is bare).
    /// Err(message) when a repository is there but cannot be read (e.g. corrupt index): a clear, one-line message.
    pub fn discover(path: &Path) -> Result<Option<GitRepo>, String> {
        // Git discovers from the physical directory (getcwd), so resolve symlinks before walking up.
        let start = std::fs::canonicalize(path).map_err(|err| format!("cannot read {}: {err}", path.display()))?;
        // gix only walks up from folders.
        let start_dir = if start.is_dir() { start.as_path() } else { start.parent().unwrap_or(&start) };
        let repo = match gix::discover(start_dir) {
            Ok(repo) => Some(repo),
            Err(err) if is_no_repository(&err) => None,
            Err(err) => {
                return Err(format!("cannot open the git repository at {}: {}", start.display(), one_line(&err)));
            }
        };
        let workdir = repo.as_ref().and_then(|repo| repo.workdir());
        let root = workdir
            .map(|dir| {
                std::fs::canonicalize(dir)
                    .map_err(|err| format!("cannot read the git work tree at {}: {err}", dir.display()))
            })
            .transpose()?;
        check_no_broken_gitfile(start_dir, root.as_deref())?;
        let (Some(mut repo), Some(root)) = (repo, root) else {
            return Ok(None);
        };
        // Discovering from inside `.git` finds the repository too, but git says such a path is outside the work tree.
        let inside = |dir: &Path| std::fs::canonicalize(dir).is_ok_and(|dir| start.starts_with(dir));
        if inside(repo.git_dir()) || inside(repo.common_dir()) {
            return Ok(None);
        }
        if crate::repo::watch::on() {
            note_git_files(&repo, &root);
        }
        // Git checks the index's trailing SHA-1 only in `git fsck`; a normal read trusts the file (one that is
        // damaged still fails to decode). gix hashes it unless told this: ~5 % of a warm run's instructions.
        // Only this in-memory copy of the configuration changes; nothing is written. Should either step fail, the
        // index is hashed as before.
        let mut config = repo.config_snapshot_mut();
        let _ = config.set_value(&gix::config::tree::Index::SKIP_HASH, "true");
        let _ = config.commit();
        // A fresh `git init` has no index file yet; that is an empty index, not an error.
        let index = repo.index_or_empty().map_err(|err| {
            format!("cannot read the git index at {}: {}", repo.index_path().display(), one_line(&err))
        })?;

        // The ignore rules are read on an analysis thread while this one builds the index's path table: both are
        // on the path every run waits for (~2.5 M and ~1.4 M instructions at 20,000 entries). The repository goes
        // there and back: it is `Send`, not `Sync`.
        let excludes_of = |repo: &gix::Repository| {
            repo.excludes(&index, None, Source::WorktreeThenIdMappingIfNotSkipped).map(|stack| stack.detach())
        };
        let (paths, excludes) = match crate::pool::threads() {
            Some(pool) => {
                let mut read = None;
                let paths = pool.in_place_scope(|scope| {
                    let read = &mut read;
                    scope.spawn(move |_| {
                        let excludes = excludes_of(&repo);
                        *read = Some((repo, excludes));
                    });
                    paths::PathTable::new(&index)
                });
                // The job ran to its end when the scope did (where panics unwind, one there would have been resumed
                // here; the release profile aborts where it happens).
                let Some((read_repo, excludes)) = read else {
                    return Err(format!("cannot read the git ignore rules of {}", root.display()));
                };
                repo = read_repo;
                (paths, excludes)
            }
            None => (paths::PathTable::new(&index), excludes_of(&repo)),
        };
        let excludes = excludes
            .map_err(|err| format!("cannot read the git ignore rules of {}: {}", root.display(), one_line(&err)))?;
        // The merge-base walk and tree lookups revisit the same commits and trees; gix has no object cache by default.
        repo.object_cache_size_if_unset(4 * 1024 * 1024);
        // Nor a cache of delta bases (see `DeltaBases`).
        repo.objects.set_pack_cache(|| Box::<super::trees::DeltaBases>::default());

        Ok(Some(GitRepo {
            root,
            paths,
            excludes: Mutex::new(excludes),
            repo: Mutex::new(repo),
            index,
            trees: Default::default(),
        }))
    }
}

/// Notes the git files a run's answer rests on (see [`crate::repo::watch`]): the index, HEAD and the branch it
/// names, the refs packed, the repository's config and its ignore rules, and the user's and the system's git config
/// and ignore files. Objects are named by their contents and never change.
fn note_git_files(repo: &gix::Repository, root: &Path) {
    use crate::repo::watch::{note, note_identity};
    // A `.git` file (a linked worktree's, a submodule's) names the repository: its contents matter.
    let dot_git = root.join(".git");
    match std::fs::symlink_metadata(&dot_git) {
        Ok(meta) if meta.is_file() => note(&dot_git),
        _ => note_identity(&dot_git),
    }
    let (git_dir, common) = (repo.git_dir(), repo.common_dir());
    note(&repo.index_path());
    for name in ["HEAD", "commondir", "config.worktree"] {
        note(&git_dir.join(name));
    }
    for name in ["config", "packed-refs", "info/exclude", "refs/replace"] {
        note(&common.join(name));
    }
    if let Ok(Some(head)) = repo.head_name()
        && let Ok(head) = gix::path::from_bstr(head.as_bstr())
    {
        note(&common.join(head));
    }
    if let Ok(Some(excludes)) = repo.config_snapshot().trusted_path("core.excludesFile") {
        note(&excludes);
    }
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    // Every config file gix read (an include, the system's config wherever git keeps it), and every file an
    // include names, there or not yet (an empty one holds no section that would name it).
    for section in repo.config_snapshot().plumbing().sections() {
        let from = section.meta().path.as_deref();
        if let Some(from) = from {
            note(from);
        }
        let name = section.header().name();
        if !(name.eq_ignore_ascii_case(b"include") || name.eq_ignore_ascii_case(b"includeIf")) {
            continue;
        }
        for value in section.values("path") {
            let Ok(target) = gix::path::from_bstring(value) else { continue };
            let target = match (target.strip_prefix("~"), &home, from.and_then(Path::parent)) {
                (Ok(rest), Some(home), _) => home.join(rest),
                (Err(_), _, Some(folder)) if target.is_relative() => folder.join(&target),
                _ => target,
            };
            note(&target);
        }
    }
    for variable in ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"] {
        if let Some(file) = std::env::var_os(variable) {
            note(Path::new(&file));
        }
    }
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| home.as_ref().map(|home| home.join(".config")));
    if let Some(home) = &home {
        note(&home.join(".gitconfig"));
    }
    if let Some(xdg) = &xdg {
        note(&xdg.join("git/config"));
        note(&xdg.join("git/ignore"));
    }
    note(Path::new("/etc/gitconfig"));
}

/// gix skips a `.git` file whose `gitdir:` leads nowhere (a moved submodule, a deleted worktree) and keeps walking
/// up, possibly into an outer repository; git stops there with an error, and so do we.
fn check_no_broken_gitfile(start_dir: &Path, found_root: Option<&Path>) -> Result<(), String> {
    for dir in start_dir.ancestors() {
        if found_root == Some(dir) {
            return Ok(());
        }
        let dot_git = dir.join(".git");
        crate::repo::watch::note_identity(&dot_git);
        // An invalid `.git` folder is skipped by git as well, so only files are worth a closer look.
        if std::fs::symlink_metadata(&dot_git).is_ok_and(|meta| meta.is_file()) {
            return Err(format!("{} does not point to a readable git repository", dot_git.display()));
        }
    }
    Ok(())
}

/// gix reports "nothing found while walking up" as an error; for the linter that is simply "not a repository".
fn is_no_repository(err: &gix::Error) -> bool {
    use gix::discover::upwards::Error;
    matches!(
        err.downcast_any_ref::<Error>(),
        Some(
            Error::NoGitRepository { .. }
                | Error::NoGitRepositoryWithinCeiling { .. }
                | Error::NoGitRepositoryWithinFs { .. }
        )
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commit_all, git, init, open, write};
    use super::*;
    use std::fs;

    #[test]
    fn not_a_repository_is_none() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "sub/f.txt", "");
        assert!(GitRepo::discover(tmp.path()).unwrap().is_none());
        assert!(GitRepo::discover(&tmp.path().join("sub/f.txt")).unwrap().is_none());
    }

    #[test]
    fn bare_repository_and_git_dir_are_none() {
        let tmp = tempfile::tempdir().unwrap();
        git(tmp.path(), &["init", "-q", "--bare", "bare.git"]);
        assert!(GitRepo::discover(&tmp.path().join("bare.git")).unwrap().is_none());

        let work = tmp.path().join("work");
        fs::create_dir(&work).unwrap();
        init(&work);
        assert!(GitRepo::discover(&work.join(".git")).unwrap().is_none());
        assert!(GitRepo::discover(&work.join(".git/refs")).unwrap().is_none());
    }

    #[test]
    fn unreadable_repositories_are_one_line_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let broken_config = tmp.path().join("config");
        fs::create_dir(&broken_config).unwrap();
        init(&broken_config);
        write(&broken_config, ".git/config", "[core\nbroken");
        let err = GitRepo::discover(&broken_config).err().expect("an error");
        assert!(err.contains("configuration"), "{err}");
        assert!(!err.contains('\n'), "{err}");

        // Inside an outer repository, so silently skipping the broken `.git` file would find the wrong one.
        init(tmp.path());
        write(tmp.path(), "moved/.git", "gitdir: /nonexistent/modules/moved\n");
        let err = GitRepo::discover(&tmp.path().join("moved")).err().expect("an error");
        assert!(err.contains("moved/.git"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn root_is_canonical_when_reached_through_a_symlink() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real");
        fs::create_dir(&real).unwrap();
        init(&real);
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(open(&link).root(), fs::canonicalize(&real).unwrap());
    }

    #[test]
    fn missing_path_is_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        let err = GitRepo::discover(&tmp.path().join("nope")).err().expect("an error");
        assert!(err.contains("nope"), "{err}");
    }

    #[test]
    fn discovers_from_files_and_subfolders() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "a/b/c.txt", "");
        commit_all(dir);
        let root = fs::canonicalize(dir).unwrap();
        assert_eq!(open(&dir.join("a/b")).root(), root);
        assert_eq!(open(&dir.join("a/b/c.txt")).root(), root);
    }

    #[test]
    fn nested_repository_is_the_innermost() {
        let tmp = tempfile::tempdir().unwrap();
        let outer = tmp.path();
        init(outer);
        write(outer, "top.txt", "");
        commit_all(outer);
        let inner = outer.join("vendor/inner");
        fs::create_dir_all(&inner).unwrap();
        init(&inner);
        write(&inner, "sub/in.txt", "");
        commit_all(&inner);

        let repo = open(&inner.join("sub"));
        assert_eq!(repo.root(), fs::canonicalize(&inner).unwrap());
        assert!(repo.is_tracked("sub/in.txt"));
        assert!(!repo.is_tracked("top.txt"));
        assert!(open(outer).is_tracked("top.txt"));
    }

    #[test]
    fn linked_worktree() {
        let tmp = tempfile::tempdir().unwrap();
        let main = tmp.path().join("main");
        fs::create_dir(&main).unwrap();
        init(&main);
        write(&main, "a.txt", "");
        write(&main, ".git/info/exclude", "*.tmp\n");
        commit_all(&main);
        git(&main, &["worktree", "add", "-q", "../wt"]);
        let wt = tmp.path().join("wt");
        write(&wt, "only-in-wt.txt", "");
        git(&wt, &["add", "only-in-wt.txt"]);

        let repo = open(&wt);
        assert_eq!(repo.root(), fs::canonicalize(&wt).unwrap());
        assert!(repo.is_tracked("a.txt"));
        assert!(repo.is_tracked("only-in-wt.txt"), "the worktree has its own index");
        assert!(!open(&main).is_tracked("only-in-wt.txt"));
        assert!(repo.is_ignored("x.tmp", false), "info/exclude lives in the common dir");
    }

    #[test]
    fn the_index_checksum_is_not_verified_as_git_does_not_on_a_read() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "a.txt", "");
        commit_all(dir);
        let mut bytes = fs::read(dir.join(".git/index")).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        fs::write(dir.join(".git/index"), &bytes).unwrap();
        assert!(open(dir).is_tracked("a.txt"));
        // As `git status` reads it without complaint (only `git fsck` checks the trailing hash).
        git(dir, &["status", "--porcelain"]);
    }

    #[test]
    fn corrupt_index_is_a_one_line_error() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "a.txt", "");
        commit_all(dir);
        fs::write(dir.join(".git/index"), b"DIRC garbage").unwrap();

        let err = GitRepo::discover(dir).err().expect("an error");
        assert!(err.contains("index"), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }
}
