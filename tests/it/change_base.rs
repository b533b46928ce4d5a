//! `--base REV`: the merge base, the ways to name a revision, the exit-2
//! errors (docs/spec/interface.md), and repositories of unusual shape: detached HEAD,
//! a linked worktree, nested repositories, a project in a subfolder, paths
//! with spaces and non-ASCII letters.

use crate::change_support::*;
use crate::common::{assert_clean, assert_findings, diagnostics};
use std::path::Path;

const THREE: &str =
    "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  memory: beeuni:memory\n";
const TWO: &str = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n";
const ONE: &str = "tools:\n  web_search: beeuni:web_search\n";

/// main: `two` (tag `fork`), then main moves on and adds `memory` (a line the feature never sees).
/// feature (checked out): forked at `fork`, deletes `image_search`, committed.
fn forked() -> Repo {
    let repo = Repo::new();
    repo.write("beeuni.yaml", TWO).commit("two tools");
    repo.git(&["tag", "fork"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("beeuni.yaml", ONE).commit("drop image_search");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("beeuni.yaml", THREE).commit("add memory");
    repo.git(&["checkout", "-q", "feature"]);
    repo
}

/// Exactly one finding: image_search removed, compared with the base `description`.
fn image_search_removed(dir: &Path, args: &[&str], description: &str) {
    let (code, report) = lint_in(dir, args);
    assert_eq!(code, 1, "{args:?}");
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &removal("image_search"))]);
    assert_eq!(diagnostics(&report)[0]["help"], format!("compared with {description}"), "{args:?}");
}

#[test]
fn base_compares_with_the_merge_base_not_the_tip() {
    let repo = forked();
    let fork = repo.short("fork");
    // Against main's tip, `memory` would look removed: it must not.
    image_search_removed(&repo.dir, &["--base", "main"], &format!("merge base {fork} of main and HEAD"));
    // Uncommitted work on top counts too (the work tree is the head).
    repo.write("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  show: beeuni:show\n");
    image_search_removed(&repo.dir, &["--base", "main"], &format!("merge base {fork} of main and HEAD"));
}

#[test]
fn base_names_a_revision_in_every_usual_way() {
    let repo = forked();
    let fork = repo.short("fork");
    let main = repo.rev("main");
    repo.git(&["tag", "-a", "-m", "release", "v1.0", "main"]);
    for rev in ["main", "refs/heads/main", "fork", "v1.0", &main, &main[..10], "HEAD~1", "feature~1", "main~1"] {
        image_search_removed(&repo.dir, &["--base", rev], &format!("merge base {fork} of {rev} and HEAD"));
    }
    // `--base=REV` is the same option.
    image_search_removed(&repo.dir, &["--base=HEAD~1"], &format!("merge base {fork} of HEAD~1 and HEAD"));
    // HEAD itself: no change.
    let (code, report) = repo.lint(&["--base", "HEAD"]);
    assert_clean("--base HEAD", code, &report);
}

#[test]
fn base_is_a_remote_tracking_branch_of_a_clone() {
    let upstream = forked();
    let url = format!("file://{}", upstream.dir.display());
    git_in(upstream.tmp.path(), &["clone", "-q", "--no-tags", "-b", "feature", &url, "clone"]);
    let clone = upstream.tmp.path().join("clone");
    let fork = upstream.short("fork");
    image_search_removed(&clone, &["--base", "origin/main"], &format!("merge base {fork} of origin/main and HEAD"));
    let message = fails_in(&clone, &["--base", "origin/develop", "."]);
    assert_eq!(
        message,
        "revision `origin/develop` not found: fetch it first (`git fetch origin develop`), or in GitHub Actions check out with `fetch-depth: 0`"
    );
}

