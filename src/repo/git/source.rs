//! File contents of a commit's tree or of the index, looked up lazily path by path (never a full traversal).

use gix::ObjectId;
use gix::index::entry::Flags;
use gix::objs::tree::{EntryKind as TreeEntryKind, EntryMode};

use super::{GitRepo, normalize, one_line, path_to_string};

/// How many git objects a run opened for their length alone (for `BEEUNI_LINT_STATS`, see `stats`).
pub static BLOB_HEADERS_READ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

mod stat;

pub use stat::IndexStat;

/// Folders on a path looked at for a link (see [`GitRepo::link_on_the_way`]), and the longest of them: what the
/// work tree's system resolves at most (`PATH_MAX`), so that a crafted path costs no more than a real one.
const MAX_LINKED_DEPTH: usize = 64;
const MAX_LINKED_PREFIX: usize = 4096;

/// Where file contents come from, besides the work tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GitSource {
    /// The tree of a commit (see [`super::Base`]).
    Tree(ObjectId),
    /// What the index holds, i.e. what `git commit` would record.
    Index,
}

/// What a path in a [`GitSource`] holds, for paths that are not folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Executable,
    /// The blob holds the link target.
    Symlink,
    /// A gitlink: the id is the submodule's commit, which this repository does not hold.
    Submodule,
}

impl GitRepo {
    /// The entry at a repo-relative path (with `/`) in that source, without reading the blob; None for folders,
    /// missing paths and paths through a symlinked folder (or a submodule).
    ///
    /// In the index, paths that `git add -N` only announced are absent (a commit would not record them), and a
    /// conflicted path gives "ours" (stage 2), the version the merge started from.
    pub fn entry(&self, source: GitSource, path: &str) -> Option<(ObjectId, EntryKind)> {
        let path = normalize(path);
        if path.is_empty() {
            return None;
        }
        let (id, mode) = match source {
            GitSource::Tree(tree) => self.tree_entry(tree, path)?,
            GitSource::Index => match self.paths.entry(&self.index, path) {
                Some(entry) if entry.flags.contains(Flags::INTENT_TO_ADD) || entry.mode.is_sparse() => return None,
                Some(entry) => (entry.id, entry.mode.to_tree_entry_mode()?),
                None => {
                    let (tree, rest) = self.sparse_dir_above(path)?;
                    self.tree_entry(tree, &path[rest..])?
                }
            },
        };
        let kind = match TreeEntryKind::from(mode) {
            TreeEntryKind::Blob => EntryKind::File,
            TreeEntryKind::BlobExecutable => EntryKind::Executable,
            TreeEntryKind::Link => EntryKind::Symlink,
            TreeEntryKind::Commit => EntryKind::Submodule,
            TreeEntryKind::Tree => return None,
        };
        Some((id, kind))
    }

    /// The first folder on `path`'s way that this source records as a symlink (`tools` of `tools/x.ts` for a link
    /// `tools -> lib/tools`): where its name ends in `path`, and the link's blob. `None` when a file or nothing
    /// stands on the way. A commit's tree is walked once; in the index each folder is one lookup, for the first
    /// [`MAX_LINKED_DEPTH`] folders within [`MAX_LINKED_PREFIX`] bytes (past both, no link is looked for).
    pub fn link_on_the_way(&self, source: GitSource, given: &str) -> Option<(usize, ObjectId)> {
        let path = normalize(given);
        // Where `path` starts in `given` (less any `./`): the end is told in `given`.
        let front = given.len() - given.trim_start_matches("./").len();
        let found = |end: usize, id| Some((front + end, id));
        let folders = path.match_indices('/').map(|(end, _)| end);
        let folders = folders.take(MAX_LINKED_DEPTH).take_while(|end| *end <= MAX_LINKED_PREFIX);
        let GitSource::Tree(mut tree) = source else {
            for end in folders {
                match self.entry(source, &path[..end]) {
                    Some((id, EntryKind::Symlink)) => return found(end, id),
                    Some(_) => return None,
                    None => {}
                }
            }
            return None;
        };
        let mut start = 0;
        for end in folders {
            let (id, mode) = self.tree(tree)?.find(&path.as_bytes()[start..end])?;
            match TreeEntryKind::from(mode) {
                TreeEntryKind::Link => return found(end, id),
                TreeEntryKind::Tree => tree = id,
                _ => return None,
            }
            start = end + 1;
        }
        None
    }

