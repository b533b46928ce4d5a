//! What the Action posts, read as GitHub reads it: the exact comment body it sends and the job summary it leaves
//! (after every step of its scripts), rendered with a GitHub Flavored Markdown parser (comrak, with tables,
//! autolinks and strikethrough), for a pull request whose agent and tool names are built to break out of a code
//! span, end an HTML comment or block, or become a link, an image or a mention. None of them may: the only HTML is the
//! binary's own (`details`, `summary`, `code`, `br`) and the marker, the only links go to the linted commit's lines,
//! no text outside code mentions anyone, and every name is shown, exactly as escaped, inside code.

use super::{Setup, setup};
use crate::action_support::github_api::{FakeApi, exchange};
use crate::action_support::run;
use crate::change_support::MODULE;
use beeuni_lint::source::escape::escape;
use comrak::nodes::NodeValue;
use serde_json::{Value, json};

const MARKER: &str = "<!-- beeuni-lint:impact -->";
const COMMENTS: &str = "/repos/beeuni/shop/issues/7/comments";

/// Agent names (and the unknown tools they list): each a way out of where the binary puts it.
const NAMES: &[&str] = &[
    "a`b``c```",
    "`edge",
    "x --> y",
    "</details></summary>",
    "<img src=https://e.example/p.png>",
    "[x](javascript:alert(1))",
    "![i](https://e.example/i.png)",
    // The second half are new agents, each a code span in the comment's `agents added` line.
    "@octocat",
    // Without the marker, its backticks make one run as long as the fence the binary chose.
    "x`<!-- beeuni-lint:impact -->`` [x](https://e.example/x) ![i](https://e.example/i.png) @octocat",
    MARKER,
    "a|b",
    "cr\rx\nline",
    "esc\u{1b}[31m",
    "www.e.example deadbeef1234567",
    SPLIT,
];

/// A name whose backticks pair up inside a message: the findings' table cannot tell it from the rule's words and
/// shows its parts as code and text (all of it, none live); the comment shows it whole.
const SPLIT: &str = "x` [x](https://e.example/x) @octocat `y";

/// The HTML the binary and the scripts write themselves.
const OWN_TAGS: &[&str] = &["<details>", "</details>", "<summary>", "</summary>", "<code>", "</code>", "<br>"];

/// `name` as a YAML double-quoted scalar (JSON's string syntax is YAML's).
fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap()
}

/// A project whose base has an agent for each of the first half of `NAMES`, each with `read`; the pull request gives
/// each `bash` too, adds an agent for each name of the second half, and has every agent list an unknown tool named
/// by the next name (a `check` warning naming both).
fn hostile(setup: &Setup) {
    let repo = &setup.repo;
    let (old, _) = NAMES.split_at(NAMES.len() / 2);
    let manifest = |agents: &[&str], tools: &dyn Fn(usize) -> String| {
        let mut text = String::from("tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\nagents:\n");
        for (index, agent) in agents.iter().enumerate() {
            text.push_str(&format!("  {}:\n    tools: [{}]\n", quoted(agent), tools(index)));
        }
        text
    };
    repo.git(&["checkout", "-q", "main"]);
    repo.write("beeuni.yaml", &manifest(old, &|_| "read".into())).write("tools/lookup.ts", MODULE).commit("base");
    repo.git(&["update-ref", "refs/remotes/origin/main", "main"]);
    repo.git(&["checkout", "-q", "-B", "feature"]);
    let unknown = |index: usize| format!("read, bash, {}", quoted(NAMES[(index + 1) % NAMES.len()]));
    repo.write("beeuni.yaml", &manifest(NAMES, &unknown)).commit("the change");
}

/// What a reader sees of a document: the code (spans, and `<code>` in HTML), the text outside it, the links.
#[derive(Default, Debug)]
struct Seen {
    code: Vec<String>,
    text: Vec<String>,
    links: Vec<String>,
}

