//! Before/after snapshots (a unified diff) of every manifest fix of docs/spec/rules.md §8, each on block, flow, quoted
//! and commented variants, and the commented one again with CRLF line endings and with a BOM. Each run also
//! checks what every fix promises (see `fix_and_check`): `--diff` shows what `--fix` does, the file still
//! parses, the fixed finding is gone, untouched lines stay, and a second run changes nothing.

use crate::common::{diagnostics, project};
use crate::fix_support::{fix_and_check, lint, visible};

/// (variant, beeuni.yaml) for one rule.
type Variants = &'static [(&'static str, &'static str)];

/// Runs every variant (plus CRLF and BOM copies of the commented one) and returns the snapshot text.
fn variants(rule: &str, cases: Variants) -> String {
    let commented = cases.iter().find(|(v, _)| *v == "commented").map(|(_, t)| *t).unwrap();
    let crlf = commented.replace('\n', "\r\n");
    let bom = format!("\u{feff}{commented}");
    let mut all: Vec<(&str, String)> = cases.iter().map(|(v, t)| (*v, t.to_string())).collect();
    all.push(("crlf", crlf));
    all.push(("bom", bom));
    let mut out = String::new();
    for (variant, text) in all {
        let dir = project(&[("beeuni.yaml", &text)]);
        let report = lint(dir.path());
        let offered = diagnostics(&report).iter().any(|d| d["rule"] == rule && d["fix"].is_object());
        assert!(offered, "{rule}/{variant}: no fix offered\n{report:#}");
        let diff = fix_and_check(dir.path());
        let left = lint(dir.path());
        assert!(
            !diagnostics(&left).iter().any(|d| d["rule"] == rule),
            "{rule}/{variant}: the re-lint still has {rule}:\n{left:#}"
        );
        out.push_str(&format!("== {variant}\n{}", visible(&diff)));
    }
    out
}

#[test]
fn beeuni_ref() {
    insta::assert_snapshot!(variants(
        "beeuni-ref",
        &[
            ("block", "tools:\n  web_search: beeuni:image_search\n  show: beeuni:show\n"),
            ("flow", "tools: {web_search: web_search, show: beeuni:show}\n"),
            ("quoted", "tools:\n  web_search: \"beeuni:image_search\"\n  show: 'beeuni:show'\n"),
            (
                "commented",
                "# tools\ntools:\n  # search\n  web_search: beeuni:image_search   # wrong\n\n  show: beeuni:show\n"
            ),
        ]
    ));
}

#[test]
fn unknown_tool() {
    insta::assert_snapshot!(variants(
        "unknown-tool",
        &[
            ("block", "agents:\n  a:\n    tools:\n      - read\n      - grpe\n"),
            ("flow", "agents: {a: {tools: [read, grpe]}}\n"),
            ("quoted", "agents:\n  a:\n    tools: ['read', \"grpe\"]\n"),
            (
                "commented",
                "agents:\n  a:  # the agent\n    tools:\n      - read   # files\n      # search\n      - grpe   # typo\n"
            ),
        ]
    ));
}

#[test]
fn unknown_excluded_tool() {
    insta::assert_snapshot!(variants(
        "unknown-excluded-tool",
        &[
            ("block", "agents:\n  a:\n    tools:\n      exclude:\n        - bahs\n"),
            ("flow", "agents: {a: {tools: {exclude: [bahs, write]}}}\n"),
            ("quoted", "agents:\n  a:\n    tools: {exclude: ['bahs']}\n"),
            ("commented", "agents:\n  a:\n    tools:\n      # no shell\n      exclude: [bahs]  # typo\n"),
        ]
    ));
}

#[test]
fn unknown_key_for_exclude() {
    insta::assert_snapshot!(variants(
        "unknown-key",
        &[
            ("block", "agents:\n  a:\n    tools:\n      excludes:\n        - bash\n"),
            ("flow", "agents: {a: {tools: {exlude: [bash, write]}}}\n"),
            ("quoted", "agents:\n  a:\n    tools: {'Exclude': ['bash']}\n"),
            ("commented", "agents:\n  a:\n    tools:\n      # no shell\n      excludes: [bash]  # typo\n"),
        ]
    ));
}

#[test]
fn unloaded_beeuni_tool_in_a_list() {
    insta::assert_snapshot!(variants(
        "unloaded-beeuni-tool",
        &[
            (
                "block",
                "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools:\n      - read\n      - show\n"
            ),
            ("flow", "tools: {web_search: beeuni:web_search}\nagents: {a: {tools: [read, show]}}\n"),
            ("quoted", "tools:\n  'web_search': \"beeuni:web_search\"\nagents:\n  a:\n    tools: [read, 'show']\n"),
            (
                "commented",
                "tools:   # hosted\n  web_search: beeuni:web_search  # search\n# agents\nagents:\n  a:\n    tools: [read, show]  # show?\n"
            ),
        ]
    ));
}

#[test]
fn unloaded_beeuni_tool_excluded_or_false() {
    insta::assert_snapshot!(variants(
        "unloaded-beeuni-tool",
        &[
            (
                "block",
                "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools:\n      exclude:\n        - bash\n        - show\n"
            ),
            ("flow", "tools: {web_search: beeuni:web_search}\nagents: {a: {tools: {exclude: [show, bash]}}}\n"),
            ("quoted", "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: {exclude: [\"show\"]}\n"),
            (
                "commented",
                "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools:\n      exclude:  # hidden\n        - show  # not loaded\n"
            ),
            ("false", "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools:\n      show: false\n"),
        ]
    ));
}

#[test]
fn legacy_tools_map() {
    insta::assert_snapshot!(variants(
        "legacy-tools-map",
        &[
            ("block", "agents:\n  a:\n    tools:\n      bash: false\n      edit: false\n"),
            ("flow", "agents: {a: {tools: {bash: false, edit: false}}}\n"),
            ("quoted", "agents:\n  a:\n    tools: {'bash': false, \"edit\": false}\n"),
            (
                "commented",
                "agents:\n  a:\n    tools:   # map\n      bash: false   # no shell\n      # nor edits\n      edit: false\n"
            ),
        ]
    ));
}

#[test]
fn agent_tools_shape() {
    insta::assert_snapshot!(variants(
        "agent-tools-shape",
        &[
            ("block", "agents:\n  a:\n    tools: All\n"),
            ("flow", "agents: {a: {tools: NONE}}\n"),
            ("quoted", "agents:\n  a:\n    tools: '*'\n  b:\n    tools: \"All\"\n"),
            ("commented", "agents:\n  # one agent\n  a:\n    tools: All   # every tool\n"),
        ]
    ));
}

#[test]
fn no_beeuni_tools() {
    insta::assert_snapshot!(variants(
        "no-beeuni-tools",
        &[
            ("block", "tools:\n  web_search: 42\n"),
            ("flow", "tools: {}\n"),
            ("quoted", "tools: {'web_search': 42}\n"),
            ("commented", "# own tools only\ntools:   # none yet\nagents: {}\n"),
        ]
    ));
}
