use super::*;
use crate::modules::facts::{Collected, EnvRead, ModuleFacts, SyntaxError};
use crate::source::Span;

fn facts() -> ModuleFacts {
    ModuleFacts::from(Collected {
        syntax_errors: vec![SyntaxError { span: Span::new(1, 2), message: "m".into() }],
        env_reads: vec![EnvRead { name: "KEY".into(), span: Span::new(3, 9), via: "Bun.env" }],
        ..Collected::default()
    })
}

/// The length of the text `facts` are of (their spans end by 9).
const TEXT: usize = 9;

fn id(byte: u8) -> ObjectId {
    ObjectId::from_bytes_or_panic(&[byte; 20])
}

fn key(byte: u8, path: &str) -> Key {
    Key::new(Content::new(&id(byte), TEXT).unwrap(), path)
}

fn new(byte: u8, path: &str) -> (Entry, &str) {
    (ModuleCache::new_entry(id(byte), TEXT, false).unwrap(), path)
}

/// A run's use of `entries` (each with its module's path; every module's facts are [`facts`]), in order, and its
/// end.
fn store(cache: &ModuleCache, entries: Vec<(Entry, &str)>) {
    entries.into_iter().for_each(|(entry, path)| cache.keep(entry, path, &facts()));
    cache.store();
}

#[test]
fn entries_come_back_as_stored_under_content_and_extension() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ModuleCache::open(dir.path().to_path_buf());
    assert!(cache.get::<ModuleFacts>(&key(1, "tools/a.ts"), TEXT).is_none());
    store(&cache, vec![new(1, "tools/a.ts")]);
    let cache = ModuleCache::open(dir.path().to_path_buf());
    assert_eq!(cache.get::<ModuleFacts>(&key(1, "other/b.ts"), TEXT).map(|(f, _)| f), Some(facts()));
    assert!(cache.get::<ModuleFacts>(&key(1, "tools/a.mts"), TEXT).is_none());
    assert!(cache.get::<ModuleFacts>(&key(2, "tools/a.ts"), TEXT).is_none());
    assert_eq!(key(1, "x/a.d.ts").suffix.as_ref(), "d.ts");
}

#[test]
fn a_run_keeps_the_entries_it_used_and_rewrites_nothing_when_all_were_hits() {
    let dir = tempfile::tempdir().unwrap();
    store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts"), new(2, "b.d.ts")]);
    let cache = ModuleCache::open(dir.path().to_path_buf());
    let (facts_1, hit) = cache.module::<ModuleFacts>(&id(1), "x/a.ts", TEXT).unwrap();
    assert_eq!(facts_1, facts());
    assert!(cache.module::<ModuleFacts>(&id(2), "b.ts", TEXT).is_none(), "the suffix is part of the key");
    store(&cache, vec![(hit, "x/a.ts"), new(3, "c.ts")]);
    let path = dir.path().join(FILE);
    let cache = ModuleCache::open(dir.path().to_path_buf());
    assert!(
        cache.module::<ModuleFacts>(&id(1), "a.ts", TEXT).is_some()
            && cache.module::<ModuleFacts>(&id(3), "c.ts", TEXT).is_some()
    );
    assert!(cache.module::<ModuleFacts>(&id(2), "b.d.ts", TEXT).is_none(), "an entry the run did not use is dropped");
    let hits = vec![(cache.module::<ModuleFacts>(&id(3), "c.ts", TEXT).unwrap().1, "c.ts")];
    std::fs::write(&path, b"").unwrap();
    store(&cache, hits);
    assert!(std::fs::read(&path).unwrap().is_empty(), "nothing new: the file is not written");
}

