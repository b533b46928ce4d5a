//! A spanned YAML tree built iteratively from granit-parser events.
//!
//! Nodes live in one `Vec` and refer to each other by index, so neither
//! building nor dropping a deeply nested document recurses. Aliases are kept
//! as references to their anchored node and never expanded, which makes an
//! alias bomb cost one node per alias.

use super::scalar::{ScalarKind, plain_kind, tagged_kind};
use crate::source::Span;
use granit_parser::{Event, Options, Parser, ScalarStyle, StructureStyle};
use rustc_hash::FxHashMap;

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

enum Frame {
    Seq { start: usize, items: Vec<NodeId>, flow: bool, anchor: usize },
    Map { start: usize, entries: Vec<Entry>, key: Option<NodeId>, flow: bool, anchor: usize },
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
        for source in merged {
            if let Value::Map(entries) = &self.nodes[source].value {
                for entry in entries {
                    let key = self.scalar(entry.key);
                    if !self.is_merge_key(entry.key) && own.iter().all(|e| self.scalar(e.key) != key) {
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

/// Parses one YAML document. `text` must already be valid UTF-8 (it is a `&str`).
pub fn parse(text: &str) -> Result<Document, SyntaxError> {
    parse_with(text, |_, _| {})
}

/// [`parse`], calling `top_entry` with the document so far as each entry of a top-level mapping is complete (its
/// key and value nodes are in the document; the document's root is not set yet).
pub fn parse_with(text: &str, top_entry: impl FnMut(&Document, Entry)) -> Result<Document, SyntaxError> {
    build(text, true, top_entry)
}

/// [`parse_with`]; without `whole`, `text` is a part of a file ([`super::split`]) and its top-level mapping is not
/// searched for repeated keys (the whole file's is, once the parts are joined).
pub(super) fn build(
    text: &str,
    whole: bool,
    mut top_entry: impl FnMut(&Document, Entry),
) -> Result<Document, SyntaxError> {
    let options = Options::default();
    let parser = Parser::new_from_str_with_options(text, options);
    let mut doc = Document::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: FxHashMap<usize, NodeId> = FxHashMap::default();
    let mut documents = 0usize;
    for event in parser {
        let (event, span) = event.map_err(|e| SyntaxError {
            offset: e.marker().byte_offset().unwrap_or(0).min(text.len()),
            message: e.info(),
        })?;
        let range = span.byte_range().unwrap_or(0..0);
        let span = Span::new(range.start.min(text.len()), range.end.min(text.len()));
        let node = match event {
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return Err(SyntaxError {
                        offset: span.start,
                        message: "a second YAML document starts here: a manifest file holds exactly one".into(),
                    });
                }
                continue;
            }
            Event::Comment(body, _) => {
                doc.comments.push(Comment { span, text: body.into_owned() });
                continue;
            }
            Event::Scalar(value, style, anchor, tag) => {
                let kind = match (&tag, style) {
                    (Some(tag), _) => tag.core_suffix().and_then(tagged_kind).unwrap_or(ScalarKind::Str),
                    (None, ScalarStyle::Plain) => plain_kind(&value),
                    (None, _) => ScalarKind::Str,
                };
                let style = match style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => Style::Quoted,
                    _ => Style::Block,
                };
                let id = push(&mut doc, Value::Scalar { text: value.into(), kind, style }, span, false);
                if anchor != 0 {
                    anchors.insert(anchor, id);
                }
                id
            }
            Event::Alias(anchor) => {
                let Some(&target) = anchors.get(&anchor) else {
                    return Err(SyntaxError {
                        offset: span.start,
                        message: "this alias refers to a node that contains it, or to no anchor".into(),
                    });
                };
                let target = doc.resolve(target);
                push(&mut doc, Value::Alias(target), span, false)
            }
            Event::SequenceStart(style, anchor, _) => {
                let flow = style == StructureStyle::Flow;
                stack.push(Frame::Seq { start: span.start, items: Vec::new(), flow, anchor });
                continue;
            }
            Event::MappingStart(style, anchor, _) => {
                let flow = style == StructureStyle::Flow;
                stack.push(Frame::Map { start: span.start, entries: Vec::new(), key: None, flow, anchor });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = stack.pop() else { continue };
                let (value, start, flow, anchor) = match frame {
                    Frame::Seq { start, mut items, flow, anchor } => {
                        items.shrink_to_fit();
                        (Value::Seq(items), start, flow, anchor)
                    }
                    Frame::Map { start, mut entries, flow, anchor, .. } => {
                        if whole || !stack.is_empty() {
                            find_duplicates(&mut doc, &entries);
                        }
                        entries.shrink_to_fit();
                        (Value::Map(entries), start, flow, anchor)
                    }
                };
                // Clamped: an empty last value at the end of the text would end one past it.
                let end =
                    if flow { span.end } else { last_child_end(&doc, &value).map_or(start, |e| e.min(text.len())) };
                let id = push(&mut doc, value, Span::new(start, end), flow);
                if anchor != 0 {
                    anchors.insert(anchor, id);
                }
                id
            }
            _ => continue,
        };
        // A flow collection or a quoted scalar in a block collection: its continuation lines must be indented
        // more than that block (YAML 1.2; yaml-test-suite 9C9N, DK95, QB6E), which the parser does not check.
        let node_ref = &doc.nodes[node];
        let spans_lines = node_ref.flow || matches!(node_ref.value, Value::Scalar { style: Style::Quoted, .. });
        if spans_lines && let Some(block_start) = stack.last().and_then(Frame::block_start) {
            check_continuation(text, node_ref.span, column(text, block_start), node_ref.flow)?;
        }
        let top = stack.len() == 1;
        match stack.last_mut() {
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                Some(key) => {
                    entries.push(Entry { key, value: node });
                    if top {
                        top_entry(&doc, Entry { key, value: node });
                    }
                }
                None => *key = Some(node),
            },
            None => doc.root = Some(node),
        }
    }
    // A document with nothing in it (`---` alone) is an empty file, not a null manifest.
    if let Some(root) = doc.root
        && doc.nodes[root].span.is_empty()
        && matches!(doc.nodes[root].value, Value::Scalar { kind: ScalarKind::Null, .. })
    {
        doc.root = None;
    }
    // Kept to the end of the run (with every list above): without the room it grew into by doubling.
    doc.nodes.shrink_to_fit();
    Ok(doc)
}

impl Frame {
    /// Where a block collection starts (its first key or `-`); `None` for a flow collection.
    fn block_start(&self) -> Option<usize> {
        match self {
            Frame::Seq { start, flow: false, .. } | Frame::Map { start, flow: false, .. } => Some(*start),
            _ => None,
        }
    }
}

/// The 0-based byte column of `offset` on its line.
pub(super) fn column(text: &str, offset: usize) -> usize {
    let before = &text.as_bytes()[..offset.min(text.len())];
    before.len() - before.iter().rposition(|&b| b == b'\n' || b == b'\r').map_or(0, |i| i + 1)
}

/// Every line of `span` after its first must be indented by more than `block` spaces (tabs are not
/// indentation), but for blank lines and, in a flow collection, comment lines.
fn check_continuation(text: &str, span: Span, block: usize, flow: bool) -> Result<(), SyntaxError> {
    let bytes = &text.as_bytes()[span.range()];
    let mut at = 0;
    while let Some(next) = bytes[at..].iter().position(|&b| b == b'\n' || b == b'\r') {
        at += next + 1;
        if bytes.get(at - 1) == Some(&b'\r') && bytes.get(at) == Some(&b'\n') {
            at += 1;
        }
        let line = &bytes[at..];
        let end = line.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(line.len());
        let line = &line[..end];
        let spaces = line.iter().take_while(|&&b| b == b' ').count();
        let first = line.iter().position(|&b| b != b' ' && b != b'\t');
        let Some(first) = first else { continue };
        if (flow && line[first] == b'#') || spaces > block {
            continue;
        }
        let what = if flow { "a flow collection" } else { "a quoted scalar" };
        let message = if spaces < first {
            format!(
                "this line of {what} is indented with a tab; indent it with more than {block} spaces (tabs are not indentation in YAML)"
            )
        } else {
            format!(
                "this line continues {what} but is indented by {spaces} spaces: YAML needs more than {block}, the indentation of the block it is in"
            )
        };
        return Err(SyntaxError { offset: span.start + at + first, message });
    }
    Ok(())
}

pub(super) fn push(doc: &mut Document, value: Value, span: Span, flow: bool) -> NodeId {
    doc.nodes.push(Node { value, span, flow });
    doc.nodes.len() - 1
}

pub(super) fn last_child_end(doc: &Document, value: &Value) -> Option<usize> {
    let last = match value {
        Value::Seq(items) => *items.last()?,
        Value::Map(entries) => entries.last()?.value,
        _ => return None,
    };
    let node = &doc.nodes[last];
    // An empty value sits on its `:`; the entry still ends after the colon.
    Some(if node.span.start == node.span.end { node.span.end + 1 } else { node.span.end })
}

/// Mappings up to this many entries are searched for repeated keys pair by pair, without building a table
/// (nearly all of a manifest's mappings: an agent, a tool's settings).
const SMALL_MAPPING: usize = 8;

pub(super) fn find_duplicates(doc: &mut Document, entries: &[Entry]) {
    // A key as compared: `null` and `~` are the same key; `1` and `"1"` are not. `None` for a key that is not
    // compared (a collection, an alias, a merge key).
    let key = |entry: &Entry| match &doc.nodes[entry.key].value {
        Value::Scalar { .. } if doc.is_merge_key(entry.key) => None,
        Value::Scalar { text, kind, .. } => {
            Some((if *kind == ScalarKind::Null { "" } else { text.as_str() }, *kind == ScalarKind::Str))
        }
        _ => None,
    };
    let mut found = Vec::new();
    if entries.len() <= SMALL_MAPPING {
        for (at, entry) in entries.iter().enumerate() {
            let Some(this) = key(entry) else { continue };
            if let Some(first) = entries[..at].iter().find(|earlier| key(earlier) == Some(this)) {
                found.push(DuplicateKey { first: first.key, repeat: entry.key });
            }
        }
    } else {
        let mut seen: FxHashMap<(&str, bool), NodeId> =
            FxHashMap::with_capacity_and_hasher(entries.len(), Default::default());
        for entry in entries {
            let Some(this) = key(entry) else { continue };
            match seen.get(&this) {
                Some(&first) => found.push(DuplicateKey { first, repeat: entry.key }),
                None => {
                    seen.insert(this, entry.key);
                }
            }
        }
    }
    doc.duplicate_keys.extend(found);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `manifest` fuzz target: an empty last item at the very end of the text made its collections
    /// end one byte past it (and the fix of `no-beeuni-tools` slice out of bounds).
    #[test]
    fn an_empty_value_at_the_end_of_the_text_ends_within_it() {
        for text in ["tools:\n  web_searcimports:\n  - a.yaml\n  - ", "tools:\n  x:", "a:\n  - b:"] {
            let doc = parse(text).unwrap();
            assert!(doc.nodes.iter().all(|node| node.span.end <= text.len()), "{text:?}: {doc:?}");
        }
    }

    fn slice<'a>(text: &'a str, doc: &Document, id: NodeId) -> &'a str {
        &text[doc.node(id).span.range()]
    }

    #[test]
    fn spans_of_keys_values_and_collections() {
        let text = "tools:\n  web_search: beeuni:web_search  # c\n  empty:\nagents: {a: [x, \"y\"]}\n";
        let doc = parse(text).unwrap();
        let root = doc.root.unwrap();
        let tools = doc.get(root, "tools").unwrap();
        assert_eq!(slice(text, &doc, tools.key), "tools");
        assert_eq!(slice(text, &doc, tools.value), "web_search: beeuni:web_search  # c\n  empty:");
        let empty = doc.get(tools.value, "empty").unwrap();
        assert!(doc.is_null(empty.value));
        assert_eq!(doc.node(empty.value).span.start, text.find("empty:").unwrap() + 5);
        let agents = doc.get(root, "agents").unwrap();
        assert_eq!(slice(text, &doc, agents.value), "{a: [x, \"y\"]}");
        let list = doc.get(agents.value, "a").unwrap().value;
        assert_eq!(doc.items(list).unwrap().len(), 2);
        assert_eq!(doc.comments.len(), 1);
        assert_eq!(doc.comments[0].text, " c");
    }

    #[test]
    fn duplicates_both_places() {
        let text = "a: 1\nb: 2\n\"a\": 3\n";
        let doc = parse(text).unwrap();
        assert_eq!(doc.duplicate_keys.len(), 1);
        let dup = doc.duplicate_keys[0];
        assert_eq!(doc.node(dup.first).span.start, 0);
        assert_eq!(doc.node(dup.repeat).span.start, 10);
    }

    #[test]
    fn duplicates_in_small_and_large_mappings_alike() {
        for size in [3, SMALL_MAPPING, SMALL_MAPPING + 1, 40] {
            let mut text: String = (0..size).map(|i| format!("k{i}: {i}\n")).collect();
            text.push_str("k1: again\n~: a\nnull: b\n1: c\n\"1\": d\n1: e\nk1: third\n");
            let doc = parse(&text).unwrap();
            let pairs: Vec<(&str, &str)> = doc
                .duplicate_keys
                .iter()
                .map(|d| (slice(&text, &doc, d.first), slice(&text, &doc, d.repeat)))
                .collect();
            assert_eq!(pairs, [("k1", "k1"), ("~", "null"), ("1", "1"), ("k1", "k1")], "{size} entries");
            let first_k1 = text.find("k1:").unwrap();
            let k1 = doc.duplicate_keys.iter().filter(|d| slice(&text, &doc, d.first) == "k1");
            assert!(k1.into_iter().all(|d| doc.node(d.first).span.start == first_k1));
        }
        // Pair by pair: a mapping of a few entries.
        let text = "a: {x: 1, ~: 2, null: 3, x: 4, \"x\": 5}\n";
        let doc = parse(text).unwrap();
        let repeats: Vec<usize> = doc.duplicate_keys.iter().map(|d| doc.node(d.repeat).span.start).collect();
        assert_eq!(repeats, [text.find("null").unwrap(), text.find("x: 4").unwrap(), text.find("\"x\"").unwrap()]);
    }

    #[test]
    fn second_document_is_an_error_at_its_marker() {
        let err = parse("a: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(err.offset, 5);
    }

    #[test]
    fn merge_keys_and_aliases() {
        let doc = parse("base: &b {tools: none, x: 1}\nagent:\n  <<: *b\n  x: 2\n").unwrap();
        let agent = doc.get(doc.root.unwrap(), "agent").unwrap().value;
        assert_eq!(doc.scalar(doc.get(agent, "tools").unwrap().value), Some("none"));
        assert_eq!(doc.scalar(doc.get(agent, "x").unwrap().value), Some("2"));
    }

    #[test]
    fn hostile_inputs_do_not_overflow() {
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).is_err());
        let deep_block: String = (0..300).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        assert!(parse(&deep_block).is_err() || parse(&deep_block).is_ok());
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for i in 0..30 {
            bomb.push_str(&format!(
                "b{i}: &b{i} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n",
                p = if i == 0 { "a".to_string() } else { format!("b{}", i - 1) }
            ));
        }
        let doc = parse(&bomb).unwrap();
        assert!(doc.nodes.len() < 500);
        assert!(parse("a: &x [*x]\n").is_err());
        assert!(parse("").unwrap().root.is_none());
        assert!(parse("# only a comment\n").unwrap().root.is_none());
        assert!(parse("---\n").unwrap().root.is_none());
        assert!(parse("---").unwrap().root.is_none());
        assert!(parse("--- # c\n").unwrap().root.is_none());
    }

    #[test]
    fn continuation_lines_must_be_indented_more_than_their_block() {
        // yaml-test-suite 9C9N: a flow sequence whose later lines are not indented.
        let err = parse("---\nflow: [a,\nb,\nc]\n").unwrap_err();
        assert_eq!(err.offset, "---\nflow: [a,\n".len());
        // QB6E: a quoted scalar likewise.
        let err = parse("---\nquoted: \"a\nb\nc\"\n").unwrap_err();
        assert_eq!(err.offset, "---\nquoted: \"a\n".len());
        // DK95 case 01: a tab is not indentation.
        let err = parse("foo: \"bar\n\tbaz\"\n").unwrap_err();
        assert_eq!(err.offset, "foo: \"bar\n\t".len());
        assert!(err.message.contains("tab"), "{}", err.message);
        // Nested: the agent's `tools:` is at column 4.
        let text = "agents:\n  a:\n    tools: [read,\n    grep]\n";
        assert_eq!(parse(text).unwrap_err().offset, text.find("    grep").unwrap() + 4);
        // Indented more, blank lines and comment lines in flow: fine; a flow collection at the root: any indentation.
        for ok in [
            "flow: [a,\n b,\n c]\n",
            "agents:\n  a:\n    tools: [read,\n     grep]\n",
            "quoted: \"a\n\n b\"\n",
            "flow: [a, # one\n# two\n  b]\n",
            "[a,\nb]\n",
            "- [a,\n  b]\n",
            "q: \"a\r b\"\r",
        ] {
            assert!(parse(ok).is_ok(), "{ok:?}: {:?}", parse(ok).err());
        }
        assert!(parse("- \"a\nb\"\n").is_err());
    }
}
