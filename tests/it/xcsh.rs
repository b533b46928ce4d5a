//! docs/spec/rules.md §6, xcsh custom tools, through the real binary: what the snapshots of each rule's triggering
//! fixture and clean twin (`tests/fixtures/xcsh-<rule>[-clean]`, the tools in `.xcsh/tools/` and no `beeuni.yaml`;
//! tests/it/fixture_reports.rs) do not show (helps, related locations), cases written on the fly, the docs'
//! `repo_stats` example with and without a manifest beside it, discovery (`--xcsh`, `xcsh-paths`, symlinks),
//! the loading rules of §4 on xcsh tools, `ls`, and the report formats.

use crate::common::*;
use serde_json::Value;

const TOOL: &str = ".xcsh/tools/repo_stats.ts";

/// A repository-less project with these files, linted.
fn lint(files: &[(&str, &str)], args: &[&str]) -> (i32, Value) {
    let dir = project(files);
    json_in(dir.path(), args)
}

/// A tool named `name`, complete and clean, in the docs' form.
fn tool(name: &str) -> String {
    format!(
        "export default (pi) => ({{\n  name: '{name}',\n  description: 'x',\n  parameters: pi.typebox.Type.Object({{}}),\n  async execute(toolCallId, params, onUpdate, ctx, signal) {{ return {{ content: [] }} }},\n}})\n"
    )
}

#[test]
fn xcsh_export_says_this_is_the_beeuni_form() {
    let report = run("xcsh-export", &[]).1;
    // The help wraps the module's own object, named after the file, not the docs' example.
    assert_help(
        &report["diagnostics"][0],
        "return the object from a factory, with a `name`: `export default (pi) => ({ name: \"lookup_order\", description: …, parameters: …, execute: … })`; make `parameters` a TypeBox schema (`pi.typebox.Type.Object({ … })`) and take `execute(toolCallId, params, onUpdate, ctx, signal)`; a Beeuni tool belongs under `tools:` in beeuni.yaml",
    );
}

#[test]
fn xcsh_export_without_a_function_or_with_a_literal() {
    let (code, report) = lint(&[(TOOL, "// a tool\nexport const name = 'repo_stats'\n")], &[]);
    let message =
        "`.xcsh/tools/repo_stats.ts` exports no function: an xcsh custom tool module exports a factory `(pi) => tool`";
    assert_findings(&report, &[("xcsh-export", "error", TOOL, 1, 1, message)]);
    assert_eq!(code, 1);
    let (_, report) = lint(&[(TOOL, "const tool = null\n\nexport default tool\n")], &[]);
    let message = "`.xcsh/tools/repo_stats.ts` exports `null`, not a function: an xcsh custom tool module exports a factory `(pi) => tool`";
    assert_findings(&report, &[("xcsh-export", "error", TOOL, 3, 1, message)]);
    // The loader takes `module.default ?? module`: a named function export alone is not taken (the fixtures
    // `xcsh-named-factory[-clean]` are the reading's).
    let named = tool("repo_stats").replace("export default (pi) =>", "export const factory = (pi) =>");
    let (code, report) = lint(&[(TOOL, &named)], &[]);
    let message = "`.xcsh/tools/repo_stats.ts` has no default export: the loader takes `module.default ?? module`, not the named `factory`, and the loader fails with \"Tool must export a default function\"";
    assert_findings(&report, &[("xcsh-export", "error", TOOL, 1, 1, message)]);
    assert_help(&diagnostics(&report)[0], "export the factory as the default: `export default factory`");
    assert_eq!(code, 1);
}

#[test]
fn xcsh_factory_return_tells_an_extension_apart() {
    let report = run("xcsh-factory-return", &[]).1;
    assert_help(
        &report["diagnostics"][0],
        "extensions are loaded by another path: move it where xcsh loads extensions, or return the tool from the factory instead of registering it",
    );
    let (_, report) = lint(&[(TOOL, "export default function factory(pi) {\n  const tool = { name: 'x' }\n}\n")], &[]);
    let message = "the factory of `.xcsh/tools/repo_stats.ts` returns nothing: it must return a tool, an array of tools, or a Promise of either";
    assert_findings(&report, &[("xcsh-factory-return", "error", TOOL, 1, 16, message)]);
}

