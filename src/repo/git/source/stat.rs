//! The index's stat data: whether a work-tree file is unchanged since it was staged, told from one `stat`
//! of it instead of hashing its bytes (git's own shortcut).

use gix::ObjectId;
use gix::index::entry::Flags;

use crate::repo::git::{GitRepo, normalize};

/// A non-racy index entry's blob id and stat data (see [`GitRepo::index_stat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexStat {
    pub id: ObjectId,
    stat: gix::index::entry::Stat,
}

impl IndexStat {
    /// The blob id, when the file's metadata matches what the index recorded (git's "unchanged since staged").
    pub fn id_if_clean(&self, metadata: &gix::index::fs::Metadata) -> Option<ObjectId> {
        self.id_if_same(&gix::index::entry::Stat::from_fs(metadata).ok()?)
    }

    /// [`IndexStat::id_if_clean`] of stat data read already (see [`crate::repo::folders::stat_no_follow`]).
    pub fn id_if_same(&self, stat: &gix::index::entry::Stat) -> Option<ObjectId> {
        self.stat.matches(stat, gix::index::entry::stat::Options::default()).then_some(self.id)
    }
}

impl GitRepo {
    /// The blob id of a work-tree file (`file`, at repo-relative `path`) when its stat data matches its index entry
    /// and the entry is not racy: git's own shortcut for "unchanged since staged". `None` when only hashing the
    /// bytes would tell.
    pub fn clean_index_id(&self, path: &str, file: &std::path::Path) -> Option<ObjectId> {
        self.index_stat(path)?.id_if_same(&crate::repo::folders::stat_no_follow(file).ok()?)
    }

    /// The index's blob id and stat data of a path, unless the entry is racy (changed within the second the index
    /// was written, when stat data cannot tell a later edit). Lets another thread tell "unchanged since staged"
    /// from one `fstat` of the file it opens.
    pub fn index_stat(&self, path: &str) -> Option<IndexStat> {
        self.stat_of(self.paths.entry(&self.index, normalize(path))?)
    }

    fn stat_of(&self, entry: &gix::index::Entry) -> Option<IndexStat> {
        let racy = entry.stat.is_racy(self.index.timestamp(), gix::index::entry::stat::Options::default());
        (!racy).then_some(IndexStat { id: entry.id, stat: entry.stat })
    }

    /// From one lookup of the path's index entry: the size the index recorded for a regular file there (git keeps
    /// it modulo 2^32), and what [`GitRepo::index_stat`] gives.
    pub fn indexed_size_and_stat(&self, path: &str) -> (Option<u64>, Option<IndexStat>) {
        let Some(entry) = self.paths.entry(&self.index, normalize(path)) else { return (None, None) };
        use gix::index::entry::Mode;
        let file = (entry.mode == Mode::FILE || entry.mode == Mode::FILE_EXECUTABLE)
            && !entry.flags.intersects(Flags::INTENT_TO_ADD | Flags::SKIP_WORKTREE);
        (file.then_some(u64::from(entry.stat.size)), self.stat_of(entry))
    }
}

#[cfg(test)]
mod tests {
    use crate::repo::git::source::tests::project;
    use crate::repo::git::tests::open;

    #[test]
    fn one_lookup_gives_the_indexed_size_and_the_stat_data() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        project(dir);
        let repo = open(dir);
        for (path, size) in [("tools/a.py", Some(2)), ("tools/new.py", Some(4)), ("run.sh", Some(10))] {
            assert_eq!(repo.indexed_size_and_stat(path), (size, repo.index_stat(path)), "{path}");
        }
        // Not in the index (removed from it, never added), or not a regular file.
        for path in ["tools/sub/b.py", "tools/missing.py", "tools"] {
            assert_eq!(repo.indexed_size_and_stat(path), (None, None), "{path}");
        }
        #[cfg(unix)]
        assert_eq!(repo.indexed_size_and_stat("link"), (None, repo.index_stat("link")));
    }
}
