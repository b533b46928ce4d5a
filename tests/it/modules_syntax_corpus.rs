//! `module-syntax` over a corpus of our own snippets (`tests/syntax/`): no
//! valid one is a syntax error, and every invalid one is, for each extension it
//! lists (the extension decides TypeScript or JavaScript, module or CommonJS,
//! and JSX).

use beeuni_lint::modules::analyse::analyse;
use oxc_allocator::Allocator;

/// The snippets of a corpus file: (extensions, code, line of the header).
fn snippets(text: &str) -> Vec<(Vec<&str>, String, usize)> {
    let mut out: Vec<(Vec<&str>, String, usize)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match line.strip_prefix("#### ") {
            Some(extensions) => out.push((extensions.split_whitespace().collect(), String::new(), index + 1)),
            None if out.is_empty() => {} // the file's own comment
            None => {
                let code = &mut out.last_mut().expect("a header came first").1;
                code.push_str(line);
                code.push('\n');
            }
        }
    }
    out
}

fn corpus(name: &str) -> Vec<(String, String, usize)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syntax/");
    let text = std::fs::read_to_string(format!("{path}{name}")).unwrap();
    let mut cases = Vec::new();
    for (extensions, code, line) in snippets(&text) {
        assert!(!extensions.is_empty() && !code.trim().is_empty(), "{name}:{line}: empty snippet");
        cases.extend(extensions.into_iter().map(|ext| (format!("snippet.{ext}"), code.clone(), line)));
    }
    cases
}

#[test]
fn no_valid_snippet_is_a_syntax_error() {
    let mut allocator = Allocator::default();
    let cases = corpus("valid.txt");
    assert!(cases.len() >= 150, "{} cases", cases.len());
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(path, code, line)| {
            let facts = analyse(path, code, &mut allocator);
            let error = facts.syntax_errors().first()?;
            Some(format!("valid.txt:{line} as {path}: {}", error.message))
        })
        .collect();
    assert!(wrong.is_empty(), "{} false rejects:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn every_invalid_snippet_is_a_syntax_error() {
    let mut allocator = Allocator::default();
    let cases = corpus("invalid.txt");
    assert!(cases.len() >= 250, "{} cases", cases.len());
    let missed: Vec<String> = cases
        .iter()
        .filter(|(path, code, _)| analyse(path, code, &mut allocator).syntax_errors().is_empty())
        .map(|(path, _, line)| format!("invalid.txt:{line} as {path}"))
        .collect();
    assert!(missed.is_empty(), "{} false accepts:\n{}", missed.len(), missed.join("\n"));
}
