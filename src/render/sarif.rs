//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning, as docs/spec/interface.md documents.
//!
//! One run a project; the driver lists every rule of the registry (and, after them, any
//! rule id a finding has that the registry lacks, so that `ruleIndex` always
//! resolves). Columns are UTF-16 code units (`columnKind: utf16CodeUnits`),
//! URIs are repo-relative against `%SRCROOT%`. GitHub's limits are kept:
//! results and locations past them are cut, and a notification says so.

mod descriptor;
pub(crate) mod fingerprint;
mod fixes;
mod location;
#[cfg(test)]
mod validator;

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};

use serde_json::Value;
use serde_sarif::sarif;

use self::descriptor::{descriptor, pascal_case};
use self::fingerprint::Fingerprints;
use self::fixes::{fix, safety};
use self::location::location;
use crate::diagnostic::{Diagnostic, Severity};
use crate::report::Report;
use crate::rules::RULES;

/// The project's home (its repository); each rule's `helpUri` is its page on the documentation site.
pub const INFORMATION_URI: &str = "https://github.com/beeuni/beeuni-lint";
const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const SRCROOT: &str = "%SRCROOT%";
/// The key of our own entry in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "beeuniLint/v1";
/// GitHub code scanning's limits.
const MAX_RESULTS: usize = 25_000;
const MAX_LOCATIONS: usize = 1_000;
/// Runs a file: code scanning rejects a SARIF file with more.
pub const MAX_RUNS: usize = 20;

/// The report as one SARIF log (pretty-printed JSON, ending in a newline), within GitHub's limits.
pub fn render(report: &Report, version: &str) -> String {
    render_within(report, version, MAX_RESULTS, MAX_LOCATIONS)
}

/// The reports of several projects as one SARIF log: a run each, each with its own `automationDetails.id`
/// (so its own code-scanning category), each within GitHub's limits. `category` (`--sarif-category`) replaces the
/// default category: a lone run's is `category`, each of several runs' `category/<project>`.
pub fn render_runs(reports: &[Report], version: &str, category: Option<&str>) -> String {
    let category = category.map(|category| category.trim_end_matches('/')).filter(|category| !category.is_empty());
    let several = reports.len() > 1;
    let runs = reports.iter().map(|report| {
        let mut one = run(report, version, MAX_RESULTS, MAX_LOCATIONS);
        if let Some(category) = category {
            let id = match report.sources.prefix() {
                project if several && !project.is_empty() => format!("{category}/{project}/"),
                _ => format!("{category}/"),
            };
            one.automation_details = Some(sarif::RunAutomationDetails { id: Some(id), ..Default::default() });
        }
        one
    });
    log(runs.collect())
}

/// [`render`] with the limits given: the tests cut at small ones.
fn render_within(report: &Report, version: &str, max_results: usize, max_locations: usize) -> String {
    log(vec![run(report, version, max_results, max_locations)])
}

fn log(runs: Vec<sarif::Run>) -> String {
    let log = sarif::Sarif::builder().schema(SCHEMA_URI).version(Value::from("2.1.0")).runs(runs).build();
    match serde_json::to_string_pretty(&log) {
        Ok(text) => crate::source::escape::json(text + "\n"),
        // Unreachable for these plain structs; still answer with a valid (empty) log.
        Err(_) => "{\n  \"version\": \"2.1.0\",\n  \"runs\": []\n}\n".into(),
    }
}