/// `&lt;` and the like as the browser shows them.
fn unescape_html(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// An HTML block or inline: only the binary's own tags (and `marker_ok`: the marker line), and the text between
/// them, in `<code>` or not.
fn read_html(html: &str, marker_ok: bool, seen: &mut Seen) {
    let mut rest = html;
    let mut in_code = false;
    while !rest.is_empty() {
        let (before, after) = rest.split_once('<').unwrap_or((rest, ""));
        if !before.trim().is_empty() {
            let shown = unescape_html(before);
            if in_code { seen.code.push(shown) } else { seen.text.push(shown) }
        }
        if after.is_empty() && !rest.contains('<') {
            break;
        }
        let (tag, tail) = after.split_once('>').unwrap_or_else(|| panic!("an unclosed tag in {html:?}"));
        let tag = format!("<{tag}>");
        assert!(
            OWN_TAGS.contains(&tag.as_str()) || (marker_ok && tag == MARKER),
            "HTML the binary does not write: {tag:?} in {html:?}"
        );
        in_code = match tag.as_str() {
            "<code>" => true,
            "</code>" => false,
            _ => in_code,
        };
        rest = tail;
    }
}

/// Renders `markdown` as GitHub would (GFM) and reads it; panics on an image, a link outside `link_base`, or HTML
/// the binary does not write.
fn read(markdown: &str, link_base: &str, marker_first: bool) -> Seen {
    let arena = comrak::Arena::new();
    let mut options = comrak::Options::default();
    options.extension.table = true;
    options.extension.autolink = true;
    options.extension.strikethrough = true;
    let root = comrak::parse_document(&arena, markdown, &options);
    let mut seen = Seen::default();
    for (index, node) in root.descendants().enumerate() {
        match &node.data.borrow().value {
            NodeValue::Text(text) => seen.text.push(text.to_string()),
            NodeValue::Code(code) => seen.code.push(code.literal.clone()),
            NodeValue::CodeBlock(block) => seen.code.push(block.literal.clone()),
            NodeValue::HtmlBlock(block) => read_html(&block.literal, marker_first && index == 1, &mut seen),
            NodeValue::HtmlInline(html) => read_html(html, false, &mut seen),
            NodeValue::Link(link) => {
                assert!(link.url.starts_with(link_base), "a link that is not to a line linted: {}", link.url);
                seen.links.push(link.url.clone());
            }
            NodeValue::Image(image) => panic!("an image: {}", image.url),
            _ => {}
        }
    }
    seen
}

/// Nothing of `NAMES` outside code, no mention, and each of `shown`, escaped as every text output escapes it,
/// whole inside code.
fn assert_inert(what: &str, seen: &Seen, shown: &[&str]) {
    for text in &seen.text {
        let mention = text
            .char_indices()
            .any(|(i, c)| c == '@' && text[i + 1..].starts_with(|c: char| c.is_ascii_alphanumeric()));
        assert!(!mention, "{what}: a mention outside code: {text:?}");
        for fragment in ["octocat", "javascript", "e.example", "img src", "-->", "beeuni-lint:impact", "deadbeef"] {
            assert!(!text.contains(fragment), "{what}: repository text outside code: {text:?}\n{seen:#?}");
        }
    }
    for name in shown {
        let escaped = escape(name);
        assert!(
            seen.code.iter().any(|code| code.contains(escaped.as_ref())),
            "{what}: {escaped:?} is not shown whole in code:\n{:#?}",
            seen.code
        );
    }
}

#[test]
fn names_built_to_break_out_stay_inert_in_the_comment_and_the_summary() {
    let setup = setup();
    hostile(&setup);
    let head = setup.repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    let api = FakeApi::start(vec![
        exchange("GET", "/user", 403, json!({ "message": "Resource not accessible by integration" })),
        exchange("GET", &format!("{COMMENTS}?per_page=100&page=1"), 200, json!([])),
        exchange("POST", COMMENTS, 201, json!({ "id": 5 })),
    ]);
    let inputs = [("impact", "true"), ("fail-on", "never"), ("upload-sarif", "false")];
    let mut invocation = setup.invocation("pull_request", super::pull_request("beeuni/shop"), &inputs);
    invocation.env.push(("GITHUB_API_URL", api.url.clone()));
    let outcome = run(&invocation);
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!(outcome.step("impact", "comment"), "created", "{}", outcome.log);
    // The step summary's table names each agent and the unknown tool it lists.
    assert!(outcome.output("warnings").parse::<usize>().unwrap() >= NAMES.len(), "{}", outcome.log);

    let link_base = format!("https://github.com/beeuni/shop/blob/{head}/");
    let body: Value = serde_json::from_str(&api.requests()[2].body).unwrap();
    let body = body["body"].as_str().unwrap();
    assert!(body.starts_with(&format!("{MARKER}\n### beeuni-lint impact\n")), "{body}");
    // Every agent gains `bash` or is new: the comment names each.
    assert_inert("the comment", &read(body, &link_base, true), NAMES);

    let summary = read(&outcome.summary, &link_base, false);
    assert_inert("the job summary", &summary, NAMES);
    // Its first part, the lint step's table, names them all too: each message as prose, each name in code.
    let (check, _) = outcome.summary.split_once("### beeuni-lint impact").expect("the impact report follows");
    assert!(check.contains("| unknown-tool | warning | `beeuni.yaml:"), "{check}");
    let whole: Vec<&str> = NAMES.iter().copied().filter(|name| *name != SPLIT).collect();
    assert_inert("the findings' table", &read(check, &link_base, false), &whole);
}
