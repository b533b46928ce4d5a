//! Hostile inputs: confinement.

#[allow(unused_imports)]
use crate::support::*;

/// The harness itself: a clean project runs clean, bounded, and leaves the outside folder alone.
#[test]
fn a_clean_project_is_clean_and_bounded() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).commit("clean");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("clean project");
    sandbox.assert_untouched("clean project", &outcome);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stdout());
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]));
}