#[test]
fn xcsh_tool_shape() {
    // Each tool of an array; every spelling of a key counts.
    let source = "export default (pi) => [\n  { name: 'a', ['description']: 'x', 'parameters': pi.typebox.Type.Object({}), [`execute`]() {} },\n  { description: 'x' },\n]\n";
    let (_, report) = lint(&[(TOOL, source)], &[]);
    let message = "A tool returned by `.xcsh/tools/repo_stats.ts` lacks `name`, `parameters` and `execute`";
    assert_findings(&report, &[("xcsh-tool-shape", "error", TOOL, 3, 3, message)]);
}

#[test]
fn xcsh_name() {
    let (_, report) = lint(&[(TOOL, &tool(""))], &[]);
    let message = "a tool in `.xcsh/tools/repo_stats.ts` has an empty `name`";
    assert_findings(&report, &[("xcsh-name", "error", TOOL, 2, 3, message)]);
}

#[test]
fn xcsh_name_conflict_across_folders_and_with_built_ins() {
    let report = run("xcsh-name-conflict", &[]).1;
    assert_related(&report["diagnostics"][0], 0, TOOL, 2, 3, "the tool xcsh loads first");
    // Within one file too; hidden built-ins count.
    let source = "export default (pi) => [\n  { name: 'a', description: 'x', parameters: pi.typebox.Type.Object({}), execute(id, p) {} },\n  { name: 'a', description: 'x', parameters: pi.typebox.Type.Object({}), execute(id, p) {} },\n  { name: 'resolve', description: 'x', parameters: pi.typebox.Type.Object({}), execute(id, p) {} },\n]\n";
    let (_, report) = lint(&[(TOOL, source)], &[]);
    assert_eq!(rule_ids(&report), ["xcsh-name-conflict", "xcsh-name-conflict"]);
    assert_eq!(diagnostics(&report)[0]["line"], 3);
    assert_eq!(diagnostics(&report)[1]["line"], 4);
}

#[test]
fn xcsh_parameters() {
    // zod is named; the imported package must resolve like any package.
    let source = format!(
        "import {{ z }} from 'zod'\n{}",
        tool("repo_stats").replace("pi.typebox.Type.Object({})", "z.object({})")
    );
    let (_, report) = lint(&[(TOOL, &source)], &[]);
    assert_eq!(rule_ids(&report), ["module-package-missing", "xcsh-parameters"]);
    assert!(diagnostics(&report)[1]["message"].as_str().unwrap().contains("is a zod schema, not a TypeBox schema"));
}

#[test]
fn xcsh_signal() {
    let report = run("xcsh-signal", &[]).1;
    assert_help(&report["diagnostics"][0], "forward signal to subprocess work: pi.exec(..., { signal })");
}

/// A tool object the factory changes after declaring it (written through, or given to `Object.assign`) is not
/// read as declared: that one lacks `execute`, the one returned has it. A tool only read is still checked.
#[test]
fn a_tool_changed_after_its_declaration_is_not_read_as_declared() {
    let declared = "  const tool = { name: 'a', description: 'x', parameters: pi.typebox.Type.Object({}) }\n";
    let execute = "async (toolCallId, params, onUpdate, ctx, signal) => ({ content: [] })";
    let message = "a tool returned by `.xcsh/tools/repo_stats.ts` could not be checked: the tool is the binding `tool`, whose value is not known statically";
    for change in
        [format!("  tool.execute = {execute}\n"), format!("  Object.assign(tool, {{ execute: {execute} }})\n")]
    {
        let source = format!("export default (pi) => {{\n{declared}{change}  return tool\n}}\n");
        let (code, report) = lint(&[(TOOL, &source)], &[]);
        assert_findings(&report, &[("xcsh-unanalyzable", "info", TOOL, 4, 10, message)]);
        assert_eq!(code, 0);
    }
    let source = format!("export default (pi) => {{\n{declared}  console.log(tool.name)\n  return tool\n}}\n");
    let (_, report) = lint(&[(TOOL, &source)], &[]);
    let lacks = "The tool `a` returned by `.xcsh/tools/repo_stats.ts` lacks `execute`";
    assert_findings(&report, &[("xcsh-tool-shape", "error", TOOL, 2, 16, lacks)]);
}

#[test]
fn the_docs_repo_stats_example_is_clean_with_and_without_a_manifest() {
    let (code, report) = run("xcsh-docs-repo-stats", &[]);
    assert_clean("repo_stats alone", code, &report);
    let dir = fixture("xcsh-docs-repo-stats");
    write(
        dir.path(),
        "beeuni.yaml",
        b"tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n",
    );
    write(dir.path(), "tools/lookup_order.ts", MODULE.as_bytes());
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("repo_stats beside beeuni.yaml", code, &report);
}

