//! The action's `impact` input: the report in the job summary and in one pull-request comment, kept by a hidden
//! marker, written through GitHub's REST API, here a local server replaying a recorded exchange
//! (`action_support::github_api`).
//!
//! The released binary of most of these tests is a stand-in (`stub_impact`) that answers `impact` with fixed
//! Markdown (and `impact --help` with a help naming `--link-base`) and hands every other command to the real
//! binary; the last test, and `super::rendered`, run the real one.

use super::{Setup, TARGET, VERSION, pull_request, setup};
use crate::action_support::github_api::{FakeApi, exchange};
use crate::action_support::{Outcome, run};
use serde_json::{Value, json};
use std::path::PathBuf;

const REPORT: &str = "**1 agent gains tools.**\n\n<details><summary><code>support</code></summary>\n\n- standard harness: gains `bash` (`exclude:` lost `bash`)\n\n</details>\n";
const MARKER: &str = "<!-- beeuni-lint:impact -->";
const COMMENTS: &str = "/repos/beeuni/shop/issues/7/comments";
const BOT: &str = "github-actions[bot]";

/// The released binary made a stand-in: `impact` writes its arguments down and prints `markdown` with `status`
/// (`impact --help` names `--link-base`, as a binary with links does); any other command is the real binary's.
/// Returns the arguments file.
fn stub_impact(setup: &Setup, markdown: &str, status: u8) -> PathBuf {
    stub(setup, markdown, status, "  --link-base <URL>  links to the lines")
}

/// [`stub_impact`] whose `impact --help` prints `help`.
fn stub(setup: &Setup, markdown: &str, status: u8, help: &str) -> PathBuf {
    let dir = setup.temp.path().join("stub");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("impact.md"), markdown).unwrap();
    std::fs::write(dir.join("help.txt"), help).unwrap();
    let real = dir.join("beeuni-lint-real");
    std::fs::copy(env!("CARGO_BIN_EXE_beeuni-lint"), &real).unwrap();
    let arguments = dir.join("arguments");
    let script = format!(
        "#!/bin/sh\nif [ \"$1 $2\" = 'impact --help' ]; then cat '{}'; exit 0; fi\n\
         if [ \"$1\" = impact ]; then printf '%s\\n' \"$@\" > '{}'; cat '{}'; exit {status}; fi\nexec '{}' \"$@\"\n",
        dir.join("help.txt").display(),
        arguments.display(),
        dir.join("impact.md").display(),
        real.display()
    );
    let asset = setup.releases.join(format!("v{VERSION}/beeuni-lint-{TARGET}"));
    std::fs::write(&asset, script).unwrap();
    let sum = std::process::Command::new("sha256sum").arg(&asset).output().unwrap();
    let digest = String::from_utf8(sum.stdout).unwrap();
    let sum_file = format!("{}  beeuni-lint-{TARGET}\n", digest.split(' ').next().unwrap());
    std::fs::write(setup.releases.join(format!("v{VERSION}/beeuni-lint-{TARGET}.sha256")), sum_file).unwrap();
    arguments
}

/// `--link-base` as the action builds it for the workspace's HEAD.
fn link_base(setup: &Setup) -> String {
    format!("--link-base\nhttps://github.com/beeuni/shop/blob/{}\n", setup.repo.git(&["rev-parse", "HEAD"]).trim())
}

fn comment(id: u64, login: &str, body: &str) -> Value {
    json!({ "id": id, "user": { "login": login, "type": "Bot" }, "body": body })
}

fn forbidden() -> Value {
    json!({ "message": "Resource not accessible by integration" })
}

