//! `impact` for a terminal: the summary, what was compared, then per project its own lines and per agent its net
//! change and one line per cause, `path:line` first. Every name is escaped (no character that acts reaches the
//! terminal); every list is whole but the net line's, which names a few and counts the rest.

use super::group::{by_cause, headline, list};
use super::{Impact, project_lines, several, summary, unchanged};
use crate::impact::{Cause, Side};
use crate::source::escape::escape;
use std::fmt::Write;

/// The names an agent's first line shows: the lines below name them all.
const NET_NAMES: usize = 5;

pub fn human(impact: &Impact) -> String {
    if unchanged(impact) {
        return format!("{}\n", summary(impact));
    }
    let name = |text: &str| escape(text).into_owned();
    let place = |path: &str, line: usize, _: Option<&str>| format!("{}:{line}", escape(path));
    let mut out = format!("{}\n", summary(impact));
    let _ = writeln!(out, "compared: {} -> {}", escape(&impact.base), impact.head);
    let several = several(impact);
    for project in impact.projects.iter().filter(|p| !p.is_empty()) {
        out.push('\n');
        if several {
            let _ = writeln!(out, "==> {} <==", escape(&project.project));
        }
        for line in project_lines(project, &name, &place, usize::MAX) {
            let _ = writeln!(out, "{line}");
        }
        for agent in &project.agents {
            let _ = writeln!(out, "agent {}: {}", escape(&agent.agent), headline(agent, &name, NET_NAMES));
            for (cause, changes) in by_cause(agent) {
                let _ = writeln!(out, "  {}{}: {}", at(cause), what(cause), list(&changes, &name, usize::MAX));
            }
        }
    }
    out
}

/// `path:line  ` (and ` (base)` for a line of the base), or nothing for a change of no file.
fn at(cause: &Cause) -> String {
    match (&cause.path, cause.line) {
        (Some(path), Some(line)) => {
            let base = if cause.side == Side::Base { " (base)" } else { "" };
            format!("{}:{line}{base}  ", escape(path))
        }
        _ => String::new(),
    }
}

fn what(cause: &Cause) -> String {
    match &cause.subject {
        Some(subject) => format!("{} {}", cause.words, escape(subject)),
        None => cause.words.to_string(),
    }
}
