//! The tracking rules read the model alone: given git's facts in memory, with no repository or file left on
//! disk, they find what those facts call for; and the facts a checkout gave are the findings it gave.

use super::Tracking;
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::{CheckOptions, load};
use crate::project::Project;
use crate::repo::checkout::Untracked;
use crate::rules::RULES;
use std::path::Path;
use std::process::Command;

const MANIFEST: &str = "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n";
const MODULE: &str = "import { z } from 'zod'\nimport { carrier } from './carrier'\n\nexport default {\n  description: 'Look up an order',\n  parameters: { type: 'object', properties: { id: { type: 'string' } } },\n  async execute(args) { return z.string().parse(args.id) + carrier },\n}\n";

fn write_project(root: &Path) {
    let files = [
        ("beeuni.yaml", MANIFEST),
        ("tools/lookup_order.ts", MODULE),
        ("tools/carrier.ts", "export const carrier = 'DHL'\n"),
        ("node_modules/zod/package.json", r#"{ "name": "zod", "version": "4.0.0", "main": "index.js" }"#),
        ("node_modules/zod/index.js", "export const z = {}\n"),
    ];
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// The project at `root`, every text kept in memory (nothing is read again once the folder is gone).
fn build(root: &Path) -> Project {
    let mut options = CheckOptions::new(root.to_path_buf());
    options.keep_texts = true;
    load(&options).unwrap_or_else(|message| panic!("{message}")).project
}

/// The two tracking rules' findings as (rule, severity, file, line, message).
fn tracking_findings(project: &Project) -> Vec<(&'static str, Severity, String, usize, String)> {
    let mut found: Vec<Diagnostic> = Vec::new();
    for rule in RULES.iter().filter(|rule| ["file-untracked", "module-package-untracked"].contains(&rule.id)) {
        (rule.check.unwrap())(project, &mut found);
    }
    found
        .into_iter()
        .map(|d| {
            let file = project.file(d.primary.file);
            (d.rule, d.severity, file.path.to_string(), file.position(d.primary.span.start()).line, d.message)
        })
        .collect()
}

fn untracked(ignored: bool) -> Untracked {
    Untracked { part: None, ignored, staged: false }
}

#[test]
fn the_tracking_rules_find_what_the_model_says_with_nothing_left_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    write_project(dir.path());
    let mut project = build(dir.path());
    assert!(!project.tracking.in_git, "a temporary folder is outside git");
    assert_eq!(tracking_findings(&project), [], "outside git the rules are skipped");
    drop(dir);

    let mut tracking = Tracking { in_git: true, ..Tracking::default() };
    tracking.untracked.insert("tools/lookup_order.ts".into(), untracked(false));
    tracking.untracked.insert("tools/carrier.ts".into(), untracked(true));
    tracking.untracked_packages.insert("node_modules/zod/index.js".into());
    project.tracking = tracking;
    assert_eq!(
        tracking_findings(&project),
        [
            (
                "file-untracked",
                Severity::Info,
                "beeuni.yaml".into(),
                3,
                "module `tools/lookup_order.ts` is not tracked by git yet: a config release contains only files Git tracks"
                    .into()
            ),
            (
                "file-untracked",
                Severity::Error,
                "tools/lookup_order.ts".into(),
                2,
                "imported file `tools/carrier.ts` is ignored by git: a config release contains only files Git tracks"
                    .into()
            ),
            (
                "module-package-untracked",
                Severity::Warning,
                "tools/lookup_order.ts".into(),
                1,
                "package `zod` resolves from `node_modules/zod`, which git does not track: the sandbox installs no packages for a tool"
                    .into()
            ),
        ]
    );
}

/// Runs the git CLI isolated from the user's and system config.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@e", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn git_is_asked_once_while_the_model_is_built() {
    let dir = tempfile::tempdir().unwrap();
    write_project(dir.path());
    git(dir.path(), &["init", "-q"]);
    std::fs::write(dir.path().join(".gitignore"), "tools/carrier.ts\n").unwrap();
    git(dir.path(), &["add", "beeuni.yaml", ".gitignore"]);
    let project = build(dir.path());
    let before = tracking_findings(&project);
    assert_eq!(before.len(), 3, "{before:?}");
    assert_eq!(project.tracking.untracked("tools/carrier.ts"), Some(&untracked(true)));
    // The repository and its files gone, the rules find the same: they read what the model learnt.
    drop(dir);
    assert_eq!(tracking_findings(&project), before);
}
