//! A property test: random manifests (from a small seeded generator: block and flow styles, quoting,
//! comments, blank lines, CRLF, a BOM, and findings of every fixable manifest rule) fixed with
//! `--unsafe-fixes` keep every line outside the edited ranges, parse, lose their fixed findings, and do not
//! change on a second run. And every edit the views offer (JSON `fix`, SARIF `fixes`, the language server's
//! "apply fix" and "fix all" code actions), applied alone to manifests in every layout (block and flow, plain and
//! quoted, LF, CRLF, lone CR, a BOM, block scalars, comments): the file still parses, nothing outside the named
//! span changes (every scalar before and after it keeps its value), the three views give the same bytes, and
//! linting the result does not offer the same edit again.

use crate::common::project;
use crate::fix_support::{fix_and_check, lint};
use crate::lsp_support;
use crate::lsp_support::{Client, uri};
use serde_json::{Value, json};

/// xorshift64*: a few lines, and the same manifests on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const BEEUNI: [&str; 5] = ["web_search", "image_search", "scrape_webpage", "memory", "show"];
/// Names an agent list may hold: real ones, near misses with one nearest tool, and Beeuni tools.
const NAMES: [&str; 12] =
    ["read", "grpe", "bahs", "write", "raed", "glob", "show", "memory", "web_search", "edit", "taks", "bash"];

fn quoted(rng: &mut Rng, text: &str) -> String {
    match rng.below(4) {
        0 => format!("'{text}'"),
        1 => format!("\"{text}\""),
        _ => text.to_string(),
    }
}

fn comment(rng: &mut Rng) -> String {
    if rng.chance(30) { format!("  # note {}", rng.below(100)) } else { String::new() }
}

fn manifest(rng: &mut Rng) -> String {
    let mut out = String::new();
    if rng.chance(30) {
        out.push_str("# a Beeuni project\n");
    }
    let tools: Vec<&str> = BEEUNI.iter().copied().filter(|_| rng.chance(40)).collect();
    let value = |rng: &mut Rng, name: &str| match rng.below(5) {
        0 => {
            let other = BEEUNI[rng.below(5)];
            quoted(rng, &format!("beeuni:{other}"))
        }
        _ => quoted(rng, &format!("beeuni:{name}")),
    };
    if rng.chance(20) {
        let entries: Vec<String> = tools.iter().map(|t| format!("{t}: {}", value(rng, t))).collect();
        out.push_str(&format!("tools: {{{}}}{}\n", entries.join(", "), comment(rng)));
    } else if !tools.is_empty() || rng.chance(50) {
        out.push_str(&format!("tools:{}\n", comment(rng)));
        for t in &tools {
            if rng.chance(15) {
                out.push('\n');
            }
            out.push_str(&format!("  {t}: {}{}\n", value(rng, t), comment(rng)));
        }
    }
    out.push_str("agents:\n");
    for agent in 0..1 + rng.below(3) {
        out.push_str(&format!("  agent{agent}:{}\n", comment(rng)));
        let names: Vec<String> = (0..1 + rng.below(3)).map(|_| rng.pick(&NAMES).to_string()).collect();
        let mut unique = names.clone();
        unique.dedup();
        match rng.below(6) {
            0 => out.push_str(&format!(
                "    tools: [{}]\n",
                names.iter().map(|n| quoted(rng, n)).collect::<Vec<_>>().join(", ")
            )),
            1 => {
                out.push_str("    tools:\n");
                for n in &names {
                    out.push_str(&format!("      - {}{}\n", quoted(rng, n), comment(rng)));
                }
            }
            2 => out.push_str(&format!("    tools: {{exclude: [{}]}}\n", names.join(", "))),
            3 => {
                out.push_str("    tools:\n      exclude:\n");
                for n in &names {
                    out.push_str(&format!("        - {n}{}\n", comment(rng)));
                }
            }
            4 => {
                let mut seen = std::collections::HashSet::new();
                let keys: Vec<&String> = names.iter().filter(|n| seen.insert(n.as_str())).collect();
                if rng.chance(50) {
                    let entries: Vec<String> = keys.iter().map(|k| format!("{k}: false")).collect();
                    out.push_str(&format!("    tools: {{{}}}\n", entries.join(", ")));
                } else {
                    out.push_str("    tools:\n");
                    for k in keys {
                        out.push_str(&format!("      {k}: false{}\n", comment(rng)));
                    }
                }
            }
            _ => out.push_str(&format!("    tools: {}\n", rng.pick(&["All", "NONE", "all", "'*'"]))),
        }
    }
    if rng.chance(30) {
        out = out.replace('\n', "\r\n");
    }
    if rng.chance(20) {
        out.insert(0, '\u{feff}');
    }
    out
}

