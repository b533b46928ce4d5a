//! What made each row of the impact change, as a place in the repository: the change to the manifest that did it
//! (an emptied `exclude:`, a tool newly listed, `tools: all`, a Beeuni tool no longer loaded, a subagent `task`
//! reaches, a `secrets:` list), at its `file:line`. Rows with the same cause share it: an agent's causes are
//! listed once, each with what it gains or loses, and every row names its cause by index, so that no format
//! repeats a reason on each of thousands of rows.
//!
//! A cause is read from the side that holds it: the head for what an agent gains (and for what it loses while it
//! still exists), the base for what left with an agent or a tool declaration. Its words are this module's; the
//! one name it may be about (a listed tool, the agent `task` starts) is kept apart, for each format to show as
//! the repository's text.

use super::reasons::Context;
use crate::access::{self, Source};
use crate::catalog::PTY_TOOLS;
use crate::manifest::agents::{AgentDecl, ToolList};
use crate::project::Project;
use crate::source::{FileId, Span};
use serde::Serialize;
use std::collections::HashMap;

/// The side of the change a cause's line is on.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Head,
    Base,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Cause {
    /// What changed: [`Cause::words`], then the name it is about in backticks.
    pub change: String,
    #[serde(skip)]
    pub words: &'static str,
    /// The repository's name the words are about (a listed tool, the agent `task` starts).
    #[serde(skip)]
    pub subject: Option<String>,
    /// From the repository's root; `null` for a change outside the project's files (the harness's tools).
    pub path: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub side: Side,
    /// `--link-base`'s link to the line (head side only: the base's lines are not in the linked commit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The tools it gives or takes (on either harness, or through `task`), each once.
    pub gains: Vec<String>,
    pub loses: Vec<String>,
    pub secrets_granted: Vec<String>,
    pub secrets_revoked: Vec<String>,
}

/// A cause found for one row, its place not yet worked out.
pub(super) struct Found<'a> {
    words: &'static str,
    subject: Option<&'a str>,
    at: Option<At<'a>>,
}

/// A place in one side's model.
#[derive(Clone, Copy)]
struct At<'a> {
    project: &'a Project,
    file: FileId,
    span: Span,
    side: Side,
}

impl<'a> Found<'a> {
    fn new(words: &'static str, subject: Option<&'a str>, at: Option<At<'a>>) -> Self {
        Found { words, subject, at }
    }
}

/// One agent's causes, each once.
#[derive(Default)]
pub(super) struct Causes {
    pub list: Vec<Cause>,
    index: HashMap<(&'static str, Option<String>), usize>,
}

impl Causes {
    /// The index of `found`'s cause, added when it is new.
    pub fn add(&mut self, found: Found) -> usize {
        let key = (found.words, found.subject.map(str::to_string));
        if let Some(&at) = self.index.get(&key) {
            return at;
        }
        let change = match found.subject {
            Some(subject) => format!("{} `{subject}`", found.words),
            None => found.words.to_string(),
        };
        let (path, line, column, side) = match found.at {
            Some(At { project, file, span, side }) => {
                let file = project.file(file);
                let at = file.position(span.start());
                (Some(file.shown.to_string()), Some(at.line), Some(at.column), side)
            }
            None => (None, None, None, Side::Head),
        };
        self.list.push(Cause {
            change,
            words: found.words,
            subject: key.1.clone(),
            path,
            line,
            column,
            side,
            url: None,
            gains: Vec::new(),
            loses: Vec::new(),
            secrets_granted: Vec::new(),
            secrets_revoked: Vec::new(),
        });
        self.index.insert(key, self.list.len() - 1);
        self.list.len() - 1
    }
}

fn at<'a>(project: Option<&'a Project>, agent: &AgentDecl, span: Span, side: Side) -> Option<At<'a>> {
    project.map(|project| At { project, file: agent.file, span, side })
}

