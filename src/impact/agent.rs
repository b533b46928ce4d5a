//! What changed for one agent: per harness, the tools it gained and lost and what it reaches through `task`, and
//! the secrets it holds, each row with its reason ([`super::reasons`]) and its cause ([`super::causes`]).

use super::causes::{Causes, SecretWhy};
use super::reasons::Context;
use super::{AgentChange, AgentImpact, HarnessImpact, Indexed, Secret, TaskReach};
use crate::access::{self, AgentAccess};
use crate::manifest::agents::AgentDecl;
use std::collections::HashSet;

/// What changed for `agent`, or `None` when nothing did.
pub(super) fn agent_impact<'a>(base: &Indexed<'a>, head: &Indexed<'a>, agent: &str) -> Option<AgentImpact> {
    let (base_decl, head_decl) = (base.decls.get(agent).copied(), head.decls.get(agent).copied());
    let change = match (base_decl, head_decl) {
        (None, _) => AgentChange::Added,
        (_, None) => AgentChange::Removed,
        _ => AgentChange::Changed,
    };
    let mut causes = Causes::default();
    let mut harnesses = Vec::new();
    for harness in ["standard", "experimental"] {
        let (before, after) =
            (base.access.get(&(agent, harness)).copied(), head.access.get(&(agent, harness)).copied());
        let context = Context {
            base_universe: &base.universe,
            head_universe: &head.universe,
            base_decl,
            head_decl,
            base_invalid: before.is_some_and(|a| a.invalid),
            head_invalid: after.is_some_and(|a| a.invalid),
            harness,
            base_project: base.project,
            head_project: head.project,
        };
        let gained: Vec<_> = only_in(after, before, |a| &a.tools, |t| &t.name)
            .map(|t| context.gained(t, causes.add(context.gain_cause(&t.name, t.source))))
            .collect();
        let lost: Vec<_> = only_in(before, after, |a| &a.tools, |t| &t.name)
            .map(|t| context.lost(t, causes.add(context.loss_cause(&t.name, t.source))))
            .collect();
        // Reach through `task` that came or went with `task` itself has that change's cause; else the subagent's.
        let task_cause = |list: &[super::ToolChange]| list.iter().find(|t| t.name == "task").map(|t| t.cause);
        let (task_given, task_taken) = (task_cause(&gained), task_cause(&lost));
        let mut reach = |r: &access::Reached, gained: bool| {
            let cause = match (gained, task_given, task_taken) {
                (true, Some(cause), _) | (false, _, Some(cause)) => cause,
                _ => {
                    let via = [base.decls.get(r.via.as_str()).copied(), head.decls.get(r.via.as_str()).copied()];
                    causes.add(context.task_cause(&r.via, gained, via))
                }
            };
            TaskReach { name: r.name.clone(), source: r.source, via: r.via.clone(), cause }
        };
        let task_gained = only_in(after, before, |a| &a.through_task, |r| &r.name).map(|r| reach(r, true)).collect();
        let task_lost = only_in(before, after, |a| &a.through_task, |r| &r.name).map(|r| reach(r, false)).collect();
        let impact = HarnessImpact { harness, gained, lost, task_gained, task_lost };
        if !(impact.gained.is_empty()
            && impact.lost.is_empty()
            && impact.task_gained.is_empty()
            && impact.task_lost.is_empty())
        {
            harnesses.push(impact);
        }
    }
    let context = Context {
        base_universe: &base.universe,
        head_universe: &head.universe,
        base_decl,
        head_decl,
        base_invalid: false,
        head_invalid: false,
        harness: "standard",
        base_project: base.project,
        head_project: head.project,
    };
    let (granted, revoked) = secrets_diff(base, head, &context, &mut causes);
    if harnesses.is_empty() && granted.is_empty() && revoked.is_empty() && change == AgentChange::Changed {
        return None;
    }
    let mut causes = causes.list;
    // Each cause lists what it gives and takes once, across the harnesses.
    let mut seen = HashSet::new();
    for harness in &harnesses {
        let gains = harness
            .gained
            .iter()
            .map(|t| (t.cause, &t.name))
            .chain(harness.task_gained.iter().map(|t| (t.cause, &t.name)));
        for (cause, name) in gains {
            if seen.insert((true, cause, name.as_str())) {
                causes[cause].gains.push(name.clone());
            }
        }
        let losses =
            harness.lost.iter().map(|t| (t.cause, &t.name)).chain(harness.task_lost.iter().map(|t| (t.cause, &t.name)));
        for (cause, name) in losses {
            if seen.insert((false, cause, name.as_str())) {
                causes[cause].loses.push(name.clone());
            }
        }
    }
    for secret in &granted {
        causes[secret.cause].secrets_granted.push(secret.name.clone());
    }
    for secret in &revoked {
        causes[secret.cause].secrets_revoked.push(secret.name.clone());
    }
    let agent = agent.to_string();
    Some(AgentImpact { agent, change, secrets_granted: granted, secrets_revoked: revoked, harnesses, causes })
}

