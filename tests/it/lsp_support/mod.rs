//! A scripted JSON-RPC client for the language server tests: it starts the real binary (`beeuni-lint lsp`),
//! writes framed messages to its standard input and reads framed messages from its standard output on a
//! thread, keeping notifications until a test asks for them.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    /// Notifications (and server requests) read while waiting for something else.
    kept: Vec<Value>,
    next_id: i64,
}

/// The `file:` URI of a path (ASCII paths: the temporary folders the tests use).
pub fn uri(path: &Path) -> String {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    format!("file://{}", path.display())
}

impl Client {
    pub fn start(dir: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_beeuni-lint"))
            .arg("lsp")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().unwrap();
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Client { child, stdin, messages, kept: Vec::new(), next_id: 0 }
    }

    /// Starts the server and runs `initialize` / `initialized` with these client capabilities.
    pub fn initialized(dir: &Path, capabilities: Value) -> (Client, Value) {
        let mut client = Client::start(dir);
        let result = client
            .request("initialize", json!({ "processId": null, "rootUri": uri(dir), "capabilities": capabilities }));
        client.notify("initialized", json!({}));
        (client, result)
    }

    pub fn send(&mut self, message: &Value) {
        let body = serde_json::to_string(message).unwrap();
        let stdin = self.stdin.as_mut().expect("stdin is open");
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response; returns `result` (panics on an error response).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    pub fn request_raw(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.wait_for(|m| m["id"] == id && m.get("method").is_none(), &format!("the response to {method}"))
    }

    /// The next message `wanted` accepts, keeping the others for later.
    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool, what: &str) -> Value {
        if let Some(at) = self.kept.iter().position(&wanted) {
            return self.kept.remove(at);
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.kept.push(message),
                Err(RecvTimeoutError::Timeout) => panic!("timed out waiting for {what}; kept: {:?}", self.kept),
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output waiting for {what}"),
            }
        }
    }

    /// The diagnostics of the next `publishDiagnostics` for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let message = self.wait_for(
            |m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri,
            &format!("diagnostics of {uri}"),
        );
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        let document = json!({ "uri": uri, "languageId": "yaml", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": document }));
    }

    pub fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }

    /// `shutdown`, then `exit`: returns the exit status and how long the process took to end after `exit`.
    pub fn shutdown_and_exit(mut self) -> (Option<i32>, Duration) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let sent = Instant::now();
        let status = self.wait_exit();
        (status, sent.elapsed())
    }

    /// Waits for the process to end (its standard input still open); its exit status.
    pub fn wait_exit(&mut self) -> Option<i32> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            if start.elapsed() > WAIT {
                let _ = self.child.kill();
                panic!("the server did not exit");
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// Applies a `WorkspaceEdit`'s edits for `uri` to `text` (UTF-16 positions), as a client would.
pub fn apply_edits(text: &str, edit: &Value, uri: &str) -> String {
    let mut edits: Vec<&Value> = edit["changes"][uri].as_array().expect("edits for the file").iter().collect();
    edits.sort_by_key(|e| (e["range"]["start"]["line"].as_u64(), e["range"]["start"]["character"].as_u64()));
    let mut out = text.to_string();
    for edit in edits.iter().rev() {
        let start = offset(&out, &edit["range"]["start"]);
        let end = offset(&out, &edit["range"]["end"]);
        out.replace_range(start..end, edit["newText"].as_str().unwrap());
    }
    out
}

/// The byte offset of an LSP position (UTF-16 columns).
pub fn offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().unwrap() as usize;
    let character = position["character"].as_u64().unwrap() as usize;
    // Lines end at `\n`, `\r\n` and a lone `\r`, as the protocol says.
    let bytes = text.as_bytes();
    let mut breaks = (0..bytes.len())
        .filter(|&i| bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .map(|i| i + 1);
    let start = if line == 0 { 0 } else { breaks.nth(line - 1).unwrap_or(text.len()) };
    let mut units = 0;
    for (at, ch) in text[start..].char_indices() {
        if units == character {
            return start + at;
        }
        units += ch.len_utf16();
    }
    text.len()
}

/// The LSP position of the first occurrence of `needle` in `text` (after `skip` bytes).
pub fn position_of(text: &str, needle: &str) -> Value {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` is not in the text"));
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": text[..at].matches('\n').count(), "character": text[line_start..at].encode_utf16().count() })
}