#[test]
fn base_not_found_is_exit_2_with_the_remedy() {
    let repo = forked();
    // A revision that may live on the remote: fetch it.
    repo.git(&["remote", "add", "origin", "https://example.com/shop.git"]);
    assert_eq!(
        repo.fails(&["--base", "nope", "."]),
        "revision `nope` not found: fetch it first (`git fetch origin nope`), or in GitHub Actions check out with `fetch-depth: 0`"
    );
    // An ancestor past the first commit of a complete clone does not exist: fetching would not help.
    let message = repo.fails(&["--base", "HEAD~5", "."]);
    assert!(message.starts_with("revision `HEAD~5` does not exist: "), "{message}");
    let absent = "1234567890123456789012345678901234567890";
    let message = repo.fails(&["--base", absent, "."]);
    assert!(
        message.starts_with(&format!("revision `{absent}` not found: ")) && message.contains("fetch-depth: 0"),
        "{message}"
    );
    assert_eq!(repo.fails(&["--base", "HEAD^{tree}", "."]), "revision `HEAD^{tree}` names a tree, not a commit");
    // With --staged too, and whatever the format.
    let run = bin_in(&repo.dir, &["--base", "nope", "--staged", "--format", "short", "."]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("revision `nope` not found"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
}

#[test]
fn base_with_unrelated_history_is_exit_2() {
    let repo = forked();
    repo.git(&["checkout", "-q", "--orphan", "other"]);
    repo.write("beeuni.yaml", ONE).commit("unrelated");
    assert_eq!(
        repo.fails(&["--base", "main", "."]),
        "`main` and HEAD have no common ancestor (unrelated histories): choose a base revision that shares history with HEAD"
    );
}

#[test]
fn shallow_clone_without_the_base_is_exit_2_and_says_to_fetch() {
    let upstream = forked();
    // upstream's HEAD is `feature`: a one-commit clone of it.
    let url = format!("file://{}", upstream.dir.display());
    let tmp = upstream.tmp.path();
    git_in(tmp, &["clone", "-q", "--depth", "1", "--no-tags", &url, "shallow"]);
    let shallow = tmp.join("shallow");
    assert_eq!(
        fails_in(&shallow, &["--base", "origin/main", "."]),
        "revision `origin/main` not found in this shallow clone: fetch it with the full history (`git fetch --unshallow origin main`), or in GitHub Actions check out with `fetch-depth: 0`"
    );
    let message = fails_in(&shallow, &["--base", "HEAD~1", "."]);
    assert!(message.starts_with("revision `HEAD~1` not found in this shallow clone: "), "{message}");
    assert!(message.contains("`git fetch --unshallow origin`") && message.contains("fetch-depth: 0"), "{message}");

    // Both branches fetched, one commit each: the merge base is cut off.
    git_in(tmp, &["clone", "-q", "--depth", "1", "--no-single-branch", "--no-tags", &url, "both"]);
    let both = tmp.join("both");
    assert_eq!(
        fails_in(&both, &["--base", "origin/main", "."]),
        "no merge base of `origin/main` and HEAD in this shallow clone: fetch the full history (`git fetch --unshallow origin main`), or in GitHub Actions check out with `fetch-depth: 0`"
    );
    // HEAD itself is there: --staged works in a shallow clone.
    let (code, report) = lint_in(&both, &["--staged"]);
    assert_clean("shallow --staged", code, &report);

    // Following the remedy fixes it.
    git_in(&both, &["fetch", "-q", "--unshallow", "origin", "main"]);
    let fork = upstream.short("fork");
    image_search_removed(&both, &["--base", "origin/main"], &format!("merge base {fork} of origin/main and HEAD"));
}

#[test]
fn change_aware_runs_outside_git_are_exit_2() {
    let tmp = tempfile::TempDir::new().unwrap();
    let dir = tmp.path().join("plain folder");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("beeuni.yaml"), ONE).unwrap();
    assert!(!dir.join(".git").exists());
    let root = std::fs::canonicalize(&dir).unwrap();
    assert_eq!(
        fails_in(&dir, &["--staged", "."]),
        format!("`--staged` needs a git repository; none holds {}", root.display())
    );
    assert_eq!(
        fails_in(&dir, &["--base", "main", "."]),
        format!("`--base` needs a git repository; none holds {}", root.display())
    );
    assert_eq!(
        fails_in(&dir, &["--only-changed", "."]),
        "`--only-changed` needs a change to look at: add `--base REV` or `--staged`"
    );
    // Plain linting works there.
    let (code, report) = lint_in(&dir, &[]);
    assert_clean("outside git", code, &report);
}

#[test]
fn detached_head() {
    let repo = forked();
    repo.git(&["checkout", "-q", "--detach", "feature"]);
    let fork = repo.short("fork");
    image_search_removed(&repo.dir, &["--base", "main"], &format!("merge base {fork} of main and HEAD"));
    // --staged compares with the detached HEAD's commit.
    repo.write("beeuni.yaml", "tools:\n  show: beeuni:show\n").stage();
    let (_, report) = repo.lint(&["--staged"]);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &removal("web_search"))]);
    assert_eq!(diagnostics(&report)[0]["help"], format!("compared with HEAD ({})", repo.short("HEAD")));
}

