//! docs/spec/rules.md §3 (agent tool lists): one triggering fixture and one clean twin
//! a rule, the docs' agents example, and the readings of §0 and §10.
//!
//! A fixture's findings and exit code are its snapshot (tests/it/fixture_reports.rs): here only what a
//! snapshot does not show (helps, related locations, fixes).

use crate::common::*;

const FIVE: &str = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\n";

/// Lints `FIVE` followed by `agents` (which starts with `agents:`).
fn lint_agents(agents: &str) -> (i32, serde_json::Value) {
    let dir = project(&[("beeuni.yaml", &format!("{FIVE}{agents}"))]);
    json_in(dir.path(), &[])
}

#[test]
fn agent_tools_shape() {
    let report = run("agent-tools-shape", &[]).1;
    let finding = &diagnostics(&report)[0];
    assert_help(finding, "did you mean `all`?");
    assert_eq!(finding["fix"]["safety"], "safe");
    assert_eq!(finding["fix"]["edits"][0]["content"], "all");
}

#[test]
fn unknown_tool() {
    // A block list item: the finding points at its `- `.
    let report = run("unknown-tool", &[]).1;
    let finding = &diagnostics(&report)[0];
    assert_help(finding, "did you mean `grep`?");
    assert_eq!(finding["fix"]["safety"], "unsafe");
    assert_eq!(finding["fix"]["edits"][0]["content"], "grep");
}

/// A name near no known tool (a project tool removed from `tools:`, still listed): the help says to declare it or
/// drop it, and that `--base` tells whether a change removed it; `harness-tools` only for a name that looks like a
/// harness tool (`pty_resize`, of the `pty_*` family). With a base, the `--base` part is left out.
#[test]
fn unknown_tool_near_nothing_is_told_to_declare_or_drop_it() {
    let dir = fixture("unknown-tool-undeclared");
    let (_, report) = json_in(dir.path(), &[]);
    let found = of_rule(&report, "unknown-tool");
    assert_eq!(found.len(), 2, "{report:#}");
    let declare = "declare it under `tools:`, or drop it from the list";
    let base = " (`--base REV` tells whether a change removed it from `tools:`)";
    assert_help(found[0], &format!("{declare}{base}"));
    assert_help(
        found[1],
        &format!(
            "{declare}{base}; if it is a harness tool beeuni-lint does not know, add it to `harness-tools` in beeuni-lint.toml"
        ),
    );
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "one"]);
    let (_, report) = json_in(dir.path(), &["--base", "HEAD"]);
    assert_help(of_rule(&report, "unknown-tool")[0], declare);
}

/// `exclude: [bash, wirte, edit]`: the typo leaves `write` enabled on the experimental harness only; on the
/// standard one `edit` hides it (as `agents` shows), so the message says which harness.
#[test]
fn unknown_excluded_tool_names_the_harness_where_the_shared_permission_hides_it() {
    let (code, report) = lint_agents("agents:\n  support:\n    tools:\n      exclude: [bash, wirte, edit]\n");
    assert_eq!(code, 1);
    let message = "agent `support` excludes `wirte`, which is not a known tool: it hides nothing, and `write` stays enabled on the experimental harness (on the standard harness, excluding `edit` hides it too: they share one permission)";
    let found = of_rule(&report, "unknown-excluded-tool");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_finding(found[0], &("unknown-excluded-tool", "error", "beeuni.yaml", 10, 23, message));
    // What `agents` says of the same list: hidden through `edit` on the standard harness, enabled on the other.
    let dir = project(&[(
        "beeuni.yaml",
        &format!("{FIVE}agents:\n  support:\n    tools:\n      exclude: [bash, wirte, edit]\n"),
    )]);
    let agents = run_in(dir.path(), &["agents", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&agents.stdout).unwrap();
    let has_write = |harness: &str| {
        let entry = view.as_array().unwrap().iter().find(|e| e["harness"] == harness).unwrap();
        entry["tools"].as_array().unwrap().iter().any(|t| t["name"] == "write")
    };
    assert!(!has_write("standard"), "{view:#}");
    assert!(has_write("experimental"), "{view:#}");
}

#[test]
fn permission_unknown_tool() {
    // `"git *"` is a pattern and is left alone.
    let report = run("permission-unknown-tool", &[]).1;
    assert_help(&diagnostics(&report)[0], "did you mean `bash`?");
}

#[test]
fn legacy_tools_map() {
    let report = run("legacy-tools-map", &[]).1;
    assert_help(&diagnostics(&report)[0], "write `tools: {exclude: [bash, glob]}`");
}

#[test]
fn empty_tool_list() {
    let report = run("empty-tool-list", &[]).1;
    assert_help(&diagnostics(&report)[0], "write `tools: none` to say so, or list the tools it needs");
}

#[test]
fn duplicate_agent() {
    let report = run("duplicate-agent", &[]).1;
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 9, 3, "first declared here");
}

