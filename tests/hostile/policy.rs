//! Hostile inputs to `--policy` (docs/policy.md): the repository writes both the policy and the change judged by
//! it. The most guards and secret globs a policy may hold, each glob long and full of alternatives, judged against
//! 90,000 secrets and 8,000 tools gained stay within the suite's bounds. (Gains near `access::MAX_ROWS` are
//! `impact`'s own cost, which both sides' models and rows make: 900,000 took it 411 MiB in a debug build, with or
//! without a policy.)

use crate::support::*;

/// 100 guards (the most), 1,000 secret globs between them (the most), each of about 200 bytes of alternatives.
fn heaviest_policy() -> String {
    let glob = |g: usize, s: usize| {
        let alternatives: Vec<String> = (0..20).map(|a| format!("X{g}_{s}_{a}")).collect();
        format!("S*{{{}}}*", alternatives.join(","))
    };
    let guards: Vec<String> = (0..100)
        .map(|g| {
            let secrets: Vec<String> = (0..10).map(|s| format!("\"{}\"", glob(g, s))).collect();
            format!(
                "  {{ agents = \"a*{g}*\", tools = [\"all\", \"bash\", \"write\"], secrets = [{}] }},\n",
                secrets.join(", ")
            )
        })
        .collect();
    format!("[policy]\nguard = [\n{}]\n", guards.concat())
}

#[test]
fn the_heaviest_policy_judges_ninety_thousand_gains_in_time() {
    // 100 agents without a `secrets:` list gain every secret the keeper lists (900), and every tool.
    let agents: String = (0..100).map(|i| format!("  a{i}:\n    tools: [read]\n")).collect();
    let base = format!("{MANIFEST}{agents}");
    let secrets: String = (0..900).map(|i| format!("      - S{i}_X{}_0_0\n", i % 100)).collect();
    let head =
        format!("{}  keeper:\n    tools: [read]\n    secrets:\n{secrets}", base.replace("tools: [read]", "tools: all"));
    let sandbox = Sandbox::new();
    sandbox.file("beeuni-lint.toml", heaviest_policy()).file("beeuni.yaml", &base).commit("base");
    sandbox.file("beeuni.yaml", &head);
    let outcome = sandbox.run(&["check", "--base", "HEAD", "--policy", "--format", "short", "."]);
    outcome.assert_bounded("--policy of 100 guards and 1,000 long secret globs over 90,000 gains");
    assert_eq!(outcome.code, Some(1), "{}", outcome.stderr());
    let stdout = String::from_utf8_lossy(&outcome.stdout);
    // Each agent's `tools: all` (a guarded gain), and each agent's secrets, judged.
    assert!(
        stdout.contains("beeuni.yaml:13:5: error[policy-gain] agent `a1` gains `bash`, `write`")
            && stdout.contains("agent `a1` gains the secrets `S101_X1_0_0`, `S1_X1_0_0`, "),
        "{}",
        &stdout[..2000.min(stdout.len())]
    );
    assert!(stdout.lines().filter(|l| l.contains("error[policy-gain]")).count() >= 100);
}
