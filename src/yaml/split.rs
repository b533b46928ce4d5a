//! A long manifest parsed in parts at once: the root `beeuni.yaml` of a large project (its tools and hundreds of
//! agents, 50 KB for 2,000 tools) is the one file nothing else can start without, and the YAML parser reads it
//! at a few MB/s on the thread everything waits for. The text is cut at plain keys that start a line: top-level
//! keys at column 0, and the entries of a top-level key's block mapping (`agents:`) at their indentation; the parts
//! are parsed on the analysis threads and this one, and their trees joined into the tree the whole text parses to.
//! Where a part does not parse on its own (a quoted scalar or a flow collection across a cut, an alias of an anchor
//! in another part) or does not fit where it was cut, the whole text is parsed instead, so that every finding and
//! every error is the one a parse of the whole text gives (debug builds compare the two).

use super::tree::{
    Document, Entry, NodeId, SyntaxError, Value, block_end, build_document, column, find_duplicates, push,
};
use crate::source::Span;

/// Shorter texts are parsed in one piece: a part costs a job on another thread and a join.
pub const MIN_SPLIT: usize = 16 * 1024;

/// Where a part starts, and the indentation of its first key: 0 for a top-level key, more for an entry that
/// continues the mapping of the top-level key before it.
type Cut = (usize, usize);

/// [`super::parse_with`], in parts on the threads of `pool` (asked for only when `text` is long enough) and this
/// one, unless this thread is one of a pool's. `top_entry` is called for each top-level entry in order, once, with a
/// document that holds at least that entry's nodes.
pub fn parse_split<'p>(
    text: &str,
    top_entry: impl FnMut(&Document, Entry),
    pool: impl FnOnce() -> Option<&'p rayon::ThreadPool>,
) -> Result<Document, SyntaxError> {
    let long = text.len() >= MIN_SPLIT && rayon::current_thread_index().is_none();
    match long.then(pool).flatten() {
        Some(pool) => in_parts(text, &cuts(text, pool.current_num_threads() + 1), pool, top_entry),
        None => build_document(text, true, top_entry),
    }
}

/// The parse of `text` in the parts `cuts` start (the first here, the others on `pool`), or whole.
fn in_parts(
    text: &str,
    cuts: &[Cut],
    pool: &rayon::ThreadPool,
    mut top_entry: impl FnMut(&Document, Entry),
) -> Result<Document, SyntaxError> {
    if cuts.len() < 2 {
        return build_document(text, true, top_entry);
    }
    let ends = cuts.iter().skip(1).map(|&(at, _)| at).chain([text.len()]);
    let parts: Vec<(Cut, usize)> = cuts.iter().copied().zip(ends).collect();
    let mut rest: Vec<Option<Document>> = parts[1..].iter().map(|_| None).collect();
    // Each top-level entry is told of once the next one is parsed (the last may go on in the next part).
    let (mut told, mut pending) = (0, None);
    let first = pool.in_place_scope(|scope| {
        for (slot, &((start, indent), end)) in rest.iter_mut().zip(&parts[1..]) {
            scope.spawn(move |_| *slot = parse_part(&text[start..end], start, indent));
        }
        build_document(&text[..parts[0].1], false, |doc, entry| {
            if let Some(done) = pending.replace(entry) {
                told += 1;
                top_entry(doc, done);
            }
        })
    });
    let rest: Option<Vec<Document>> = rest.into_iter().collect();
    let mut tell = |doc: &Document, entry: Entry| {
        told += 1;
        top_entry(doc, entry);
    };
    let joined = first.ok().zip(rest).and_then(|(first, rest)| {
        let mut join = Join::new(text, first, pending)?;
        for (part, ((_, indent), _)) in rest.into_iter().zip(&parts[1..]) {
            join.add(part, *indent, &mut tell)?;
        }
        Some(join.finish(&mut tell))
    });
    match joined {
        Some(doc) => {
            let whole = || super::parse(text).map(|whole| format!("{whole:?}"));
            debug_assert_eq!(Ok(format!("{doc:?}")), whole(), "parsed in parts: {text:?}");
            #[cfg(test)]
            JOINED.with(|joined| joined.set(joined.get() + 1));
            Ok(doc)
        }
        // The entries told of are the whole text's first ones: each is told once.
        None => build_document(text, true, |doc, entry| match told {
            0 => top_entry(doc, entry),
            _ => told -= 1,
        }),
    }
}