#[test]
fn random_manifests_keep_every_byte_outside_the_edits() {
    let mut rng = Rng(0x5eed_beef_cafe_f00d);
    let mut fixed = 0;
    for case in 0..40 {
        let text = manifest(&mut rng);
        let dir = project(&[("beeuni.yaml", &text)]);
        let before = lint(dir.path());
        assert!(
            !before["diagnostics"].as_array().unwrap().iter().any(|d| d["rule"] == "yaml-syntax"),
            "case {case}: the generator wrote invalid YAML:\n{text}"
        );
        let diff = fix_and_check(dir.path());
        fixed += usize::from(!diff.is_empty());
    }
    assert!(fixed >= 30, "only {fixed} of 40 random manifests had something to fix");
}

/// A manifest of [`manifest`] in another layout: some `beeuni:` values as block scalars (`|-`, `>`, `|`, `>-`,
/// on the next line), and LF, CRLF or lone-CR line breaks, with or without a BOM.
fn layout(rng: &mut Rng) -> String {
    let text = manifest(rng).replace('\u{feff}', "").replace("\r\n", "\n");
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        match line.split_once(": ") {
            Some((key, value)) if key.starts_with("  ") && !key.starts_with("   ") && value.contains("beeuni:") => {
                if rng.chance(50) {
                    let header = rng.pick(&["|-", ">", "|", ">-"]);
                    let value = value.split("  #").next().unwrap_or(value).trim_end();
                    out.push_str(&format!("{key}: {header}\n    {value}\n"));
                    continue;
                }
                out.push_str(line);
            }
            _ => out.push_str(line),
        }
    }
    let out = match rng.below(3) {
        0 => out.replace('\n', "\r\n"),
        1 => out.replace('\n', "\r"),
        _ => out,
    };
    if rng.chance(25) { format!("\u{feff}{out}") } else { out }
}

/// `text` with each edit's content in place of its byte range, checked: it parses, and every scalar no edit
/// touches is still there, shifted by the edits before it, with its value.
fn applied(text: &str, edits: &[(usize, usize, String)], what: &str) -> String {
    let mut sorted: Vec<&(usize, usize, String)> = edits.iter().collect();
    sorted.sort_by_key(|(start, end, _)| (*start, *end));
    let mut out = String::new();
    let mut at = 0;
    for (start, end, content) in &sorted {
        assert!(*start >= at && *end <= text.len(), "{what}: edits overlap or fall outside the file");
        out.push_str(&text[at..*start]);
        out.push_str(content);
        at = *end;
    }
    out.push_str(&text[at..]);
    let doc =
        beeuni_lint::yaml::parse(&out).unwrap_or_else(|e| panic!("{what}: no longer YAML ({}):\n{out:?}", e.message));
    let old = beeuni_lint::yaml::parse(text).expect("the generator writes YAML");
    assert!(doc.duplicate_keys.len() <= old.duplicate_keys.len(), "{what}: a key is repeated:\n{out:?}");
    let scalars = |doc: &beeuni_lint::yaml::Document| -> Vec<(usize, usize, String)> {
        doc.nodes
            .iter()
            .filter(|n| !n.span.is_empty())
            .filter_map(|n| match &n.value {
                beeuni_lint::yaml::Value::Scalar { text, .. } => Some((n.span.start(), n.span.end(), text.to_string())),
                _ => None,
            })
            .collect()
    };
    let shift = |offset: usize| -> usize {
        let moved: isize = sorted
            .iter()
            .filter(|(_, end, _)| *end <= offset)
            .map(|(start, end, content)| content.len() as isize - (end - start) as isize)
            .sum();
        offset.checked_add_signed(moved).unwrap()
    };
    let now = scalars(&doc);
    for (start, end, value) in scalars(&old) {
        if sorted.iter().any(|(s, e, _)| start <= *e && *s <= end) {
            continue;
        }
        let kept = now.iter().any(|(s, e, v)| (*s, *e) == (shift(start), shift(end)) && *v == value);
        assert!(kept, "{what}: `{value}` at byte {start} changed, outside the edit:\n{text:?}\n{out:?}");
    }
    out
}

