//! A message's parameters as the handlers take them, read so that no error about them is large.
//!
//! serde's error for a value of the wrong type quotes it whole, a string escaped up to six bytes a byte (`\u{7f}`):
//! a 60 MiB string where an object belongs made a 360 MiB error, and a 440 MiB server. So the parameters are read
//! first with their long strings emptied: that fails, with an error quoting nothing long, wherever the real ones
//! would, except where the empty string is wrong and the long one right (a URI longer than [`LONG`]: refused).

use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;

/// Strings longer than this are emptied for the first reading: longer than any URI, name or kind, so only texts.
const LONG: usize = 64 * 1024;
/// The most of an error's text an answer repeats.
const SHOWN: usize = 200;

/// The parameters, or why they are not a `P`: at most [`SHOWN`] bytes, escaped (serde quotes field names and
/// variants as the client wrote them).
pub fn read<P: DeserializeOwned>(params: Value) -> Result<P, String> {
    let described = |e: serde_json::Error| format!("{:?}", clipped(&e));
    serde_json::from_value::<P>(without_long_strings(&params)).map_err(described)?;
    serde_json::from_value(params).map_err(described)
}

/// A copy of `value` with its long strings (and keys) empty. Its depth is bounded: serde_json reads at most 128
/// levels.
fn without_long_strings(value: &Value) -> Value {
    let short = |text: &String| if text.len() > LONG { String::new() } else { text.clone() };
    match value {
        Value::String(text) => Value::String(short(text)),
        Value::Array(items) => Value::Array(items.iter().map(without_long_strings).collect()),
        Value::Object(fields) => {
            Value::Object(fields.iter().map(|(key, value)| (short(key), without_long_strings(value))).collect())
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => value.clone(),
    }
}

/// The first [`SHOWN`] bytes of `error`'s text, formatted no further.
fn clipped(error: &impl fmt::Display) -> String {
    struct Clip(String);
    impl fmt::Write for Clip {
        fn write_str(&mut self, text: &str) -> fmt::Result {
            let end = text.floor_char_boundary(SHOWN - self.0.len());
            self.0.push_str(&text[..end]);
            // An error ends the formatting once the text is full.
            if end < text.len() { Err(fmt::Error) } else { Ok(()) }
        }
    }
    let mut clip = Clip(String::new());
    let _ = fmt::write(&mut clip, format_args!("{error}"));
    clip.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{DidOpenTextDocumentParams, HoverParams};
    use serde_json::json;

    #[test]
    fn long_texts_are_read_and_long_strings_out_of_place_are_refused_briefly() {
        let text = "\u{7f}".repeat(LONG + 1);
        let document = json!({ "uri": "file:///a.yaml", "languageId": "yaml", "version": 1, "text": text });
        let opened: DidOpenTextDocumentParams = read(json!({ "textDocument": document })).expect("a long text");
        assert_eq!(opened.text_document.text, text);
        let misplaced = json!({ "textDocument": text, "position": { "line": 0, "character": 0 } });
        let error = read::<HoverParams>(misplaced).expect_err("a string where an object belongs");
        assert_eq!(error, r#""invalid type: string \"\", expected struct TextDocumentIdentifier""#);
        let short = "\u{7f}".repeat(100);
        let error = read::<HoverParams>(json!({ "textDocument": short })).expect_err("a short one");
        let whole = format!("invalid type: string {short:?}, expected struct TextDocumentIdentifier");
        assert_eq!(error, format!("{:?}", &whole[..SHOWN]));
    }
}
