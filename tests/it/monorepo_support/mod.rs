//! The monorepo the monorepo tests share: two projects (`apps/agent`, `apps/other`) in one git repository.

use crate::common::{MODULE, git, write};
use tempfile::TempDir;

pub const AGENT: &str = "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\nagents:\n  support:\n    tools:\n      exclude: [bsh]\n";
pub const OTHER: &str = "agents:\n  helper:\n    tools: [grpe]\n";

/// Both manifests committed, `apps/agent/tools/lookup.ts` written but not added; no manifest at the top.
pub fn monorepo() -> TempDir {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    write(root, "apps/agent/beeuni.yaml", AGENT.as_bytes());
    write(root, "apps/other/beeuni.yaml", OTHER.as_bytes());
    write(root, "docs/readme.md", b"docs\n");
    git(root, &["add", "."]);
    git(root, &["commit", "-qm", "init"]);
    write(root, "apps/agent/tools/lookup.ts", MODULE.as_bytes());
    dir
}
