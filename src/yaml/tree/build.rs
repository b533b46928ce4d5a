//! Building the tree from granit-parser's events, iteratively: an explicit stack of open collections, no
//! recursion.

use super::indentation::{check_continuation, column};
use super::{Comment, Document, Entry, Node, NodeId, Style, SyntaxError, Value, find_duplicates};
use crate::source::Span;
use crate::yaml::scalar::{ScalarKind, plain_kind, tagged_kind};
use granit_parser::{ErrorKind, Event, Options, Parser, ScalarStyle, StructureStyle};
use rustc_hash::FxHashMap;

/// Collections inside one another that a file may hold, block and flow alike (granit-parser's own default, stated
/// here so that the documented limit cannot drift): a manifest is a few levels deep, and deeper is a located
/// `yaml-syntax` saying so.
pub const MAX_DEPTH: usize = 255;

/// A collection whose end event has not come yet: where it starts, where its children so far start in the list
/// of the open collections' children (a mapping's key waits for its value), whether it is a flow collection, and
/// its anchor.
enum Frame {
    Seq { start: usize, from: usize, flow: bool, anchor: usize },
    Map { start: usize, from: usize, key: Option<NodeId>, flow: bool, anchor: usize },
}

/// Parses one YAML document. `text` must already be valid UTF-8 (it is a `&str`).
pub fn parse(text: &str) -> Result<Document, SyntaxError> {
    parse_with(text, |_, _| {})
}

/// [`parse`], calling `top_entry` with the document so far as each entry of a top-level mapping is complete (its
/// key and value nodes are in the document; the document's root is not set yet).
pub fn parse_with(text: &str, top_entry: impl FnMut(&Document, Entry)) -> Result<Document, SyntaxError> {
    build_document(text, true, top_entry)
}