#[test]
fn keys_that_share_the_table_prefix_are_told_apart_by_the_whole_key() {
    let dir = tempfile::tempdir().unwrap();
    let near = |last: u8| {
        let mut bytes = [7; 20];
        bytes[19] = last;
        ObjectId::from_bytes_or_panic(&bytes)
    };
    let entries = [(2, "a.ts"), (2, "a.d.ts"), (4, "a.ts"), (9, "b.mts")];
    let stored =
        entries.iter().map(|&(last, path)| (ModuleCache::new_entry(near(last), TEXT, false).unwrap(), path)).collect();
    store(&ModuleCache::open(dir.path().to_path_buf()), stored);
    let cache = ModuleCache::open(dir.path().to_path_buf());
    for (last, path) in entries {
        assert!(cache.module::<ModuleFacts>(&near(last), path, TEXT).is_some(), "{last} {path}");
    }
    for (last, path) in [(1, "a.ts"), (3, "a.ts"), (2, "a.mts"), (4, "a.d.ts"), (10, "b.mts")] {
        assert!(cache.module::<ModuleFacts>(&near(last), path, TEXT).is_none(), "{last} {path}");
    }
}

#[test]
fn a_module_whose_suffix_is_too_long_for_an_entry_is_not_stored_and_the_others_are() {
    let dir = tempfile::tempdir().unwrap();
    // The file gives a suffix's length in a byte.
    let (long, longest) = (format!("a.{}", "x".repeat(256)), format!("a.{}", "x".repeat(255)));
    store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, &long), new(2, "a.ts"), new(3, &longest)]);
    let cache = ModuleCache::open(dir.path().to_path_buf());
    assert!(cache.module::<ModuleFacts>(&id(1), &long, TEXT).is_none());
    assert_eq!(cache.module::<ModuleFacts>(&id(2), "a.ts", TEXT).map(|(f, _)| f), Some(facts()));
    assert_eq!(cache.module::<ModuleFacts>(&id(3), &longest, TEXT).map(|(f, _)| f), Some(facts()), "255 bytes fit");
    assert_eq!(cache.count, 2);
}

#[test]
fn facts_with_a_span_past_the_text_they_are_of_are_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let short = ModuleCache::new_entry(id(1), TEXT - 1, false).unwrap();
    store(&ModuleCache::open(dir.path().to_path_buf()), vec![(short, "a.ts")]);
    let cache = ModuleCache::open(dir.path().to_path_buf());
    assert_eq!(cache.entries(), 1);
    assert!(cache.module::<ModuleFacts>(&id(1), "a.ts", TEXT - 1).is_none(), "a span ends at {TEXT}");
}

/// A work-tree file git converts (`core.autocrlf`) has the index's blob id but not its bytes: the entry of the blob's
/// text is not the file's, nor the other way round.
#[test]
fn the_same_blob_id_as_a_text_of_another_length_is_another_key() {
    let dir = tempfile::tempdir().unwrap();
    let crlf = ModuleCache::new_entry(id(1), TEXT + 2, false).unwrap();
    store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts"), (crlf, "a.ts")]);
    let cache = ModuleCache::open(dir.path().to_path_buf());
    assert_eq!(cache.entries(), 2, "both kept");
    for text_len in [TEXT, TEXT + 2] {
        assert_eq!(cache.module::<ModuleFacts>(&id(1), "a.ts", text_len).map(|(f, _)| f), Some(facts()), "{text_len}");
    }
    for text_len in [TEXT - 1, TEXT + 1, TEXT + 3] {
        assert!(cache.module::<ModuleFacts>(&id(1), "a.ts", text_len).is_none(), "{text_len}");
    }
    let manifest = Key::manifest(Some(id(1)), b"tools: {}\n", "beeuni.yaml").unwrap();
    assert_eq!(manifest.content, Content::new(&id(1), 10).unwrap(), "the length of the bytes given");
}

#[test]
fn a_damaged_entry_is_a_miss_and_the_others_still_hit() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ModuleCache::open(dir.path().to_path_buf());
    let entries = (1..=3).map(|n| new(n, "a.ts")).collect();
    store(&cache, entries);
    let path = dir.path().join(FILE);
    let mut bytes = std::fs::read(&path).unwrap();
    // The last entry's last byte: the table and its footer follow the entries.
    let (table, _) = layout(&bytes).unwrap();
    bytes[table - 1] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let cache = ModuleCache::open(dir.path().to_path_buf());
    assert_eq!(cache.get::<ModuleFacts>(&key(1, "a.ts"), TEXT).map(|(f, _)| f), Some(facts()));
    assert_eq!(cache.get::<ModuleFacts>(&key(2, "a.ts"), TEXT).map(|(f, _)| f), Some(facts()));
    assert!(cache.get::<ModuleFacts>(&key(3, "a.ts"), TEXT).is_none());
}

