//! The platform's names, in one place: Beeuni tools, harness tools (with
//! their tiers and permission groups), harness packages, xcsh built-ins and tool folders.
//! Source: `docs/spec/rules.md §0` and the Beeuni "Tools" page.

/// The manifest's file name, at the project root.
pub const MANIFEST: &str = "beeuni.yaml";

/// The documented keys: at the top of a manifest file, in an agent, in an agent's `tools` mapping.
pub const TOP_KEYS: &[&str] = &["tools", "imports", "agents"];
pub const AGENT_KEYS: &[&str] = &["tools", "secrets", "connectors", "permission"];
pub const AGENT_TOOLS_KEYS: &[&str] = &["exclude"];

/// The hosted Beeuni tools, in the docs' canonical order.
pub const BEEUNI_TOOLS: [&str; 5] = ["web_search", "image_search", "scrape_webpage", "memory", "show"];

/// Always a harness tool: a project tool may not take one of these names.
pub const HARNESS_TIER1: &[&str] = &[
    "bash",
    "read",
    "write",
    "edit",
    "glob",
    "grep",
    "task",
    "question",
    "apply_patch",
    "webfetch",
    "websearch",
    "todowrite",
    "skill",
    "pty_spawn",
    "pty_write",
    "pty_read",
    "pty_list",
    "pty_kill",
];

/// Harness tools of some versions or behind flags.
pub const HARNESS_TIER2: &[&str] = &[
    "list",
    "patch",
    "multiedit",
    "todoread",
    "codesearch",
    "lsp",
    "lsp_diagnostics",
    "lsp_hover",
    "batch",
    "invalid",
    "plan_enter",
    "plan_exit",
    "reload_config",
    "execute",
];

/// On the standard harness these share one permission.
pub const SHARED_WRITE_GROUP: [&str; 3] = ["write", "edit", "apply_patch"];

/// The terminal plugin's tools, which follow `bash` on the standard harness.
pub const PTY_TOOLS: [&str; 5] = ["pty_spawn", "pty_write", "pty_read", "pty_list", "pty_kill"];

/// Tools whose hiding `task-escalation` watches.
pub fn is_sensitive(tool: &str) -> bool {
    matches!(tool, "bash" | "write" | "edit" | "apply_patch") || PTY_TOOLS.contains(&tool)
}

/// Keys under an agent's `permission:` that are not tools.
pub const PERMISSION_ONLY_KEYS: [&str; 2] = ["external_directory", "doom_loop"];

/// Packages a tool module never imports (and any subpath of them).
pub const HARNESS_PACKAGES: &[&str] = &[
    "@opencode-ai/plugin",
    "@opencode-ai/sdk",
    "opencode-ai",
    "@mariozechner/pi-coding-agent",
    "@mariozechner/pi-agent-core",
    "@oh-my-pi/pi-coding-agent",
    "@xcsh/pi-coding-agent",
    "@f5-sales-demo/xcsh",
];

/// Module extensions the platform loads.
pub const MODULE_EXTENSIONS: [&str; 6] = ["ts", "js", "mts", "mjs", "cts", "cjs"];

/// What Bun tries after an import specifier without its extension, in its order (its "Module Resolution" page):
/// `.tsx` and `.jsx` too, and not `.mts`/`.cts`. (It tries `.json` too: data, not a module beeuni-lint analyses.)
pub const EXTENSION_ORDER: [&str; 6] = ["tsx", "jsx", "ts", "mjs", "js", "cjs"];

/// The argument names the web UI's views read, for tools that replace `show` or `memory`.
pub fn ui_arguments(tool: &str) -> &'static [&'static str] {
    match tool {
        "show" => &["type", "path", "url", "content", "items"],
        "memory" => &["command", "path"],
        _ => &[],
    }
}

pub fn is_beeuni(name: &str) -> bool {
    BEEUNI_TOOLS.contains(&name)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HarnessTier {
    One,
    Two,
}

/// The harness table, extended by the config's `harness-tools` (tier 1).
#[derive(Clone, Debug, Default)]
pub struct HarnessTable {
    extra: Vec<String>,
}

impl HarnessTable {
    pub fn new(extra: Vec<String>) -> Self {
        HarnessTable { extra }
    }

    pub fn tier(&self, name: &str) -> Option<HarnessTier> {
        if HARNESS_TIER1.contains(&name) || self.extra.iter().any(|e| e == name) {
            Some(HarnessTier::One)
        } else if HARNESS_TIER2.contains(&name) {
            Some(HarnessTier::Two)
        } else {
            None
        }
    }

    /// Every harness tool name, tier 1 first.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        HARNESS_TIER1.iter().copied().chain(self.extra.iter().map(String::as_str)).chain(HARNESS_TIER2.iter().copied())
    }
}

/// Where xcsh discovers project-level custom tools (its native, Claude and Codex providers), in its order.
pub const XCSH_TOOL_FOLDERS: [&str; 3] = [".xcsh/tools", ".claude/tools", ".codex/tools"];

/// Module extensions the xcsh loader imports (Bun, which also runs JSX).
pub const XCSH_MODULE_EXTENSIONS: [&str; 8] = ["ts", "js", "mts", "mjs", "cts", "cjs", "tsx", "jsx"];

/// xcsh's built-in tools, hidden ones included: a custom tool may not take one of these names.
pub const XCSH_BUILTIN_TOOLS: &[&str] = &[
    "ast_grep",
    "ast_edit",
    "render_mermaid",
    "ask",
    "bash",
    "debug",
    "python",
    "calc",
    "ssh",
    "edit",
    "gh_repo_view",
    "gh_issue_view",
    "gh_pr_view",
    "gh_pr_diff",
    "gh_pr_checkout",
    "gh_pr_push",
    "gh_run_watch",
    "gh_search_issues",
    "gh_search_prs",
    "find",
    "grep",
    "lsp",
    "notebook",
    "read",
    "inspect_image",
    "browser",
    "checkpoint",
    "rewind",
    "task",
    "cancel_job",
    "poll",
    "todo_write",
    "web_search",
    "search_tool_bm25",
    "write",
    "api_services",
    "api_discover",
    "api_describe",
    "api_call",
    "submit_result",
    "report_finding",
    "report_tool_issue",
    "exit_plan_mode",
    "resolve",
];
