//! RULES.md §3 (agent tool lists): one triggering fixture and one clean twin
//! a rule, the docs' agents example, and the readings of §0 and §10.

use crate::common::*;

fn clean_twin(rule: &str) {
    let name = format!("{rule}-clean");
    let (code, report) = run(&name, &[]);
    assert!(of_rule(&report, rule).is_empty(), "{name} still has `{rule}`");
    assert_clean(&name, code, &report);
}

fn trigger(rule: &str, code: i32, expected: &[Expect]) -> serde_json::Value {
    let (actual, report) = run(rule, &[]);
    assert_findings(&report, expected);
    assert_eq!(actual, code, "exit code of {rule}");
    report
}

const FIVE: &str = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\n";

/// Lints `FIVE` followed by `agents` (which starts with `agents:`).
fn lint_agents(agents: &str) -> (i32, serde_json::Value) {
    let dir = project(&[("beeuni.yaml", &format!("{FIVE}{agents}"))]);
    json_in(dir.path(), &[])
}

#[test]
fn agent_tools_shape() {
    let message = "`tools` of agent `support` must be `all`, `none`, a list of tools, `{exclude: [...]}` or a map of booleans, not `All`";
    let report = trigger("agent-tools-shape", 1, &[("agent-tools-shape", "error", "beeuni.yaml", 9, 12, message)]);
    let finding = &diagnostics(&report)[0];
    assert_help(finding, "did you mean `all`?");
    assert_eq!(finding["fix"]["safety"], "safe");
    assert_eq!(finding["fix"]["edits"][0]["content"], "all");
    clean_twin("agent-tools-shape");
}

#[test]
fn unknown_tool() {
    let message = "agent `researcher` lists `grpe`, which is not a known tool: it is ignored";
    // A block list item: the finding points at its `- `.
    let report = trigger("unknown-tool", 1, &[("unknown-tool", "warning", "beeuni.yaml", 11, 7, message)]);
    let finding = &diagnostics(&report)[0];
    assert_help(finding, "did you mean `grep`?");
    assert_eq!(finding["fix"]["safety"], "unsafe");
    assert_eq!(finding["fix"]["edits"][0]["content"], "grep");
    clean_twin("unknown-tool");
}

#[test]
fn unknown_excluded_tool() {
    let message =
        "agent `support` excludes `bsh`, which is not a known tool: it hides nothing, and `bash` stays enabled";
    // A flow list item: the finding points at the name.
    trigger("unknown-excluded-tool", 1, &[("unknown-excluded-tool", "error", "beeuni.yaml", 10, 17, message)]);
    clean_twin("unknown-excluded-tool");
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
fn connector_in_tools() {
    let message = "`github_search` is a tool of the connector `github`: connector tools follow `agents.support.connectors`, not this list";
    trigger("connector-in-tools", 1, &[("connector-in-tools", "warning", "beeuni.yaml", 10, 19, message)]);
    clean_twin("connector-in-tools");
}

#[test]
fn permission_unknown_tool() {
    let message =
        "`permission` of agent `support` names `bsh`, which is not a known tool: the default permission stays in force";
    // `"git *"` is a pattern and is left alone.
    let report =
        trigger("permission-unknown-tool", 1, &[("permission-unknown-tool", "warning", "beeuni.yaml", 10, 7, message)]);
    assert_help(&diagnostics(&report)[0], "did you mean `bash`?");
    clean_twin("permission-unknown-tool");
}

#[test]
fn unloaded_beeuni_tool() {
    let message = "\"show\" is a Beeuni tool this project does not load: add `show: beeuni:show` under the top-level `tools`, or remove it here.";
    trigger("unloaded-beeuni-tool", 1, &[("unloaded-beeuni-tool", "warning", "beeuni.yaml", 5, 19, message)]);
    clean_twin("unloaded-beeuni-tool");
}

#[test]
fn legacy_tools_map() {
    let message = "agent `support` uses the earlier map form of `tools`";
    let report = trigger("legacy-tools-map", 0, &[("legacy-tools-map", "info", "beeuni.yaml", 9, 5, message)]);
    assert_help(&diagnostics(&report)[0], "write `tools: {exclude: [bash, glob]}`");
    clean_twin("legacy-tools-map");
}

#[test]
fn redundant_wildcard() {
    let message = "`*` makes the list of agent `beeuni` `all`: the other names add nothing";
    trigger("redundant-wildcard", 0, &[("redundant-wildcard", "info", "beeuni.yaml", 9, 13, message)]);
    clean_twin("redundant-wildcard");
}

#[test]
fn empty_tool_list() {
    let message = "agent `greeter` has an empty tool list: it gets no tool";
    let report = trigger("empty-tool-list", 0, &[("empty-tool-list", "info", "beeuni.yaml", 9, 5, message)]);
    assert_help(&diagnostics(&report)[0], "write `tools: none` to say so, or list the tools it needs");
    clean_twin("empty-tool-list");
}

#[test]
fn shared_permission() {
    let message = "agent `scribe` lists `write` but not `edit` and `apply_patch`: on the standard harness they share one permission, so it gets `edit` and `apply_patch` too";
    trigger("shared-permission", 1, &[("shared-permission", "warning", "beeuni.yaml", 9, 19, message)]);
    clean_twin("shared-permission");
}

#[test]
fn pty_follows_bash() {
    let message = "on the standard harness `pty_spawn` follows `bash`: naming it without `bash` hides nothing for agent `support`";
    trigger("pty-follows-bash", 1, &[("pty-follows-bash", "warning", "beeuni.yaml", 10, 17, message)]);
    clean_twin("pty-follows-bash");
}

#[test]
fn task_escalation() {
    let message = "agent `support` hides `bash` but can use `task`: on the standard harness a subagent gets its own list, so `support` can reach `bash` through `beeuni`";
    // At agent A's `tools:` key.
    trigger("task-escalation", 0, &[("task-escalation", "info", "beeuni.yaml", 11, 5, message)]);
    clean_twin("task-escalation");
}

#[test]
fn duplicate_agent() {
    let message = "agent `support` is already declared in `beeuni.yaml`: an agent may be declared in one file only";
    let report = trigger("duplicate-agent", 1, &[("duplicate-agent", "error", "config/agents.yaml", 2, 3, message)]);
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 9, 3, "first declared here");
    clean_twin("duplicate-agent");
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
    let message = "unknown key `exlude` in the `tools` of agent `support`: it is ignored";
    assert_findings(&report, &[("unknown-key", "warning", "beeuni.yaml", 9, 13, message)]);
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