    /// Is there a folder at this path in that source (some entry lies under `path/`)? The root always is one.
    pub fn is_dir(&self, source: GitSource, path: &str) -> bool {
        let path = normalize(path);
        if path.is_empty() {
            return true;
        }
        match source {
            GitSource::Tree(tree) => self.tree_at(tree, path).is_some(),
            GitSource::Index => {
                let dir = format!("{path}/");
                if let Some((tree, rest)) = self.sparse_dir_above(&dir) {
                    return self.tree_at(tree, &dir[rest..]).is_some();
                }
                self.index
                    .prefixed_entries(dir.as_str().into())
                    .is_some_and(|entries| entries.iter().any(|entry| !entry.flags.contains(Flags::INTENT_TO_ADD)))
            }
        }
    }

    /// The names directly inside a folder of that source (files and folders), sorted; empty if there is no such folder.
    pub fn list_dir(&self, source: GitSource, dir: &str) -> Vec<String> {
        let dir = normalize(dir);
        let mut names = match source {
            GitSource::Tree(tree) => self.tree_names(tree, dir),
            GitSource::Index => {
                let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
                if let Some((tree, rest)) = self.sparse_dir_above(&prefix) {
                    return self.tree_names(tree, &prefix[rest..]);
                }
                let entries = self.index.prefixed_entries(prefix.as_str().into()).unwrap_or_default();
                entries
                    .iter()
                    .filter(|entry| !entry.flags.contains(Flags::INTENT_TO_ADD))
                    .filter_map(|entry| {
                        let below = entry.path(&self.index).get(prefix.len()..)?;
                        // A sparse folder is listed as `dir/`; all others end in a name.
                        let name = below.split(|byte| *byte == b'/').next().filter(|name| !name.is_empty())?;
                        Some(path_to_string(name.into()))
                    })
                    .collect()
            }
        };
        names.sort_unstable();
        // Every entry below a folder repeats its name, and a conflict repeats a path per stage.
        names.dedup();
        names
    }

    /// The length of the blob `id`, from its header alone (`None` when it is missing or not a blob).
    pub fn blob_len(&self, id: ObjectId) -> Option<usize> {
        BLOB_HEADERS_READ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let header = self.repo().find_header(id).ok()?;
        (header.kind() == gix::object::Kind::Blob).then(|| usize::try_from(header.size()).ok())?
    }

    /// A blob's bytes. Err names the missing object (e.g. in a partial or shallow clone).
    pub fn read_blob(&self, id: ObjectId) -> Result<Vec<u8>, String> {
        match self.repo().try_find_object(id) {
            Ok(Some(object)) if object.kind == gix::object::Kind::Blob => Ok(object.detach().data),
            Ok(Some(object)) => Err(format!("git object {id} is a {}, not a file", object.kind)),
            Ok(None) => Err(format!(
                "git object {id} is missing from the repository (a shallow or partial clone?): fetch the full \
                 history (`git fetch --unshallow`), or in GitHub Actions check out with `fetch-depth: 0`"
            )),
            Err(err) => Err(format!("cannot read git object {id}: {}", one_line(&err))),
        }
    }

    /// The id and mode at `path` below `tree`, one tree object per path component (each read once a run: see
    /// [`super::trees`]). A symlink or submodule on the way ends the walk: its object is no tree, so the next
    /// component is not found.
    fn tree_entry(&self, tree: ObjectId, path: &str) -> Option<(ObjectId, EntryMode)> {
        let mut found: Option<(ObjectId, EntryMode)> = None;
        for name in path.split('/') {
            let current = match found {
                None => tree,
                Some((id, mode)) if mode.is_tree() => id,
                Some(_) => return None,
            };
            found = Some(self.tree(current)?.find(name.as_bytes())?);
        }
        found
    }