#[test]
fn a_file_of_another_version_or_cut_short_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts")]);
    let path = dir.path().join(FILE);
    let bytes = std::fs::read(&path).unwrap();
    let foreign = String::from_utf8_lossy(&bytes).replacen(env!("CARGO_PKG_VERSION"), "0.0.0-other", 1);
    std::fs::write(&path, foreign.as_bytes()).unwrap();
    assert!(ModuleCache::open(dir.path().to_path_buf()).get::<ModuleFacts>(&key(1, "a.ts"), TEXT).is_none());
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    assert!(ModuleCache::open(dir.path().to_path_buf()).get::<ModuleFacts>(&key(1, "a.ts"), TEXT).is_none());
    // Another build of the same version and format (other sources).
    let other = String::from_utf8_lossy(&bytes).replacen(env!("BEEUNI_LINT_BUILD_ID"), &"0".repeat(32), 1);
    std::fs::write(&path, other.as_bytes()).unwrap();
    assert!(ModuleCache::open(dir.path().to_path_buf()).get::<ModuleFacts>(&key(1, "a.ts"), TEXT).is_none());
    std::fs::write(&path, &bytes).unwrap();
    assert!(ModuleCache::open(dir.path().to_path_buf()).get::<ModuleFacts>(&key(1, "a.ts"), TEXT).is_some());
}

/// The file at `path`, its one entry's checksum replaced with what `seal` makes of the entry's key and facts (the
/// entry's bytes first changed by `damage`).
fn resealed(path: &std::path::Path, damage: impl Fn(&mut [u8]), seal: impl Fn(&[&[u8]]) -> u64) {
    let mut bytes = std::fs::read(path).unwrap();
    let start = header().len();
    let raw = raw_at(&bytes, start).unwrap();
    let (sum_at, facts_at) = (raw.range.end - raw.facts.len() - 8, raw.range.end - raw.facts.len());
    let range = raw.range;
    damage(&mut bytes[facts_at..range.end]);
    let raw = raw_at(&bytes, start).unwrap();
    let sum = seal(&[raw.id, &[u8::from(raw.blob)], raw.suffix, raw.facts]);
    bytes[sum_at..facts_at].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(path, &bytes).unwrap();
}

#[test]
fn an_entry_is_refused_unless_sealed_with_this_build_s_key_over_its_very_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let hit =
        || ModuleCache::open(dir.path().to_path_buf()).module::<ModuleFacts>(&id(1), "a.ts", TEXT).map(|(f, _)| f);
    let unchanged = |_: &mut [u8]| {};
    let flipped = |facts: &mut [u8]| *facts.last_mut().unwrap() ^= 1;
    store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts")]);
    resealed(&path, unchanged, layout::checksum);
    assert_eq!(hit(), Some(facts()), "sealed again as this build does: the rewriting itself is sound");
    let (key0, key1) = layout::seal_key();
    let other_build = |parts: &[&[u8]]| layout::checksum_with((key0 ^ 1, key1), parts);
    let plain = |parts: &[&[u8]]| {
        // What the format had: FxHash of the parts, with no key.
        let mut hasher = rustc_hash::FxHasher::default();
        parts.iter().for_each(|part| {
            std::hash::Hasher::write(&mut hasher, part);
            std::hash::Hasher::write_usize(&mut hasher, part.len());
        });
        std::hash::Hasher::finish(&hasher)
    };
    for (what, seal) in [("another key", &other_build as &dyn Fn(&[&[u8]]) -> u64), ("no key", &plain)] {
        std::fs::remove_file(&path).unwrap();
        store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts")]);
        resealed(&path, unchanged, seal);
        assert!(hit().is_none(), "{what}");
        resealed(&path, flipped, seal);
        assert!(hit().is_none(), "{what}, the facts changed");
    }
    // A byte flipped after sealing, in the facts or in the key.
    std::fs::remove_file(&path).unwrap();
    store(&ModuleCache::open(dir.path().to_path_buf()), vec![new(1, "a.ts")]);
    let mut bytes = std::fs::read(&path).unwrap();
    let (table, _) = layout(&bytes).unwrap();
    bytes[table - 1] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(hit().is_none(), "a flipped byte of the facts");
    bytes[table - 1] ^= 1;
    // The id's last byte (its first eight are the table's prefix: the entry is still found for the id it now has).
    let last = header().len() + 20;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let mut flipped_id = [1; 20];
    flipped_id[19] ^= 1;
    let cache = ModuleCache::open(dir.path().to_path_buf());
    assert!(
        cache.module::<ModuleFacts>(&ObjectId::from_bytes_or_panic(&flipped_id), "a.ts", TEXT).is_none(),
        "of the key"
    );
    assert!(hit().is_none());
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(hit(), Some(facts()));
}

