use super::*;
use crate::yaml::parse_with;
use std::path::Path;

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a pool of two threads")
}

/// The top-level entries told, as (key, value span).
type Told = Vec<(Option<String>, Span)>;

fn tell(told: &mut Told) -> impl FnMut(&Document, Entry) + '_ {
    |doc: &Document, entry: Entry| told.push((doc.scalar(entry.key).map(str::to_string), doc.node(entry.value).span))
}

/// Parses `text` cut into up to `parts` parts and whole: the same tree or the same error, and the same top-level
/// entries told, each once and in order. How many parts were joined (0: the text was parsed whole).
fn same_in_parts(text: &str, parts: usize) -> usize {
    let bounds = cuts(text, parts);
    let (mut in_parts_told, mut whole_told) = (Told::new(), Told::new());
    let joined = JOINED.with(std::cell::Cell::get);
    let split = in_parts(text, &bounds, &pool(), tell(&mut in_parts_told));
    let whole = parse_with(text, tell(&mut whole_told));
    assert_eq!(format!("{split:?}"), format!("{whole:?}"), "{text:?} in {bounds:?}");
    assert_eq!(in_parts_told, whole_told, "{text:?} in {bounds:?}");
    match JOINED.with(std::cell::Cell::get) - joined {
        0 => 0,
        _ => bounds.len(),
    }
}

/// A root manifest like a large project's: imports, tools, then many agents and other top-level keys.
fn manifest(lines: usize) -> String {
    let mut text = String::from("# a project\nimports:\n  - config/a.yaml\n  - config/b.yaml\ntools:\n");
    for i in 0..lines {
        text.push_str(&format!("  tool_{i}: tools/tool_{i}.ts  # module {i}\n"));
    }
    for i in 0..lines {
        text.push_str(&format!(
            "group_{i}:\n  agent_{i}:\n    tools: [read, tool_{i}]\n    permissions:\n      bash: ask\n"
        ));
        text.push_str(&format!("key_{i}: {i}\n"));
    }
    text
}

#[test]
fn a_long_manifest_in_parts_is_the_whole_tree() {
    let text = manifest(60);
    for parts in [2, 3, 4, 7] {
        assert_eq!(same_in_parts(&text, parts), parts, "{parts} parts");
    }
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(same_in_parts(&crlf, 3), 3);
}

/// A root manifest as the benchmark generates it: a few tools, then one long `agents:` mapping.
fn agents(count: usize, after: &str) -> String {
    let mut text = String::from("# generated\nimports:\n  - config/a.yaml\ntools:\n  web_search: beeuni:web_search\n");
    for i in 0..count {
        text.push_str(&format!("  tool_{i}: tools/tool_{i}.ts\n"));
    }
    text.push_str("agents:\n");
    for i in 0..count {
        text.push_str(&format!("  agent_{i}:\n    tools: [read, grep, tool_{i}]\n"));
        text.push_str(&format!("# agent {i}b\n  agent_{i}b:\n    tools:\n      exclude: [bash, write]\n\n"));
    }
    text.push_str(after);
    text
}

#[test]
fn a_long_mapping_is_cut_between_its_entries() {
    for after in ["", "# the end\n", "late: 1\nother:\n  x: 1\n  y: [a,\n    b]\n", "  agent_3:\n    tools: none\n"] {
        let text = agents(80, after);
        for parts in [2, 3, 5] {
            assert!(same_in_parts(&text, parts) >= parts, "{parts} parts, then {after:?}");
            assert!(same_in_parts(&text.replace('\n', "\r\n"), parts) >= parts, "{parts} parts, CRLF");
        }
        // An alias in a later part of an anchor in the first: parsed whole.
        let aliased = text.replace("tool_1: tools", "tool_1: &one tools").replace("[read, grep, tool_70]", "[*one]");
        assert_eq!(same_in_parts(&aliased, 3), 0);
        // A top-level key between two cuts in the mapping's entries, or a stray line at column 0: alike.
        let lines: Vec<&str> = text.lines().collect();
        let middle = lines.len() * 2 / 3;
        for stray in ["stray: 1", "- item", "stray", "\tstray: 1", "  agent_1:", "    deeper: [x,"] {
            let mut stray_lines = lines.clone();
            stray_lines.insert(middle, stray);
            same_in_parts(&(stray_lines.join("\n") + "\n"), 3);
        }
    }
}