#[test]
fn one_run_checks_the_manifest_and_the_xcsh_tools() {
    let (code, report) = lint(
        &[
            ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n"),
            ("tools/lookup_order.ts", &tool("lookup_order")),
            (TOOL, "export default { description: 'x', parameters: {}, execute() {} }\n"),
        ],
        &[],
    );
    assert_eq!(rule_ids(&report), ["xcsh-export", "module-factory-export"]);
    assert_eq!(code, 1);
    // The two contracts mirror each other.
    let beeuni = &diagnostics(&report)[1];
    assert_eq!(
        beeuni["message"],
        "`tools/lookup_order.ts` exports a function that makes the tool (the xcsh/pi factory form): Beeuni never calls it and expects a plain object `{ description, parameters, execute }`"
    );
    assert!(beeuni["help"].as_str().unwrap().ends_with("an xcsh custom tool belongs in `.xcsh/tools/`"));
}

#[test]
fn no_manifest_and_no_xcsh_folder_is_still_exit_2() {
    let dir = project(&[("README.md", "hi\n")]);
    let run = run_in(dir.path(), &["."]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no beeuni.yaml"), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn a_symlinked_duplicate_is_one_tool() {
    let dir = fixture("xcsh-docs-repo-stats");
    std::fs::create_dir_all(dir.path().join(".claude/tools")).unwrap();
    std::os::unix::fs::symlink("../../.xcsh/tools/repo_stats.ts", dir.path().join(".claude/tools/repo_stats.ts"))
        .unwrap();
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("symlinked duplicate", code, &report);
    let listed: Value = serde_json::from_str(&run_in(dir.path(), &["ls", "--json", "."]).stdout).unwrap();
    assert_eq!(listed["xcsh"], serde_json::json!([{ "name": "repo_stats", "path": TOOL }]));
}

#[test]
fn xcsh_folders_from_the_command_line_and_the_config() {
    let files = [(TOOL, tool("repo_stats")), ("agent/tools/more.ts", tool("repo_stats"))];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let dir = project(&files);
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("without --xcsh", code, &report);
    let message = "the tool name `repo_stats` in `agent/tools/more.ts` is taken by `.xcsh/tools/repo_stats.ts`: tool names must be unique in the active registry";
    let expected = [("xcsh-name-conflict", "error", "agent/tools/more.ts", 2, 3, message)];
    let (code, report) = json_in(dir.path(), &["--xcsh", "agent/tools"]);
    assert_findings(&report, &expected);
    assert_eq!(code, 1);
    write(dir.path(), "beeuni-lint.toml", b"xcsh-paths = [\"agent/tools\"]\n");
    let (_, report) = json_in(dir.path(), &[]);
    assert_findings(&report, &expected);
    // Given twice (flag and config), a folder is read once.
    let (_, report) = json_in(dir.path(), &["--xcsh", "agent/tools"]);
    assert_findings(&report, &expected);
    // An --xcsh folder alone makes a project without a manifest lintable.
    let dir = project(&[("agent/tools/more.ts", &tool("grep"))]);
    let (_, report) = json_in(dir.path(), &["--xcsh", "agent/tools"]);
    assert_eq!(rule_ids(&report), ["xcsh-name-conflict"]);
    let run = run_in(dir.path(), &["--xcsh", "/", "."]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--xcsh `/` is outside the project"), "{}", run.stderr);
    write(dir.path(), "beeuni-lint.toml", b"xcsh-paths = [\"nowhere\"]\n");
    let run = run_in(dir.path(), &["."]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("xcsh-paths: `nowhere` is not a folder of the project"), "{}", run.stderr);
}

#[test]
fn loading_rules_apply_to_xcsh_tools_but_not_the_harness_import_rules() {
    let broken = format!(
        "import {{ helper }} from './lib/helper'\nimport {{ Type }} from '@f5-sales-demo/xcsh'\nconsole.log(helper, Type)\n{}",
        tool("a")
    );
    let (_, report) = lint(
        &[
            (TOOL, &broken),
            (".xcsh/tools/syntax.ts", "export default (pi) => ({\n"),
            (".codex/tools/b.tsx", &tool("b")),
        ],
        &[],
    );
    let found: Vec<(&str, &str, u64)> = diagnostics(&report)
        .iter()
        .map(|d| (d["rule"].as_str().unwrap(), d["path"].as_str().unwrap(), d["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(found, [("module-import-missing", TOOL, 1), ("module-syntax", ".xcsh/tools/syntax.ts", 2)]);
}

#[test]
fn ignore_comments_work_in_xcsh_tools() {
    let source = format!(
        "// beeuni-lint: ignore[xcsh-name]\n{}",
        tool("a b").replace("  name: 'a b',", "  name: 'a b', // beeuni-lint: ignore[xcsh-name]")
    );
    let (code, report) = lint(&[(TOOL, &source)], &[]);
    assert_eq!(rule_ids(&report), ["unused-ignore"]);
    assert_eq!(code, 0);
}

/// Ignores work in every file the linter reports on (docs/spec/rules.md §10, revision 2), an xcsh folder's Markdown
/// metadata too: an HTML comment on line 1, or alone above the first line of text.
#[test]
fn ignore_comments_work_in_xcsh_metadata_files() {
    let tool = tool("repo_stats");
    let md = ".xcsh/tools/repo_stats.md";
    let message = "`.xcsh/tools/repo_stats.md` is metadata in an xcsh tool folder: the loader never loads it as a tool";
    let (_, report) = lint(&[(TOOL, &tool), (md, "# Repo stats\n")], &[]);
    assert_findings(&report, &[("xcsh-metadata-file", "info", md, 1, 1, message)]);
    for text in [
        "# Repo stats <!-- beeuni-lint: ignore[xcsh-metadata-file] -->\n",
        "<!-- beeuni-lint: ignore[xcsh-metadata-file] -- documents the tool -->\n\n# Repo stats\n",
        "<!--\n  notes\n-->\n<!-- beeuni-lint: ignore[xcsh-metadata-file] -->\n# Repo stats\n",
    ] {
        let (code, report) = lint(&[(TOOL, &tool), (md, text)], &[]);
        assert_eq!((code, diagnostics(&report).len()), (0, 0), "{text:?}: {report:#}");
    }
    // Below the first line of text it speaks for the next line only: unused.
    let (_, report) =
        lint(&[(TOOL, &tool), (md, "# Repo stats\n<!-- beeuni-lint: ignore[xcsh-metadata-file] -->\n")], &[]);
    assert_eq!(rule_ids(&report), ["xcsh-metadata-file", "unused-ignore"], "{report:#}");
}

#[test]
fn ls_lists_xcsh_tools_after_the_beeuni_table() {
    let dir = fixture("xcsh-name-conflict");
    let run = run_in(dir.path(), &["ls", "."]);
    assert_eq!(run.stdout, "xcsh custom tools:\nNAME        FILE\nrepo_stats  .xcsh/tools/repo_stats.ts\n");
    write(dir.path(), "beeuni.yaml", b"tools:\n  web_search: beeuni:web_search\n");
    let run = run_in(dir.path(), &["ls", "."]);
    assert!(
        run.stdout.starts_with("NAME        KIND    SOURCE\nweb_search  beeuni  beeuni:web_search\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("\n\nxcsh custom tools:\nNAME        FILE\nrepo_stats  .xcsh/tools/repo_stats.ts\n"),
        "{}",
        run.stdout
    );
    let listed: Value = serde_json::from_str(&run_in(dir.path(), &["ls", "--json", "."]).stdout).unwrap();
    assert_eq!(listed["manifest"], "beeuni.yaml");
    assert_eq!(listed["xcsh"], serde_json::json!([{ "name": "repo_stats", "path": TOOL }]));
    // Without xcsh tools, no `xcsh` key.
    let dir = project(&[("beeuni.yaml", "agents: {}\n")]);
    let listed: Value = serde_json::from_str(&run_in(dir.path(), &["ls", "--json", "."]).stdout).unwrap();
    assert!(listed.get("xcsh").is_none(), "{listed}");
}

/// `ls` and `agents` take `--xcsh` and `--config` as `check` does: they see the same xcsh folders.
#[test]
fn ls_and_agents_take_xcsh_folders_and_the_config_as_check_does() {
    let dir = project(&[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n"), ("agent/tools/more.ts", &tool("more"))]);
    let listed = |args: &[&str]| -> Value {
        let run = run_in(dir.path(), args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        serde_json::from_str(&run.stdout).unwrap()
    };
    assert!(listed(&["ls", "--json", "."]).get("xcsh").is_none());
    let expected = serde_json::json!([{ "name": "more", "path": "agent/tools/more.ts" }]);
    assert_eq!(listed(&["ls", "--json", "--xcsh", "agent/tools", "."])["xcsh"], expected);
    let run = run_in(dir.path(), &["ls", "--xcsh", "agent/tools", "."]);
    assert!(run.stdout.ends_with("xcsh custom tools:\nNAME  FILE\nmore  agent/tools/more.ts\n"), "{}", run.stdout);
    write(dir.path(), "other.toml", b"xcsh-paths = [\"agent/tools\"]\n");
    assert_eq!(listed(&["ls", "--json", "--config", "other.toml", "."])["xcsh"], expected);
    // `agents`: the config's harness tools are tools an agent lists; an --xcsh folder alone is a project.
    write(dir.path(), "other.toml", b"harness-tools = [\"my_builtin\"]\n");
    write(dir.path(), "beeuni.yaml", b"agents:\n  a:\n    tools: [my_builtin]\n");
    let names = |access: &Value| -> Vec<String> {
        access[0]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
    };
    assert!(names(&listed(&["agents", "--json", "."])).is_empty());
    assert_eq!(names(&listed(&["agents", "--json", "--config", "other.toml", "."])), ["my_builtin"]);
    std::fs::remove_file(dir.path().join("beeuni.yaml")).unwrap();
    assert_eq!(run_in(dir.path(), &["agents", "."]).code, 2);
    assert_eq!(listed(&["agents", "--json", "--xcsh", "agent/tools", "."]), serde_json::json!([]));
    let run = run_in(dir.path(), &["ls", "--xcsh", "agent/tools", "."]);
    assert_eq!(run.stdout, "xcsh custom tools:\nNAME  FILE\nmore  agent/tools/more.ts\n");
}

#[test]
fn sarif_github_and_human_formats_carry_the_xcsh_rules() {
    let dir = fixture("xcsh-name-conflict");
    let sarif: Value = serde_json::from_str(&run_in(dir.path(), &["--format", "sarif", "."]).stdout).unwrap();
    let rules: Vec<&str> = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for id in [
        "xcsh-export",
        "xcsh-factory-return",
        "xcsh-tool-shape",
        "xcsh-name",
        "xcsh-name-conflict",
        "xcsh-parameters",
        "xcsh-execute-signature",
        "xcsh-signal",
        "xcsh-ui-guard",
        "xcsh-metadata-file",
        "xcsh-unanalyzable",
    ] {
        assert!(rules.contains(&id), "SARIF lacks {id}");
    }
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "xcsh-name-conflict");
    assert_eq!(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], ".claude/tools/stats.ts");
    let github = run_in(dir.path(), &["--format", "github", "."]).stdout;
    assert!(
        github.starts_with("::error file=.claude/tools/stats.ts,line=2,col=3,endLine=2,endColumn=")
            && github.contains("title=beeuni-lint (xcsh-name-conflict)::the tool name `repo_stats`"),
        "{github}"
    );
    let human = run_in(dir.path(), &["--format", "human", "."]).stdout;
    assert!(human.contains("error[xcsh-name-conflict]") && human.contains(".codex/tools/search.ts:2:3"), "{human}");
}

#[test]
fn an_untracked_xcsh_tool_is_reported_until_added() {
    let dir = fixture("xcsh-docs-repo-stats");
    git(dir.path(), &["init", "-q"]);
    let (code, report) = json_in(dir.path(), &[]);
    let message = "xcsh tool `.xcsh/tools/repo_stats.ts` is not tracked by git yet: a config release contains only files Git tracks";
    assert_findings(&report, &[("file-untracked", "info", TOOL, 1, 1, message)]);
    assert_eq!(code, 0);
    git(dir.path(), &["add", "."]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("tracked xcsh tool", code, &report);
}

#[test]
fn helpers_of_xcsh_tools_are_part_of_them() {
    let tool_source = format!("import {{ count }} from './lib/count'\nconsole.log(count)\n{}", tool("a"));
    let (_, report) = lint(
        &[
            (TOOL, &tool_source),
            (
                ".xcsh/tools/lib/count.ts",
                "import { x } from '@f5-sales-demo/xcsh'\nimport { y } from './gone'\nexport const count = process.env.API_KEY\nconsole.log(x, y)\n",
            ),
        ],
        &[],
    );
    let found = diagnostics(&report);
    assert_eq!(rule_ids(&report), ["module-import-missing"], "{report:#}");
    assert_eq!(found[0]["path"], ".xcsh/tools/lib/count.ts");
    assert_eq!(found[0]["line"], 2);
    assert_related(&found[0], 0, TOOL, 1, 1, "imported by `.xcsh/tools/repo_stats.ts`");
}
