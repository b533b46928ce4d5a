//! A hash index over a list whose items each have a byte key (a path, a name): positions by key, so that a
//! lookup asked per module or per name costs one hash instead of a binary search of key comparisons, and the
//! keys stay where they are (nothing is copied).

use rustc_hash::FxHasher;
use std::hash::Hasher;

/// Open addressing with linear probing: each slot holds the position of the first item with a key, plus one, or 0
/// when empty, in its low bits, and in the bits above them a tag of the key's hash. At most half full, so a probe
/// ends soon. Four bytes per slot, two slots per item.
///
/// A position plus one needs the low `log2(slots)` bits at most (the table has at least two slots per item), so
/// the bits above them are free: a probe whose tag differs skips the key, whose bytes are elsewhere in memory (a
/// lookup that finds nothing, as the stage's check for a module not named yet, compared half a key on average).
pub struct PositionTable {
    slots: Vec<u32>,
}

/// A key's hash (`FxHasher`): its low bits pick the first slot, its high bits the tag.
fn hash(key: &[u8]) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(key);
    hasher.finish()
}

/// For a table of `slots` slots (a power of two): the slot where a key's probe starts, the mask of the bits of a
/// slot that hold a position plus one, and the key's tag (in the bits above them).
fn split(hash: u64, slots: usize) -> (usize, u32, u32) {
    let positions = ((1u64 << slots.trailing_zeros().min(32)) - 1) as u32;
    (hash as usize & (slots - 1), positions, (hash >> 32) as u32 & !positions)
}

impl PositionTable {
    /// The table of `len` items whose keys `key` gives; an item whose key an earlier item has is left out (a lookup
    /// finds the first).
    pub fn new<'k>(len: usize, key: impl Fn(usize) -> &'k [u8]) -> Self {
        // Positions are stored as `u32` + 1: a list that long (4 billion items) is not indexed and finds nothing.
        if len >= u32::MAX as usize {
            return PositionTable { slots: Vec::new() };
        }
        let mut table = PositionTable { slots: vec![0u32; (len * 2).next_power_of_two().max(2)] };
        for position in 0..len {
            table.place(position, &key);
        }
        table
    }

    /// An empty table with room for `len` items before [`PositionTable::push`] rebuilds it (a list whose length is
    /// known ahead: each rebuild places every item again).
    pub fn with_room(len: usize) -> Self {
        PositionTable { slots: vec![0u32; (len.min(u32::MAX as usize / 4) * 2).next_power_of_two().max(2)] }
    }

    /// Adds item `position` of a list that grows, every item before it in already: the table is rebuilt twice as
    /// large when it would be more than half full (a list of paths as they are named, 4 to 16 bytes an item where a
    /// map of the keys themselves holds 33).
    pub fn push<'k>(&mut self, position: usize, key: impl Fn(usize) -> &'k [u8]) {
        if position + 1 >= u32::MAX as usize {
            return;
        }
        if (position + 1) * 2 > self.slots.len() {
            *self = PositionTable::new(position + 1, key);
        } else {
            self.place(position, &key);
        }
    }

    fn place<'k>(&mut self, position: usize, key: &impl Fn(usize) -> &'k [u8]) {
        let wanted = key(position);
        let (mut slot, positions, tag) = split(hash(wanted), self.slots.len());
        let mask = self.slots.len() - 1;
        loop {
            match self.slots[slot] {
                0 => {
                    // `position + 1` fits below the tag: at most half the slots hold an item.
                    self.slots[slot] = (position as u32 + 1) | tag;
                    return;
                }
                taken if taken & !positions == tag && key((taken & positions) as usize - 1) == wanted => return,
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// The position of the first item whose key is `wanted`; `key` must be the one the table was built with.
    pub fn find<'k>(&self, wanted: &[u8], key: impl Fn(usize) -> &'k [u8]) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let (mut slot, positions, tag) = split(hash(wanted), self.slots.len());
        loop {
            let taken = *self.slots.get(slot)?;
            let position = ((taken & positions) as usize).checked_sub(1)?;
            if taken & !positions == tag && key(position) == wanted {
                return Some(position);
            }
            slot = (slot + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PositionTable;

    #[test]
    fn finds_the_first_item_of_each_key_and_nothing_else() {
        let items: Vec<String> = (0..1000).map(|n| format!("tool_{}", n % 700)).collect();
        let key = |at: usize| items[at].as_bytes();
        let table = PositionTable::new(items.len(), key);
        for (at, item) in items.iter().enumerate() {
            assert_eq!(table.find(item.as_bytes(), key), Some(at % 700), "{item}");
        }
        for absent in ["", "tool_", "tool_700", "tool_1x", "tool_0 "] {
            assert_eq!(table.find(absent.as_bytes(), key), None, "{absent}");
        }
        let empty = PositionTable::new(0, key);
        assert_eq!(empty.find(b"tool_1", key), None);
    }

    #[test]
    fn a_table_made_with_room_finds_what_is_pushed_beyond_its_room() {
        let items: Vec<String> = (0..300).map(|n| format!("tool_{}", n % 200)).collect();
        let key = |at: usize| items[at].as_bytes();
        let mut table = PositionTable::with_room(100);
        assert_eq!(table.find(b"tool_1", key), None);
        for at in 0..items.len() {
            table.push(at, key);
        }
        for (at, item) in items.iter().enumerate() {
            assert_eq!(table.find(item.as_bytes(), key), Some(at % 200), "{item}");
        }
        assert_eq!(table.find(b"tool_200", key), None);
    }

    #[test]
    fn a_table_pushed_to_finds_what_one_built_at_once_does() {
        let items: Vec<String> = (0..1000).map(|n| format!("tool_{}", n % 700)).collect();
        let key = |at: usize| items[at].as_bytes();
        let mut table = PositionTable::new(0, key);
        for (at, item) in items.iter().enumerate() {
            table.push(at, key);
            assert_eq!(table.find(item.as_bytes(), key), Some(at % 700), "{item}");
            assert!(table.slots.len() >= 2 * (at + 1), "more than half full at {at}");
        }
        for (at, item) in items.iter().enumerate() {
            assert_eq!(table.find(item.as_bytes(), key), Some(at % 700), "{item}");
        }
        assert_eq!(table.find(b"tool_700", key), None);
    }
}
