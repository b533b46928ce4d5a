//! Hostile inputs: regular expressions. oxc's pattern parser recurses once per group (and per nested class of a
//! `v`-flag pattern): 100,000 nested groups overflowed the stack (SIGABRT). Its duplicate-name check is quadratic:
//! 30,000 nested named groups took 5 s and 1.8 GB, 120,000 flat ones 33 s. Each attack, wherever a module is
//! analysed (a declared tool, a helper it imports, an xcsh tool, a buffer open in the language server), ends
//! bounded with one `analysis-limit` (warning: it fails the default gate) at the group or class that passes the
//! limit.

use crate::common::assert_findings;
use crate::support::*;
use serde_json::{Value, json};

/// The line that holds the attack: the pattern starts at its byte 17.
const PATTERN_LINE: &str = "const PATTERN = /";

const NESTED: &str =
    "has a regular expression nested more than 1000 groups or classes deep, deeper than beeuni-lint analyses";
const NAMED: &str = "has a regular expression with more than 1000 named groups, more than beeuni-lint analyses";
const MODULE_NAMED: &str =
    "has more than 10000 named groups in its regular expressions, more than beeuni-lint analyses";

fn nested_groups(n: usize) -> String {
    format!("{}a{}", "(".repeat(n), ")".repeat(n))
}

fn nested_named_groups(n: usize) -> String {
    (0..n).map(|i| format!("(?<g{i}>")).collect::<String>() + "a" + &")".repeat(n)
}

fn flat_named_groups(n: usize, first: usize) -> String {
    (first..first + n).map(|i| format!("(?<g{i}>a)")).collect()
}

/// The offset in `pattern` of its 1,001st named group, where the limit is passed.
fn past_named_limit(pattern: &str) -> usize {
    pattern.match_indices("(?<").nth(1_000).expect("more than 1,000 named groups").0
}

/// A clean tool module whose first line holds `/pattern/flags`.
fn tool(pattern: &str, flags: &str) -> String {
    format!("{PATTERN_LINE}{pattern}/{flags}\n{}", MODULE.replace("return 'ok'", "return PATTERN.source"))
}

/// The column (1-based, the line being ASCII) of `offset` in the pattern of a [`tool`] line.
fn column(offset: usize) -> u64 {
    (PATTERN_LINE.len() + offset + 1) as u64
}

/// The manifest with the tool `x` declared at `tools/x.ts`.
fn manifest() -> String {
    MANIFEST.replacen("tools:\n", "tools:\n  x: tools/x.ts\n", 1)
}

/// `check --format json` on the project: bounded, untouched outside, and the report.
fn check(sandbox: &Sandbox, what: &str) -> Value {
    let outcome = sandbox.run(&["check", "--format", "json"]);
    outcome.assert_bounded(what);
    sandbox.assert_untouched(what, &outcome);
    let report = outcome.json();
    // A tool left unchecked (`analysis-limit`, a warning) fails the default gate.
    let unchecked = report["diagnostics"].as_array().is_some_and(|d| !d.is_empty());
    assert_eq!(outcome.code, Some(i32::from(unchecked)), "{what}\n{}", outcome.stderr());
    report
}

/// The report holds one finding: the module at `path` refused at `line`, `column` for `why`.
fn assert_refused(report: &Value, path: &str, line: u64, column: u64, why: &str) {
    let message = format!("`{path}` {why}: none of its checks were made");
    assert_findings(report, &[("analysis-limit", "warning", path, line, column, &message)]);
}

/// A declared tool whose first line holds `/pattern/flags`, checked: refused at `offset` in the pattern for `why`.
fn declared_tool_refused(what: &str, pattern: &str, flags: &str, offset: usize, why: &str) {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest()).file("tools/x.ts", tool(pattern, flags)).commit("attack");
    let report = check(&sandbox, what);
    assert_refused(&report, "tools/x.ts", 1, column(offset), why);
}

#[test]
fn a_hundred_thousand_nested_groups_in_a_declared_tool() {
    declared_tool_refused("100,000 nested groups", &nested_groups(100_000), "", 1_000, NESTED);
}

#[test]
fn a_hundred_thousand_nested_groups_in_a_helper() {
    let sandbox = Sandbox::new();
    let helper = format!("{PATTERN_LINE}{}/\nexport {{ PATTERN }}\n", nested_groups(100_000));
    let importer =
        MODULE.replace("export default", "import { PATTERN } from './helper'\nconsole.log(PATTERN)\nexport default");
    sandbox.file("beeuni.yaml", manifest()).file("tools/x.ts", importer).file("tools/helper.ts", helper);
    sandbox.commit("attack");
    let report = check(&sandbox, "100,000 nested groups in a helper");
    assert_refused(&report, "tools/helper.ts", 1, column(1_000), NESTED);
}

