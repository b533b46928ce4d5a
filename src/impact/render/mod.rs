//! The impact's formats: JSON (its schema in docs/impact.md), a terminal's text ([`human`]) and Markdown for a
//! pull-request comment ([`markdown`]). Both text formats show each agent the same way ([`group`]): its net
//! change on one line, then one line per cause with its `file:line`. Every name and path is the repository's: in
//! text each is escaped; in Markdown each is also a code span, so that nothing in it can become Markdown.

mod group;
mod human;
mod markdown;

pub use human::human;
pub use markdown::{MARKDOWN_BUDGET, markdown};

use super::{AgentChange, AgentImpact, Impact, Manifest, ProjectImpact, Tool};
use crate::access::Source;

/// The most any format writes (the change's rows are weighed before, `super::MAX_REPORT_BYTES`).
pub const MAX_OUTPUT_BYTES: usize = 32 << 20;

/// Is there nothing to show: every project compared, and nothing changed?
fn unchanged(impact: &Impact) -> bool {
    impact.projects.iter().all(ProjectImpact::is_empty)
}

/// Are there several projects, or one below the repository's root: each gets its heading.
fn several(impact: &Impact) -> bool {
    impact.projects.len() > 1 || impact.projects.iter().any(|p| p.project != ".")
}

pub fn json(impact: &Impact) -> String {
    crate::source::escape::json_document(impact)
}

/// "3 agents gain tools, 1 loses; 1 agent added; 1 secret granted", or that nothing changed.
pub fn summary(impact: &Impact) -> String {
    let projects = &impact.projects;
    let count = |f: &dyn Fn(&AgentImpact) -> bool| -> usize {
        projects.iter().flat_map(|p| &p.agents).filter(|a| a.change == AgentChange::Changed && f(a)).count()
    };
    let gain = count(&|a| a.harnesses.iter().any(|h| h.gains() > 0));
    let lose = count(&|a| a.harnesses.iter().any(|h| h.losses() > 0));
    let sum = |f: &dyn Fn(&ProjectImpact) -> usize| -> usize { projects.iter().map(f).sum() };
    let mut groups: Vec<String> = Vec::new();
    let agents = |n: usize| if n == 1 { "1 agent".to_string() } else { format!("{n} agents") };
    match (gain, lose) {
        (0, 0) => {}
        (0, lose) => groups.push(format!("{} {} tools", agents(lose), if lose == 1 { "loses" } else { "lose" })),
        (gain, 0) => groups.push(format!("{} {} tools", agents(gain), if gain == 1 { "gains" } else { "gain" })),
        (gain, lose) => groups.push(format!(
            "{} {} tools, {lose} {}",
            agents(gain),
            if gain == 1 { "gains" } else { "gain" },
            if lose == 1 { "loses" } else { "lose" }
        )),
    }
    let pairs = [
        (sum(&|p| p.agents_added.len()), sum(&|p| p.agents_removed.len()), "agent", "added", "removed"),
        (sum(&|p| p.tools_added.len()), sum(&|p| p.tools_removed.len()), "tool", "added", "removed"),
        (
            sum(&|p| p.agents.iter().map(|a| a.secrets_granted.len()).sum()),
            sum(&|p| p.agents.iter().map(|a| a.secrets_revoked.len()).sum()),
            "secret",
            "granted",
            "revoked",
        ),
    ];
    for (one, other, noun, first, second) in pairs {
        let plural = |n: usize| if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") };
        match (one, other) {
            (0, 0) => {}
            (n, 0) => groups.push(format!("{} {first}", plural(n))),
            (0, n) => groups.push(format!("{} {second}", plural(n))),
            (n, m) => groups.push(format!("{} {first}, {m} {second}", plural(n))),
        }
    }
    let modules = sum(&|p| p.modules_changed.len());
    if modules > 0 {
        groups.push(format!("{modules} tool {} changed", if modules == 1 { "module" } else { "modules" }));
    }
    let unreadable = projects.iter().filter(|p| unreadable(p).is_some()).count();
    if unreadable > 0 {
        groups.push(format!("{unreadable} {} not compared", if unreadable == 1 { "project" } else { "projects" }));
    }
    if groups.is_empty() {
        return "No change to what any agent can call.".to_string();
    }
    groups.join("; ")
}

/// Why a project was not compared.
fn unreadable(project: &ProjectImpact) -> Option<&'static str> {
    match (project.base_manifest, project.head_manifest) {
        (Manifest::Unreadable, _) => Some("the base's manifest cannot be read"),
        (_, Manifest::Unreadable) => Some("the manifest cannot be read (`beeuni-lint check` says why)"),
        _ => None,
    }
}

fn source(source: Source) -> &'static str {
    match source {
        Source::Harness => "harness",
        Source::Beeuni => "beeuni",
        Source::Project => "project",
    }
}

/// Lines about the project's tools and agents as a whole, each a list of repository names run through `name`, at
/// most `most` of them (then how many more); a changed module's place through `place` (path, line, link).
fn project_lines(
    project: &ProjectImpact,
    name: &dyn Fn(&str) -> String,
    place: &dyn Fn(&str, usize, Option<&str>) -> String,
    most: usize,
) -> Vec<String> {
    let listed = |shown: Vec<String>, all: usize| {
        let more = all.saturating_sub(most);
        let shown = shown.join(", ");
        if more > 0 { format!("{shown} and {more} more") } else { shown }
    };
    let names = |list: &[String]| listed(list.iter().take(most).map(|n| name(n)).collect(), list.len());
    let mut out = Vec::new();
    let tools = |list: &[Tool]| {
        let shown = list.iter().take(most).map(|t| format!("{} ({})", name(&t.name), source(t.source))).collect();
        listed(shown, list.len())
    };
    if let Some(why) = unreadable(project) {
        out.push(format!("not compared: {why}"));
    }
    if project.base_manifest == Manifest::Missing {
        out.push("new project: no manifest at the base".to_string());
    }
    for (label, list) in [("agents added", &project.agents_added), ("agents removed", &project.agents_removed)] {
        if !list.is_empty() {
            out.push(format!("{label}: {}", names(list)));
        }
    }
    for (label, list) in [("tools added", &project.tools_added), ("tools removed", &project.tools_removed)] {
        if !list.is_empty() {
            out.push(format!("{label}: {}", tools(list)));
        }
    }
    for module in &project.modules_changed {
        let mut parts = Vec::new();
        if module.description_changed {
            parts.push("description changed".to_string());
        }
        if module.parameters_changed {
            parts.push("parameters changed".to_string());
        }
        for (label, list) in [
            ("properties added", &module.properties_added),
            ("properties removed", &module.properties_removed),
            ("required added", &module.required_added),
            ("required removed", &module.required_removed),
        ] {
            if !list.is_empty() {
                parts.push(format!("{label} {}", names(list)));
            }
        }
        let at = place(&module.module, module.line, module.url.as_deref());
        out.push(format!("tool {} ({at}): {}", name(&module.name), parts.join("; ")));
    }
    out
}
