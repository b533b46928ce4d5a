use super::super::bytes::PAGE;
use super::super::codec::{Codec, Writer};
use super::super::{Content, Entry, FILE, ModuleCache};
use super::Writing;
use super::temp::Temp;
use crate::modules::facts::{Collected, Import, ImportKind, ModuleFacts};
use crate::source::Span;
use gix::ObjectId;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Facts of some size, told apart by `n`.
fn facts(n: usize) -> ModuleFacts {
    let import = |k: usize| Import {
        specifier: format!("../lib/helper_{n}_{k}_with_a_long_name.ts").into(),
        span: Span::new(k, k + n),
        kind: ImportKind::Static,
        type_only: false,
        guarded: false,
        deferred: false,
    };
    ModuleFacts::from(Collected { imports: (0..8).map(import).collect(), ..Collected::default() })
}

fn id(n: usize) -> ObjectId {
    let mut bytes = [0; 20];
    bytes[..8].copy_from_slice(&(n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).to_be_bytes());
    ObjectId::from_bytes_or_panic(&bytes)
}

/// The length of the text every module's facts are of (their spans end within it).
const TEXT: usize = 4096;

fn new(n: usize) -> Entry {
    ModuleCache::new_entry(id(n), TEXT, false).unwrap()
}

/// The run's use of module `n` (a file `a.ts` whose facts are `facts(n)`), by `entry`.
fn keep(cache: &ModuleCache, n: usize, entry: Entry) {
    cache.keep(entry, "a.ts", &facts(n));
}

fn open(dir: &Path) -> ModuleCache {
    ModuleCache::open(dir.to_path_buf())
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name().to_string_lossy().into()).collect();
    names.sort();
    names
}

fn temporary(dir: &Path) -> Vec<String> {
    files(dir).into_iter().filter(|name| name.ends_with(".tmp")).collect()
}

#[test]
fn entries_are_laid_out_in_the_order_of_use_and_read_alike_after_their_pages_are_let_go() {
    let dir = tempfile::tempdir().unwrap();
    let order: Vec<usize> = (0..300).map(|n| n * 7 % 300).collect();
    let cache = open(dir.path());
    order.iter().for_each(|&n| keep(&cache, n, new(n)));
    cache.store();
    let cache = open(dir.path());
    assert!(cache.data.len() > 8 * PAGE, "a file of several pages");
    let hits: Vec<Entry> =
        order.iter().map(|&n| cache.module::<ModuleFacts>(&id(n), "x/a.ts", TEXT).unwrap().1).collect();
    let starts: Vec<usize> = hits.iter().map(|hit| if let Entry::Hit(range) = hit { range.start } else { 0 }).collect();
    assert!(starts.windows(2).all(|pair| pair[0] < pair[1]), "in the order of use, not of the keys");
    for batch in hits.chunks(64) {
        cache.decoded(batch);
    }
    hits.iter().for_each(|hit| cache.taken(hit));
    for &n in &order {
        assert_eq!(cache.module::<ModuleFacts>(&id(n), "a.ts", TEXT).map(|(facts, _)| facts), Some(facts(n)), "{n}");
    }
    // A new entry rewrites the file: the hits are copied from the pages let go, in the same order.
    let mut used: Vec<(usize, Entry)> = order.iter().copied().zip(hits).collect();
    used.insert(10, (1000, new(1000)));
    used.into_iter().for_each(|(n, entry)| cache.keep(entry, if n == 1000 { "b.ts" } else { "a.ts" }, &facts(n)));
    cache.store();
    let cache = open(dir.path());
    for n in order.iter().copied().chain([1000]) {
        let path = if n == 1000 { "b.ts" } else { "a.ts" };
        assert_eq!(cache.module::<ModuleFacts>(&id(n), path, TEXT).map(|(facts, _)| facts), Some(facts(n)), "{n}");
    }
}