#[test]
fn a_hundred_thousand_nested_groups_in_an_xcsh_tool() {
    let sandbox = Sandbox::new();
    let module = format!(
        "{PATTERN_LINE}{}/\nexport default (pi) => ({{\n  name: 'x',\n  description: PATTERN.source,\n  parameters: pi.typebox.Type.Object({{}}),\n  async execute(toolCallId, params, onUpdate, ctx, signal) {{ return {{ content: [] }} }},\n}})\n",
        nested_groups(100_000)
    );
    sandbox.file(".xcsh/tools/x.ts", module).commit("attack");
    let report = check(&sandbox, "100,000 nested groups in an xcsh tool");
    assert_refused(&report, ".xcsh/tools/x.ts", 1, column(1_000), NESTED);
}

#[test]
fn nested_classes_of_a_v_flag_pattern() {
    let pattern = format!("{}a{}", "[".repeat(200_000), "]".repeat(200_000));
    declared_tool_refused("200,000 nested `v` classes", &pattern, "v", 1_000, NESTED);
}

/// A class `[)]` closes no group, and the pattern follows a block, where a reader that guesses (as the depth scan
/// does) takes the `/` for a division and the `'` for a string to the end of the line.
#[test]
fn nested_groups_a_guess_would_miss() {
    let sandbox = Sandbox::new();
    let pattern = "([)]".repeat(100_000);
    let module = format!("{MODULE}if (true) {{}}\n/'{pattern}/.test('')\n");
    sandbox.file("beeuni.yaml", manifest()).file("tools/x.ts", module).commit("attack");
    let report = check(&sandbox, "100,000 nested groups after a block");
    assert_refused(&report, "tools/x.ts", 3, (2 + 4 * 1_000 + 1) as u64, NESTED);
}

/// A quote in a regular expression after a block, which the depth scan's guess took for a division, hid the rest
/// of the line from it: 100,000 parentheses there overflowed the stack. The scan follows both readings now.
#[test]
fn nesting_behind_a_slash_read_both_ways() {
    let sandbox = Sandbox::new();
    let module = format!("{MODULE}if (true) {{}}\n/'/; x = {}\n", nested_groups(100_000));
    sandbox.file("beeuni.yaml", manifest()).file("tools/x.ts", module).commit("attack");
    let report = check(&sandbox, "100,000 parentheses after a regular expression after a block");
    // `/'/; x = ` is 9 bytes; the 5,001st parenthesis goes too deep.
    let why = "is nested more than 5000 brackets deep, deeper than beeuni-lint analyses";
    assert_refused(&report, "tools/x.ts", 3, 9 + 5_000 + 1, why);
}

/// Their nesting passes its limit first (at the 1,001st group); named groups nested in pairs pass the other.
#[test]
fn thirty_and_sixty_thousand_nested_named_groups() {
    for n in [30_000, 60_000] {
        let pattern = nested_named_groups(n);
        let what = format!("{n} nested named groups");
        declared_tool_refused(&what, &pattern, "", past_named_limit(&pattern), NESTED);
    }
    let pairs: String = (0..30_000).map(|i| format!("(?<a{i}>(?<b{i}>a))")).collect();
    declared_tool_refused("30,000 pairs of nested named groups", &pairs, "", past_named_limit(&pairs), NAMED);
}

#[test]
fn a_hundred_and_twenty_thousand_flat_named_groups() {
    let pattern = flat_named_groups(120_000, 0);
    declared_tool_refused("120,000 flat named groups", &pattern, "", past_named_limit(&pattern), NAMED);
}

/// Patterns of 1,000 named groups each (the most one may hold) cost the square of that each: the module's total
/// is bounded too, at the group that passes it.
#[test]
fn many_patterns_each_within_the_limit() {
    let sandbox = Sandbox::new();
    let patterns: String =
        (0..40).map(|p| format!("export const P{p} = /{}/\n", flat_named_groups(1_000, p * 1_000))).collect();
    let module = format!("{MODULE}{patterns}");
    sandbox.file("beeuni.yaml", manifest()).file("tools/x.ts", module).commit("attack");
    let report = check(&sandbox, "40 patterns of 1,000 named groups");
    // The 10,001st group opens the 11th pattern, on line 12, after `export const P10 = /`.
    assert_refused(&report, "tools/x.ts", 12, 21, MODULE_NAMED);
}

