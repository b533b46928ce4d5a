//! Hostile inputs: bounds. Every count and size the repository controls is bounded: findings per rule per file,
//! ignore comments, the manifest graph (files, imports, cycles), a package's `exports` patterns, the config.

#[allow(unused_imports)]
use crate::support::*;

/// A manifest with one project tool, `tools/t.ts`.
fn manifest_with_tool() -> String {
    MANIFEST.replacen("agents:", "  mytool: tools/t.ts\nagents:", 1)
}

/// 2 MB of `// beeuni-lint: ignore[…]` lines (as much as a module analysed may hold), ten unknown rule ids each: a
/// finding each would be 800,000. The
/// file's first 1,000 ids are read (100 lines), the rest are not; of the 901 `unused-ignore` findings that gives
/// (900 ids, and one that says the rest were not read), 100 are shown and one summary counts the others.
#[test]
fn millions_of_ignore_comments_are_capped() {
    let ids: Vec<String> = (0..10).map(|i| format!("r{i}")).collect();
    let line = format!("// beeuni-lint: ignore[{}]\n", ids.join(","));
    let module = line.repeat(2_000_000 / line.len()) + MODULE;
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with_tool()).file("tools/t.ts", module).commit("ignores");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("2 MB of ignore comments");
    let report = outcome.json();
    let found = of_rule(&report, "unused-ignore");
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(101), "100 shown and one summary");
    assert_eq!(found.len(), 101);
    assert_at(found[0], "unused-ignore", "tools/t.ts", 1, "this ignore comment names `r0`, which is not a rule");
    assert_at(found[99], "unused-ignore", "tools/t.ts", 10, "this ignore comment names `r9`, which is not a rule");
    assert_at(
        found[100],
        "unused-ignore",
        "tools/t.ts",
        11,
        "… and 901 more `unused-ignore` findings in this file (at most 100 of a rule are shown per file)",
    );
    assert_eq!(found[100]["help"], "fix the `unused-ignore` findings shown and run again to see the rest");
}

/// The same in `beeuni.yaml` (its comments come from the YAML parser, not from a module's): 58,000 of them, as
/// many as fit in the 2 MiB of YAML a manifest graph holds.
#[test]
fn millions_of_ignore_comments_in_the_manifest_are_capped() {
    let line = "# beeuni-lint: ignore[tool-name]\n";
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", line.repeat(2_000_000 / line.len()) + MANIFEST).commit("ignores");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("2 MB of ignore comments in beeuni.yaml");
    let report = outcome.json();
    let found = of_rule(&report, "unused-ignore");
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(101));
    assert_at(found[0], "unused-ignore", "beeuni.yaml", 1, "this ignore comment suppresses no `tool-name` finding");
    let message = "… and 901 more `unused-ignore` findings in this file (at most 100 of a rule are shown per file)";
    assert_at(found[100], "unused-ignore", "beeuni.yaml", 101, message);
}

/// The cap counts what is shown: with `--min-severity warning` the info findings are dropped before it, so none
/// of them is summed up; with `[rules]` turning the rule off, none either.
#[test]
fn the_cap_counts_after_min_severity_and_levels() {
    let module = "// beeuni-lint: ignore[nope]\n".repeat(150) + MODULE;
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with_tool()).file("tools/t.ts", module).commit("ignores");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("150 ignore comments");
    let report = outcome.json();
    let found = of_rule(&report, "unused-ignore");
    assert_eq!(found.len(), 101);
    assert_at(
        found[100],
        "unused-ignore",
        "tools/t.ts",
        101,
        "… and 50 more `unused-ignore` findings in this file (at most 100 of a rule are shown per file)",
    );
    let outcome = sandbox.run(&["--format", "json", "--min-severity", "warning", "."]);
    outcome.assert_bounded("150 ignore comments, --min-severity warning");
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]));
    sandbox.file("beeuni-lint.toml", "[rules]\nunused-ignore = \"off\"\n").commit("off");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("150 ignore comments, the rule off");
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]));
}