#[cfg(test)]
thread_local! {
    /// How many texts this thread parsed in parts and joined.
    static JOINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Where to cut `text` into about `parts` parts of equal length: each part starts at a line with a plain key, at
/// column 0 or at the indentation of the entries of the block mapping of the top-level key before it. After a cut
/// of the second kind, every top-level key is a cut too (a part holds entries of one mapping). Empty (no cut) when
/// a line starts or ends a document or holds a directive, or a part would hold anything else at column 0.
fn cuts(text: &str, parts: usize) -> Vec<Cut> {
    let bytes = text.as_bytes();
    let mut cuts = vec![(0, 0)];
    // The indentation of the entries of the last top-level key's block mapping, once its first line is seen.
    let (mut entries_at, mut first_line_next) = (None, false);
    let mut line = 0;
    loop {
        let rest = &bytes[line..];
        if rest.starts_with(b"...") || rest.starts_with(b"%") || (line > 0 && rest.starts_with(b"---")) {
            return Vec::new();
        }
        let indent = rest.iter().take_while(|&&b| b == b' ').count();
        let content = &rest[indent..];
        let due = cuts.len() < parts && line >= cuts.len() * text.len() / parts;
        let nested = cuts.last().is_some_and(|&(_, indent)| indent > 0);
        if !matches!(content.first(), None | Some(b'\n' | b'\r' | b'#')) {
            if indent == 0 {
                let key = is_key_line(content);
                if nested && !key {
                    return Vec::new();
                }
                if line > 0 && key && (nested || due) {
                    cuts.push((line, 0));
                }
                let content = content.split(|&b| b == b'\n').next().unwrap_or_default();
                (entries_at, first_line_next) = (None, key && ends_in_comment(content));
            } else if std::mem::take(&mut first_line_next) {
                // The mapping's first entry: no cut there (the part before must hold the mapping, with an entry).
                entries_at = is_key_line(content).then_some(indent);
            } else if due && entries_at == Some(indent) && is_key_line(content) {
                cuts.push((line, indent));
            }
        }
        // `str::find` of a character searches with memchr: the scan is a small part of the first part's parse.
        match text[line..].find('\n') {
            Some(at) => line += at + 1,
            None => break,
        }
    }
    cuts
}

/// A line `key:` with nothing after the colon but spaces or a comment (the line without its `\n`).
fn ends_in_comment(line: &[u8]) -> bool {
    let after = line.iter().position(|&b| b == b':').map_or(&[][..], |colon| &line[colon + 1..]);
    let after = after.trim_ascii_start();
    after.is_empty() || after.starts_with(b"#")
}

/// A line that starts with a plain key (letters, digits, `_-./`) and its `:`, like `agents:` or `tool_1: x`.
fn is_key_line(line: &[u8]) -> bool {
    let key = line.iter().take_while(|&&b| b.is_ascii_alphanumeric() || b"_-./".contains(&b)).count();
    let first_ok = line.first().is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
    first_ok && line.get(key) == Some(&b':') && matches!(line.get(key + 1), None | Some(b' ' | b'\n' | b'\r'))
}

/// A part after the first, parsed on its own with its spans moved to where it starts in the whole text. `None`
/// unless its top-level mapping starts at its first key (`indent` spaces into it).
fn parse_part(part: &str, start: usize, indent: usize) -> Option<Document> {
    let mut doc = build_document(part, false, |_, _| {}).ok()?;
    if doc.root.is_none_or(|root| doc.nodes[root].span.start() != indent) {
        return None;
    }
    let moved = |span: &mut Span| *span = Span::new(span.start() + start, span.end() + start);
    doc.nodes.iter_mut().for_each(|node| moved(&mut node.span));
    doc.comments.iter_mut().for_each(|comment| moved(&mut comment.span));
    Some(doc)
}

/// The entries of a part's top-level mapping (and where it starts), taken off its nodes: `None` unless it is a block
/// mapping that closes last and, for the first part, starts at the start of a line (as the other parts do).
fn top_entries(doc: &mut Document, text: &str, first: bool) -> Option<(usize, Vec<Entry>)> {
    let root = doc.root.take()?;
    let node = doc.nodes.pop_if(|node| !node.flow && matches!(node.value, Value::Map(_)))?;
    let at = node.span.start();
    let at_line_start = !first || at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n');
    match node.value {
        Value::Map(entries) if root == doc.nodes.len() && at_line_start && !entries.is_empty() => Some((at, entries)),
        _ => None,
    }
}

/// A block mapping of the last top-level entry, left open while the parts after a cut in it add entries.
struct Open {
    start: usize,
    entries: Vec<Entry>,
}

/// The parts' trees, joined in order into the tree of the whole text.
struct Join<'t> {
    text: &'t str,
    doc: Document,
    start: usize,
    entries: Vec<Entry>,
    /// The last top-level entry, not told of yet: its value may go on in the next part.
    pending: Option<Entry>,
    open: Option<Open>,
}

