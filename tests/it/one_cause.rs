//! One finding per cause (docs/spec/rules.md §7 and §10, revision 2): one `removed-beeuni-tool` for a change however many
//! tools it drops, with the lines to paste back as help and as an unsafe fix; an unknown name gets its typo
//! finding and nothing else; `task-escalation` once per agent and tool.

use crate::common;
use crate::common::{assert_findings, diagnostics, git, json_in, project, write};
use serde_json::Value;
use std::path::Path;

const SEVERAL: &str = "this change removes the Beeuni tools `image_search`, `scrape_webpage`, `memory`, `show`: every agent of the project loses them, on both harnesses, in every session that starts after the change merges. Add the lines below under `tools:` to keep them.";
const LINES: &str = "image_search: beeuni:image_search\nscrape_webpage: beeuni:scrape_webpage\nmemory: beeuni:memory\nshow: beeuni:show";

/// A repository whose commit has no `tools:` key (all five load) and whose work tree has `head` as its manifest.
fn change_to(head: &str) -> tempfile::TempDir {
    let dir = project(&[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "base"]);
    write(dir.path(), "beeuni.yaml", head.as_bytes());
    dir
}

/// Applies the finding's fix edits (byte offsets) to the manifest.
fn apply(root: &Path, finding: &Value) -> String {
    let path = root.join("beeuni.yaml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    let mut edits: Vec<&Value> = finding["fix"]["edits"].as_array().unwrap().iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e["start"].as_u64().unwrap()));
    for edit in edits {
        assert_eq!(edit["path"], "beeuni.yaml");
        let (start, end) = (edit["start"].as_u64().unwrap() as usize, edit["end"].as_u64().unwrap() as usize);
        text.replace_range(start..end, edit["content"].as_str().unwrap());
    }
    std::fs::write(&path, &text).unwrap();
    text
}

#[test]
fn one_change_one_finding_with_the_lines_to_paste_and_an_unsafe_fix() {
    for (head, fixed) in [
        (
            "agents:\n  a:\n    tools: [read]\ntools:\n  web_search: beeuni:web_search  # the one we keep\n",
            "agents:\n  a:\n    tools: [read]\ntools:\n  web_search: beeuni:web_search  # the one we keep\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\n",
        ),
        (
            "agents:\n  a:\n    tools: [read]\ntools: {web_search: beeuni:web_search}\n",
            "agents:\n  a:\n    tools: [read]\ntools: {web_search: beeuni:web_search, image_search: beeuni:image_search, scrape_webpage: beeuni:scrape_webpage, memory: beeuni:memory, show: beeuni:show}\n",
        ),
        (
            "agents:\r\n  a:\r\n    tools: [read]\r\ntools:\r\n    web_search: beeuni:web_search\r\n",
            "agents:\r\n  a:\r\n    tools: [read]\r\ntools:\r\n    web_search: beeuni:web_search\r\n    image_search: beeuni:image_search\r\n    scrape_webpage: beeuni:scrape_webpage\r\n    memory: beeuni:memory\r\n    show: beeuni:show\r\n",
        ),
    ] {
        let dir = change_to(head);
        let (code, report) = json_in(dir.path(), &["--base", "HEAD"]);
        assert_eq!(code, 1);
        assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 4, 1, SEVERAL)]);
        let finding = &diagnostics(&report)[0];
        assert_eq!(finding["help"], LINES);
        assert_eq!(finding["fix"]["safety"], "unsafe");
        assert_eq!(apply(dir.path(), finding), fixed);
        let (code, report) = json_in(dir.path(), &["--base", "HEAD"]);
        assert_eq!((code, diagnostics(&report).len()), (0, 0), "{report:#}");
    }
}

#[test]
fn emptied_tools_key_gets_an_indented_block() {
    let dir = change_to("tools:\nagents:\n  a:\n    tools: [read]\n");
    let (_, report) = json_in(dir.path(), &["--base", "HEAD"]);
    let finding = common::of_rule(&report, "removed-beeuni-tool")[0].clone();
    assert!(
        finding["message"]
            .as_str()
            .unwrap()
            .starts_with("this change removes the Beeuni tools `web_search`, `image_search`, ")
    );
    let fixed = apply(dir.path(), &finding);
    assert!(
        fixed.starts_with("tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n"),
        "{fixed}"
    );
    let (code, report) = json_in(dir.path(), &["--base", "HEAD"]);
    assert_eq!((code, diagnostics(&report).len()), (0, 0), "{report:#}");
}