/// `m/f0.yaml` … `m/f{n-1}.yaml`, each importing the next and `beeuni.yaml`, all imported by `beeuni.yaml`.
fn chain_importing_the_root(n: usize) -> Sandbox {
    let sandbox = Sandbox::new();
    let listed: String = (0..n).map(|i| format!("  - m/f{i}.yaml\n")).collect();
    sandbox.file("beeuni.yaml", format!("imports:\n{listed}{MANIFEST}"));
    for i in 0..n {
        let next = if i + 1 < n { format!("  - m/f{}.yaml\n", i + 1) } else { String::new() };
        sandbox.file(&format!("m/f{i}.yaml"), format!("imports:\n{next}  - beeuni.yaml\n"));
    }
    sandbox.commit("chain");
    sandbox
}

const CYCLE_HELP: &str = "remove one of these imports; each file needs to be imported once";

/// 4,000 files importing one another and the root: one `import-cycle` (not one per import back to the root, each
/// naming the whole chain), its files named up to 8; the graph stops at 1,000 files with a located finding.
#[test]
fn thousands_of_files_importing_the_root_are_one_cycle() {
    let sandbox = chain_importing_the_root(4_000);
    for format in ["json", "github"] {
        let outcome = sandbox.run(&["--format", format, "."]);
        outcome.assert_bounded(&format!("4,000 files in a cycle, --format {format}"));
        assert_eq!(outcome.code, Some(1));
        assert!(outcome.stdout.len() < 10_000, "--format {format}: {} bytes", outcome.stdout.len());
    }
    let report = sandbox.run(&["--format", "json", "."]).json();
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(2), "{report:#}");
    let cycle = of_rule(&report, "import-cycle");
    let named: Vec<String> = (0..7).map(|i| format!("m/f{i}.yaml")).collect();
    let message = format!("import cycle: beeuni.yaml → {} → … and 992 more → beeuni.yaml", named.join(" → "));
    // The first import back to the root the walk meets: the last file opened, after the limit.
    assert_at(cycle[0], "import-cycle", "m/f998.yaml", 3, &message);
    assert_eq!(cycle[0]["help"], CYCLE_HELP);
    assert_eq!(cycle[0]["related"].as_array().map(Vec::len), Some(7));
    let limit = of_rule(&report, "import-path");
    let message = "import `m/f999.yaml` is not followed: the graph already holds 1000 files, as many as beeuni-lint loads; no file past this limit is checked";
    assert_at(limit[0], "import-path", "m/f998.yaml", 2, message);
}

/// Under the limit: 300 files, one finding for the group, and the group counted when it is larger than the cycle
/// named (the first cycle closed is `f299 → root`: the whole chain; with `f0` importing `f1` back, a cycle of 2).
#[test]
fn a_group_of_cycles_is_one_finding() {
    let sandbox = chain_importing_the_root(300);
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("300 files in a cycle");
    let report = outcome.json();
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1), "{report:#}");
    let named: Vec<String> = (0..7).map(|i| format!("m/f{i}.yaml")).collect();
    let message = format!("import cycle: beeuni.yaml → {} → … and 293 more → beeuni.yaml", named.join(" → "));
    assert_at(&report["diagnostics"][0], "import-cycle", "m/f299.yaml", 2, &message);

    sandbox.file("m/f1.yaml", "imports:\n  - m/f0.yaml\n  - m/f2.yaml\n  - beeuni.yaml\n").commit("back");
    let report = sandbox.run(&["--format", "json", "."]).json();
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1), "{report:#}");
    let message =
        "import cycle: m/f0.yaml → m/f1.yaml → m/f0.yaml; 301 files import one another through cycles like it";
    assert_at(&report["diagnostics"][0], "import-cycle", "m/f1.yaml", 2, message);
}

