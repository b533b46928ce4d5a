//! The server's standard input and output: a reader thread that takes frames from standard input
//! ([`framing`](super::framing)), turns their JSON into messages for the server and answers what it cannot turn
//! (a JSON-RPC error, the server never hearing of it); a writer thread that writes what the server sends.
//!
//! `lsp-server`'s own stdio transport ends the server on any malformed message and allocates whatever a
//! `Content-Length` asks for; this one answers and reads on. Its channels hold no message in waiting (a rendezvous,
//! as `lsp-server`'s): a client that writes faster than the server lints is made to wait, not buffered.

use super::framing::{Frame, FrameReader, MESSAGE_LIMIT, Refusal};
use crossbeam_channel::Sender;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{Exit, Notification as _};
use serde_json::{Map, Value, json};
use std::io::{self, BufRead, Write};
use std::thread::JoinHandle;

/// What one read from standard input takes: a body over the limit is skipped in reads of this size.
const READ_BUFFER: usize = 64 * 1024;

/// A message the reader does not pass on: the error it answers, with the id it could tell (else null).
struct Unreadable {
    id: Value,
    code: ErrorCode,
    message: String,
}

/// The server's connection over standard input and output, and the writer thread, which ends once the connection
/// is dropped and all it sent is written. The reader thread is not handed back: it may wait on standard input
/// for as long as the client keeps it open, and the process ends without it.
pub fn stdio() -> Result<(Connection, JoinHandle<()>), String> {
    let (to_server, receiver) = crossbeam_channel::bounded(0);
    let (sender, from_server) = crossbeam_channel::bounded::<Message>(0);
    let failed = |e: io::Error| format!("cannot start the language server's threads: {e}");
    std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let input = io::BufReader::with_capacity(READ_BUFFER, io::stdin());
            read(FrameReader::new(input), &to_server);
        })
        .map_err(failed)?;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || {
            for message in from_server {
                // An error means the client closed our output: nothing more can reach it.
                if message.write(&mut io::stdout().lock()).is_err() {
                    return;
                }
            }
        })
        .map_err(failed)?;
    Ok((Connection { sender, receiver }, writer))
}

/// Passes every message of `frames` to the server, answering the rest, until the stream ends, the server stops
/// listening, or `exit` (after which nothing is read).
fn read(mut frames: FrameReader<impl BufRead>, server: &Sender<Message>) {
    loop {
        let unreadable = match frames.next_frame() {
            Frame::End => {
                // The server then stops (status 1, as for any stream that ends without `exit`): one line says why.
                if let Some((declared, came)) = frames.ended_within() {
                    let line = format!(
                        "beeuni-lint lsp: the input ended within a message whose Content-Length declared {declared} bytes ({came} came): the server stops\n"
                    );
                    let _ = io::stderr().write_all(line.as_bytes());
                }
                return;
            }
            Frame::Body(body) => {
                let read = message(&body);
                // Freed before the message waits for the server: each may be 64 MiB.
                drop(body);
                match read {
                    Ok(Some(message)) => {
                        let exit = matches!(&message, Message::Notification(n) if n.method == Exit::METHOD);
                        if server.send(message).is_err() || exit {
                            return;
                        }
                        continue;
                    }
                    Ok(None) => continue,
                    Err(unreadable) => unreadable,
                }
            }
            Frame::Refused(Refusal::Malformed(reason)) => Unreadable {
                id: Value::Null,
                code: ErrorCode::ParseError,
                message: format!("malformed message header: {reason}"),
            },
            Frame::Refused(Refusal::TooLarge(length)) => Unreadable {
                id: Value::Null,
                code: ErrorCode::InvalidRequest,
                message: format!(
                    "the message has {length} bytes, more than the {MESSAGE_LIMIT} bytes (64 MiB) the server reads"
                ),
            },
        };
        answer(unreadable);
    }
}

/// Writes the error answer to a message the server never sees, as a whole frame.
fn answer(unreadable: Unreadable) {
    let Unreadable { id, code, message } = unreadable;
    let text = json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code as i32, "message": message } }).to_string();
    let mut out = io::stdout().lock();
    // A client that closed our output hears nothing more; the reader reads on until its input ends.
    let _ = write!(out, "Content-Length: {}\r\n\r\n{text}", text.len()).and_then(|()| out.flush());
}

