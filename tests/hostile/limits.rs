//! Hostile inputs, round 2: memory bounded by design and limits that are never a silent pass. A tool module or
//! helper past `[limits] module-bytes` (2 MiB) is neither read nor parsed (oxc's tree costs some 40 bytes a byte:
//! a 30 MB module took 1.1 to 1.4 GB); each limit that leaves a declared tool unchecked is one `analysis-limit`
//! warning, which fails the default gate; nesting is counted as the parser recurses (a flat module of generics,
//! comparisons or JSX is analysed in full); YAML nesting fails at its stated depth; near the access bound every
//! command stays small or is refused with one line.

use crate::support::*;

/// The limit a module is analysed up to by default.
const MODULE_BYTES: usize = 2 << 20;

/// A tool module without `execute` (a `module-execute` error when analysed).
const NO_EXECUTE: &str = "export default { description: 'x', parameters: { type: 'object', properties: {} } }\n";
const NO_EXECUTE_MESSAGE: &str = "the tool in `tools/t.ts` has no `execute`";

fn manifest_with(tools: &[&str]) -> String {
    let lines: String = tools.iter().map(|t| format!("  {t}: tools/{t}.ts\n")).collect();
    MANIFEST.replacen("agents:", &format!("{lines}agents:"), 1)
}

/// `len` bytes of `unit` repeated, then `tail` (a valid tool module is a tail of `MODULE`).
fn padded(unit: &str, len: usize, tail: &str) -> String {
    let mut text = unit.repeat((len - tail.len()) / unit.len());
    text.push_str(&" ".repeat(len - tail.len() - text.len()));
    text + tail
}

fn too_large_message(path: &str, size: usize, limit: usize) -> String {
    format!(
        "`{path}` is {size} bytes, more than the {limit} bytes of a module beeuni-lint analyses (`module-bytes` of `[limits]` in beeuni-lint.toml): none of its checks were made"
    )
}

/// A 30 MB tool module, a `0,` array or `a.b();` statements: refused from its size before a byte is parsed, one
/// `analysis-limit` warning at its line 1, and the run fails the default gate.
#[test]
fn a_thirty_megabyte_module_is_refused_before_it_is_parsed() {
    for (what, unit) in [("an array of 0s", "0,"), ("a.b() statements", "a.b();\n")] {
        let size = 30_000_000;
        let module = format!("const data = [{}];\n{MODULE}", padded(unit, size - 20 - MODULE.len(), ""));
        let module = if unit == "0," { module } else { padded(unit, size, MODULE) };
        let sandbox = Sandbox::new();
        sandbox.file("beeuni.yaml", manifest_with(&["t"])).file("tools/t.ts", &module).commit("huge");
        let outcome = sandbox.run(&["--format", "json", "."]);
        outcome.assert_bounded(&format!("a 30 MB module of {what}"));
        assert_eq!(outcome.code, Some(1), "{what}: an unchecked tool fails the default gate");
        let report = outcome.json();
        let found = of_rule(&report, "analysis-limit");
        assert_eq!(found.len(), 1, "{what}: {report:#}");
        assert_eq!(found[0]["severity"], "warning");
        assert_at(
            found[0],
            "analysis-limit",
            "tools/t.ts",
            1,
            &too_large_message("tools/t.ts", module.len(), MODULE_BYTES),
        );
    }
}

/// Four of them: each refused alike, the run's memory that of none of them.
#[test]
fn four_thirty_megabyte_modules_cost_what_none_does() {
    let names = ["a", "b", "c", "d"];
    let module = padded("a.b();\n", 30_000_000, MODULE);
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with(&names));
    for name in names {
        sandbox.file(&format!("tools/{name}.ts"), &module);
    }
    sandbox.commit("huge");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("four 30 MB modules");
    let report = outcome.json();
    let found = of_rule(&report, "analysis-limit");
    assert_eq!(found.len(), 4, "{report:#}");
    for (finding, name) in found.iter().zip(names) {
        let path = format!("tools/{name}.ts");
        assert_at(finding, "analysis-limit", &path, 1, &too_large_message(&path, module.len(), MODULE_BYTES));
    }
}