/// The report as one run.
fn run(report: &Report, version: &str, max_results: usize, max_locations: usize) -> sarif::Run {
    let kept = kept(report, max_results);
    let mut rules: Vec<sarif::ReportingDescriptor> = RULES.iter().map(|rule| descriptor(rule)).collect();
    let mut index: HashMap<&str, usize> = RULES.iter().enumerate().map(|(i, rule)| (rule.id, i)).collect();
    for d in kept.iter().map(|&i| &report.diagnostics[i]) {
        if !index.contains_key(d.rule) {
            index.insert(d.rule, rules.len());
            rules.push(sarif::ReportingDescriptor::builder().id(d.rule).name(pascal_case(d.rule)).build());
        }
    }
    let mut fingerprints = Fingerprints::default();
    let max_related = max_locations.saturating_sub(1);
    let results: Vec<sarif::Result> = kept
        .iter()
        .map(|&i| {
            result(report, &report.diagnostics[i], index[report.diagnostics[i].rule], max_related, &mut fingerprints)
        })
        .collect();
    let mut notes = Vec::new();
    if kept.len() < report.diagnostics.len() {
        let (kept, all) = (kept.len(), report.diagnostics.len());
        let text =
            format!("{kept} of {all} results kept, the most severe: GitHub code scanning takes {max_results} a run");
        notes.push(notification("results-cut", &text));
    }
    let cut = kept.iter().filter(|&&i| report.diagnostics[i].related.len() > max_related).count();
    if cut > 0 {
        let text =
            format!("related locations cut on {cut} of the results: GitHub takes {max_locations} locations a result");
        notes.push(notification("locations-cut", &text));
    }
    let mut invocation = sarif::Invocation::builder().execution_successful(true).build();
    invocation.tool_execution_notifications = (!notes.is_empty()).then_some(notes);
    let driver = sarif::ToolComponent::builder()
        .name("beeuni-lint")
        .version(version)
        .semantic_version(version)
        .information_uri(INFORMATION_URI)
        .rules(rules)
        .build();
    let root = sarif::ArtifactLocation { description: Some(message("The repository's root")), ..Default::default() };
    sarif::Run::builder()
        .tool(sarif::Tool::builder().driver(driver).build())
        .invocations(vec![invocation])
        .original_uri_base_ids(BTreeMap::from([(SRCROOT.to_string(), root)]))
        .automation_details(sarif::RunAutomationDetails { id: Some(automation_id(report)), ..Default::default() })
        .column_kind(Value::from("utf16CodeUnits"))
        .results(results)
        .build()
}

/// The run's identity in code scanning, `beeuni-lint/<project>/` (`beeuni-lint/` at the repository root): the
/// category is all before the last `/`, so each project of a monorepo is its own category and one project's
/// upload does not close the alerts of another's. (`upload-sarif` gives its `category` only to a run without an
/// id, so this one stands.)
fn automation_id(report: &Report) -> String {
    match report.sources.prefix() {
        "" => "beeuni-lint/".into(),
        project => format!("beeuni-lint/{project}/"),
    }
}

/// One finding as a result: its message with the help appended, its locations, its fingerprint, and its fix (or,
/// for a fix that deletes files, those files in its properties).
fn result(
    report: &Report,
    d: &Diagnostic,
    rule_index: usize,
    max_related: usize,
    fingerprints: &mut Fingerprints,
) -> sarif::Result {
    let mut text = d.message.clone();
    if let Some(help) = d.help.as_deref().filter(|help| !help.is_empty()) {
        text.push_str(&format!("\nhelp: {help}"));
    }
    let mut result = sarif::Result::builder()
        .rule_id(d.rule)
        .rule_index(number(rule_index))
        .level(level(d.severity).1)
        .message(message(&text))
        .locations(vec![location(report, d.primary.file, d.primary.span, None, None)])
        .partial_fingerprints(BTreeMap::from([(FINGERPRINT_KEY.to_string(), fingerprints.of(report, d))]))
        .build();
    let related = d.related.iter().take(max_related).enumerate();
    let related: Vec<sarif::Location> =
        related.map(|(i, l)| location(report, l.file, l.span, l.message.as_deref(), Some(number(i + 1)))).collect();
    result.related_locations = (!related.is_empty()).then_some(related);
    // SARIF cannot delete a file: a fix only replaces regions of artifacts, and emptying a file is not deleting
    // it (an empty copy is still a file the harness loads, and still a copy). A fix that deletes stays out of
    // `fixes` (a part of it would be a different fix); the result's properties name the files it deletes.
    let fix = d.fix.as_ref();
    result.fixes = fix.filter(|f| !f.edits.is_empty() && f.deletes.is_empty()).map(|f| vec![self::fix(report, f)]);
    result.properties = fix.filter(|f| !f.deletes.is_empty()).map(|f| {
        let deletes: Vec<Value> =
            f.deletes.iter().map(|path| Value::from(report.sources.shown(path).as_str())).collect();
        let properties = BTreeMap::from([
            ("delete".to_string(), Value::from(deletes)),
            ("fixSafety".to_string(), Value::from(safety(f.safety).0)),
        ]);
        sarif::PropertyBag::builder().additional_properties(properties).build()
    });
    result
}