/// The action on pull request 7 with `impact: true` (and `extra` inputs), talking to `api`.
fn run_impact(setup: &Setup, api: &FakeApi, head_repo: &str, extra: &[(&'static str, &str)]) -> Outcome {
    let mut inputs = vec![("impact", "true"), ("fail-on", "never"), ("upload-sarif", "false")];
    inputs.extend_from_slice(extra);
    let mut invocation = setup.invocation("pull_request", pull_request(head_repo), &inputs);
    invocation.env.push(("GITHUB_API_URL", api.url.clone()));
    run(&invocation)
}

#[test]
fn the_first_run_creates_the_comment() {
    let setup = setup();
    let arguments = stub_impact(&setup, REPORT, 0);
    let page = json!([
        // Someone else's comment that quotes the marker is not the action's.
        comment(11, "mallory", &format!("{MARKER}\nfake")),
        comment(12, BOT, "another action's comment"),
    ]);
    let api = FakeApi::start(vec![
        exchange("GET", "/user", 403, forbidden()),
        exchange("GET", &format!("{COMMENTS}?per_page=100&page=1"), 200, page),
        exchange("POST", COMMENTS, 201, json!({ "id": 99 })),
    ]);
    let outcome = run_impact(&setup, &api, "beeuni/shop", &[]);
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!(outcome.ran, ["Install beeuni-lint", "Lint", "Impact", "Result"]);
    let args = std::fs::read_to_string(arguments).unwrap();
    assert_eq!(args, format!("impact\n--base\norigin/main\n--format\nmarkdown\n.\n{}", link_base(&setup)));
    assert_eq!(outcome.step("impact", "status"), "0");
    assert_eq!(outcome.step("impact", "comment"), "created", "{}", outcome.log);
    assert!(outcome.log.contains("Created the impact comment 99."), "{}", outcome.log);
    assert!(outcome.summary.ends_with(REPORT), "{}", outcome.summary);
    let requests = api.requests();
    assert_eq!(api.calls().len(), 3, "{:?}", api.calls());
    let post = &requests[2];
    assert_eq!(post.authorization.as_deref(), Some("Bearer ghs_job_token"));
    // The token is in no log line, and the file curl read it from is gone with the step's folder.
    assert!(!outcome.log.contains("ghs_job_token"), "{}", outcome.log);
    let left: Vec<_> =
        std::fs::read_dir(setup.temp.path().join("runner")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(!left.iter().any(|name| name.to_string_lossy().starts_with("beeuni-lint-impact")), "{left:?}");
    let body: Value = serde_json::from_str(&post.body).unwrap();
    assert_eq!(body, json!({ "body": format!("{MARKER}\n{REPORT}") }));
}

#[test]
fn a_later_run_updates_the_comment_found_on_a_later_page() {
    let setup = setup();
    // The report itself holds the marker (as a name in a code span would): the comment starts with it and holds
    // the report byte for byte.
    let full_page: Vec<Value> = (1..=100).map(|id| comment(id, "someone", "looks good")).collect();
    let api = FakeApi::start(vec![
        exchange("GET", "/user", 200, json!({ "login": "shop-bot" })),
        exchange("GET", &format!("{COMMENTS}?per_page=100&page=1"), 200, json!(full_page)),
        exchange(
            "GET",
            &format!("{COMMENTS}?per_page=100&page=2"),
            200,
            json!([comment(4242, "shop-bot", &format!("{MARKER}\nold report")), comment(4243, BOT, MARKER)]),
        ),
        exchange("PATCH", "/repos/beeuni/shop/issues/comments/4242", 200, json!({ "id": 4242 })),
    ]);
    let arguments = stub_impact(&setup, &format!("{REPORT}{MARKER}\n"), 0);
    std::fs::create_dir_all(setup.repo.dir.join("ci")).unwrap();
    std::fs::write(setup.repo.dir.join("ci/beeuni-lint.toml"), "").unwrap();
    let inputs = [("token", "ghp_personal"), ("config", "ci/beeuni-lint.toml"), ("base", "main")];
    let outcome = run_impact(&setup, &api, "beeuni/shop", &inputs);
    assert!(outcome.success, "{}", outcome.log);
    let args = std::fs::read_to_string(arguments).unwrap();
    let expected =
        format!("impact\n--base\nmain\n--format\nmarkdown\n.\n--config\nci/beeuni-lint.toml\n{}", link_base(&setup));
    assert_eq!(args, expected);
    assert_eq!(outcome.step("impact", "comment"), "updated", "{}", outcome.log);
    let calls = api.calls();
    assert_eq!(calls.last().map(String::as_str), Some("PATCH /repos/beeuni/shop/issues/comments/4242"), "{calls:?}");
    assert!(!calls.iter().any(|c| c.starts_with("POST")), "no second comment: {calls:?}");
    let requests = api.requests();
    assert!(requests.iter().all(|r| r.authorization.as_deref() == Some("Bearer ghp_personal")));
    let body: Value = serde_json::from_str(&requests[3].body).unwrap();
    assert_eq!(body["body"], format!("{MARKER}\n{REPORT}{MARKER}\n"));
}

#[test]
fn a_fork_pull_request_gets_the_summary_only() {
    let setup = setup();
    stub_impact(&setup, REPORT, 0);
    let api = FakeApi::start(Vec::new());
    let outcome = run_impact(&setup, &api, "someone/shop", &[]);
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!(outcome.step("impact", "comment"), "skipped");
    assert!(api.calls().is_empty(), "{:?}", api.calls());
    let note = "No comment: a pull request from the fork `someone/shop` gets a read-only token. The impact report is \
                in the job summary only.";
    // A paragraph of its own: right after the report's `</details>` it would be read as part of that HTML.
    assert!(outcome.summary.contains(&format!("{REPORT}\n{note}\n")), "{}", outcome.summary);
    assert!(outcome.log.contains(&format!("::notice title=beeuni-lint::{note}")), "{}", outcome.log);
}

#[test]
fn without_the_input_or_a_pull_request_nothing_runs() {
    let setup = setup();
    let arguments = stub_impact(&setup, REPORT, 0);
    let api = FakeApi::start(Vec::new());
    let mut invocation = setup.invocation("pull_request", pull_request("beeuni/shop"), &[("fail-on", "never")]);
    invocation.env.push(("GITHUB_API_URL", api.url.clone()));
    let outcome = run(&invocation);
    assert_eq!(outcome.ran, ["Install beeuni-lint", "Lint", "Upload SARIF", "Result"]);
    // A push has no pull request to compare with or comment on.
    let push = json!({ "ref": "refs/heads/feature", "repository": { "full_name": "beeuni/shop" } });
    let outcome = run(&setup.invocation("push", push, &[("impact", "true"), ("fail-on", "never")]));
    assert!(!outcome.ran.iter().any(|step| step == "Impact"), "{:?}", outcome.ran);
    assert!(!arguments.exists(), "impact never ran");
    assert!(!outcome.summary.contains("agent gains"), "{}", outcome.summary);
    assert!(api.calls().is_empty());
}

#[test]
fn an_api_error_is_a_warning_and_a_read_only_token_a_notice() {
    let setup = setup();
    stub_impact(&setup, REPORT, 0);
    let list = || exchange("GET", &format!("{COMMENTS}?per_page=100&page=1"), 200, json!([]));
    let api = FakeApi::start(vec![
        exchange("GET", "/user", 403, forbidden()),
        list(),
        exchange("POST", COMMENTS, 422, json!({ "message": "Validation Failed\n::error::forged" })),
    ]);
    let outcome = run_impact(&setup, &api, "beeuni/shop", &[]);
    assert!(outcome.success, "the summary has the report: {}", outcome.log);
    assert_eq!(outcome.step("impact", "comment"), "failed");
    // GitHub's message, on the one line of the warning: its line break cannot start a workflow command.
    let warning = "::warning title=beeuni-lint::could not create the impact comment (HTTP 422: Validation \
                   Failed?::error::forged). The report is in the job summary.";
    assert!(outcome.log.contains(warning), "{}", outcome.log);
    assert!(!outcome.log.lines().any(|line| line.starts_with("::error")), "{}", outcome.log);
    assert!(outcome.summary.ends_with(REPORT), "{}", outcome.summary);

    // A token without `pull-requests: write`.
    let api = FakeApi::start(vec![
        exchange("GET", "/user", 403, forbidden()),
        list(),
        exchange("POST", COMMENTS, 403, forbidden()),
    ]);
    let outcome = run_impact(&setup, &api, "beeuni/shop", &[]);
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!(outcome.step("impact", "comment"), "skipped");
    let note = "No comment: the token may not write pull requests (HTTP 403: Resource not accessible by \
                integration); give the job `permissions: pull-requests: write`.";
    assert!(outcome.log.contains(&format!("::notice title=beeuni-lint::{note}")), "{}", outcome.log);

    // No server at all.
    let outcome = run_impact(&setup, &dead_api(), "beeuni/shop", &[]);
    assert_eq!(outcome.step("impact", "comment"), "failed", "{}", outcome.log);
    assert!(
        outcome.log.contains("could not list the comments for the impact comment (no answer from http?//127.0.0.1")
    );
}

/// An address nothing listens on: a server started and its port taken back.
fn dead_api() -> FakeApi {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    FakeApi::at(url)
}

#[test]
fn impact_that_cannot_run_fails_the_action_and_comments_nothing() {
    let setup = setup();
    stub_impact(&setup, "", 2);
    let api = FakeApi::start(Vec::new());
    let outcome = run_impact(&setup, &api, "beeuni/shop", &[]);
    assert!(!outcome.success);
    assert_eq!(outcome.ran, ["Install beeuni-lint", "Lint", "Impact"]);
    assert_eq!(outcome.step("impact", "status"), "2");
    assert!(outcome.log.contains("::error title=beeuni-lint::impact could not run (exit status 2;"), "{}", outcome.log);
    assert!(api.calls().is_empty());
}

#[test]
fn a_report_longer_than_a_comment_is_not_cut_but_left_to_the_summary() {
    let setup = setup();
    // The binary keeps its report within a comment; a longer one (another binary's) is never cut, since a cut can
    // fall inside a code span or a `<details>` and hand the rest of the page to the repository's text.
    let line = "- `é` gains `bash`\n";
    let long: String = line.repeat(66_000 / line.len());
    stub_impact(&setup, &long, 0);
    let api = FakeApi::start(vec![
        exchange("GET", "/user", 403, forbidden()),
        exchange("GET", &format!("{COMMENTS}?per_page=100&page=1"), 200, json!([])),
        exchange("POST", COMMENTS, 201, json!({ "id": 5 })),
    ]);
    let outcome = run_impact(&setup, &api, "beeuni/shop", &[]);
    assert_eq!(outcome.step("impact", "comment"), "created", "{}", outcome.log);
    let body: Value = serde_json::from_str(&api.requests()[2].body).unwrap();
    let note = "*The impact report is longer than a comment holds: the job summary has it.*\n";
    assert_eq!(body["body"], format!("{MARKER}\n{note}"));
    assert!(outcome.summary.ends_with(&long), "the summary has all of it");
    // Just within a comment (the marker's line included), it is posted whole.
    let fits: String = "x".repeat(65_536 - MARKER.len() - 2) + "\n";
    stub_impact(&setup, &fits, 0);
    let api = FakeApi::start(vec![
        exchange("GET", "/user", 403, forbidden()),
        exchange("GET", &format!("{COMMENTS}?per_page=100&page=1"), 200, json!([])),
        exchange("POST", COMMENTS, 201, json!({ "id": 6 })),
    ]);
    run_impact(&setup, &api, "beeuni/shop", &[]);
    let body: Value = serde_json::from_str(&api.requests()[2].body).unwrap();
    assert_eq!(body["body"].as_str().unwrap().len(), 65_536);
    assert_eq!(body["body"], format!("{MARKER}\n{fits}"));
}

#[test]
fn links_need_every_part_and_a_binary_that_knows_them() {
    let setup = setup();
    let plain = "impact\n--base\norigin/main\n--format\nmarkdown\n.\n";
    let args = |server: &str, help: &str| {
        let arguments = stub(&setup, REPORT, 0, help);
        let api = FakeApi::start(Vec::new());
        let mut invocation = setup.invocation(
            "pull_request",
            pull_request("beeuni/shop"),
            &[("impact", "true"), ("fail-on", "never"), ("upload-sarif", "false"), ("comment", "false")],
        );
        invocation.server_url = server.into();
        invocation.env.push(("GITHUB_API_URL", api.url.clone()));
        let outcome = run(&invocation);
        assert!(outcome.success, "no link base is no failure: {}", outcome.log);
        std::fs::read_to_string(arguments).unwrap()
    };
    let knows = "  --link-base <URL>";
    // GitHub Enterprise Server: its own address.
    let enterprise = args("https://ghe.example.com:8443", knows);
    let head = setup.repo.git(&["rev-parse", "HEAD"]);
    assert_eq!(
        enterprise,
        format!("{plain}--link-base\nhttps://ghe.example.com:8443/beeuni/shop/blob/{}\n", head.trim())
    );
    // A part missing or not what it should be, or a binary without the option (an older release): no links.
    for server in ["", "javascript:alert(1)", "https://e.example/x?y", "https://e.example\n::error::x"] {
        assert_eq!(args(server, knows), plain, "{server:?}");
    }
    assert_eq!(args("https://github.com", "Usage: beeuni-lint impact [OPTIONS]"), plain);
}

#[test]
fn the_comment_is_the_real_impact_report_of_the_pull_request() {
    // No stand-in: the released binary's own `impact` report of the workspace's change (HEAD drops `image_search`).
    let setup = setup();
    let api = FakeApi::start(vec![
        exchange("GET", "/user", 403, forbidden()),
        exchange("GET", &format!("{COMMENTS}?per_page=100&page=1"), 200, json!([])),
        exchange("POST", COMMENTS, 201, json!({ "id": 5 })),
    ]);
    let outcome = run_impact(&setup, &api, "beeuni/shop", &[]);
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!(outcome.step("impact", "comment"), "created", "{}", outcome.log);
    // With links to the merge commit's lines once the binary has `--link-base` (the action asks it which).
    let binary = env!("CARGO_BIN_EXE_beeuni-lint");
    let help = std::process::Command::new(binary).args(["impact", "--help"]).output().unwrap();
    let mut args = vec!["impact".to_string(), "--base".into(), "origin/main".into(), "--format".into()];
    args.extend(["markdown".into(), ".".into()]);
    if String::from_utf8_lossy(&help.stdout).contains("--link-base") {
        let head = setup.repo.git(&["rev-parse", "HEAD"]);
        args.extend(["--link-base".into(), format!("https://github.com/beeuni/shop/blob/{}", head.trim())]);
    }
    let expected = std::process::Command::new(binary).args(&args).current_dir(&setup.repo.dir).output().unwrap();
    assert_eq!(expected.status.code(), Some(0), "{}", String::from_utf8_lossy(&expected.stderr));
    let report = String::from_utf8(expected.stdout).unwrap();
    assert!(report.contains("image_search"), "{report}");
    let body: Value = serde_json::from_str(&api.requests()[2].body).unwrap();
    assert_eq!(body, json!({ "body": format!("{MARKER}\n{report}") }));
    assert!(outcome.summary.contains(report.trim_end()), "{}", outcome.summary);
}
