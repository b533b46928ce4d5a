//! The SARIF and GitHub formats through the real binary: `--format sarif|github`, `--sarif-file`,
//! `$GITHUB_STEP_SUMMARY`.

use crate::common;
use crate::common::{bin, fixture, run_in};
use serde_json::Value;

const MESSAGE: &str =
    "agent `support` excludes `bsh`, which is not a known tool: it hides nothing, and `bash` stays enabled";

#[test]
fn sarif_report_names_rule_location_and_rule_metadata() {
    let dir = fixture("unknown-excluded-tool");
    let run = run_in(dir.path(), &["--format", "sarif", "."]);
    assert_eq!(run.code, 1);
    let sarif: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let run0 = &sarif["runs"][0];
    assert_eq!(run0["columnKind"], "utf16CodeUnits");
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run0["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let result = &results[0];
    assert_eq!(result["ruleId"], "unknown-excluded-tool");
    assert_eq!(result["level"], "error");
    assert!(result["message"]["text"].as_str().unwrap().starts_with(MESSAGE), "{result:#}");
    let index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "unknown-excluded-tool");
    assert!(rules[index]["help"]["markdown"].as_str().unwrap().contains("## What it checks"));
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "beeuni.yaml");
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    let region = &location["region"];
    assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(10), Some(17)));
    assert_eq!((region["endLine"].as_u64(), region["endColumn"].as_u64()), (Some(10), Some(20)));
    assert!(result["partialFingerprints"].as_object().is_some_and(|f| !f.is_empty()));
    // The same run twice gives the same bytes.
    assert_eq!(run_in(dir.path(), &["--format", "sarif", "."]).stdout, run.stdout);
}

#[test]
fn github_annotations_and_step_summary() {
    let dir = fixture("unknown-excluded-tool");
    let summary = dir.path().join("summary.md");
    let output =
        bin(dir.path()).args(["--format", "github", "."]).env("GITHUB_STEP_SUMMARY", &summary).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some(
            format!(
                "::error file=beeuni.yaml,line=10,col=17,endLine=10,endColumn=20,title=beeuni-lint (unknown-excluded-tool)::{MESSAGE}%0Ahelp: did you mean `bash`?"
            )
            .as_str()
        )
    );
    assert_eq!(lines.next(), Some("beeuni-lint: 1 error in 1 file"));
    let table = std::fs::read_to_string(&summary).unwrap();
    assert!(table.contains("| Rule | Severity | Location | Message |"), "{table}");
    assert!(table.contains("`unknown-excluded-tool`") || table.contains("unknown-excluded-tool"), "{table}");
}

#[test]
fn sarif_file_is_written_beside_another_format() {
    let dir = fixture("unknown-excluded-tool");
    let run = run_in(dir.path(), &["--format", "short", "--sarif-file", "out.sarif", "."]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, format!("beeuni.yaml:10:17: error[unknown-excluded-tool] {MESSAGE}\n"));
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "unknown-excluded-tool");
}

#[test]
fn agents_lists_each_harness_with_reasons() {
    let dir = fixture("docs-agents");
    let run = run_in(dir.path(), &["agents", "--json", "."]);
    assert_eq!(run.code, 0);
    let access: Value = serde_json::from_str(&run.stdout).unwrap();
    let tools = |agent: &str, harness: &str| -> Vec<(String, String)> {
        let entry = access.as_array().unwrap().iter().find(|e| e["agent"] == agent && e["harness"] == harness).unwrap();
        entry["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["name"].as_str().unwrap().to_string(), t["why"].as_str().unwrap().to_string()))
            .collect()
    };
    let names = |list: &[(String, String)]| list.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let researcher = tools("researcher", "standard");
    assert_eq!(names(&researcher), ["read", "grep", "web_search", "lookup_order"]);
    assert!(researcher.iter().all(|(_, why)| why == "listed"));
    // `exclude: [bash, write, edit]`: on the standard harness `apply_patch` shares their permission and the
    // terminal's `pty_*` follow `bash`; the experimental harness keeps `apply_patch`.
    let standard = names(&tools("support", "standard"));
    assert!(!standard.iter().any(|n| n == "apply_patch" || n.starts_with("pty_") || n == "bash"), "{standard:?}");
    let experimental = names(&tools("support", "experimental"));
    assert!(experimental.contains(&"apply_patch".to_string()), "{experimental:?}");
    assert!(!experimental.iter().any(|n| n.starts_with("pty_")), "{experimental:?}");
    assert!(tools("greeter", "standard").is_empty());
    let beeuni = tools("beeuni", "standard");
    assert!(beeuni.contains(&("pty_spawn".to_string(), "follows `bash`".to_string())), "{beeuni:?}");
}

/// Two findings at one place (two secrets one agent is not granted, both pointing at its `secrets:` key) are two
/// alerts in code scanning: their fingerprints differ, and stay the same from run to run. A project in a
/// subfolder is its own code-scanning category.
#[test]
fn sarif_fingerprints_are_unique_and_each_project_is_its_own_run() {
    let module = "export default { description: 'Weather.', parameters: { type: 'object', properties: {} }, \
                  async execute(args, context) { return context.env.KEY_A + context.env.KEY_B } }\n";
    let dir = common::project(&[
        (
            "apps/agent/beeuni.yaml",
            "tools:\n  weather: tools/weather.ts\nagents:\n  beeuni:\n    secrets: [KEY_A, KEY_B]\n  support:\n    secrets: []\n",
        ),
        ("apps/agent/tools/weather.ts", module),
    ]);
    common::git(dir.path(), &["init", "-q"]);
    common::git(dir.path(), &["add", "-A"]);
    common::git(dir.path(), &["commit", "-q", "-m", "two secrets"]);
    let run = run_in(dir.path(), &["--format", "sarif", "apps/agent"]);
    let sarif: Value = serde_json::from_str(&run.stdout).unwrap();
    let run0 = &sarif["runs"][0];
    assert_eq!(run0["automationDetails"]["id"], "beeuni-lint/apps/agent/");
    let results = run0["results"].as_array().unwrap();
    let secrets: Vec<&Value> = results.iter().filter(|r| r["ruleId"] == "secret-not-granted").collect();
    assert_eq!(secrets.len(), 2, "{results:#?}");
    let lines: Vec<&Value> =
        secrets.iter().map(|r| &r["locations"][0]["physicalLocation"]["region"]["startLine"]).collect();
    assert_eq!(lines[0], lines[1], "both at the `secrets:` key");
    let prints: Vec<&Value> = secrets.iter().map(|r| &r["partialFingerprints"]["beeuniLint/v1"]).collect();
    assert_ne!(prints[0], prints[1]);
    assert_eq!(run_in(dir.path(), &["--format", "sarif", "apps/agent"]).stdout, run.stdout);
}
