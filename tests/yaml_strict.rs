//! YAML the parser accepts but YAML 1.2 forbids (yaml-test-suite 9C9N, DK95 case 01, QB6E: continuation lines
//! of a flow collection or a quoted scalar indented no more than their block) is `yaml-syntax`; a file of only
//! `---` is an empty manifest. Our own inputs, in the shapes of those cases.

mod common;

use common::{assert_findings, json_in, project, run_in};

fn lint(manifest: &str) -> serde_json::Value {
    let dir = project(&[("beeuni.yaml", manifest)]);
    json_in(dir.path(), &[]).1
}

#[test]
fn a_flow_sequence_continued_at_column_one_is_yaml_syntax() {
    let report = lint("tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read,\ngrep]\n");
    assert_findings(
        &report,
        &[(
            "yaml-syntax",
            "error",
            "beeuni.yaml",
            6,
            1,
            "this line continues a flow collection but is indented by 0 spaces: YAML needs more than 4, the indentation of the block it is in",
        )],
    );
    // The shape of 9C9N at the top level.
    let report = lint("---\nimports: [a.yaml,\nb.yaml]\n");
    assert_findings(
        &report,
        &[(
            "yaml-syntax",
            "error",
            "beeuni.yaml",
            3,
            1,
            "this line continues a flow collection but is indented by 0 spaces: YAML needs more than 0, the indentation of the block it is in",
        )],
    );
}

#[test]
fn a_quoted_scalar_continued_too_little_is_yaml_syntax() {
    // The shape of QB6E.
    let report = lint("tools:\n  web_search: \"beeuni:\n  web_search\"\n");
    assert_findings(
        &report,
        &[(
            "yaml-syntax",
            "error",
            "beeuni.yaml",
            3,
            3,
            "this line continues a quoted scalar but is indented by 2 spaces: YAML needs more than 2, the indentation of the block it is in",
        )],
    );
    // The shape of DK95 case 01: a tab is not indentation.
    let report = lint("agents:\n  a:\n    secrets: \"API\n\tKEY\"\n");
    assert_findings(
        &report,
        &[(
            "yaml-syntax",
            "error",
            "beeuni.yaml",
            4,
            2,
            "this line of a quoted scalar is indented with a tab; indent it with more than 4 spaces (tabs are not indentation in YAML)",
        )],
    );
}

#[test]
fn indented_enough_is_fine() {
    let report = lint("tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read,\n      grep]\n");
    assert_findings(&report, &[]);
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
