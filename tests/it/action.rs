//! The GitHub Action (`action.yml`) run locally, step by step, by the runner of
//! `tests/action_support`: a fake `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY` and
//! event payload (pull request, fork pull request, push), and a fake release
//! (a folder with the binary and its SHA-256 file, reached by `file://`).

mod impact;
mod policy;
mod rendered;

use crate::action_support;
use crate::action_support::{Invocation, Outcome, run};
use crate::change_support::{MODULE, Repo};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const BASE: &str = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  lookup: tools/lookup.ts\nagents:\n  support:\n    tools: [read, lookup]\n";
/// The pull request: drops `image_search` (a warning with a base) and misspells `read` (a warning on a new line).
const HEAD: &str = "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\nagents:\n  support:\n    tools: [raed, lookup]\n";

const TARGET: &str =
    if cfg!(target_arch = "aarch64") { "aarch64-unknown-linux-musl" } else { "x86_64-unknown-linux-musl" };

/// The source version of this checkout (the action's Cargo.toml).
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A repository whose `main` holds BASE (also as `origin/main`, as `actions/checkout` with `fetch-depth: 0` leaves
/// it) and whose checked-out branch `feature` commits HEAD.
fn workspace() -> Repo {
    let repo = Repo::new();
    repo.write("beeuni.yaml", BASE).write("tools/lookup.ts", MODULE).commit("base");
    repo.git(&["update-ref", "refs/remotes/origin/main", "main"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("beeuni.yaml", HEAD).commit("the change");
    repo
}

/// A release folder `v<version>/` holding this build's binary under the asset name, with its SHA-256 file.
fn release(root: &Path, version: &str) -> PathBuf {
    let dir = root.join(format!("v{version}"));
    std::fs::create_dir_all(&dir).unwrap();
    let asset = format!("beeuni-lint-{TARGET}");
    std::fs::copy(env!("CARGO_BIN_EXE_beeuni-lint"), dir.join(&asset)).unwrap();
    let sum = std::process::Command::new("sha256sum").arg(&asset).current_dir(&dir).output().unwrap();
    assert!(sum.status.success());
    std::fs::write(dir.join(format!("{asset}.sha256")), sum.stdout).unwrap();
    dir
}

fn pull_request(head_repo: &str) -> Value {
    json!({
        "pull_request": {
            "number": 7,
            "base": { "ref": "main", "repo": { "full_name": "beeuni/shop" } },
            "head": { "ref": "feature", "repo": { "full_name": head_repo } },
        },
        "repository": { "full_name": "beeuni/shop" },
    })
}

struct Setup {
    repo: Repo,
    temp: tempfile::TempDir,
    releases: PathBuf,
}

fn setup() -> Setup {
    let repo = workspace();
    let temp = tempfile::TempDir::new().unwrap();
    let releases = temp.path().join("releases");
    release(&releases, VERSION);
    let runner_temp = temp.path().join("runner");
    std::fs::create_dir_all(&runner_temp).unwrap();
    Setup { repo, temp, releases }
}

impl Setup {
    fn invocation(&self, event_name: &'static str, event: Value, inputs: &[(&'static str, &str)]) -> Invocation {
        Invocation {
            inputs: inputs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect(),
            event_name,
            event,
            repository: "beeuni/shop",
            server_url: "https://github.com".into(),
            actor: "octocat",
            action_ref: format!("v{VERSION}"),
            token: "ghs_job_token",
            workspace: self.repo.dir.clone(),
            temp: self.temp.path().join("runner"),
            env: vec![("BEEUNI_LINT_RELEASES", format!("file://{}", self.releases.display()))],
        }
    }
}

fn sarif_results(outcome: &Outcome) -> Vec<Value> {
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(outcome.output("sarif-file")).unwrap()).unwrap();
    sarif["runs"][0]["results"].as_array().unwrap().clone()
}

fn rules(results: &[Value]) -> Vec<&str> {
    results.iter().map(|r| r["ruleId"].as_str().unwrap()).collect()
}

