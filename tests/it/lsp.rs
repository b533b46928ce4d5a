//! `beeuni-lint lsp` driven over stdio by a scripted JSON-RPC client: the findings of unsaved buffers at exact
//! UTF-16 ranges, edits that clear them, code actions, hover, definition, completion and a clean exit.

use crate::common;
use crate::lsp_support::{Client, apply_edits, position_of, uri};
use serde_json::{Value, json};
use std::time::Duration;

/// An emoji (two UTF-16 units, four bytes) before the finding on its line; a safe fix two lines above.
const MANIFEST: &str = "\
tools:
  web_search: beeuni:web_search
  memory: beeuni:memroy
  lookup: tools/lookup.ts
agents:
  \"😀bot\": {tools: {exclude: [bsh]}}
  coder:
    tools: [lookup, read]
";

/// What Neovim 0.7 tells a server: no resolve support, markdown hover, no position encodings.
fn neovim_07() -> Value {
    json!({
        "textDocument": {
            "synchronization": { "didSave": true, "dynamicRegistration": false },
            "hover": { "contentFormat": ["markdown", "plaintext"] },
            "codeAction": { "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["", "quickfix", "source"] } } },
            "publishDiagnostics": { "relatedInformation": true }
        },
        "workspace": { "configuration": true }
    })
}

fn project() -> tempfile::TempDir {
    common::project(&[("beeuni.yaml", MANIFEST), ("tools/lookup.ts", common::MODULE)])
}

fn by_rule<'a>(diagnostics: &'a [Value], rule: &str) -> &'a Value {
    diagnostics.iter().find(|d| d["code"] == rule).unwrap_or_else(|| panic!("no {rule} in {diagnostics:#?}"))
}