/// [`parse_with`]; without `whole`, `text` is a part of a file ([`crate::yaml::split`]) and its top-level mapping is
/// not searched for repeated keys (the whole file's is, once the parts are joined).
pub(in crate::yaml) fn build_document(
    text: &str,
    whole: bool,
    mut top_entry: impl FnMut(&Document, Entry),
) -> Result<Document, SyntaxError> {
    let mut options = Options::default();
    (options.flow_nesting_limit, options.block_nesting_limit) = (MAX_DEPTH, MAX_DEPTH);
    let parser = Parser::new_from_str_with_options(text, options);
    let mut doc = Document::default();
    let mut stack: Vec<Frame> = Vec::new();
    // The children of every open sequence and the entries of every open mapping, an inner collection's after its
    // outer's: a collection's list is made once, at its end, in a block of its size. A list of its own, grown as
    // the children came and then shrunk, cost each collection two to four reallocations and copies.
    let (mut items, mut entries): (Vec<NodeId>, Vec<Entry>) = (Vec::new(), Vec::new());
    let mut anchors: FxHashMap<usize, NodeId> = FxHashMap::default();
    let mut documents = 0usize;
    for event in parser {
        let (event, span) = event.map_err(|e| SyntaxError {
            offset: e.marker().byte_offset().unwrap_or(0).min(text.len()),
            message: match e.kind() {
                ErrorKind::RecursionLimitExceeded => format!(
                    "this collection is nested more than {MAX_DEPTH} levels deep (block or flow collections inside one another), deeper than beeuni-lint reads: nothing in this file was checked"
                ),
                _ => e.info(),
            },
        })?;
        let range = span.byte_range().unwrap_or(0..0);
        let span = Span::new(range.start.min(text.len()), range.end.min(text.len()));
        let node = match event {
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return Err(SyntaxError {
                        offset: span.start(),
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
                let (style, span) = match style {
                    ScalarStyle::Plain => (Style::Plain, span),
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => (Style::Quoted, span),
                    _ => (Style::Block, block_content(text, span)),
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
                        offset: span.start(),
                        message: "this alias refers to a node that contains it, or to no anchor".into(),
                    });
                };
                let target = doc.resolve(target);
                push(&mut doc, Value::Alias(target), span, false)
            }
            Event::SequenceStart(style, anchor, _) => {
                let flow = style == StructureStyle::Flow;
                stack.push(Frame::Seq { start: span.start(), from: items.len(), flow, anchor });
                continue;
            }
            Event::MappingStart(style, anchor, _) => {
                let flow = style == StructureStyle::Flow;
                stack.push(Frame::Map { start: span.start(), from: entries.len(), key: None, flow, anchor });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = stack.pop() else { continue };
                let (value, start, flow, anchor) = match frame {
                    Frame::Seq { start, from, flow, anchor } => {
                        (Value::Seq(take_from(&mut items, from)), start, flow, anchor)
                    }
                    Frame::Map { start, from, flow, anchor, .. } => {
                        let entries = take_from(&mut entries, from);
                        if whole || !stack.is_empty() {
                            find_duplicates(&mut doc, &entries);
                        }
                        (Value::Map(entries), start, flow, anchor)
                    }
                };
                let end = if flow { span.end() } else { block_end(&doc, &value, start, text) };
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
            Some(Frame::Seq { .. }) => items.push(node),
            Some(Frame::Map { key, .. }) => match key.take() {
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

/// The last of `list` from `from` on, in a list of their number (`split_off` may hand over the whole block, room and
/// all, when `from` is 0).
fn take_from<T: Copy>(list: &mut Vec<T>, from: usize) -> Vec<T> {
    let taken = list[from..].to_vec();
    list.truncate(from);
    taken
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

pub(in crate::yaml) fn push(doc: &mut Document, value: Value, span: Span, flow: bool) -> NodeId {
    doc.nodes.push(Node { value, span, flow });
    doc.nodes.len() - 1
}

/// Where a block collection that starts at `start` ends: after its last child, or at `start` when it has none.
/// Clamped: an empty last value at the end of the text would end one past it.
pub(in crate::yaml) fn block_end(doc: &Document, value: &Value, start: usize, text: &str) -> usize {
    last_child_end(doc, value).map_or(start, |end| end.min(text.len()))
}

fn last_child_end(doc: &Document, value: &Value) -> Option<usize> {
    let last = match value {
        Value::Seq(items) => *items.last()?,
        Value::Map(entries) => entries.last()?.value,
        _ => return None,
    };
    let node = &doc.nodes[last];
    // An empty value sits on its `:`; the entry still ends after the colon.
    Some(if node.span.start() == node.span.end() { node.span.end() + 1 } else { node.span.end() })
}

/// A block scalar's span as its content: the parser's span runs on past the last content line, over its line break
/// and the next line's indentation, to where the next token starts. An edit of that span (a fix, an eject, a
/// restore that sets the value) would join the next entry to the value's line and lose it, and a finding would end
/// on the next line.
fn block_content(text: &str, span: Span) -> Span {
    let content = text.get(span.range()).unwrap_or_default();
    Span::new(span.start(), span.start() + content.trim_end_matches([' ', '\t', '\r', '\n']).len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::tree::tests::slice;

    /// Found by the `manifest` fuzz target: an empty last item at the very end of the text made its collections
    /// end one byte past it (and the fix of `no-beeuni-tools` slice out of bounds).
    #[test]
    fn an_empty_value_at_the_end_of_the_text_ends_within_it() {
        for text in ["tools:\n  web_searcimports:\n  - a.yaml\n  - ", "tools:\n  x:", "a:\n  - b:"] {
            let doc = parse(text).unwrap();
            assert!(doc.nodes.iter().all(|node| node.span.end() <= text.len()), "{text:?}: {doc:?}");
        }
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
        assert_eq!(doc.node(empty.value).span.start(), text.find("empty:").unwrap() + 5);
        let agents = doc.get(root, "agents").unwrap();
        assert_eq!(slice(text, &doc, agents.value), "{a: [x, \"y\"]}");
        let list = doc.get(agents.value, "a").unwrap().value;
        assert_eq!(doc.items(list).unwrap().len(), 2);
        assert_eq!(doc.comments.len(), 1);
        assert_eq!(doc.comments[0].text, " c");
    }

    #[test]
    fn second_document_is_an_error_at_its_marker() {
        let err = parse("a: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(err.offset, 5);
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
}
