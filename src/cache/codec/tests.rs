//! The codec against what it must hold to: every fixture's facts and manifest trees come back equal, and bytes
//! cut short or damaged never panic; cut short, they never decode.

use super::{Codec, Reader, Writer};
use crate::modules::facts::*;
use crate::source::Span;
use crate::yaml::tree::Document;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// Every file under `tests/fixtures` whose name ends in one of `extensions`.
fn fixtures(extensions: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| extensions.iter().any(|x| e == *x)) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Each fixture module's facts, as the analysis gives them (on a thread with the analysis stack), with the length
/// of its text.
fn fixture_facts() -> Vec<(PathBuf, usize, ModuleFacts)> {
    let modules = fixtures(&["ts", "js", "mts", "mjs", "cts", "cjs", "tsx", "jsx"]);
    let analyse = move || {
        let mut allocator = oxc_allocator::Allocator::default();
        let texts = modules.into_iter().filter_map(|path| Some((std::fs::read_to_string(&path).ok()?, path)));
        texts
            .map(|(text, path)| {
                let facts = crate::modules::analyse::analyse(path.to_str().unwrap(), &text, &mut allocator);
                (path, text.len(), facts)
            })
            .collect()
    };
    let spawned = std::thread::Builder::new().stack_size(crate::pool::ANALYSIS_STACK);
    spawned.spawn(analyse).unwrap().join().unwrap()
}

/// Each fixture manifest file that parses, as its tree, with the length of its text.
fn fixture_documents() -> Vec<(PathBuf, usize, Document)> {
    let files = fixtures(&["yaml", "yml"]).into_iter();
    let texts = files.filter_map(|path| Some((std::fs::read_to_string(&path).ok()?, path)));
    texts.filter_map(|(text, path)| Some((path, text.len(), crate::yaml::parse(&text).ok()?))).collect()
}

