use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::agents::AgentDecl;
use crate::project::Project;

crate::rules::declare_rule! {
    /// One agent name is declared in two files of the graph.
    ///
    /// ## What it checks
    /// An agent under `agents:` may be declared in one file only. The finding
    /// points at the later declaration in graph order and labels the first.
    ///
    /// ## Why
    /// Which declaration's tools, secrets and permissions win is not defined.
    ///
    /// ## Example
    /// ```yaml
    /// # beeuni.yaml
    /// imports: [config/agents.yaml]
    /// agents: { support: { tools: none } }
    /// # config/agents.yaml
    /// agents: { support: { tools: all } }
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// # beeuni.yaml
    /// imports: [config/agents.yaml]
    /// # config/agents.yaml
    /// agents: { support: { tools: all } }
    /// ```
    ///
    /// ## Fix
    /// Keep one declaration.
    id: "duplicate-agent",
    severity: Error,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let name = |at: usize| project.agents[at].name.as_bytes();
    let by_name = crate::lookup::PositionTable::new(project.agents.len(), name);
    let first = |agent: &AgentDecl| by_name.find(agent.name.as_bytes(), name);
    for (first, repeat) in super::declared_elsewhere(&project.agents, first, |d| d.file) {
        let message = format!(
            "agent `{}` is already declared in `{}`: an agent may be declared in one file only",
            repeat.name,
            project.file(first.file).shown
        );
        out.push(
            RULE.diagnostic(Label::new(repeat.file, repeat.key), message)
                .related(Label::with_message(first.file, first.key, "first declared here"))
                .help("remove one of the two declarations"),
        );
    }
}