/// A 30 MB helper of 800,000 identity functions that 20 tools import as their wrapper: the helper is refused
/// once, from its size; the tools' wrapped objects cannot be read through it (`module-unanalyzable`).
#[test]
fn a_thirty_megabyte_helper_of_identity_functions_is_refused_once() {
    let functions: String = (0..800_000).map(|i| format!("export const w{i} = (t) => t\n")).collect();
    let helper = padded(" ", 30_000_000, &functions);
    let tools: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
    let names: Vec<&str> = tools.iter().map(String::as_str).collect();
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with(&names)).file("tools/lib.ts", &helper);
    for (i, name) in names.iter().enumerate() {
        let module = format!(
            "import {{ w{i} }} from './lib'\nexport default w{i}({{ description: 'x', parameters: {{ type: 'object', properties: {{}} }}, async execute() {{ return 'ok' }} }})\n"
        );
        sandbox.file(&format!("tools/{name}.ts"), module);
    }
    sandbox.commit("wrappers");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("a 30 MB helper imported by 20 tools");
    assert_eq!(outcome.code, Some(1));
    let report = outcome.json();
    let found = of_rule(&report, "analysis-limit");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_at(
        found[0],
        "analysis-limit",
        "tools/lib.ts",
        1,
        &too_large_message("tools/lib.ts", helper.len(), MODULE_BYTES),
    );
    assert_eq!(of_rule(&report, "module-unanalyzable").len(), 20);
}

/// The limit itself: a module of exactly `module-bytes` is analysed (its missing `execute` reported), one byte
/// more is the located `analysis-limit` finding; the same with a limit the config sets.
#[test]
fn a_module_at_the_limit_is_analysed_and_one_byte_past_it_is_not() {
    for (config, limit) in [(None, MODULE_BYTES), (Some("[limits]\nmodule-bytes = 10_000\n"), 10_000)] {
        for len in [limit, limit + 1] {
            let module = padded("// padding to the limit\n", len, NO_EXECUTE);
            let sandbox = Sandbox::new();
            sandbox.file("beeuni.yaml", manifest_with(&["t"])).file("tools/t.ts", &module);
            if let Some(config) = config {
                sandbox.file("beeuni-lint.toml", config);
            }
            sandbox.commit("limit");
            let outcome = sandbox.run(&["--format", "json", "."]);
            let what = format!("a module of {len} bytes, limit {limit}");
            outcome.assert_bounded(&what);
            assert_eq!(outcome.code, Some(1), "{what}");
            let report = outcome.json();
            if len == limit {
                assert!(of_rule(&report, "analysis-limit").is_empty(), "{what}: {report:#}");
                let execute = of_rule(&report, "module-execute");
                assert_eq!(execute.len(), 1, "{what}: {report:#}");
                assert_eq!(execute[0]["path"], "tools/t.ts");
                assert_eq!(execute[0]["message"], NO_EXECUTE_MESSAGE);
            } else {
                assert!(of_rule(&report, "module-execute").is_empty(), "{what}: {report:#}");
                let found = of_rule(&report, "analysis-limit");
                assert_at(found[0], "analysis-limit", "tools/t.ts", 1, &too_large_message("tools/t.ts", len, limit));
            }
        }
    }
}

/// Nesting is what the parser recurses into: a flat module of 8,000 generic functions, of 5,000 `a < b`
/// comparisons without semicolons, or a list of 2,000 JSX elements is analysed in full (its missing `execute`
/// reported), where the scan used to count every `<` as one more level and skip every check of the module.
#[test]
fn flat_generics_comparisons_and_jsx_are_analysed_in_full() {
    let generics: String = (0..8_000).map(|i| format!("function f{i}<T>(x: T): T {{ return x }}\n")).collect();
    let comparisons: String = (0..5_000).map(|i| format!("const a{i} = {i} < 2\n")).collect();
    let items: String = (0..2_000).map(|i| format!("  <li>item {i}</li>\n")).collect();
    // In a `.js` module, which Bun reads with JSX; the classic runtime's factory is the module's own.
    let jsx =
        format!("/** @jsxRuntime classic */\n/** @jsx h */\nfunction h() {{}}\nconst list = <ul>\n{items}</ul>\n");
    for (what, path, body) in [
        ("8,000 generic functions", "t.ts", generics),
        ("5,000 comparisons", "t.ts", comparisons),
        ("2,000 JSX elements", "t.js", jsx),
    ] {
        let sandbox = Sandbox::new();
        let manifest = MANIFEST.replacen("agents:", &format!("  t: tools/{path}\nagents:"), 1);
        sandbox
            .file("beeuni.yaml", manifest)
            .file(&format!("tools/{path}"), format!("{body}{NO_EXECUTE}"))
            .commit("flat");
        let outcome = sandbox.run(&["--format", "json", "."]);
        outcome.assert_bounded(what);
        let report = outcome.json();
        let rules: Vec<&str> =
            report["diagnostics"].as_array().unwrap().iter().map(|d| d["rule"].as_str().unwrap()).collect();
        assert_eq!(rules, ["module-execute"], "{what}: {report:#}");
        assert_eq!(report["diagnostics"][0]["message"], NO_EXECUTE_MESSAGE.replace("t.ts", path));
    }
}

