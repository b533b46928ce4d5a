//! Edits of a YAML file computed from the parser's spans: each keeps every byte it does not need to change
//! (comments, blank lines, quoting, line endings, a BOM) and the style of the collection it touches (a flow
//! collection stays flow; a line added to a block mapping takes its siblings' indentation).
//! `None` means the text is laid out in a way the edit cannot handle without touching more: no fix then.

use crate::diagnostic::Edit;
use crate::source::{FileId, Span};
use crate::yaml::{Document, NodeId, Value, block_item_start};

/// The file's line break: CRLF when its first line ends so, else LF.
pub fn line_break(text: &str) -> &'static str {
    match text.find('\n') {
        Some(at) if at > 0 && text.as_bytes()[at - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// `new` in the quotes `original` is written in (`'bash'` stays single-quoted), when they can hold it.
pub fn requote(original: &str, new: &str) -> String {
    match original.chars().next() {
        Some('\'') if !new.contains('\'') => format!("'{new}'"),
        Some('"') if !new.contains(['"', '\\']) => format!("\"{new}\""),
        _ => new.to_string(),
    }
}

/// The span an edit replaces to set a `name: value` entry's value on the key's line: the value itself, or for a
/// block scalar (`show: >-` with the value on the next lines) its header as well, so that the new plain value
/// stands on the key's line, where a trailing comment can follow it (after the content of a block scalar, a `#`
/// is part of the value). `None` when the header line holds something an edit would lose (a comment, a tag or an
/// anchor): such a value is not edited.
pub fn settable_value(text: &str, key_end: usize, value: Span) -> Option<Span> {
    let between = text.get(key_end..value.start())?;
    let Some(colon) = between.find(':') else { return Some(value) };
    let after_colon = &between[colon + 1..];
    let header = after_colon.trim_start_matches([' ', '\t']);
    if !header.starts_with(['|', '>']) {
        return Some(value);
    }
    // The header is the indicator (`|`, `>`, with `-`/`+` and an indentation digit), then the line break.
    let line = header.split(['\n', '\r']).next().unwrap_or_default();
    let indicator_only = line.trim_end_matches([' ', '\t']).chars().skip(1).all(|c| matches!(c, '-' | '+' | '1'..='9'));
    indicator_only.then(|| Span::new(value.start() - header.len(), value.end()))
}

/// The indentation before `at` when only spaces (after a BOM on line 1) stand between the line start and `at`.
fn indentation(text: &str, at: usize) -> Option<&str> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let before = before.strip_prefix('\u{feff}').unwrap_or(before);
    before.bytes().all(|b| b == b' ').then_some(before)
}

/// The end of the line holding `at`, before its line break.
fn line_end(text: &str, at: usize) -> usize {
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    if end > at && text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end }
}

/// The whole line holding `at`, with its line break.
fn whole_line(text: &str, at: usize) -> Span {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    Span::new(start, end)
}

/// Right after the `:` that follows a key.
fn after_colon(text: &str, key: Span) -> Option<usize> {
    let rest = &text[key.end()..];
    let colon = rest.find(':')?;
    rest[..colon].bytes().all(|b| b == b' ').then_some(key.end() + colon + 1)
}

/// Where a node ends (an empty value sits on its `:` and ends there).
fn end_of(doc: &Document, id: NodeId) -> usize {
    doc.node(id).span.end()
}

/// Adds `lines` (`name: value` each) to the mapping that is the value of `key` (or to its empty value).
pub fn add_entries(
    doc: &Document,
    text: &str,
    file: FileId,
    key: Span,
    value: NodeId,
    lines: &[String],
) -> Option<Edit> {
    let node = doc.node(value);
    let eol = line_break(text);
    let edit = |span: Span, content: String| Some(Edit { file, span, content });
    match &node.value {
        Value::Map(entries) if node.flow => match entries.last() {
            Some(last) if !doc.node(last.value).span.is_empty() => {
                edit(Span::empty(end_of(doc, last.value)), format!(", {}", lines.join(", ")))
            }
            Some(_) => None,
            None => edit(Span::empty(node.span.start() + 1), lines.join(", ")),
        },
        Value::Map(entries) => {
            let first = entries.first()?;
            let indent = indentation(text, doc.node(first.key).span.start())?;
            let last = entries.last()?;
            let end = doc.node(last.value).span.end().max(doc.node(last.key).span.end());
            // A block scalar's span runs over the line breaks after it: the new lines go after its last text.
            let end = text[..end].trim_end().len().max(doc.node(last.key).span.end());
            let at = line_end(text, end);
            edit(Span::empty(at), lines.iter().map(|l| format!("{eol}{indent}{l}")).collect())
        }
        Value::Scalar { .. } if doc.is_null(value) && node.span.is_empty() => {
            let indent = format!("{}  ", indentation(text, key.start())?);
            let at = line_end(text, key.end());
            edit(Span::empty(at), lines.iter().map(|l| format!("{eol}{indent}{l}")).collect())
        }
        Value::Scalar { .. } if doc.is_null(value) => edit(node.span, format!("{{{}}}", lines.join(", "))),
        _ => None,
    }
}

