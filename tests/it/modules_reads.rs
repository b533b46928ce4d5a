//! docs/spec/rules.md §4 (what a tool module reads: the environment, `fetch`, the UI's
//! arguments, what it could not analyse), `secret-not-granted` (§3) and §5
//! (the legacy `harnesses/opencode/tools/` folder): one triggering fixture
//! `mod-<rule>` and one clean twin `mod-<rule>-clean` a rule, with the place
//! (§10), the exact message and the related location.

use crate::common::*;
use crate::modules_support::*;

#[test]
fn module_process_env() {
    let read = |name: &str, via: &str| format!("`tools/crm_note.ts` reads the secret `{name}` from `{via}`");
    let messages = [
        read("STRIPE_SECRET", "process.env"),
        read("CRM_ACCOUNT", "process.env"),
        read("ORDERS_API_KEY", "process.env"),
        read("GITHUB_TOKEN", "process.env"),
        read("DB_PASSWORD", "Bun.env"),
        read("MY_API_KEY_ID", "process.env"),
    ];
    let at = |i: usize, line: u64, column: u64| -> Found {
        (("module-process-env", "warning", "tools/crm_note.ts", line, column, messages[i].as_str()), 3)
    };
    // Destructuring (the property), a listed secret with an innocent name (`CRM_ACCOUNT`, in
    // `agents.beeuni.secrets`; its column counts `°C 😀` in UTF-16 code units), `_KEY`,
    // `['_TOKEN']`, `Bun.env` `_PASSWORD`, and a name containing `API_KEY`. `NODE_ENV` and
    // `HOME` are no secrets.
    let report = trigger(
        "module-process-env",
        1,
        &[at(0, 1, 9), at(1, 2, 40), at(2, 8, 17), at(3, 9, 19), at(4, 10, 22), at(5, 11, 22)],
    );
    let help =
        "read `context.env.CRM_ACCOUNT`: a secret changed after the box started is in `context.env`, not `process.env`";
    assert_help(&diagnostics(&report)[1], help);
    clean_twin("module-process-env");
}

#[test]
fn module_fetch_signal() {
    let message = "`fetch(...)` inside `execute` passes no `signal`: the request cannot be cancelled";
    // Info only: the run passes (exit 0). The `fetch(` expression; the fetch outside `execute`
    // is not reported; `globalThis.fetch` is.
    let report = trigger(
        "module-fetch-signal",
        0,
        &[
            (("module-fetch-signal", "info", "tools/lookup_order.ts", 8, 25, message), 3),
            (("module-fetch-signal", "info", "tools/lookup_order.ts", 9, 26, message), 3),
            (("module-fetch-signal", "info", "tools/lookup_order.ts", 12, 25, message), 3),
        ],
    );
    assert_helps(&report, &["pass `signal: context.signal`, which aborts when the user stops the turn"; 3]);
    // The twin: `signal` inline, an options variable, a spread of one.
    clean_twin("module-fetch-signal");
}

#[test]
fn ui_view_contract() {
    let memory = "`integrations/memory/index.ts` replaces `memory`, but its `parameters.properties` lack `path`: the web UI's `memory` view reads them";
    let show = "`tools/show.ts` replaces `show`, but its `parameters.properties` lack `url`, `content`, `items`: the web UI's `show` view reads them";
    let report = trigger(
        "ui-view-contract",
        1,
        &[
            // The `properties` key of `parameters`.
            (("ui-view-contract", "warning", "integrations/memory/index.ts", 3, 33, memory), 4),
            (("ui-view-contract", "warning", "tools/show.ts", 5, 5, show), 3),
        ],
    );
    assert_helps(&report, &["keep the arguments of the tool you replace, or the UI shows the raw output"; 2]);
    clean_twin("ui-view-contract");
}

#[test]
fn module_unanalyzable() {
    // Info only, and no other rule guesses about what it could not read: no
    // `module-parameters` for the zod schema, no `module-description` for the spread.
    let report = trigger(
        "module-unanalyzable",
        0,
        &[
            (
                (
                    "module-unanalyzable",
                    "info",
                    "tools/crm_note.ts",
                    5,
                    1,
                    "the default export of `tools/crm_note.ts` cannot be read without running it (a call to `makeTool(...)`): it was not checked",
                ),
                4,
            ),
            (
                (
                    "module-unanalyzable",
                    "info",
                    "tools/lookup_order.ts",
                    5,
                    3,
                    "`parameters` of `tools/lookup_order.ts` cannot be read without running it (built at run time by `z.toJSONSchema(...)`): it was not checked",
                ),
                3,
            ),
            // The spread that may supply `description`.
            (
                (
                    "module-unanalyzable",
                    "info",
                    "tools/weather_now.ts",
                    5,
                    3,
                    "`description` of `tools/weather_now.ts` cannot be read without running it (the object spreads `shared`): it was not checked",
                ),
                5,
            ),
        ],
    );
    assert_helps(&report, &["beeuni-lint never runs a module; write the value as a literal to have it checked"; 3]);
    clean_twin("module-unanalyzable");
}

