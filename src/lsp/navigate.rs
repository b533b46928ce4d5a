//! Hover on a tool name (its kind, its source, and which agents can call it on each harness: the facts of
//! `beeuni-lint agents`), hover on an agent's name (what it can call: its rows of the `agents` table) and go to
//! definition (an agent-list item → the tool's `tools:` entry; a `tools:` entry
//! or an `imports:` item → the file).

use super::workspace::{Linted, Workspace};
use super::{Client, convert};
use crate::access;
use crate::catalog::{self, HarnessTier};
use crate::manifest::tools::ToolValue;
use crate::project::Project;
use crate::repo::fs;
use crate::source::escape::{code_span, escape};
use crate::source::{FileId, Span};
use lsp_types::{
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams, Location, MarkupContent,
    MarkupKind, Position, Range,
};

/// What the cursor is on.
enum Target<'a> {
    /// A tool name: a `tools:` entry (its key or value) or an agent list item, exclude item or map key.
    Tool { name: &'a str, span: Span, in_agent_list: bool },
    /// An agent's name, the key under `agents:`.
    Agent { name: &'a str, span: Span },
    /// An `imports:` item: the path it names.
    Import { path: &'a str },
}

fn target_at(project: &Project, file: FileId, offset: usize) -> Option<Target<'_>> {
    let within = |span: Span| span.start() <= offset && offset <= span.end();
    for decl in project.tools.iter().filter(|d| d.file == file) {
        if within(decl.name_span()) || within(decl.value_span()) {
            return Some(Target::Tool { name: &decl.name, span: decl.entry(), in_agent_list: false });
        }
    }
    for agent in project.agents.iter().filter(|a| a.file == file) {
        if let Some((named, _)) = agent.named().into_iter().find(|(t, _)| within(t.span)) {
            return Some(Target::Tool { name: &named.name, span: named.span, in_agent_list: true });
        }
        if within(agent.key) {
            return Some(Target::Agent { name: &agent.name, span: agent.key });
        }
    }
    let doc = &project.graph.files.iter().find(|m| m.file == file)?.doc;
    let imports = doc.get(doc.root?, "imports")?;
    doc.items(imports.value)?.iter().find_map(|&item| {
        let span = doc.node(item).span;
        within(span).then_some(Target::Import { path: doc.str(item)? })
    })
}

fn at<'a>(workspace: &'a Workspace, uri: &lsp_types::Uri, position: Position) -> Option<(&'a Linted, FileId, usize)> {
    let (_, linted, file) = workspace.lookup(uri)?;
    Some((linted, file, convert::offset(&linted.project.file(file).text, position)))
}

pub fn hover(workspace: &Workspace, client: &Client, params: HoverParams) -> Option<Hover> {
    let place = params.text_document_position_params;
    let (linted, file, offset) = at(workspace, &place.text_document.uri, place.position)?;
    let project = &linted.project;
    let markdown = client.markdown_hover;
    let (name, span) = match target_at(project, file, offset)? {
        Target::Tool { name, span, .. } => (name, span),
        Target::Agent { name, span } => {
            return Some(hover_text(project, file, span, agent(project, name, markdown), markdown));
        }
        Target::Import { .. } => return None,
    };
    let code = |text: &str| code(text, markdown);
    let mut text = format!("{}: {}\n\n", code(name), describe(project, name, &code));
    let access = match access::access(project) {
        Ok(access) => access,
        Err(too_large) => {
            text.push_str(&escape(&too_large.to_string()));
            return Some(hover_text(project, file, span, text, markdown));
        }
    };
    for harness in ["standard", "experimental"] {
        let callers: Vec<String> = access
            .iter()
            .filter(|a| a.harness == harness)
            .filter_map(|a| {
                let why = &a.tools.iter().find(|t| t.name == name)?.why;
                // A reason may quote names of the repository in backticks of its own: in Markdown, one code span
                // unless it is words only (`listed`, `not excluded`).
                let words = why.bytes().all(|b| b.is_ascii_alphanumeric() || b == b' ');
                let why = if markdown && !words { code(why) } else { escape(why).into_owned() };
                Some(format!("{} ({why})", code(&a.agent)))
            })
            .collect();
        let callers = match (callers.is_empty(), project.agents.is_empty()) {
            (_, true) => "no agent is declared".to_string(),
            (true, false) => "no agent".to_string(),
            (false, false) => callers.join(", "),
        };
        text.push_str(&format!("- {harness} harness: {callers}\n"));
    }
    Some(hover_text(project, file, span, text, markdown))
}