/// A module nested deeper than the parser's stack takes is still refused, now as `analysis-limit` (a warning that
/// fails the default gate), at the bracket that goes too deep.
#[test]
fn a_module_nested_too_deep_fails_the_default_gate() {
    let module = format!("const x = {}1{};\n{MODULE}", "(".repeat(6_000), ")".repeat(6_000));
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with(&["t"])).file("tools/t.ts", module).commit("deep");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("6,000 parentheses");
    assert_eq!(outcome.code, Some(1));
    let report = outcome.json();
    let found = of_rule(&report, "analysis-limit");
    let message = "`tools/t.ts` is nested more than 5000 brackets deep, deeper than beeuni-lint analyses: none of its checks were made";
    assert_at(found[0], "analysis-limit", "tools/t.ts", 1, message);
    // `const x = ` is 10 bytes: the 5,001st parenthesis is at column 5,011.
    assert_eq!(found[0]["column"], 5_011);
}

/// YAML nesting: 255 collections inside one another (block or flow) are read; the 256th is a located `yaml-syntax`
/// saying so.
#[test]
fn yaml_nesting_is_read_to_255_levels() {
    // `depth` mappings inside one another, the file's own the first (the manifest's 9 lines, then `x:` on line 10).
    let block = |depth: usize| -> String {
        let mut yaml = String::from(MANIFEST);
        yaml.push_str("x:\n");
        for level in 1..depth - 1 {
            yaml.push_str(&format!("{}k:\n", " ".repeat(level)));
        }
        yaml.push_str(&format!("{}k: v\n", " ".repeat(depth - 1)));
        yaml
    };
    let flow = |depth: usize| format!("{MANIFEST}x: {}{}\n", "[".repeat(depth), "]".repeat(depth));
    for (what, yaml, line, column) in [
        ("block", block(255), 0, 0),
        ("flow", flow(255), 0, 0),
        ("block", block(256), 265, 256),
        ("flow", flow(256), 10, 259),
    ] {
        let sandbox = Sandbox::new();
        sandbox.file("beeuni.yaml", &yaml).commit("deep");
        let outcome = sandbox.run(&["--format", "json", "."]);
        outcome.assert_bounded(what);
        let report = outcome.json();
        let found = of_rule(&report, "yaml-syntax");
        if line == 0 {
            assert!(found.is_empty(), "{what}: {report:#}");
            assert_eq!(outcome.code, Some(0), "{what}: {report:#}");
            continue;
        }
        assert_eq!(outcome.code, Some(1), "{what}");
        let message = "this collection is nested more than 255 levels deep (block or flow collections inside one another), deeper than beeuni-lint reads: nothing in this file was checked";
        assert_at(found[0], "yaml-syntax", "beeuni.yaml", line, message);
        assert_eq!(found[0]["column"], column, "{what}");
    }
}

