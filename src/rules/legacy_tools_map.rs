use crate::diagnostic::{Diagnostic, Fix, Label, Safety};
use crate::manifest::agents::ToolList;
use crate::project::Project;
use crate::yaml::edit::map_to_exclude;

crate::rules::declare_rule! {
    /// An agent uses the earlier map form `{ bash: false, … }`.
    ///
    /// ## What it checks
    /// `agents.<name>.tools` is a map of tool names to booleans.
    ///
    /// ## Why
    /// The form still works (`false` removes a tool), but `exclude:` says the
    /// same thing plainly and is the documented form.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools: {bash: false, edit: false}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools: {exclude: [bash, edit]}
    /// ```
    ///
    /// ## Fix
    /// Write `tools: {exclude: [bash, edit]}` (not when a key holds `*` or a
    /// value is `true`). `--fix` does it (a safe fix): the map becomes an exclude
    /// list in the same style (flow or block), keeping the keys as written and
    /// every comment.
    id: "legacy-tools-map",
    severity: Info,
    category: Agent,
    fix: Safe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        let (ToolList::Map(entries), Some((key, _))) = (&agent.tools, agent.tools_key) else {
            continue;
        };
        let message = format!("agent `{}` uses the earlier map form of `tools`", agent.name);
        let hidden: Vec<&str> = entries.iter().filter(|(_, on)| !on).map(|(t, _)| t.name.as_str()).collect();
        let convertible = entries.iter().all(|(t, on)| !on && !t.name.contains('*'));
        let help = if convertible {
            format!("write `tools: {{exclude: [{}]}}`", hidden.join(", "))
        } else {
            "write `exclude: [...]` with the tools to hide, or a list of the tools to give".into()
        };
        let mut diagnostic = RULE.diagnostic(Label::new(agent.file, key), message).help(help);
        if convertible && let Some((_, value)) = agent.tools_key {
            let doc = &project.graph.files[agent.graph_index].doc;
            let edits = map_to_exclude(doc, &project.file(agent.file).text, agent.file, value);
            diagnostic.fix = edits.map(|edits| Fix::new(Safety::Safe, edits));
        }
        out.push(diagnostic);
    }
}
