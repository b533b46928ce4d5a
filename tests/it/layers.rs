//! The layers of `src/` run one way: a top-level module uses only modules of layers below its own, as the list
//! under "Layers" at the top of `src/lib.rs` orders them. This test reads every library file, finds each path
//! into another top-level module (`crate::x…`, a `use crate::{…}` group, `super::…` climbing out of its own
//! module) outside test code, and names the file and line of every edge that points up or sideways. A second test
//! holds the rules to the model: no rule reaches the disk, the environment or git.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[test]
fn every_edge_between_top_level_modules_points_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let layers = documented_layers(&lib);
    let tops = top_level_modules(&src);
    let listed: BTreeSet<&str> = layers.keys().map(String::as_str).collect();
    let declared: BTreeSet<&str> = tops.iter().map(String::as_str).collect();
    assert_eq!(listed, declared, "the layers in src/lib.rs must list every top-level module of src/lib.rs once");

    let mut upward = Vec::new();
    for file in library_files(&src) {
        let relative = file.strip_prefix(&src).unwrap();
        let top = top_of(relative);
        let code = without_test_items(&blank_comments_and_literals(&std::fs::read_to_string(&file).unwrap()));
        for (line, target) in edges(&code, relative) {
            if target == top {
                continue;
            }
            let to = layers.get(&target).copied().unwrap_or(usize::MAX);
            if to >= layers[&top] {
                let target =
                    if to == usize::MAX { format!("the crate root's `{target}`") } else { format!("`{target}`") };
                upward.push(format!("src/{}:{line}: `{top}` uses {target}", relative.display()));
            }
        }
    }
    assert!(upward.is_empty(), "{} edges point up or sideways:\n{}", upward.len(), upward.join("\n"));
}

/// What would let a rule read something other than the model: the file system, processes, the environment, the
/// network, a checkout or git, the project's folder.
const OUTSIDE_THE_MODEL: &[&str] = &[
    "std::fs",
    "std::process",
    "std::env",
    "std::net",
    "Checkout",
    ".checkout",
    "checkout.",
    "GitRepo",
    "repo::git",
    "repo::fs::read",
    "project.root",
];

#[test]
fn rules_read_only_the_model() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut reaching = Vec::new();
    for file in library_files(&src).iter().filter(|file| file.starts_with(src.join("rules"))) {
        let code = without_test_items(&blank_comments_and_literals(&std::fs::read_to_string(file).unwrap()));
        for (number, line) in code.lines().enumerate() {
            for outside in OUTSIDE_THE_MODEL.iter().filter(|outside| names(line, outside)) {
                let relative = file.strip_prefix(&src).unwrap().display();
                reaching.push(format!("src/{relative}:{}: `{outside}`", number + 1));
            }
        }
    }
    assert!(reaching.is_empty(), "rules reach past the model:\n{}", reaching.join("\n"));
}

