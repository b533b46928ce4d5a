//! RULES.md §10 revision 2: tracking through a symlink inside the repository
//! works as git sees it (a tracked link to tracked files is tracked: a
//! pnpm-style `node_modules`, a linked tool folder), and help never proposes a
//! `git add` that git refuses ("beyond a symbolic link").
#![cfg(unix)]

mod common;

use common::*;
use std::os::unix::fs::symlink;
use std::path::Path;

/// A project whose tools folder and package are symlinks, pnpm-style.
fn linked_project(root: &Path) {
    let files: [(&str, &str); 5] = [
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  lookup: tools/shared/lookup.ts\n"),
        (
            "team-tools/lookup.ts",
            &format!(
                "import {{ format }} from 'order-format'\nimport {{ pad }} from './pad'\nconsole.log(format, pad)\n{MODULE}"
            ),
        ),
        ("team-tools/pad.ts", "export const pad = (s: string) => s.padStart(8, '0')\n"),
        (
            "node_modules/.pnpm/order-format@1.0.0/node_modules/order-format/package.json",
            r#"{"name": "order-format", "exports": {".": {"import": "./index.js"}}}"#,
        ),
        ("node_modules/.pnpm/order-format@1.0.0/node_modules/order-format/index.js", "export const format = String\n"),
    ];
    for (path, text) in files {
        write(root, path, text.as_bytes());
    }
    std::fs::create_dir_all(root.join("tools")).unwrap();
    symlink("../team-tools", root.join("tools/shared")).unwrap();
    symlink(".pnpm/order-format@1.0.0/node_modules/order-format", root.join("node_modules/order-format")).unwrap();
    git(root, &["init", "-q"]);
}

#[test]
fn tracked_links_to_tracked_files_are_tracked() {
    let dir = tempfile::TempDir::new().unwrap();
    linked_project(dir.path());
    git(dir.path(), &["add", "-A"]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("linked", code, &report);
}

#[test]
fn help_adds_what_git_accepts() {
    let dir = tempfile::TempDir::new().unwrap();
    linked_project(dir.path());
    // The links and the manifest are tracked; the helper behind the link is not, the package folder is ignored.
    write(dir.path(), ".gitignore", b"node_modules/.pnpm/\n");
    git(dir.path(), &["add", ".gitignore", "beeuni.yaml", "tools/shared", "team-tools/lookup.ts", "node_modules"]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[
            (
                "module-package-untracked",
                "warning",
                "tools/shared/lookup.ts",
                1,
                1,
                "package `order-format` resolves from `node_modules/order-format`, which git does not track: the sandbox installs no packages for a tool",
            ),
            (
                "file-untracked",
                "info",
                "tools/shared/lookup.ts",
                2,
                1,
                "imported file `tools/shared/pad.ts` leads through a symlink to `team-tools/pad.ts`, which is not tracked by git yet: a config release contains only files Git tracks",
            ),
        ],
    );
    // Never `git add tools/shared/pad.ts`: git refuses a path beyond a symbolic link.
    assert_help(&diagnostics(&report)[1], "run `git add team-tools/pad.ts`");
}

#[test]
fn an_untracked_link_is_what_to_add() {
    let dir = tempfile::TempDir::new().unwrap();
    linked_project(dir.path());
    git(dir.path(), &["add", "beeuni.yaml", "team-tools", "node_modules"]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(
        &report,
        &[
            (
                "file-untracked",
                "info",
                "beeuni.yaml",
                3,
                3,
                "module `tools/shared/lookup.ts` goes through the symlink `tools/shared`, which is not tracked by git yet: a config release contains only files Git tracks",
            ),
            (
                "file-untracked",
                "info",
                "tools/shared/lookup.ts",
                2,
                1,
                "imported file `tools/shared/pad.ts` goes through the symlink `tools/shared`, which is not tracked by git yet: a config release contains only files Git tracks",
            ),
        ],
    );
    for finding in diagnostics(&report) {
        assert_help(finding, "run `git add tools/shared`");
    }
}
