//! What the commit being made changes: the paths whose index entry differs from HEAD's tree, as
//! `git diff --cached --name-only --no-renames` lists them (deletions included).

use std::collections::HashMap;

use gix::ObjectId;
use gix::index::entry::{Flags, Stage};
use gix::objs::tree::EntryKind;
use gix::prelude::FindExt;

use super::{GitRepo, GitSource, path_to_string};

impl GitRepo {
    /// The repo-relative paths (with `/`) that the index adds, modifies (content or mode), deletes or holds in
    /// conflict, compared with HEAD; sorted. On an unborn HEAD every index entry is staged.
    pub fn staged_paths(&self) -> Result<Vec<String>, String> {
        let head_tree = match self.head_base()?.source {
            Some(GitSource::Tree(tree)) => Some(tree),
            _ => None,
        };
        let mut head: HashMap<String, (ObjectId, EntryKind)> = HashMap::new();
        if let Some(tree) = head_tree {
            self.collect_tree(tree, "", &mut head)?;
        }
        let mut changed = Vec::new();
        for entry in self.index.entries() {
            if entry.flags.contains(Flags::INTENT_TO_ADD) {
                continue;
            }
            let path = path_to_string(entry.path(&self.index));
            if entry.mode.is_sparse() {
                // A folder outside the sparse cone holds its tree: compare it with HEAD's folder, whole.
                let dir = path.trim_end_matches('/');
                let below = format!("{dir}/");
                head.retain(|path, _| !path.starts_with(&below));
                if head_tree.and_then(|tree| self.tree_at(tree, dir)) != Some(entry.id) {
                    changed.push(dir.to_owned());
                }
                continue;
            }
            let now = entry.mode.to_tree_entry_mode().map(EntryKind::from);
            let then = head.remove(&path);
            if entry.stage() != Stage::Unconflicted || then.map(|(id, kind)| (id, Some(kind))) != Some((entry.id, now))
            {
                changed.push(path);
            }
        }
        // A conflicted path is one index entry per stage: listed once.
        changed.extend(head.into_keys());
        changed.sort_unstable();
        changed.dedup();
        Ok(changed)
    }

    /// Every file, symlink and submodule below `tree`, keyed by its path under `prefix`.
    fn collect_tree(
        &self,
        tree: ObjectId,
        prefix: &str,
        out: &mut HashMap<String, (ObjectId, EntryKind)>,
    ) -> Result<(), String> {
        let mut buf = Vec::new();
        let entries = self
            .repo()
            .objects
            .find_tree_iter(&tree, &mut buf)
            .map_err(|err| format!("cannot read git tree {tree} at HEAD: {err}"))?;
        let mut folders = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|err| format!("cannot read git tree {tree} at HEAD: {err}"))?;
            let path = format!("{prefix}{}", path_to_string(entry.filename));
            match EntryKind::from(entry.mode) {
                EntryKind::Tree => folders.push((entry.oid.to_owned(), format!("{path}/"))),
                kind => {
                    out.insert(path, (entry.oid.to_owned(), kind));
                }
            }
        }
        for (id, below) in folders {
            self.collect_tree(id, &below, out)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commit_all, git, init, open, write};

    #[test]
    fn added_modified_deleted_and_mode_changes_are_staged() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "beeuni.yaml", "tools:\n");
        write(dir, "tools/a.ts", "a");
        write(dir, "tools/b.ts", "b");
        write(dir, "apps/x/beeuni.yaml", "x");
        write(dir, "run.sh", "echo");
        commit_all(dir);
        assert_eq!(open(dir).staged_paths().unwrap(), Vec::<String>::new(), "nothing staged after a commit");
        write(dir, "tools/a.ts", "a2");
        git(dir, &["rm", "-q", "tools/b.ts"]);
        write(dir, "tools/c.ts", "c");
        git(dir, &["add", "tools/a.ts", "tools/c.ts"]);
        git(dir, &["update-index", "--chmod=+x", "run.sh"]);
        // Changed in the work tree only: not staged.
        write(dir, "apps/x/beeuni.yaml", "x2");
        assert_eq!(open(dir).staged_paths().unwrap(), ["run.sh", "tools/a.ts", "tools/b.ts", "tools/c.ts"]);
    }

    #[test]
    fn on_an_unborn_head_every_entry_is_staged() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "beeuni.yaml", "tools:\n");
        write(dir, "tools/a.ts", "a");
        git(dir, &["add", "-A"]);
        write(dir, "untracked.ts", "u");
        git(dir, &["add", "-N", "untracked.ts"]);
        assert_eq!(open(dir).staged_paths().unwrap(), ["beeuni.yaml", "tools/a.ts"]);
    }
}