#[test]
fn linked_worktree_uses_its_own_head_and_index() {
    let repo = forked();
    repo.git(&["checkout", "-q", "main"]);
    let tree = repo.tmp.path().join("feature tree");
    repo.git(&["worktree", "add", "-q", tree.to_str().unwrap(), "feature"]);
    assert!(tree.join(".git").is_file(), "a linked worktree has a `.git` file");
    let fork = repo.short("fork");
    image_search_removed(&tree, &["--base", "main"], &format!("merge base {fork} of main and HEAD"));
    // Stage a change in the linked worktree and a different one in the main checkout.
    std::fs::write(tree.join("beeuni.yaml"), "tools:\n  show: beeuni:show\n").unwrap();
    git_in(&tree, &["add", "beeuni.yaml"]);
    repo.write("beeuni.yaml", "tools:\n  memory: beeuni:memory\n").stage();
    let (_, report) = lint_in(&tree, &["--staged"]);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &removal("web_search"))]);
    assert_eq!(diagnostics(&report)[0]["help"], format!("compared with HEAD ({})", repo.short("feature")));
    // The main checkout: its own index against main's tip.
    let (_, report) = repo.lint(&["--staged"]);
    let message = removals(&["web_search", "image_search"]);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &message)]);
    assert_eq!(diagnostics(&report)[0]["help"], "web_search: beeuni:web_search\nimage_search: beeuni:image_search");
}

#[test]
fn a_repository_nested_in_another_uses_the_inner_history() {
    // outer: its own beeuni.yaml, history of its own; inner (a folder of outer, its own repository): another.
    let outer = Repo::new();
    outer.write("beeuni.yaml", THREE).commit("outer");
    let inner_dir = outer.path("apps/inner");
    std::fs::create_dir_all(&inner_dir).unwrap();
    git_in(&inner_dir, &["init", "-q", "-b", "main"]);
    std::fs::write(inner_dir.join("beeuni.yaml"), TWO).unwrap();
    git_in(&inner_dir, &["add", "-A"]);
    git_in(&inner_dir, &["commit", "-q", "-m", "inner"]);
    std::fs::write(inner_dir.join("beeuni.yaml"), ONE).unwrap();
    git_in(&inner_dir, &["add", "-A"]);
    let head = git_in(&inner_dir, &["rev-parse", "HEAD"])[..7].to_owned();
    image_search_removed(&inner_dir, &["--staged"], &format!("HEAD ({head})"));
    image_search_removed(&inner_dir, &["--base", "HEAD"], &format!("merge base {head} of HEAD and HEAD"));
    // The outer repository is untouched by the inner change.
    let (code, report) = outer.lint(&["--staged"]);
    assert_clean("outer", code, &report);
}

#[test]
fn a_project_in_a_submodule() {
    let upstream = Repo::new();
    upstream.write("beeuni.yaml", TWO).commit("two tools");
    let outer = Repo::in_folder("outer");
    outer.write("README.md", "outer\n").commit("outer");
    let url = format!("file://{}", upstream.dir.display());
    outer.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", &url, "vendor/shop"]);
    outer.commit("submodule");
    let sub = outer.path("vendor/shop");
    assert!(sub.join(".git").is_file(), "a submodule has a `.git` file");
    std::fs::write(sub.join("beeuni.yaml"), ONE).unwrap();
    git_in(&sub, &["add", "beeuni.yaml"]);
    let head = git_in(&sub, &["rev-parse", "HEAD"])[..7].to_owned();
    image_search_removed(&sub, &["--staged"], &format!("HEAD ({head})"));
    image_search_removed(&sub, &["--base", "origin/main"], &format!("merge base {head} of origin/main and HEAD"));
}

