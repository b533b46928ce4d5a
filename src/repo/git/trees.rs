//! A commit's tree objects, each read once: a path below the tree is found by a binary search of each folder's
//! entries. Walked afresh for every path, a folder was inflated and scanned again for each file looked up in it:
//! with 2,000 modules in one folder, `impact --base` spent 1.2 G of its 1.8 G instructions there, and the cost
//! grew with the square of the folder's size (9 s at 20,000 modules).

use super::GitRepo;
use gix::ObjectId;
use gix::objs::tree::EntryMode;
use gix::prelude::FindExt;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The most memory the trees kept may take (their names and entries): a repository's folders are its own to make
/// large, and past this a folder is read for each lookup, as if none were kept.
const BUDGET: usize = 64 << 20;

/// The trees read so far, by id (see the module documentation).
#[derive(Default)]
pub(super) struct Trees(Mutex<Kept>);

#[derive(Default)]
struct Kept {
    by_id: FxHashMap<ObjectId, Arc<Tree>>,
    /// What the kept trees take, as [`Tree::size`] counts it.
    size: usize,
}

/// A tree object's entries as read (up to the first that does not parse, as a walk of it stops there).
pub(super) struct Tree {
    /// Every entry's name, one after the other, in the tree's order.
    names: Vec<u8>,
    /// In the tree's order: where its name ends in `names` (it starts where the one before ends), its id and mode.
    entries: Vec<(u32, ObjectId, EntryMode)>,
    /// The entries' indices, sorted by name (stable: of two entries of one name, the first is found, as a walk
    /// finds it).
    by_name: Vec<u32>,
}

impl Tree {
    fn read(iter: gix::objs::TreeRefIter<'_>) -> Option<Tree> {
        let (mut names, mut entries) = (Vec::new(), Vec::new());
        for entry in iter.map_while(Result::ok) {
            names.extend_from_slice(entry.filename);
            entries.push((u32::try_from(names.len()).ok()?, entry.oid.to_owned(), entry.mode));
        }
        let mut tree = Tree { names, entries, by_name: Vec::new() };
        let mut by_name: Vec<u32> = (0..tree.entries.len() as u32).collect();
        by_name.sort_by(|&a, &b| tree.name(a as usize).cmp(tree.name(b as usize)));
        tree.by_name = by_name;
        Some(tree)
    }

    fn name(&self, at: usize) -> &[u8] {
        let start = at.checked_sub(1).map_or(0, |before| self.entries[before].0 as usize);
        &self.names[start..self.entries[at].0 as usize]
    }

    /// The id and mode of the entry `name`.
    pub(super) fn find(&self, name: &[u8]) -> Option<(ObjectId, EntryMode)> {
        let first = self.by_name.partition_point(|&at| self.name(at as usize) < name);
        let at = *self.by_name.get(first)? as usize;
        (self.name(at) == name).then(|| (self.entries[at].1, self.entries[at].2))
    }

    /// The entries' names, in the tree's order.
    pub(super) fn names(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.entries.len()).map(|at| self.name(at))
    }

    fn size(&self) -> usize {
        self.names.len()
            + self.entries.len() * (std::mem::size_of::<(u32, ObjectId, EntryMode)>() + std::mem::size_of::<u32>())
    }
}

impl GitRepo {
    /// The tree `id`, read now unless it was read before (`None` when it is missing or not a tree).
    pub(super) fn tree(&self, id: ObjectId) -> Option<Arc<Tree>> {
        let trees = &self.trees.0;
        if let Some(tree) = trees.lock().unwrap_or_else(PoisonError::into_inner).by_id.get(&id) {
            return Some(Arc::clone(tree));
        }
        let mut buf = Vec::new();
        let tree = Arc::new(Tree::read(self.repo().objects.find_tree_iter(&id, &mut buf).ok()?)?);
        let mut kept = trees.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.size + tree.size() <= BUDGET {
            kept.size += tree.size();
            kept.by_id.insert(id, Arc::clone(&tree));
        }
        Some(tree)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commit_all, init, open, rev_parse, write};
    use super::*;

    #[test]
    fn a_tree_read_once_finds_every_entry_by_name() {
        let dir = tempfile::tempdir().unwrap();
        init(dir.path());
        // Names that git orders otherwise than bytes do (`a-b` before `a/` as a folder `a`), and a folder.
        for path in ["a-b.ts", "a/x.ts", "a.ts", "b.ts", "z/y/w.ts"] {
            write(dir.path(), path, path);
        }
        commit_all(dir.path());
        let repo = open(dir.path());
        let root = repo.tree(rev_parse(dir.path(), "HEAD^{tree}")).unwrap();
        let names: Vec<&[u8]> = root.names().collect();
        assert_eq!(names, [&b"a-b.ts"[..], b"a.ts", b"a", b"b.ts", b"z"], "the tree's own order");
        for name in ["a-b.ts", "a.ts", "a", "b.ts", "z"] {
            assert!(root.find(name.as_bytes()).is_some(), "{name}");
        }
        assert!(root.find(b"c.ts").is_none() && root.find(b"").is_none() && root.find(b"a.t").is_none());
        let (a, mode) = root.find(b"a").unwrap();
        assert!(mode.is_tree());
        assert!(repo.tree(a).unwrap().find(b"x.ts").is_some());
        assert_eq!(repo.trees.0.lock().unwrap().by_id.len(), 2, "each tree kept once");
        let again = repo.tree(rev_parse(dir.path(), "HEAD^{tree}")).unwrap();
        assert!(Arc::ptr_eq(&root, &again), "read once");
    }
}
