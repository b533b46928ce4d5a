//! `[policy]`: the gains of capability a change may make only with a reviewer's approval (docs/policy.md). Each
//! `guard` names agents by a glob (and, optionally, one harness), and the tools (by name or group) and secrets (by
//! name or glob) an agent so named may not gain unapproved. Every mistake is located, a misspelt key or name with
//! the one it is near.

use super::Errors;
use super::limits::{MAX_GLOB_BYTES, MAX_GUARDS, MAX_LIST};
use crate::catalog::{BEEUNI_TOOLS, HARNESS_TIER1, HARNESS_TIER2, PTY_TOOLS, SHARED_WRITE_GROUP};
use crate::source::Span;
use crate::suggest;
use globset::{Glob, GlobMatcher, GlobSet, GlobSetBuilder};
use std::collections::HashMap;
use toml::Spanned;
use toml::de::DeValue;

const POLICY_KEYS: [&str; 1] = ["guard"];
const GUARD_KEYS: [&str; 4] = ["agents", "harness", "tools", "secrets"];
const HARNESSES: [&str; 2] = ["standard", "experimental"];
/// The names of a group: `all` (every tool), `bash` (with the terminal's `pty_*`), `write` (the shared write group).
pub const GROUPS: [&str; 3] = ["all", "bash", "write"];

/// The `[policy]` table: its guards, in the file's order.
#[derive(Debug, Default, Clone)]
pub struct Policy {
    pub guards: Vec<Guard>,
    /// Every guard's secret globs as one set, built (and so known to build) when the config is read: a set that
    /// failed to build would guard no secret.
    secrets: GlobSet,
    /// The guard of each glob of `secrets`.
    secret_guard: Vec<usize>,
}

/// One entry of `guard`.
#[derive(Debug, Clone)]
pub struct Guard {
    /// The `agents` glob as written (`*` when left out).
    pub agents: String,
    matcher: GlobMatcher,
    pub harness: Option<String>,
    /// The tool names and groups as written, sorted and each once.
    pub tools: Vec<String>,
    /// The secret names and globs as written, sorted and each once.
    pub secrets: Vec<String>,
    /// The entry's place in the config.
    pub span: Span,
}

impl Guard {
    /// Two guards that guard the same: a base guard with no such twin in the head was weakened or removed.
    pub fn same_as(&self, other: &Guard) -> bool {
        (&self.agents, &self.harness, &self.tools, &self.secrets)
            == (&other.agents, &other.harness, &other.tools, &other.secrets)
    }

    pub fn covers_agent(&self, agent: &str, harness: Option<&str>) -> bool {
        self.matcher.is_match(agent)
            && (self.harness.is_none() || harness.is_none() || self.harness.as_deref() == harness)
    }
}

/// The guards of several policies (the base's and the head's), numbered in order, looked up by what is gained: a
/// change's gains may be many (up to `access::MAX_ROWS`), so each is one hash lookup (a tool) or one match of each
/// policy's glob set (a secret), never a walk of every guard.
pub struct Index<'a> {
    by_tool: HashMap<&'a str, Vec<usize>>,
    /// Each policy with the number of its first guard.
    policies: Vec<(&'a Policy, usize)>,
}

