//! Completion in YAML files of a project: tool names in agent lists and exclude lists, `beeuni:<name>` values
//! under `tools:`, and keys. The place is read from the text around the cursor (indentation and the keys
//! above it), so completion works while the line being typed does not parse yet.

use super::convert;
use super::workspace::Workspace;
use crate::catalog::{self, AGENT_KEYS, AGENT_TOOLS_KEYS, BEEUNI_TOOLS, HarnessTier, TOP_KEYS};
use crate::project::Project;
use crate::source::escape::escape;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, CompletionTextEdit, Range, TextEdit,
};

/// Where the cursor is, and the keys above it (outermost first).
#[derive(Debug, PartialEq, Eq)]
enum Place {
    /// At a key's place.
    Key(Vec<String>),
    /// A block list item (`- x`) or a flow list item (`[a, x`) of the list under these keys.
    Item(Vec<String>),
    /// The value after `key: ` (the keys end with that key).
    Value(Vec<String>),
}

pub fn complete(workspace: &Workspace, params: CompletionParams) -> Option<CompletionResponse> {
    let place = params.text_document_position;
    let (doc, linted, _) = workspace.lookup(&place.text_document.uri)?;
    let path = doc.path.to_string_lossy();
    if !crate::source::is_yaml(&path) {
        return None;
    }
    let text = &doc.text;
    let offset = convert::offset(text, place.position);
    // A lone CR ends a line too (YAML's line breaks, and the protocol's).
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |at| at + 1);
    let prefix = &text[line_start..offset];
    let word = prefix.len() - prefix.chars().rev().take_while(|&c| is_word(c)).map(char::len_utf8).sum::<usize>();
    let range = Range { start: convert::position_in(text, line_start + word), end: place.position };
    let items = candidates(&linted.project, &place_of(text, line_start, &prefix[..word]));
    let items = items
        .into_iter()
        .map(|(label, insert, kind, detail)| CompletionItem {
            label: label.clone(),
            kind: Some(kind),
            detail: Some(detail),
            filter_text: Some(label),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text: insert })),
            ..Default::default()
        })
        .collect();
    Some(CompletionResponse::Array(items))
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | ':' | '*')
}

type Candidate = (String, String, CompletionItemKind, String);

