//! A hash index over a list whose items each have a byte key (a path, a name): positions by key, so that a
//! lookup asked per module or per name costs one hash instead of a binary search of key comparisons, and the
//! keys stay where they are (nothing is copied).

use rustc_hash::FxHasher;
use std::hash::Hasher;

/// Open addressing with linear probing: each slot holds the position of the first item with a key, plus one, or 0
/// when empty. At most half full, so a probe ends soon. Four bytes per slot, two slots per item.
pub struct PositionTable {
    slots: Vec<u32>,
}

/// A key's first slot: its hash masked to the table's size.
fn home(key: &[u8], mask: usize) -> usize {
    let mut hasher = FxHasher::default();
    hasher.write(key);
    hasher.finish() as usize & mask
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
        let mask = table.slots.len() - 1;
        for position in 0..len {
            let wanted = key(position);
            let mut slot = home(wanted, mask);
            loop {
                match table.slots[slot] {
                    0 => {
                        table.slots[slot] = position as u32 + 1;
                        break;
                    }
                    taken if key(taken as usize - 1) == wanted => break,
                    _ => slot = (slot + 1) & mask,
                }
            }
        }
        table
    }

    /// The position of the first item whose key is `wanted`; `key` must be the one the table was built with.
    pub fn find<'k>(&self, wanted: &[u8], key: impl Fn(usize) -> &'k [u8]) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut slot = home(wanted, mask);
        loop {
            let position = (*self.slots.get(slot)? as usize).checked_sub(1)?;
            if key(position) == wanted {
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
}