/// 1,000 agents with `tools: all` beside 300 tools and 1,000 secrets (a 40 KB manifest): past the access bound,
/// `agents` in each format is refused with one line; `check` and `ls`, which do not work access out, stay small.
#[test]
fn a_thousand_agents_three_hundred_tools_and_a_thousand_secrets() {
    let tools: String = (0..300).map(|i| format!("  t{i}: t.ts\n")).collect();
    let secrets: String = (0..1_000).map(|i| format!("      - S{i}\n")).collect();
    let agents: String = (0..1_000).map(|i| format!("  a{i}:\n    tools: all\n")).collect();
    let manifest = format!("tools:\n{tools}agents:\n  keeper:\n    tools: all\n    secrets:\n{secrets}{agents}");
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", &manifest).file("t.ts", MODULE).commit("many");
    let refused = "beeuni-lint: 1001 agents and 318 tools make more than 100,000 rows of what each agent can call: \
                   beeuni-lint does not work them out (a bound on the work a repository can ask for)\n";
    for args in [&["agents", "."][..], &["agents", "--json", "."]] {
        let outcome = sandbox.run(args);
        outcome.assert_bounded(&args.join(" "));
        assert_eq!(outcome.code, Some(2), "{args:?}");
        assert_eq!(outcome.stderr(), refused, "{args:?}");
        assert!(outcome.stdout.is_empty());
    }
    for args in [&["--format", "json", "."][..], &["."], &["ls", "."], &["ls", "--json", "."]] {
        let outcome = sandbox.run(args);
        outcome.assert_bounded(&args.join(" "));
        assert!(outcome.code.is_some_and(|code| code <= 1), "{args:?}: {}", outcome.stderr());
        assert!(outcome.stdout.len() < 32 << 20, "{args:?}: {} bytes of output", outcome.stdout.len());
    }
}

/// The access bound itself: 104 agents with `tools: all` beside 318 tools (99,216 rows) are worked out whole, 105
/// (100,170 rows) are refused with one line.
#[test]
fn the_access_bound_at_its_limit_and_one_agent_past_it() {
    let tools: String = (0..300).map(|i| format!("  t{i}: t.ts\n")).collect();
    for agents in [104, 105] {
        let list: String = (0..agents).map(|i| format!("  a{i}:\n    tools: all\n")).collect();
        let sandbox = Sandbox::new();
        sandbox.file("beeuni.yaml", format!("tools:\n{tools}agents:\n{list}")).file("t.ts", MODULE).commit("bound");
        let outcome = sandbox.run(&["agents", "--json", "."]);
        let what = format!("{agents} agents times 318 tools");
        outcome.assert_bounded(&what);
        if agents == 104 {
            assert_eq!(outcome.code, Some(0), "{what}: {}", outcome.stderr());
            // Each agent once on each of its two harnesses (not parsed here: 6 MB of JSON would count against the
            // memory of the suite's other runs).
            let text = outcome.stdout();
            assert_eq!(text.matches("\"agent\": ").count(), 2 * 104, "{what}");
            assert!(text.contains("\"agent\": \"a103\""), "{what}");
            assert!(outcome.stdout.len() < 32 << 20, "{what}: {} bytes", outcome.stdout.len());
        } else {
            assert_eq!(outcome.code, Some(2), "{what}");
            let refused = "beeuni-lint: 105 agents and 318 tools make more than 100,000 rows of what each agent can call: \
                           beeuni-lint does not work them out (a bound on the work a repository can ask for)\n";
            assert_eq!(outcome.stderr(), refused);
        }
    }
}

/// A helper keeps its first 256 identity functions: a tool wrapped by one of them is read through; one wrapped by
/// the 300th is left unread by that limit, which `analysis-limit` says at its `export default`.
#[test]
fn a_wrapper_past_the_identity_functions_kept_is_an_analysis_limit() {
    let helper: String = (0..300).map(|i| format!("export const w{i} = (t) => t\n")).collect();
    let tool = |wrapper: &str| {
        format!(
            "import {{ {wrapper} }} from './lib'\nexport default {wrapper}({{ description: 'x', parameters: {{ type: 'object', properties: {{}} }}, async execute() {{ return 'ok' }} }})\n"
        )
    };
    let sandbox = Sandbox::new();
    sandbox
        .file("beeuni.yaml", manifest_with(&["a", "b"]))
        .file("tools/lib.ts", helper)
        .file("tools/a.ts", tool("w10"))
        .file("tools/b.ts", tool("w299"))
        .commit("wrappers");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("a wrapper past the 256 identity functions kept");
    assert_eq!(outcome.code, Some(1));
    let report = outcome.json();
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1), "{report:#}");
    let message = "the default export of `tools/b.ts` cannot be read: a call to `w299(...)`, imported from a helper that exports more than the 256 identity functions beeuni-lint reads; none of the tool's checks were made";
    assert_at(&report["diagnostics"][0], "analysis-limit", "tools/b.ts", 2, message);
}
