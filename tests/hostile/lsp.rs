//! Hostile inputs: the language server's byte stream. Each attack comes after a well-formed `initialize` /
//! `initialized`; the server answers it with a JSON-RPC error (or, for a response, says nothing), and a `shutdown`
//! sent after it must still be answered before `exit` ends the server with status 0.

use crate::support::*;
use serde_json::{Value, json};

/// The message size limit (docs/limits.md): twice the 32 MiB file limit.
const MESSAGE_LIMIT: usize = 64 * 1024 * 1024;
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

/// One message as a client frames it.
fn frame(message: &Value) -> Vec<u8> {
    raw_frame(message.to_string().as_bytes())
}

fn raw_frame(body: &[u8]) -> Vec<u8> {
    [format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(), body].concat()
}

/// `initialize` (id 1) and `initialized`.
fn opening() -> Vec<u8> {
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } });
    let initialized = json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} });
    [frame(&initialize), frame(&initialized)].concat()
}

/// The opening, the attack, a `shutdown` with a fresh id, `exit`.
fn session(attack: &[u8]) -> Vec<u8> {
    let shutdown = json!({ "jsonrpc": "2.0", "id": "after-the-attack", "method": "shutdown" });
    let exit = json!({ "jsonrpc": "2.0", "method": "exit" });
    [opening(), attack.to_vec(), frame(&shutdown), frame(&exit)].concat()
}

/// Runs `beeuni-lint lsp` on `input`: the outcome, bounded, and the messages it wrote (which must be well framed).
fn serve(what: &str, input: &[u8]) -> (Outcome, Vec<Value>) {
    let sandbox = Sandbox::new();
    let mut outcome = run_with(&sandbox.repo, &["lsp"], &[], Some(input));
    // The frames' CR LF are the protocol's: the JSON they frame is what must hold no raw control character.
    let framed = std::mem::take(&mut outcome.stdout);
    outcome.assert_bounded(what);
    let messages = messages(what, &framed);
    let initialized = messages.iter().any(|m| m["id"] == 1 && m["result"]["serverInfo"]["name"] == "beeuni-lint");
    assert!(initialized, "{what}: no answer to initialize in {messages:#?}");
    (outcome, messages)
}

/// The framed messages of the server's output, their JSON checked for raw control characters.
fn messages(what: &str, mut output: &[u8]) -> Vec<Value> {
    let mut messages = Vec::new();
    while !output.is_empty() {
        let end = output.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or_else(|| panic!("{what}: no header end"));
        let header = std::str::from_utf8(&output[..end]).expect("an ASCII header");
        let length: usize = header
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{what}: header {header:?}"));
        let body = &output[end + 4..end + 4 + length];
        assert_no_control_bytes(&format!("{what}, a message"), body);
        messages.push(serde_json::from_slice(body).unwrap_or_else(|e| panic!("{what}: body not JSON: {e}")));
        output = &output[end + 4 + length..];
    }
    messages
}

/// The server answered the `shutdown` sent after the attack and ended with status 0 on `exit`.
fn assert_survived(what: &str, outcome: &Outcome, messages: &[Value]) {
    let shutdown = messages.iter().find(|m| m["id"] == "after-the-attack");
    assert_eq!(shutdown.map(|m| &m["result"]), Some(&Value::Null), "{what}: shutdown not answered: {messages:#?}");
    assert_eq!(outcome.code, Some(0), "{what}: exit status\nstderr:\n{}", outcome.stderr());
}

/// The error answers (responses with an `error`), as (id, code, message).
fn errors(messages: &[Value]) -> Vec<(Value, i64, String)> {
    let error = |m: &Value| {
        let error = m.get("error")?;
        Some((m["id"].clone(), error["code"].as_i64()?, error["message"].as_str()?.to_string()))
    };
    messages.iter().filter_map(error).collect()
}

/// The attack got exactly these errors, as (id, code, message), and the server lived on.
fn assert_answered(what: &str, attack: &[u8], expected: &[(Value, i64, &str)]) {
    let (outcome, messages) = serve(what, &session(attack));
    let got = errors(&messages);
    let got: Vec<(Value, i64, &str)> =
        got.iter().map(|(id, code, message)| (id.clone(), *code, message.as_str())).collect();
    assert_eq!(got, expected, "{what}");
    assert_survived(what, &outcome, &messages);
}

fn too_large(length: u64) -> String {
    format!("the message has {length} bytes, more than the {MESSAGE_LIMIT} bytes (64 MiB) the server reads")
}

