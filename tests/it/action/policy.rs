//! The action's `policy` input: `impact --policy` in a step of its own, each guarded gain an annotation, and the
//! approval label accepted only in the run its adding started, added by someone other than the author, with the
//! pull request's timeline (GitHub's REST API, here a local server replaying a recorded exchange) still showing it
//! on.

use super::{BASE, Setup, pull_request, setup};
use crate::action_support::github_api::{FakeApi, exchange};
use crate::action_support::{Outcome, run};
use serde_json::{Value, json};

const TIMELINE: &str = "/repos/beeuni/shop/issues/7/timeline?per_page=100&page=1";
const LABEL: &str = "agent-capability-approved";
const GAIN: &str = "file=beeuni.yaml,line=7,col=27,title=policy-gain::agent `support` gains `bash`, `pty_spawn`, `pty_write`, `pty_read`, `pty_list`, `pty_kill`, guarded by the policy (`beeuni-lint.toml:2`): `tools:` lists `bash`";

/// The workspace's change gives `support` `bash`, which its policy guards.
fn guarded_setup() -> Setup {
    let setup = setup();
    setup.repo.write("beeuni.yaml", &BASE.replace("[read, lookup]", "[read, lookup, bash]"));
    setup.repo.write("beeuni-lint.toml", "[policy]\nguard = [{ agents = \"*\", tools = [\"bash\"] }]\n");
    setup.repo.commit("give bash");
    setup
}

/// Pull request 7 by `octocat`, the event `action` (with the label added and who added it, for `labeled`).
fn event(action: &str, label: Option<(&str, &str)>) -> Value {
    let mut event = pull_request("beeuni/shop");
    event["action"] = json!(action);
    event["pull_request"]["user"] = json!({ "login": "octocat" });
    if let Some((name, sender)) = label {
        event["label"] = json!({ "name": name });
        event["sender"] = json!({ "login": sender });
    }
    event
}

fn labeled(actor: &str) -> Value {
    json!({ "event": "labeled", "actor": { "login": actor }, "label": { "name": LABEL } })
}

fn run_policy(setup: &Setup, api: &FakeApi, event: Value) -> Outcome {
    let inputs = [("policy", "true"), ("fail-on", "never"), ("upload-sarif", "false")];
    let mut invocation = setup.invocation("pull_request", event, &inputs);
    invocation.env.push(("GITHUB_API_URL", api.url.clone()));
    run(&invocation)
}

#[test]
fn a_reviewers_label_approves_the_guarded_gain() {
    let setup = guarded_setup();
    let timeline = json!([
        { "event": "committed", "sha": "1234567" },
        { "event": "labeled", "actor": { "login": "octocat" }, "label": { "name": "bug" } },
        labeled("alice"),
    ]);
    let api = FakeApi::start(vec![exchange("GET", TIMELINE, 200, timeline)]);
    let outcome = run_policy(&setup, &api, event("labeled", Some((LABEL, "alice"))));
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!(outcome.ran, ["Install beeuni-lint", "Lint", "Policy", "Result"]);
    assert_eq!((outcome.step("policy", "approved"), outcome.step("policy", "status")), ("true", "0"));
    assert!(outcome.log.contains(&format!("::notice {GAIN} (approved)")), "{}", outcome.log);
    assert!(outcome.summary.contains("1 guarded gain(s), approved: label added by alice."), "{}", outcome.summary);
    assert_eq!(api.calls(), [format!("GET {TIMELINE}")]);
    assert_eq!(api.requests()[0].authorization.as_deref(), Some("Bearer ghs_job_token"));
    assert!(!outcome.log.contains("ghs_job_token"), "{}", outcome.log);
}

#[test]
fn a_push_needs_the_label_added_again() {
    let setup = guarded_setup();
    let api = FakeApi::start(Vec::new());
    let outcome = run_policy(&setup, &api, event("synchronize", None));
    assert!(!outcome.success, "{}", outcome.log);
    assert_eq!((outcome.step("policy", "approved"), outcome.step("policy", "status")), ("false", "1"));
    assert!(outcome.log.contains(&format!("::error {GAIN}\n")), "{}", outcome.log);
    let why = "this run was not started by adding the label `agent-capability-approved` (a push needs it added again)";
    assert!(outcome.log.contains(&format!("a guarded gain is not approved ({why})")), "{}", outcome.log);
    assert!(api.calls().is_empty(), "{:?}", api.calls());
}

#[test]
fn the_authors_own_label_or_one_removed_since_approves_nothing() {
    let setup = guarded_setup();
    let api = FakeApi::start(Vec::new());
    let outcome = run_policy(&setup, &api, event("labeled", Some((LABEL, "octocat"))));
    assert!(!outcome.success, "{}", outcome.log);
    assert!(outcome.log.contains("(the label was added by the pull request's author)"), "{}", outcome.log);
    assert!(api.calls().is_empty(), "{:?}", api.calls());
    // A re-run of the labeled run after the label was taken off.
    let removed =
        json!([labeled("alice"), { "event": "unlabeled", "actor": { "login": "bob" }, "label": { "name": LABEL } }]);
    let api = FakeApi::start(vec![exchange("GET", TIMELINE, 200, removed)]);
    let outcome = run_policy(&setup, &api, event("labeled", Some((LABEL, "alice"))));
    assert!(!outcome.success, "{}", outcome.log);
    assert_eq!(outcome.step("policy", "approved"), "false");
    assert!(outcome.log.contains("(the timeline does not show the label on)"), "{}", outcome.log);
    // A timeline the token may not read approves nothing.
    let api = FakeApi::start(vec![exchange("GET", TIMELINE, 403, json!({ "message": "Forbidden" }))]);
    let outcome = run_policy(&setup, &api, event("labeled", Some((LABEL, "alice"))));
    assert!(!outcome.success, "{}", outcome.log);
    assert!(outcome.log.contains("the timeline could not be read (HTTP 403)"), "{}", outcome.log);
}
