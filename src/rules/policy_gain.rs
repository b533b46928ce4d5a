//! Reported by the policy stage (`--policy`, see docs/policy.md), which compares both sides' full models: a rule
//! reads one model, and a guarded gain is a difference of two.

crate::rules::declare_rule! {
    /// A change gives an agent a tool or secret the `[policy]` of `beeuni-lint.toml` guards, or weakens the policy.
    ///
    /// ## What it checks
    /// Only with `--policy` beside `--base REV` (on `check` and `impact`). Both sides of the change are read
    /// as `agents` reads them; each tool an agent can newly call (on either harness, or newly reached through
    /// `task`, or held by a new agent) and each secret it newly holds is judged against every `guard` of the
    /// base's policy and the head's (both: a change cannot switch the policy off and use the gain in one step).
    /// A guard matches when its `agents` glob (and `harness`, when given) matches and its `tools` name the tool
    /// (`bash` covers the `pty_*` tools, `write` the shared write group, `all` every tool) or its `secrets`
    /// globs match the secret. Each cause of guarded gains is one finding, at the line of the manifest that made
    /// them. A guard of the base's policy that the head no longer holds identically is a finding too, at the
    /// head's `[policy]`. The rule's level is read from the base's config (or the head's, when stricter), and
    /// ignore comments do not silence it. With `--approved` each finding is kept, marked approved, at `info`.
    ///
    /// ## Why
    /// A team that runs agents on customers' data wants no change to give the `support` agent `bash`, or any
    /// agent the secret `STRIPE_KEY`, unless a reviewer said yes: the check makes that a required status, as
    /// CODEOWNERS does for files.
    ///
    /// ## Example
    /// ```yaml
    /// # beeuni-lint.toml: [policy] guard = [{ agents = "support*", tools = ["bash"] }]
    /// agents:
    ///   support:
    ///     tools: [read, bash]   # policy-gain: `support` gains `bash`, `pty_spawn`, …
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools: [read]         # no guarded gain; or keep `bash` and have a reviewer approve it
    /// ```
    ///
    /// ## Fix
    /// Drop the gain, or have it approved: the Action's approval label, or `--approved` in another CI system.
    id: "policy-gain",
    severity: Error,
    category: ChangeAware,
    fix: None,
}