#[test]
fn lints_unsaved_buffers_and_fixes_and_navigates() {
    let dir = project();
    let (mut client, init) = Client::initialized(dir.path(), neovim_07());
    let sync = &init["capabilities"]["textDocumentSync"];
    assert_eq!((&sync["openClose"], &sync["change"]), (&json!(true), &json!(1)), "{init}");
    assert!(init["capabilities"].get("diagnosticProvider").is_none(), "no pull diagnostics");
    let manifest = uri(&dir.path().join("beeuni.yaml"));
    client.open(&manifest, MANIFEST);
    let diagnostics = client.diagnostics(&manifest);
    assert_eq!(diagnostics.len(), 2, "{diagnostics:#?}");

    // `bsh` sits after `  "😀bot": {tools: {exclude: [`: 30 UTF-16 units (32 bytes) into line 6.
    let excluded = by_rule(&diagnostics, "unknown-excluded-tool");
    assert_eq!(
        excluded["range"],
        json!({ "start": { "line": 5, "character": 30 }, "end": { "line": 5, "character": 33 } })
    );
    assert_eq!(excluded["severity"], 1);
    assert_eq!(excluded["source"], "beeuni-lint");
    assert_eq!(
        excluded["codeDescription"]["href"],
        "https://beeuni.github.io/beeuni-lint/rules/unknown-excluded-tool.html"
    );
    assert_eq!(
        excluded["message"],
        "agent `😀bot` excludes `bsh`, which is not a known tool: it hides nothing, and `bash` stays enabled\nhelp: did you mean `bash`?"
    );
    let beeuni_ref = by_rule(&diagnostics, "beeuni-ref");
    assert_eq!(
        beeuni_ref["range"],
        json!({ "start": { "line": 2, "character": 2 }, "end": { "line": 2, "character": 23 } })
    );

    // A buffer edit clears the finding; the file on disk is untouched.
    let edited = MANIFEST.replace("[bsh]", "[bash]");
    client.change(&manifest, 2, &edited);
    let diagnostics = client.diagnostics(&manifest);
    assert_eq!(diagnostics.iter().map(|d| d["code"].as_str().unwrap()).collect::<Vec<_>>(), ["beeuni-ref"]);
    assert_eq!(std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap(), MANIFEST);

    // The safe fix is preferred, the ignore comment is not; applying the fix clears the last finding.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": manifest },
            "range": { "start": { "line": 2, "character": 10 }, "end": { "line": 2, "character": 10 } },
            "context": { "diagnostics": diagnostics }
        }),
    );
    let titles: Vec<&str> = actions.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(
        titles,
        [
            "Replace `beeuni:memroy` with `beeuni:memory`",
            "Ignore `beeuni-ref` on this line",
            "Fix all safe fixes in this file"
        ]
    );
    let fix = &actions[0];
    assert_eq!((&fix["kind"], &fix["isPreferred"]), (&json!("quickfix"), &json!(true)));
    assert_eq!(fix["diagnostics"][0]["code"], "beeuni-ref");
    let fixed = apply_edits(&edited, &fix["edit"], &manifest);
    assert!(fixed.contains("  memory: beeuni:memory\n"), "{fixed}");
    client.change(&manifest, 3, &fixed);
    assert_eq!(client.diagnostics(&manifest), Vec::<Value>::new());

    // Hover on an agent-list item: kind, source, who can call it on each harness.
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": manifest }, "position": position_of(&fixed, "lookup, read") }),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert_eq!(
        text,
        "`lookup`: project tool, module `tools/lookup.ts`\n\n\
         - standard harness: `😀bot` (not excluded), `coder` (listed)\n\
         - experimental harness: `😀bot` (not excluded), `coder` (listed)\n"
    );

    // Definition: the list item → its `tools:` entry; the entry → the module.
    let definition = client.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": manifest }, "position": position_of(&fixed, "lookup, read") }),
    );
    assert_eq!(definition["uri"], manifest);
    assert_eq!(
        definition["range"],
        json!({ "start": { "line": 3, "character": 2 }, "end": { "line": 3, "character": 25 } })
    );
    let definition = client.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": manifest }, "position": position_of(&fixed, "tools/lookup.ts") }),
    );
    assert_eq!(definition["uri"], uri(&dir.path().join("tools/lookup.ts")));

    // Completion of tool names in a flow list, with the typed word replaced.
    let typing = fixed.replace("[lookup, read]", "[lookup, read, ba]");
    client.change(&manifest, 4, &typing);
    client.diagnostics(&manifest);
    let mut at = position_of(&typing, "ba]");
    at["character"] = json!(at["character"].as_u64().unwrap() + 2);
    let items =
        client.request("textDocument/completion", json!({ "textDocument": { "uri": manifest }, "position": at }));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    for name in ["bash", "read", "web_search", "memory", "lookup"] {
        assert!(labels.contains(&name), "{name} missing from {labels:?}");
    }
    assert!(!labels.contains(&"image_search"), "an unloaded Beeuni tool is not offered: {labels:?}");
    let bash = items.as_array().unwrap().iter().find(|i| i["label"] == "bash").unwrap();
    assert_eq!(bash["textEdit"]["range"]["start"], json!({ "line": 7, "character": 26 }));
    assert_eq!(bash["textEdit"]["newText"], "bash");

    let (status, took) = client.shutdown_and_exit();
    assert_eq!(status, Some(0));
    assert!(took < Duration::from_millis(500), "exit took {took:?}");
}

const IGNORING: &str = "\
imports:
  - config/more.yaml
tools:
  memory: beeuni:memory
  Lookup: tools/lookup.ts  # maintained by us
agents:
  coder:
    tools: [Lookup, fetcher, bsh, pty_spawn]  # beeuni-lint: ignore[unknown-tool]
";

const FETCHER: &str = "\
export default {
  description: 'Fetches.',
  parameters: { type: 'object', properties: {} },
  async execute() { return process.env.API_TOKEN },
}
";

fn ignoring_project() -> tempfile::TempDir {
    common::project(&[
        ("beeuni.yaml", IGNORING),
        ("config/more.yaml", "tools:\n  fetcher: tools/fetcher.ts\n"),
        ("tools/lookup.ts", common::MODULE),
        ("tools/fetcher.ts", FETCHER),
    ])
}

/// The actions offered at the start of a finding's range, by title.
fn actions_at(client: &mut Client, uri: &str, finding: &Value) -> Vec<Value> {
    let range = json!({ "start": finding["range"]["start"], "end": finding["range"]["start"] });
    let context = json!({ "diagnostics": [finding] });
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": range, "context": context }),
    );
    actions.as_array().unwrap().clone()
}

