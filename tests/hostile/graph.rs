//! Hostile inputs: the manifest graph's bytes, and the rules' own work over what fits in them. The YAML tree and
//! the model cost some 40 bytes of memory a byte of manifest, so the graph holds at most 2 MiB of YAML; within
//! that, a repository can still declare a hundred thousand tools or agents, and each rule must do little for
//! each of them (the report is capped, the work before the cap is not).

use crate::support::*;

/// Bytes of YAML the manifest graph holds at most (docs/limits.md).
const GRAPH_BYTES: usize = 2 * 1024 * 1024;

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

/// 999 files declaring the same 200 tools (before the limit: 5.3 s and 448 MiB, 400,000 findings made before the
/// cap trimmed them). The graph stops at 2 MiB with its `import-path`; of the `duplicate-tool` findings of the
/// files within it, 1,000 are shown and one summary counts the rest.
#[test]
fn files_declaring_the_same_tools_are_bounded() {
    let declarations: String = (0..200).map(|j| format!("  tool{j}: t.ts\n")).collect();
    let files = vec![format!("tools:\n{declarations}"); 999];
    let (sandbox, first_past) = importing(&files);
    let (past, _) = first_past.expect("the files pass the limit");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("999 files declaring the same 200 tools");
    let report = outcome.json();
    let found = of_rule(&report, "import-path");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0]["line"].as_u64(), Some(2 + past as u64));
    let duplicates = of_rule(&report, "duplicate-tool");
    assert_eq!(duplicates.len(), 1_001);
    // Reported by path: `m/f1.yaml`, `m/f10.yaml`, `m/f100.yaml` …; 100 of each and its summary, for 9 files and
    // then 91 of the tenth.
    let first_file = "m/f1.yaml";
    let message = "tool `tool0` is already declared in `m/f0.yaml`: a name may be declared in one file only";
    assert_at(duplicates[0], "duplicate-tool", first_file, 2, message);
    let rest = (past - 1) * 200 - (9 * 200 + 91);
    let message =
        format!("… and {rest} more `duplicate-tool` findings in the project (at most 1000 of a rule are shown)");
    assert_eq!(duplicates[1_000]["message"], message);
}

/// 50,000 agents listing two unknown tools each (2 MB): a did-you-mean is searched for the findings shown only
/// (before: one search among every known name for each of the 100,000, 13.7 s in a debug build). The first shown
/// has its help, the rest are summed up.
#[test]
fn a_hundred_thousand_unknown_tools_are_bounded() {
    let agents: String = (0..50_000).map(|i| format!("  a{i}:\n    tools: [u{i}x, v{i}y]\n")).collect();
    let root = MANIFEST.replacen("agents:\n  helper:\n    tools: all\n", &format!("agents:\n{agents}"), 1);
    // A near name for the first agent's first tool.
    let root = root.replacen("[u0x,", "[bsh,", 1);
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", &root).commit("agents");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("100,000 unknown tools");
    let report = outcome.json();
    let found = of_rule(&report, "unknown-tool");
    assert_eq!(found.len(), 101, "{report:#}");
    assert_at(
        found[0],
        "unknown-tool",
        "beeuni.yaml",
        9,
        "agent `a0` lists `bsh`, which is not a known tool: it is ignored",
    );
    assert_eq!(found[0]["help"], "did you mean `bash`?");
    let message = "agent `a0` lists `v0y`, which is not a known tool: it is ignored";
    assert_at(found[1], "unknown-tool", "beeuni.yaml", 9, message);
    let message = "… and 99900 more `unknown-tool` findings in this file (at most 100 of a rule are shown per file)";
    assert_at(found[100], "unknown-tool", "beeuni.yaml", 109, message);
}

/// 15,000 declared tools and as many agents each listing an unknown name of the same length: a search among every
/// known name for every unknown one would be 225 million comparisons. The searches are for the findings shown,
/// each distinct name once, and held to a million comparisons in all.
#[test]
fn unknown_tools_among_thousands_of_declared_ones_are_bounded() {
    let declarations: String = (0..15_000).map(|i| format!("  d{i:05}: t.ts\n")).collect();
    let agents: String = (0..15_000).map(|i| format!("  a{i}:\n    tools: [u{i:05}]\n")).collect();
    let root =
        MANIFEST.replacen("agents:\n  helper:\n    tools: all\n", &format!("{declarations}agents:\n{agents}"), 1);
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", &root).file("t.ts", MODULE).commit("agents");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("15,000 unknown tools among 15,000 declared");
    let report = outcome.json();
    let found = of_rule(&report, "unknown-tool");
    assert_eq!(found.len(), 101, "{report:#}");
    // After the 5 hosted tools, 15,000 declarations and `agents:`, the first agent's list.
    let line = 15_009;
    assert_at(
        found[0],
        "unknown-tool",
        "beeuni.yaml",
        line,
        "agent `a0` lists `u00000`, which is not a known tool: it is ignored",
    );
    assert_eq!(found[0]["help"], "did you mean `d00000`?");
}

/// A tool name of 300,000 characters and an agent listing one a character longer: the did-you-mean compares no
/// name that long (a table of their product was 720 GB: the run aborted), and the finding's help (which does not
/// repeat the name) says to declare it or drop it.
#[test]
fn names_of_hundreds_of_kilobytes_are_compared_with_nothing() {
    let long = "a".repeat(300_000);
    // An implicit key is at most 1,024 characters in YAML: an explicit one (`? key`) may be longer.
    let manifest = format!("tools:\n  ? {long}\n  : beeuni:web_search\nagents:\n  main:\n    tools: [{long}b]\n");
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest).commit("long names");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("names of 300,000 characters");
    let report = outcome.json();
    let unknown = of_rule(&report, "unknown-tool");
    assert_eq!(unknown.len(), 1, "{}", outcome.stdout().chars().take(2000).collect::<String>());
    assert_eq!((unknown[0]["path"].as_str(), unknown[0]["line"].as_u64()), (Some("beeuni.yaml"), Some(6)));
    let help = unknown[0]["help"].as_str().expect("a help");
    assert_eq!(
        help,
        "declare it under `tools:`, or drop it from the list (`--base REV` tells whether a change removed it from `tools:`)"
    );
}
