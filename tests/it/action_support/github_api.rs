//! A recorded exchange with GitHub's REST API, replayed by a local HTTP server: each request the action's
//! script makes is answered by the next recorded exchange when its method and path (query included) are the
//! recorded ones, and with a 418 otherwise; every request is kept, with its authorization and body, for the test.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One request as recorded, and GitHub's answer to it.
pub struct Exchange {
    pub method: &'static str,
    pub path: String,
    pub status: u16,
    pub body: Value,
}

pub fn exchange(method: &'static str, path: &str, status: u16, body: Value) -> Exchange {
    Exchange { method, path: path.to_owned(), status, body }
}

/// A request the script made.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub authorization: Option<String>,
    pub body: String,
}

pub struct FakeApi {
    /// What `GITHUB_API_URL` is set to.
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl FakeApi {
    pub fn start(exchanges: Vec<Exchange>) -> FakeApi {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&requests);
        // The thread waits for the next connection until the test binary ends: a script that stops early leaves
        // it waiting, which costs nothing.
        std::thread::spawn(move || {
            let mut recorded = exchanges.into_iter();
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let Some(request) = serve(stream, &mut recorded) else { continue };
                kept.lock().unwrap().push(request);
            }
        });
        FakeApi { url, requests }
    }

    /// A server at `url` the test does not run (nothing answers there).
    pub fn at(url: String) -> FakeApi {
        FakeApi { url, requests: Arc::default() }
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }

    /// The requests as `METHOD path` lines.
    pub fn calls(&self) -> Vec<String> {
        self.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect()
    }
}

fn serve(mut stream: TcpStream, recorded: &mut impl Iterator<Item = Exchange>) -> Option<Request> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_owned(), parts.next()?.to_owned());
    let (mut length, mut authorization, mut expects_continue) = (0, None, false);
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "authorization" => authorization = Some(value.trim().to_owned()),
            "expect" => expects_continue = value.trim().eq_ignore_ascii_case("100-continue"),
            _ => {}
        }
    }
    if expects_continue {
        stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").ok()?;
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let (status, answer) = match recorded.next() {
        Some(next) if next.method == method && next.path == path => (next.status, next.body.to_string()),
        expected => {
            let expected = expected.map_or("nothing".to_owned(), |e| format!("{} {}", e.method, e.path));
            (418, serde_json::json!({ "message": format!("unexpected request; recorded: {expected}") }).to_string())
        }
    };
    let head = format!(
        "HTTP/1.1 {status} Recorded\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        answer.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(answer.as_bytes()).ok()?;
    Some(Request { method, path, authorization, body: String::from_utf8_lossy(&body).into_owned() })
}