#[test]
fn docs_agents_example_passes_with_infos_only() {
    let (code, report) = run("docs-agents", &[]);
    assert_eq!(code, 0, "{report:#}");
    let escalation = |tool: &str| {
        format!(
            "agent `support` hides `{tool}` but can use `task`: on the standard harness a subagent gets its own list, so `support` can reach `{tool}` through `beeuni`"
        )
    };
    let (bash, edit, write) = (escalation("bash"), escalation("edit"), escalation("write"));
    let shared = "agent `support` hides `write` and `edit`: on the standard harness this hides `apply_patch` too (they share one permission); on the experimental harness it hides only `write` and `edit`";
    assert_findings(
        &report,
        &[
            ("task-escalation", "info", "beeuni.yaml", 14, 5, &bash),
            ("task-escalation", "info", "beeuni.yaml", 14, 5, &edit),
            ("task-escalation", "info", "beeuni.yaml", 14, 5, &write),
            ("shared-permission", "info", "beeuni.yaml", 15, 23, shared),
        ],
    );
    assert_eq!(report["summary"]["info"], 4);
    assert_eq!(report["summary"]["warning"], 0);
    assert_eq!(report["summary"]["error"], 0);
}

#[test]
fn every_invalid_form_is_agent_tools_shape() {
    let (code, report) = lint_agents(
        "agents:\n  a:\n    tools: bash\n  b:\n    tools: {exclude: bash}\n  c:\n    tools: {exclude: [bash], edit: false}\n  d:\n    tools: {bash: no}\n  e:\n    tools: [read, 3]\n",
    );
    assert_eq!(code, 1);
    let forms = "`all`, `none`, a list of tools, `{exclude: [...]}` or a map of booleans";
    let a = format!("`tools` of agent `a` must be {forms}, not `bash`");
    assert_findings(
        &report,
        &[
            ("agent-tools-shape", "error", "beeuni.yaml", 9, 12, &a),
            (
                "agent-tools-shape",
                "error",
                "beeuni.yaml",
                11,
                22,
                "`exclude` of agent `b` must be a list of tool names, not a string",
            ),
            (
                "agent-tools-shape",
                "error",
                "beeuni.yaml",
                13,
                13,
                "agent `c` mixes `exclude` with `tool: true/false` entries in `tools`",
            ),
            (
                "agent-tools-shape",
                "error",
                "beeuni.yaml",
                15,
                19,
                "`bash` in the tools map of agent `d` must be `true` or `false`, not a string",
            ),
            (
                "agent-tools-shape",
                "error",
                "beeuni.yaml",
                17,
                19,
                "a tool in the list of agent `e` must be a name (a string), not a number",
            ),
        ],
    );
}

#[test]
fn exclude_typo_is_unknown_key_only() {
    let (code, report) = lint_agents("agents:\n  support:\n    tools: {exlude: [bash]}\n");
    assert_eq!(code, 1);
    let message = "unknown key `exlude` in the `tools` of agent `support`: it is ignored, so every tool stays enabled, `bash` included; rename it to `exclude`";
    assert_findings(&report, &[("unknown-key", "error", "beeuni.yaml", 9, 13, message)]);
    assert_help(&diagnostics(&report)[0], "did you mean `exclude`?");
}

