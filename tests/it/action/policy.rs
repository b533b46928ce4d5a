//! The action's `policy` input: `impact --policy` in a step of its own, each guarded gain an annotation, and the
//! approval label accepted only in the run its adding started, added by someone other than the author, with the
//! pull request's timeline (GitHub's REST API, here a local server replaying a recorded exchange) still showing it
//! on; or an approving review of the head commit by a member of a team `approval-teams` lists.

use super::{BASE, Setup, pull_request, setup};
use crate::action_support::github_api::{FakeApi, exchange};
use crate::action_support::{Outcome, run};
use serde_json::{Value, json};

const TIMELINE: &str = "/repos/beeuni/shop/issues/7/timeline?per_page=100&page=1";
const REVIEWS: &str = "/repos/beeuni/shop/pulls/7/reviews?per_page=100&page=1";
const TEAMS: &str = "acme/platform, acme/security";
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

/// The run a submitted review starts: pull request 7 by `octocat`, its head the workspace's checked-out commit.
fn review_run(setup: &Setup, api: &FakeApi) -> Outcome {
    review_run_at(setup, api, &setup.repo.rev("HEAD"))
}

/// The same, the event naming the head `head`.
fn review_run_at(setup: &Setup, api: &FakeApi, head: &str) -> Outcome {
    let mut event = event("submitted", None);
    event["pull_request"]["head"]["sha"] = json!(head);
    let inputs = [("policy", "true"), ("fail-on", "never"), ("upload-sarif", "false"), ("approval-teams", TEAMS)];
    let mut invocation = setup.invocation("pull_request_review", event, &inputs);
    invocation.env.push(("GITHUB_API_URL", api.url.clone()));
    run(&invocation)
}

fn review(login: &str, state: &str, commit: &str) -> Value {
    json!({ "user": { "login": login }, "state": state, "commit_id": commit })
}

fn membership(team: &str, login: &str) -> String {
    format!("/orgs/acme/teams/{team}/memberships/{login}")
}

/// The review path did not approve: the step fails, with a notice saying why.
fn assert_not_approved(outcome: &Outcome, why: &str) {
    assert!(!outcome.success, "{}", outcome.log);
    assert_eq!((outcome.step("policy", "approved"), outcome.step("policy", "status")), ("false", "1"));
    assert!(outcome.log.contains(&format!("::error {GAIN}\n")), "{}", outcome.log);
    assert!(
        outcome.log.contains(&format!("::notice title=beeuni-lint::no approving review: {why}\n")),
        "{}",
        outcome.log
    );
    assert!(outcome.log.contains(&format!("; no approving review: {why})")), "{}", outcome.log);
}

#[test]
fn a_team_members_review_of_the_head_approves_the_guarded_gain() {
    let setup = guarded_setup();
    let head = setup.repo.rev("HEAD");
    // bob only comments after approving: a comment does not take an approval back (as on GitHub).
    let reviews = json!([
        review("bob", "APPROVED", &setup.repo.rev("HEAD^")),
        review("alice", "APPROVED", &head),
        review("bob", "COMMENTED", &head),
    ]);
    let api = FakeApi::start(vec![
        exchange("GET", REVIEWS, 200, reviews),
        exchange("GET", &membership("platform", "alice"), 404, json!({ "message": "Not Found" })),
        exchange("GET", &membership("security", "alice"), 200, json!({ "state": "active", "role": "member" })),
    ]);
    let outcome = review_run(&setup, &api);
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!((outcome.step("policy", "approved"), outcome.step("policy", "status")), ("true", "0"));
    assert!(outcome.log.contains(&format!("::notice {GAIN} (approved)")), "{}", outcome.log);
    let why = "approving review of the head commit by alice (a member of acme/security)";
    assert!(outcome.summary.contains(&format!("1 guarded gain(s), approved: {why}.")), "{}", outcome.summary);
    let calls = [REVIEWS.to_owned(), membership("platform", "alice"), membership("security", "alice")];
    assert_eq!(api.calls(), calls.map(|path| format!("GET {path}")));
    assert!(api.requests().iter().all(|r| r.authorization.as_deref() == Some("Bearer ghs_job_token")));
    assert!(!outcome.log.contains("ghs_job_token"), "{}", outcome.log);
}

#[test]
fn a_review_of_an_older_commit_or_of_another_checkout_approves_nothing() {
    let setup = guarded_setup();
    let older = setup.repo.rev("HEAD^");
    let api = FakeApi::start(vec![exchange("GET", REVIEWS, 200, json!([review("alice", "APPROVED", &older)]))]);
    let outcome = review_run(&setup, &api);
    assert_not_approved(&outcome, "the approving reviews are of an older commit (a push needs a new review)");
    assert_eq!(api.calls(), [format!("GET {REVIEWS}")]);
    // The event names an older head than the commit this run checked out (and judges): nothing is asked.
    let api = FakeApi::start(Vec::new());
    let outcome = review_run_at(&setup, &api, &older);
    let why = format!("the checked-out commit is not the pull request's head {older}");
    assert_not_approved(&outcome, &why);
    assert!(api.calls().is_empty(), "{:?}", api.calls());
}