/// The message a body holds; `None` for a response whose id cannot be one the server sends, as it answers nothing
/// the server asked (the server sends no requests today and ignores every response).
fn message(body: &[u8]) -> Result<Option<Message>, Unreadable> {
    let value: Value = serde_json::from_slice(body).map_err(|e| Unreadable {
        id: Value::Null,
        code: ErrorCode::ParseError,
        message: format!("the message is not JSON (line {}, column {})", e.line(), e.column()),
    })?;
    let Value::Object(mut fields) = value else {
        return Err(invalid(Value::Null, "a message is a JSON object (batches are not part of the protocol)"));
    };
    let id = fields.remove("id");
    // The id an error answer repeats: one the client can match, else null as JSON-RPC asks.
    let echo = match &id {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let method = match fields.remove("method") {
        Some(Value::String(method)) => method,
        Some(_) => return Err(invalid(echo, "the method of a message is a string")),
        None if fields.contains_key("result") || fields.contains_key("error") => {
            return Ok(id.as_ref().and_then(request_id).map(|id| response(id, fields)));
        }
        None => return Err(invalid(echo, "the message is neither a request, a notification nor a response")),
    };
    let params = fields.remove("params").unwrap_or(Value::Null);
    match id {
        None => Ok(Some(Notification { method, params }.into())),
        Some(id) => match request_id(&id) {
            Some(id) => Ok(Some(Request { id, method, params }.into())),
            None => Err(invalid(echo, "the id of a request is a 32-bit integer or a string")),
        },
    }
}

fn invalid(id: Value, message: &str) -> Unreadable {
    Unreadable { id, code: ErrorCode::InvalidRequest, message: message.into() }
}

/// An id as the protocol has them: an integer (32 bits) or a string.
fn request_id(id: &Value) -> Option<RequestId> {
    match id {
        Value::String(id) => Some(id.clone().into()),
        Value::Number(n) => n.as_i64().and_then(|n| i32::try_from(n).ok()).map(RequestId::from),
        _ => None,
    }
}

fn response(id: RequestId, mut fields: Map<String, Value>) -> Message {
    let error = fields.remove("error").and_then(|e| serde_json::from_value(e).ok());
    Response { id, result: fields.remove("result"), error }.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_one(body: &str) -> Result<Option<Message>, (Value, i32)> {
        message(body.as_bytes()).map_err(|e| (e.id, e.code as i32))
    }

    #[test]
    fn requests_notifications_and_responses() {
        let request = read_one(r#"{"jsonrpc":"2.0","id":"a","method":"hover","params":{"x":1}}"#);
        assert!(matches!(request, Ok(Some(Message::Request(r))) if r.id == RequestId::from("a".to_string())
            && r.method == "hover" && r.params == json!({"x": 1})));
        let notification = read_one(r#"{"jsonrpc":"2.0","method":"exit"}"#);
        assert!(matches!(notification, Ok(Some(Message::Notification(n))) if n.method == "exit" && n.params.is_null()));
        let response = read_one(r#"{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"no"}}"#);
        assert!(matches!(response, Ok(Some(Message::Response(r))) if r.id == RequestId::from(7) && r.error.is_some()));
        for unanswerable in [r#"{"id":null,"result":1}"#, r#"{"id":1.5,"result":1}"#, r#"{"id":4294967296,"error":{}}"#]
        {
            assert!(matches!(read_one(unanswerable), Ok(None)), "{unanswerable}");
        }
    }

    #[test]
    fn what_is_not_a_message_is_answered_with_the_id_it_has() {
        let cases = [
            ("{", Value::Null, -32700),
            ("\"\u{7f}\"\u{0}", Value::Null, -32700),
            ("[1, 2]", Value::Null, -32600),
            ("42", Value::Null, -32600),
            (r#"{"jsonrpc":"2.0","id":7}"#, json!(7), -32600),
            (r#"{"id":"x","method":5}"#, json!("x"), -32600),
            (r#"{"id":null,"method":"hover"}"#, Value::Null, -32600),
            (r#"{"id":[1],"method":"hover"}"#, Value::Null, -32600),
            (r#"{"id":4294967296,"method":"hover"}"#, json!(4_294_967_296_u64), -32600),
        ];
        for (body, id, code) in cases {
            assert_eq!(read_one(body).map(|_| ()), Err((id, code)), "{body}");
        }
    }
}