/// Patterns at the nesting limit, 2 MB of them (as much as a module analysed holds): refused at the one that passes 1 MiB of patterns in all (the
/// pattern parser reads some 16 MB a second: 29 MB took 2 s), and each pattern's tree (some 65 bytes a byte) is
/// let go before the next is parsed (kept in the module's arena, 5 MB of patterns took 272 MiB).
#[test]
fn megabytes_of_patterns_within_the_limits() {
    let sandbox = Sandbox::new();
    let pattern = nested_groups(1_000);
    let patterns: String = (0..1_000).map(|p| format!("export const P{p} = /{pattern}/u\n")).collect();
    sandbox.file("beeuni.yaml", manifest()).file("tools/x.ts", format!("{MODULE}{patterns}")).commit("attack");
    let report = check(&sandbox, "2 MB of patterns 1,000 deep");
    // 524 patterns of 2,001 bytes are 1,048,524 bytes: the 525th (`P524`, on line 526) passes 1 MiB.
    let why = "has more than 1 MiB of regular expressions, more than beeuni-lint analyses";
    assert_refused(&report, "tools/x.ts", 526, 22, why);
}

/// Backreferences, quantifiers with huge bounds and lookbehinds cost their parser their length: analysed.
#[test]
fn backreferences_and_huge_quantifiers_are_linear() {
    let sandbox = Sandbox::new();
    let pattern = format!("(?<g>a){}", r"\k<g>{1000000000,9007199254740991}(?<=b)\1".repeat(20_000));
    sandbox.file("beeuni.yaml", manifest()).file("tools/x.ts", tool(&pattern, "u")).commit("attack");
    let report = check(&sandbox, "20,000 backreferences and quantifiers");
    assert_findings(&report, &[]);
}

/// A framed language server message.
fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// The messages the server wrote, unframed (their bodies as written).
fn messages(mut stdout: &[u8]) -> Vec<Value> {
    let mut found = Vec::new();
    while let Some(start) = stdout.windows(4).position(|w| w == b"\r\n\r\n") {
        let header = String::from_utf8_lossy(&stdout[..start]);
        let length: usize = header
            .lines()
            .find_map(|line| line.strip_prefix("Content-Length: "))
            .and_then(|n| n.trim().parse().ok())
            .expect("a Content-Length header");
        let body = &stdout[start + 4..start + 4 + length];
        found.push(serde_json::from_slice(body).expect("a JSON message"));
        stdout = &stdout[start + 4 + length..];
    }
    found
}

/// The attack as an unsaved buffer of the declared tool (clean on disk), over the language server's stdin.
#[test]
fn a_hundred_thousand_nested_groups_in_a_language_server_buffer() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest()).file("tools/x.ts", MODULE).commit("clean");
    let root = std::fs::canonicalize(&sandbox.repo).expect("the repository");
    let uri = format!("file://{}", root.join("tools/x.ts").display());
    let document =
        json!({ "uri": uri, "languageId": "typescript", "version": 1, "text": tool(&nested_groups(100_000), "") });
    let initialize = json!({ "processId": null, "rootUri": format!("file://{}", root.display()), "capabilities": {} });
    let input = [
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize }),
        json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
        json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": document } }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null }),
        json!({ "jsonrpc": "2.0", "method": "exit", "params": null }),
    ]
    .iter()
    .flat_map(frame)
    .collect::<Vec<u8>>();
    let what = "100,000 nested groups in a buffer";
    let outcome = run_with(&sandbox.repo, &["lsp"], &[], Some(&input));
    // `assert_bounded`, but for the protocol's CRLF headers: each message's body is checked instead.
    assert_eq!(outcome.code, Some(0), "{what}: signal {:?}\n{}", outcome.signal, outcome.stderr());
    outcome.assert_in_time(what);
    assert!(outcome.peak_rss_bytes <= MEMORY_LIMIT_BYTES, "{what}: {} MiB", outcome.peak_rss_bytes >> 20);
    assert_no_control_bytes(&format!("{what}, stderr"), &outcome.stderr);
    sandbox.assert_untouched(what, &outcome);
    let messages = messages(&outcome.stdout);
    for message in &messages {
        assert_no_control_bytes(&format!("{what}, stdout"), message.to_string().as_bytes());
    }
    let published: Vec<Value> = messages
        .into_iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        .collect();
    let diagnostics = &published.last().expect("diagnostics for the buffer")["params"]["diagnostics"];
    let character = column(1_000) - 1;
    let expected = json!([{
        "range": { "start": { "line": 0, "character": character }, "end": { "line": 0, "character": character + 1 } },
        "severity": 2,
        "code": "analysis-limit",
        "source": "beeuni-lint",
        "message": format!("`tools/x.ts` {NESTED}: none of its checks were made\nhelp: the runtime may still load it; beeuni-lint stops here to stay within its limits"),
    }]);
    let without_links: Vec<Value> = diagnostics
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| {
            let mut d = d.clone();
            let object = d.as_object_mut().expect("an object");
            object.remove("codeDescription");
            object.remove("relatedInformation");
            d
        })
        .collect();
    assert_eq!(Value::from(without_links), expected);
}
