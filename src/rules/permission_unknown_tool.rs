//! An agent's `permission:` names a tool that does not exist.
//!
//! ## What it checks
//! When `agents.<name>.permission` is a mapping, each key is a known tool, a
//! pattern with `*`, or a permission-only key (`external_directory`,
//! `doom_loop`).
//!
//! ## Why
//! The permission rules still decide whether a call is allowed, asked or
//! denied: a typo there leaves the default in force.
//!
//! ## Example
//! ```yaml
//! agents:
//!   support:
//!     permission:
//!       bsh: deny
//! ```
//!
//! ## Fix
//! Use the tool's real name.

use crate::catalog::PERMISSION_ONLY_KEYS;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::project::Project;
use crate::rules::Rule;
use crate::rules::names::did_you_mean;

pub static RULE: Rule =
    Rule::new("permission-unknown-tool", Severity::Warning, include_str!("permission_unknown_tool.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    // The list of every name is made for a finding's help only: it holds every declaration's name (20,000 at the
    // 20k bench, 0.6 MB at the run's peak), and a lookup in it was a linear search per key.
    let known = std::cell::OnceCell::new();
    for agent in &project.agents {
        for (key, span) in &agent.permission {
            if key.contains('*') || project.is_known_tool(key) || PERMISSION_ONLY_KEYS.contains(&key.as_str()) {
                continue;
            }
            let known = known.get_or_init(|| {
                let mut known = project.known_tool_names();
                known.extend(PERMISSION_ONLY_KEYS);
                known
            });
            let message = format!(
                "`permission` of agent `{}` names `{key}`, which is not a known tool: the default permission stays in force",
                agent.name
            );
            let help = did_you_mean(key, known.iter().copied()).unwrap_or_else(|| "check the tool's name".into());
            out.push(Diagnostic::new(RULE.id, RULE.severity, Label::new(agent.file, *span), message).help(help));
        }
    }
}