    /// The id of the folder at `dir` below `tree` (the tree itself for an empty `dir`), if there is one.
    pub(super) fn tree_at(&self, tree: ObjectId, dir: &str) -> Option<ObjectId> {
        let dir = dir.trim_end_matches('/');
        if dir.is_empty() {
            return Some(tree);
        }
        self.tree_entry(tree, dir).and_then(|(id, mode)| mode.is_tree().then_some(id))
    }

    fn tree_names(&self, tree: ObjectId, dir: &str) -> Vec<String> {
        let tree = self.tree_at(tree, dir).and_then(|id| self.tree(id));
        tree.map_or_else(Vec::new, |tree| tree.names().map(|name| path_to_string(name.into())).collect())
    }

    /// In a sparse index, a folder outside the sparse-checkout cone is one entry `dir/` holding its tree. Returns that
    /// tree and where the rest of `path` starts, when `path` lies below such a folder (or is `dir/` itself).
    fn sparse_dir_above(&self, path: &str) -> Option<(ObjectId, usize)> {
        if !self.index.is_sparse() {
            return None;
        }
        path.match_indices('/').find_map(|(slash, _)| {
            let entry = self.paths.entry(&self.index, &path[..=slash])?;
            entry.mode.is_sparse().then_some((entry.id, slash + 1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commit_all, git, init, open, rev_parse, write};
    use super::*;
    use std::path::Path;

    fn head_tree(dir: &Path) -> GitSource {
        GitSource::Tree(rev_parse(dir, "HEAD^{tree}"))
    }

    fn content(repo: &GitRepo, source: GitSource, path: &str) -> Option<String> {
        let (id, _) = repo.entry(source, path)?;
        Some(String::from_utf8(repo.read_blob(id).unwrap()).unwrap())
    }

    /// Committed files, then a staged change to `beeuni.yaml` and a further, unstaged one.
    pub(super) fn project(dir: &Path) {
        init(dir);
        write(dir, "beeuni.yaml", "committed\n");
        write(dir, "tools/a.py", "a\n");
        write(dir, "tools/a-b.py", "");
        write(dir, "tools/a/x.py", "");
        write(dir, "tools/sub/b.py", "b\n");
        write(dir, "run.sh", "#!/bin/sh\n");
        #[cfg(unix)]
        std::os::unix::fs::symlink("tools", dir.join("link")).unwrap();
        git(dir, &["add", "-A"]);
        git(dir, &["update-index", "--chmod=+x", "run.sh"]);
        git(dir, &["commit", "-q", "-m", "c"]);
        write(dir, "beeuni.yaml", "staged\n");
        write(dir, "tools/new.py", "new\n");
        git(dir, &["add", "beeuni.yaml", "tools/new.py"]);
        git(dir, &["rm", "-q", "--cached", "tools/sub/b.py"]);
        write(dir, "beeuni.yaml", "work tree\n");
    }

    #[test]
    fn tree_and_index_differ_from_the_work_tree() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        project(dir);
        let repo = open(dir);
        let tree = head_tree(dir);

        assert_eq!(content(&repo, tree, "beeuni.yaml").as_deref(), Some("committed\n"));
        assert_eq!(content(&repo, GitSource::Index, "beeuni.yaml").as_deref(), Some("staged\n"));
        assert_eq!(content(&repo, GitSource::Index, "./beeuni.yaml").as_deref(), Some("staged\n"));
        assert_eq!(content(&repo, tree, "tools/sub/b.py").as_deref(), Some("b\n"));
        assert_eq!(repo.entry(GitSource::Index, "tools/sub/b.py"), None, "unstaged by `git rm --cached`");
        assert_eq!(repo.entry(tree, "tools/new.py"), None);
        assert_eq!(content(&repo, GitSource::Index, "tools/new.py").as_deref(), Some("new\n"));

        for source in [tree, GitSource::Index] {
            assert_eq!(repo.entry(source, "beeuni.yaml").map(|e| e.1), Some(EntryKind::File));
            assert_eq!(repo.entry(source, "run.sh").map(|e| e.1), Some(EntryKind::Executable));
            assert_eq!(repo.entry(source, "tools"), None, "a folder is no entry");
            assert_eq!(repo.entry(source, "missing.txt"), None);
            assert_eq!(repo.entry(source, "tools/a.py/x"), None);
            assert_eq!(repo.entry(source, ""), None);
            assert!(repo.is_dir(source, ""));
            assert!(repo.is_dir(source, "tools"));
            assert!(repo.is_dir(source, "tools/"));
            assert!(repo.is_dir(source, "tools/a"));
            assert!(!repo.is_dir(source, "tools/a.py"));
            assert!(!repo.is_dir(source, "tool"));
            assert!(!repo.is_dir(source, "missing"));
            assert_eq!(repo.list_dir(source, "tools/a"), vec!["x.py"]);
            assert_eq!(repo.list_dir(source, "missing"), Vec::<String>::new());
            assert_eq!(repo.list_dir(source, "beeuni.yaml"), Vec::<String>::new());
        }
        assert_eq!(repo.list_dir(tree, "tools"), vec!["a", "a-b.py", "a.py", "sub"], "plain byte order");
        assert_eq!(repo.list_dir(GitSource::Index, "tools"), vec!["a", "a-b.py", "a.py", "new.py"]);
        assert!(repo.is_dir(tree, "tools/sub"));
        assert!(!repo.is_dir(GitSource::Index, "tools/sub"));
        let root = ["beeuni.yaml", "link", "run.sh", "tools"];
        let root = if cfg!(unix) { root.to_vec() } else { vec!["beeuni.yaml", "run.sh", "tools"] };
        assert_eq!(repo.list_dir(tree, ""), root);
        assert_eq!(repo.list_dir(GitSource::Index, "./"), root);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_entries_and_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        project(dir);
        let repo = open(dir);
        for source in [head_tree(dir), GitSource::Index] {
            let (id, kind) = repo.entry(source, "link").unwrap();
            assert_eq!(kind, EntryKind::Symlink);
            assert_eq!(repo.read_blob(id).unwrap(), b"tools");
            assert_eq!(repo.entry(source, "link/a.py"), None);
            assert!(!repo.is_dir(source, "link"));
            assert_eq!(repo.list_dir(source, "link"), Vec::<String>::new());
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_on_the_way_is_found_where_it_ends() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        project(dir);
        let repo = open(dir);
        for source in [head_tree(dir), GitSource::Index] {
            let (link, _) = repo.entry(source, "link").unwrap();
            assert_eq!(repo.link_on_the_way(source, "link/a.py"), Some((4, link)));
            assert_eq!(repo.link_on_the_way(source, "link/sub/b.py"), Some((4, link)), "the first link only");
            assert_eq!(repo.link_on_the_way(source, "././link/a.py"), Some((8, link)), "told in the path as given");
            for path in ["link", "tools/a.py", "tools/a/x.py", "run.sh/x", "missing/link/a.py", ""] {
                assert_eq!(repo.link_on_the_way(source, path), None, "{path}");
            }
        }
    }

    #[test]
    fn submodules_intent_to_add_and_conflicts() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        let gitlink = "160000,1111111111111111111111111111111111111111,vendor/lib";
        git(dir, &["update-index", "--add", "--cacheinfo", gitlink]);
        write(dir, "c.txt", "base\n");
        // Not `git add -A`: it would drop the gitlink, whose folder is not in the work tree.
        git(dir, &["add", "c.txt"]);
        git(dir, &["commit", "-q", "-m", "c"]);
        let repo = open(dir);
        let commit = ObjectId::from_hex(&[b'1'; 40]).unwrap();
        let submodule = Some((commit, EntryKind::Submodule));
        assert_eq!(repo.entry(head_tree(dir), "vendor/lib"), submodule);
        assert_eq!(repo.entry(GitSource::Index, "vendor/lib"), submodule);
        assert!(!repo.is_dir(GitSource::Index, "vendor/lib"));
        assert_eq!(repo.entry(head_tree(dir), "vendor/lib/x"), None);
        let err = repo.read_blob(commit).err().unwrap();
        assert!(err.contains("1111111111111111111111111111111111111111"), "{err}");
        assert!(err.contains("is missing"), "{err}");

        write(dir, "later/ita.txt", "");
        git(dir, &["add", "-N", "later/ita.txt"]);
        let repo = open(dir);
        assert_eq!(repo.entry(GitSource::Index, "later/ita.txt"), None, "a commit would not record it");
        assert!(!repo.is_dir(GitSource::Index, "later"));
        assert_eq!(repo.list_dir(GitSource::Index, ""), vec!["c.txt", "vendor"]);

        git(dir, &["checkout", "-q", "-b", "other"]);
        write(dir, "c.txt", "theirs\n");
        git(dir, &["commit", "-q", "-m", "theirs", "c.txt"]);
        git(dir, &["checkout", "-q", "main"]);
        write(dir, "c.txt", "ours\n");
        git(dir, &["commit", "-q", "-m", "ours", "c.txt"]);
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@e", "merge", "-q", "other"])
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(!out.status.success(), "the merge conflicts");
        let repo = open(dir);
        assert_eq!(content(&repo, GitSource::Index, "c.txt").as_deref(), Some("ours\n"));
        assert_eq!(repo.list_dir(GitSource::Index, ""), vec!["c.txt", "vendor"], "one name per conflict");
    }

    #[test]
    fn spaces_and_non_ascii_names() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "dir with space/naïve ü 名前.txt", "ü\n");
        commit_all(dir);
        let repo = open(dir);
        for source in [head_tree(dir), GitSource::Index] {
            assert_eq!(content(&repo, source, "dir with space/naïve ü 名前.txt").as_deref(), Some("ü\n"));
            assert!(repo.is_dir(source, "dir with space"));
            assert_eq!(repo.list_dir(source, "dir with space"), vec!["naïve ü 名前.txt"]);
        }
    }

    #[test]
    fn sparse_index_folders_are_read_from_their_tree() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "in/a.txt", "a\n");
        write(dir, "out/b.txt", "b\n");
        write(dir, "out/deep/c.txt", "c\n");
        commit_all(dir);
        git(dir, &["sparse-checkout", "init", "--cone", "--sparse-index"]);
        git(dir, &["sparse-checkout", "set", "in"]);
        let repo = open(dir);
        assert!(repo.index.is_sparse(), "the fixture has a sparse index");
        let index = GitSource::Index;
        assert_eq!(content(&repo, index, "out/deep/c.txt").as_deref(), Some("c\n"));
        assert_eq!(content(&repo, index, "in/a.txt").as_deref(), Some("a\n"));
        assert_eq!(repo.entry(index, "out"), None);
        assert_eq!(repo.entry(index, "out/nope"), None);
        assert!(repo.is_dir(index, "out"));
        assert!(repo.is_dir(index, "out/deep"));
        assert!(!repo.is_dir(index, "out/b.txt"));
        assert_eq!(repo.list_dir(index, ""), vec!["in", "out"]);
        assert_eq!(repo.list_dir(index, "out"), vec!["b.txt", "deep"]);
        assert_eq!(repo.list_dir(index, "out/deep"), vec!["c.txt"]);
    }

    #[test]
    fn read_blob_errors_name_the_object() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "a.txt", "a");
        commit_all(dir);
        let repo = open(dir);
        let GitSource::Tree(tree) = head_tree(dir) else { unreachable!() };
        let err = repo.read_blob(tree).err().unwrap();
        assert_eq!(err, format!("git object {tree} is a tree, not a file"));
    }
}