#[test]
fn a_pull_request_installs_the_release_lints_against_its_base_and_uploads() {
    let setup = setup();
    let outcome = run(&setup.invocation("pull_request", pull_request("beeuni/shop"), &[]));
    assert_eq!(outcome.ran, ["Install beeuni-lint", "Lint", "Upload SARIF", "Result"], "{}", outcome.log);
    assert_eq!(outcome.step("install", "build"), "false");
    assert_eq!(outcome.step("install", "version"), VERSION);
    assert!(outcome.log.contains(&format!("Installed beeuni-lint {VERSION} ({TARGET}, sha256 ")), "{}", outcome.log);
    // Two warnings, both on the pull request's change: findings at or above `fail-on: warning` fail the step.
    assert!(!outcome.success, "exit 1 fails the action:\n{}", outcome.log);
    assert_eq!((outcome.output("status"), outcome.output("errors"), outcome.output("warnings")), ("1", "0", "2"));
    assert!(
        outcome.log.contains(
            "::warning file=beeuni.yaml,line=1,col=1,endLine=1,endColumn=6,title=beeuni-lint (removed-beeuni-tool)::"
        ),
        "{}",
        outcome.log
    );
    assert!(outcome.log.contains("title=beeuni-lint (unknown-tool)::agent `support` lists `raed`"), "{}", outcome.log);
    assert_eq!(rules(&sarif_results(&outcome)), ["removed-beeuni-tool", "unknown-tool"]);
    let upload = outcome.upload().expect("the upload step ran");
    assert_eq!(upload.with["sarif_file"], outcome.output("sarif-file"));
    assert_eq!(upload.with["category"], "beeuni-lint");
    assert!(
        outcome.summary.contains("removed-beeuni-tool"),
        "the job summary lists the findings:\n{}",
        outcome.summary
    );
}

#[test]
fn a_fork_pull_request_skips_the_upload_with_a_notice() {
    let setup = setup();
    let outcome = run(&setup.invocation("pull_request", pull_request("someone/shop"), &[("fail-on", "error")]));
    assert!(outcome.success, "warnings under fail-on: error pass:\n{}", outcome.log);
    assert_eq!(outcome.ran, ["Install beeuni-lint", "Lint", "Result"]);
    assert!(outcome.upload().is_none());
    assert_eq!((outcome.output("status"), outcome.output("warnings")), ("0", "2"));
    let note = "SARIF upload skipped: a pull request from the fork someone/shop gets no security-events: write token.";
    assert!(outcome.log.contains(&format!("::notice title=beeuni-lint::{note}")), "{}", outcome.log);
    // In the job summary, the fork's name is a code span.
    let summarised = "from the fork `someone/shop` gets no security-events: write token.";
    assert!(outcome.summary.contains(summarised), "{}", outcome.summary);
    // The report is still written, for an artifact.
    assert_eq!(rules(&sarif_results(&outcome)), ["removed-beeuni-tool", "unknown-tool"]);
}

#[test]
fn an_input_with_a_line_break_adds_no_output_and_no_workflow_command() {
    let setup = setup();
    // Written as `name=value`, this category would add `status=0` after the real status: a failing run would pass.
    let category = "beeuni-lint/x\nstatus=0";
    let fork = "someone/shop\n::add-mask::x\r::stop-commands::y ![x](http://e/x.png) `";
    let inputs = [("category", category), ("version", "1.0\n::error::forged")];
    let outcome = run(&setup.invocation("pull_request", pull_request(fork), &inputs));
    assert!(outcome.log.contains("version \"1.0???error??forged\" is not a version number"), "{}", outcome.log);
    let outcome = run(&setup.invocation("pull_request", pull_request(fork), &inputs[..1]));
    assert!(!outcome.success, "two warnings under fail-on: warning fail:\n{}", outcome.log);
    assert_eq!(outcome.output("status"), "1");
    assert_eq!(outcome.step("lint", "category"), category, "the whole value, line break included");
    let names: Vec<&String> = outcome.steps["lint"].keys().collect();
    assert_eq!(names, ["category", "errors", "sarif-file", "status", "upload", "warnings"]);
    for line in outcome.log.split(['\r', '\n']) {
        let allowed = ["::warning file=", "::notice title=beeuni-lint::SARIF upload skipped"];
        assert!(!line.starts_with("::") || allowed.iter().any(|a| line.starts_with(a)), "{line:?}");
    }
    let shown = "someone/shop???add-mask??x???stop-commands??y???x??http?//e/x.png???";
    assert!(outcome.log.contains(&format!("from the fork {shown} gets")), "{}", outcome.log);
    assert!(outcome.summary.contains(&format!("from the fork `{shown}` gets")), "{}", outcome.summary);
    assert!(!outcome.summary.contains("](") && !outcome.summary.contains('\r'), "{}", outcome.summary);
}