#[test]
fn one_removed_tool_keeps_the_documented_sentence() {
    let dir = change_to(
        "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\nagents:\n  a:\n    tools: [read]\n",
    );
    let (_, report) = json_in(dir.path(), &["--base", "HEAD"]);
    let message = "this change removes the Beeuni tool `show`: every agent of the project loses it, on both harnesses, in every session that starts after the change merges. Add `show: beeuni:show` under `tools:` to keep it.";
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, message)]);
    let finding = &diagnostics(&report)[0];
    assert!(finding["help"].as_str().unwrap().starts_with("compared with merge base "), "{finding:#}");
    assert_eq!(finding["fix"]["edits"][0]["content"], "\n  show: beeuni:show");
}

#[test]
fn an_unknown_name_gets_its_typo_finding_and_nothing_else() {
    let dir = project(&[(
        "beeuni.yaml",
        "agents:\n  ops:\n    tools: all\n  support:\n    tools:\n      exclude: [pty_spwn, read]\n  helper:\n    tools: [pty_spwn, task]\n",
    )]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[
            (
                "unknown-excluded-tool",
                "error",
                "beeuni.yaml",
                6,
                17,
                "agent `support` excludes `pty_spwn`, which is not a known tool: it hides nothing, and `pty_spawn` stays enabled",
            ),
            (
                "unknown-tool",
                "warning",
                "beeuni.yaml",
                8,
                13,
                "agent `helper` lists `pty_spwn`, which is not a known tool: it is ignored",
            ),
        ],
    );
}

#[test]
fn task_escalation_once_per_agent_and_tool() {
    let dir = project(&[(
        "beeuni.yaml",
        "agents:\n  ops:\n    tools: all\n  support:\n    tools:\n      exclude: [bash, bash, write, edit, apply_patch]\n",
    )]);
    let (_, report) = json_in(dir.path(), &[]);
    let escalations: Vec<&str> =
        common::of_rule(&report, "task-escalation").iter().map(|d| d["message"].as_str().unwrap()).collect();
    let message = |t: &str| {
        format!(
            "agent `support` hides `{t}` but can use `task`: on the standard harness a subagent gets its own list, so `support` can reach `{t}` through `ops`"
        )
    };
    // Same place: sorted by message.
    assert_eq!(escalations, [message("apply_patch"), message("bash"), message("edit"), message("write")]);
}

/// `tools: 7` (or a list) in any file of the graph fails the manifest: `manifest-shape` is the one finding, not
/// also `no-beeuni-tools`, `unloaded-beeuni-tool` or `removed-beeuni-tool` about a selection nobody can know.
#[test]
fn a_tools_value_of_the_wrong_type_is_manifest_shape_alone() {
    let number = "`tools` must be a mapping of tool names to sources, not a number";
    let list = "`tools` must be a mapping of tool names to sources, not a list";
    for (files, expected) in [
        (
            vec![("beeuni.yaml", "imports: [a.yaml]\n"), ("a.yaml", "tools: 7\n")],
            ("manifest-shape", "error", "a.yaml", 1, 1, number),
        ),
        (vec![("beeuni.yaml", "tools: 7\n")], ("manifest-shape", "error", "beeuni.yaml", 1, 1, number)),
        (
            vec![
                ("beeuni.yaml", "imports:\n  - a.yaml\nagents:\n  w:\n    tools: [read, show]\n"),
                ("a.yaml", "tools: [web_search]\n"),
            ],
            ("manifest-shape", "error", "a.yaml", 1, 1, list),
        ),
    ] {
        let dir = project(&files);
        let (code, report) = json_in(dir.path(), &[]);
        assert_eq!(code, 1);
        assert_findings(&report, &[expected]);
    }
    // A change that turns the tools into `tools: 7`: still the one finding.
    let dir = change_to("tools: 7\nagents:\n  a:\n    tools: [read]\n");
    let (_, report) = json_in(dir.path(), &["--base", "HEAD"]);
    assert_findings(&report, &[("manifest-shape", "error", "beeuni.yaml", 1, 1, number)]);
}