/// What the JSON report holds per row besides its name: the `why` (up to a few names of the platform), the
/// `source`, the cause's index, the name once more in its cause's list, and the layout.
const ROW_BYTES: usize = 200;

/// How many rows `agent`'s impact holds, and about how many bytes of JSON (see [`ROW_BYTES`]): counted without
/// building a row, so that a change too large to report is refused before it costs its size.
pub(super) fn weigh(base: &Indexed, head: &Indexed, agent: &str) -> (usize, usize) {
    let (base_decl, head_decl) = (base.decls.get(agent).copied(), head.decls.get(agent).copied());
    let (mut rows, mut bytes) = (0, 0);
    let mut add = |name: &str| {
        rows += 1;
        bytes += ROW_BYTES + 2 * name.len();
    };
    for harness in ["standard", "experimental"] {
        let (before, after) =
            (base.access.get(&(agent, harness)).copied(), head.access.get(&(agent, harness)).copied());
        only_in(after, before, |a| &a.tools, |t| &t.name).for_each(|t| add(&t.name));
        only_in(before, after, |a| &a.tools, |t| &t.name).for_each(|t| add(&t.name));
        only_in(after, before, |a| &a.through_task, |r| &r.name).for_each(|r| add(&r.name));
        only_in(before, after, |a| &a.through_task, |r| &r.name).for_each(|r| add(&r.name));
    }
    let ((before, _), (after, _)) = (base.secrets_of(base_decl), head.secrets_of(head_decl));
    after.symmetric_difference(&before).for_each(|name| add(name));
    (rows, bytes)
}

/// The items of `side`'s list (`list` of an agent's entry) whose name the `other` side's list lacks.
fn only_in<'a, T: 'a>(
    side: Option<&'a AgentAccess>,
    other: Option<&'a AgentAccess>,
    list: impl Fn(&'a AgentAccess) -> &'a Vec<T>,
    name: impl Fn(&'a T) -> &'a String,
) -> impl Iterator<Item = &'a T> {
    let others: HashSet<&String> = other.map(&list).into_iter().flatten().map(&name).collect();
    side.map(list).into_iter().flatten().filter(move |item| !others.contains(name(item)))
}

fn secrets_diff(base: &Indexed, head: &Indexed, context: &Context, causes: &mut Causes) -> (Vec<Secret>, Vec<Secret>) {
    let (base_decl, head_decl): (Option<&AgentDecl>, Option<&AgentDecl>) = (context.base_decl, context.head_decl);
    let (before, _) = base.secrets_of(base_decl);
    let (after, listed_after) = head.secrets_of(head_decl);
    let why = |listed: bool| {
        if listed { "in its `secrets:` list" } else { "no `secrets:` list: every secret of the project" }.to_string()
    };
    let kind = |listed: bool| if listed { SecretWhy::Listed } else { SecretWhy::EveryListed };
    let mut granted = Vec::new();
    for name in after.difference(&before) {
        let cause = causes.add(context.secret_cause(kind(listed_after)));
        granted.push(Secret { name: name.to_string(), why: why(listed_after), cause });
    }
    let mut revoked = Vec::new();
    for name in before.difference(&after) {
        let (why, kind) = match (head_decl, listed_after, head.secrets.contains(name)) {
            (None, ..) => ("agent removed".to_string(), SecretWhy::Listed),
            (_, true, _) => ("not in its `secrets:` list".to_string(), SecretWhy::Listed),
            (_, false, false) => ("no agent lists it any more".to_string(), SecretWhy::NoOneLists),
            (_, false, true) => (why(false), SecretWhy::EveryListed),
        };
        let cause = causes.add(context.secret_cause(kind));
        revoked.push(Secret { name: name.to_string(), why, cause });
    }
    (granted, revoked)
}