#[test]
fn ignore_comments_through_code_action_resolve() {
    let dir = ignoring_project();
    let capabilities = json!({
        "textDocument": { "codeAction": {
            "dataSupport": true,
            "resolveSupport": { "properties": ["edit"] },
            "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["quickfix", "source"] } }
        } }
    });
    let (mut client, init) = Client::initialized(dir.path(), capabilities);
    assert_eq!(init["capabilities"]["codeActionProvider"]["resolveProvider"], true);
    let manifest = uri(&dir.path().join("beeuni.yaml"));
    client.open(&manifest, IGNORING);
    let diagnostics = client.diagnostics(&manifest);
    let rules: Vec<&str> = diagnostics.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(rules, ["tool-name", "pty-follows-bash"]);

    // A line that already ends in a comment gets the ignore on its own line above, with the line's indentation.
    let actions = actions_at(&mut client, &manifest, by_rule(&diagnostics, "tool-name"));
    let ignore = actions.iter().find(|a| a["title"] == "Ignore `tool-name` on this line").unwrap();
    assert!(ignore.get("edit").is_none(), "the edit waits for codeAction/resolve: {ignore}");
    let resolved = client.request("codeAction/resolve", ignore.clone());
    let text = apply_edits(IGNORING, &resolved["edit"], &manifest);
    assert!(
        text.contains("\n  # beeuni-lint: ignore[tool-name]\n  Lookup: tools/lookup.ts  # maintained by us\n"),
        "{text}"
    );

    client.change(&manifest, 2, &text);
    let diagnostics = client.diagnostics(&manifest);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");

    // A line with an ignore comment gets one more id in it.
    let actions = actions_at(&mut client, &manifest, by_rule(&diagnostics, "pty-follows-bash"));
    let ignore = actions.iter().find(|a| a["title"] == "Ignore `pty-follows-bash` on this line").unwrap();
    let resolved = client.request("codeAction/resolve", ignore.clone());
    let text = apply_edits(&text, &resolved["edit"], &manifest);
    assert!(text.contains("pty_spawn]  # beeuni-lint: ignore[unknown-tool, pty-follows-bash]\n"), "{text}");
    client.change(&manifest, 3, &text);
    assert_eq!(client.diagnostics(&manifest), Vec::<Value>::new(), "both ignored, none unused");

    // An action resolved against an older version of the buffer gets no edit.
    let stale = client.request("codeAction/resolve", ignore.clone());
    assert!(stale.get("edit").is_none(), "{stale}");

    // An ignore at the end of a plain line.
    let typo = text.replace("beeuni:memory", "beeuni:memroy");
    client.change(&manifest, 4, &typo);
    let diagnostics = client.diagnostics(&manifest);
    let actions = actions_at(&mut client, &manifest, by_rule(&diagnostics, "beeuni-ref"));
    let ignore = actions.iter().find(|a| a["title"] == "Ignore `beeuni-ref` on this line").unwrap();
    let resolved = client.request("codeAction/resolve", ignore.clone());
    let text = apply_edits(&typo, &resolved["edit"], &manifest);
    assert!(text.contains("\n  memory: beeuni:memroy  # beeuni-lint: ignore[beeuni-ref]\n"), "{text}");
    client.change(&manifest, 5, &text);
    // Ignored, `memroy` still loads no Beeuni tool.
    let rules: Vec<Value> = client.diagnostics(&manifest).iter().map(|d| d["code"].clone()).collect();
    assert_eq!(rules, [json!("no-beeuni-tools")]);
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status, Some(0));
}