fn hover_text(project: &Project, file: FileId, span: Span, text: String, markdown: bool) -> Hover {
    let kind = if markdown { MarkupKind::Markdown } else { MarkupKind::PlainText };
    Hover {
        contents: HoverContents::Markup(MarkupContent { kind, value: text }),
        range: Some(convert::range(project.file(file), span)),
    }
}

/// What the agent can call: its rows of the `agents` table (`access::render_text`, whose cells are escaped), in
/// Markdown inside a fence longer than any run of backticks the table holds, so no name can close it.
fn agent(project: &Project, name: &str, markdown: bool) -> String {
    let entries: Vec<access::AgentAccess> = match access::access(project) {
        Ok(access) => access.into_iter().filter(|a| a.agent == name).collect(),
        Err(too_large) => return escape(&too_large.to_string()).into_owned(),
    };
    let table = access::render_text(project, &entries);
    if !markdown {
        return format!("`{}`: what it can call\n\n{table}", escape(name));
    }
    let mut longest = 0;
    let mut run = 0;
    for c in table.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{}: what it can call\n\n{fence}text\n{table}{fence}\n", code(name, true))
}

/// Repository text in a hover: escaped, and in Markdown a code span, so that no name can form a link, an image or
/// HTML; in plain text, between backticks.
fn code(text: &str, markdown: bool) -> String {
    let text = escape(text);
    if markdown { code_span(&text) } else { format!("`{text}`") }
}

/// The tool's kind and source, as `ls` and `agents` tell them; `code` shows a name or path of the repository.
fn describe(project: &Project, name: &str, code: &dyn Fn(&str) -> String) -> String {
    let decl = project.tools.iter().find(|d| d.name == name);
    let module = decl.and_then(|d| d.module_path());
    if catalog::is_beeuni(name) {
        return match (project.is_loaded_beeuni(name), module) {
            (true, Some(path)) => format!("Beeuni tool, replaced by the module {}", code(path)),
            (true, None) => format!("Beeuni tool (hosted), source `beeuni:{name}`"),
            (false, _) => {
                format!("Beeuni tool this project does not load (add `{name}: beeuni:{name}` under `tools:`)")
            }
        };
    }
    if let Some(decl) = decl {
        return match (&decl.value, module) {
            (_, Some(path)) => format!("project tool, module {}", code(path)),
            (ToolValue::Beeuni(target), _) => {
                format!("project tool with the value {}, which loads nothing", code(&format!("beeuni:{target}")))
            }
            _ => "project tool whose value is not a module path".into(),
        };
    }
    match project.harness.tier(name) {
        Some(HarnessTier::One) if !catalog::HARNESS_TIER1.contains(&name) => {
            "harness tool (named in `harness-tools` of beeuni-lint.toml)".into()
        }
        Some(HarnessTier::One) => "harness tool, built into the harness".into(),
        Some(HarnessTier::Two) => "harness tool of some harness versions or behind a flag".into(),
        None => "unknown: no harness, Beeuni or declared tool has this name".into(),
    }
}

pub fn definition(workspace: &Workspace, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let place = params.text_document_position_params;
    let (linted, file, offset) = at(workspace, &place.text_document.uri, place.position)?;
    let project = &linted.project;
    let location = match target_at(project, file, offset)? {
        Target::Tool { name, in_agent_list: true, .. } => {
            let decl = project.tools.iter().find(|d| d.name == name)?;
            let source = project.file(decl.file);
            Location { uri: workspace.uri_of(project, source)?, range: convert::range(source, decl.entry()) }
        }
        Target::Tool { name, in_agent_list: false, .. } => {
            let decl = project.tools.iter().find(|d| d.name == name && d.file == file)?;
            let Some(Ok(_)) = &decl.module else { return None };
            file_start(workspace, project, decl.module_path()?)?
        }
        Target::Import { path, .. } => {
            let rel = fs::normalize(path)?;
            linted.checkout.is_file(&rel).then_some(())?;
            file_start(workspace, project, &rel)?
        }
        Target::Agent { .. } => return None,
    };
    Some(GotoDefinitionResponse::Scalar(location))
}

fn file_start(workspace: &Workspace, project: &Project, rel: &str) -> Option<Location> {
    let start = Position { line: 0, character: 0 };
    Some(Location { uri: workspace.uri_of_path(project, rel)?, range: Range { start, end: start } })
}