#[test]
fn a_push_lints_without_a_base_and_only_changed_says_why_it_is_off() {
    let setup = setup();
    let event = json!({ "ref": "refs/heads/feature", "repository": { "full_name": "beeuni/shop" } });
    let inputs = [("only-changed", "true"), ("category", "agents"), ("fail-on", "never")];
    let outcome = run(&setup.invocation("push", event, &inputs));
    assert!(outcome.success, "{}", outcome.log);
    assert!(outcome.log.contains("::notice title=beeuni-lint::only-changed needs a base"), "{}", outcome.log);
    // Without a base, nothing is "removed": only the misspelt tool.
    assert_eq!((outcome.output("status"), outcome.output("warnings")), ("0", "1"));
    assert_eq!(rules(&sarif_results(&outcome)), ["unknown-tool"]);
    assert_eq!(outcome.upload().expect("uploaded").with["category"], "agents");
    // upload-sarif gives its category only to a run without automationDetails: the report must carry it.
    assert_eq!(sarif_ids(&outcome), [json!("agents/")]);
}

/// The `automationDetails.id` of each run of the SARIF report: what code scanning takes the category from.
fn sarif_ids(outcome: &Outcome) -> Vec<Value> {
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(outcome.output("sarif-file")).unwrap()).unwrap();
    sarif["runs"].as_array().unwrap().iter().map(|run| run["automationDetails"]["id"].clone()).collect()
}

#[test]
fn a_project_in_a_subfolder_gets_its_own_category_and_a_base_input_wins() {
    let setup = setup();
    let repo = &setup.repo;
    repo.write("apps/shop/beeuni.yaml", HEAD).write("apps/shop/tools/lookup.ts", MODULE).commit("a second project");
    let inputs = [("path", "./apps/shop/"), ("base", "HEAD"), ("only-changed", "true"), ("upload-sarif", "false")];
    let outcome = run(&setup.invocation("pull_request", pull_request("beeuni/shop"), &inputs));
    // Against HEAD nothing changed, so --only-changed keeps nothing.
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!((outcome.output("status"), outcome.output("errors"), outcome.output("warnings")), ("0", "0", "0"));
    assert_eq!(outcome.step("lint", "category"), "beeuni-lint/apps/shop");
    assert!(outcome.output("sarif-file").ends_with("/beeuni-lint-apps-shop.sarif"), "{}", outcome.output("sarif-file"));
    assert!(outcome.upload().is_none(), "upload-sarif: false");
}

#[test]
fn a_checksum_mismatch_fails_before_anything_runs() {
    let setup = setup();
    let sum = setup.releases.join(format!("v{VERSION}/beeuni-lint-{TARGET}.sha256"));
    std::fs::write(&sum, format!("{}  beeuni-lint-{TARGET}\n", "0".repeat(64))).unwrap();
    let outcome = run(&setup.invocation("pull_request", pull_request("beeuni/shop"), &[]));
    assert!(!outcome.success);
    assert_eq!(outcome.ran, ["Install beeuni-lint"]);
    let expected = format!(
        "::error title=beeuni-lint::checksum mismatch for beeuni-lint-{TARGET} of v{VERSION}: expected {}",
        "0".repeat(64)
    );
    assert!(outcome.log.contains(&expected), "{}", outcome.log);
    assert!(!setup.temp.path().join(format!("runner/beeuni-lint-{VERSION}/beeuni-lint")).exists(), "not installed");
    // A release without its checksum file is refused too.
    std::fs::remove_file(&sum).unwrap();
    let outcome = run(&setup.invocation("pull_request", pull_request("beeuni/shop"), &[]));
    assert!(!outcome.success);
    assert!(outcome.log.contains("not installing an unverified binary"), "{}", outcome.log);
}

