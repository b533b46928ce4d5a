//! `beeuni-lint lsp`: a language server over stdio (the synchronous `lsp-server` crate's messages, one thread;
//! its input read through [`transport`], which bounds and answers what a client sends).
//!
//! Every change to an open buffer lints its project again with the open buffers laid over the files on disk;
//! files whose text did not change keep their parsed YAML and module facts. Diagnostics are pushed for every
//! open file of the project. Positions are UTF-16, as every client (and Neovim 0.7, which negotiates nothing)
//! expects.

mod actions;
mod complete;
mod convert;
mod framing;
mod ignore;
mod navigate;
mod parameters;
mod transport;
mod workspace;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions, HoverProviderCapability,
    InitializeParams, MessageType, OneOf, PositionEncodingKind, SaveOptions, ServerCapabilities, ServerInfo,
    ShowMessageParams, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::PathBuf;
use workspace::{Outcome, Workspace};

/// What the client said it supports, as far as the answers change.
#[derive(Default)]
pub struct Client {
    /// Code actions may leave their edit to `codeAction/resolve`.
    pub resolves_edits: bool,
    pub markdown_hover: bool,
}

impl Client {
    fn of(params: &InitializeParams) -> Client {
        let text = params.capabilities.text_document.as_ref();
        let resolves_edits = text
            .and_then(|t| t.code_action.as_ref()?.resolve_support.as_ref())
            .is_some_and(|r| r.properties.iter().any(|p| p == "edit"));
        let markdown_hover = text
            .and_then(|t| t.hover.as_ref()?.content_format.as_ref())
            .is_some_and(|formats| formats.contains(&lsp_types::MarkupKind::Markdown));
        Client { resolves_edits, markdown_hover }
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        // UTF-16, the protocol's default: said outright for clients that offer others.
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
            ..Default::default()
        })),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, actions::FIX_ALL_KIND.clone()]),
            resolve_provider: Some(true),
            ..Default::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".into(), "[".into(), " ".into(), "-".into()]),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Runs the server on standard input and output until `exit`. Exit status 0 after `shutdown`, else 1.
pub fn run() -> Result<u8, String> {
    let (connection, writer) = transport::stdio()?;
    let status = serve(&connection);
    // Dropping the connection ends the writer thread once everything queued is written.
    drop(connection);
    writer.join().map_err(|_| "the language server's output thread failed".to_string())?;
    status
}

fn serve(connection: &Connection) -> Result<u8, String> {
    let Some((id, params)) = initialize_request(connection) else { return Ok(1) };
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let result = lsp_types::InitializeResult {
        capabilities: capabilities(),
        server_info: Some(ServerInfo { name: "beeuni-lint".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
    };
    let result = serde_json::to_value(result).map_err(|e| e.to_string())?;
    let mut server = Server { connection, client: Client::of(&params), workspace: Workspace::default() };
    // `initialized` follows; like any notification the server does not act on, it is read and dropped.
    server.send(Response { id, result: Some(result), error: None }.into());
    let mut shut_down = false;
    for message in &connection.receiver {
        match message {
            Message::Request(request) if shut_down => {
                server.respond_error(request.id, ErrorCode::InvalidRequest, "the server is shutting down");
            }
            Message::Request(request) if request.method == req::Initialize::METHOD => {
                server.respond_error(request.id, ErrorCode::InvalidRequest, "the server is already initialized");
            }
            Message::Request(request) if request.method == req::Shutdown::METHOD => {
                shut_down = true;
                server.send(Response::new_ok(request.id, ()).into());
            }
            Message::Request(request) => server.request(request),
            Message::Notification(n) if n.method == note::Exit::METHOD => return Ok(if shut_down { 0 } else { 1 }),
            Message::Notification(notification) => server.notification(notification),
            // Answers to requests the server never sends.
            Message::Response(_) => {}
        }
    }
    // The client closed the stream without `exit`.
    Ok(1)
}

/// The id and parameters of the `initialize` request; `None` when `exit` or the end of the stream comes first.
/// Requests before it are answered with an error, notifications and responses dropped (the protocol's rules).
fn initialize_request(connection: &Connection) -> Option<(RequestId, serde_json::Value)> {
    for message in &connection.receiver {
        match message {
            Message::Request(request) if request.method == req::Initialize::METHOD => {
                return Some((request.id, request.params));
            }
            Message::Request(request) => {
                let error = "the server is not initialized: `initialize` comes first";
                let response = Response::new_err(request.id, ErrorCode::ServerNotInitialized as i32, error.into());
                // The writer is gone only when the client is: the loop ends with the input.
                let _ = connection.sender.send(response.into());
            }
            Message::Notification(n) if n.method == note::Exit::METHOD => return None,
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
    None
}

struct Server<'a> {
    connection: &'a Connection,
    client: Client,
    workspace: Workspace,
}

impl Server<'_> {
    fn send(&self, message: Message) {
        // The writer is gone only when the client is: the loop ends with the input.
        let _ = self.connection.sender.send(message);
    }

    fn respond_error(&self, id: RequestId, code: ErrorCode, message: &str) {
        self.send(Response::new_err(id, code as i32, message.into()).into());
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        let answer = match request.method.as_str() {
            req::CodeActionRequest::METHOD => {
                answer::<req::CodeActionRequest>(request, |p| actions::actions(&self.workspace, &self.client, p))
            }
            req::CodeActionResolveRequest::METHOD => {
                answer::<req::CodeActionResolveRequest>(request, |a| actions::resolve(&self.workspace, a))
            }
            req::HoverRequest::METHOD => {
                answer::<req::HoverRequest>(request, |p| navigate::hover(&self.workspace, &self.client, p))
            }
            req::GotoDefinition::METHOD => {
                answer::<req::GotoDefinition>(request, |p| navigate::definition(&self.workspace, p))
            }
            req::Completion::METHOD => answer::<req::Completion>(request, |p| complete::complete(&self.workspace, p)),
            // The method's name escaped: it is the client's text.
            _ => Err((ErrorCode::MethodNotFound, format!("beeuni-lint does not answer {:?}", request.method))),
        };
        match answer {
            Ok(result) => self.send(Response { id, result: Some(result), error: None }.into()),
            Err((code, message)) => self.respond_error(id, code, &message),
        }
    }

    fn notification(&mut self, notification: Notification) {
        let project = match notification.method.as_str() {
            note::DidOpenTextDocument::METHOD => params::<note::DidOpenTextDocument>(notification)
                .and_then(|p| self.workspace.open(p.text_document.uri, p.text_document.version, p.text_document.text)),
            note::DidChangeTextDocument::METHOD => {
                params::<note::DidChangeTextDocument>(notification).and_then(|p| self.change(p))
            }
            note::DidCloseTextDocument::METHOD => {
                let params = params::<note::DidCloseTextDocument>(notification);
                let closed = params.and_then(|p| {
                    let project = self.workspace.close(&p.text_document.uri);
                    let clear = lsp_types::PublishDiagnosticsParams::new(p.text_document.uri, Vec::new(), None);
                    self.notify::<note::PublishDiagnostics>(clear);
                    project
                });
                closed.filter(|root| self.workspace.docs.values().any(|d| d.project.as_ref() == Some(root)))
            }
            // The buffer already held what was saved; a save may also follow a `git add` or a new file.
            note::DidSaveTextDocument::METHOD => params::<note::DidSaveTextDocument>(notification).and_then(|p| {
                let project = self.workspace.docs.get(p.text_document.uri.as_str())?.project.clone();
                self.workspace.disk_changed(project.as_deref());
                project
            }),
            _ => None,
        };
        if let Some(root) = project {
            let outcome = self.workspace.lint(&root);
            self.publish(outcome);
        }
    }

    fn change(&mut self, params: lsp_types::DidChangeTextDocumentParams) -> Option<PathBuf> {
        let uri = params.text_document.uri;
        let mut text = self.workspace.docs.get(uri.as_str())?.text.to_string();
        for change in params.content_changes {
            match change.range {
                // A client that sends ranges anyway (the server asks for whole texts).
                Some(range) => {
                    let start = convert::offset(&text, range.start);
                    let end = convert::offset(&text, range.end).max(start);
                    text.replace_range(start..end, &change.text);
                }
                None => text = change.text,
            }
        }
        self.workspace.change(&uri, params.text_document.version, text)
    }

    fn publish(&self, outcome: Outcome) {
        if let Some(message) = outcome.message {
            self.notify::<note::ShowMessage>(ShowMessageParams { typ: MessageType::ERROR, message });
        }
        for params in outcome.publish {
            self.notify::<note::PublishDiagnostics>(params);
        }
        // Freeing the previous model (thousands of files) waits until the client has its diagnostics.
        drop(outcome.retired);
    }

    fn notify<N: note::Notification>(&self, params: N::Params) {
        self.send(Notification::new(N::METHOD.to_string(), params).into());
    }
}

fn params<N: note::Notification>(notification: Notification) -> Option<N::Params>
where
    N::Params: DeserializeOwned,
{
    parameters::read(notification.params).ok()
}

type Answer = Result<serde_json::Value, (ErrorCode, String)>;

fn answer<R: req::Request>(request: Request, handle: impl FnOnce(R::Params) -> R::Result) -> Answer
where
    R::Params: DeserializeOwned,
    R::Result: Serialize,
{
    let params = parameters::read(request.params)
        .map_err(|e| (ErrorCode::InvalidParams, format!("bad parameters for `{}`: {e}", R::METHOD)))?;
    serde_json::to_value(handle(params)).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}
