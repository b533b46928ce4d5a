//! Repeated keys of a mapping, found as each mapping is built (for the `duplicate-key` rule): `null` and `~` are
//! one key, `1` and `"1"` are two.

use super::{Document, DuplicateKey, Entry, NodeId, Value};
use crate::yaml::scalar::ScalarKind;
use rustc_hash::FxHashMap;

/// Mappings up to this many entries are searched for repeated keys pair by pair, without building a table
/// (nearly all of a manifest's mappings: an agent, a tool's settings).
const SMALL_MAPPING: usize = 8;

pub(in crate::yaml) fn find_duplicates(doc: &mut Document, entries: &[Entry]) {
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
    use crate::yaml::tree::parse;
    use crate::yaml::tree::tests::slice;

    #[test]
    fn duplicates_both_places() {
        let text = "a: 1\nb: 2\n\"a\": 3\n";
        let doc = parse(text).unwrap();
        assert_eq!(doc.duplicate_keys.len(), 1);
        let dup = doc.duplicate_keys[0];
        assert_eq!(doc.node(dup.first).span.start(), 0);
        assert_eq!(doc.node(dup.repeat).span.start(), 10);
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
            assert!(k1.into_iter().all(|d| doc.node(d.first).span.start() == first_k1));
        }
        // Pair by pair: a mapping of a few entries.
        let text = "a: {x: 1, ~: 2, null: 3, x: 4, \"x\": 5}\n";
        let doc = parse(text).unwrap();
        let repeats: Vec<usize> = doc.duplicate_keys.iter().map(|d| doc.node(d.repeat).span.start()).collect();
        assert_eq!(repeats, [text.find("null").unwrap(), text.find("x: 4").unwrap(), text.find("\"x\"").unwrap()]);
    }
}
