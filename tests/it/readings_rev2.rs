//! The readings settled in revision 2 of docs/spec/rules.md §10, through the binary.

use crate::common;
use crate::common::{MODULE, assert_findings, assert_help, diagnostics, json_in, project};

#[test]
fn the_empty_tool_name_is_tool_name() {
    let dir = project(&[("beeuni.yaml", "tools:\n  show: beeuni:show\n  \"\": tools/x.ts\n"), ("tools/x.ts", MODULE)]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[(
            "tool-name",
            "error",
            "beeuni.yaml",
            3,
            3,
            "a tool name is empty: it must be snake_case of 1 to 64 characters",
        )],
    );
}

#[test]
fn a_quoted_star_suggests_all_and_upper_case_suggests_lower_case() {
    let dir = project(&[("beeuni.yaml", "agents:\n  a:\n    tools: '*'\n  b:\n    tools: [BASH, Read]\n")]);
    let (_, report) = json_in(dir.path(), &[]);
    let found = diagnostics(&report);
    assert_eq!(found[0]["rule"], "agent-tools-shape");
    assert_help(&found[0], "did you mean `all`?");
    assert_eq!(found[0]["fix"]["edits"][0]["content"], "all");
    assert_eq!(found[1]["message"], "agent `b` lists `BASH`, which is not a known tool: it is ignored");
    assert_help(&found[1], "did you mean `bash`?");
    assert_eq!(found[1]["fix"]["edits"][0]["content"], "bash");
    assert_help(&found[2], "did you mean `read`?");
}

#[test]
fn near_misses_tied_are_all_named_without_a_fix_and_a_unique_nearest_gets_one() {
    let dir = project(&[
        (
            "beeuni.yaml",
            "tools:\n  show: beeuni:show\n  lookup_a: tools/a.ts\n  lookup_b: tools/b.ts\nagents:\n  a:\n    tools: [lookup_c, websearh]\n    \n",
        ),
        ("tools/a.ts", MODULE),
        ("tools/b.ts", MODULE),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    let found = diagnostics(&report);
    assert_eq!(found.len(), 2, "{report:#}");
    assert_help(&found[0], "did you mean `lookup_a` or `lookup_b`?");
    assert!(found[0].get("fix").is_none(), "a tie gets no fix: {report:#}");
    // `websearch` is at distance 1, `web_search` at 2: the nearest one alone is fixed to.
    assert_help(&found[1], "did you mean `websearch`?");
    assert_eq!(found[1]["fix"]["edits"][0]["content"], "websearch");
}

#[test]
fn a_request_that_carries_the_signal_passes_it() {
    let module = "export default {\n  description: 'x',\n  parameters: { type: 'object', properties: {} },\n  async execute(args, context) {\n    await fetch(new Request(args.url, { signal: context.signal }))\n    const init = { signal: context.signal }\n    await fetch(args.url, init)\n    return await fetch(new Request(args.url))\n  },\n}\n";
    let dir =
        project(&[("beeuni.yaml", "tools:\n  show: beeuni:show\n  get: tools/get.ts\n"), ("tools/get.ts", module)]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[(
            "module-fetch-signal",
            "info",
            "tools/get.ts",
            8,
            18,
            "`fetch(...)` inside `execute` passes no `signal`: the request cannot be cancelled",
        )],
    );
}

#[test]
fn shared_permission_names_exactly_what_is_hidden() {
    let dir = project(&[(
        "beeuni.yaml",
        "agents:\n  a:\n    tools:\n      exclude: [apply_patch, apply_patch]\n  b:\n    tools: {write: false, edit: true}\n  c:\n    tools: [read, edit]\n",
    )]);
    let (_, report) = json_in(dir.path(), &[]);
    // Only this rule's findings (the lists also earn `task-escalation` and `legacy-tools-map`).
    let shared = serde_json::json!({ "diagnostics": common::of_rule(&report, "shared-permission") });
    assert_findings(
        &shared,
        &[
            (
                "shared-permission",
                "info",
                "beeuni.yaml",
                4,
                17,
                "agent `a` hides `apply_patch`: on the standard harness this hides `write` and `edit` too (they share one permission); on the experimental harness it hides only `apply_patch`",
            ),
            (
                "shared-permission",
                "info",
                "beeuni.yaml",
                6,
                13,
                "agent `b` hides `write`: on the standard harness this hides `edit` and `apply_patch` too (they share one permission); on the experimental harness it hides only `write`",
            ),
            (
                "shared-permission",
                "warning",
                "beeuni.yaml",
                8,
                19,
                "agent `c` lists `edit` but not `write` and `apply_patch`: on the standard harness they share one permission, so it gets `write` and `apply_patch` too",
            ),
        ],
    );
}

#[test]
fn a_lone_cr_breaks_lines() {
    let dir =
        project(&[("beeuni.yaml", "tools:\r  show: beeuni:show\r  bash: tools/bash.ts\r"), ("tools/bash.ts", MODULE)]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[(
            "harness-tool-name",
            "error",
            "beeuni.yaml",
            3,
            3,
            "`bash` is a harness tool; a project tool cannot take its name",
        )],
    );
}

#[test]
fn imports_and_agents_without_a_value_are_manifest_shape() {
    let dir = project(&[("beeuni.yaml", "imports:\nagents:\ntools:\n")]);
    let (_, report) = json_in(dir.path(), &[]);
    let found = diagnostics(&report);
    assert_findings(
        &report,
        &[
            (
                "manifest-shape",
                "error",
                "beeuni.yaml",
                1,
                1,
                "`imports` must be a list of repo-relative paths, not null",
            ),
            (
                "manifest-shape",
                "error",
                "beeuni.yaml",
                2,
                1,
                "`agents` must be a mapping of agent names to settings, not null",
            ),
            (
                "no-beeuni-tools",
                "warning",
                "beeuni.yaml",
                3,
                1,
                "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one.",
            ),
        ],
    );
    assert_help(
        &found[0],
        "write `imports: [config/agents.yaml]` or one `- path` a line, or delete the empty `imports:`",
    );
}