#[test]
fn modules_imports_and_closing() {
    let dir = ignoring_project();
    let (mut client, _) = Client::initialized(dir.path(), neovim_07());
    let manifest = uri(&dir.path().join("beeuni.yaml"));
    let fetcher = uri(&dir.path().join("tools/fetcher.ts"));
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": fetcher, "languageId": "typescript", "version": 1, "text": FETCHER } }),
    );
    let diagnostics = client.diagnostics(&fetcher);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "module-process-env");
    assert_eq!(
        diagnostics[0]["range"],
        json!({ "start": { "line": 3, "character": 27 }, "end": { "line": 3, "character": 48 } })
    );

    // Opening the manifest publishes for both open files of the project.
    client.open(&manifest, IGNORING);
    assert_eq!(client.diagnostics(&manifest).len(), 2);
    assert_eq!(client.diagnostics(&fetcher).len(), 1);

    // The module's ignore goes on its own line above, as a `//` comment; the unsaved module is what is linted.
    let actions = actions_at(&mut client, &fetcher, &diagnostics[0]);
    assert_eq!(
        actions.iter().map(|a| a["title"].as_str().unwrap()).collect::<Vec<_>>(),
        ["Ignore `module-process-env` on this line"]
    );
    let ignored = apply_edits(FETCHER, &actions[0]["edit"], &fetcher);
    assert!(ignored.contains("\n  // beeuni-lint: ignore[module-process-env]\n  async execute()"), "{ignored}");
    client.change(&fetcher, 2, &ignored);
    assert_eq!(client.diagnostics(&fetcher), Vec::<Value>::new());
    assert_eq!(client.diagnostics(&manifest).len(), 2);

    // Definition from an `imports:` item, and from an agent-list item to a tool declared in the imported file.
    let at = |needle: &str| json!({ "textDocument": { "uri": manifest }, "position": position_of(IGNORING, needle) });
    let definition = client.request("textDocument/definition", at("config/more.yaml"));
    assert_eq!(definition["uri"], uri(&dir.path().join("config/more.yaml")));
    let definition = client.request("textDocument/definition", at("fetcher, bsh"));
    assert_eq!(definition["uri"], uri(&dir.path().join("config/more.yaml")));
    assert_eq!(definition["range"]["start"], json!({ "line": 1, "character": 2 }));

    // Hover on a harness tool and on a Beeuni tool.
    let hover = client.request("textDocument/hover", at("pty_spawn"));
    assert_eq!(
        hover["contents"]["value"],
        "`pty_spawn`: harness tool, built into the harness\n\n- standard harness: no agent\n- experimental harness: no agent\n"
    );
    let hover = client.request("textDocument/hover", at("memory: beeuni"));
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .starts_with("`memory`: Beeuni tool (hosted), source `beeuni:memory`"),
        "{hover}"
    );

    // Completion of a `beeuni:` value (the tool's own first) and of an agent's keys.
    let typing = IGNORING
        .replace("  memory: beeuni:memory\n", "  memory: beeuni:\n")
        .replace("  coder:\n", "  coder:\n    se\n");
    client.change(&manifest, 2, &typing);
    client.diagnostics(&manifest);
    let mut at_value = position_of(&typing, "beeuni:\n");
    at_value["character"] = json!(at_value["character"].as_u64().unwrap() + 7);
    let items =
        client.request("textDocument/completion", json!({ "textDocument": { "uri": manifest }, "position": at_value }));
    assert_eq!(items[0]["label"], "beeuni:memory");
    assert_eq!(items[0]["textEdit"]["range"]["start"], json!({ "line": 3, "character": 10 }));
    let mut at_key = position_of(&typing, "se\n");
    at_key["character"] = json!(at_key["character"].as_u64().unwrap() + 2);
    let items =
        client.request("textDocument/completion", json!({ "textDocument": { "uri": manifest }, "position": at_key }));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["tools", "secrets", "connectors", "permission"]);

    // Closing a file clears its diagnostics; the other file is linted again from disk for the closed one.
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": fetcher } }));
    assert_eq!(client.diagnostics(&fetcher), Vec::<Value>::new());
    client.diagnostics(&manifest);
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status, Some(0));
}

#[test]
fn exit_without_shutdown_and_requests_after_it() {
    let dir = project();
    let (mut client, _) = Client::initialized(dir.path(), json!({}));
    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    let refused = client.request_raw(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///x" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(refused["error"]["code"], -32600);
    client.notify("exit", Value::Null);
    drop(client);

    let (mut client, _) = Client::initialized(dir.path(), json!({}));
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit(), Some(1), "exit before shutdown is status 1");
}

