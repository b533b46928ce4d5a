//! A spanned YAML tree built iteratively from granit-parser events.
//!
//! Nodes live in one `Vec` and refer to each other by index, so neither
//! building nor dropping a deeply nested document recurses. Aliases are kept
//! as references to their anchored node and never expanded, which makes an
//! alias bomb cost one node per alias.

mod build;
mod duplicates;
mod indentation;

use super::scalar::ScalarKind;
use crate::source::Span;

pub(super) use build::{block_end, build_document, push};
pub use build::{parse, parse_with};
pub(super) use duplicates::find_duplicates;
pub(super) use indentation::column;

pub type NodeId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    Quoted,
    Block,
}

#[derive(Debug, PartialEq)]
pub enum Value {
    Scalar {
        /// Inline up to 24 bytes (most keys and values of a manifest): a manifest of 20,000 tools keeps 40,000
        /// scalars to the end of the run.
        text: compact_str::CompactString,
        kind: ScalarKind,
        style: Style,
    },
    Seq(Vec<NodeId>),
    Map(Vec<Entry>),
    /// An alias of the (complete) node it names.
    Alias(NodeId),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub key: NodeId,
    pub value: NodeId,
}

#[derive(Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
    pub flow: bool,
}

#[derive(Debug, PartialEq)]
pub struct Comment {
    pub span: Span,
    /// The text after `#`.
    pub text: String,
}

/// A mapping key that repeats an earlier one of the same mapping.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuplicateKey {
    pub first: NodeId,
    pub repeat: NodeId,
}

/// What a file's bytes parse to; the warm cache ([`crate::cache`]) stores it as it is.
#[derive(Debug, PartialEq, Default)]
pub struct Document {
    pub nodes: Vec<Node>,
    /// `None` for an empty or comment-only file.
    pub root: Option<NodeId>,
    pub comments: Vec<Comment>,
    pub duplicate_keys: Vec<DuplicateKey>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

impl Document {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// The node an alias stands for (aliases are never chained: they name complete nodes).
    pub fn resolve(&self, id: NodeId) -> NodeId {
        match self.nodes[id].value {
            Value::Alias(target) => target,
            _ => id,
        }
    }

    /// The string of a scalar node (after alias resolution), whatever its type.
    pub fn scalar(&self, id: NodeId) -> Option<&str> {
        match &self.nodes[self.resolve(id)].value {
            Value::Scalar { text, .. } => Some(text.as_str()),
            _ => None,
        }
    }

    /// The string of a node that YAML types as a string.
    pub fn str(&self, id: NodeId) -> Option<&str> {
        match &self.nodes[self.resolve(id)].value {
            Value::Scalar { text, kind: ScalarKind::Str, .. } => Some(text.as_str()),
            _ => None,
        }
    }

    pub fn is_null(&self, id: NodeId) -> bool {
        matches!(self.nodes[self.resolve(id)].value, Value::Scalar { kind: ScalarKind::Null, .. })
    }

    /// A mapping's entries with merge keys (`<<: *base`) expanded: own keys first, then merged ones.
    pub fn entries(&self, id: NodeId) -> Option<Vec<Entry>> {
        let Value::Map(entries) = &self.nodes[self.resolve(id)].value else {
            return None;
        };
        let mut own: Vec<Entry> = Vec::with_capacity(entries.len());
        let mut merged = Vec::new();
        for entry in entries {
            if self.is_merge_key(entry.key) {
                merged.extend(self.merge_sources(entry.value));
            } else {
                own.push(*entry);
            }
        }
        // The keys held so far by hash: a merged mapping's every key looked for among the own ones was their
        // product (a repository's `tools:` can merge thousands into thousands).
        let mut held: Option<std::collections::HashSet<Option<&str>>> = None;
        for source in merged {
            if let Value::Map(entries) = &self.nodes[source].value {
                for entry in entries {
                    let held = held.get_or_insert_with(|| own.iter().map(|e| self.scalar(e.key)).collect());
                    if !self.is_merge_key(entry.key) && held.insert(self.scalar(entry.key)) {
                        own.push(*entry);
                    }
                }
            }
        }
        Some(own)
    }

    pub fn is_merge_key(&self, key: NodeId) -> bool {
        matches!(&self.nodes[key].value, Value::Scalar { text, style: Style::Plain, .. } if text == "<<")
    }

    fn merge_sources(&self, value: NodeId) -> Vec<NodeId> {
        let value = self.resolve(value);
        match &self.nodes[value].value {
            Value::Map(_) => vec![value],
            Value::Seq(items) => items.iter().map(|&i| self.resolve(i)).collect(),
            _ => Vec::new(),
        }
    }

    pub fn items(&self, id: NodeId) -> Option<&[NodeId]> {
        match &self.nodes[self.resolve(id)].value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn get(&self, map: NodeId, key: &str) -> Option<Entry> {
        self.entries(map)?.into_iter().find(|e| self.scalar(e.key) == Some(key))
    }

    /// A short name of a node's type for messages: "a mapping", "a list", "a string", "null", ….
    pub fn describe(&self, id: NodeId) -> &'static str {
        match &self.nodes[self.resolve(id)].value {
            Value::Scalar { kind, .. } => kind.describe(),
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
            Value::Alias(_) => "an alias",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn slice<'a>(text: &'a str, doc: &Document, id: NodeId) -> &'a str {
        &text[doc.node(id).span.range()]
    }

    #[test]
    fn merge_keys_and_aliases() {
        let doc = parse("base: &b {tools: none, x: 1}\nagent:\n  <<: *b\n  x: 2\n").unwrap();
        let agent = doc.get(doc.root.unwrap(), "agent").unwrap().value;
        assert_eq!(doc.scalar(doc.get(agent, "tools").unwrap().value), Some("none"));
        assert_eq!(doc.scalar(doc.get(agent, "x").unwrap().value), Some("2"));
    }
}
