use crate::catalog::is_sensitive;
use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::agents::AgentDecl;
use crate::project::Project;
use std::collections::HashMap;

crate::rules::declare_rule! {
    /// An agent hides a sensitive tool but can reach it through `task`.
    ///
    /// ## What it checks
    /// Agent A can use `task`, hides a tool T explicitly (`exclude:` or
    /// `T: false`), T is `bash`, `write`, `edit`, `apply_patch` or a `pty_*` tool,
    /// and another agent B can call T. One finding per A and T, at A's `tools:`
    /// key, naming the first such B.
    ///
    /// ## Why
    /// On the standard harness a subagent started with `task` gets its own list,
    /// so A can reach T through B. Info: whether B can be started as a subagent
    /// is not in the manifest.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   beeuni:
    ///     tools: all
    ///   support:
    ///     tools:
    ///       exclude: [bash]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   beeuni:
    ///     tools: all
    ///   support:
    ///     tools:
    ///       exclude: [bash, task]
    /// ```
    ///
    /// ## Fix
    /// Hide `task` from A too, or narrow B's list.
    id: "task-escalation",
    severity: Info,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    // The agents that can call each sensitive tool, found once a tool: asked for every agent that hides it, the
    // search was agents times agents times their lists.
    let mut callers: HashMap<&str, Vec<&AgentDecl>> = HashMap::new();
    for a in &project.agents {
        let Some((key, _)) = a.tools_key else { continue };
        if !project.can_call(a, "task") {
            continue;
        }
        let mut seen: Vec<&str> = Vec::new();
        for (tool, _) in a.named() {
            let t = tool.name.as_str();
            // Once per agent and tool, however often the list names it.
            if seen.contains(&t) || !is_sensitive(t) || !a.hides_explicitly(t) || project.can_call(a, t) {
                continue;
            }
            seen.push(t);
            let callers =
                callers.entry(t).or_insert_with(|| project.agents.iter().filter(|b| project.can_call(b, t)).collect());
            let others: Vec<&AgentDecl> = callers.iter().copied().filter(|b| b.name != a.name).collect();
            let Some(b) = others.first() else { continue };
            let more = match others.len() - 1 {
                0 => String::new(),
                1 => " (and 1 other agent)".into(),
                n => format!(" (and {n} other agents)"),
            };
            let message = format!(
                "agent `{}` hides `{t}` but can use `task`: on the standard harness a subagent gets its own list, so `{}` can reach `{t}` through `{}`{more}",
                a.name, a.name, b.name
            );
            let help = format!("hide `task` from `{}` too, or remove `{t}` from the agents it can start", a.name);
            out.push(RULE.diagnostic(Label::new(a.file, key), message).help(help));
        }
    }
}