#[test]
fn each_file_belongs_to_the_nearest_project_above_it() {
    let dir = common::project(&[
        ("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n"),
        ("apps/x/beeuni.yaml", "agents:\n  b:\n    tools: [raed]\n"),
        ("apps/x/docs/notes.yaml", "not: part of the graph\n"),
    ]);
    // The root folder the client names is not where projects are looked for.
    let (mut client, _) = Client::initialized(&dir.path().join("apps"), json!({}));
    let inner = uri(&dir.path().join("apps/x/beeuni.yaml"));
    let outer = uri(&dir.path().join("beeuni.yaml"));
    let notes = uri(&dir.path().join("apps/x/docs/notes.yaml"));
    client.open(&inner, "agents:\n  b:\n    tools: [raed]\n");
    let diagnostics = client.diagnostics(&inner);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0]["code"], "unknown-tool");
    client.open(&outer, "agents:\n  a:\n    tools: [read]\n");
    assert_eq!(client.diagnostics(&outer), Vec::<Value>::new());
    // A YAML file of the project outside its graph gets an empty list.
    client.open(&notes, "not: part of the graph\n");
    assert_eq!(client.diagnostics(&notes), Vec::<Value>::new());
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status, Some(0));
}

#[test]
fn a_save_shows_files_changed_on_disk() {
    let text = "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n";
    let dir = common::project(&[("beeuni.yaml", text)]);
    let (mut client, _) = Client::initialized(dir.path(), json!({}));
    let manifest = uri(&dir.path().join("beeuni.yaml"));
    client.open(&manifest, text);
    let rules: Vec<Value> = client.diagnostics(&manifest).iter().map(|d| d["code"].clone()).collect();
    assert_eq!(rules, [json!("module-missing")]);
    // Another program writes the module; the next save looks at the disk again.
    common::write(dir.path(), "tools/lookup.ts", common::MODULE.as_bytes());
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": manifest } }));
    assert_eq!(client.diagnostics(&manifest), Vec::<Value>::new());
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status, Some(0));
}

/// A buffer whose lines end in a lone CR: findings, the quick fix and hover work there as with LF (the server
/// counted lines at `\n` only, so such a buffer was one line and got no action, hover or definition).
#[test]
fn a_buffer_with_lone_carriage_returns_gets_actions_and_hover() {
    let text = "tools:\r  memory: beeuni:memroy\r  lookup: tools/lookup.ts\ragents:\r  a:\r    tools: [lookup]\r";
    let dir = common::project(&[("beeuni.yaml", text), ("tools/lookup.ts", common::MODULE)]);
    let (mut client, _) = Client::initialized(dir.path(), neovim_07());
    let manifest = uri(&dir.path().join("beeuni.yaml"));
    client.open(&manifest, text);
    let diagnostics = client.diagnostics(&manifest);
    let beeuni_ref = by_rule(&diagnostics, "beeuni-ref");
    assert_eq!(beeuni_ref["range"]["start"], json!({ "line": 1, "character": 2 }));
    let actions = actions_at(&mut client, &manifest, beeuni_ref);
    let fix = actions.iter().find(|a| a["isPreferred"] == true).unwrap_or_else(|| panic!("{actions:#?}"));
    let fixed = apply_edits(text, &fix["edit"], &manifest);
    assert_eq!(fixed, text.replace("memroy", "memory"));
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": manifest }, "position": { "line": 5, "character": 13 } }),
    );
    assert!(hover["contents"]["value"].as_str().is_some_and(|v| v.contains("lookup")), "{hover}");
    let definition = client.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": manifest }, "position": { "line": 2, "character": 4 } }),
    );
    assert!(definition.to_string().contains("tools/lookup.ts"), "{definition}");
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status, Some(0));
}

/// "Ignore on this line" for a finding on a module's `#!` line puts the comment below the hashbang (above it, the
/// module no longer parsed and nothing was ignored), and the finding goes.
#[test]
fn ignoring_a_finding_on_a_hashbang_line_writes_below_it() {
    let module = "#!/usr/bin/env bun\nexport const lookup = { description: 'x' }\n";
    let dir = common::project(&[("beeuni.yaml", "tools:\n  lookup: tools/lookup.ts\n"), ("tools/lookup.ts", module)]);
    let (mut client, _) = Client::initialized(dir.path(), neovim_07());
    let path = uri(&dir.path().join("tools/lookup.ts"));
    client.open(&path, module);
    let diagnostics = client.diagnostics(&path);
    let finding = by_rule(&diagnostics, "module-no-default-export");
    assert_eq!(finding["range"]["start"], json!({ "line": 0, "character": 0 }));
    let actions = actions_at(&mut client, &path, finding);
    let ignore = actions
        .iter()
        .find(|a| a["title"] == "Ignore `module-no-default-export` on this line")
        .unwrap_or_else(|| panic!("{actions:#?}"));
    let text = apply_edits(module, &ignore["edit"], &path);
    assert_eq!(
        text,
        "#!/usr/bin/env bun\n// beeuni-lint: ignore[module-no-default-export]\nexport const lookup = { description: 'x' }\n"
    );
    client.change(&path, 2, &text);
    assert_eq!(client.diagnostics(&path), Vec::<Value>::new());
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status, Some(0));
}

