use crate::diagnostic::{Diagnostic, Edit, Fix, Label, Safety, Severity};
use crate::manifest::agents::AgentDecl;
use crate::project::Project;
use crate::source::FileId;
use crate::suggest::{is_near_miss, listed};
use crate::yaml::{Document, Entry, NodeId};

crate::rules::declare_rule! {
    /// A key is a near miss of a known key (`Tools`, `tool`, `agnets`, `exlude`).
    ///
    /// ## What it checks
    /// Keys at the top level (`tools`, `imports`, `agents`), in an agent
    /// (`tools`, `secrets`, `connectors`, `permission`) and in an agent's `tools`
    /// mapping (`exclude`) that are almost a known key: the same letters in
    /// another case, a singular/plural slip, or one edit away (two for keys of
    /// eight letters or more). Keys far from every known key are left alone: the
    /// manifest has more keys than the tools page documents.
    ///
    /// ## Why
    /// A misspelt key is silently ignored: `Tools:` declares nothing, and
    /// `{exlude: [bash]}` leaves `bash` enabled. That last case is an error
    /// (as `unknown-excluded-tool` is): the agent meant to hide tools and keeps
    /// every one, and the message names the listed tools that stay enabled.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools:
    ///       exlude: [bash]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools:
    ///       exclude: [bash]
    /// ```
    ///
    /// ## Fix
    /// Use the known key the help suggests. For a near miss of `exclude` that is
    /// the only key of the agent's `tools` mapping and holds a list,
    /// `--fix --unsafe-fixes` renames it to `exclude` (unsafe: the agent then
    /// loses the tools it lists).
    id: "unknown-key",
    severity: Warning,
    category: Manifest,
    fix: Unsafe,
    check: check,
}

use crate::catalog::{AGENT_KEYS as AGENT, AGENT_TOOLS_KEYS as AGENT_TOOLS, TOP_KEYS as TOP};

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for manifest in &project.graph.files {
        let doc = &manifest.doc;
        let Some(root) = doc.root else { continue };
        near_misses(doc, manifest.file, root, TOP, &|key| format!("top-level key `{key}`"), out);
    }
    for agent in &project.agents {
        let doc = &project.graph.files[agent.graph_index].doc;
        let name = &agent.name;
        near_misses(doc, agent.file, agent.node, AGENT, &|key| format!("setting `{key}` of agent `{name}`"), out);
        if let Some((_, tools)) = agent.tools_key {
            exclude_typos(project, agent, tools, out);
        }
    }
}

/// At most this many tools a misspelt `exclude` lists are named in its message.
const NAMED: usize = 5;

/// A near miss of `exclude` in an agent's `tools` mapping: an error, since the agent keeps every tool it meant to
/// hide. The message names the listed tools that stay enabled and ends with the remedy.
fn exclude_typos(project: &Project, agent: &AgentDecl, tools: NodeId, out: &mut Vec<Diagnostic>) {
    let doc = &project.graph.files[agent.graph_index].doc;
    let entries = doc.entries(tools).unwrap_or_default();
    for entry in &entries {
        let Some(key) = doc.scalar(entry.key) else { continue };
        if AGENT_TOOLS.contains(&key) || !is_exclude_typo(key) {
            continue;
        }
        let kept = kept_enabled(project, agent, doc, entry);
        let shown: Vec<&str> = kept.iter().take(NAMED).copied().collect();
        let more = match kept.len().saturating_sub(NAMED) {
            0 => String::new(),
            n => format!(" and {n} more it lists"),
        };
        let consequence = match (entries.len(), shown.is_empty()) {
            (1, true) => "so every tool stays enabled".to_string(),
            (1, false) => format!("so every tool stays enabled, {}{more} included", listed(&shown, "and")),
            (_, true) => "so it hides nothing".to_string(),
            (_, false) => format!("so {}{more} {} enabled", listed(&shown, "and"), verb(kept.len())),
        };
        let message = format!(
            "unknown key `{key}` in the `tools` of agent `{}`: it is ignored, {consequence}; rename it to `exclude`",
            agent.name
        );
        let span = doc.node(entry.key).span;
        let mut diagnostic = RULE
            .diagnostic_with(Severity::Error, Label::new(agent.file, span), message)
            .help("did you mean `exclude`?");
        // Alone in the mapping with a list, renamed it makes the documented `{exclude: [...]}`; beside other keys it
        // would make a mixed mapping, and with one name `{exclude: bash}` (both `agent-tools-shape`): no fix then.
        if entries.len() == 1 && doc.items(entry.value).is_some() {
            let written = project.file(agent.file).slice(span);
            let content = crate::yaml::edit::requote(written, "exclude");
            diagnostic = diagnostic.fix(Fix::new(Safety::Unsafe, vec![Edit { file: agent.file, span, content }]));
        }
        out.push(diagnostic);
    }
}

fn verb(count: usize) -> &'static str {
    if count == 1 { "stays" } else { "stay" }
}

/// The tools the misspelt entry lists (a list, or one name) that the project knows: those the agent keeps.
fn kept_enabled<'d>(project: &Project, agent: &AgentDecl, doc: &'d Document, entry: &Entry) -> Vec<&'d str> {
    let names: Vec<&str> = match doc.items(entry.value) {
        Some(items) => items.iter().filter_map(|&item| doc.str(item)).collect(),
        None => doc.str(entry.value).into_iter().collect(),
    };
    // The list is the repository's, of any length: repeated names are dropped through a set, not a scan.
    let mut seen = std::collections::HashSet::new();
    names.into_iter().filter(|&name| !project.is_unknown_in(agent, name) && name != "*" && seen.insert(name)).collect()
}

/// Reports the keys of `map` that nearly match one of `known`; `what` names such a key (worded only for a finding).
pub fn near_misses(
    doc: &Document,
    file: FileId,
    map: NodeId,
    known: &[&str],
    what: &dyn Fn(&str) -> String,
    out: &mut Vec<Diagnostic>,
) {
    for entry in doc.entries(map).unwrap_or_default() {
        let Some(key) = doc.scalar(entry.key) else { continue };
        if known.contains(&key) {
            continue;
        }
        if let Some(meant) = known.iter().find(|k| is_near_miss(key, k)) {
            let message = format!("unknown {}: it is ignored", what(key));
            let at = Label::new(file, doc.node(entry.key).span);
            out.push(RULE.diagnostic(at, message).help(format!("did you mean `{meant}`?")));
        }
    }
}

/// Is `key` a near miss of `exclude` (so the agent's `tools` mapping is reported here, not as a shape error)?
pub fn is_exclude_typo(key: &str) -> bool {
    AGENT_TOOLS.iter().any(|k| is_near_miss(key, k))
}