impl<'t> Join<'t> {
    fn new(text: &'t str, mut doc: Document, pending: Option<Entry>) -> Option<Self> {
        let (start, entries) = top_entries(&mut doc, text, true)?;
        let same = |entry: Option<&Entry>| entry.map(|entry| (entry.key, entry.value));
        (same(pending.as_ref()) == same(entries.last())).then_some(Join {
            text,
            doc,
            start,
            entries,
            pending,
            open: None,
        })
    }

    /// Adds the next part: a top-level one (`indent` 0), or entries of the last top-level entry's mapping.
    fn add(&mut self, mut part: Document, indent: usize, tell: &mut impl FnMut(&Document, Entry)) -> Option<()> {
        if indent == 0 {
            self.close(tell);
        } else if self.open.is_none() {
            self.open = Some(self.open_last(indent)?);
        }
        let (_, part_entries) = top_entries(&mut part, self.text, false)?;
        let base = self.doc.nodes.len();
        let moved = |id: NodeId| id + base;
        for mut node in part.nodes {
            match &mut node.value {
                Value::Seq(items) => items.iter_mut().for_each(|item| *item = moved(*item)),
                Value::Map(map) => map.iter_mut().for_each(|entry| *entry = moved_entry(*entry, base)),
                Value::Alias(target) => *target = moved(*target),
                Value::Scalar { .. } => {}
            }
            self.doc.nodes.push(node);
        }
        self.doc.comments.extend(part.comments);
        self.doc.duplicate_keys.extend(part.duplicate_keys.into_iter().map(|mut duplicate| {
            (duplicate.first, duplicate.repeat) = (moved(duplicate.first), moved(duplicate.repeat));
            duplicate
        }));
        let part_entries = part_entries.into_iter().map(|entry| moved_entry(entry, base));
        match &mut self.open {
            Some(open) if indent > 0 => open.entries.extend(part_entries),
            _ => {
                for entry in part_entries {
                    self.entries.push(entry);
                    if let Some(done) = self.pending.replace(entry) {
                        tell(&self.doc, done);
                    }
                }
            }
        }
        Some(())
    }

    /// Takes the mapping of the last top-level entry off the nodes, to add the next parts' entries to it: `None`
    /// unless it is a block mapping, the last node, with its entries at column `indent`.
    fn open_last(&mut self, indent: usize) -> Option<Open> {
        let last = self.entries.last()?;
        let node = self.doc.nodes.last().filter(|_| last.value + 1 == self.doc.nodes.len())?;
        let Value::Map(entries) = &node.value else { return None };
        if node.flow || column(self.text, node.span.start()) != indent || entries.is_empty() {
            return None;
        }
        let node = self.doc.nodes.pop()?;
        let Value::Map(entries) = node.value else { return None };
        // Its repeated keys were found as its part closed it: they are the last found, and are found again at the end.
        let keys: Vec<NodeId> = entries.iter().map(|entry| entry.key).collect();
        while self.doc.duplicate_keys.last().is_some_and(|duplicate| keys.contains(&duplicate.first)) {
            self.doc.duplicate_keys.pop();
        }
        Some(Open { start: node.span.start(), entries })
    }

    /// Closes the open mapping, if any, as the whole text closes it (its repeated keys, its span), and tells of the
    /// last top-level entry.
    fn close(&mut self, tell: &mut impl FnMut(&Document, Entry)) {
        if let Some(Open { start, entries }) = self.open.take() {
            let id = close_mapping(&mut self.doc, self.text, start, entries);
            if let Some(last) = self.entries.last_mut() {
                last.value = id;
                self.pending = Some(*last);
            }
        }
        if let Some(done) = self.pending.take() {
            tell(&self.doc, done);
        }
    }

    fn finish(mut self, tell: &mut impl FnMut(&Document, Entry)) -> Document {
        self.close(tell);
        let root = close_mapping(&mut self.doc, self.text, self.start, self.entries);
        self.doc.root = Some(root);
        self.doc.nodes.shrink_to_fit();
        self.doc
    }
}

/// A block mapping's node, pushed as [`build_document`] pushes it when the mapping ends: its repeated keys, its span.
fn close_mapping(doc: &mut Document, text: &str, start: usize, mut entries: Vec<Entry>) -> NodeId {
    find_duplicates(doc, &entries);
    entries.shrink_to_fit();
    let value = Value::Map(entries);
    let end = block_end(doc, &value, start, text);
    push(doc, value, Span::new(start, end), false)
}

fn moved_entry(entry: Entry, base: usize) -> Entry {
    Entry { key: entry.key + base, value: entry.value + base }
}

#[cfg(test)]
mod tests;
