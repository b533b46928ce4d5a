//! The index's entries by path: a hash table of entry positions, so that "is this path tracked" and "what does
//! the index hold at this path", asked per module and per import, cost one hash of the path instead of a
//! binary search of path comparisons, and no copy of the index's paths is kept.

use gix::index::State;
use rustc_hash::FxHasher;
use std::hash::Hasher;

/// Open addressing with linear probing: each slot holds the position of the first entry of a path (entries are
/// sorted by path, then stage) plus one, or 0 when empty. At most half full, so a probe ends soon.
pub struct PathTable {
    slots: Vec<u32>,
}

/// A slot's position for a path: its hash masked to the table's size.
fn home(path: &[u8], mask: usize) -> usize {
    let mut hasher = FxHasher::default();
    hasher.write(path);
    hasher.finish() as usize & mask
}

impl PathTable {
    /// The table of `state`'s paths, each once (a conflicted path has one entry per stage).
    pub fn new(state: &State) -> Self {
        let entries = state.entries();
        // Positions are stored as `u32` + 1: an index beyond that (4 billion entries) is not indexed and falls back
        // to nothing found, which no git index reaches.
        if entries.len() >= u32::MAX as usize {
            return PathTable { slots: Vec::new() };
        }
        let mut slots = vec![0u32; (entries.len() * 2).next_power_of_two().max(2)];
        let mask = slots.len() - 1;
        let mut previous: Option<&[u8]> = None;
        for (position, entry) in entries.iter().enumerate() {
            let path: &[u8] = entry.path(state);
            if previous == Some(path) {
                continue;
            }
            previous = Some(path);
            let mut slot = home(path, mask);
            while slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            slots[slot] = position as u32 + 1;
        }
        PathTable { slots }
    }

    /// The position of the first entry (the lowest stage) at `path` in `state`, which this table was built from.
    pub fn first(&self, state: &State, path: &str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut slot = home(path.as_bytes(), mask);
        loop {
            let position = (*self.slots.get(slot)? as usize).checked_sub(1)?;
            let entry = state.entries().get(position)?;
            if entry.path(state) == path.as_bytes() {
                return Some(position);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The entry git reads at `path`: stage 0, or "ours" (stage 2) for a conflicted path (as
    /// `gix::index::State::entry_by_path`).
    pub fn entry<'s>(&self, state: &'s State, path: &str) -> Option<&'s gix::index::Entry> {
        let first = self.first(state, path)?;
        state.entries()[first..]
            .iter()
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