/// Deletes item `item` of the list `list` (the value of `key`). A block list that would be left with no item
/// becomes `[]`; a flow list loses the item and one comma.
pub fn remove_item(
    doc: &Document,
    text: &str,
    file: FileId,
    key: Span,
    list: NodeId,
    item: NodeId,
) -> Option<Vec<Edit>> {
    let node = doc.node(list);
    let Value::Seq(items) = &node.value else { return None };
    let spans: Vec<Span> = items.iter().map(|&i| doc.node(i).span).collect();
    let index = items.iter().position(|&i| i == item)?;
    if node.flow {
        return Some(vec![Edit { file, span: flow_removal(&spans, index), content: String::new() }]);
    }
    let dash = block_item_start(text, spans[index].start());
    indentation(text, dash)?;
    alone_on_line(text, spans[index].end())?;
    block_removal(text, file, key, whole_line(text, dash), items.len() == 1, "[]")
}

/// Deletes entry `index` of the map `map` (the value of `key`); a map left with no entry becomes `empty`.
pub fn remove_entry(
    doc: &Document,
    text: &str,
    file: FileId,
    key: Span,
    map: NodeId,
    index: usize,
    empty: &str,
) -> Option<Vec<Edit>> {
    let node = doc.node(map);
    let Value::Map(entries) = &node.value else { return None };
    let spans: Vec<Span> =
        entries.iter().map(|e| Span::new(doc.node(e.key).span.start(), end_of(doc, e.value))).collect();
    let span = *spans.get(index)?;
    if node.flow {
        if entries.len() == 1 {
            return Some(vec![Edit { file, span: node.span, content: empty.to_string() }]);
        }
        return Some(vec![Edit { file, span: flow_removal(&spans, index), content: String::new() }]);
    }
    indentation(text, span.start())?;
    alone_on_line(text, span.end())?;
    block_removal(text, file, key, whole_line(text, span.start()), entries.len() == 1, empty)
}

/// Nothing but a comment may follow `end` on its line.
fn alone_on_line(text: &str, end: usize) -> Option<()> {
    let rest = text[end..line_end(text, end)].trim_start_matches(' ');
    (rest.is_empty() || rest.starts_with('#')).then_some(())
}

/// The bytes to delete for item `index` of a flow collection: through the next item's start, or (the last
/// one) from the previous item's end.
fn flow_removal(spans: &[Span], index: usize) -> Span {
    match (spans.get(index + 1), index.checked_sub(1).map(|i| spans[i])) {
        (Some(next), _) => Span::new(spans[index].start(), next.start()),
        (None, Some(previous)) => Span::new(previous.end(), spans[index].end()),
        (None, None) => spans[index],
    }
}

fn block_removal(text: &str, file: FileId, key: Span, line: Span, last: bool, empty: &str) -> Option<Vec<Edit>> {
    let mut edits = Vec::new();
    if last {
        let at = after_colon(text, key)?;
        edits.push(Edit { file, span: Span::empty(at), content: format!(" {empty}") });
    }
    edits.push(Edit { file, span: line, content: String::new() });
    Some(edits)
}

