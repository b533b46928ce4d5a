//! `--policy`: the impact judged against `[policy]` (docs/policy.md). Each gain an agent makes (a tool on either
//! harness, a tool newly reached through `task`, a secret) that a `guard` names is a guarded gain, one finding of
//! `policy-gain` per agent and cause, at the cause's line. The guards are the base's and the head's together (the
//! base's, so that a change cannot switch the policy off and use the gain in one step; the head's, where they are
//! stricter), and a guard of the base the head no longer holds identically is a finding of its own. The rule's
//! level is the base's (or the head's, when stricter): a change that turns the rule off is judged by the config it
//! changes. Losses never count.

mod base;
pub mod check;
pub mod render;

use super::{Manifest, ProjectImpact};
use crate::config::policy::{Guard, Index, Policy};
use crate::config::{Config, Level};
use crate::diagnostic::Severity;
use crate::repo::checkout::{Checkout, Side};
use crate::rules::policy_gain;
use crate::source::SourceFile;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What `--policy` found in one project.
#[derive(Serialize, Debug, Default)]
pub struct Verdict {
    /// The rule's level the change is judged at (`off`: nothing is reported).
    pub level: &'static str,
    pub findings: Vec<Finding>,
    /// The head's config as read (its path from the repository's root, its text): where a weakened guard is shown.
    #[serde(skip)]
    pub config: Option<(String, String)>,
}

/// One guarded gain's cause (or one weakened guard).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// `null` for a guard the change weakens.
    pub agent: Option<String>,
    pub tools: Vec<String>,
    pub secrets: Vec<String>,
    /// The cause's index in the agent's `causes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<usize>,
    pub message: String,
    /// Where the finding is shown: from the repository's root.
    pub path: String,
    pub line: usize,
    pub column: usize,
    /// The guard that matched: its config and line (`beeuni-lint.toml:3`).
    pub guard: String,
    /// `--approved`: listed, never a failure.
    pub approved: bool,
}

impl Verdict {
    /// Does it fail the run: a finding not approved at a level that is on?
    pub fn fails(&self) -> bool {
        self.level != "off" && self.findings.iter().any(|f| !f.approved)
    }
}

/// A guard with where it is written.
struct Placed<'a> {
    guard: &'a Guard,
    at: String,
}

/// Where a finding without a line of the manifest is shown: the head's config (or the manifest) at its start.
pub struct Fallback {
    pub path: String,
    pub line: usize,
}

/// Judges `impact` by the guards of the base's config (read from `checkout` at `base`) and the head's `config`.
/// `Err`: the base's config cannot be read (the run cannot be judged).
pub fn judge(
    impact: &ProjectImpact,
    checkout: &Checkout,
    base: Side,
    config: &Config,
    explicit_config: bool,
    approved: bool,
    manifest: &str,
) -> Result<Verdict, String> {
    // `--config FILE` names the policy the CI trusts: the same file judges both sides.
    let base_config = if explicit_config { None } else { base::config(checkout, base)? };
    let level = stricter(level_of(base_config.as_ref().unwrap_or(config)), level_of(config));
    let text = config.file.as_ref().map(|f| (f.shown.to_string(), f.lines().text.to_string()));
    let mut verdict = Verdict { level: level_name(level), findings: Vec::new(), config: text };
    if level == Level::Off {
        return Ok(verdict);
    }
    let head_guards = placed_guards(config);
    let base_guards = base_config.as_ref().map(placed_guards).unwrap_or_default();
    let fallback = match &config.file {
        Some(file) => Fallback { path: file.shown.to_string(), line: policy_line(file) },
        None => Fallback { path: manifest.to_string(), line: 1 },
    };
    for weakened in base_guards.iter().filter(|b| !head_guards.iter().any(|h| h.guard.same_as(b.guard))) {
        verdict.findings.push(Finding {
            agent: None,
            tools: weakened.guard.tools.clone(),
            secrets: weakened.guard.secrets.clone(),
            cause: None,
            message: format!(
                "this change weakens the policy: the base's guard at `{}` (agents `{}`) is gone or changed; a guard is \
                 judged by the base's policy until the change merges",
                weakened.at, weakened.guard.agents
            ),
            path: fallback.path.clone(),
            line: fallback.line,
            column: 1,
            guard: weakened.at.clone(),
            approved,
        });
    }
    // Numbered as the index numbers them: the base's guards, then the head's.
    let guards: Vec<&Placed> = base_guards.iter().chain(&head_guards).collect();
    // A base whose manifest cannot be read was not compared: what the head gives is unknown, never a pass.
    let unjudged = impact.base_manifest == Manifest::Unreadable && impact.head_manifest == Manifest::Read;
    if let Some(first) = guards.first().filter(|_| unjudged) {
        verdict.findings.push(Finding {
            agent: None,
            tools: Vec::new(),
            secrets: Vec::new(),
            cause: None,
            message: "the base's manifest cannot be read, so what this change gives each agent cannot be judged by \
                      the policy: every gain needs approval (or fix the base's manifest first)"
                .to_string(),
            path: manifest.to_string(),
            line: 1,
            column: 1,
            guard: first.at.clone(),
            approved,
        });
    }
    let policies: Vec<&Policy> = base_config.iter().chain(Some(config)).map(|c| &c.policy).collect();
    verdict.findings.extend(gains(impact, &guards, &Index::new(&policies), &fallback, approved));
    Ok(verdict)
}

