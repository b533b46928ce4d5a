//! YAML the parser accepts but YAML 1.2 forbids (yaml-test-suite 9C9N, DK95 case 01, QB6E: continuation lines
//! of a flow collection or a quoted scalar indented no more than their block) is `yaml-syntax`; a file of only
//! `---` is an empty manifest. Our own inputs, in the shapes of those cases.

use crate::common;
use crate::common::{assert_findings, json_in, project, run_in};

fn lint(manifest: &str) -> serde_json::Value {
    let dir = project(&[("beeuni.yaml", manifest)]);
    json_in(dir.path(), &[]).1
}

/// Where the one `yaml-syntax` finding of a case is: line, column, message.
type Finding = (u64, u64, &'static str);

/// Each case: the manifest, and its finding (`None`: clean).
const CASES: &[(&str, Option<Finding>)] = &[
    // A flow sequence continued at column 1, inside an agent.
    (
        "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read,\ngrep]\n",
        Some((
            6,
            1,
            "this line continues a flow collection but is indented by 0 spaces: YAML needs more than 4, the indentation of the block it is in",
        )),
    ),
    // The shape of 9C9N at the top level.
    (
        "---\nimports: [a.yaml,\nb.yaml]\n",
        Some((
            3,
            1,
            "this line continues a flow collection but is indented by 0 spaces: YAML needs more than 0, the indentation of the block it is in",
        )),
    ),
    // The shape of QB6E: a quoted scalar continued too little.
    (
        "tools:\n  web_search: \"beeuni:\n  web_search\"\n",
        Some((
            3,
            3,
            "this line continues a quoted scalar but is indented by 2 spaces: YAML needs more than 2, the indentation of the block it is in",
        )),
    ),
    // The shape of DK95 case 01: a tab is not indentation.
    (
        "agents:\n  a:\n    secrets: \"API\n\tKEY\"\n",
        Some((
            4,
            2,
            "this line of a quoted scalar is indented with a tab; indent it with more than 4 spaces (tabs are not indentation in YAML)",
        )),
    ),
    // Indented enough is fine.
    ("tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read,\n      grep]\n", None),
];

#[test]
fn continuation_lines_indented_too_little_are_yaml_syntax() {
    for (manifest, expected) in CASES {
        let report = lint(manifest);
        match expected {
            Some((line, column, message)) => {
                assert_findings(&report, &[("yaml-syntax", "error", "beeuni.yaml", *line, *column, message)])
            }
            None => assert_findings(&report, &[]),
        }
    }
}

#[test]
fn a_file_of_only_a_document_marker_is_an_empty_manifest() {
    for text in ["---\n", "---", "--- # nothing yet\n"] {
        let dir = project(&[("beeuni.yaml", text)]);
        let (code, report) = json_in(dir.path(), &[]);
        common::assert_clean(text, code, &report);
        let run = run_in(dir.path(), &["ls", "--json", "."]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let listing: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(listing["tools"].as_array().unwrap().len(), 5);
    }
}