#[test]
fn a_project_in_a_subfolder_of_the_repository() {
    let repo = Repo::new();
    repo.write("README.md", "monorepo\n");
    repo.write("apps/shop/beeuni.yaml", TWO);
    repo.write("apps/shop/more.yaml", "agents:\n  a:\n    tools: [grpe]\n").commit("shop");
    repo.write("apps/shop/beeuni.yaml", "imports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\n").stage();
    let shop = repo.path("apps/shop");
    let head = repo.short("HEAD");
    for (args, base) in [
        (&["--staged"][..], format!("HEAD ({head})")),
        (&["--base", "main"][..], format!("merge base {head} of main and HEAD")),
    ] {
        let (_, report) = lint_in(&shop, args);
        // Paths are relative to the repository root.
        assert_eq!(report["project"], "apps/shop");
        assert_findings(
            &report,
            &[
                ("removed-beeuni-tool", "warning", "apps/shop/beeuni.yaml", 2, 1, &removal("image_search")),
                ("unknown-tool", "warning", "apps/shop/more.yaml", 3, 13, &unknown_tool("a", "grpe")),
            ],
        );
        assert_eq!(diagnostics(&report)[0]["help"], format!("compared with {base}"));
        let only: Vec<&str> = args.iter().copied().chain(["--only-changed"]).collect();
        let (_, report) = lint_in(&shop, &only);
        assert_eq!(rules_at(&report), ["removed-beeuni-tool@2"], "more.yaml is untouched");
    }
    // Run from the repository root with the project's path.
    let run = bin_in(&repo.dir, &["--staged", "--format", "json", "apps/shop"]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(rules_at(&report), ["removed-beeuni-tool@2", "unknown-tool@3"]);
}

#[test]
fn spaces_and_non_ascii_letters_in_paths() {
    let repo = Repo::in_folder("mein prüf repo");
    repo.write("beeuni.yaml", "imports:\n  - \"konfig/prüf datei.yaml\"\n");
    repo.write("konfig/prüf datei.yaml", "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  lookup_order: \"tools/bestell suche.ts\"\n");
    repo.write("tools/bestell suche.ts", MODULE);
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "größer"]);
    repo.write("konfig/prüf datei.yaml", "tools:\n  web_search: beeuni:web_search\n  lookup_order: \"tools/bestell suche.ts\"\nagents:\n  prüfer: {tools: [read, grpe]}\n");
    repo.commit("drop image_search");
    let path = "konfig/prüf datei.yaml";
    let grpe = unknown_tool("prüfer", "grpe");
    for args in [&["--base", "main"][..], &["--base", "main", "--only-changed"][..]] {
        let (code, report) = repo.lint(args);
        assert_eq!(code, 1);
        assert_findings(
            &report,
            &[
                ("removed-beeuni-tool", "warning", path, 1, 1, &removal("image_search")),
                // `ü` is one UTF-16 code unit.
                ("unknown-tool", "warning", path, 5, 26, &grpe),
            ],
        );
    }
    // The branch name with non-ASCII letters as the base, and --staged.
    repo.git(&["checkout", "-q", "-b", "weiter"]);
    repo.write("konfig/prüf datei.yaml", "tools:\n  lookup_order: \"tools/bestell suche.ts\"\n").stage();
    let (_, report) = repo.lint(&["--base", "größer"]);
    let head = repo.short("HEAD");
    assert_findings(&report, &[("removed-beeuni-tool", "warning", path, 1, 1, &removal("web_search"))]);
    assert_eq!(diagnostics(&report)[0]["help"], format!("compared with merge base {head} of größer and HEAD"));
    let (_, staged) = repo.lint(&["--staged"]);
    assert_eq!(rules_at(&staged), rules_at(&report));
    // The module path with a space is found in the index: no module-missing, no file-untracked.
    assert!(
        diagnostics(&staged).iter().all(|d| d["rule"] != "module-missing" && d["rule"] != "file-untracked"),
        "{staged:#}"
    );
}

#[test]
fn the_base_is_read_from_git_objects_only() {
    // At the base, the import names a file that was never committed: no `tools:` key, all five load. The work tree
    // (and later the index) has the file, with a `tools:` key: four are removed. Were the base read from the work
    // tree, nothing would be.
    let repo = Repo::new();
    repo.write("beeuni.yaml", "imports: [a.yaml]\n").commit("base");
    repo.write("a.yaml", ONE);
    let expected = [("removed-beeuni-tool", "a.yaml", removals(&["image_search", "scrape_webpage", "memory", "show"]))];
    let (_, report) = repo.lint(&["--base", "HEAD"]);
    let found: Vec<(&str, &str, String)> = diagnostics(&report)
        .iter()
        .filter(|d| d["rule"] == "removed-beeuni-tool")
        .map(|d| (d["rule"].as_str().unwrap(), d["path"].as_str().unwrap(), d["message"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(found, expected, "{report:#}");
    repo.stage();
    let (_, staged) = repo.lint(&["--staged"]);
    assert_eq!(rules_at(&staged), ["removed-beeuni-tool@1"]);
}
