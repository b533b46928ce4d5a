//! JSON as resolution reads it: objects keep their key order (in an `exports` map the first matching key
//! wins), and `tsconfig.json` may hold comments and trailing commas, as TypeScript and Bun accept.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;
use std::fmt;

/// Keys of an object looked for a repeat one by one; past them, through a table.
const SCANNED_KEYS: usize = 32;

/// The byte order mark an editor may put at the start of a file: `JSON.parse` refuses it, but Bun and TypeScript
/// skip it when they read a `package.json` or `tsconfig.json`.
const BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    /// Keys in the file's order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parses a JSON file (a leading byte order mark skipped).
    pub fn parse(bytes: &[u8]) -> Option<Json> {
        serde_json::from_slice(bytes.strip_prefix(BOM).unwrap_or(bytes)).ok()
    }

    /// Parses JSON with comments and trailing commas (`tsconfig.json`, `jsconfig.json`; a leading byte order mark
    /// skipped).
    pub fn parse_jsonc(bytes: &[u8]) -> Option<Json> {
        serde_json::from_slice(&strip_jsonc(bytes.strip_prefix(BOM).unwrap_or(bytes))).ok()
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Number(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries: Vec<(String, Json)> = Vec::new();
        // Each key's place, once the object is longer than a look along it is cheap: 200,000 keys looked up each
        // along all those before it took minutes.
        let mut places: HashMap<String, usize> = HashMap::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            if entries.len() == SCANNED_KEYS {
                places = entries.iter().enumerate().map(|(at, (k, _))| (k.clone(), at)).collect();
            }
            let repeated = if entries.len() < SCANNED_KEYS {
                entries.iter().position(|(k, _)| *k == key)
            } else {
                places.get(&key).copied()
            };
            // A repeated key: the last one counts, at the first one's place (as `JSON.parse` keeps it).
            match repeated {
                Some(at) => entries[at].1 = value,
                None => {
                    if entries.len() >= SCANNED_KEYS {
                        places.insert(key.clone(), entries.len());
                    }
                    entries.push((key, value));
                }
            }
        }
        Ok(Json::Object(entries))
    }
}

/// Blanks `//` and `/* */` comments and drops commas before `}` or `]`, outside strings. Comments become
/// spaces so that byte offsets, and serde's error positions, stay where they were.
fn strip_jsonc(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b'"', _) => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                out.extend_from_slice(&bytes[start..i]);
            }
            (b'/', Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out.push(b' ');
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let end = bytes[i + 2..].windows(2).position(|w| w == b"*/").map_or(bytes.len(), |p| i + 2 + p + 2);
                out.extend(bytes[i..end].iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }));
                i = end;
            }
            (b',', _) => {
                let next = bytes[i + 1..].iter().position(|b| !b.is_ascii_whitespace()).map(|p| bytes[i + 1 + p]);
                // A comment between the comma and the bracket is blanked later; look past it too.
                let trailing = matches!(next, Some(b'}' | b']')) || trailing_after_comments(&bytes[i + 1..]);
                out.push(if trailing { b' ' } else { b',' });
                i += 1;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

/// Whether only whitespace and comments stand between here and a closing bracket.
fn trailing_after_comments(mut rest: &[u8]) -> bool {
    loop {
        rest = rest.trim_ascii_start();
        if let Some(after) = rest.strip_prefix(b"//") {
            rest = after.iter().position(|&b| b == b'\n').map_or(&[][..], |p| &after[p..]);
        } else if let Some(after) = rest.strip_prefix(b"/*") {
            rest = after.windows(2).position(|w| w == b"*/").map_or(&[][..], |p| &after[p + 2..]);
        } else {
            return matches!(rest.first(), Some(b'}' | b']'));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_key_order_and_reads_jsonc() {
        let json = Json::parse(br#"{"b": 1, "a": [true, null, "x"]}"#).unwrap();
        let Json::Object(entries) = &json else { panic!() };
        assert_eq!(entries.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["b", "a"]);
        let text = b"{\n  // base\n  \"compilerOptions\": { /* c */ \"baseUrl\": \"./s//x\", \"paths\": { \"@/*\": [\"src/*\",], }, },\n}";
        let config = Json::parse_jsonc(text).unwrap();
        let options = config.get("compilerOptions").unwrap();
        assert_eq!(options.get("baseUrl").and_then(Json::as_str), Some("./s//x"));
        let comma_then_comment = b"{\"a\": [1, /* last */ ], \"b\": 2, // end\n}";
        assert!(Json::parse_jsonc(comma_then_comment).is_some());
        assert!(Json::parse(b"{\"a\": 1,}").is_none());
    }

    #[test]
    fn skips_a_byte_order_mark() {
        let json = Json::parse(b"\xEF\xBB\xBF{\"main\": \"a.js\"}").unwrap();
        assert_eq!(json.get("main").and_then(Json::as_str), Some("a.js"));
        let config = Json::parse_jsonc(b"\xEF\xBB\xBF// c\n{\"compilerOptions\": {},}").unwrap();
        assert!(config.get("compilerOptions").is_some());
        assert!(Json::parse(b"\xEF\xBB\xBF\xEF\xBB\xBF{}").is_none(), "one mark, not any number");
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_in_a_long_object() {
        let keys: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}, \"k3\": -1, \"k70\": -2, \"new\": 0}}", keys.join(", "));
        let Json::Object(entries) = Json::parse(text.as_bytes()).unwrap() else { panic!() };
        assert_eq!(entries.len(), 101);
        assert_eq!(entries[3], ("k3".to_string(), Json::Number(-1.0)));
        assert_eq!(entries[70], ("k70".to_string(), Json::Number(-2.0)));
        assert_eq!(entries[100].0, "new");
    }
}
