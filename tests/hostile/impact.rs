//! `impact` near the access bound (issue 34's case): 1,000 agents given 300 tools and 1,000 secrets from a 40 KB
//! manifest, just under `access::MAX_ROWS`, asked for 1.6 million rows (320 MB of JSON, 460 MB of memory). Its
//! rows are weighed before they are built: past `impact::MAX_REPORT_BYTES` every format exits 2 with one line; just
//! under it, every format is whole, within the time and memory bounds, 32 MiB of output, and the Markdown within a
//! pull-request comment.

use crate::support::*;

const TOOLS: usize = 300;
const SECRETS: usize = 1_000;

/// `agents` agents with `tools:` as given beside 300 declared tools, and a keeper that lists 1,000 secrets (or
/// none): an agent without a `secrets:` list holds every secret some agent lists.
fn manifest(agents: usize, tools: &str, secrets: bool) -> String {
    let declared: String = (0..TOOLS).map(|i| format!("  t{i}: ./t.ts\n")).collect();
    let agents: String = (0..agents).map(|i| format!("  a{i}:\n    tools: {tools}\n")).collect();
    let listed: String = (0..SECRETS).map(|i| format!("      - S{i}\n")).collect();
    let keeper = if secrets { format!("    secrets:\n{listed}") } else { String::new() };
    format!("tools:\n{declared}agents:\n{agents}  keeper:\n    tools: [read]\n{keeper}")
}

/// The base commits `agents` agents calling `read`; the work tree gives each every tool and every secret.
fn change(agents: usize) -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest(agents, "[read]", false)).file("t.ts", MODULE).commit("base");
    sandbox.file("beeuni.yaml", manifest(agents, "all", true));
    sandbox
}

#[test]
fn impact_of_a_change_too_large_to_report_is_refused_in_every_format() {
    // 999 agents and the keeper: 1,000 agents given 300 tools and 1,000 secrets, from a 40 KB manifest.
    let head = manifest(999, "all", true);
    assert!((38_000..42_000).contains(&head.len()), "{}", head.len());
    let sandbox = change(999);
    for format in ["human", "markdown", "json"] {
        let outcome = sandbox.run(&["impact", "--base", "HEAD", "--format", format, "."]);
        outcome.assert_bounded(&format!("impact --format {format} of 1,000 agents given 300 tools and 1,000 secrets"));
        assert_eq!(outcome.code, Some(2), "{format}: {}", outcome.stderr());
        assert!(outcome.stdout.is_empty(), "{format}");
        // The access bound (`access::MAX_ROWS`, 100,000) refuses it before `impact` weighs its rows.
        assert_eq!(
            outcome.stderr(),
            "beeuni-lint: 1000 agents and 318 tools make more than 100,000 rows of what each agent can call: \
             beeuni-lint does not work them out (a bound on the work a repository can ask for)\n",
            "{format}"
        );
    }
}

#[test]
fn impact_just_under_its_bound_is_whole_in_every_format() {
    // 60 agents given 318 tools on each harness and 1,000 secrets: 98,000 rows, about 19 MiB of JSON.
    let sandbox = change(60);
    for format in ["human", "markdown", "json"] {
        let outcome = sandbox.run(&["impact", "--base", "HEAD", "--format", format, "."]);
        outcome.assert_bounded(&format!("impact --format {format} of 60 agents given 300 tools and 1,000 secrets"));
        assert_eq!(outcome.code, Some(0), "{format}: {}", outcome.stderr());
        assert!(outcome.stdout.len() <= 32 << 20, "{format}: {} bytes", outcome.stdout.len());
        let text = outcome.stdout();
        match format {
            "human" => {
                assert!(text.starts_with("60 agents gain tools; 61000 secrets granted\n"), "{}", &text[..200]);
                // The last agent's net change, then its cause with every tool.
                let a59 = "\nagent a59: +bash (+pty_*), +write, +edit, +glob, +grep, +307 more; secrets +S0, +S1, ";
                assert!(text.contains(a59), "{}", &text[..400]);
            }
            "markdown" => {
                assert!(text.chars().count() <= 65_536, "{} characters", text.chars().count());
                assert!(text.contains("\n- **`a0`**: +`bash` (+`pty_*`), +`write`, "), "{}", &text[..400]);
                assert!(text.ends_with(" more agents: run `beeuni-lint impact --format human` to see them.\n"));
            }
            _ => {
                // Not parsed here: a report this large would count against the runs of other tests (see
                // access.rs); its shape is the integration tests'.
                assert!(text.starts_with("{\n  \"version\": 1,"), "{}", &text[..200]);
                assert_eq!(text.matches("\"agent\": \"a").count(), 60);
            }
        }
    }
}