/// Each JSON fix with edits (one file, one edit each in these manifests), applied: (rule, line, start, end,
/// content, the fixed text).
fn json_fixes(report: &Value, text: &str) -> Vec<(String, u64, usize, usize, String, String)> {
    let mut out = Vec::new();
    for d in report["diagnostics"].as_array().unwrap() {
        let Some(edits) = d["fix"]["edits"].as_array() else { continue };
        let rule = d["rule"].as_str().unwrap().to_string();
        let parts: Vec<(usize, usize, String)> = edits
            .iter()
            .map(|e| {
                assert_eq!(e["path"], "beeuni.yaml");
                let (start, end) = (e["start"].as_u64().unwrap() as usize, e["end"].as_u64().unwrap() as usize);
                (start, end, e["content"].as_str().unwrap().to_string())
            })
            .collect();
        let fixed = applied(text, &parts, &format!("JSON {rule}"));
        let first = &edits[0];
        let (start, end) = (first["start"].as_u64().unwrap() as usize, first["end"].as_u64().unwrap() as usize);
        let content = first["content"].as_str().unwrap().to_string();
        out.push((rule, d["line"].as_u64().unwrap(), start, end, content, fixed));
    }
    out
}

/// The byte offset of a SARIF line and UTF-16 column (1-based), lines ending at LF, CRLF or a lone CR; a BOM is
/// not a column of line 1.
fn sarif_offset(text: &str, line: u64, column: u64) -> usize {
    let bom = if line == 1 && text.starts_with('\u{feff}') { 1 } else { 0 };
    let position = json!({ "line": line - 1, "character": column - 1 + bom });
    lsp_support::offset(text, &position)
}

