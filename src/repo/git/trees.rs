//! A commit's tree objects, each read once: a path below the tree is found by a binary search of each folder's
//! entries. Walked afresh for every path, a folder was inflated and scanned again for each file looked up in it:
//! with 2,000 modules in one folder, `impact --base` spent 1.2 G of its 1.8 G instructions there, and the cost
//! grew with the square of the folder's size (9 s at 20,000 modules). And the delta bases a pack's blobs are
//! built from, kept for the next blob ([`DeltaBases`]).

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

/// The delta bases a pack's objects were last built from, for the objects read after them: git stores a file's
/// versions, and files alike, as chains of deltas (up to 50 deep), and each blob read inflated its whole chain
/// again (240,000 instructions a 2 KB module at the 2,000-module bench). The newest are kept, within
/// [`DeltaBases::BYTES`] (gix's own cache of this kind held from 47 to 83 MB at the 20k bench's peak, where the run
/// took 40 without one), the oldest let go first.
#[derive(Default)]
pub(super) struct DeltaBases {
    /// By pack and offset in it: the kind, the compressed size and the bytes.
    kept: FxHashMap<(u32, u64), (gix::objs::Kind, usize, Vec<u8>)>,
    /// The keys of `kept`, oldest first.
    order: std::collections::VecDeque<(u32, u64)>,
    bytes: usize,
}

impl DeltaBases {
    const BYTES: usize = 2 << 20;
}

impl gix::odb::pack::cache::DecodeEntry for DeltaBases {
    fn put(&mut self, pack: u32, offset: u64, data: &[u8], kind: gix::objs::Kind, compressed_size: usize) {
        if data.len() > Self::BYTES || self.kept.contains_key(&(pack, offset)) {
            return;
        }
        while self.bytes + data.len() > Self::BYTES {
            let Some(oldest) = self.order.pop_front() else { break };
            self.bytes -= self.kept.remove(&oldest).map_or(0, |(.., bytes)| bytes.len());
        }
        self.bytes += data.len();
        self.order.push_back((pack, offset));
        self.kept.insert((pack, offset), (kind, compressed_size, data.to_vec()));
    }

    fn get(&mut self, pack: u32, offset: u64, out: &mut Vec<u8>) -> Option<(gix::objs::Kind, usize)> {
        let (kind, compressed_size, data) = self.kept.get(&(pack, offset))?;
        out.clear();
        out.extend_from_slice(data);
        Some((*kind, *compressed_size))
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

    #[test]
    fn delta_bases_are_kept_newest_first_within_their_bytes() {
        use gix::odb::pack::cache::DecodeEntry;
        let (blob, mut out) = (gix::objs::Kind::Blob, Vec::new());
        let mut bases = DeltaBases::default();
        let quarter = vec![7; DeltaBases::BYTES / 4];
        for offset in 0..4 {
            bases.put(1, offset, &quarter, blob, offset as usize);
        }
        assert_eq!(bases.get(1, 2, &mut out), Some((blob, 2)));
        assert_eq!(out, quarter);
        assert_eq!(bases.get(2, 2, &mut out), None, "another pack");
        // A fifth quarter lets the oldest go; one larger than all is not kept, and lets none go.
        bases.put(1, 4, &quarter, blob, 4);
        assert_eq!(bases.get(1, 0, &mut out), None);
        assert!((1..5).all(|offset| bases.get(1, offset, &mut out).is_some()));
        bases.put(1, 9, &vec![0; DeltaBases::BYTES + 1], blob, 9);
        assert_eq!(bases.get(1, 9, &mut out), None);
        assert_eq!((bases.kept.len(), bases.bytes), (4, DeltaBases::BYTES));
    }
}