#[test]
fn without_a_release_the_source_build_comes_from_the_cache() {
    let setup = setup();
    std::fs::remove_dir_all(&setup.releases).unwrap();
    // The cache already holds the build (as actions/cache restores it): no toolchain, no build.
    let built = setup.temp.path().join("runner/beeuni-lint-build/bin");
    std::fs::create_dir_all(&built).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_beeuni-lint"), built.join("beeuni-lint")).unwrap();
    let outcome = run(&setup.invocation("pull_request", pull_request("beeuni/shop"), &[("fail-on", "never")]));
    assert!(outcome.success, "{}", outcome.log);
    assert!(outcome.log.contains(&format!("::notice title=beeuni-lint::no released binary v{VERSION} for {TARGET}")));
    assert_eq!(outcome.ran, ["Install beeuni-lint", "Restore the beeuni-lint build", "Lint", "Upload SARIF", "Result"]);
    assert_eq!(outcome.step("install", "build"), "true");
    assert!(
        outcome.step("install", "cache-key").starts_with("beeuni-lint-Linux-"),
        "{}",
        outcome.step("install", "cache-key")
    );
    assert_eq!(outcome.used[0].with["path"], built.display().to_string());
    assert_eq!(outcome.output("warnings"), "2");
}

#[test]
fn the_ref_decides_the_version_unless_the_input_names_one() {
    let setup = setup();
    let built = setup.temp.path().join("runner/beeuni-lint-build/bin");
    std::fs::create_dir_all(&built).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_beeuni-lint"), built.join("beeuni-lint")).unwrap();
    let pr = || pull_request("beeuni/shop");
    // A branch: its source, built.
    let mut at_main = setup.invocation("pull_request", pr(), &[("fail-on", "never")]);
    at_main.action_ref = "main".into();
    let outcome = run(&at_main);
    assert_eq!(outcome.step("install", "build"), "true", "{}", outcome.log);
    // A commit the release was built from (its COMMIT file): the release.
    let commit = "0123456789abcdef0123456789abcdef01234567";
    std::fs::write(setup.releases.join(format!("v{VERSION}/COMMIT")), format!("{commit}\n")).unwrap();
    let mut at_commit = setup.invocation("pull_request", pr(), &[("fail-on", "never")]);
    at_commit.action_ref = commit.into();
    let outcome = run(&at_commit);
    assert_eq!((outcome.step("install", "build"), outcome.step("install", "version")), ("false", VERSION));
    // Another commit: the source.
    at_commit.action_ref = "f".repeat(40);
    assert_eq!(run(&at_commit).step("install", "build"), "true");
    // `version` names a release that does not exist, and the source is another version: an error.
    let outcome = run(&setup.invocation("pull_request", pr(), &[("version", "v9.9.9")]));
    assert!(!outcome.success);
    assert!(
        outcome.log.contains(&format!(
            "::error title=beeuni-lint::no release v9.9.9 of beeuni-lint with a binary for {TARGET}"
        )),
        "{}",
        outcome.log
    );
    let outcome = run(&setup.invocation("pull_request", pr(), &[("version", "latest")]));
    assert!(outcome.log.contains("version \"latest\" is not a version number such as 0.1.0"), "{}", outcome.log);
}

#[test]
fn a_run_that_cannot_happen_uploads_nothing_and_fails() {
    let setup = setup();
    let outcome = run(&setup.invocation("pull_request", pull_request("beeuni/shop"), &[("base", "no-such-branch")]));
    assert!(!outcome.success);
    assert_eq!(outcome.ran, ["Install beeuni-lint", "Lint", "Result"]);
    assert_eq!((outcome.output("status"), outcome.output("sarif-file")), ("2", ""));
    assert!(outcome.log.contains("beeuni-lint: revision `no-such-branch`"), "{}", outcome.log);
}

#[test]
fn third_party_actions_are_pinned_by_commit_with_their_tag() {
    let source = std::fs::read_to_string(action_support::action_path().join("action.yml")).unwrap();
    for line in source.lines().filter(|line| line.trim_start().starts_with("uses:")) {
        let (_, reference) = line.split_once('@').unwrap_or_else(|| panic!("no ref: {line}"));
        let (sha, tag) = reference.split_once(" # ").unwrap_or_else(|| panic!("no tag comment: {line}"));
        assert!(sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()), "not a commit: {line}");
        assert!(tag.starts_with('v'), "the comment names the release tag: {line}");
    }
    let toolchain = format!("toolchain: \"{}\"", env!("CARGO_PKG_RUST_VERSION"));
    assert!(source.contains(&toolchain), "the source build uses Cargo.toml's rust-version: {toolchain}");
}