fn placed_guards(config: &Config) -> Vec<Placed<'_>> {
    let path = config.file.as_ref().map_or("beeuni-lint.toml", |f| f.shown.as_str());
    let line = |at: usize| config.file.as_ref().map_or(1, |f| f.position(at).line);
    config
        .policy
        .guards
        .iter()
        .map(|guard| Placed { guard, at: format!("{path}:{}", line(guard.span.start())) })
        .collect()
}

/// The line of `[policy]` in a config (1 when it has none).
fn policy_line(file: &SourceFile) -> usize {
    file.lines().text.lines().position(|line| line.trim_start().starts_with("[policy")).map_or(1, |at| at + 1)
}

/// The guarded gains, one finding per agent and cause, in the impact's order.
fn gains(
    impact: &ProjectImpact,
    guards: &[&Placed],
    index: &Index,
    fallback: &Fallback,
    approved: bool,
) -> Vec<Finding> {
    // The same secret is granted to many agents: its glob set is matched once.
    let mut secret_guards: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut out = Vec::new();
    for agent in &impact.agents {
        // cause -> (tools, secrets, the first guard that matched)
        let mut by_cause: BTreeMap<usize, (Vec<String>, Vec<String>, String)> = BTreeMap::new();
        // A tool gained on both harnesses is listed once.
        let mut seen: HashSet<(usize, &str)> = HashSet::new();
        let mut add = |cause: usize, name: &str, secret: bool, guard: &str| {
            let entry = by_cause.entry(cause).or_insert_with(|| (Vec::new(), Vec::new(), guard.to_string()));
            if secret { &mut entry.1 } else { &mut entry.0 }.push(name.to_string());
        };
        // Each agent's glob is matched once a harness, not once a gain (an agent may gain thousands of tools).
        let covers = |harness: Option<&str>| -> Vec<bool> {
            guards.iter().map(|g| g.guard.covers_agent(&agent.agent, harness)).collect()
        };
        for harness in &agent.harnesses {
            let covered = covers(Some(harness.harness));
            let lost: HashSet<&str> = harness.lost.iter().map(|t| t.name.as_str()).collect();
            let gained = harness.gained.iter().map(|t| (t.name.as_str(), t.cause));
            // Reached through `task` but callable before is moved, not gained.
            let reached = harness.task_gained.iter().filter(|t| !lost.contains(t.name.as_str()));
            for (name, cause) in gained.chain(reached.map(|t| (t.name.as_str(), t.cause))) {
                let matched = index.tool_guards(name).into_iter().find(|&at| covered[at]);
                if let Some(at) = matched.filter(|_| seen.insert((cause, name))) {
                    add(cause, name, false, &guards[at].at);
                }
            }
        }
        let covered = covers(None);
        for secret in &agent.secrets_granted {
            let found = secret_guards.entry(&secret.name).or_insert_with(|| index.secret_guards(&secret.name));
            if let Some(&at) = found.iter().find(|&&at| covered[at]) {
                add(secret.cause, &secret.name, true, &guards[at].at);
            }
        }
        for (cause_index, (tools, secrets, guard)) in by_cause {
            let cause = &agent.causes[cause_index];
            let (path, line, column) = match (&cause.path, cause.line) {
                (Some(path), Some(line)) => (path.clone(), line, cause.column.unwrap_or(1)),
                _ => (fallback.path.clone(), fallback.line, 1),
            };
            let message = message(&agent.agent, &tools, &secrets, &guard, &cause.change);
            out.push(Finding {
                agent: Some(agent.agent.clone()),
                tools,
                secrets,
                cause: Some(cause_index),
                message,
                path,
                line,
                column,
                guard,
                approved,
            });
        }
    }
    out
}

/// The most names a message lists; the rest are counted (the JSON lists them all).
const NAMES_SHOWN: usize = 8;

fn message(agent: &str, tools: &[String], secrets: &[String], guard: &str, cause: &str) -> String {
    let list = |names: &[String]| {
        let mut shown: Vec<String> = names.iter().take(NAMES_SHOWN).map(|n| format!("`{n}`")).collect();
        if names.len() > NAMES_SHOWN {
            shown.push(format!("and {} more", names.len() - NAMES_SHOWN));
        }
        shown.join(", ")
    };
    let gains = match (tools.is_empty(), secrets.is_empty()) {
        (false, true) => format!("gains {}", list(tools)),
        (true, false) => format!("gains the secrets {}", list(secrets)),
        _ => format!("gains {} and the secrets {}", list(tools), list(secrets)),
    };
    format!("agent `{agent}` {gains}, guarded by the policy (`{guard}`): {cause}")
}

fn level_of(config: &Config) -> Level {
    config.levels.get(policy_gain::RULE.id).copied().unwrap_or(Level::On(policy_gain::RULE.severity))
}

fn stricter(a: Level, b: Level) -> Level {
    match (a, b) {
        (Level::Off, other) | (other, Level::Off) => other,
        (Level::On(a), Level::On(b)) => Level::On(a.max(b)),
    }
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Off => "off",
        Level::On(severity) => severity.as_str(),
    }
}

/// The severity findings are reported at: an approved one is kept for the record at `info`.
pub fn severity(verdict: &Verdict, finding: &Finding) -> Severity {
    match (finding.approved, verdict.level) {
        (true, _) | (_, "info") => Severity::Info,
        (_, "warning") => Severity::Warning,
        _ => Severity::Error,
    }
}
