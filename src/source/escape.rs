//! The one layer every output passes repository text through on its way out (a terminal, GitHub's log and step
//! summary, an editor): the text is a stranger's, and none of its characters may act on what shows it.
//!
//! A character is acted on when it is a control character (C0 but for the line breaks a caller keeps, DEL, C1:
//! ESC starts terminal sequences, CR and LF start a new log line that GitHub reads as a workflow command) or
//! a bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: they reorder what is
//! shown), or U+2028/U+2029 (line breaks to some editors).
//!
//! The notation, in every text output: `\n`, `\r` and `\t`, and `\u{…}` with the code point in lowercase hex
//! for any other (ESC is `\u{1b}`, U+202E is `\u{202e}`). A backslash of the text itself is left as it is: the
//! escapes are for showing, not for reading back. JSON and SARIF keep their data: there such a character is
//! JSON's own `\uXXXX` ([`json`]). A leaf module: it imports nothing of the crate.

use std::borrow::Cow;

/// Would a terminal, GitHub's log or an editor act on `c` (see the module)?
pub fn acts(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// One value (a name, a path, a quoted value, a message): every character that [`acts`], line breaks included,
/// as its visible escape, so that the value stays on its line. Borrowed when there is nothing to escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_but(text, |_| false)
}

/// A text whose line breaks are its own (a report, a table, an error over several lines): as [`escape`], but
/// `\n` kept. A line break inside a value is the value's, not the text's: escape the value with [`escape`]
/// before it is put in (or use [`prefixed_lines`], which no line break can turn into a workflow command).
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    escape_but(text, |c| c == '\n')
}