/// `{bash: false, edit: false}` → `{exclude: [bash, edit]}`, and the block map likewise, one `- bash` a line:
/// each entry is replaced by its key as written, so comments between entries stay.
pub fn map_to_exclude(doc: &Document, text: &str, file: FileId, map: NodeId) -> Option<Vec<Edit>> {
    let node = doc.node(map);
    let Value::Map(entries) = &node.value else { return None };
    if entries.is_empty() || entries.iter().any(|e| doc.is_merge_key(e.key)) {
        return None;
    }
    let eol = line_break(text);
    let last = entries.len() - 1;
    let mut edits = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let key = doc.node(entry.key).span;
        let span = Span::new(key.start(), end_of(doc, entry.value));
        let name = &text[key.range()];
        let content = if node.flow {
            let open = if i == 0 { "exclude: [" } else { "" };
            let close = if i == last { "]" } else { "" };
            format!("{open}{name}{close}")
        } else {
            let indent = indentation(text, key.start())?;
            alone_on_line(text, span.end())?;
            if i == 0 { format!("exclude:{eol}{indent}- {name}") } else { format!("- {name}") }
        };
        edits.push(Edit { file, span, content });
    }
    Some(edits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::splice;
    use crate::yaml::parse;

    /// The text after applying the edits, which must still parse.
    fn apply(text: &str, edits: Vec<Edit>) -> String {
        let out = splice(text, &edits.iter().map(|e| (e.span, e.content.as_str())).collect::<Vec<_>>()).unwrap();
        parse(&out).unwrap_or_else(|e| panic!("{out:?} does not parse: {}", e.message));
        out
    }

    fn tools(text: &str) -> (Document, Span, NodeId) {
        let doc = parse(text).unwrap();
        let entry = doc.get(doc.root.unwrap(), "tools").unwrap();
        let key = doc.node(entry.key).span;
        (doc, key, entry.value)
    }

    #[test]
    fn adds_entries_in_the_style_of_the_mapping() {
        let lines = ["show: beeuni:show".to_string(), "memory: beeuni:memory".to_string()];
        let cases = [
            (
                "tools:\n    x: tools/x.ts  # c\nagents: {}\n",
                "tools:\n    x: tools/x.ts  # c\n    show: beeuni:show\n    memory: beeuni:memory\nagents: {}\n",
            ),
            (
                "tools:\r\n  x: tools/x.ts\r\n",
                "tools:\r\n  x: tools/x.ts\r\n  show: beeuni:show\r\n  memory: beeuni:memory\r\n",
            ),
            ("tools: {x: tools/x.ts}\n", "tools: {x: tools/x.ts, show: beeuni:show, memory: beeuni:memory}\n"),
            ("tools: {}\n", "tools: {show: beeuni:show, memory: beeuni:memory}\n"),
            (
                "tools:   # none yet\nagents: {}\n",
                "tools:   # none yet\n  show: beeuni:show\n  memory: beeuni:memory\nagents: {}\n",
            ),
            ("tools: ~\n", "tools: {show: beeuni:show, memory: beeuni:memory}\n"),
            (
                "tools:\n  x: |\n    text\n\nagents: {}\n",
                "tools:\n  x: |\n    text\n  show: beeuni:show\n  memory: beeuni:memory\n\nagents: {}\n",
            ),
            (
                "\u{feff}tools:\n  x: tools/x.ts",
                "\u{feff}tools:\n  x: tools/x.ts\n  show: beeuni:show\n  memory: beeuni:memory",
            ),
        ];
        for (before, after) in cases {
            let (doc, key, value) = tools(before);
            let edit = add_entries(&doc, before, 0, key, value, &lines).unwrap();
            assert_eq!(apply(before, vec![edit]), after, "{before:?}");
        }
    }

    #[test]
    fn removes_items_and_entries() {
        let cases = [
            ("tools:\n  exclude: [show, bash]\n", 0, "tools:\n  exclude: [bash]\n"),
            ("tools:\n  exclude: [bash, show]\n", 1, "tools:\n  exclude: [bash]\n"),
            ("tools:\n  exclude: [show]\n", 0, "tools:\n  exclude: []\n"),
            ("tools:\n  exclude:\n    - show  # gone\n    - bash\n", 0, "tools:\n  exclude:\n    - bash\n"),
            ("tools:\r\n  exclude: # c\r\n  - show\r\nx: 1\r\n", 0, "tools:\r\n  exclude: [] # c\r\nx: 1\r\n"),
        ];
        for (before, index, after) in cases {
            let doc = parse(before).unwrap();
            let tools = doc.get(doc.root.unwrap(), "tools").unwrap().value;
            let exclude = doc.get(tools, "exclude").unwrap();
            let item = doc.items(exclude.value).unwrap()[index];
            let key = doc.node(exclude.key).span;
            let edits = remove_item(&doc, before, 0, key, exclude.value, item).unwrap();
            assert_eq!(apply(before, edits), after, "{before:?}");
        }
        let cases = [
            ("tools: {show: false, bash: false}\n", 0, "tools: {bash: false}\n"),
            ("tools: {show: false}\n", 0, "tools: all\n"),
            ("tools:\n  bash: false\n  show: false\n", 1, "tools:\n  bash: false\n"),
            ("tools:\n  show: false\n", 0, "tools: all\n"),
        ];
        for (before, index, after) in cases {
            let (doc, key, value) = tools(before);
            let edits = remove_entry(&doc, before, 0, key, value, index, "all").unwrap();
            assert_eq!(apply(before, edits), after, "{before:?}");
        }
    }

    #[test]
    fn map_form_becomes_exclude_keeping_comments_and_quotes() {
        let cases = [
            ("tools: {bash: false, 'edit': false}\n", "tools: {exclude: [bash, 'edit']}\n"),
            ("tools: {bash: false}\n", "tools: {exclude: [bash]}\n"),
            (
                "tools:\n  bash: false   # no shell\n  # and\n  edit: false\n",
                "tools:\n  exclude:\n  - bash   # no shell\n  # and\n  - edit\n",
            ),
            ("tools:\r\n  bash: false\r\n", "tools:\r\n  exclude:\r\n  - bash\r\n"),
        ];
        for (before, after) in cases {
            let (doc, _, value) = tools(before);
            let edits = map_to_exclude(&doc, before, 0, value).unwrap();
            assert_eq!(apply(before, edits), after, "{before:?}");
        }
    }

    #[test]
    fn requotes() {
        assert_eq!(requote("'bsh'", "bash"), "'bash'");
        assert_eq!(requote("\"bsh\"", "bash"), "\"bash\"");
        assert_eq!(requote("bsh", "bash"), "bash");
    }
}