impl<'a> Index<'a> {
    pub fn new(policies: &[&'a Policy]) -> Index<'a> {
        let mut by_tool: HashMap<&str, Vec<usize>> = HashMap::new();
        let (mut numbered, mut first) = (Vec::new(), 0);
        for policy in policies {
            for (at, guard) in policy.guards.iter().enumerate() {
                for tool in &guard.tools {
                    by_tool.entry(tool.as_str()).or_default().push(first + at);
                }
            }
            numbered.push((*policy, first));
            first += policy.guards.len();
        }
        Index { by_tool, policies: numbered }
    }

    /// The guards whose `tools` name `tool` or a group that holds it (`bash` its `pty_*`, `write` the shared write
    /// group, `all` every tool), in the guards' order.
    pub fn tool_guards(&self, tool: &str) -> Vec<usize> {
        let mut keys = vec![tool, "all"];
        if PTY_TOOLS.contains(&tool) {
            keys.push("bash");
        }
        if SHARED_WRITE_GROUP.contains(&tool) {
            keys.push("write");
        }
        let mut found: Vec<usize> = keys.iter().filter_map(|key| self.by_tool.get(*key)).flatten().copied().collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The guards whose `secrets` globs match `secret`, in the guards' order.
    pub fn secret_guards(&self, secret: &str) -> Vec<usize> {
        let mut found: Vec<usize> = self
            .policies
            .iter()
            .flat_map(|(policy, first)| {
                policy.secrets.matches(secret).into_iter().map(move |at| first + policy.secret_guard[at])
            })
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }
}

/// Every name a guard's `tools` is judged against: the groups and the platform's tools (a project's own tool is
/// accepted when it is not a near miss of one of these: the config is read before the manifest).
fn known_tools() -> Vec<&'static str> {
    GROUPS.iter().chain(HARNESS_TIER1).chain(HARNESS_TIER2).chain(BEEUNI_TOOLS.iter()).copied().collect()
}

pub(super) fn policy(value: &Spanned<DeValue>, harness_tools: &[String], errors: &mut Errors) -> Policy {
    let mut policy = Policy::default();
    let DeValue::Table(table) = value.get_ref() else {
        errors.add(value.span().start, "`policy` must be a table (`[policy]`)".to_string());
        return policy;
    };
    for (key, value) in table.iter() {
        match key.get_ref().as_ref() {
            "guard" => {
                policy.guards = guards(value, harness_tools, errors);
                let mut builder = GlobSetBuilder::new();
                for (at, guard) in policy.guards.iter().enumerate() {
                    // Each was parsed when its guard was read.
                    for glob in guard.secrets.iter().filter_map(|secret| Glob::new(secret).ok()) {
                        builder.add(glob);
                        policy.secret_guard.push(at);
                    }
                }
                match builder.build() {
                    Ok(set) => policy.secrets = set,
                    Err(e) => errors.add(value.span().start, format!("the secret globs of `guard` do not build: {e}")),
                }
            }
            other => {
                errors.unknown(key.span().start, &format!("unknown key `{other}` in [policy]"), other, &POLICY_KEYS)
            }
        }
    }
    policy
}

fn guards(value: &Spanned<DeValue>, harness_tools: &[String], errors: &mut Errors) -> Vec<Guard> {
    let DeValue::Array(items) = value.get_ref() else {
        errors.add(
            value.span().start,
            "`guard` must be a list of tables (`guard = [{ agents = \"*\", tools = [\"bash\"] }]`)".into(),
        );
        return Vec::new();
    };
    if items.len() > MAX_GUARDS {
        errors.add(
            value.span().start,
            format!("`guard` holds {} entries, more than the {MAX_GUARDS} a policy may hold", items.len()),
        );
        return Vec::new();
    }
    let guards: Vec<Guard> = items.iter().filter_map(|item| guard(item, harness_tools, errors)).collect();
    // All secret globs make one glob set, whose automaton grows with them: bounded as one list is.
    let globs: usize = guards.iter().map(|g| g.secrets.len()).sum();
    if globs > MAX_LIST {
        errors.add(
            value.span().start,
            format!("the guards hold {globs} secret globs, more than the {MAX_LIST} a policy may hold"),
        );
    }
    guards
}

fn guard(item: &Spanned<DeValue>, harness_tools: &[String], errors: &mut Errors) -> Option<Guard> {
    let at = item.span().start;
    let DeValue::Table(table) = item.get_ref() else {
        errors.add(at, "each `guard` entry must be a table (`{ agents = \"*\", tools = [\"bash\"] }`)".into());
        return None;
    };
    let (mut agents, mut harness, mut tools, mut secrets) = (None, None, Vec::new(), Vec::new());
    let mut ok = true;
    for (key, value) in table.iter() {
        let key_at = key.span().start;
        match key.get_ref().as_ref() {
            "agents" => agents = string(value, "agents", errors).map(|s| (s, value.span().start)),
            "harness" => match string(value, "harness", errors) {
                Some(name) if HARNESSES.contains(&name.as_str()) => harness = Some(name),
                Some(name) => {
                    errors.unknown(value.span().start, &format!("`{name}` is not a harness"), &name, &HARNESSES);
                    ok = false;
                }
                None => ok = false,
            },
            "tools" => tools = names(value, "tools", errors),
            "secrets" => secrets = names(value, "secrets", errors),
            other => {
                errors.unknown(key_at, &format!("unknown key `{other}` in a `guard` entry"), other, &GUARD_KEYS);
                ok = false;
            }
        }
    }
    if tools.is_empty() && secrets.is_empty() {
        errors.add(at, "this `guard` entry guards nothing: give it `tools` or `secrets`".into());
        return None;
    }
    let known = known_tools();
    for (name, span) in &tools {
        let declared = harness_tools.iter().any(|t| t == name);
        if known.contains(&name.as_str()) || declared {
            continue;
        }
        // A project tool's name is not known here; a near miss of a platform's name or a group is a typo.
        if let Some(hint) = suggest::did_you_mean(name, known.iter().copied()) {
            errors.add(span.start(), format!("`{name}` is not a tool or group of tools: {hint}"));
            ok = false;
        }
    }
    let (agents, agents_at) = agents.unwrap_or_else(|| ("*".to_string(), at));
    let matcher = glob(&agents, agents_at, errors).map(|glob| glob.compile_matcher());
    let globs_ok = secrets.iter().all(|(secret, span)| glob(secret, span.start(), errors).is_some());
    let (Some(matcher), true, true) = (matcher, globs_ok, ok) else {
        return None;
    };
    let sorted = |list: Vec<(String, Span)>| {
        let mut names: Vec<String> = list.into_iter().map(|(name, _)| name).collect();
        names.sort();
        names.dedup();
        names
    };
    let (tools, secrets) = (sorted(tools), sorted(secrets));
    let span = Span::new(item.span().start, item.span().end);
    Some(Guard { agents, matcher, harness, tools, secrets, span })
}

fn glob(text: &str, at: usize, errors: &mut Errors) -> Option<Glob> {
    if text.len() > MAX_GLOB_BYTES {
        errors.add(at, format!("this glob is {} bytes long, more than the {MAX_GLOB_BYTES} a glob may be", text.len()));
        return None;
    }
    match Glob::new(text) {
        Ok(glob) => Some(glob),
        Err(e) => {
            errors.add(at, format!("`{text}` is not a glob: {}", e.kind()));
            None
        }
    }
}

fn string(value: &Spanned<DeValue>, key: &str, errors: &mut Errors) -> Option<String> {
    match value.get_ref() {
        DeValue::String(s) => Some(s.to_string()),
        _ => {
            errors.add(value.span().start, format!("`{key}` must be a string"));
            None
        }
    }
}

fn names(value: &Spanned<DeValue>, key: &str, errors: &mut Errors) -> Vec<(String, Span)> {
    super::values::spanned_strings(value, key, errors)
}

#[cfg(test)]
mod tests {
    use crate::config::Config;

    #[test]
    fn reads_guards_with_groups_globs_and_a_harness() {
        let text = "[policy]\nguard = [\n  { agents = \"*\", tools = [\"write\", \"bash\"] },\n  { agents = \"support*\", harness = \"standard\", secrets = [\"STRIPE_*\"] },\n]\n";
        let config = Config::parse(text, "beeuni-lint.toml").unwrap();
        let [all, support] = config.policy.guards.as_slice() else { panic!("{:?}", config.policy) };
        assert_eq!(all.tools, ["bash", "write"]);
        let index = super::Index::new(&[&config.policy]);
        assert_eq!((index.tool_guards("pty_kill"), index.tool_guards("apply_patch")), (vec![0], vec![0]));
        assert!(index.tool_guards("read").is_empty());
        assert_eq!((index.secret_guards("STRIPE_KEY"), index.secret_guards("GITHUB_TOKEN")), (vec![1], vec![]));
        assert!(support.covers_agent("support-eu", Some("standard")));
        assert!(!support.covers_agent("support-eu", Some("experimental")) && !support.covers_agent("ops", None));
        assert!(!all.same_as(support) && all.same_as(&all.clone()));
    }

    #[test]
    fn every_mistake_in_the_policy_is_located_with_the_name_it_is_near() {
        let text = "[policy]\nguards = []\nguard = [\n  { agent = \"*\", tools = [\"bsh\"] },\n  { agents = \"x\", harness = \"standart\", tools = [\"lookup_order\"] },\n  { agents = \"[\", secrets = [\"A\"] },\n  { agents = \"y\" },\n  \"bash\",\n]\n";
        let err = Config::parse(text, "beeuni-lint.toml").unwrap_err();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(
            lines,
            [
                "beeuni-lint.toml:2:1: unknown key `guards` in [policy]: did you mean `guard`?",
                "beeuni-lint.toml:4:5: unknown key `agent` in a `guard` entry: did you mean `agents`?",
                "beeuni-lint.toml:4:27: `bsh` is not a tool or group of tools: did you mean `bash`?",
                "beeuni-lint.toml:5:29: `standart` is not a harness: did you mean `standard`?",
                "beeuni-lint.toml:6:14: `[` is not a glob: unclosed character class; missing ']'",
                "beeuni-lint.toml:7:3: this `guard` entry guards nothing: give it `tools` or `secrets`",
                "beeuni-lint.toml:8:3: each `guard` entry must be a table (`{ agents = \"*\", tools = [\"bash\"] }`)",
            ]
        );
        let many = format!("[policy]\nguard = [{}]\n", vec!["{ tools = [\"bash\"] }"; 101].join(", "));
        let err = Config::parse(&many, "beeuni-lint.toml").unwrap_err();
        assert_eq!(err, "beeuni-lint.toml:2:9: `guard` holds 101 entries, more than the 100 a policy may hold");
        let err = Config::parse("[rules]\npolicy-gain = \"off\"\n[polcy]\n", "beeuni-lint.toml").unwrap_err();
        assert_eq!(err, "beeuni-lint.toml:3:2: unknown key `polcy`: did you mean `policy`?");
    }
}