#[test]
fn the_authors_own_approving_review_approves_nothing() {
    let setup = guarded_setup();
    let reviews = json!([review("OctoCat", "APPROVED", &setup.repo.rev("HEAD"))]);
    let api = FakeApi::start(vec![exchange("GET", REVIEWS, 200, reviews)]);
    let outcome = review_run(&setup, &api);
    assert_not_approved(&outcome, "only the pull request's author approved its head commit");
    assert_eq!(api.calls(), [format!("GET {REVIEWS}")]);
}

#[test]
fn a_reviewer_in_no_listed_team_approves_nothing() {
    let setup = guarded_setup();
    let head = setup.repo.rev("HEAD");
    // A login GitHub would never send, with a line break and a workflow command: never asked about, never logged.
    let reviews = json!([review("carol", "APPROVED", &head), review("x\n::error::forged", "APPROVED", &head)]);
    let api = FakeApi::start(vec![
        exchange("GET", REVIEWS, 200, reviews),
        exchange("GET", &membership("platform", "carol"), 404, json!({ "message": "Not Found" })),
        exchange("GET", &membership("security", "carol"), 200, json!({ "state": "pending" })),
    ]);
    let outcome = review_run(&setup, &api);
    let why = "no approver of the head commit is an active member of a listed team (GitHub answers 404 also to a token that cannot see the team: it needs read:org)";
    assert_not_approved(&outcome, why);
    let calls = [REVIEWS.to_owned(), membership("platform", "carol"), membership("security", "carol")];
    assert_eq!(api.calls(), calls.map(|path| format!("GET {path}")));
    assert!(!outcome.log.contains("forged"), "{}", outcome.log);
}

#[test]
fn a_token_that_cannot_read_team_memberships_approves_nothing() {
    let setup = guarded_setup();
    let reviews = json!([review("alice", "APPROVED", &setup.repo.rev("HEAD"))]);
    let forbidden = json!({ "message": "Resource not accessible by integration\n::error::forged" });
    let api = FakeApi::start(vec![
        exchange("GET", REVIEWS, 200, reviews),
        exchange("GET", &membership("platform", "alice"), 403, forbidden),
    ]);
    let outcome = review_run(&setup, &api);
    let why = "the token cannot read team memberships (HTTP 403: Resource not accessible by integration?::error::forged): give the job a token with read:org, or use the label";
    assert_not_approved(&outcome, why);
    assert_eq!(api.calls(), [format!("GET {REVIEWS}"), format!("GET {}", membership("platform", "alice"))]);
    // Reviews the token may not read approve nothing either.
    let api = FakeApi::start(vec![exchange("GET", REVIEWS, 403, json!({ "message": "Forbidden" }))]);
    let outcome = review_run(&setup, &api);
    let why = "the reviews could not be read (HTTP 403): give the job `permissions: pull-requests: read`";
    assert_not_approved(&outcome, why);
}

#[test]
fn changes_requested_after_an_approval_withdraw_it() {
    let setup = guarded_setup();
    let head = setup.repo.rev("HEAD");
    let reviews = json!([review("alice", "APPROVED", &head), review("alice", "CHANGES_REQUESTED", &head)]);
    let api = FakeApi::start(vec![exchange("GET", REVIEWS, 200, reviews)]);
    let outcome = review_run(&setup, &api);
    assert_not_approved(&outcome, "no reviewer's latest review approves");
    assert_eq!(api.calls(), [format!("GET {REVIEWS}")]);
}

#[test]
fn a_review_of_the_head_approves_the_merge_a_pull_request_run_checks_out() {
    let setup = guarded_setup();
    let head = setup.repo.rev("HEAD");
    // As `actions/checkout` leaves a pull request's run: the merge of the head into the base, detached.
    setup.repo.git(&["checkout", "-q", "--detach", "main"]);
    setup.repo.git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "merge",
        "-q",
        "--no-ff",
        "-m",
        "merge",
        &head,
    ]);
    assert_eq!(setup.repo.rev("HEAD^2"), head);
    let api = FakeApi::start(vec![
        exchange("GET", REVIEWS, 200, json!([review("alice", "APPROVED", &head)])),
        exchange("GET", &membership("platform", "alice"), 200, json!({ "state": "active" })),
    ]);
    let outcome = review_run_at(&setup, &api, &head);
    assert!(outcome.success, "{}", outcome.log);
    assert_eq!(outcome.step("policy", "approved"), "true");
    assert!(outcome.log.contains(&format!("::notice {GAIN} (approved)")), "{}", outcome.log);
}
