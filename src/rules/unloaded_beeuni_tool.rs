use crate::catalog::is_beeuni;
use crate::diagnostic::{Diagnostic, Fix, Label, Safety};
use crate::manifest::agents::{AgentDecl, ToolList, ToolRef};
use crate::project::Project;
use crate::yaml::edit::{remove_entry, remove_item};

crate::rules::declare_rule! {
    /// An agent's list names a Beeuni tool the project does not load.
    ///
    /// ## What it checks
    /// A list, exclude list or map of `agents.<name>.tools` names one of the five
    /// Beeuni tools while the graph's `tools:` key does not load it. Not when a
    /// `tools:` value is neither a mapping nor null (`tools: 7`): that is
    /// `manifest-shape` alone, and what loads is unknown.
    ///
    /// ## Why
    /// An agent list cannot add a Beeuni tool the project does not load: the
    /// agent never gets it, and excluding it hides nothing.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// agents:
    ///   writer:
    ///     tools: [read, show]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    ///   show: beeuni:show
    /// agents:
    ///   writer:
    ///     tools: [read, show]
    /// ```
    ///
    /// ## Fix
    /// Load it under the top-level `tools` (`show: beeuni:show`), or remove it
    /// from the agent's list. In an exclude list or as `show: false` the entry
    /// hides nothing: `--fix` deletes it (a safe fix). In a list,
    /// `--fix --unsafe-fixes` adds
    /// `show: beeuni:show` under the `tools:` key of the root file (or of the first
    /// file that has one): every agent whose list is `all`, omitted or an exclude
    /// form gains it.
    id: "unloaded-beeuni-tool",
    severity: Warning,
    category: Agent,
    fix: SafeOrUnsafe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    // `tools: 7` is `manifest-shape`: which Beeuni tools load is unknown, so none is called unloaded.
    if project.selection_unknown() {
        return;
    }
    for agent in &project.agents {
        for (tool, _) in agent.named() {
            let name = &tool.name;
            if !is_beeuni(name) || project.is_loaded_beeuni(name) {
                continue;
            }
            let message = format!(
                "\"{name}\" is a Beeuni tool this project does not load: add `{name}: beeuni:{name}` under the top-level `tools`, or remove it here."
            );
            let mut diagnostic = RULE.diagnostic(Label::new(agent.file, tool.item), message);
            diagnostic.fix = fix(project, agent, tool);
            out.push(diagnostic);
        }
    }
}

/// In an exclude list or as `name: false` the entry hides nothing: delete it (safe). In a list (or as
/// `name: true`) the agent wants the tool: load it under the first `tools:` key (unsafe).
fn fix(project: &Project, agent: &AgentDecl, tool: &ToolRef) -> Option<Fix> {
    let doc = &project.graph.files[agent.graph_index].doc;
    let text = &project.file(agent.file).text;
    let (key, value) = agent.tools_key?;
    let edits = match &agent.tools {
        ToolList::Exclude(_) => {
            let exclude = doc.get(value, "exclude")?;
            let item = *doc.items(exclude.value)?.iter().find(|&&i| doc.node(i).span == tool.span)?;
            remove_item(doc, text, agent.file, doc.node(exclude.key).span, exclude.value, item)?
        }
        ToolList::Map(entries) if entries.iter().any(|(t, on)| t.span == tool.span && !on) => {
            let index = entries.iter().position(|(t, _)| t.span == tool.span)?;
            remove_entry(doc, text, agent.file, key, value, index, "all")?
        }
        _ => return super::fixes::add_beeuni_lines(project, project.tools_keys.first()?, &[&tool.name]),
    };
    Some(Fix::new(Safety::Safe, edits))
}
