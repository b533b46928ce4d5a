use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::agents::Secrets;
use crate::modules::facts::InlineStr;
use crate::project::Project;
use std::collections::HashSet;

crate::rules::declare_rule! {
    /// An agent can call a tool whose module reads a secret the agent is not granted.
    ///
    /// ## What it checks
    /// For every agent with an explicit `secrets:` list (`secrets: []` counts;
    /// `secrets: all` does not), every tool the agent can call whose module
    /// reads `context.env.NAME`, where NAME is a secret of the project (in some
    /// agent's `secrets:` list), and the agent's list lacks NAME. The finding
    /// points at the agent's `secrets:` key. An agent without `tools` can call
    /// every tool.
    ///
    /// ## Why
    /// `context.env` holds the secrets the calling agent is granted: for this
    /// agent the read finds nothing, and the tool fails (or worse, calls the API
    /// without a key).
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   weather_now: tools/weather_now.ts
    /// agents:
    ///   beeuni:
    ///     secrets: [WEATHER_API_KEY]
    ///   support:
    ///     secrets: []
    /// ```
    ///
    /// ```ts
    /// // tools/weather_now.ts
    /// export default {
    ///   description: 'The weather now in a city, as one line of text',
    ///   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    ///   async execute(args, context) {
    ///     return context.env.WEATHER_API_KEY ? `sunny in ${args.city}` : 'no key'
    ///   },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   weather_now: tools/weather_now.ts
    /// agents:
    ///   beeuni:
    ///     secrets: [WEATHER_API_KEY]
    ///   support:
    ///     secrets: [WEATHER_API_KEY]
    /// ```
    ///
    /// ```ts
    /// // tools/weather_now.ts
    /// export default {
    ///   description: 'The weather now in a city, as one line of text',
    ///   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    ///   async execute(args, context) {
    ///     return context.env.WEATHER_API_KEY ? `sunny in ${args.city}` : 'no key'
    ///   },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Grant the secret (`secrets: [WEATHER_API_KEY]`) or take the tool from the
    /// agent's list.
    id: "secret-not-granted",
    severity: Warning,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let secrets = project.secrets();
    for agent in &project.agents {
        let (Secrets::List(granted), Some(key)) = (&agent.secrets, agent.secrets_key) else {
            continue;
        };
        let granted: HashSet<&str> = granted.iter().map(String::as_str).collect();
        for module in &project.modules {
            // What the module reads and the agent is not granted, first: most modules read none, and whether the
            // agent can call the tool is a search of its list.
            let ungranted = |name: &&InlineStr| secrets.contains(name.as_str()) && !granted.contains(name.as_str());
            if !module.facts.context_env.iter().any(|name| ungranted(&name)) {
                continue;
            }
            for &index in &module.declared_by {
                let tool = &project.tools[index];
                if !project.can_call(agent, &tool.name) {
                    continue;
                }
                for name in module.facts.context_env.iter().filter(ungranted) {
                    let message = format!(
                        "agent `{}` can call `{}`, whose module reads `context.env.{name}`, but its `secrets:` does not grant `{name}`",
                        agent.name, tool.name
                    );
                    let help = format!(
                        "add `{name}` to the `secrets:` of `{}`, or take `{}` from its tools",
                        agent.name, tool.name
                    );
                    out.push(
                        RULE.diagnostic(Label::new(agent.file, key), message)
                            .related(Label::with_message(tool.file, tool.entry(), "the tool is declared here"))
                            .help(help),
                    );
                }
            }
        }
    }
}
