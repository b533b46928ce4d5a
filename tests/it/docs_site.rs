//! The documentation site: the book in `docs/` (mdBook, built by `.ci/docs`) read as mdBook reads it.
//!
//! - A lint of the Markdown: no code span that a backslash ends early (in a span a backslash is literal, so
//!   `` `did you mean \`x\`?` `` is the span `did you mean \` followed by prose), and no bare `<word>` outside a
//!   code span or block (mdBook passes it through as an HTML tag, and the browser hides it and what follows).
//! - Every link and image of a page stays inside the book and resolves: its file is a chapter of `SUMMARY.md` (or
//!   another file of `docs/`: an image must exist), its `#anchor` a heading id of that page as mdBook 0.5 makes
//!   them (lower case, whitespace as `-`, everything but letters, digits, `-` and `_` dropped, `-1`, `-2` on
//!   repeats). A link to the site's own address is checked the same way, and one to a file of the repository on
//!   GitHub names a file of it.

use beeuni_lint::rules;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Component, Path};

fn docs() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/docs"))
}

/// Every file of the book (paths relative to `docs/`, with `/`), and the Markdown ones' text.
fn book() -> BTreeMap<String, Option<String>> {
    fn walk(dir: &Path, files: &mut BTreeMap<String, Option<String>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, files);
                continue;
            }
            let name = path.strip_prefix(docs()).unwrap().to_string_lossy().replace('\\', "/");
            let text = name.ends_with(".md").then(|| std::fs::read_to_string(&path).unwrap());
            files.insert(name, text);
        }
    }
    let mut files = BTreeMap::new();
    walk(docs(), &mut files);
    files
}

/// The prose of a page (HTML comments blanked, line breaks kept so that a byte's line is still its line; fenced
/// code blocks left out) cut into blocks, each with its first line: a span or a link never crosses a blank line,
/// a heading, a list item or a table row.
fn blocks(source: &str) -> Vec<(usize, String)> {
    let mut text = source.to_string();
    while let Some(start) = text.find("<!--") {
        let end = text[start..].find("-->").map_or(text.len(), |end| start + end + 3);
        let blank: String = text[start..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        text.replace_range(start..end, &blank);
    }
    let mut blocks: Vec<(usize, String)> = Vec::new();
    let mut fence: Option<String> = None;
    let mut open = false;
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        match &fence {
            Some(opening) => {
                if marker.len() >= opening.len() && marker.starts_with(&opening[..1]) && trimmed.len() == marker.len() {
                    fence = None;
                }
                continue;
            }
            // A backtick fence's info string holds no backtick (else the line is a paragraph's code span).
            None if marker.len() >= 3
                && marker.chars().all(|c| c == marker.chars().next().unwrap())
                && !(marker.starts_with('`') && trimmed[marker.len()..].contains('`')) =>
            {
                fence = Some(marker);
                open = false;
                continue;
            }
            None => {}
        }
        let starts_block = trimmed.is_empty()
            || ["#", "|", "- ", "* ", "+ ", "> "].iter().any(|start| trimmed.starts_with(start))
            || trimmed.split_once(". ").is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if trimmed.is_empty() {
            open = false;
        } else if open && !starts_block {
            let last = blocks.last_mut().unwrap();
            last.1.push('\n');
            last.1.push_str(line);
        } else {
            blocks.push((number + 1, line.to_string()));
            // A heading is one line; what follows it starts a paragraph even without a blank line between.
            open = !trimmed.starts_with('#');
        }
    }
    blocks
}

/// A block with its code spans blanked (as CommonMark finds them: a run of backticks up to the next run of the
/// same length; a backslash escapes a backtick only outside a span), and the offsets of the spans a backslash
/// ends.
fn prose(block: &str) -> (String, Vec<usize>) {
    let bytes = block.as_bytes();
    let mut out = bytes.to_vec();
    let mut early = Vec::new();
    let run = |at: usize| bytes[at..].iter().take_while(|&&b| b == b'`').count();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) {
            i += 2;
        } else if bytes[i] == b'`' {
            let length = run(i);
            let mut j = i + length;
            let close = loop {
                match bytes[j.min(bytes.len())..].iter().position(|&b| b == b'`') {
                    None => break None,
                    Some(at) if run(j + at) == length => break Some(j + at),
                    Some(at) => j += at + run(j + at),
                }
            };
            let Some(close) = close else {
                i += length;
                continue;
            };
            if bytes[close - 1] == b'\\' {
                early.push(close);
            }
            for byte in &mut out[i..close + length] {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
            i = close + length;
        } else {
            i += 1;
        }
    }
    (String::from_utf8(out).unwrap(), early)
}