#[test]
fn a_first_run_writes_its_entries_as_kept_into_the_file_it_renames_and_a_warm_run_finds_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    // A module used twice (the same content under two names) is found once.
    let order: Vec<usize> = [3, 1, 4, 1, 5].into_iter().chain(10..700).collect();
    for &n in &order {
        keep(&cache, n, new(n));
    }
    let written = temporary(dir.path());
    assert_eq!(written.len(), 1, "the entries go to one temporary file as they are kept: {written:?}");
    let len = std::fs::metadata(dir.path().join(&written[0])).unwrap().len();
    assert!(len as usize > super::BUFFER, "written past the buffer as they come, not held: {len}");
    cache.store();
    assert_eq!(files(dir.path()), [".gitignore", FILE], "the temporary file is put in place");
    let cache = open(dir.path());
    for &n in &order {
        assert_eq!(cache.module::<ModuleFacts>(&id(n), "b.ts", TEXT).map(|(facts, _)| facts), Some(facts(n)), "{n}");
    }
    // Every entry hit: nothing is written, not even a temporary file.
    let before = std::fs::read(dir.path().join(FILE)).unwrap();
    let hits: Vec<Entry> =
        order.iter().map(|&n| cache.module::<ModuleFacts>(&id(n), "a.ts", TEXT).unwrap().1).collect();
    order.iter().zip(hits).for_each(|(&n, hit)| keep(&cache, n, hit));
    assert!(temporary(dir.path()).is_empty());
    cache.store();
    assert_eq!(std::fs::read(dir.path().join(FILE)).unwrap(), before);
    // Read-only: nothing is written.
    let cache = open(dir.path()).read_only();
    keep(&cache, 9, new(9));
    cache.store();
    assert_eq!(files(dir.path()), [".gitignore", FILE]);
    assert!(open(dir.path()).module::<ModuleFacts>(&id(9), "a.ts", TEXT).is_none());
}

#[test]
fn two_runs_of_the_same_entries_write_the_same_bytes_whatever_order_their_manifest_trees_came_in() {
    let bytes = |trees: [&str; 2]| {
        let dir = tempfile::tempdir().unwrap();
        let cache = open(dir.path());
        for text in trees {
            let document = crate::yaml::parse(text).unwrap();
            cache.put_document(
                super::super::Key::manifest(None, text.as_bytes(), "beeuni.yaml").unwrap(),
                document.into(),
            );
        }
        [7, 2, 9, 2].into_iter().for_each(|n| keep(&cache, n, new(n)));
        cache.store();
        std::fs::read(dir.path().join(FILE)).unwrap()
    };
    let (a, b) = ("tools:\n  a: tools/a.ts\n", "tools:\n  b: tools/b.ts\n");
    assert_eq!(bytes([a, b]), bytes([b, a]));
}

#[test]
fn manifest_files_alike_have_their_tree_written_once() {
    let bytes = |trees: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let cache = open(dir.path());
        trees.iter().for_each(|text| tree(&cache, text));
        keep(&cache, 7, new(7));
        // Used again after the file opened, as a file parsed late is.
        trees.iter().for_each(|text| tree(&cache, text));
        cache.store();
        std::fs::read(dir.path().join(FILE)).unwrap()
    };
    let (a, b) = ("tools:\n  a: tools/a.ts\n", "tools: {}\n");
    assert_eq!(bytes(&[a, b, b, a, b]), bytes(&[a, b]));
}

/// Facts no version writes (an unknown flags byte), written as a value is, checksum and all.
struct Undecodable;

impl Codec for Undecodable {
    fn write(&self, w: &mut Writer) {
        (0..7).for_each(|_| w.byte(0xff));
    }

    fn decode(_: &[u8], _: usize) -> Option<Self> {
        None
    }
}

#[test]
fn an_entry_that_does_not_decode_is_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    keep(&cache, 2, new(2));
    match &mut *cache.writing.lock().unwrap() {
        Writing::Open(out) => {
            out.encode((Content::new(&id(1), TEXT).unwrap().as_bytes(), false), "ts", &Undecodable).unwrap()
        }
        _ => panic!("the first new entry opens the file"),
    }
    cache.store();
    let cache = open(dir.path());
    assert_eq!(cache.entries(), 2, "both written");
    assert!(cache.module::<ModuleFacts>(&id(1), "a.ts", TEXT).is_none());
    assert!(cache.module::<ModuleFacts>(&id(2), "a.ts", TEXT).is_some());
}

/// Puts the tree of `text` into `cache` as the manifest loading does: found there, or parsed and put.
fn tree(cache: &ModuleCache, text: &str) {
    let key = super::super::Key::manifest(None, text.as_bytes(), "beeuni.yaml").unwrap();
    if cache.document(&key, text.len()).is_none() {
        cache.put_document(key, crate::yaml::parse(text).unwrap().into());
    }
}

