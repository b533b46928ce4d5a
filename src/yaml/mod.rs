//! Spanned YAML: a tree of nodes with exact byte spans, comments and duplicate keys.

pub mod scalar;
pub mod tree;

pub use tree::{Document, Entry, NodeId, Style, SyntaxError, Value, parse};