/// One file listing 20,000 imports (of 10 files, again and again): 10,000 are looked at, then one finding.
#[test]
fn a_list_of_imports_is_followed_up_to_the_limit() {
    let sandbox = Sandbox::new();
    let listed: String = (0..20_000).map(|i| format!("  - m/f{}.yaml\n", i % 10)).collect();
    sandbox.file("beeuni.yaml", format!("imports:\n{listed}{MANIFEST}"));
    for i in 0..10 {
        sandbox.file(&format!("m/f{i}.yaml"), "agents: {}\n");
    }
    sandbox.commit("imports");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("20,000 imports");
    let report = outcome.json();
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1), "{report:#}");
    let message = "import `m/f0.yaml` is not followed: it comes after 10000 `imports:` entries, as many as beeuni-lint follows; no file past this limit is checked";
    assert_at(&report["diagnostics"][0], "import-path", "beeuni.yaml", 10_002, message);
}

/// A 5.5 MB config is refused unread: exit 2, one error naming the file and the limit.
#[test]
fn a_config_of_megabytes_is_refused() {
    let rules: String = (0..300_000).map(|i| format!("rule-{i} = \"off\"\n")).collect();
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).file("beeuni-lint.toml", format!("[rules]\n{rules}")).commit("config");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("a 5.5 MB config");
    assert_eq!(outcome.code, Some(2));
    assert_eq!(
        outcome.stderr(),
        "beeuni-lint: the config `beeuni-lint.toml` is larger than 1 MiB (1048576 bytes), the most beeuni-lint reads: a config is a handful of lines; shorten it\n"
    );
    assert!(outcome.stdout.is_empty());
}

/// Under the size limit, a config of 50,000 mistakes lists 100 of them, each located, and counts the rest; a list
/// of more than 1,000 entries and a glob of more than 256 bytes are mistakes too.
#[test]
fn the_mistakes_of_a_config_are_bounded() {
    let rules: String = (0..50_000).map(|i| format!("rule-{i} = \"off\"\n")).collect();
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", MANIFEST).file("beeuni-lint.toml", format!("[rules]\n{rules}")).commit("config");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("50,000 unknown rules");
    assert_eq!(outcome.code, Some(2));
    let stderr = outcome.stderr();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 101, "{}", &stderr[..2000.min(stderr.len())]);
    assert_eq!(
        lines[0],
        "beeuni-lint: beeuni-lint.toml:2:1: unknown rule `rule-0` in [rules]: `beeuni-lint rules` lists the rule ids"
    );
    // Every line of an error starts with `beeuni-lint: ` (no value in it can start a workflow command).
    assert_eq!(lines[100], "beeuni-lint: beeuni-lint.toml: … and 49900 more mistakes: fix those above and run again");

    let tools: Vec<String> = (0..1_001).map(|i| format!("\"t{i}\"")).collect();
    let glob = format!("\"{}\"", "a".repeat(257));
    let config = format!("harness-tools = [{}]\n[paths]\nexclude = [{glob}]\n", tools.join(", "));
    sandbox.file("beeuni-lint.toml", config).commit("lists");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("long lists");
    assert_eq!(outcome.code, Some(2));
    assert_eq!(
        outcome.stderr(),
        "beeuni-lint: beeuni-lint.toml:1:17: `harness-tools` holds 1001 entries, more than the 1000 a list may hold\nbeeuni-lint: beeuni-lint.toml:3:12: this glob is 257 bytes long, more than the 256 a glob may be\n"
    );
}

/// A tool module importing `pkg` (as `x`, used as a value: Bun erases an import it does not use), with `files`
/// around it.
fn importing_pkg(import: &str, files: &[(&str, &str)]) -> Outcome {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with_tool()).file("tools/t.ts", format!("{import}\nconsole.log(x)\n{MODULE}"));
    for (path, text) in files {
        sandbox.file(path, text);
    }
    sandbox.commit("package");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded(import);
    sandbox.assert_untouched(import, &outcome);
    outcome
}