/// Facts with every variant and option the form has, the ones fixtures seldom show included.
fn rich_facts() -> Vec<ModuleFacts> {
    let wide = |n: usize| Span::new(n, n * 3 + 1);
    let long = "a name longer than twenty-four bytes, ünïcödé";
    fn field<T>(n: usize) -> Field<T> {
        Field::Unanalyzable { span: Span::new(n, n * 3 + 1), why: "a spread".into() }
    }
    let parameters = Parameters {
        type_value: Some("object".into()),
        has_type: true,
        is_object_literal: true,
        properties: Some(Properties::new(["a", "b\0c", long])),
        properties_span: Some(wide(40)),
        required_undefined: vec![("a".into(), wide(41))].into(),
        zod: Some("z.object({})".into()),
    };
    let objects = [
        ObjectExport {
            description: Field::Found { span: wide(1), value: Description::Text { blank: false } },
            parameters: Field::Found { span: wide(2), value: parameters },
            execute: Field::Found {
                span: wide(3),
                value: Execute::Function { params: Params::new(["{ x }", "context"]) },
            },
            wrapper: Wrapper::None,
            foreign: Foreign::default(),
        },
        ObjectExport {
            description: Field::Found { span: wide(4), value: Description::Other },
            parameters: Field::Found { span: wide(5), value: Parameters { zod: None, ..no_parameters() } },
            execute: Field::Found { span: wide(6), value: Execute::NotFunction },
            wrapper: Wrapper::AiSdk,
            foreign: Foreign::from_bits(1).unwrap(),
        },
        ObjectExport {
            description: Field::Found { span: wide(7), value: Description::Text { blank: true } },
            parameters: field(8),
            execute: Field::Found { span: wide(9), value: Execute::Other },
            wrapper: Wrapper::imported("define", long, "../lib/x"),
            foreign: Foreign::from_bits(6).unwrap(),
        },
        ObjectExport {
            description: field(10),
            parameters: Field::Missing,
            execute: field(11),
            wrapper: Wrapper::LangChain,
            foreign: Foreign::from_bits(2).unwrap(),
        },
    ];
    let mut kinds: Vec<DefaultExportKind> =
        objects.into_iter().map(|o| DefaultExportKind::Object(Box::new(o))).collect();
    kinds.extend([
        DefaultExportKind::Factory,
        DefaultExportKind::Literal { text: "null".into() },
        DefaultExportKind::OpencodeTool,
        DefaultExportKind::Unanalyzable { why: "a class".into() },
        DefaultExportKind::ExportsDefault,
        DefaultExportKind::Function,
    ]);
    let import = |kind, n: usize| Import {
        specifier: if n.is_multiple_of(2) { "node:fs".into() } else { long.into() },
        span: wide(n),
        kind,
        type_only: n.is_multiple_of(3),
        guarded: n % 4 == 1,
        deferred: n % 5 == 2,
    };
    let kinds_of_import =
        [ImportKind::Static, ImportKind::ReExport, ImportKind::Dynamic, ImportKind::Require, ImportKind::Jsx];
    let mut all: Vec<ModuleFacts> = kinds
        .into_iter()
        .enumerate()
        .map(|(n, kind)| {
            ModuleFacts::from(Collected {
                syntax_errors: vec![SyntaxError { span: wide(n), message: "expected `}`".into() }],
                not_analysed: (n % 2 == 0).then(|| NotAnalysed { span: wide(0), why: "nested too deep".into() }),
                default_export: Some(DefaultExport { statement: wide(100 + n), kind }),
                opencode_exports: vec!["search".into(), long.into()],
                named_tool_object: (n % 3 != 0).then(|| NamedToolObject {
                    name: long.into(),
                    commonjs: n % 3 == 1,
                    wrapper: if n % 2 == 0 { Wrapper::LangChain } else { Wrapper::Identity("defineTool".into()) },
                    foreign: Foreign::from_bits(n as u8 % 8).unwrap(),
                }),
                identity_exports: (0..n % 3).map(|i| if i == 0 { "default".into() } else { long.into() }).collect(),
                load_error: (n % 2 == 1)
                    .then(|| SyntaxError { span: wide(n), message: "`module` is not defined".into() }),
                registers_tools: n % 2 == 1,
                serves_tools: n % 3 == 2,
                imports: (0..6).map(|i| import(kinds_of_import[(n + i) % kinds_of_import.len()], i)).collect(),
                env_reads: ENVIRONMENTS.iter().map(|&via| EnvRead { name: "KEY".into(), span: wide(n), via }).collect(),
                context_env: vec!["TOKEN".into(), long.into()],
                execute: Some(ExecuteFacts {
                    span: wide(200),
                    fetch_without_signal: vec![wide(201), wide(u32::MAX as usize / 4)].into(),
                }),
                comments: vec![(wide(u32::MAX as usize / 4), " beeuni-lint: ignore[module-env]".into())],
            })
        })
        .collect();
    all.push(ModuleFacts::default());
    all
}

fn no_parameters() -> Parameters {
    Parameters {
        type_value: None,
        has_type: false,
        is_object_literal: false,
        properties: None,
        properties_span: None,
        required_undefined: Box::default(),
        zod: None,
    }
}

/// `value` (of a text `text_len` bytes long) encoded decodes to itself, no prefix of its bytes decodes at all, and
/// damaged bytes never panic.
fn holds<T: Codec + PartialEq + Debug>(what: &Path, value: &T, text_len: usize, seed: &mut u64) {
    let bytes = value.encode();
    assert_eq!(T::decode(&bytes, text_len).as_ref(), Some(value), "{}", what.display());
    for end in 0..bytes.len() {
        assert!(T::decode(&bytes[..end], text_len).is_none(), "{} decodes cut at {end}", what.display());
    }
    let mut damaged = bytes.clone();
    for _ in 0..64 {
        damaged.copy_from_slice(&bytes);
        for _ in 0..=(next(seed) % 3) {
            let at = (next(seed) % damaged.len() as u64) as usize;
            damaged[at] ^= (next(seed) % 255 + 1) as u8;
        }
        let _ = T::decode(&damaged, text_len);
        let _ = T::decode(&[&bytes[..], b"\0"].concat(), text_len);
    }
}