/// Does `line` name `path`, where it starts or ends a word (`project.root` is not `project.root_file`)?
fn names(line: &str, path: &str) -> bool {
    let (first, last) = (path.chars().next().unwrap(), path.chars().next_back().unwrap());
    line.match_indices(path).any(|(at, _)| {
        let before = !is_ident(first) || line[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = !is_ident(last) || line[at + path.len()..].chars().next().is_none_or(|c| !is_ident(c));
        before && after
    })
}

/// The numbered list under `//! ## Layers` in `src/lib.rs`: each module's layer (1 is the lowest).
fn documented_layers(lib: &str) -> BTreeMap<String, usize> {
    let doc = lib.lines().map_while(|line| line.strip_prefix("//!")).map(str::trim);
    let section = doc.skip_while(|line| *line != "## Layers").skip(1).take_while(|line| !line.starts_with("## "));
    let mut layers = BTreeMap::new();
    for line in section {
        let Some((number, rest)) = line.split_once(". ") else { continue };
        let Ok(layer) = number.parse::<usize>() else { continue };
        let names = rest.split(':').next().unwrap();
        for name in names.split(',').map(|name| name.trim().trim_matches('`')) {
            assert!(layers.insert(name.to_string(), layer).is_none(), "`{name}` is listed twice in src/lib.rs");
        }
    }
    assert!(!layers.is_empty(), "src/lib.rs has no `## Layers` list");
    layers
}

/// The modules `src/lib.rs` declares (`pub mod x;`, `mod x;`).
fn top_level_modules(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    module_declarations(&without_test_items(&blank_comments_and_literals(&lib)))
}

fn module_declarations(code: &str) -> Vec<String> {
    let words: Vec<&str> = code.split(|c: char| !is_ident(c) && c != ';').filter(|w| !w.is_empty()).collect();
    words
        .windows(2)
        .filter(|pair| pair[0] == "mod")
        .filter_map(|pair| pair[1].strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// Every file of the library crate: `src/**/*.rs` less the binary's (`main.rs` and the modules it declares) and
/// less the files of modules declared only for tests.
fn library_files(src: &Path) -> Vec<PathBuf> {
    let main = std::fs::read_to_string(src.join("main.rs")).unwrap();
    let mut skipped: Vec<PathBuf> = vec![src.join("main.rs"), src.join("lib.rs")];
    skipped.extend(module_declarations(&blank_comments_and_literals(&main)).iter().map(|name| src.join(name)));
    let mut files = Vec::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    for file in &files {
        let text = blank_comments_and_literals(&std::fs::read_to_string(file).unwrap());
        let own = module_folder(file);
        skipped.extend(test_module_declarations(&text).into_iter().map(|name| own.join(name)));
    }
    files.retain(|file| {
        !skipped.iter().any(|skip| file == skip || file.starts_with(skip) || *file == skip.with_extension("rs"))
    });
    files.sort();
    files
}

/// The folder holding the files of `file`'s submodules.
fn module_folder(file: &Path) -> PathBuf {
    let name = file.file_stem().unwrap();
    if name == "mod" || name == "lib" || name == "main" {
        file.parent().unwrap().to_path_buf()
    } else {
        file.with_extension("")
    }
}

fn top_of(relative: &Path) -> String {
    let first = relative.components().next().unwrap().as_os_str().to_str().unwrap();
    first.strip_suffix(".rs").unwrap_or(first).to_string()
}

/// How deep `relative`'s module sits below the crate root (`x.rs` and `x/mod.rs` are 1).
fn file_depth(relative: &Path) -> usize {
    let parts = relative.components().count();
    if relative.file_stem().unwrap() == "mod" { parts - 1 } else { parts }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` with every comment, string, byte string and character literal replaced by spaces (lines kept), so
/// what looks like a path inside one is not read as code.
fn blank_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, from: &[char]| {
        out.extend(from.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
    };
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let end = if rest.starts_with(&['/', '/']) {
            rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            block_comment_end(rest)
        } else if let Some(end) = raw_string_end(rest, i == 0 || !is_ident(chars[i - 1])) {
            end
        } else if rest[0] == '"' {
            quoted_end(rest, '"')
        } else if rest[0] == '\'' {
            // A character literal closes within a few characters; a lifetime or a label does not.
            match rest.get(1..).and_then(|r| r.iter().take(11).position(|&c| c == '\'')) {
                Some(close) if rest[1] == '\\' || close == 1 => quoted_end(rest, '\''),
                _ => 1,
            }
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    out
}

fn block_comment_end(rest: &[char]) -> usize {
    let (mut depth, mut i) = (0, 0);
    while i + 1 < rest.len() {
        match (rest[i], rest[i + 1]) {
            ('/', '*') => (depth, i) = (depth + 1, i + 2),
            ('*', '/') => {
                (depth, i) = (depth - 1, i + 2);
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    rest.len()
}

/// The length of the raw string (`r"…"`, `r#"…"#`, `br"…"`) `rest` starts with, if it starts one.
fn raw_string_end(rest: &[char], at_word_start: bool) -> Option<usize> {
    if !at_word_start {
        return None;
    }
    let after_prefix = match rest {
        ['r', ..] => 1,
        ['b' | 'c', 'r', ..] => 2,
        _ => return None,
    };
    let hashes = rest[after_prefix..].iter().take_while(|&&c| c == '#').count();
    if rest.get(after_prefix + hashes) != Some(&'"') {
        return None;
    }
    let body = after_prefix + hashes + 1;
    let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
    let close = rest[body..].windows(closing.len()).position(|w| w == closing.as_slice());
    Some(close.map_or(rest.len(), |at| body + at + closing.len()))
}

fn quoted_end(rest: &[char], quote: char) -> usize {
    let mut i = 1;
    while i < rest.len() {
        match rest[i] {
            '\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    rest.len()
}

/// Names of the modules `code` declares for tests only (`#[cfg(test)] mod tests;`).
fn test_module_declarations(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("#[cfg(") {
        if !is_test_only(&code[at..]) {
            continue;
        }
        let item = code[at..].split_once(']').unwrap().1.trim_start();
        let item = item.strip_prefix("pub ").unwrap_or(item).trim_start();
        if let Some(name) = item.strip_prefix("mod ").and_then(|rest| rest.split_once(';')).map(|(name, _)| name.trim())
            && name.chars().all(is_ident)
        {
            names.push(name.to_string());
        }
    }
    names
}

/// Does the attribute at the start of `attribute` keep its item to test builds (`cfg(test)`, `cfg(all(test, …))`)?
fn is_test_only(attribute: &str) -> bool {
    let squeezed: String = attribute.chars().take(40).filter(|c| !c.is_whitespace()).collect();
    squeezed.starts_with("#[cfg(test)]") || squeezed.starts_with("#[cfg(all(test,")
}

/// `code` with every item behind a test-only `cfg` blanked: up to its `;` or to the end of its first `{…}` block.
fn without_test_items(code: &str) -> String {
    let mut bytes = code.as_bytes().to_vec();
    let starts: Vec<usize> =
        code.match_indices("#[cfg(").map(|(at, _)| at).filter(|&at| is_test_only(&code[at..])).collect();
    for start in starts {
        let mut depth = 0usize;
        let mut end = code.len();
        let attribute_end = start + code[start..].find(']').unwrap() + 1;
        for (offset, byte) in code[attribute_end..].bytes().enumerate() {
            match byte {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' | b')' | b']' => {
                    depth -= 1;
                    if depth == 0 && byte == b'}' && !code[attribute_end..].trim_start().starts_with("use ") {
                        end = attribute_end + offset + 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end = attribute_end + offset + 1;
                    break;
                }
                _ => {}
            }
        }
        for byte in &mut bytes[start..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    String::from_utf8(bytes).unwrap()
}

/// Every path in `code` that names a top-level module, with its line: `crate::x`, each name of `crate::{x, y::z}`,
/// and `super::…::x` climbing to the crate root from the file `relative` (counting inline modules it sits in).
fn edges(code: &str, relative: &Path) -> Vec<(usize, String)> {
    let inline = inline_modules(code);
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while at < code.len() {
        let word_start = at == 0 || !is_ident(bytes[at - 1] as char) && bytes[at - 1] != b'$';
        let rest = &code[at..];
        let climbed = if !word_start {
            None
        } else if let Some(after) = rest.strip_prefix("crate") {
            Some(after)
        } else if rest.starts_with("super") {
            let depth =
                file_depth(relative) + inline.iter().filter(|(open, close)| (*open..*close).contains(&at)).count();
            let supers = rest.split("::").take_while(|part| part.trim() == "super").count();
            // What follows the last `super`: its `::`, then the name it reaches.
            let skipped: usize = rest.split("::").take(supers).map(|part| part.len() + 2).sum();
            (supers == depth).then(|| &rest[skipped - 2..])
        } else {
            None
        };
        let Some(after) = climbed else {
            at += rest.chars().next().unwrap().len_utf8();
            continue;
        };
        let line = code[..at].matches('\n').count() + 1;
        if let Some(path) = after.trim_start().strip_prefix("::") {
            let path = path.trim_start();
            if let Some(group) = path.strip_prefix('{') {
                found.extend(group_heads(group).into_iter().map(|head| (line, head)));
            } else {
                let head: String = path.chars().take_while(|&c| is_ident(c)).collect();
                if !head.is_empty() && head != "self" {
                    found.push((line, head));
                }
            }
        }
        at += 5;
    }
    found
}

/// The first name of each path in a `{…}` group (`a, b::c, d::{e}}` gives `a`, `b`, `d`).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expecting = true;
    let mut chars = group.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => expecting = true,
            c if expecting && is_ident(c) => {
                let head: String = group[i..].chars().take_while(|&c| is_ident(c)).collect();
                for _ in 1..head.chars().count() {
                    chars.next();
                }
                if head != "self" {
                    heads.push(head);
                }
                expecting = false;
            }
            _ => {}
        }
    }
    heads
}

/// The byte ranges of the inline modules (`mod x { … }`) of `code`.
fn inline_modules(code: &str) -> Vec<(usize, usize)> {
    let bytes = code.as_bytes();
    let mut modules = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if at > 0 && is_ident(bytes[at - 1] as char) {
            continue;
        }
        let after = &code[at + 4..];
        let name_end = after.find(|c: char| !is_ident(c)).unwrap_or(after.len());
        if name_end == 0 || !after[name_end..].trim_start().starts_with('{') {
            continue;
        }
        let open = at + 4 + name_end + after[name_end..].find('{').unwrap();
        let mut depth = 0;
        for (offset, byte) in code[open..].bytes().enumerate() {
            match byte {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        modules.push((open, open + offset));
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    modules
}
