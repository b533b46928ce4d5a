//! Hostile inputs to the did-you-mean: names that cost the most to compare. Its search compares an unknown name
//! with every known name of about its length, and a comparison of two names is quadratic in their length: the
//! budget of the search (`rules::hints`) counts the characters compared, so long names get fewer comparisons.

use crate::support::*;

/// The characters the long names share before the part that tells them apart.
const PREFIX_CHARACTERS: usize = 240;
/// Declared tools, and as many agents each listing an unknown name: with names of 246 characters, 1.99 MB of YAML,
/// under the graph's 2 MiB.
const NAMES: usize = 3_800;

/// 3,800 declared names of 246 characters that differ only in their last five, and 3,800 agents each listing an
/// unknown one a character away from a declared one: every comparison passes the cheap test of the characters not
/// shared and is a full alignment. Counted by pairs (250,000 of them), it took 9.3 s of CPU in a debug build;
/// counted by characters, the search stops after a few names. The first agent lists a plain typo, whose
/// did-you-mean the long names do not take away.
#[test]
fn thousands_of_long_names_sharing_a_prefix_are_bounded() {
    let prefix = "k".repeat(PREFIX_CHARACTERS);
    let declarations: String = (0..NAMES).map(|i| format!("  {prefix}d{i:05}: t.ts\n")).collect();
    let agents: String = (0..NAMES).map(|i| format!("  a{i}:\n    tools: [{prefix}u{i:05}]\n")).collect();
    let agents = agents.replacen("tools: [", "tools: [bsh, ", 1);
    let root =
        MANIFEST.replacen("agents:\n  helper:\n    tools: all\n", &format!("{declarations}agents:\n{agents}"), 1);
    assert!(root.len() > 1_990_000 && root.len() < 2 * 1024 * 1024, "{} bytes", root.len());
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", &root).file("t.ts", MODULE).commit("agents");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("3,800 unknown names of 246 characters among as many declared");
    let report = outcome.json();
    let found = of_rule(&report, "unknown-tool");
    assert_eq!(found.len(), 101, "{report:#}");
    // After the 5 hosted tools, the declarations and `agents:`, the first agent's list.
    let line = 5 + NAMES as u64 + 4;
    let message = "agent `a0` lists `bsh`, which is not a known tool: it is ignored";
    assert_at(found[0], "unknown-tool", "beeuni.yaml", line, message);
    assert_eq!(found[0]["help"], "did you mean `bash`?");
    // The first long name is still searched, and found one character away.
    let message = format!("agent `a0` lists `{prefix}u00000`, which is not a known tool: it is ignored");
    assert_at(found[1], "unknown-tool", "beeuni.yaml", line, &message);
    assert_eq!(found[1]["help"], format!("did you mean `{prefix}d00000`?"));
}
