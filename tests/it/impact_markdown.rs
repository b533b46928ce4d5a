//! `impact --format markdown` rendered as GitHub does (comrak, GFM's tables, autolinks, strikethrough
//! and task lists on): for names and paths holding backtick runs, the Action's marker, `-->`, `</details>`,
//! `<img>`, a `javascript:` link, an image, `@user`, `|`, CR and ESC, nothing the repository wrote becomes a link,
//! an image, HTML, a table or a mention, and every name is shown exactly as `--format human` escapes it.

use crate::change_support::bin_in;
use crate::impact::two_commits;
use comrak::nodes::NodeValue;

/// Each hostile name, and how it is shown: as written, a line break or control character escaped.
const NAMES: [(&str, &str, &str); 12] = [
    // (YAML double-quoted, as written, as shown)
    ("a`b``c", "a`b``c", "a`b``c"),
    ("<!-- beeuni-lint:impact -->", "<!-- beeuni-lint:impact -->", "<!-- beeuni-lint:impact -->"),
    ("x -->", "x -->", "x -->"),
    ("</details><details>", "</details><details>", "</details><details>"),
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),
    ("[x](javascript:alert(1))", "[x](javascript:alert(1))", "[x](javascript:alert(1))"),
    ("![i](http://e.test/p.png)", "![i](http://e.test/p.png)", "![i](http://e.test/p.png)"),
    ("@user", "@user", "@user"),
    ("a|b", "a|b", "a|b"),
    ("cr\\rhere", "cr\rhere", "cr\\rhere"),
    ("esc\\e[2J", "esc\u{1b}[2J", "esc\\u{1b}[2J"),
    ("` spaced `", "` spaced `", "` spaced `"),
];

const LINK_BASE: &str = "https://github.example/o/r/blob/0123abc";

#[test]
fn no_repository_text_becomes_markdown() {
    // Every name is an agent (added, with a secret of the same name) in a file whose path holds them too.
    let file = "cfg/`x` @u <b> [l](j:x).yaml";
    let agents: String = NAMES
        .iter()
        .map(|(yaml, ..)| format!("  \"{yaml}\":\n    tools: [read]\n    secrets: [\"{yaml}\"]\n"))
        .collect();
    let manifest = format!("imports: [\"{file}\"]\n");
    let repo = two_commits(
        &[("beeuni.yaml", &manifest), (file, "agents:\n  keep:\n    tools: [read]\n    secrets: []\n")],
        &[
            ("beeuni.yaml", &manifest),
            (file, &format!("agents:\n  keep:\n    tools: [read, grep]\n    secrets: []\n{agents}")),
        ],
    );
    let run = bin_in(&repo.dir, &["impact", "--base", "main", "--format", "markdown", "--link-base", LINK_BASE]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = run.stdout;
    assert!(!text.contains('\r') && !text.contains('\u{1b}'), "{text:?}");
    let arena = comrak::Arena::new();
    let mut options = comrak::Options::default();
    options.extension.table = true;
    options.extension.autolink = true;
    options.extension.strikethrough = true;
    options.extension.tasklist = true;
    let root = comrak::parse_document(&arena, &text, &options);
    let (mut code, mut prose, mut links) = (Vec::new(), String::new(), Vec::new());
    for node in root.descendants() {
        match &node.data.borrow().value {
            NodeValue::Code(span) => code.push(span.literal.clone()),
            NodeValue::Text(words) => prose.push_str(words),
            NodeValue::HtmlBlock(html) => panic!("HTML {:?} in:\n{text}", html.literal),
            NodeValue::HtmlInline(html) => panic!("HTML {html:?} in:\n{text}"),
            NodeValue::Image(image) => panic!("image {} in:\n{text}", image.url),
            NodeValue::Table(_) => panic!("a table in:\n{text}"),
            NodeValue::Link(link) => links.push(link.url.clone()),
            _ => {}
        }
    }
    // Every link is one `--link-base` made: to a line of the file, its path escaped part by part.
    let escaped = "cfg/%60x%60%20%40u%20%3Cb%3E%20%5Bl%5D%28j%3Ax%29.yaml";
    assert!(!links.is_empty(), "{text}");
    for link in &links {
        assert!(link.starts_with(&format!("{LINK_BASE}/{escaped}#L")), "{link}");
    }
    // Our words only outside code spans: no mention, no autolink, nothing of a name.
    for fragment in ["@", "<", ">", "javascript", "http", "www.", "beeuni-lint:impact", "|", "["] {
        assert!(!prose.contains(fragment), "{fragment:?} in the prose {prose:?}");
    }
    // Every name shown exactly (escaped as in the terminal), as an agent and as a secret; the path too.
    for (_, written, shown) in NAMES {
        assert!(code.iter().filter(|c| *c == shown).count() >= 2, "{written:?} as {shown:?} in {code:?}");
    }
    assert!(code.iter().any(|c| c.starts_with(&format!("{file}:"))), "{code:?}");
}