/// An agent declared in an imported file, whose name holds backticks and HTML.
const AGENTS: &str = "\
agents:
  \"x```<img src=e>\":
    tools: {exclude: [bash]}
";

/// The standard harness's table heading, as `beeuni-lint agents` prints it.
const STANDARD: &str =
    "Standard harness (opencode): `write`, `edit`, `apply_patch` share one permission; `pty_*` follow `bash`\n";
const EXPERIMENTAL: &str = "Experimental harness: every name as written; no terminal plugin\n";

#[test]
fn hover_on_an_agent_shows_what_it_can_call() {
    let manifest_text = "imports:\n  - config/agents.yaml\ntools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\nagents:\n  coder:\n    tools: [lookup, read, task]\n";
    let dir = common::project(&[
        ("beeuni.yaml", manifest_text),
        ("config/agents.yaml", AGENTS),
        ("tools/lookup.ts", common::MODULE),
    ]);
    let (mut client, _) = Client::initialized(dir.path(), neovim_07());
    let manifest = uri(&dir.path().join("beeuni.yaml"));
    client.open(&manifest, manifest_text);
    client.diagnostics(&manifest);
    let at = |uri: &str, text: &str, needle: &str| json!({ "textDocument": { "uri": uri }, "position": position_of(text, needle) });
    // The rows of `agents` for this agent, what `task` reaches included; the other agent's name stays inside the
    // fence, which is longer than its backticks.
    let coder_table = format!(
        "{STANDARD}\
         AGENT  WHY                                HARNESS                   BEEUNI      PROJECT\n\
         coder  listed                             read, task                -           lookup\n       \
         through `task`: `x```<img src=e>`  all but bash, read, task  web_search  -\n\n\
         {EXPERIMENTAL}\
         AGENT  WHY     HARNESS     BEEUNI  PROJECT\n\
         coder  listed  read, task  -       lookup\n"
    );
    let hover = client.request("textDocument/hover", at(&manifest, manifest_text, "coder:"));
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert_eq!(hover["contents"]["value"], format!("`coder`: what it can call\n\n````text\n{coder_table}````\n"));
    assert_eq!(hover["range"], json!({ "start": { "line": 6, "character": 2 }, "end": { "line": 6, "character": 7 } }));

    // An agent of an imported file: its name a code span in the heading, escaped in the table.
    let imported = uri(&dir.path().join("config/agents.yaml"));
    client.open(&imported, AGENTS);
    client.diagnostics(&imported);
    let hover = client.request("textDocument/hover", at(&imported, AGENTS, "x```"));
    let rows = "AGENT            WHY           HARNESS       BEEUNI      PROJECT\n\
                x```<img src=e>  not excluded  all but bash  web_search  lookup\n";
    assert_eq!(
        hover["contents"]["value"],
        format!("````x```<img src=e>````: what it can call\n\n````text\n{STANDARD}{rows}\n{EXPERIMENTAL}{rows}````\n")
    );
    assert_eq!(hover["range"]["start"], json!({ "line": 1, "character": 2 }));
    client.shutdown_and_exit();

    // A client without Markdown hovers gets the table as plain text.
    let (mut client, _) = Client::initialized(dir.path(), json!({}));
    client.open(&manifest, manifest_text);
    client.diagnostics(&manifest);
    let hover = client.request("textDocument/hover", at(&manifest, manifest_text, "coder:"));
    assert_eq!(hover["contents"]["kind"], "plaintext");
    assert_eq!(hover["contents"]["value"], format!("`coder`: what it can call\n\n{coder_table}"));
    client.shutdown_and_exit();
}
