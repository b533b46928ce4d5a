//! `beeuni-lint lsp` driven over stdio by a scripted JSON-RPC client: the findings of unsaved buffers at exact
//! UTF-16 ranges, edits that clear them, code actions, hover, definition, completion and a clean exit.

mod common;
mod lsp_support;

use lsp_support::{Client, apply_edits, position_of, uri};
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
    assert_eq!(excluded["codeDescription"]["href"], "https://github.com/beeuni/beeuni-lint#unknown-excluded-tool");
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
