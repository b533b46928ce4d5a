//! Hostile inputs: the manifest graph's bytes, and the rules' own work over what fits in them. The YAML tree and
//! the model cost some 40 bytes of memory a byte of manifest, so the graph holds at most 2 MiB of YAML; within
//! that, a repository can still declare a hundred thousand tools or agents, and each rule must do little for
//! each of them (the report is capped, the work before the cap is not).

use crate::support::*;
use serde_json::Value;

/// Bytes of YAML the manifest graph holds at most (the README's "Limits").
const GRAPH_BYTES: usize = 2 * 1024 * 1024;

fn of_rule<'r>(report: &'r Value, rule: &str) -> Vec<&'r Value> {
    report["diagnostics"].as_array().expect("diagnostics").iter().filter(|d| d["rule"] == rule).collect()
}

/// Rule, path, line and message of a finding.
fn assert_at(finding: &Value, rule: &str, path: &str, line: u64, message: &str) {
    assert_eq!(
        (finding["rule"].as_str(), finding["path"].as_str(), finding["line"].as_u64(), finding["message"].as_str()),
        (Some(rule), Some(path), Some(line), Some(message)),
        "{finding:#}"
    );
}

/// A root manifest importing `files` (`m/f0.yaml` …, given by their contents), with the five hosted tools, one
/// agent and the module `t.ts`; which of them, in graph order, is the first past [`GRAPH_BYTES`], and the bytes
/// the graph holds before it.
fn importing(files: &[String]) -> (Sandbox, Option<(usize, usize)>) {
    let listed: String = (0..files.len()).map(|i| format!("  - m/f{i}.yaml\n")).collect();
    let root = format!("imports:\n{listed}{MANIFEST}");
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", &root).file("t.ts", MODULE);
    let mut held = root.len();
    let mut first_past = None;
    for (i, text) in files.iter().enumerate() {
        sandbox.file(&format!("m/f{i}.yaml"), text);
        if first_past.is_none() && held + text.len() > GRAPH_BYTES {
            first_past = Some((i, held));
        }
        held += text.len();
    }
    sandbox.commit("graph");
    (sandbox, first_past)
}

/// An 8 MB `beeuni.yaml` of 300,000 tool declarations (3.6 s and 262 MiB in a debug build, with no finding, before
/// the limit): not parsed, one `yaml-syntax` on its first line, nothing in it checked (its agent lists an unknown
/// tool: no finding).
#[test]
fn a_root_manifest_past_the_graph_bytes_is_not_parsed() {
    let declarations: String = (0..300_000).map(|i| format!("  t{i}: t.ts\n")).collect();
    let root = MANIFEST.replacen("agents:", &format!("{declarations}agents:"), 1) + "  other:\n    tools: [nope]\n";
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", &root).file("t.ts", MODULE).commit("large");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("an 8 MB beeuni.yaml");
    sandbox.assert_untouched("an 8 MB beeuni.yaml", &outcome);
    let report = outcome.json();
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1), "{report:#}");
    let message = format!(
        "this file is {} bytes, more than the 2097152 bytes (2 MiB) of YAML beeuni-lint loads for a manifest graph: nothing in it was checked",
        root.len()
    );
    assert_at(&report["diagnostics"][0], "yaml-syntax", "beeuni.yaml", 1, &message);
    assert_eq!(
        report["diagnostics"][0]["help"],
        "a project's manifests hold a few hundred kilobytes of YAML: shorten it"
    );
}

/// Ten imported files of some 300 KB each, each declaring a missing module last: the graph takes them until the
/// next would pass 2 MiB; one `import-path` on that import, and no file from it on is checked (no
/// `module-missing` in them). The same from the index (`--staged`: the files parsed ahead are git blobs).
#[test]
fn an_import_past_the_graph_bytes_is_not_followed() {
    let files: Vec<String> = (0..10)
        .map(|i| {
            let declarations: String = (0..20_000).map(|j| format!("  t{i}_{j}: t.ts\n")).collect();
            format!("tools:\n{declarations}  missing{i}: m{i}.ts\n")
        })
        .collect();
    let (sandbox, first_past) = importing(&files);
    let (past, held) = first_past.expect("the files pass the limit");
    for args in [&["--format", "json", "."][..], &["--format", "json", "--staged", "."]] {
        let what = format!("3 MB of imported YAML, {args:?}");
        let outcome = sandbox.run(args);
        outcome.assert_bounded(&what);
        let report = outcome.json();
        let found = of_rule(&report, "import-path");
        assert_eq!(found.len(), 1, "{what}: {report:#}");
        let message = format!(
            "import `m/f{past}.yaml` is not followed: its {} bytes would take the graph's YAML past 2097152 bytes (2 MiB), as much as beeuni-lint loads (it holds {held}); no file past this limit is checked",
            files[past].len()
        );
        assert_at(found[0], "import-path", "beeuni.yaml", 2 + past as u64, &message);
        assert_eq!(found[0]["help"], "a project's manifests hold a few hundred kilobytes of YAML: shorten them");
        let missing: Vec<&str> = of_rule(&report, "module-missing").iter().filter_map(|d| d["path"].as_str()).collect();
        let expected: Vec<String> = (0..past).map(|i| format!("m/f{i}.yaml")).collect();
        assert_eq!(missing, expected, "{what}: only the files within the limit are checked");
    }
}