impl<'a> Context<'a> {
    fn head_at(&self, agent: &AgentDecl, span: Span) -> Option<At<'a>> {
        at(self.head_project, agent, span, Side::Head)
    }

    /// Where a tool was declared (its `name: value` entry) on one side.
    fn declared_at(&self, tool: &str, side: Side) -> Option<At<'a>> {
        let project = if side == Side::Head { self.head_project } else { self.base_project }?;
        let decl = project.tools.get(project.first_declared(tool)?)?;
        Some(At { project, file: decl.file, span: decl.entry(), side })
    }

    /// What the head's agent gets `tool` from.
    pub(super) fn gain_cause(&self, tool: &'a str, source: Source) -> Found<'a> {
        let (Some(head), Some(base)) = (self.head_decl, self.base_decl) else {
            return Found::new("new agent", None, self.head_decl.and_then(|a| self.head_at(a, a.key)));
        };
        if !self.base_universe.contains(tool) {
            let words = match source {
                Source::Beeuni => "`tools:` now loads the Beeuni tool for every agent",
                Source::Project => "newly declared under `tools:`",
                Source::Harness => "a harness tool now (the config's `harness-tools`)",
            };
            return Found::new(words, None, self.declared_at(tool, Side::Head));
        }
        if self.base_invalid {
            return self.tools_change(head);
        }
        let tool = if self.standard() && PTY_TOOLS.contains(&tool) { "bash" } else { tool };
        let shares = |named: &str| access::shares_permission(named, tool, self.standard());
        match &head.tools {
            ToolList::List(items) => {
                let named = items.iter().find(|t| t.name == tool);
                let item = named.or_else(|| items.iter().find(|t| t.name == "*" || shares(&t.name)));
                match item {
                    Some(item) => Found::new("`tools:` lists", Some(&item.name), self.head_at(head, item.item)),
                    None => self.tools_change(head),
                }
            }
            ToolList::Exclude(items)
                if items.is_empty() && matches!(&base.tools, ToolList::Exclude(b) if !b.is_empty()) =>
            {
                Found::new("`exclude:` emptied", None, self.exclude_at(head))
            }
            _ => self.tools_change(head),
        }
    }

    /// What took `tool` from the base's agent.
    pub(super) fn loss_cause(&self, tool: &'a str, source: Source) -> Found<'a> {
        let Some(head) = self.head_decl else {
            let at = self.base_decl.and_then(|a| at(self.base_project, a, a.key, Side::Base));
            return Found::new("agent removed", None, at);
        };
        if !self.head_universe.contains(tool) {
            let words = match source {
                Source::Beeuni => "`tools:` no longer loads the Beeuni tool: gone for every agent",
                Source::Project => "no longer declared under `tools:` (or its module is gone): gone for every agent",
                Source::Harness => "no longer a harness tool (the config's `harness-tools`)",
            };
            return Found::new(words, None, self.declared_at(tool, Side::Base));
        }
        if self.head_invalid {
            return self.tools_change(head);
        }
        let tool = if self.standard() && PTY_TOOLS.contains(&tool) { "bash" } else { tool };
        let shares = |named: &str| access::shares_permission(named, tool, self.standard());
        let hides = match &head.tools {
            ToolList::Exclude(items) => {
                items.iter().find(|t| t.name == tool || shares(&t.name)).map(|t| ("`exclude:` lists", t))
            }
            ToolList::Map(items) => items
                .iter()
                .find(|(t, on)| !on && (t.name == tool || shares(&t.name)))
                .map(|(t, _)| ("`tools:` turns off", t)),
            _ => None,
        };
        match hides {
            Some((words, item)) => Found::new(words, Some(&item.name), self.head_at(head, item.item)),
            None => self.tools_change(head),
        }
    }

    /// The head's `tools:` as a whole, at its key (or the agent's, without one).
    fn tools_change(&self, head: &AgentDecl) -> Found<'a> {
        let words = match &head.tools {
            ToolList::All if head.tools_key.is_some() => "`tools: all`",
            ToolList::All => "no `tools:`: every tool",
            ToolList::None => "`tools:` gives no tool",
            ToolList::Invalid => "`tools:` is invalid (see check)",
            ToolList::List(_) => "`tools:` list changed",
            ToolList::Exclude(_) => "`exclude:` changed",
            ToolList::Map(_) => "`tools:` map changed",
        };
        let key = head.tools_key.map_or(head.key, |(key, _)| key);
        let at =
            if matches!(head.tools, ToolList::Exclude(_)) { self.exclude_at(head) } else { self.head_at(head, key) };
        Found::new(words, None, at)
    }

    /// The `exclude:` key of the head's `tools:` (or `tools:` itself).
    fn exclude_at(&self, head: &AgentDecl) -> Option<At<'a>> {
        let project = self.head_project?;
        let (key, value) = head.tools_key?;
        let doc = &project.graph.files.get(head.graph_index)?.doc;
        let entries = doc.entries(value).unwrap_or_default();
        let exclude = entries.iter().find(|e| doc.scalar(e.key) == Some("exclude"));
        self.head_at(head, exclude.map_or(key, |e| doc.node(e.key).span))
    }

    /// What made `task` reach (or no longer reach) a tool through `via`: the subagent, where it is declared.
    pub(super) fn task_cause(&self, via: &'a str, gained: bool, agents: [Option<&'a AgentDecl>; 2]) -> Found<'a> {
        let [base, head] = agents;
        let at = match head {
            Some(agent) => self.head_at(agent, agent.key),
            None => base.and_then(|a| at(self.base_project, a, a.key, Side::Base)),
        };
        let words = if gained {
            "reaches through `task` the tools of"
        } else {
            "no longer reaches through `task` the tools of"
        };
        Found::new(words, Some(via), at)
    }

    /// What granted or revoked a secret.
    pub(super) fn secret_cause(&self, why: SecretWhy) -> Found<'a> {
        let Some(head) = self.head_decl else {
            let at = self.base_decl.and_then(|a| at(self.base_project, a, a.key, Side::Base));
            return Found::new("agent removed", None, at);
        };
        if self.base_decl.is_none() {
            return Found::new("new agent", None, self.head_at(head, head.key));
        }
        match why {
            SecretWhy::Listed => {
                Found::new("`secrets:` list changed", None, self.head_at(head, head.secrets_key.unwrap_or(head.key)))
            }
            SecretWhy::EveryListed => {
                Found::new("no `secrets:` list: every secret some agent lists", None, self.head_at(head, head.key))
            }
            SecretWhy::NoOneLists => Found::new("no agent lists the secret any more", None, None),
        }
    }
}

/// Why an agent holds or no longer holds a secret.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SecretWhy {
    /// Its own `secrets:` list says so.
    Listed,
    /// It has no list: it holds every secret some agent lists.
    EveryListed,
    /// No agent lists the secret any more.
    NoOneLists,
}
