//! What the human and Markdown formats show of an agent: its net change first (what it can newly reach and no
//! longer reach, on either harness, directly or through `task`), then each cause with what it gives or takes. A
//! name changed on one harness only carries that harness; `pty_*` tools that change with `bash` are folded under it.

use crate::catalog::PTY_TOOLS;
use crate::impact::{AgentImpact, Cause};
use std::collections::{HashMap, HashSet};

/// One name shown in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Item<'a> {
    pub name: &'a str,
    /// The one harness it changed on, when not both.
    pub only: Option<&'static str>,
    /// Reached (or no longer) by starting another agent with `task`.
    pub task: bool,
    /// `bash` standing for the `pty_*` tools too.
    pub with_pty: bool,
}

/// What a cause, or the agent as a whole, gives and takes.
#[derive(Debug, Default)]
pub(super) struct Changes<'a> {
    pub gains: Vec<Item<'a>>,
    pub losses: Vec<Item<'a>>,
    pub granted: Vec<&'a str>,
    pub revoked: Vec<&'a str>,
}

impl Changes<'_> {
    pub fn is_empty(&self) -> bool {
        self.gains.is_empty() && self.losses.is_empty() && self.granted.is_empty() && self.revoked.is_empty()
    }
}

/// Names in first-seen order, each with the harnesses it was met on (bit 0 standard, bit 1 experimental).
#[derive(Default)]
struct Seen<'a> {
    order: Vec<(&'a str, bool)>,
    harnesses: HashMap<(&'a str, bool), u8>,
}

impl<'a> Seen<'a> {
    fn add(&mut self, name: &'a str, task: bool, harness: &'static str) {
        let bit = if harness == "standard" { 1 } else { 2 };
        let slot = self.harnesses.entry((name, task)).or_insert_with(|| {
            self.order.push((name, task));
            0
        });
        *slot |= bit;
    }

    /// The items, `pty_*` folded under a `bash` of the same list (its own tools, or those reached through `task`).
    fn items(self) -> Vec<Item<'a>> {
        let bash = |task: bool| self.harnesses.contains_key(&("bash", task));
        let pty = |task: bool| self.order.iter().any(|&(name, t)| t == task && PTY_TOOLS.contains(&name));
        let items = self.order.iter().filter(|&&(name, task)| !(bash(task) && PTY_TOOLS.contains(&name)));
        items
            .map(|&(name, task)| {
                let only = match self.harnesses[&(name, task)] {
                    1 => Some("standard"),
                    2 => Some("experimental"),
                    _ => None,
                };
                Item { name, only, task, with_pty: name == "bash" && bash(task) && pty(task) }
            })
            .collect()
    }
}

/// The agent's causes, each with what it gives and takes.
pub(super) fn by_cause(agent: &AgentImpact) -> Vec<(&Cause, Changes<'_>)> {
    let mut gains: Vec<Seen> = agent.causes.iter().map(|_| Seen::default()).collect();
    let mut losses: Vec<Seen> = agent.causes.iter().map(|_| Seen::default()).collect();
    for harness in &agent.harnesses {
        let at = harness.harness;
        harness.gained.iter().for_each(|t| add(&mut gains, t.cause, &t.name, false, at));
        harness.task_gained.iter().for_each(|t| add(&mut gains, t.cause, &t.name, true, at));
        harness.lost.iter().for_each(|t| add(&mut losses, t.cause, &t.name, false, at));
        harness.task_lost.iter().for_each(|t| add(&mut losses, t.cause, &t.name, true, at));
    }
    let mut out: Vec<(&Cause, Changes)> = agent.causes.iter().map(|cause| (cause, Changes::default())).collect();
    for ((changes, gains), losses) in out.iter_mut().map(|(_, c)| c).zip(gains).zip(losses) {
        (changes.gains, changes.losses) = (gains.items(), losses.items());
    }
    for secret in &agent.secrets_granted {
        if let Some((_, changes)) = out.get_mut(secret.cause) {
            changes.granted.push(&secret.name);
        }
    }
    for secret in &agent.secrets_revoked {
        if let Some((_, changes)) = out.get_mut(secret.cause) {
            changes.revoked.push(&secret.name);
        }
    }
    out
}

fn add<'a>(seen: &mut [Seen<'a>], cause: usize, name: &'a str, task: bool, harness: &'static str) {
    if let Some(seen) = seen.get_mut(cause) {
        seen.add(name, task, harness);
    }
}