/// 200,000 `exports` patterns: the look-up stops at 10,000 entries and says the import cannot be checked (a
/// warning, never a missing package); with 100 patterns the same import resolves.
#[test]
fn a_package_of_200_000_exports_patterns_is_not_looked_through() {
    let patterns: Vec<String> = (0..200_000).map(|i| format!("\"./a{i}/*\": \"./a{i}/*.js\"")).collect();
    let package = format!("{{\"name\": \"pkg\", \"exports\": {{{}}}}}", patterns.join(", "));
    let outcome = importing_pkg("import x from 'pkg/a7/b'", &[("node_modules/pkg/package.json", &package)]);
    assert_eq!(outcome.code, Some(1));
    let report = outcome.json();
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1), "{report:#}");
    let message = "'pkg/a7/b' cannot be checked statically: \"exports\" of `node_modules/pkg/package.json` is larger than beeuni-lint looks through (10000 entries, a target of 4 KiB)";
    assert_at(&report["diagnostics"][0], "analysis-limit", "tools/t.ts", 1, message);
    assert_eq!(report["diagnostics"][0]["severity"], "warning");

    let package = format!("{{\"name\": \"pkg\", \"exports\": {{{}}}}}", patterns[..100].join(", "));
    let files =
        [("node_modules/pkg/package.json", package.as_str()), ("node_modules/pkg/a7/b.js", "export default 1\n")];
    let outcome = importing_pkg("import x from 'pkg/a7/b'", &files);
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]), "100 patterns resolve");
}

/// A target of a million `*` filled with the subpath would be gigabytes: not built, not checked.
#[test]
fn a_target_of_a_million_stars_is_not_filled_in() {
    let package = format!("{{\"name\": \"pkg\", \"exports\": {{\"./*\": \"./{}\"}}}}", "*".repeat(1_000_000));
    let outcome = importing_pkg("import x from 'pkg/abcdefghijklmnop'", &[("node_modules/pkg/package.json", &package)]);
    let report = outcome.json();
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1), "{report:#}");
    assert_eq!(report["diagnostics"][0]["rule"], "analysis-limit");
}

/// `"#a": "#a"` in `imports`: a target that is not a package is not looked up again (and again).
#[test]
fn an_imports_alias_to_itself_ends() {
    let package = r##"{"name": "app", "imports": {"#a": "#a"}}"##;
    let outcome = importing_pkg("import x from '#a'", &[("package.json", package)]);
    let report = outcome.json();
    let message = "`tools/t.ts` imports `#a`: the alias `#a` of `package.json` maps it to `#a`, which is neither a `./` path nor a package";
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1), "{report:#}");
    assert_at(&report["diagnostics"][0], "module-import-missing", "tools/t.ts", 1, message);
}

/// A byte order mark at the start of `package.json` or `tsconfig.json` is skipped, as Bun does: the package's
/// `main` and the config's `paths` are read (they were ignored: a false "Cannot find module"). Without the file
/// they name, the finding is still there.
#[test]
fn a_byte_order_mark_in_package_json_or_tsconfig_is_skipped() {
    let package = "\u{feff}{\"name\": \"pkg\", \"main\": \"lib/main.js\"}";
    let files = [("node_modules/pkg/package.json", package), ("node_modules/pkg/lib/main.js", "export default 1\n")];
    let outcome = importing_pkg("import x from 'pkg'", &files);
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]), "a package.json with a BOM");
    let outcome = importing_pkg("import x from 'pkg'", &files[..1]);
    let report = outcome.json();
    assert_at(&report["diagnostics"][0], "module-package-missing", "tools/t.ts", 1, "Cannot find module 'pkg'");

    let config = "\u{feff}{\"compilerOptions\": {\"paths\": {\"@lib/*\": [\"./lib/*\"]}}}";
    let files = [("tsconfig.json", config), ("lib/x.ts", "export default 1\n")];
    let outcome = importing_pkg("import x from '@lib/x'", &files);
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]), "a tsconfig.json with a BOM");
}