fn candidates(project: &Project, place: &Place) -> Vec<Candidate> {
    let keys = |names: &[&str], detail: &str| -> Vec<Candidate> {
        names.iter().map(|k| (k.to_string(), format!("{k}: "), CompletionItemKind::PROPERTY, detail.into())).collect()
    };
    let path: Vec<&str> = match place {
        Place::Key(p) | Place::Item(p) | Place::Value(p) => p.iter().map(String::as_str).collect(),
    };
    match (place, path.as_slice()) {
        (Place::Key(_), []) => keys(TOP_KEYS, "manifest key"),
        (Place::Key(_), ["agents", _]) => keys(AGENT_KEYS, "agent setting"),
        (Place::Key(_), ["agents", _, "tools"]) => {
            let mut out = keys(AGENT_TOOLS_KEYS, "every tool but these");
            out.extend(
                tool_names(project)
                    .into_iter()
                    .map(|(name, detail)| (name.clone(), format!("{name}: false"), CompletionItemKind::FIELD, detail)),
            );
            out
        }
        (Place::Key(_), ["tools"]) => BEEUNI_TOOLS
            .iter()
            .map(|n| (n.to_string(), format!("{n}: beeuni:{n}"), CompletionItemKind::FIELD, "Beeuni tool".into()))
            .collect(),
        (Place::Item(_), ["agents", _, "tools"] | ["agents", _, "tools", "exclude"]) => tool_names(project)
            .into_iter()
            .map(|(name, detail)| (name.clone(), name, CompletionItemKind::VALUE, detail))
            .collect(),
        (Place::Value(_), ["tools", name]) => {
            let mut names: Vec<&str> = BEEUNI_TOOLS.to_vec();
            // The tool's own Beeuni value first.
            names.sort_by_key(|n| n != name);
            names
                .iter()
                .map(|n| {
                    let value = format!("beeuni:{n}");
                    (value.clone(), value, CompletionItemKind::VALUE, "the hosted Beeuni tool".into())
                })
                .collect()
        }
        (Place::Value(_), ["agents", _, "tools"]) => [("all", "every tool (the default)"), ("none", "no tool")]
            .iter()
            .map(|(v, d)| (v.to_string(), v.to_string(), CompletionItemKind::VALUE, d.to_string()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Every name an agent list may usefully hold: harness tools, the loaded Beeuni tools, declared project tools.
fn tool_names(project: &Project) -> Vec<(String, String)> {
    let harness = project.harness.names().filter(|n| project.harness.tier(n) == Some(HarnessTier::One));
    let mut out: Vec<(String, String)> = harness.map(|n| (n.to_string(), "harness tool".into())).collect();
    out.extend(project.loaded_beeuni.iter().map(|n| (n.to_string(), "Beeuni tool".into())));
    // The names so far by hash: a search of `out` for each declaration was quadratic in the project's tools.
    let mut seen: std::collections::HashSet<String> = out.iter().map(|(n, _)| n.clone()).collect();
    for decl in project.tools.iter().filter(|d| !catalog::is_beeuni(&d.name)) {
        if let Some(path) = decl.module_path()
            && seen.insert(decl.name.to_string())
        {
            out.push((decl.name.to_string(), format!("project tool ({})", escape(path))));
        }
    }
    out
}

/// Reads the place from the line up to the cursor's word (`before`) and the lines above it.
fn place_of(text: &str, line_start: usize, before: &str) -> Place {
    let indent = before.len() - before.trim_start_matches(' ').len();
    let rest = before.trim_start_matches(' ');
    // The keys this line opens before the cursor: `tools: [a, ` or `tools: {exclude: [`.
    let mut line_keys = Vec::new();
    let mut depth = 0i32;
    let mut token = String::new();
    let mut after_colon = false;
    for c in rest.chars() {
        match c {
            ':' => {
                line_keys.push(std::mem::take(&mut token).trim().trim_matches(['"', '\'']).to_string());
                after_colon = true;
            }
            '[' | '{' => {
                depth += 1;
                token.clear();
                after_colon = false;
            }
            ']' | '}' => depth -= 1,
            ',' => {
                token.clear();
                after_colon = false;
            }
            c if c != '-' || !token.trim().is_empty() => token.push(c),
            _ => {}
        }
    }
    let item = rest.starts_with("- ") || rest == "-";
    let mut keys = parents(text, line_start, indent, item && line_keys.is_empty());
    let flow = rest.rfind('[').is_some_and(|open| !rest[open..].contains(']'));
    keys.extend(line_keys);
    if flow {
        Place::Item(keys)
    } else if after_colon && depth == 0 {
        Place::Value(keys)
    } else if item && !after_colon {
        Place::Item(keys)
    } else {
        Place::Key(keys)
    }
}

/// The keys of the lines above `line_start` that hold a line of this indentation (a block item, `item`, may sit
/// at its key's own indentation).
fn parents(text: &str, line_start: usize, indent: usize, item: bool) -> Vec<String> {
    let mut keys = Vec::new();
    let mut limit = indent;
    let mut first = true;
    for line in text[..line_start].split(['\n', '\r']).rev() {
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let own = line.len() - content.len();
        let same_level_key = first && item && own == limit && !content.starts_with('-');
        if own < limit || same_level_key {
            first = false;
            if let Some((key, _)) = content.split_once(':').filter(|_| !content.starts_with('-')) {
                keys.push(key.trim().trim_matches(['"', '\'']).to_string());
            }
            limit = own;
            if own == 0 {
                break;
            }
        }
    }
    keys.reverse();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(text: &str) -> Place {
        let at = text.find('|').unwrap();
        let text = text.replace('|', "");
        let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let prefix = &text[line_start..at];
        let word = prefix.len() - prefix.chars().rev().take_while(|&c| is_word(c)).count();
        place_of(&text, line_start, &prefix[..word])
    }

    fn keys(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn reads_the_place_from_indentation() {
        let agent = "agents:\n  support:\n    tools:\n";
        assert_eq!(place(&format!("{agent}      - ba|\n")), Place::Item(keys(&["agents", "support", "tools"])));
        assert_eq!(place(&format!("{agent}    - |\n")), Place::Item(keys(&["agents", "support", "tools"])));
        assert_eq!(
            place(&format!("{agent}      exclude: [bash, |]\n")),
            Place::Item(keys(&["agents", "support", "tools", "exclude"]))
        );
        assert_eq!(place("agents:\n  a:\n    tools: [re|"), Place::Item(keys(&["agents", "a", "tools"])));
        assert_eq!(
            place("agents:\n  a:\n    tools: {exclude: [|"),
            Place::Item(keys(&["agents", "a", "tools", "exclude"]))
        );
        assert_eq!(place("tools:\n  web_search: beeuni:w|\n"), Place::Value(keys(&["tools", "web_search"])));
        assert_eq!(place("imports: []\nage|"), Place::Key(Vec::new()));
        assert_eq!(place("agents:\n  a:\n    # note\n    sec|"), Place::Key(keys(&["agents", "a"])));
    }

    #[test]
    fn lone_carriage_returns_and_crlf_end_lines() {
        for eol in ["\r", "\r\n"] {
            let text = "agents:\n  support:\n    tools:\n      - ba|\n".replace('\n', eol);
            assert_eq!(place(&text), Place::Item(keys(&["agents", "support", "tools"])), "{eol:?}");
            let text = "tools:\n  web_search: beeuni:w|\n".replace('\n', eol);
            assert_eq!(place(&text), Place::Value(keys(&["tools", "web_search"])), "{eol:?}");
        }
    }
}
