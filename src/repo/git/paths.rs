//! The index's entries by path (see [`PositionTable`]): "is this path tracked" and "what does the index hold at
//! this path", asked per module and per import, cost one hash of the path, and no copy of the paths is kept.

use crate::lookup::PositionTable;
use gix::index::State;

/// Positions of the index's entries by path: the first entry (the lowest stage) of each path.
pub struct PathTable(PositionTable);

impl PathTable {
    pub fn new(state: &State) -> Self {
        PathTable(PositionTable::new(state.entries().len(), |at| state.entries()[at].path(state)))
    }

    /// The position of the first entry at `path` in `state`, which this table was built from.
    pub fn first(&self, state: &State, path: &str) -> Option<usize> {
        // The table indexes exactly `state`'s entries, so a position it holds is in range.
        self.0.find(path.as_bytes(), |at| state.entries().get(at).map_or(&[][..], |entry| entry.path(state)))
    }

    /// The entry git reads at `path`: stage 0, or "ours" (stage 2) for a conflicted path (as
    /// `gix::index::State::entry_by_path`).
    pub fn entry<'s>(&self, state: &'s State, path: &str) -> Option<&'s gix::index::Entry> {
        let first = self.first(state, path)?;
        let entries = &state.entries()[first..];
        // The first is at `path` (the table found it by that key): its path is not compared again, and a path
        // not in conflict has only that one (stage 0).
        let (head, rest) = entries.split_first()?;
        if matches!(head.stage_raw(), 0 | 2) {
            return Some(head);
        }
        rest.iter()
            .take_while(|entry| entry.path(state) == path.as_bytes())
            .find(|entry| matches!(entry.stage_raw(), 0 | 2))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commit_all, init, open, write};

    #[test]
    fn every_path_is_found_once_and_no_other() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        let names: Vec<String> = (0..300).map(|n| format!("d{}/f{n}.ts", n % 7)).collect();
        for name in &names {
            write(dir, name, "");
        }
        commit_all(dir);
        let repo = open(dir);
        for name in &names {
            assert!(repo.is_tracked(name), "{name}");
        }
        for name in ["d0", "d0/f1.ts", "f0.ts", "d0/f0.t", "d0/f0.tsx", "d0/f0.ts/x", ""] {
            assert!(!repo.is_tracked(name), "{name}");
        }
    }
}
