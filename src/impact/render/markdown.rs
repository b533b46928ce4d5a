//! `impact` for a pull-request comment: a heading, the summary, the projects' own lines, then per agent a list
//! item with its net change and under it one item per cause, its `path:line` first (a link to the line with
//! `--link-base`). Every name and path of the repository is a code span ([`span`]) and nothing else: no table,
//! no HTML, so that no name can end a cell or an element, and the only links are those `--link-base` makes.

use super::group::{by_cause, headline, list};
use super::{Impact, project_lines, several, summary, unchanged};
use crate::impact::{AgentImpact, Cause, Side};
use crate::source::escape::escape;
use std::fmt::Write;

/// GitHub refuses a comment over 65,536 characters: the agents' sections stop well before.
pub const MARKDOWN_BUDGET: usize = 60_000;

/// The names a line of the comment shows of a list (tools added, what a cause gives, …): a longer list is for
/// `--format human` or `json`.
const MARKDOWN_NAMES: usize = 50;

/// The names an agent's first line shows: the lines below name the rest.
const NET_NAMES: usize = 5;

/// For a pull-request comment: a heading, the summary, then the projects' lines and each agent until
/// [`MARKDOWN_BUDGET`] is spent (a line or an agent that does not fit is left out and counted).
pub fn markdown(impact: &Impact) -> String {
    if unchanged(impact) {
        return format!("{}\n", summary(impact));
    }
    let name = |text: &str| span(&escape(text));
    let place = |path: &str, line: usize, url: Option<&str>| linked(&format!("{}:{line}", escape(path)), url);
    let mut out = format!("### beeuni-lint impact\n\n{}\n\n", summary(impact));
    let _ = writeln!(out, "Compared {} with {}.", impact.head, span(&escape(&impact.base)));
    let several = several(impact);
    let (mut lines_left_out, mut agents_left_out) = (0, 0);
    for project in impact.projects.iter().filter(|p| !p.is_empty()) {
        if several {
            fits(&mut out, &format!("\n#### Project {}\n", name(&project.project)));
        }
        let lines = project_lines(project, &name, &place, MARKDOWN_NAMES);
        if !lines.is_empty() {
            out.push('\n');
        }
        lines_left_out += lines.iter().filter(|line| !fits(&mut out, &format!("- {line}\n"))).count();
        if !project.agents.is_empty() {
            out.push('\n');
        }
        agents_left_out += project.agents.iter().filter(|agent| !fits(&mut out, &agent_item(agent))).count();
    }
    let plural = |n: usize, noun: &str| if n == 1 { format!("1 more {noun}") } else { format!("{n} more {noun}s") };
    let left_out = match (lines_left_out, agents_left_out) {
        (0, 0) => None,
        (0, agents) => Some(plural(agents, "agent")),
        (lines, 0) => Some(plural(lines, "line")),
        (lines, agents) => Some(format!("{} and {}", plural(lines, "line"), plural(agents, "agent"))),
    };
    if let Some(left_out) = left_out {
        let _ = write!(out, "\n… and {left_out}: run `beeuni-lint impact --format human` to see them.\n");
    }
    out
}

/// Appends `text` to the comment if it leaves it within [`MARKDOWN_BUDGET`]; `false` when it would not.
fn fits(out: &mut String, text: &str) -> bool {
    if out.len() + text.len() > MARKDOWN_BUDGET {
        return false;
    }
    out.push_str(text);
    true
}

/// `- **`agent`**: net change`, then an item per cause under it.
fn agent_item(agent: &AgentImpact) -> String {
    let name = |text: &str| span(&escape(text));
    let mut out = format!("- **{}**: {}\n", name(&agent.agent), headline(agent, &name, NET_NAMES));
    for (cause, changes) in by_cause(agent) {
        let _ = writeln!(out, "  - {}{}: {}", at(cause), what(cause), list(&changes, &name, MARKDOWN_NAMES));
    }
    out
}

/// The cause's place, linked when it has a link, then a space; nothing for a change of no file.
fn at(cause: &Cause) -> String {
    match (&cause.path, cause.line) {
        (Some(path), Some(line)) => {
            let shown = linked(&format!("{}:{line}", escape(path)), cause.url.as_deref());
            let base = if cause.side == Side::Base { " (base)" } else { "" };
            format!("{shown}{base} ")
        }
        _ => String::new(),
    }
}

fn what(cause: &Cause) -> String {
    match &cause.subject {
        Some(subject) => format!("{} {}", cause.words, span(&escape(subject))),
        None => cause.words.to_string(),
    }
}

/// `text` as a code span, the link to `url` (from `--link-base`, already checked and escaped) when there is one.
/// A code span binds before a link's brackets, so no `]` of the text can end the link's text.
fn linked(text: &str, url: Option<&str>) -> String {
    match url {
        Some(url) => format!("[{}]({url})", span(text)),
        None => span(text),
    }
}

/// `text` as a code span (CommonMark's, GitHub's): fenced by one backtick more than its longest run of them,
/// padded with a space when it starts or ends with a backtick or a space (the parser takes one off each side), so
/// that nothing in it is read as Markdown. Outside a table a backslash is literal in a code span, so `|` stays as
/// it is (`source::escape::code_span` writes `\|`, for a table cell). Line breaks must be escaped first.
fn span(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}