/// What the agent can newly reach and no longer reach: per harness, a tool it gained (itself or through `task`)
/// that it could not reach before, and the reverse; a tool that moved between its own list and `task` is in reach
/// on both sides and left out.
pub(super) fn net(agent: &AgentImpact) -> Changes<'_> {
    let (mut gains, mut losses) = (Seen::default(), Seen::default());
    for harness in &agent.harnesses {
        let gained: Vec<(&str, bool)> = (harness.gained.iter().map(|t| (t.name.as_str(), false)))
            .chain(harness.task_gained.iter().map(|t| (t.name.as_str(), true)))
            .collect();
        let lost: Vec<(&str, bool)> = (harness.lost.iter().map(|t| (t.name.as_str(), false)))
            .chain(harness.task_lost.iter().map(|t| (t.name.as_str(), true)))
            .collect();
        let gained_names: HashSet<&str> = gained.iter().map(|(name, _)| *name).collect();
        let lost_names: HashSet<&str> = lost.iter().map(|(name, _)| *name).collect();
        for &(name, task) in gained.iter().filter(|(name, _)| !lost_names.contains(name)) {
            gains.add(name, task, harness.harness);
        }
        for &(name, task) in lost.iter().filter(|(name, _)| !gained_names.contains(name)) {
            losses.add(name, task, harness.harness);
        }
    }
    Changes {
        gains: gains.items(),
        losses: losses.items(),
        granted: agent.secrets_granted.iter().map(|s| s.name.as_str()).collect(),
        revoked: agent.secrets_revoked.iter().map(|s| s.name.as_str()).collect(),
    }
}

/// `changes` as text: `+a, +bash (+pty_*), +c [standard], +8 more; −d; secrets +K, −L`, each name run through
/// `name`, at most `most` names a list (then how many more).
pub(super) fn list(changes: &Changes, name: &dyn Fn(&str) -> String, most: usize) -> String {
    let items = |sign: char, list: &[Item]| {
        let mut out: Vec<String> = list
            .iter()
            .take(most)
            .map(|item| {
                let mut text = format!("{sign}{}", name(item.name));
                if item.with_pty {
                    text.push_str(&format!(" ({sign}{})", name("pty_*")));
                }
                if item.task {
                    text.push_str(" through `task`");
                }
                if let Some(harness) = item.only {
                    text.push_str(&format!(" [{harness}]"));
                }
                text
            })
            .collect();
        if list.len() > most {
            out.push(format!("{sign}{} more", list.len() - most));
        }
        out.join(", ")
    };
    let secrets = |sign: char, list: &[&str]| {
        let mut out: Vec<String> = list.iter().take(most).map(|s| format!("{sign}{}", name(s))).collect();
        if list.len() > most {
            out.push(format!("{sign}{} more", list.len() - most));
        }
        out.join(", ")
    };
    let mut parts = Vec::new();
    if !changes.gains.is_empty() {
        parts.push(items('+', &changes.gains));
    }
    if !changes.losses.is_empty() {
        parts.push(items('−', &changes.losses));
    }
    if !(changes.granted.is_empty() && changes.revoked.is_empty()) {
        let both = [secrets('+', &changes.granted), secrets('−', &changes.revoked)];
        let shown: Vec<&String> = both.iter().filter(|s| !s.is_empty()).collect();
        let joined: Vec<&str> = shown.iter().map(|s| s.as_str()).collect();
        let noun = if changes.granted.len() + changes.revoked.len() == 1 { "secret" } else { "secrets" };
        parts.push(format!("{noun} {}", joined.join(", ")));
    }
    parts.join("; ")
}

/// The agent's first line, after its name: `new agent: …`, `removed: …`, or what it gains and loses.
pub(super) fn headline(agent: &AgentImpact, name: &dyn Fn(&str) -> String, most: usize) -> String {
    let net = net(agent);
    let what = if net.is_empty() {
        // Only tools it called itself and now reaches through `task` (see `HarnessImpact::losses`).
        "what it lost it still reaches through `task`".to_string()
    } else {
        list(&net, name, most)
    };
    match agent.change {
        crate::impact::AgentChange::Added => format!("new agent: {what}"),
        crate::impact::AgentChange::Removed => format!("removed: {what}"),
        crate::impact::AgentChange::Changed => what,
    }
}