/// 12 files of 100 missing modules each: 1,000 `module-missing` findings are shown, then one summary for the
/// project (a thousand such files would otherwise report 100,000).
#[test]
fn at_most_a_thousand_findings_of_a_rule_are_shown() {
    let sandbox = Sandbox::new();
    let listed: String = (0..12).map(|i| format!("  - m/f{i:02}.yaml\n")).collect();
    sandbox.file("beeuni.yaml", format!("imports:\n{listed}{MANIFEST}"));
    for i in 0..12 {
        let tools: String = (0..100).map(|j| format!("  f{i}_t{j}: tools/f{i}_t{j}.ts\n")).collect();
        sandbox.file(&format!("m/f{i:02}.yaml"), format!("tools:\n{tools}"));
    }
    sandbox.commit("missing modules");
    let outcome = sandbox.run(&["--format", "json", "--fail-on", "never", "."]);
    outcome.assert_bounded("1,200 missing modules");
    let report = outcome.json();
    let found = of_rule(&report, "module-missing");
    assert_eq!(found.len(), 1_001);
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1_001), "only module-missing");
    let message = "… and 200 more `module-missing` findings in the project (at most 1000 of a rule are shown)";
    assert_at(found[1_000], "module-missing", "m/f10.yaml", 2, message);
    assert_eq!(found[1_000]["severity"], "error");
}

/// An xcsh tool module of one line (1.2 MB) whose factory returns 10,000 tools, each using `ctx.ui` unguarded: the
/// findings were once sorted by each one's UTF-16 column, counted from the line's start (80 s of CPU), and each use
/// searched every tool's `execute` for the one it is in.
#[test]
fn ten_thousand_unguarded_ui_uses_on_one_line_are_bounded() {
    let tool = |i: usize| {
        format!(
            "{{name:'t{i}',description:'d',parameters:pi.typebox.Type.Object({{}}),async execute(a,b,c,ctx,s){{ctx.ui.notify('x')}}}}"
        )
    };
    let tools: Vec<String> = (0..10_000).map(tool).collect();
    let module = format!("export default (pi) => ([{}])\n", tools.join(","));
    // The text is ASCII: a byte offset is a UTF-16 column.
    let columns: Vec<u64> = module.match_indices("ctx.ui").map(|(at, _)| at as u64 + 1).take(100).collect();
    let sandbox = Sandbox::new();
    sandbox.file(".xcsh/tools/many.ts", &module).commit("tools");
    let outcome = sandbox.run(&["--format", "json", "--fail-on", "never", "."]);
    outcome.assert_bounded("10,000 unguarded ctx.ui on one line");
    let report = outcome.json();
    let found = of_rule(&report, "xcsh-ui-guard");
    assert_eq!(found.len(), 101, "100 shown and one summary");
    let message = "`ctx.ui` is used in `.xcsh/tools/many.ts` outside a test of `hasUI`: without a UI it is a no-op";
    assert_at(found[0], "xcsh-ui-guard", ".xcsh/tools/many.ts", 1, message);
    let shown: Vec<u64> = found[..100].iter().filter_map(|f| f["column"].as_u64()).collect();
    assert_eq!(shown, columns, "in the order of the line");
}

/// Spreads of spreads: eight levels of objects, each spreading the one below 2,000 times, would be 2,000^8 reads if
/// each were followed. The objects read through are bounded (64 a module): the run ends at once, and the spread
/// past the bound leaves `description` and `parameters` not read (`module-unanalyzable`).
#[test]
fn spreads_of_spreads_are_read_up_to_the_bound() {
    let mut module = String::from("const o0 = { description: 'd', parameters: { type: 'object' } }\n");
    for level in 1..=8 {
        let spreads: String = (0..2_000).map(|_| format!("...o{}, ", level - 1)).collect();
        module.push_str(&format!("const o{level} = {{ {spreads}}}\n"));
    }
    module.push_str("export default { ...o8, execute() {} }\n");
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with_tool()).file("tools/t.ts", module).commit("spreads");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("spreads of spreads");
    let report = outcome.json();
    let rules: Vec<&str> =
        report["diagnostics"].as_array().unwrap().iter().map(|d| d["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["module-unanalyzable"; 2], "{report:#}");
}