#[test]
fn trees_found_and_trees_parsed_are_written_in_key_order_before_and_after_the_file_opens() {
    let texts: Vec<String> = (0..6).map(|n| format!("tools:\n  t{n}: tools/t{n}.ts\n")).collect();
    // Trees 0-2 used before the first module, 3-5 after it opened the file (written as it ends).
    let run = |dir: &Path, trees: &[usize], modules: &[usize]| {
        let cache = open(dir);
        trees.iter().filter(|&&t| t < 3).for_each(|&t| tree(&cache, &texts[t]));
        for &n in modules {
            match cache.module::<ModuleFacts>(&id(n), "a.ts", TEXT) {
                Some((_, hit)) => keep(&cache, n, hit),
                None => keep(&cache, n, new(n)),
            }
        }
        trees.iter().filter(|&&t| t >= 3).for_each(|&t| tree(&cache, &texts[t]));
        cache.store();
        std::fs::read(dir.join(FILE)).unwrap()
    };
    let (warm, fresh) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run(warm.path(), &[2, 0, 4], &[5, 6]);
    // Trees 0 and 4 found, 1 and 5 parsed; modules 5 and 6 found, 8 analysed: the same bytes as a run that made
    // every entry anew.
    let (trees, modules) = ([5, 1, 0, 4], [5, 8, 6]);
    assert_eq!(run(warm.path(), &trees, &modules), run(fresh.path(), &trees, &modules));
    let cache = open(warm.path());
    for t in [0, 1, 4, 5] {
        let key = super::super::Key::manifest(None, texts[t].as_bytes(), "beeuni.yaml").unwrap();
        assert!(cache.document(&key, texts[t].len()).is_some(), "{t}");
    }
}

#[test]
fn a_run_whose_only_new_module_has_a_key_too_long_for_an_entry_leaves_the_file_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path());
    (0..3).for_each(|n| keep(&cache, n, new(n)));
    cache.store();
    let path = dir.path().join(FILE);
    let (bytes, metadata) = (std::fs::read(&path).unwrap(), std::fs::metadata(&path).unwrap());
    let cache = open(dir.path());
    for n in 0..3 {
        let (_, hit) = cache.module::<ModuleFacts>(&id(n), "a.ts", TEXT).unwrap();
        keep(&cache, n, hit);
    }
    // The file gives a suffix's length in a byte.
    cache.keep(new(3), &format!("a.{}", "x".repeat(256)), &facts(3));
    assert!(temporary(dir.path()).is_empty(), "no file opened: {:?}", files(dir.path()));
    cache.store();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        assert_eq!(std::fs::metadata(&path).unwrap().ino(), metadata.ino(), "the same file, not one put in its place");
    }
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), metadata.modified().unwrap());
}

#[test]
fn two_runs_of_one_pid_write_apart_and_neither_clobbers_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (open(dir.path()), open(dir.path()));
    keep(&first, 1, new(1));
    keep(&second, 2, new(2));
    assert_eq!(temporary(dir.path()).len(), 2, "one temporary file each, though the pid is the same");
    keep(&first, 3, new(3));
    keep(&second, 4, new(4));
    first.store();
    let cache = open(dir.path());
    assert!(
        cache.module::<ModuleFacts>(&id(1), "a.ts", TEXT).is_some()
            && cache.module::<ModuleFacts>(&id(3), "a.ts", TEXT).is_some()
    );
    assert!(cache.module::<ModuleFacts>(&id(2), "a.ts", TEXT).is_none());
    second.store();
    let cache = open(dir.path());
    assert!(
        cache.module::<ModuleFacts>(&id(2), "a.ts", TEXT).is_some()
            && cache.module::<ModuleFacts>(&id(4), "a.ts", TEXT).is_some()
    );
    assert!(cache.module::<ModuleFacts>(&id(1), "a.ts", TEXT).is_none());
    assert!(temporary(dir.path()).is_empty());
}