/// xorshift64: reproducible damage without a dependency.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn every_fixture_module_s_facts_come_back_equal() {
    let facts = fixture_facts();
    assert!(facts.len() > 300, "only {} fixture modules", facts.len());
    let mut seed = 0x9e37_79b9_7f4a_7c15;
    for (path, text_len, facts) in &facts {
        holds(path, facts, *text_len, &mut seed);
    }
    for (n, facts) in rich_facts().iter().enumerate() {
        // Of no text: their spans are bounded only by what a span can hold.
        holds(Path::new(&format!("rich facts {n}")), facts, usize::MAX, &mut seed);
    }
}

#[test]
fn every_fixture_manifest_s_tree_comes_back_equal() {
    let documents = fixture_documents();
    assert!(documents.len() > 150, "only {} fixture manifests", documents.len());
    let mut seed = 0x2545_f491_4f6c_dd1d;
    for (path, text_len, document) in &documents {
        holds(path, document, *text_len, &mut seed);
    }
}

/// The root manifest of a large project is parsed in parts and joined: its tree must come back too.
#[test]
fn a_long_manifest_parsed_in_parts_comes_back_equal() {
    let mut text = String::from("defaults: &d\n  timeout: 5\ntools:\n");
    for n in 0..2000 {
        text.push_str(&format!("  tool_{n}: tools/t{n}.ts # {n}\n"));
    }
    text.push_str("agents:\n");
    for n in 0..300 {
        text.push_str(&format!("  agent_{n}:\n    <<: *d\n    tools: [tool_{n}, \"q\"]\n    model: |\n      m{n}\n"));
    }
    assert!(text.len() > crate::yaml::split::MIN_SPLIT);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let document = crate::yaml::split::parse_split(&text, |_, _| {}, || Some(&pool)).unwrap();
    assert_eq!(Document::decode(&document.encode(), text.len()), Some(document));
}

#[test]
fn a_tree_that_refers_forward_or_through_an_alias_chain_does_not_decode() {
    use crate::yaml::scalar::ScalarKind;
    use crate::yaml::tree::{Node, Style, Value};
    let node = |value| Node { value, span: Span::new(0, 1), flow: false };
    let scalar = || node(Value::Scalar { text: "x".into(), kind: ScalarKind::Str, style: Style::Plain });
    let decodes =
        |nodes: Vec<Node>, root| Document::decode(&Document { nodes, root, ..Document::default() }.encode(), 1);
    assert!(decodes(vec![scalar(), node(Value::Alias(0)), node(Value::Seq(vec![0, 1]))], Some(2)).is_some());
    assert!(decodes(vec![scalar(), node(Value::Seq(vec![0]))], Some(2)).is_none(), "a root past the nodes");
    assert!(decodes(vec![node(Value::Seq(vec![1])), scalar()], Some(0)).is_none(), "a child after its parent");
    assert!(decodes(vec![node(Value::Seq(vec![0]))], Some(0)).is_none(), "a list that holds itself");
    assert!(decodes(vec![node(Value::Alias(0))], None).is_none(), "an alias of itself");
    let chain = vec![scalar(), node(Value::Alias(0)), node(Value::Alias(1))];
    assert!(decodes(chain, None).is_none(), "an alias of an alias");
}

#[test]
fn numbers_take_the_fewest_bytes_and_overlong_ones_do_not_decode() {
    for (n, len) in [(0, 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3), (usize::MAX, 10)] {
        let mut w = Writer::default();
        w.number(n);
        assert_eq!(w.structure.len(), len, "{n}");
        let bytes = w.finish();
        let mut r = Reader::new(&bytes, usize::MAX).unwrap();
        assert_eq!(r.number(), Some(n));
        assert_eq!(r.end(()), Some(()));
    }
    let eleven = [&[0u8][..], &[0xff; 10], &[0]].concat();
    assert_eq!(Reader::new(&eleven, usize::MAX).unwrap().number(), None);
    let too_big = [&[0u8][..], &[0xff; 9], &[2]].concat();
    assert_eq!(Reader::new(&too_big, usize::MAX).unwrap().number(), None);
}