#[test]
fn null_tools_is_all_and_none_is_fine() {
    let (code, report) = lint_agents("agents:\n  a:\n    tools:\n  b:\n    tools: none\n  c: {}\n");
    assert_clean("null tools", code, &report);
}

#[test]
fn map_form_and_exclude_lists() {
    let (_, report) = lint_agents(
        "agents:\n  a:\n    tools: {write: false, pty_read: false}\n  b:\n    tools: [bash, read]\n  c:\n    tools: all\n",
    );
    assert_eq!(rule_ids(&report), ["legacy-tools-map", "task-escalation", "shared-permission", "pty-follows-bash"]);
    let shared = of_rule(&report, "shared-permission")[0];
    assert_eq!(shared["severity"], "info", "an exclusion is info: {shared:#}");
    let pty = of_rule(&report, "pty-follows-bash")[0];
    assert_eq!((pty["line"].as_u64(), pty["column"].as_u64()), (Some(9), Some(27)));
    // `a` still reaches `pty_read` through `bash` (the terminal tools follow it): only `write` escalates.
    let escalation = of_rule(&report, "task-escalation");
    assert_eq!(escalation.len(), 1, "{escalation:#?}");
    assert!(
        escalation[0]["message"].as_str().unwrap().ends_with("so `a` can reach `write` through `c`"),
        "{:#}",
        escalation[0]
    );
}

#[test]
fn unloaded_beeuni_tool_in_exclude_lists_and_maps() {
    let dir = project(&[(
        "beeuni.yaml",
        "tools:\n  web_search: beeuni:web_search\nagents:\n  g:\n    tools:\n      exclude: [show]\n  h:\n    tools: {memory: false}\n",
    )]);
    let (_, report) = json_in(dir.path(), &[]);
    let found: Vec<_> = of_rule(&report, "unloaded-beeuni-tool")
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(found, [(6, 17), (8, 13)], "{report:#}");
}

#[test]
fn connector_prefix_counts_only_for_the_agent_that_has_it() {
    let dir = project(&[
        (
            "beeuni.yaml",
            &format!(
                "{FIVE}  github_notes: tools/notes.ts\nagents:\n  a:\n    connectors: [github]\n    tools: [github_notes, github]\n  b:\n    tools: [github_search]\n"
            ),
        ),
        ("tools/notes.ts", MODULE),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    // `github_notes` is a declared project tool; `github` is the connector itself.
    let message =
        "`github` is a tool of the connector `github`: connector tools follow `agents.a.connectors`, not this list";
    let unknown = "agent `b` lists `github_search`, which is not a known tool: it is ignored";
    assert_findings(
        &report,
        &[
            ("connector-in-tools", "warning", "beeuni.yaml", 11, 27, message),
            ("unknown-tool", "warning", "beeuni.yaml", 13, 13, unknown),
        ],
    );
}

#[test]
fn columns_count_utf16_code_units() {
    // `ä` is one UTF-16 unit (two bytes), `😀` two units (four bytes).
    let (_, report) = lint_agents("agents:\n  \"ä😀\": {tools: [grpe]}\n");
    let message = "agent `ä😀` lists `grpe`, which is not a known tool: it is ignored";
    assert_findings(&report, &[("unknown-tool", "warning", "beeuni.yaml", 8, 19, message)]);
    assert_eq!(diagnostics(&report)[0]["end_column"], 23);
}

#[test]
fn secret_not_granted_with_an_empty_list() {
    let dir = project(&[
        (
            "beeuni.yaml",
            "tools:\n  web_search: beeuni:web_search\n  weather_now: tools/weather_now.ts\nagents:\n  forecaster:\n    secrets: [WEATHER_API_KEY]\n  helper:\n    secrets: []\n",
        ),
        (
            "tools/weather_now.ts",
            "export default { description: 'x', parameters: { type: 'object', properties: {} }, async execute(args, context) { return context.env.WEATHER_API_KEY } }\n",
        ),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    let found = of_rule(&report, "secret-not-granted");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!((found[0]["line"].as_u64(), found[0]["column"].as_u64()), (Some(8), Some(5)));
}