#[test]
fn infos_are_left_out_unless_the_min_severity_input_asks_for_them() {
    let setup = setup();
    // An info beside the pull request's two warnings: an agent with an empty tool list.
    setup.repo.write("beeuni.yaml", &format!("{HEAD}  quiet:\n    tools: []\n")).commit("an empty tool list");
    let outcome = run(&setup.invocation("pull_request", pull_request("beeuni/shop"), &[("upload-sarif", "false")]));
    assert_eq!((outcome.output("status"), outcome.output("warnings")), ("1", "2"), "{}", outcome.log);
    assert!(!outcome.log.contains("empty-tool-list"), "{}", outcome.log);
    assert!(!outcome.summary.contains("empty-tool-list"), "{}", outcome.summary);
    assert_eq!(rules(&sarif_results(&outcome)), ["removed-beeuni-tool", "unknown-tool"]);
    let inputs = [("upload-sarif", "false"), ("min-severity", "info")];
    let outcome = run(&setup.invocation("pull_request", pull_request("beeuni/shop"), &inputs));
    assert_eq!((outcome.output("status"), outcome.output("warnings")), ("1", "2"), "{}", outcome.log);
    let notice = "::notice file=beeuni.yaml,line=8,col=5,endLine=8,endColumn=10,title=beeuni-lint (empty-tool-list)::";
    assert!(outcome.log.contains(notice), "{}", outcome.log);
    assert!(outcome.summary.contains("| empty-tool-list | info | `beeuni.yaml:8:5` |"), "{}", outcome.summary);
    assert_eq!(rules(&sarif_results(&outcome)), ["removed-beeuni-tool", "unknown-tool", "empty-tool-list"]);
}

#[test]
fn at_a_monorepo_root_every_project_is_annotated_with_a_run_of_its_own() {
    let setup = setup();
    let repo = &setup.repo;
    repo.git(&["rm", "-q", "beeuni.yaml", "tools/lookup.ts"]);
    for app in ["apps/a", "apps/b"] {
        repo.write(&format!("{app}/beeuni.yaml"), HEAD).write(&format!("{app}/tools/lookup.ts"), MODULE);
    }
    repo.commit("two projects");
    let event = json!({ "ref": "refs/heads/feature", "repository": { "full_name": "beeuni/shop" } });
    let outcome = run(&setup.invocation("push", event, &[]));
    assert_eq!((outcome.output("status"), outcome.output("warnings")), ("1", "2"), "{}", outcome.log);
    for app in ["apps/a", "apps/b"] {
        let annotation = format!("::warning file={app}/beeuni.yaml,line=6,col=13,endLine=6,endColumn=17,");
        assert!(outcome.log.contains(&annotation), "{}", outcome.log);
        assert!(outcome.summary.contains(&format!("| unknown-tool | warning | `{app}/beeuni.yaml:6:13` |")));
    }
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(outcome.output("sarif-file")).unwrap()).unwrap();
    let ids: Vec<&Value> =
        sarif["runs"].as_array().unwrap().iter().map(|run| &run["automationDetails"]["id"]).collect();
    assert_eq!(ids, [&json!("beeuni-lint/apps/a/"), &json!("beeuni-lint/apps/b/")]);
    // upload-sarif fills only a run's missing automationDetails: each project keeps its own category.
    assert_eq!(outcome.upload().expect("uploaded").with["category"], "beeuni-lint");
}

#[test]
fn a_category_input_names_each_run_of_the_report() {
    let setup = setup();
    let repo = &setup.repo;
    repo.git(&["rm", "-q", "beeuni.yaml", "tools/lookup.ts"]);
    for app in ["apps/a", "apps/b"] {
        repo.write(&format!("{app}/beeuni.yaml"), HEAD).write(&format!("{app}/tools/lookup.ts"), MODULE);
    }
    repo.commit("two projects");
    let event = json!({ "ref": "refs/heads/feature", "repository": { "full_name": "beeuni/shop" } });
    let outcome = run(&setup.invocation("push", event.clone(), &[("category", "agents")]));
    assert_eq!(outcome.output("status"), "1", "{}", outcome.log);
    assert_eq!(sarif_ids(&outcome), [json!("agents/apps/a/"), json!("agents/apps/b/")]);
    let outcome = run(&setup.invocation("push", event, &[("category", "agents"), ("path", "apps/b")]));
    assert_eq!(sarif_ids(&outcome), [json!("agents/")]);
    assert_eq!(outcome.upload().expect("uploaded").with["category"], "agents");
}