#[test]
fn secret_not_granted() {
    let message = |agent: &str, tool: &str, secret: &str| {
        format!(
            "agent `{agent}` can call `{tool}`, whose module reads `context.env.{secret}`, but its `secrets:` does not grant `{secret}`"
        )
    };
    let a = message("support", "lookup_order", "ORDERS_API_KEY");
    let b = message("support", "weather_now", "WEATHER_API_KEY");
    let c = message("auditor", "lookup_order", "ORDERS_API_KEY");
    // At the agent's `secrets:` key. `beeuni` (`secrets: all`), `forecaster` and `orders`
    // (granted), `greeter` (`tools: none`) are fine; `support` (`secrets: []`, an exclude list)
    // can call both tools; `auditor` has no `tools` (every tool). `TRACE_ID` is in no agent's
    // list: not a secret. `lookup_order` reads it through a `{ env }` parameter.
    let expected: [Expect; 3] = [
        ("secret-not-granted", "warning", "beeuni.yaml", 14, 5, &a),
        ("secret-not-granted", "warning", "beeuni.yaml", 14, 5, &b),
        ("secret-not-granted", "warning", "beeuni.yaml", 22, 5, &c),
    ];
    let (code, report) = run("mod-secret-not-granted", &[]);
    assert_findings(&report, &expected);
    assert_eq!(code, 1);
    for (finding, entry) in diagnostics(&report).iter().zip([4, 3, 4]) {
        assert_related(finding, 0, "beeuni.yaml", entry, 3, "the tool is declared here");
    }
    assert_help(
        &diagnostics(&report)[0],
        "add `ORDERS_API_KEY` to the `secrets:` of `support`, or take `lookup_order` from its tools",
    );
    clean_twin("secret-not-granted");
}

#[test]
fn legacy_beeuni_copy() {
    let copy = |file: &str, tool: &str| {
        format!(
            "`harnesses/opencode/tools/{file}` is an old copy of the Beeuni tool `{tool}`: on the standard harness it takes precedence over the hosted tool"
        )
    };
    let (a, b) = (copy("memory.js", "memory"), copy("web_search.ts", "web_search"));
    // Section 5 only: the copy's `tool({...})` and harness import are not section 4's.
    let report = trigger(
        "legacy-beeuni-copy",
        1,
        &[
            (("legacy-beeuni-copy", "warning", "harnesses/opencode/tools/memory.js", 1, 1, &a), 0),
            (("legacy-beeuni-copy", "warning", "harnesses/opencode/tools/web_search.ts", 1, 1, &b), 0),
        ],
    );
    let help = "delete it: the daemon provides `web_search` on both harnesses when `beeuni.yaml` lists it";
    assert_help(&diagnostics(&report)[1], help);
    // The twin: `web_search.d.ts` and `memory.md` there are no tool modules.
    clean_twin("legacy-beeuni-copy");
}

#[test]
fn legacy_harness_tool() {
    let shadow = "`harnesses/opencode/tools/crm_note.ts` shadows the project tool `crm_note` on the standard harness, where the folder's copy takes precedence";
    let only = "`harnesses/opencode/tools/lookup_order.mjs` runs only on the standard harness";
    // A warning when the stem is a declared project tool (related: its entry), else info.
    let report = trigger(
        "legacy-harness-tool",
        1,
        &[
            (("legacy-harness-tool", "warning", "harnesses/opencode/tools/crm_note.ts", 1, 1, shadow), 3),
            (("legacy-harness-tool", "info", "harnesses/opencode/tools/lookup_order.mjs", 1, 1, only), 0),
        ],
    );
    let help = "to run it on both harnesses, move it out, replace `tool({ description, args, execute })` by a plain object whose `parameters` is JSON Schema, read secrets from `context.env`, and declare it under `tools:`";
    assert_helps(&report, &[help; 2]);
    clean_twin("legacy-harness-tool");
}
