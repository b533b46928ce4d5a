//! Spanned YAML: a tree of nodes with exact byte spans, comments and duplicate keys.

pub mod edit;
pub mod scalar;
pub mod split;
pub mod tree;

pub use tree::{Document, Entry, NodeId, Style, SyntaxError, Value, parse, parse_with};

/// Where a block list item starts: at its `- ` (a scalar's span starts after it); elsewhere at `start`.
pub fn block_item_start(text: &str, start: usize) -> usize {
    let before = &text.as_bytes()[..start.min(text.len())];
    let spaces = before.iter().rev().take_while(|b| **b == b' ').count();
    match before.len().checked_sub(spaces + 1) {
        Some(dash) if before[dash] == b'-' => dash,
        _ => start,
    }
}