#[test]
fn writing_the_file_removes_the_temporary_files_killed_runs_left_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".gitignore"), "*\n").unwrap();
    let hour_ago = SystemTime::now() - Duration::from_secs(2 * 60 * 60);
    let make = |name: &str, old: bool| {
        let file = std::fs::File::create(dir.path().join(name)).unwrap();
        if old {
            file.set_modified(hour_ago).unwrap();
        }
    };
    let stale = [format!("{FILE}.4242-00ff00ff00ff00ff.tmp"), format!("{FILE}.4242.tmp"), format!("{FILE}.77.spool")];
    stale.iter().for_each(|name| make(name, true));
    // A run under way, and files that are not ours.
    let kept = [format!("{FILE}.4343-0123456789abcdef.tmp"), "notes.tmp".into(), format!("{FILE}.x.tmp")];
    make(&kept[0], false);
    make(&kept[1], true);
    make(&kept[2], true);
    // A link under one of our names is not followed, nor removed.
    let target = outside.path().join("target");
    std::fs::write(&target, "keep").unwrap();
    std::fs::File::open(&target).unwrap().set_modified(hour_ago).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, dir.path().join(format!("{FILE}.99.tmp"))).unwrap();
    let cache = open(dir.path());
    keep(&cache, 1, new(1));
    cache.store();
    let left = files(dir.path());
    for name in &stale {
        assert!(!left.contains(name), "{name} in {left:?}");
    }
    for name in &kept {
        assert!(left.contains(name), "{name} in {left:?}");
    }
    #[cfg(unix)]
    assert!(left.contains(&format!("{FILE}.99.tmp")), "{left:?}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    assert!(open(dir.path()).module::<ModuleFacts>(&id(1), "a.ts", TEXT).is_some());
}

#[test]
fn a_temporary_file_a_run_still_writes_is_not_removed_however_old() {
    let dir = tempfile::tempdir().unwrap();
    let (slow, dead) = (format!("{FILE}.4444-00ff00ff00ff00ff.tmp"), format!("{FILE}.4545-00ff00ff00ff00ff.tmp"));
    let make = |name: &str| {
        let file = std::fs::File::create(dir.path().join(name)).unwrap();
        file.set_modified(SystemTime::now() - Duration::from_secs(2 * 60 * 60)).unwrap();
        file
    };
    // The lock its run took when it made the file (a lock of another open file, as another process's would be).
    let writing = make(&slow);
    writing.try_lock().unwrap();
    drop(make(&dead));
    let cache = open(dir.path());
    keep(&cache, 1, new(1));
    cache.store();
    let left = files(dir.path());
    assert!(left.contains(&slow) && !left.contains(&dead), "{left:?}");
    drop(writing);
    // A run's own temporary file is locked from its making.
    let (_file, temp) = Temp::create(dir.path(), super::super::FILE).unwrap();
    let other = std::fs::File::open(&temp.0).unwrap();
    assert!(matches!(other.try_lock(), Err(std::fs::TryLockError::WouldBlock)));
}

#[test]
fn a_file_that_cannot_be_put_in_place_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(FILE)).unwrap();
    std::fs::write(dir.path().join(FILE).join("x"), "").unwrap();
    let cache = open(dir.path());
    keep(&cache, 1, new(1));
    cache.store();
    assert!(temporary(dir.path()).is_empty(), "{:?}", files(dir.path()));
}

#[test]
fn the_table_s_sort_orders_by_prefix_and_keeps_the_order_of_equal_prefixes() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Prefixes spread as blob ids' are, with some repeated; and few distinct ones in the high half (all in one
    // bucket), so that many are equal.
    let spread: Vec<[u32; 3]> = (0..5000u32)
        .map(|start| {
            let state = if start % 7 == 3 { 0x8000_0000_0000_0001 } else { next() };
            [(state >> 32) as u32, state as u32, start]
        })
        .collect();
    let crowded: Vec<[u32; 3]> =
        (0..5000u32).map(|start| [(next() >> 60) as u32, (next() as u32) & 0x0101_0f0f, start]).collect();
    for slots in [spread, crowded, vec![], vec![[7, 7, 0]], vec![[9, 1, 0], [3, 2, 1]], vec![[3, 2, 0], [3, 2, 1]]] {
        let mut expected = slots.clone();
        expected.sort_by_key(|&[high, low, _]| (high, low));
        let mut sorted = slots;
        super::sort_slots(&mut sorted);
        assert_eq!(sorted, expected);
    }
}