/// Indices of the findings to report: all of them, or the `max` most severe (ties in report order), in report order.
fn kept(report: &Report, max: usize) -> Vec<usize> {
    let mut kept: Vec<usize> = (0..report.diagnostics.len()).collect();
    if kept.len() > max {
        kept.sort_by_key(|&i| (Reverse(report.diagnostics[i].severity), i));
        kept.truncate(max);
        kept.sort_unstable();
    }
    kept
}

/// A severity as a SARIF level: `error`, `warning`, and `note` for info.
fn level(severity: Severity) -> (&'static str, sarif::ResultLevel) {
    match severity {
        Severity::Error => ("error", sarif::ResultLevel::Error),
        Severity::Warning => ("warning", sarif::ResultLevel::Warning),
        Severity::Info => ("note", sarif::ResultLevel::Note),
    }
}

fn number(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn message(text: &str) -> sarif::Message {
    sarif::Message { text: Some(text.to_string()), ..Default::default() }
}

fn notification(id: &str, text: &str) -> sarif::Notification {
    let descriptor = sarif::ReportingDescriptorReference { id: Some(id.to_string()), ..Default::default() };
    sarif::Notification::builder().descriptor(descriptor).level(Value::from("warning")).message(message(text)).build()
}

#[cfg(test)]
mod tests {
    use super::descriptor::{MAX_DESCRIPTION, section, truncate};
    use super::location::uri;
    use super::validator::parse;
    use super::*;
    use crate::diagnostic::{Fix, Safety};
    use crate::render::fixture;
    use serde_json::json;

    #[test]
    fn each_project_is_its_own_category() {
        let id = |prefix: &str| {
            let report = Report { sources: crate::source::Sources::with_prefix(prefix), diagnostics: vec![], files: 0 };
            parse(&render(&report, "1.2.3"))["runs"][0]["automationDetails"]["id"].clone()
        };
        assert_eq!(id(""), json!("beeuni-lint/"));
        assert_eq!(id("apps/agent"), json!("beeuni-lint/apps/agent/"));
        assert_ne!(id("apps/a"), id("apps/b"));
        let project =
            |prefix| Report { sources: crate::source::Sources::with_prefix(prefix), diagnostics: vec![], files: 0 };
        let log = parse(&render_runs(&[project("apps/a"), project("apps/b")], "1.2.3", None));
        let ids: Vec<&Value> =
            log["runs"].as_array().unwrap().iter().map(|run| &run["automationDetails"]["id"]).collect();
        assert_eq!(ids, [&json!("beeuni-lint/apps/a/"), &json!("beeuni-lint/apps/b/")]);
    }

    #[test]
    fn a_category_given_replaces_the_default_one() {
        let project =
            |prefix| Report { sources: crate::source::Sources::with_prefix(prefix), diagnostics: vec![], files: 0 };
        let ids = |reports: &[Report], category| {
            let log = parse(&render_runs(reports, "1.2.3", category));
            log["runs"].as_array().unwrap().iter().map(|run| run["automationDetails"]["id"].clone()).collect::<Vec<_>>()
        };
        assert_eq!(ids(&[project("apps/shop")], Some("agents")), [json!("agents/")]);
        assert_eq!(ids(&[project("")], Some("agents/")), [json!("agents/")]);
        assert_eq!(
            ids(&[project("apps/a"), project("apps/b")], Some("agents")),
            [json!("agents/apps/a/"), json!("agents/apps/b/")]
        );
        assert_eq!(ids(&[project("apps/shop")], Some("")), [json!("beeuni-lint/apps/shop/")]);
    }

    #[test]
    fn run_and_driver() {
        let text = render(&fixture::report(), "1.2.3");
        assert_eq!(text, render(&fixture::report(), "1.2.3"));
        let log = parse(&text);
        assert_eq!(
            (&log["$schema"], &log["version"], log["runs"].as_array().unwrap().len()),
            (&json!(SCHEMA_URI), &json!("2.1.0"), 1)
        );
        let run = &log["runs"][0];
        assert_eq!(run["columnKind"], "utf16CodeUnits");
        assert_eq!(run["automationDetails"], json!({"id": "beeuni-lint/"}));
        assert_eq!(run["originalUriBaseIds"], json!({"%SRCROOT%": {"description": {"text": "The repository's root"}}}));
        assert_eq!(run["invocations"], json!([{"executionSuccessful": true}]));
        let driver = &run["tool"]["driver"];
        assert_eq!((&driver["name"], &driver["informationUri"]), (&json!("beeuni-lint"), &json!(INFORMATION_URI)));
        assert_eq!((&driver["version"], &driver["semanticVersion"]), (&json!("1.2.3"), &json!("1.2.3")));
        // Every rule of the registry in its order, then the two ids of the fixture the registry lacks.
        let rules = driver["rules"].as_array().unwrap();
        assert_eq!(rules.len(), RULES.len() + 2);
        for (rule, r) in RULES.iter().zip(rules) {
            assert_eq!((&r["id"], &r["name"]), (&json!(rule.id), &json!(pascal_case(rule.id))));
            assert_eq!(r["shortDescription"]["text"], truncate(&rule.summary()));
            let full = r["fullDescription"]["text"].as_str().unwrap();
            assert!(!full.is_empty() && full.chars().count() <= MAX_DESCRIPTION && !full.contains("##"), "{full}");
            assert_eq!(r["help"], json!({"text": rule.docs(), "markdown": rule.docs()}));
            assert_eq!(r["helpUri"], crate::rules::page_url(rule));
            assert_eq!(r["defaultConfiguration"], json!({"level": level(rule.severity).0}));
            assert_eq!(r["properties"]["tags"], json!(["beeuni", rule.category().as_str()]));
        }
        assert_eq!(
            rules[RULES.len()..],
            [json!({"id": "odd-name", "name": "OddName"}), json!({"id": "empty-value", "name": "EmptyValue"})]
        );
    }

    #[test]
    fn results_field_by_field() {
        let log = parse(&render(&fixture::report(), "0.1.0"));
        let mut results = log["runs"][0]["results"].as_array().unwrap().clone();
        let prints: Vec<Value> =
            results.iter_mut().map(|r| r.as_object_mut().unwrap().remove("partialFingerprints").unwrap()).collect();
        assert!(prints.iter().all(|p| p[FINGERPRINT_KEY].as_str().unwrap().len() == 16) && prints[0] != prints[1]);
        let file = |uri: &str| json!({"uri": uri, "uriBaseId": "%SRCROOT%"});
        let region =
            |line, start, end| json!({"startLine": line, "startColumn": start, "endLine": line, "endColumn": end});
        let at = |uri, line, start, end| json!({"artifactLocation": file(uri), "region": region(line, start, end)});
        // UTF-16 columns: `é` counts 1, `😀` counts 2.
        assert_eq!(
            results[0],
            json!({
                "ruleId": "odd-name", "ruleIndex": RULES.len(), "level": "warning",
                "message": {"text": "the name ends in `agent`"},
                "locations": [{"physicalLocation": at("beeuni.yaml", 1, 15, 20)}],
                "relatedLocations": [
                    {"id": 1, "message": {"text": "tools follow"}, "physicalLocation": at("beeuni.yaml", 2, 1, 6)}
                ],
            })
        );
        let index = RULES.iter().position(|r| r.id == "unknown-excluded-tool").unwrap();
        let mut deleted = region(3, 13, 16);
        deleted["byteOffset"] = json!(fixture::YAML.find("bsh").unwrap());
        deleted["byteLength"] = json!(3);
        assert_eq!(
            results[1],
            json!({
                "ruleId": "unknown-excluded-tool", "ruleIndex": index, "level": "error",
                "message": {"text": "unknown tool `bsh` in `exclude`\nhelp: did you mean `bash`?"},
                "locations": [{"physicalLocation": at("beeuni.yaml", 3, 13, 16)}],
                "relatedLocations": [{
                    "id": 1, "message": {"text": "`bash` is defined here"},
                    "physicalLocation": at("tools/bash.ts", 1, 14, 18)
                }],
                "fixes": [{
                    "description": {"text": "Apply the safe fix (`beeuni-lint --fix`)"},
                    "properties": {"safety": "safe"},
                    "artifactChanges": [{"artifactLocation": file("beeuni.yaml"),
                        "replacements": [{"deletedRegion": deleted, "insertedContent": {"text": "bash"}}]}],
                }],
            })
        );
        // Zero-width; no related locations, no fix.
        assert_eq!(
            results[2],
            json!({
                "ruleId": "empty-value", "ruleIndex": RULES.len() + 1, "level": "note",
                "message": {"text": "`model` has no value"},
                "locations": [{"physicalLocation": at("beeuni.yaml", 4, 7, 7)}],
            })
        );
    }

    #[test]
    fn limits_cut_and_say_so() {
        let mut report = fixture::report();
        report.diagnostics[0].related = vec![report.diagnostics[0].related[0].clone(); 5];
        let log = parse(&render_within(&report, "0.1.0", 2, 3));
        let run = &log["runs"][0];
        // The two most severe findings stay, in report order; related locations are cut to fit 3 a result.
        let ids: Vec<&Value> = run["results"].as_array().unwrap().iter().map(|r| &r["ruleId"]).collect();
        assert_eq!(ids, ["odd-name", "unknown-excluded-tool"]);
        assert_eq!(run["results"][0]["relatedLocations"].as_array().unwrap().len(), 2);
        let notes = &run["invocations"][0]["toolExecutionNotifications"];
        let texts = [
            "2 of 3 results kept, the most severe: GitHub code scanning takes 2 a run",
            "related locations cut on 1 of the results: GitHub takes 3 locations a result",
        ];
        for (i, (id, text)) in ["results-cut", "locations-cut"].into_iter().zip(texts).enumerate() {
            assert_eq!(notes[i], json!({"descriptor": {"id": id}, "level": "warning", "message": {"text": text}}));
        }
        assert_eq!(truncate(&"é".repeat(2000)), "é".repeat(MAX_DESCRIPTION - 1) + "…");
        assert_eq!(truncate(&"é".repeat(MAX_DESCRIPTION)), "é".repeat(MAX_DESCRIPTION));
    }

    /// A fix that deletes a file has no SARIF form: no `fixes`, and the result's properties name the file.
    #[test]
    fn a_fix_that_deletes_a_file_is_named_in_the_properties() {
        let mut report = fixture::report();
        let mut mixed = Fix::delete(Safety::Unsafe, "tools/web_search.ts".into());
        mixed.edits = report.diagnostics[1].fix.clone().unwrap().edits;
        report.diagnostics[0].fix = Some(Fix::delete(Safety::Unsafe, "tools/web_search.ts".into()));
        report.diagnostics[2].fix = Some(mixed);
        let log = parse(&render(&report, "0.1.0"));
        let results = &log["runs"][0]["results"];
        for i in [0, 2] {
            assert_eq!(results[i].get("fixes"), None, "{:#}", results[i]);
            let properties = json!({"delete": ["tools/web_search.ts"], "fixSafety": "unsafe"});
            assert_eq!(results[i]["properties"], properties, "{:#}", results[i]);
        }
        assert_eq!(results[1]["fixes"].as_array().map(Vec::len), Some(1));
        assert_eq!(results[1].get("properties"), None);
    }

    #[test]
    fn helpers_and_edge_spans() {
        assert_eq!(pascal_case("module-fetch-signal"), "ModuleFetchSignal");
        assert_eq!(uri("dir/é #1.yaml"), "dir/%C3%A9%20%231.yaml");
        let docs = "One line.\n\n## What it checks\nA wrapped\nline.\n\nMore.\n\n## Why\nBecause.\n";
        assert_eq!(section(docs, "What it checks").as_deref(), Some("A wrapped line.\n\nMore."));
        assert_eq!(section(docs, "Fix"), None);
        let report = fixture::edge_report();
        let log = parse(&render(&report, "0.1.0"));
        assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), report.diagnostics.len());
    }
}