#[test]
fn a_manifest_tree_is_kept_apart_from_a_module_of_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ModuleCache::open(dir.path().to_path_buf());
    let bytes = b"tools:\n  a: tools/a.ts # c\n";
    let tree = Key::manifest(None, bytes, "beeuni.yaml").unwrap();
    assert!(cache.document(&tree, bytes.len()).is_none());
    cache.put_document(tree.clone(), crate::yaml::parse(std::str::from_utf8(bytes).unwrap()).unwrap().into());
    store(&cache, vec![new(1, "a.ts")]);
    let cache = ModuleCache::open(dir.path().to_path_buf());
    let document = cache.document(&tree, bytes.len()).unwrap();
    assert_eq!((document.nodes.len(), document.comments[0].text.as_str()), (5, " c"));
    assert!(cache.get::<ModuleFacts>(&Key::new(tree.content, "beeuni.yaml"), bytes.len()).is_none());
}

#[test]
fn the_suffix_is_the_file_name_from_its_first_dot() {
    let cases = [
        ("tools/a.ts", "ts"),
        ("x/a.d.ts", "d.ts"),
        ("a.mjs", "mjs"),
        ("dir.v2/file", ""),
        ("lib/.hidden.ts", "hidden.ts"),
        ("name.", ""),
        ("ü/ä.ö.ts", "ö.ts"),
    ];
    for (path, expected) in cases {
        assert_eq!(suffix(path), expected, "{path}");
    }
}

#[test]
fn an_unwritable_folder_is_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let cache = ModuleCache::open(file.join("cache"));
    store(&cache, vec![new(1, "a.ts")]);
}

/// An entry made of a blob itself is found by the blob's id alone, with its text's length; one that does not say so
/// (a work-tree file the index vouched for) is not. The mark is sealed with the entry.
#[test]
fn an_entry_of_the_blob_itself_is_found_by_its_id_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let open = || ModuleCache::open(dir.path().to_path_buf());
    let blob = |cache: &ModuleCache| cache.blob_module::<ModuleFacts>(&id(1), "a.ts").map(|(f, _, len)| (f, len));
    store(&open(), vec![new(1, "a.ts")]);
    assert_eq!(blob(&open()), None, "an entry of a text the index vouches for is not the blob's");
    store(&open(), vec![(ModuleCache::new_entry(id(1), TEXT, true).unwrap(), "a.ts")]);
    assert_eq!(blob(&open()), Some((facts(), TEXT)));
    assert_eq!(open().blob_module::<ModuleFacts>(&id(1), "a.js").map(|(f, ..)| f), None, "another extension");
    assert_eq!(open().blob_module::<ModuleFacts>(&id(2), "a.ts").map(|(f, ..)| f), None, "another blob");
    assert_eq!(open().module::<ModuleFacts>(&id(1), "a.ts", TEXT).map(|(f, _)| f), Some(facts()), "found whole too");
    // The mark cleared in place, the entry's checksum no longer holds: neither lookup takes it.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[header().len()] &= !layout::BLOB;
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(open().module::<ModuleFacts>(&id(1), "a.ts", TEXT).map(|(f, _)| f), None);
    assert_eq!(blob(&open()), None);
}