/// The HTML tags the pages may use on purpose.
const HTML_TAGS: &[&str] = &["a", "br", "details", "img", "kbd", "p", "picture", "source", "summary", "sub", "sup"];

/// `<name …>` or `</name>` in prose that CommonMark reads as an HTML tag, when `name` is not one of [`HTML_TAGS`].
fn bare_tags(prose: &str) -> Vec<(usize, String)> {
    let bytes = prose.as_bytes();
    let mut found = Vec::new();
    for (at, _) in prose.match_indices('<') {
        if at > 0 && bytes[at - 1] == b'\\' {
            continue;
        }
        let start = at + 1 + usize::from(bytes.get(at + 1) == Some(&b'/'));
        let name: String =
            prose[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect::<String>();
        let after = bytes.get(start + name.len()).copied();
        let tag_like = name.starts_with(|c: char| c.is_ascii_alphabetic())
            && matches!(after, Some(b'>' | b'/' | b' ' | b'\n'))
            && prose[start..].contains('>');
        if tag_like && !HTML_TAGS.contains(&name.to_ascii_lowercase().as_str()) {
            let end = prose[at..].find('>').map_or(prose.len(), |end| at + end + 1);
            found.push((at, prose[at..end].to_string()));
        }
    }
    found
}

/// The destinations of the inline links and images of a block's prose, reference definitions and `src="…"`.
fn links(prose: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (opening, stop) in [("](", &[')', ' ', '\n'][..]), ("src=\"", &['"'][..])] {
        for (at, _) in prose.match_indices(opening) {
            let start = at + opening.len();
            let end = prose[start..].find(stop).map_or(prose.len(), |end| start + end);
            found.push((start, prose[start..end].to_string()));
        }
    }
    let mut offset = 0;
    for line in prose.split_inclusive('\n') {
        if let Some((_, rest)) = line.trim_start().strip_prefix('[').and_then(|rest| rest.split_once("]:")) {
            found.push((offset, rest.split_whitespace().next().unwrap_or("").to_string()));
        }
        offset += line.len();
    }
    found
}

/// mdBook 0.5's id of a heading whose text is `content` (mdbook-html's `id_from_content`).
fn heading_id(content: &str) -> String {
    content
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// The text mdBook renders of a heading's Markdown: code spans as their content; emphasis marks and link targets
/// dropped from the rest (book.toml turns smart punctuation off, so `--` stays two hyphens).
fn heading_text(markdown: &str) -> String {
    let mut text = String::new();
    for (index, part) in markdown.split('`').enumerate() {
        if index % 2 == 1 {
            text.push_str(part);
            continue;
        }
        let mut rest = part.to_string();
        while let Some(at) = rest.find("](") {
            let end = rest[at..].find(')').map_or(rest.len(), |end| at + end + 1);
            rest.replace_range(at..end, "");
        }
        text.extend(rest.chars().filter(|c| !matches!(c, '*' | '[' | ']')));
    }
    text
}

/// The ids of a page's headings, in order, as mdBook gives them (an explicit `{#id}` kept).
fn heading_ids(source: &str) -> BTreeSet<String> {
    let mut used = HashSet::new();
    let mut ids = BTreeSet::new();
    for (_, block) in blocks(source) {
        let Some(heading) = block.strip_prefix('#').map(|heading| heading.trim_start_matches('#')) else { continue };
        // `#tag` is a paragraph: a heading's marks are followed by a space or end the line.
        if !(heading.is_empty() || heading.starts_with(' ')) {
            continue;
        }
        let heading = heading.trim().trim_end_matches('#').trim();
        let id = match heading.rsplit_once("{#") {
            Some((_, explicit)) if heading.ends_with('}') => explicit.trim_end_matches('}').to_string(),
            _ => heading_id(&heading_text(heading)),
        };
        let mut unique = id.clone();
        let mut counter = 0;
        while !used.insert(unique.clone()) {
            counter += 1;
            unique = format!("{id}-{counter}");
        }
        ids.insert(unique);
    }
    ids
}

/// `base/target` inside the book with `.` and `..` resolved; `None` when it climbs out of `docs/`.
fn resolve(page: &str, target: &str) -> Option<String> {
    let base = Path::new(page).parent().unwrap_or(Path::new(""));
    let mut parts: Vec<String> = Vec::new();
    for component in base.join(target).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

/// The chapters `SUMMARY.md` lists (the pages mdBook renders).
fn chapters(summary: &str) -> BTreeSet<String> {
    let (prose, _) = prose(summary);
    links(&prose).into_iter().map(|(_, target)| target).filter(|target| !target.is_empty()).collect()
}

/// Why `target`, linked from `page`, does not resolve in the book, if it does not.
fn dead(book: &BTreeMap<String, Option<String>>, page: &str, target: &str) -> Option<String> {
    let repository = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/");
    let site = format!("{}/", rules::SITE_URL);
    if let Some(file) = target.strip_prefix(repository) {
        let file = file.split('#').next().unwrap_or_default();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        return (!path.exists()).then(|| format!("{file} is not a file of the repository"));
    }
    let (local, page) = match target.strip_prefix(&site) {
        Some(on_site) => (on_site.replace(".html", ".md"), ""),
        None if target.contains(':') => return None,
        None => (target.to_string(), page),
    };
    let (path, fragment) = local.split_once('#').map_or((local.as_str(), None), |(path, f)| (path, Some(f)));
    let file = if path.is_empty() { Some(page.to_string()) } else { resolve(page, path) };
    let Some(file) = file else { return Some("it leaves the book (docs/)".into()) };
    let Some(text) = book.get(&file) else { return Some(format!("docs/{file} does not exist")) };
    let summary = book["SUMMARY.md"].as_deref().unwrap_or_default();
    if file.ends_with(".md") && file != "SUMMARY.md" && !chapters(summary).contains(&file) {
        return Some(format!("docs/{file} is no chapter of SUMMARY.md, so mdBook renders no page of it"));
    }
    match (fragment, text) {
        (Some(fragment), Some(text)) if !heading_ids(text).contains(fragment) => {
            Some(format!("docs/{file} has no heading #{fragment}"))
        }
        _ => None,
    }
}

/// Why `url`, an address on the site, is no page of it (or its anchor no heading of the page), if it is not.
pub fn dead_link(url: &str) -> Option<String> {
    dead(&book(), "", url)
}

/// Every problem of the book's pages, `file:line: what`.
fn problems(book: &BTreeMap<String, Option<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for (page, text) in book {
        let Some(text) = text else { continue };
        for (first, block) in blocks(text) {
            let line = |offset: usize| first + block[..offset].matches('\n').count();
            let (prose, early) = prose(&block);
            for at in early {
                found.push(format!(
                    "docs/{page}:{}: a backslash ends this code span early (a backslash is literal in a span): \
                     write a span holding backticks with a longer run, as in ``did you mean `x`?``",
                    line(at)
                ));
            }
            for (at, tag) in bare_tags(&prose) {
                found.push(format!(
                    "docs/{page}:{}: `{tag}` outside a code span is read as an HTML tag and hidden: put it in backticks",
                    line(at)
                ));
            }
            for (at, target) in links(&prose) {
                if let Some(why) =
                    (page != "SUMMARY.md" || !target.is_empty()).then(|| dead(book, page, &target)).flatten()
                {
                    found.push(format!("docs/{page}:{}: link `{target}`: {why}", line(at)));
                }
            }
        }
    }
    found
}

#[test]
fn the_book_has_no_broken_span_no_bare_tag_and_no_dead_link() {
    let book = book();
    assert!(book.contains_key("SUMMARY.md") && book.len() > 80, "{:?}", book.keys());
    let found = problems(&book);
    assert!(found.is_empty(), "{} problems in docs/:\n{}", found.len(), found.join("\n"));
}

#[test]
fn every_chapter_of_the_summary_exists() {
    let book = book();
    let listed = chapters(book["SUMMARY.md"].as_deref().unwrap());
    let missing: Vec<&String> = listed.iter().filter(|chapter| !book.contains_key(*chapter)).collect();
    assert!(missing.is_empty(), "SUMMARY.md lists pages docs/ lacks: {missing:?}");
}

/// The site's address is written once (`rules::SITE_URL`); `book.toml`'s `site-url` (the 404 page's base) is its
/// path.
#[test]
fn the_book_is_configured_for_the_site_address() {
    let config = std::fs::read_to_string(docs().join("book.toml")).unwrap();
    let path = rules::SITE_URL.splitn(4, '/').nth(3).unwrap_or_default();
    assert!(config.contains(&format!("site-url = \"/{path}/\"\n")), "book.toml:\n{config}");
}

#[test]
fn the_lint_finds_what_it_is_for() {
    let lint = |source: &str| {
        let mut book = BTreeMap::from([
            ("SUMMARY.md".to_string(), Some("- [X](x.md)\n- [Y](sub/y.md)\n- [Draft]()\n".to_string())),
            ("sub/y.md".to_string(), Some("# Why `y`?\n\n## Why `y`?\nText {#not}\n".to_string())),
            ("img.png".to_string(), None),
        ]);
        book.insert("x.md".to_string(), Some(source.to_string()));
        problems(&book)
    };
    // The scrambled paragraphs of issue 37, and how they are written instead.
    assert_eq!(lint("a\n(`did you mean \\`x\\`?`) b\n").len(), 1);
    let early = lint("x (`pass a\nfolder, e.g. \\`lint a\\``) y\n");
    assert!(early.len() == 1 && early[0].starts_with("docs/x.md:2: a backslash"), "{early:?}");
    assert!(lint("(``did you mean `x`?``) and \\`escaped\\` prose, `a\\b` and `` \\ ``\n").is_empty());
    let tag = lint("exits with \"no beeuni.yaml at <root>\"\n");
    assert!(tag.len() == 1 && tag[0].starts_with("docs/x.md:1: `<root>` outside"), "{tag:?}");
    let fine =
        "`<root>`, <https://e.x>, a < b, <details><summary>s</summary></details>\n\n```\n<root>\n```\n<!-- <x> -->\n";
    assert!(lint(fine).is_empty(), "{:?}", lint(fine));
    // Links: inside the book, to chapters only, anchors as mdBook makes them.
    let fine = "[y](sub/y.md#why-y) [y](sub/y.md#why-y-1) ![i](img.png) [e](https://e.x) [x](#)\n\n[r]: sub/y.md\n";
    assert!(lint(fine).len() == 1 && lint(fine)[0].contains("docs/x.md has no heading #"), "{:?}", lint(fine));
    let dead = lint("[c](../CONTRIBUTING.md) [z](z.md) [n](sub/y.md#not) ![m](sub/img.png)\n\n[r]: nope.md\n");
    assert_eq!(dead.len(), 5, "{dead:?}");
    assert!(dead[0].contains("leaves the book") && dead[1].contains("docs/z.md does not exist"), "{dead:?}");
    assert!(dead[3].ends_with("link `sub/img.png`: docs/sub/img.png does not exist"), "{dead:?}");
    assert!(dead[4].starts_with("docs/x.md:3: link `nope.md`"), "{dead:?}");
    let (site, repository) = (rules::SITE_URL, env!("CARGO_PKG_REPOSITORY"));
    let links = format!("[u]({site}/sub/y.html#why-y) [c]({repository}/blob/main/CONTRIBUTING.md#tests)");
    assert!(lint(&links).is_empty(), "{:?}", lint(&links));
    let links = format!("[u]({site}/rules/nope.html) [c]({repository}/blob/main/NOPE.md)");
    assert_eq!(lint(&links).len(), 2, "{:?}", lint(&links));
    assert_eq!(
        heading_ids("# `unknown-tool`\n## What it checks\n## What it checks\n#tag\n").into_iter().collect::<Vec<_>>(),
        ["unknown-tool", "what-it-checks", "what-it-checks-1"]
    );
    assert_eq!(
        heading_id(&heading_text("The `--base` option: [a link](x.md) and -- *this*")),
        "the---base-option-a-link-and----this"
    );
}
