use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::source::FileId;
use crate::suggest::is_near_miss;
use crate::yaml::{Document, NodeId};

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
    /// `{exlude: [bash]}` leaves `bash` enabled.
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
    /// Use the known key the help suggests.
    id: "unknown-key",
    severity: Warning,
    category: Manifest,
    fix: None,
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
            near_misses(
                doc,
                agent.file,
                tools,
                AGENT_TOOLS,
                &|key| format!("key `{key}` in the `tools` of agent `{name}`"),
                out,
            );
        }
    }
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