#[test]
fn a_span_that_ends_past_4_gib_does_not_decode() {
    let decoded = |start: usize, len: usize| {
        let mut w = Writer::default();
        w.number(start);
        w.number(len);
        let bytes = w.finish();
        Reader::new(&bytes, usize::MAX).unwrap().span()
    };
    let last = u32::MAX as usize;
    assert_eq!(decoded(last - 1, 1), Some(Span::new(last - 1, last)));
    assert_eq!(decoded(last, 1), None, "not cut to 4 GiB");
}

#[test]
fn a_string_cut_inside_a_character_or_a_list_longer_than_its_bytes_does_not_decode() {
    let mut w = Writer::default();
    w.str("é");
    let mut bytes = w.finish();
    // The text part "é" (2 bytes), with the string's length changed from 2 to 1.
    *bytes.last_mut().unwrap() = 1;
    assert_eq!(Reader::new(&bytes, usize::MAX).unwrap().str(), None);
    let count = [0, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3];
    assert!(
        Reader::new(&count, usize::MAX).unwrap().list(1, Reader::byte).is_none(),
        "a count past the bytes allocates nothing"
    );
    assert!(Reader::new(&[1, 0xc3], usize::MAX).is_none(), "the text part is not UTF-8");
}

#[test]
fn a_count_more_than_its_bytes_can_hold_does_not_decode() {
    // A list of 5 items of at least 2 bytes each, with 9 bytes left: too few for them, enough for 1-byte items.
    let entry = [&[0u8, 5][..], &[0; 9]].concat();
    assert!(Reader::new(&entry, usize::MAX).unwrap().list(2, Reader::span).is_none());
    assert!(Reader::new(&entry, usize::MAX).unwrap().list(1, Reader::byte).is_some());
    // Facts that claim more imports than their bytes hold (an import takes at least 4): no flags, then the count.
    let claims = |count: usize| {
        let mut w = Writer::default();
        w.byte(0);
        w.number(count);
        let mut entry = w.finish();
        entry.extend(std::iter::repeat_n(0, 4 * 1000 - 1));
        ModuleFacts::decode(&entry, usize::MAX)
    };
    assert!(claims(1000).is_none(), "1,000 imports in 3,999 bytes");
    assert!(claims(usize::MAX >> 1).is_none(), "a count no memory could hold");
}

#[test]
fn a_span_past_the_end_of_its_text_does_not_decode() {
    let facts = ModuleFacts::from(Collected {
        syntax_errors: vec![SyntaxError { span: Span::new(3, 7), message: "m".into() }],
        ..Collected::default()
    });
    let bytes = facts.encode();
    assert_eq!(ModuleFacts::decode(&bytes, 7), Some(facts));
    assert!(ModuleFacts::decode(&bytes, 6).is_none());
    let text = "tools:\n  a: tools/a.ts # c";
    let document = crate::yaml::parse(text).unwrap();
    let bytes = document.encode();
    assert_eq!(Document::decode(&bytes, text.len()), Some(document));
    assert!(Document::decode(&bytes, text.len() - 1).is_none(), "the comment ends the text");
}

#[test]
fn the_length_a_writer_announces_is_the_length_it_writes() {
    // An entry's head gives its facts' length before they are written (store::entry_into): a text part whose
    // length number changes size at these edges must be announced with that size.
    for len in [0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152] {
        let mut w = Writer::default();
        w.str(&"x".repeat(len));
        w.number(len);
        let mut into = vec![7];
        w.finish_into(&mut into);
        assert_eq!(w.encoded_len(), into.len() - 1, "a text of {len} bytes");
        assert_eq!(w.encoded_len(), w.finish().len(), "a text of {len} bytes");
    }
}
