//! Why a tool was gained or lost: what `access` says of the side that has it (`listed`, `not excluded`, `` `all` ``,
//! a shared permission, `follows `bash``), beside what keeps the other side's agent from it, read from that
//! side's declaration the way `access` reads it. Every reason is made of the platform's names and these words:
//! never of the repository's text.

use super::ToolChange;
use crate::access::{self, Callable, Source};
use crate::catalog::PTY_TOOLS;
use crate::manifest::agents::{AgentDecl, ToolList};
use crate::project::Project;
use std::collections::HashSet;

const INVALID: &str = "`tools:` is invalid (see check): what it gives is not known";

pub(super) struct Context<'a> {
    /// Every tool a session of the project can have, at each side.
    pub base_universe: &'a HashSet<&'a str>,
    pub head_universe: &'a HashSet<&'a str>,
    pub base_decl: Option<&'a AgentDecl>,
    pub head_decl: Option<&'a AgentDecl>,
    /// What `access` calls invalid on each side (a misspelt `tools:` key too, which the declaration reads as none).
    pub base_invalid: bool,
    pub head_invalid: bool,
    pub harness: &'static str,
    /// Each side's model, for the places of causes.
    pub base_project: Option<&'a Project>,
    pub head_project: Option<&'a Project>,
}

impl Context<'_> {
    pub(super) fn standard(&self) -> bool {
        self.harness == "standard"
    }

    /// A tool the head's agent can call and the base's could not.
    pub fn gained(&self, tool: &Callable, cause: usize) -> ToolChange {
        let why = match self.base_decl {
            None => format!("new agent: {}", tool.why),
            Some(_) if !self.base_universe.contains(tool.name.as_str()) => {
                format!("{}: {}", arrived(tool.source), tool.why)
            }
            Some(_) if self.base_invalid => format!("{} (before: {INVALID})", tool.why),
            Some(decl) => format!("{} (before: {})", tool.why, why_not(decl, &tool.name, self.standard())),
        };
        ToolChange { name: tool.name.clone(), source: tool.source, why, cause }
    }

    /// A tool the base's agent could call and the head's cannot.
    pub fn lost(&self, tool: &Callable, cause: usize) -> ToolChange {
        let why = match self.head_decl {
            None => "agent removed".to_string(),
            Some(_) if !self.head_universe.contains(tool.name.as_str()) => left(tool.source).to_string(),
            Some(_) if self.head_invalid => format!("{INVALID} (before: {})", tool.why),
            Some(decl) => format!("{} (before: {})", why_not(decl, &tool.name, self.standard()), tool.why),
        };
        ToolChange { name: tool.name.clone(), source: tool.source, why, cause }
    }
}

/// Why a tool new to every session of the project is there.
fn arrived(source: Source) -> &'static str {
    match source {
        Source::Beeuni => "`tools:` now loads this Beeuni tool for every agent",
        Source::Project => "newly declared under `tools:`",
        Source::Harness => "a harness tool now",
    }
}

/// Why a tool is gone from every session of the project.
fn left(source: Source) -> &'static str {
    match source {
        Source::Beeuni => "`tools:` no longer loads this Beeuni tool: gone for every agent",
        Source::Project => "no longer declared under `tools:` (or its module is gone): gone for every agent",
        Source::Harness => "no longer a harness tool: gone for every agent",
    }
}

/// Why `agent` cannot call `tool` (a tool of the project) on that harness: the counterpart of `access`'s `why`.
fn why_not(agent: &AgentDecl, tool: &str, standard: bool) -> String {
    if standard && PTY_TOOLS.contains(&tool) {
        return format!("follows `bash`, and for `bash`: {}", why_not(agent, "bash", true));
    }
    let shares = |named: &str| access::shares_permission(named, tool, standard);
    match &agent.tools {
        ToolList::All => "not a tool of the project".into(),
        ToolList::None => "`tools:` gives it no tool".into(),
        ToolList::Invalid => INVALID.into(),
        ToolList::List(_) => "not in its `tools:` list".into(),
        ToolList::Exclude(items) => match items.iter().find(|t| t.name == tool || shares(&t.name)) {
            Some(t) if t.name == tool => "`exclude:` lists it".into(),
            Some(t) => format!("`exclude:` lists `{}`, which shares its permission", t.name),
            None => "not a tool of the project".into(),
        },
        ToolList::Map(items) => match items.iter().find(|(t, on)| !on && (t.name == tool || shares(&t.name))) {
            Some((t, _)) if t.name == tool => "set to `false`".into(),
            Some((t, _)) => format!("`{}: false` shares its permission", t.name),
            None => "not a tool of the project".into(),
        },
    }
}