fn escape_but(text: &str, kept: impl Fn(char) -> bool) -> Cow<'_, str> {
    // Printable ASCII, the common case, by bytes.
    if text.bytes().all(|b| matches!(b, b' '..=b'~')) || !text.chars().any(|c| acts(c) && !kept(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !acts(c) || kept(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// Every line of `text` escaped ([`escape`]) and after `prefix` (`beeuni-lint: `), one a line: a message whose
/// lines are its own but whose values may hold a line break of their own (an error naming repository paths).
/// No line then starts with what the text holds, so none can be a workflow command (`::add-mask::…`).
pub fn prefixed_lines(prefix: &str, text: &str) -> String {
    text.split('\n').map(|line| format!("{prefix}{}\n", escape(line))).collect()
}

/// A file's text for a snippet (miette's), where byte offsets must hold: every character that [`acts`] becomes
/// `?`s of its byte length, but the line breaks, the tab (miette expands it) and a CR before a LF (miette drops
/// it); a lone CR, a line break to the line table, becomes a LF, so lines stay where they were. `None` when
/// there is nothing to replace.
pub fn same_length(text: &str) -> Option<String> {
    let plain = |b: &u8| matches!(b, b' '..=b'~' | b'\n' | b'\t');
    if text.as_bytes().iter().all(plain) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' if chars.peek() == Some(&'\n') => out.push(c),
            '\r' => {
                out.push('\n');
                changed = true;
            }
            c if acts(c) => {
                out.extend(std::iter::repeat_n('?', c.len_utf8()));
                changed = true;
            }
            c => out.push(c),
        }
    }
    changed.then_some(out)
}

/// A JSON document as serde writes it, with the characters that act and that serde leaves raw (DEL, C1, the
/// bidirectional controls, U+2028/U+2029; it escapes the C0 ones) as JSON's own `\uXXXX`: the data read back is
/// the same, and nothing raw reaches a terminal that shows the document. Outside strings a JSON document holds
/// only ASCII, so its own line breaks are the only `\n` left raw.
pub fn json(text: String) -> String {
    // By bytes first: every character that acts is a C0 control, DEL or not ASCII, and a document of printable
    // ASCII (the common case) is looked at without decoding a character (a tenth of `agents --json`'s cost).
    let plain = |b: &u8| (b' '..0x7f).contains(b) || *b == b'\n';
    if text.as_bytes().iter().all(plain) || !text.chars().any(|c| acts(c) && c != '\n') {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            // Every character that acts is in the Basic Multilingual Plane: one `\uXXXX` each.
            c if acts(c) && c != '\n' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// `value` as a pretty JSON document (a line break at its end), through [`json`]. Serializing these plain structs
/// does not fail; if it did, the answer would still be JSON.
pub fn json_document<T: serde::Serialize + ?Sized>(value: &T) -> String {
    match serde_json::to_string_pretty(value) {
        Ok(mut text) => {
            text.push('\n');
            json(text)
        }
        Err(error) => format!("{{\"error\": {}}}\n", serde_json::Value::String(error.to_string())),
    }
}

/// `text` as a Markdown code span (CommonMark, GitHub's): delimited by one backtick more than its longest run of
/// them, padded with a space when it starts or ends with a backtick or a space (the parser takes one off each
/// side), so that nothing of it is read as Markdown: no link, image, HTML, emphasis or autolink. `|` is `\|`,
/// which a table cell reads as a pipe (also inside a code span), never as the end of the cell. Line breaks must
/// be escaped first ([`escape`]); an empty text is no span.
pub fn code_span(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", text.replace('|', "\\|"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_lose_every_character_that_acts() {
        assert!(matches!(escape("web_search: beeuni:ok"), Cow::Borrowed(_)));
        assert!(matches!(escape("démo 😀"), Cow::Borrowed(_)));
        assert_eq!(escape("a\rb\nc\td"), "a\\rb\\nc\\td");
        assert_eq!(escape("\u{1b}]0;title\u{7}"), "\\u{1b}]0;title\\u{7}");
        assert_eq!(
            escape("x\u{202e}y\u{2066}\u{200f}\u{7f}\u{85}\u{2028}"),
            "x\\u{202e}y\\u{2066}\\u{200f}\\u{7f}\\u{85}\\u{2028}"
        );
        assert_eq!(escape("ok\r::add-mask::x"), "ok\\r::add-mask::x");
        // Escaping twice changes nothing: an escape holds no character that acts.
        assert_eq!(escape(&escape("a\u{1b}\n")), escape("a\u{1b}\n"));
    }

    #[test]
    fn lines_keep_their_line_breaks_only() {
        assert!(matches!(escape_lines("a\nb\n"), Cow::Borrowed(_)));
        assert_eq!(escape_lines("a\r\nb\u{1b}[2J\n"), "a\\r\nb\\u{1b}[2J\n");
        assert_eq!(prefixed_lines("p: ", "one\n::add-mask::x\rz"), "p: one\np: ::add-mask::x\\rz\n");
    }

    #[test]
    fn snippets_keep_their_byte_offsets_and_lines() {
        assert_eq!(same_length("a: 1\nb\t2\n"), None);
        let text = "a\u{1b}[2J\u{202e}b\r\nc\rd\u{85}";
        let safe = same_length(text).unwrap();
        assert_eq!(safe, "a?[2J???b\r\nc\nd??");
        assert_eq!(safe.len(), text.len());
        assert_eq!(same_length("a\r\nb"), None, "a CRLF is left to miette");
    }

    #[test]
    fn json_keeps_its_data_and_escapes_what_serde_leaves_raw() {
        let value = serde_json::json!({ "name": "a\u{202e}b\u{7f}\u{85}\u{1b}\n\u{2028}" });
        let text = json(serde_json::to_string_pretty(&value).unwrap());
        assert_eq!(text, "{\n  \"name\": \"a\\u202eb\\u007f\\u0085\\u001b\\n\\u2028\"\n}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
    }

    #[test]
    fn code_spans_hold_any_text() {
        assert_eq!(code_span("beeuni.yaml:1:2"), "`beeuni.yaml:1:2`");
        assert_eq!(code_span("a`b``c"), "```a`b``c```");
        assert_eq!(code_span("`x` ![x](http://e/x.png)"), "`` `x` ![x](http://e/x.png) ``");
        assert_eq!(code_span("a|b\\|c"), "`a\\|b\\\\|c`");
        assert_eq!(code_span(""), "");
    }
}
