//! `agents:` of the graph: each agent's tool list, secrets, connectors and permission keys.

use super::load::Graph;
use super::tools::Name;
use crate::source::{FileId, Sources, Span};
use crate::yaml::scalar::ScalarKind;
use crate::yaml::{Document, NodeId, Style, Value, block_item_start};

/// A tool named in an agent's list, exclude list or map.
#[derive(Debug, Clone)]
pub struct ToolRef {
    /// Inline (no allocation) up to 24 bytes, as tool names are: a project's agents name thousands.
    pub name: Name,
    /// The scalar itself (or the map key).
    pub span: Span,
    /// What a finding points at: in block lists the `- item`, else the scalar.
    pub item: Span,
}

#[derive(Debug, Clone)]
pub enum ToolList {
    /// Omitted, null, or `all`.
    All,
    None,
    List(Vec<ToolRef>),
    Exclude(Vec<ToolRef>),
    /// The earlier `{ bash: false, … }` form.
    Map(Vec<(ToolRef, bool)>),
    /// A shape `agent-tools-shape` (or `unknown-key`) reports; the agent's tools are unknown.
    Invalid,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Secrets {
    /// No `secrets:` key, `secrets: all`, or a value of another shape.
    NotListed,
    List(Vec<String>),
}

#[derive(Debug)]
pub struct AgentDecl {
    pub name: String,
    pub file: FileId,
    pub graph_index: usize,
    pub key: Span,
    /// The agent's mapping.
    pub node: NodeId,
    pub tools: ToolList,
    /// The `tools:` key and its value node, when present.
    pub tools_key: Option<(Span, NodeId)>,
    pub secrets: Secrets,
    pub secrets_key: Option<Span>,
    pub connectors: Vec<String>,
    pub permission: Vec<(String, Span)>,
}

impl AgentDecl {
    /// Everything an agent list names, with whether it is an exclusion.
    pub fn named(&self) -> Vec<(&ToolRef, bool)> {
        match &self.tools {
            ToolList::List(items) => items.iter().map(|t| (t, false)).collect(),
            ToolList::Exclude(items) => items.iter().map(|t| (t, true)).collect(),
            ToolList::Map(items) => items.iter().map(|(t, _)| (t, false)).collect(),
            _ => Vec::new(),
        }
    }

    /// Is `tool` hidden by name: in an exclude list or as `tool: false`?
    pub fn hides_explicitly(&self, tool: &str) -> bool {
        match &self.tools {
            ToolList::Exclude(items) => items.iter().any(|t| t.name == tool),
            ToolList::Map(items) => items.iter().any(|(t, on)| !on && t.name == tool),
            _ => false,
        }
    }
}

pub fn collect(graph: &Graph, sources: &Sources) -> Vec<AgentDecl> {
    let mut agents = Vec::new();
    for (graph_index, manifest) in graph.files.iter().enumerate() {
        let doc = &manifest.doc;
        let text = &sources.get(manifest.file).text;
        let Some(top) = doc.root else { continue };
        let Some(entries) = doc.entries(top) else { continue };
        for agents_entry in entries.iter().filter(|e| doc.scalar(e.key) == Some("agents")) {
            for agent in doc.entries(agents_entry.value).unwrap_or_default() {
                let Some(name) = doc.scalar(agent.key) else { continue };
                let at = (manifest.file, graph_index);
                agents.push(agent_decl(doc, text, at, name, agent.key, agent.value));
            }
        }
    }
    agents
}

fn agent_decl(doc: &Document, text: &str, at: (FileId, usize), name: &str, key: NodeId, node: NodeId) -> AgentDecl {
    let (file, graph_index) = at;
    let entries = doc.entries(node).unwrap_or_default();
    let find = |name: &str| entries.iter().find(|e| doc.scalar(e.key) == Some(name));
    let tools_entry = find("tools");
    let tools = tools_entry.map_or(ToolList::All, |e| tool_list(doc, text, e.value));
    let secrets_entry = find("secrets");
    let secrets = match secrets_entry.and_then(|e| doc.items(e.value)) {
        Some(items) => Secrets::List(items.iter().filter_map(|&i| doc.scalar(i)).map(String::from).collect()),
        None => Secrets::NotListed,
    };
    let connectors = find("connectors")
        .and_then(|e| doc.items(e.value))
        .map(|items| items.iter().filter_map(|&i| doc.scalar(i)).map(String::from).collect())
        .unwrap_or_default();
    let permission = find("permission")
        .and_then(|e| doc.entries(e.value))
        .map(|entries| {
            entries.iter().filter_map(|e| Some((doc.scalar(e.key)?.to_string(), doc.node(e.key).span))).collect()
        })
        .unwrap_or_default();
    AgentDecl {
        name: name.to_string(),
        file,
        graph_index,
        key: doc.node(key).span,
        node,
        tools,
        tools_key: tools_entry.map(|e| (doc.node(e.key).span, e.value)),
        secrets,
        secrets_key: secrets_entry.map(|e| doc.node(e.key).span),
        connectors,
        permission,
    }
}

/// Reads the five documented forms; anything else is `Invalid`.
pub fn tool_list(doc: &Document, text: &str, value: NodeId) -> ToolList {
    let node = doc.node(doc.resolve(value));
    match &node.value {
        Value::Scalar { .. } if doc.is_null(value) => ToolList::All,
        Value::Scalar { text, style, .. } if *style != Style::Block || !text.contains('\n') => match text.as_str() {
            "all" => ToolList::All,
            "none" => ToolList::None,
            _ => ToolList::Invalid,
        },
        Value::Seq(_) => match refs(doc, text, value) {
            Some(items) => ToolList::List(items),
            None => ToolList::Invalid,
        },
        Value::Map(_) => {
            let entries = doc.entries(value).unwrap_or_default();
            if entries.len() == 1 && doc.scalar(entries[0].key) == Some("exclude") {
                return refs(doc, text, entries[0].value).map_or(ToolList::Invalid, ToolList::Exclude);
            }
            let mut map = Vec::with_capacity(entries.len());
            for entry in entries {
                let Some(name) = doc.scalar(entry.key) else {
                    return ToolList::Invalid;
                };
                let on = match &doc.node(doc.resolve(entry.value)).value {
                    Value::Scalar { text, kind: ScalarKind::Bool, .. } => text.eq_ignore_ascii_case("true"),
                    _ => return ToolList::Invalid,
                };
                let span = doc.node(entry.key).span;
                map.push((ToolRef { name: Name::from(name), span, item: span }, on));
            }
            ToolList::Map(map)
        }
        _ => ToolList::Invalid,
    }
}

/// The items of a list of strings, or `None` when an item is not a string.
fn refs(doc: &Document, text: &str, list: NodeId) -> Option<Vec<ToolRef>> {
    let items = doc.items(list)?;
    let flow = doc.node(doc.resolve(list)).flow;
    // Sized at once (collecting into an `Option` cannot know the length, and grows the list as it goes).
    let mut refs = Vec::with_capacity(items.len());
    for &item in items {
        let name = Name::from(doc.str(item)?);
        let span = doc.node(item).span;
        let item = if flow { span } else { Span::new(block_item_start(text, span.start()), span.end()) };
        refs.push(ToolRef { name, span, item });
    }
    Some(refs)
}