#[test]
fn a_content_length_of_a_petabyte_is_answered_not_allocated() {
    // The body the header promises never comes: the stream ends within it. 100 TB among them.
    for length in [999_999_999_999_999_u64, 100_000_000_000_000, 4_000_000_000] {
        let what = format!("Content-Length: {length}");
        let attack = format!("Content-Length: {length}\r\n\r\n{{\"jsonrpc\":\"2.0\"").into_bytes();
        let (outcome, messages) = serve(&what, &session(&attack));
        assert_eq!(errors(&messages), [(Value::Null, INVALID_REQUEST, too_large(length))], "{what}");
        assert!(messages.iter().all(|m| m["id"] != "after-the-attack"), "{what}: the shutdown was inside the body");
        assert_eq!(outcome.code, Some(1), "{what}: the stream ended without exit");
        // One line on standard error says why the server stopped.
        let stderr = outcome.stderr();
        let declared =
            format!("beeuni-lint lsp: the input ended within a message whose Content-Length declared {length} bytes (");
        assert!(stderr.starts_with(&declared) && stderr.ends_with(" came): the server stops\n"), "{what}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    }
}

#[test]
fn a_message_over_the_limit_is_skipped_and_the_server_reads_on() {
    let length = MESSAGE_LIMIT + 1;
    let header = format!("Content-Length: {length}\r\n\r\n");
    let (opening, closing) = (opening(), session(b"")[opening().len()..].to_vec());
    // Zeroed pages that are never written stay out of this process's memory, which the measure of the server's
    // counts in (`wait4` reports the largest of the two: the server is spawned from this process).
    let mut input = vec![0; opening.len() + header.len() + length + closing.len()];
    let (start, rest) = input.split_at_mut(opening.len() + header.len());
    start.copy_from_slice(&[opening, header.into_bytes()].concat());
    rest[length..].copy_from_slice(&closing);
    let (outcome, messages) = serve("a message of 64 MiB + 1 byte", &input);
    assert_eq!(errors(&messages), [(Value::Null, INVALID_REQUEST, too_large(length as u64))]);
    assert_survived("a message of 64 MiB + 1 byte", &outcome, &messages);
}

#[test]
fn malformed_header_blocks_get_a_parse_error() {
    let body = r#"{"jsonrpc":"2.0","id":"inside","method":"shutdown"}"#;
    let cases = [
        (
            "a line without a colon",
            format!("Content-Length: {}\r\nX-Junk\r\n\r\n{body}", body.len()),
            "a header line has no colon",
        ),
        (
            "no Content-Length",
            format!("Content-Type: application/vscode-jsonrpc\r\n\r\n{body}"),
            "the header block has no Content-Length",
        ),
        (
            "a misspelt Content-Length",
            format!("Content-Lenght: {}\r\n\r\n{body}", body.len()),
            "the header block has no Content-Length",
        ),
        (
            "a charset other than UTF-8",
            format!(
                "Content-Length: {}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-16\r\n\r\n{body}",
                body.len()
            ),
            "the Content-Type names a charset other than UTF-8",
        ),
    ];
    for (what, attack, reason) in cases {
        let message = format!("malformed message header: {reason}");
        assert_answered(what, attack.as_bytes(), &[(Value::Null, PARSE_ERROR, &message)]);
    }
}

#[test]
fn several_content_length_headers_get_a_parse_error() {
    let body = r#"{"jsonrpc":"2.0","id":"inside","method":"shutdown"}"#;
    let n = body.len();
    let message = "malformed message header: the header block has several Content-Length headers";
    for lengths in [[n, n], [n, n + 40], [n + 40, n]] {
        let attack = format!("Content-Length: {}\r\nContent-Length: {}\r\n\r\n{body}", lengths[0], lengths[1]);
        assert_answered(
            &format!("Content-Length {lengths:?}"),
            attack.as_bytes(),
            &[(Value::Null, PARSE_ERROR, message)],
        );
    }
}

#[test]
fn header_lines_ended_without_cr_get_a_parse_error() {
    let body = r#"{"jsonrpc":"2.0","id":"inside","method":"shutdown"}"#;
    let message = "malformed message header: a header line ends in LF without CR";
    for attack in
        [format!("Content-Length: {}\n\n{body}", body.len()), format!("Content-Length: {}\r\n\n{body}", body.len())]
    {
        assert_answered(&format!("{attack:?}"), attack.as_bytes(), &[(Value::Null, PARSE_ERROR, message)]);
    }
}

#[test]
fn a_header_that_never_ends_is_read_to_8_kib() {
    let mut attack = b"Content-Length: 2\r\nX-Junk: ".to_vec();
    attack.resize(attack.len() + 4 * 1024 * 1024, b'a');
    attack.extend(b"\r\n\r\n{}");
    let message = "malformed message header: the header block is longer than 8 KiB";
    assert_answered("a 4 MiB header line", &attack, &[(Value::Null, PARSE_ERROR, message)]);
    // And one that ends with the stream: no exit, status 1.
    let mut endless = [opening(), b"Content-Length: 2\r\nX-Junk: ".to_vec()].concat();
    endless.resize(endless.len() + 4 * 1024 * 1024, b'a');
    let (outcome, messages) = serve("a header line to the end of the stream", &endless);
    assert_eq!(errors(&messages), [(Value::Null, PARSE_ERROR, message.to_string())]);
    assert_eq!(outcome.code, Some(1));
}

#[test]
fn a_content_length_that_is_not_a_decimal_number_gets_a_parse_error() {
    let body = r#"{"jsonrpc":"2.0","id":"inside","method":"shutdown"}"#;
    let message = "malformed message header: the Content-Length is not a decimal number";
    for value in
        [format!("+{}", body.len()), format!("{}x", body.len()), "-1".into(), "0x10".into(), "".into(), "١٢".into()]
    {
        let attack = format!("Content-Length: {value}\r\n\r\n{body}");
        assert_answered(
            &format!("Content-Length: {value:?}"),
            attack.as_bytes(),
            &[(Value::Null, PARSE_ERROR, message)],
        );
    }
    // Spaces around the number are the header's optional whitespace: the message is read.
    let attack = format!("Content-Length:   {} \t\r\n\r\n{}", body.len(), body);
    let (outcome, messages) = serve("spaces around the length", &session(attack.as_bytes()));
    assert!(messages.iter().any(|m| m["id"] == "inside" && m["result"].is_null()), "{messages:#?}");
    // Then the server is shutting down: the second shutdown gets an error, and exit ends it with status 0.
    assert_eq!(outcome.code, Some(0));
}

#[test]
fn a_body_that_is_not_json_gets_a_parse_error() {
    let cases: [(&str, &[u8], &str); 4] = [
        ("text", b"not json at all", "the message is not JSON (line 1, column 2)"),
        ("truncated JSON", b"{\"jsonrpc\":\"2.0\",\"id\":3,", "the message is not JSON (line 1, column 24)"),
        (
            "invalid UTF-8",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\xfe\"}",
            "the message is not JSON (line 1, column 28)",
        ),
        ("nesting past the recursion limit", &[b'['; 100_000], "the message is not JSON (line 1, column 128)"),
    ];
    for (what, body, message) in cases {
        assert_answered(what, &raw_frame(body), &[(Value::Null, PARSE_ERROR, message)]);
    }
}

#[test]
fn json_that_is_not_a_message_gets_invalid_request() {
    let not_messages = [
        (
            json!([{ "jsonrpc": "2.0", "id": 5, "method": "shutdown" }]),
            Value::Null,
            "a message is a JSON object (batches are not part of the protocol)",
        ),
        (json!("hello"), Value::Null, "a message is a JSON object (batches are not part of the protocol)"),
        (
            json!({ "jsonrpc": "2.0", "id": 7 }),
            json!(7),
            "the message is neither a request, a notification nor a response",
        ),
        (json!({ "jsonrpc": "2.0", "id": "m", "method": 5 }), json!("m"), "the method of a message is a string"),
        (
            json!({ "jsonrpc": "2.0", "id": null, "method": "shutdown" }),
            Value::Null,
            "the id of a request is a 32-bit integer or a string",
        ),
        (
            json!({ "jsonrpc": "2.0", "id": 4_294_967_296_u64, "method": "shutdown" }),
            json!(4_294_967_296_u64),
            "the id of a request is a 32-bit integer or a string",
        ),
    ];
    let attack: Vec<u8> = not_messages.iter().flat_map(|(message, _, _)| frame(message)).collect();
    let expected: Vec<(Value, i64, &str)> =
        not_messages.iter().map(|(_, id, message)| (id.clone(), INVALID_REQUEST, *message)).collect();
    assert_answered("JSON that is not a message", &attack, &expected);
}

#[test]
fn responses_to_ids_the_server_never_sent_are_ignored() {
    let responses = [
        json!({ "jsonrpc": "2.0", "id": 99, "result": { "applied": true } }),
        json!({ "jsonrpc": "2.0", "id": "never", "error": { "code": -1, "message": "no" } }),
        json!({ "jsonrpc": "2.0", "id": null, "error": "not even an error object" }),
        json!({ "jsonrpc": "2.0", "id": 1, "result": null }),
    ];
    let attack: Vec<u8> = responses.iter().flat_map(frame).collect();
    assert_answered("responses", &attack, &[]);
}

#[test]
fn an_unknown_method_gets_method_not_found() {
    let method = "x/\u{202e}evil\u{85}";
    let attack = frame(&json!({ "jsonrpc": "2.0", "id": 4, "method": method, "params": {} }));
    let message = r#"beeuni-lint does not answer "x/\u{202e}evil\u{85}""#;
    // And unknown notifications are dropped.
    let notification = frame(&json!({ "jsonrpc": "2.0", "method": method, "params": [1, 2] }));
    assert_answered("an unknown method", &[attack, notification].concat(), &[(json!(4), -32601, message)]);
}

#[test]
fn parameters_of_the_wrong_shape_get_invalid_params() {
    let requests = [
        ("textDocument/hover", json!("nonsense")),
        ("textDocument/completion", json!({ "textDocument": 5, "position": { "line": -1 } })),
        ("textDocument/definition", Value::Null),
        ("codeAction/resolve", json!([1, 2, 3])),
    ];
    let mut attack: Vec<u8> = requests
        .iter()
        .enumerate()
        .flat_map(|(at, (method, params))| {
            frame(&json!({ "jsonrpc": "2.0", "id": at + 10, "method": method, "params": params }))
        })
        .collect();
    // Notifications with bad parameters have no one to answer: they are dropped.
    for method in ["textDocument/didOpen", "textDocument/didChange", "textDocument/didSave", "textDocument/didClose"] {
        attack.extend(frame(&json!({ "jsonrpc": "2.0", "method": method, "params": { "textDocument": [] } })));
    }
    let (outcome, messages) = serve("bad parameters", &session(&attack));
    let got: Vec<(Value, i64)> = errors(&messages).into_iter().map(|(id, code, _)| (id, code)).collect();
    assert_eq!(got, [10, 11, 12, 13].map(|id| (json!(id), -32602)), "{messages:#?}");
    for (id, _, message) in errors(&messages) {
        let method = requests[id.as_u64().unwrap() as usize - 10].0;
        assert!(message.starts_with(&format!("bad parameters for `{method}`")), "{message}");
    }
    assert_survived("bad parameters", &outcome, &messages);
}

#[test]
fn a_parameter_of_megabytes_in_the_wrong_place_gets_a_short_invalid_params() {
    // serde quotes a string of the wrong type whole, each DEL escaped to six bytes: 48 MiB here, 360 MiB at the
    // message limit. The server's error quotes the parameters with their long strings emptied.
    let text = "\u{7f}".repeat(8 * 1024 * 1024);
    let params = json!({ "textDocument": text, "position": { "line": 0, "character": 0 } });
    let attack = frame(&json!({ "jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": params }));
    let (outcome, messages) = serve("a parameter of 8 MiB", &session(&attack));
    let message = r#"bad parameters for `textDocument/hover`: "invalid type: string \"\", expected struct TextDocumentIdentifier""#;
    assert_eq!(errors(&messages), [(json!(5), -32602, message.to_string())]);
    assert_survived("a parameter of 8 MiB", &outcome, &messages);
}

#[test]
fn a_stream_that_ends_within_a_message_ends_the_server_with_status_1() {
    let tails: [&[u8]; 4] = [
        b"Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":2,",
        b"Content-Length: 100\r\n\r\n",
        b"Content-Length: 100\r\n",
        b"Content-Le",
    ];
    for tail in tails {
        let what = format!("the stream ends after {:?}", String::from_utf8_lossy(tail));
        let (outcome, messages) = serve(&what, &[opening(), tail.to_vec()].concat());
        assert_eq!(messages.len(), 1, "{what}: only the answer to initialize: {messages:#?}");
        assert_eq!(outcome.code, Some(1), "{what}: no exit, status 1");
    }
}

#[test]
fn requests_before_initialize_get_server_not_initialized() {
    let early = frame(&json!({ "jsonrpc": "2.0", "id": "early", "method": "textDocument/hover", "params": {} }));
    let garbage = raw_frame(b"{{");
    let (outcome, messages) = serve("before initialize", &[early, garbage, session(b"")].concat());
    let not_initialized = "the server is not initialized: `initialize` comes first";
    let expected = [
        (json!("early"), -32002, not_initialized.to_string()),
        (Value::Null, PARSE_ERROR, "the message is not JSON (line 1, column 2)".to_string()),
    ];
    // The reader answers the unreadable message itself, as soon as it has read it: the order of the two may vary.
    let mut got = errors(&messages);
    got.sort_by_key(|(_, code, _)| -code);
    assert_eq!(got, expected);
    assert_survived("before initialize", &outcome, &messages);
}
