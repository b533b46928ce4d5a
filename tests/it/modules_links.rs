//! docs/spec/rules.md §10 revision 2: tracking through a symlink inside the repository
//! works as git sees it (a tracked link to tracked files is tracked: a
//! pnpm-style `node_modules`, a linked tool folder), and help never proposes a
//! `git add` that git refuses ("beyond a symbolic link").
#![cfg(unix)]

use crate::change_support::{Repo, lint_in, removal};
use crate::common::*;
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

/// A committed project whose tools folder and an imported YAML folder are tracked links inside the repository
/// (`tools -> lib/tools`, `conf -> lib/conf`); the module imports a helper beside it.
fn linked_folders() -> Repo {
    let repo = Repo::new();
    repo.write("beeuni.yaml", "imports: [conf/more.yaml]\ntools:\n  web_search: beeuni:web_search\n  x: tools/x.ts\n");
    repo.write("lib/tools/x.ts", &format!("import {{ pad }} from './pad'\nconsole.log(pad)\n{MODULE}"));
    repo.write("lib/tools/pad.ts", "export const pad = (s: string) => s.padStart(8, '0')\n");
    repo.write(
        "lib/conf/more.yaml",
        "tools:\n  image_search: beeuni:image_search\nagents:\n  a:\n    tools: [read, x]\n",
    );
    symlink("lib/tools", repo.path("tools")).unwrap();
    symlink("lib/conf", repo.path("conf")).unwrap();
    repo.commit("linked folders");
    repo
}

#[test]
fn the_index_and_a_commit_follow_a_tracked_linked_folder() {
    let repo = linked_folders();
    // The index holds the links and the files they reach: the module, its helper and the import are staged.
    for args in [&["--staged"][..], &["--base", "HEAD"], &[]] {
        let (code, report) = repo.lint(args);
        assert_clean(&format!("{args:?}"), code, &report);
    }
    // A change to the file behind the link: HEAD's tree is read through the link too, so the removal is seen.
    repo.write("lib/conf/more.yaml", "agents:\n  a:\n    tools: [read, x]\n").stage();
    for args in [&["--staged"][..], &["--base", "HEAD"]] {
        let (code, report) = repo.lint(args);
        assert_eq!(code, 1, "{args:?}");
        assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 2, 1, &removal("image_search"))]);
    }
}

#[test]
fn a_project_in_a_subfolder_follows_its_linked_folder() {
    let repo = Repo::new();
    repo.write("apps/shop/beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  x: tools/x.ts\n");
    repo.write("apps/shop/lib/x.ts", MODULE);
    symlink("lib", repo.path("apps/shop/tools")).unwrap();
    repo.commit("a project in a subfolder");
    for args in [&["--staged"][..], &["--base", "HEAD"]] {
        let (code, report) = lint_in(&repo.path("apps/shop"), args);
        assert_clean(&format!("{args:?}"), code, &report);
    }
}

#[test]
fn the_index_follows_its_own_links_whatever_the_work_tree_made_of_them() {
    let repo = linked_folders();
    // Not staged: the link replaced by a real folder holding copies.
    std::fs::remove_file(repo.path("tools")).unwrap();
    repo.write("tools/x.ts", &format!("import {{ pad }} from './pad'\nconsole.log(pad)\n{MODULE}"));
    repo.write("tools/pad.ts", "export const pad = (s: string) => s\n");
    let (code, report) = repo.lint(&["--staged"]);
    assert_clean("the index still holds the link", code, &report);
    // The work tree's own files are what `git add` would add.
    let (code, report) = repo.lint(&[]);
    assert_eq!(code, 0, "infos only");
    let message = |what: &str, path: &str| {
        format!("{what} `{path}` is not tracked by git yet: a config release contains only files Git tracks")
    };
    assert_findings(
        &report,
        &[
            ("file-untracked", "info", "beeuni.yaml", 4, 3, &message("module", "tools/x.ts")),
            ("file-untracked", "info", "tools/x.ts", 1, 1, &message("imported file", "tools/pad.ts")),
        ],
    );
}

#[test]
fn a_staged_link_to_an_unstaged_file_names_the_file_to_add() {
    let repo = linked_folders();
    let manifest =
        "imports: [conf/more.yaml]\ntools:\n  web_search: beeuni:web_search\n  x: tools/x.ts\n  y: tools/y.ts\n";
    repo.write("beeuni.yaml", manifest);
    repo.git(&["add", "beeuni.yaml"]);
    repo.write("lib/tools/y.ts", MODULE);
    let (code, report) = repo.lint(&["--staged"]);
    assert_eq!(code, 1);
    let message = "module `tools/y.ts` leads through a symlink to `lib/tools/y.ts`, which is not staged: the commit being made does not contain it";
    assert_findings(&report, &[("file-untracked", "error", "beeuni.yaml", 5, 3, message)]);
    // Never `git add tools/y.ts`: git refuses a path beyond a symbolic link.
    assert_help(&diagnostics(&report)[0], "run `git add lib/tools/y.ts`");
}