#[test]
fn what_a_part_cannot_parse_alone_is_parsed_whole() {
    let base = manifest(30);
    let cut = cuts(&base, 3)[2].0;
    // (text, whether its parts parse alone)
    let snippets = [
        // Across the cut: a quoted scalar, a flow collection (both errors of the whole text), a plain scalar.
        ("q: \"open\n", false),
        ("q: 'open\n", false),
        ("f: [a,\n", false),
        ("f: {a: 1,\n", false),
        ("p: words\n  more words\n", true),
        // Anchors and aliases: in one part, across parts, an alias of the root.
        ("anchored: &a {x: 1}\nalias: *a\n", true),
        ("late: *early\n", false),
        // Repeated keys across the parts, and a merge key.
        ("key_1: again\n~: a\nnull: b\n", true),
        ("merged:\n  <<: {a: 1}\n  a: 2\n", true),
        // Block scalars right before a cut, empty values, comments and blank lines.
        ("b: |+\n  kept\n\n\n", true),
        ("b: >-\n  folded\n  text\n", true),
        ("e:\n", true),
        ("e2: ~\n# a comment before a cut\n\n", true),
        ("t: \"tab\there\"\n", true),
        // Markers: no cut at all.
        ("---\n", false),
        ("...\n", false),
        ("%YAML 1.2\n", false),
    ];
    for (snippet, alone) in snippets {
        for at in [cut, base.len()] {
            let mut text = base.clone();
            text.insert_str(at, snippet);
            let text = text.replace("imports:", "early: &early 1\nimports:");
            assert_eq!(same_in_parts(&text, 3) > 0, alone, "{snippet:?} at {at}");
        }
    }
    // Each right before a cut made by hand.
    for (first, alone) in [
        ("a: |+\n  kept\n\n\n", true),
        ("a: |\n  text\n\n", true),
        ("a: >\n  t\n", true),
        ("a:\n", true),
        ("a: x # c\n# comment\n\n", true),
        ("a: [1,\n  2]\n", true),
        ("a:\n- x\n- y\n", true),
        ("a: &x 1\n", true),
        ("a: \"x\n", false),
    ] {
        for newline in ["\n", "\r\n"] {
            let text = format!("{first}b: *x\nc: {{k: v}}\n").replace('\n', newline);
            let cut = text.find("b:").expect("b");
            let bounds = [(0, 0), (cut, 0)];
            let (mut told, mut whole_told) = (Told::new(), Told::new());
            let joined = JOINED.with(std::cell::Cell::get);
            let split = in_parts(&text, &bounds, &pool(), tell(&mut told));
            let whole = parse_with(&text, tell(&mut whole_told));
            assert_eq!(format!("{split:?}"), format!("{whole:?}"), "{text:?}");
            assert_eq!(told, whole_told, "{text:?}");
            // `*x` names an anchor of the first part: never joined.
            assert_eq!(JOINED.with(std::cell::Cell::get), joined, "{text:?}");
            let text = text.replace("*x", "y");
            let joined = JOINED.with(std::cell::Cell::get);
            let split = in_parts(&text, &[(0, 0), (cut, 0)], &pool(), |_, _| {});
            assert_eq!(format!("{split:?}"), format!("{:?}", parse_with(&text, |_, _| {})), "{text:?}");
            assert_eq!(JOINED.with(std::cell::Cell::get) > joined, alone, "{text:?}");
        }
    }
    let mut rooted = String::from("&root\n");
    rooted.push_str(&base);
    rooted.push_str("alias_of_root: *root\n");
    same_in_parts(&rooted, 3);
}

#[test]
fn a_root_that_is_not_a_plain_mapping_at_column_zero_is_parsed_whole() {
    let base = manifest(20);
    let indented: String = base.lines().map(|line| format!("  {line}\n")).collect();
    for text in [
        format!("- {}", base.replace('\n', "\n  ")),
        format!("{indented}top: 1\n"),
        format!("\u{feff}{base}"),
        format!("---\n{base}"),
        format!("{base}last: no newline"),
        format!("? complex\n: key\n{base}"),
        format!("{base}x: [\n"),
    ] {
        same_in_parts(&text, 3);
    }
}

/// Every YAML file of the fixtures and fuzz seeds, cut wherever it can be.
#[test]
fn the_fixtures_and_seeds_parse_alike_in_parts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut folders = vec![root.join("tests/fixtures"), root.join("fuzz/seeds")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                let yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
                if yaml || path.parent().is_some_and(|p| p.ends_with("manifest")) {
                    files.push(text);
                }
            }
        }
    }
    assert!(files.len() > 100, "{} files", files.len());
    let cut = files.iter().filter(|text| same_in_parts(text, 3) > 1 || same_in_parts(text, 8) > 1).count();
    assert!(cut > 10, "only {cut} files could be cut");
}

#[test]
fn short_texts_and_pool_threads_parse_whole() {
    let text = manifest(4);
    assert!(text.len() < MIN_SPLIT);
    let asked = std::cell::Cell::new(false);
    let parsed = parse_split(
        &text,
        |_, _| {},
        || {
            asked.set(true);
            None
        },
    );
    assert!(!asked.get(), "no pool is asked for a short text");
    assert_eq!(format!("{parsed:?}"), format!("{:?}", crate::yaml::parse(&text)));
    let long = manifest(400);
    assert!(long.len() >= MIN_SPLIT);
    let pool = pool();
    let on_a_pool_thread = pool.install(|| parse_split(&long, |_, _| {}, || Some(&pool)));
    assert_eq!(format!("{on_a_pool_thread:?}"), format!("{:?}", crate::yaml::parse(&long)));
    assert_eq!(format!("{:?}", parse_split(&long, |_, _| {}, || Some(&pool))), format!("{on_a_pool_thread:?}"));
}