/// Each SARIF fix, applied by its byte range (which its lines and columns must name as well): (rule, line, fixed).
fn sarif_fixes(sarif: &Value, text: &str) -> Vec<(String, u64, String)> {
    let mut out = Vec::new();
    for result in sarif["runs"][0]["results"].as_array().unwrap() {
        let Some(fixes) = result["fixes"].as_array() else { continue };
        let rule = result["ruleId"].as_str().unwrap().to_string();
        let line = result["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64().unwrap();
        let mut edits = Vec::new();
        for r in fixes[0]["artifactChanges"][0]["replacements"].as_array().unwrap() {
            let region = &r["deletedRegion"];
            let start = region["byteOffset"].as_u64().unwrap() as usize;
            let end = start + region["byteLength"].as_u64().unwrap() as usize;
            let by_lines = (
                sarif_offset(text, region["startLine"].as_u64().unwrap(), region["startColumn"].as_u64().unwrap()),
                sarif_offset(text, region["endLine"].as_u64().unwrap(), region["endColumn"].as_u64().unwrap()),
            );
            assert_eq!(by_lines, (start, end), "SARIF {rule}: lines and columns name other bytes: {region}");
            edits.push((start, end, r["insertedContent"]["text"].as_str().unwrap().to_string()));
        }
        let fixed = applied(text, &edits, &format!("SARIF {rule}"));
        out.push((rule, line, fixed));
    }
    out
}

/// A `WorkspaceEdit`'s edits of `uri` applied to `text` and checked as [`applied`] checks them; positions as the
/// server counts them (UTF-16 columns, no column for a BOM).
fn apply_edits(text: &str, edit: &Value, uri: &str) -> String {
    let at = |p: &Value| sarif_offset(text, p["line"].as_u64().unwrap() + 1, p["character"].as_u64().unwrap() + 1);
    let edits: Vec<(usize, usize, String)> = edit["changes"][uri]
        .as_array()
        .expect("edits of the file")
        .iter()
        .map(|e| (at(&e["range"]["start"]), at(&e["range"]["end"]), e["newText"].as_str().unwrap().to_string()))
        .collect();
    applied(text, &edits, "a code action")
}

/// What the language server offers for the manifest: each finding's "apply fix" code action applied, by (rule,
/// line), and the "fix all" action applied.
fn lsp_fixes(dir: &std::path::Path, text: &str) -> (Vec<(String, u64, String)>, Option<String>) {
    let (mut client, _) = Client::initialized(dir, json!({}));
    let manifest = uri(&dir.join("beeuni.yaml"));
    client.open(&manifest, text);
    let diagnostics = client.diagnostics(&manifest);
    let mut fixes = Vec::new();
    let mut all = None;
    for d in &diagnostics {
        let context = json!({ "diagnostics": [d] });
        let params = json!({ "textDocument": { "uri": manifest }, "range": d["range"], "context": context });
        let actions = client.request("textDocument/codeAction", params);
        for action in actions.as_array().unwrap() {
            let title = action["title"].as_str().unwrap();
            if title.starts_with("Ignore") {
                continue;
            }
            let fixed = apply_edits(text, &action["edit"], &manifest);
            // A range holds other findings too: each fix is taken with the finding it was asked for.
            let of = &action["diagnostics"][0];
            if action["kind"] == "quickfix" && (&of["code"], &of["range"]) == (&d["code"], &d["range"]) {
                let rule = d["code"].as_str().unwrap().to_string();
                fixes.push((rule, d["range"]["start"]["line"].as_u64().unwrap() + 1, fixed));
            } else if action["kind"] != "quickfix" {
                all = Some(fixed);
            }
        }
    }
    client.shutdown_and_exit();
    (fixes, all)
}

#[test]
fn every_offered_edit_in_every_view_keeps_the_file_and_is_not_offered_again() {
    let mut rng = Rng(0x0ff3_12ed_ed17_5eed);
    let mut offered = 0;
    for case in 0..24 {
        let text = layout(&mut rng);
        let dir = project(&[("beeuni.yaml", &text)]);
        let report = lint(dir.path());
        assert!(
            !report["diagnostics"].as_array().unwrap().iter().any(|d| d["rule"] == "yaml-syntax"),
            "case {case}: the generator wrote invalid YAML:\n{text:?}"
        );
        let json = json_fixes(&report, &text);
        let sarif = crate::common::run_in(dir.path(), &["--format", "sarif", "--fail-on", "never", "."]).stdout;
        let sarif = sarif_fixes(&serde_json::from_str(&sarif).unwrap(), &text);
        let (lsp, _) = lsp_fixes(dir.path(), &text);
        // The three views offer the same fixes, with the same bytes.
        let by_json: Vec<(String, u64, String)> = json.iter().map(|(r, l, .., f)| (r.clone(), *l, f.clone())).collect();
        assert_eq!(sarif, by_json, "case {case}: SARIF and JSON disagree:\n{text:?}");
        let mut lsp_sorted = lsp.clone();
        lsp_sorted.sort();
        let mut json_sorted = by_json.clone();
        json_sorted.sort();
        assert_eq!(lsp_sorted, json_sorted, "case {case}: the language server and JSON disagree:\n{text:?}");
        // Applied, a fix is not offered again.
        for (rule, _, start, end, content, fixed) in &json {
            offered += 1;
            let again = project(&[("beeuni.yaml", fixed)]);
            let report = lint(again.path());
            let same = report["diagnostics"].as_array().unwrap().iter().any(|d| {
                d["fix"]["edits"].as_array().is_some_and(|edits| {
                    edits.iter().any(|e| {
                        e["start"].as_u64() == Some(*start as u64)
                            && e["end"].as_u64() == Some(*end as u64)
                            && e["content"] == content.as_str()
                    })
                })
            });
            assert!(!same, "case {case}: {rule}'s edit is offered again after it was applied:\n{fixed:?}");
        }
    }
    assert!(offered >= 30, "only {offered} edits offered over 24 manifests");
}

/// `unknown-tool`'s raw fix for `bahs` in `{bahs: false, bash: false}` would repeat the key `bash`: no view
/// offers it (the language server's "apply fix" included), while the map's own safe fix is offered by all.
#[test]
fn a_fix_that_would_repeat_a_key_is_offered_by_no_view() {
    let text = "agents:\n  a:\n    tools: {bahs: false, bash: false}\n";
    let dir = project(&[("beeuni.yaml", text)]);
    let json: Vec<String> = json_fixes(&lint(dir.path()), text).into_iter().map(|f| f.0).collect();
    let (lsp, all) = lsp_fixes(dir.path(), text);
    let lsp: Vec<String> = lsp.into_iter().map(|f| f.0).collect();
    assert_eq!(
        (json.as_slice(), lsp.as_slice()),
        (&["legacy-tools-map".to_string()][..], &["legacy-tools-map".to_string()][..])
    );
    assert_eq!(all.as_deref(), Some("agents:\n  a:\n    tools: {exclude: [bahs, bash]}\n"));
}
