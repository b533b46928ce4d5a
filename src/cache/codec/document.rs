//! A manifest file's [`Document`] as a cache entry ([`super`] has the form). A node is one byte (what it is, and
//! for a scalar its type and style), its span and what it holds.
//!
//! The tree is checked as it is read, so that code that walks it may rely on what the parser guarantees: a node
//! refers only to nodes before it (its children and an alias's target are complete before it), so every index
//! is in bounds and the tree has no cycle, and an alias names a node that is not itself an alias.

use super::{BYTE, Codec, NUMBER, Reader, SPAN, STR, Writer};
use crate::yaml::scalar::ScalarKind;
use crate::yaml::tree::{Comment, Document, DuplicateKey, Entry, Node, NodeId, Style, Value};

// The node byte (the numbers of KINDS and STYLES are their positions): bits 0-1 what the node is, bit 2 flow; for a scalar, bits 3-5 its type and bits 6-7 its style.
const SCALAR: u8 = 0;
const SEQ: u8 = 1;
const MAP: u8 = 2;
const ALIAS: u8 = 3;
const FLOW: u8 = 4;

const KINDS: [ScalarKind; 5] =
    [ScalarKind::Null, ScalarKind::Bool, ScalarKind::Int, ScalarKind::Float, ScalarKind::Str];
const STYLES: [Style; 3] = [Style::Plain, Style::Quoted, Style::Block];

impl Codec for Document {
    fn write(&self, w: &mut Writer) {
        w.list(&self.nodes, node);
        // The root as one past its index: 0 for none.
        w.number(self.root.map_or(0, |root| root + 1));
        w.list(&self.comments, |w, comment| {
            w.span(comment.span);
            w.str(&comment.text);
        });
        w.list(&self.duplicate_keys, |w, duplicate| {
            w.number(duplicate.first);
            w.number(duplicate.repeat);
        });
    }

    fn decode(bytes: &[u8], text_len: usize) -> Option<Self> {
        let mut r = Reader::new(bytes, text_len)?;
        // A node is its tag byte, its span and at least one number (a string's length, a count, an alias's target).
        let count = r.count(BYTE + SPAN + NUMBER)?;
        let mut nodes: Vec<Node> = Vec::with_capacity(count);
        for _ in 0..count {
            let node = read_node(&mut r, &nodes)?;
            nodes.push(node);
        }
        let root = match r.number()? {
            0 => None,
            n if n <= count => Some(n - 1),
            _ => return None,
        };
        let comments = r.list(SPAN + STR, |r| Some(Comment { span: r.span()?, text: r.str()?.into() }))?;
        let index = |r: &mut Reader| r.number().filter(|&id| id < count);
        let duplicate_keys = r.list(2 * NUMBER, |r| Some(DuplicateKey { first: index(r)?, repeat: index(r)? }))?;
        r.end(Document { nodes, root, comments, duplicate_keys })
    }
}

fn node(w: &mut Writer, node: &Node) {
    let flow = if node.flow { FLOW } else { 0 };
    match &node.value {
        Value::Scalar { text, kind, style } => {
            // By name, not by position in KINDS and STYLES: a type or style added later must be given a number.
            let kind = match kind {
                ScalarKind::Null => 0,
                ScalarKind::Bool => 1,
                ScalarKind::Int => 2,
                ScalarKind::Float => 3,
                ScalarKind::Str => 4,
            };
            let style = match style {
                Style::Plain => 0,
                Style::Quoted => 1,
                Style::Block => 2,
            };
            w.byte(SCALAR | flow | kind << 3 | style << 6);
            w.span(node.span);
            w.str(text);
        }
        Value::Seq(items) => {
            w.byte(SEQ | flow);
            w.span(node.span);
            w.list(items, |w, &item| w.number(item));
        }
        Value::Map(entries) => {
            w.byte(MAP | flow);
            w.span(node.span);
            w.list(entries, |w, entry| {
                w.number(entry.key);
                w.number(entry.value);
            });
        }
        Value::Alias(target) => {
            w.byte(ALIAS | flow);
            w.span(node.span);
            w.number(*target);
        }
    }
}

/// The node after `nodes`: it may refer to those alone.
#[inline(always)]
fn read_node(r: &mut Reader, nodes: &[Node]) -> Option<Node> {
    let byte = r.byte()?;
    let span = r.span()?;
    let before = |r: &mut Reader| r.number().filter(|&id: &NodeId| id < nodes.len());
    let value = match byte & 3 {
        SCALAR => {
            let kind = *KINDS.get(usize::from(byte >> 3 & 7))?;
            let style = *STYLES.get(usize::from(byte >> 6))?;
            Value::Scalar { text: r.str()?.into(), kind, style }
        }
        SEQ if byte >> 3 == 0 => Value::Seq(r.list(NUMBER, before)?),
        MAP if byte >> 3 == 0 => {
            Value::Map(r.list(2 * NUMBER, |r| Some(Entry { key: before(r)?, value: before(r)? }))?)
        }
        ALIAS if byte >> 3 == 0 => {
            let target = before(r)?;
            if matches!(nodes.get(target)?.value, Value::Alias(_)) {
                return None;
            }
            Value::Alias(target)
        }
        _ => return None,
    };
    Some(Node { value, span, flow: byte & FLOW != 0 })
}
