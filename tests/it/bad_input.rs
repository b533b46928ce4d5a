//! Bad input never panics: every run here exits 0, 1 or 2 with no "panicked"
//! on stderr (checked by `run_in`), and where a finding is due, it is at the
//! right place.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

/// Lints a project whose `beeuni.yaml` holds `bytes` (plus `files`).
fn lint_bytes(bytes: &[u8], files: &[(&str, &str)]) -> (i32, Value) {
    let dir = project(files);
    write(dir.path(), "beeuni.yaml", bytes);
    json_in(dir.path(), &[])
}

/// The parts of each finding that do not depend on byte offsets.
fn places(report: &Value) -> Vec<(String, u64, u64, u64, u64, String)> {
    diagnostics(report)
        .iter()
        .map(|d| {
            let n = |k: &str| d[k].as_u64().unwrap();
            let s = |k: &str| d[k].as_str().unwrap().to_string();
            (s("rule"), n("line"), n("column"), n("end_line"), n("end_column"), s("message"))
        })
        .collect()
}

const TOOL_NAME: &str = "tool name `Bad` is not snake_case of at most 64 characters: it has the upper-case letter `B`";

#[test]
fn invalid_yaml_points_at_the_line() {
    let (code, report) = lint_bytes(b"tools:\n  web_search: beeuni:web_search\n  memory: [beeuni:memory\n", &[]);
    assert_eq!(code, 1);
    assert_eq!(rule_ids(&report), ["yaml-syntax"], "{report:#}");
    assert_eq!(diagnostics(&report)[0]["path"], "beeuni.yaml");
    assert!(diagnostics(&report)[0]["line"].as_u64().unwrap() >= 3, "{report:#}");
}

#[test]
fn non_utf8_bytes_are_reported_at_their_line() {
    let (code, report) = lint_bytes(b"tools:\n  web_search: beeuni:web_search\n  memory: \"\xff\xfe\"\n", &[]);
    assert_eq!(code, 1);
    let message = "this file is not valid UTF-8: YAML files must be UTF-8";
    assert_findings(&report, &[("yaml-syntax", "error", "beeuni.yaml", 3, 1, message)]);
}

#[test]
fn a_bom_is_read_and_later_lines_keep_their_places() {
    let (code, report) = lint_bytes(
        b"\xef\xbb\xbftools:\n  web_search: beeuni:web_search\n  Bad: tools/x.ts\n",
        &[("tools/x.ts", MODULE)],
    );
    assert_eq!(code, 1);
    assert_findings(&report, &[("tool-name", "error", "beeuni.yaml", 3, 3, TOOL_NAME)]);
}

#[test]
fn spec_bom_is_not_a_column() {
    let (_, report) = lint_bytes(b"\xef\xbb\xbfTools:\n  web_search: beeuni:web_search\n", &[]);
    assert_eq!(rule_ids(&report), ["unknown-key"]);
    assert_eq!(diagnostics(&report)[0]["column"], 1, "{report:#}");
}

#[test]
fn crlf_line_endings_keep_every_position() {
    let lf = "tools:\n  web_search: beeuni:web_search\n  Bad: tools/x.ts\nagents:\n  a:\n    tools:\n      - read\n      - grpe\n  b:\n    tools: [bsh]\n";
    let (lf_code, lf_report) = lint_bytes(lf.as_bytes(), &[("tools/x.ts", MODULE)]);
    let crlf = lf.replace('\n', "\r\n");
    let (code, report) = lint_bytes(crlf.as_bytes(), &[("tools/x.ts", MODULE)]);
    assert_eq!(code, lf_code);
    assert_eq!(places(&report), places(&lf_report), "{report:#}");
    assert_eq!(rule_ids(&report), ["tool-name", "unknown-tool", "unknown-tool"]);
    assert_finding(
        &diagnostics(&report)[1],
        &(
            "unknown-tool",
            "warning",
            "beeuni.yaml",
            8,
            7,
            "agent `a` lists `grpe`, which is not a known tool: it is ignored",
        ),
    );
    // The end of a finding stops before the `\r`.
    assert_eq!(diagnostics(&report)[1]["end_column"], 13, "{report:#}");
}

#[test]
fn a_tab_indentation_is_a_syntax_error() {
    let (code, report) = lint_bytes(b"tools:\n\tweb_search: beeuni:web_search\n", &[]);
    assert_eq!(code, 1);
    assert_eq!(rule_ids(&report), ["yaml-syntax"]);
    assert_eq!(diagnostics(&report)[0]["line"], 2, "{report:#}");
}

#[test]
fn a_second_document_is_reported_at_its_marker() {
    let (code, report) = lint_bytes(b"tools:\n  web_search: beeuni:web_search\n---\ntools: {}\n", &[]);
    assert_eq!(code, 1);
    let message = "a second YAML document starts here: a manifest file holds exactly one";
    assert_findings(&report, &[("yaml-syntax", "error", "beeuni.yaml", 3, 1, message)]);
}

#[test]
fn empty_and_comment_only_files_are_clean() {
    for bytes in [&b""[..], b"# just a comment\n", b"\n\n", b"# a\n# b"] {
        let (code, report) = lint_bytes(bytes, &[]);
        assert_clean(&format!("{bytes:?}"), code, &report);
    }
}

#[test]
fn a_root_that_is_not_a_mapping_is_manifest_shape() {
    let (code, report) = lint_bytes(b"- web_search\n- memory\n", &[]);
    assert_eq!(code, 1);
    let message = "the root of `beeuni.yaml` must be a mapping, not a list";
    assert_findings(&report, &[("manifest-shape", "error", "beeuni.yaml", 1, 1, message)]);
}

#[test]
fn anchors_aliases_and_merge_keys() {
    let yaml = "tools:\n  web_search: &ws beeuni:web_search\n  memory: beeuni:memory\nx-base: &base\n  tools: [read, grpe]\nagents:\n  a:\n    <<: *base\n    secrets: [X]\n  b: *base\n  c:\n    <<: *base\n    tools: [bash]\n  d:\n    tools: [read, *ws]\n";
    let (code, report) = lint_bytes(yaml.as_bytes(), &[]);
    assert_eq!(code, 1);
    // `a` gets the merged list, `b` the aliased mapping; `c` overrides it; all
    // point at the one place the name is written.
    let grpe = |agent: &str| format!("agent `{agent}` lists `grpe`, which is not a known tool: it is ignored");
    let (a, b) = (grpe("a"), grpe("b"));
    let d = "agent `d` lists `beeuni:web_search`, which is not a known tool: it is ignored";
    assert_findings(
        &report,
        &[
            ("unknown-tool", "warning", "beeuni.yaml", 5, 17, &a),
            ("unknown-tool", "warning", "beeuni.yaml", 5, 17, &b),
            ("unknown-tool", "warning", "beeuni.yaml", 15, 19, d),
        ],
    );
}

#[test]
fn an_alias_bomb_is_cheap() {
    let mut yaml = String::from("a0: &a0 [x, x, x, x, x, x]\n");
    for level in 1..=30 {
        let prev = format!("*a{}", level - 1);
        yaml.push_str(&format!("a{level}: &a{level} [{}]\n", vec![prev; 6].join(", ")));
    }
    yaml.push_str("agents:\n  z:\n    tools: *a30\n");
    let (code, report) = lint_bytes(yaml.as_bytes(), &[]);
    assert_eq!(code, 1);
    assert_eq!(rule_ids(&report), ["agent-tools-shape"], "{report:#}");
}

#[test]
fn deep_nesting_is_a_syntax_error_not_a_stack_overflow() {
    let open = format!("tools: {}\n", "[".repeat(100_000));
    let (code, report) = lint_bytes(open.as_bytes(), &[]);
    assert_eq!(code, 1);
    assert_eq!(rule_ids(&report), ["yaml-syntax"]);
    assert_eq!(diagnostics(&report)[0]["line"], 1);
    let balanced = format!("x: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    let (code, _) = lint_bytes(balanced.as_bytes(), &[]);
    assert!(code <= 1);
}

/// As long as a line of the 2 MiB a manifest graph holds can be.
#[test]
fn a_two_megabyte_line() {
    let yaml =
        format!("x: \"{}\"\ntools:\n  web_search: beeuni:web_search\n  Bad: tools/x.ts\n", "a".repeat(2_000_000));
    let (code, report) = lint_bytes(yaml.as_bytes(), &[("tools/x.ts", MODULE)]);
    assert_eq!(code, 1);
    assert_findings(&report, &[("tool-name", "error", "beeuni.yaml", 4, 3, TOOL_NAME)]);
}

#[test]
fn twenty_thousand_tools() {
    let mut yaml = String::from("tools:\n  web_search: beeuni:web_search\n");
    for i in 0..20_000 {
        yaml.push_str(&format!("  tool_{i}: tools/x.ts\n"));
    }
    yaml.push_str("  Bad: tools/x.ts\n");
    let (code, report) = lint_bytes(yaml.as_bytes(), &[("tools/x.ts", MODULE)]);
    assert_eq!(code, 1);
    assert_findings(&report, &[("tool-name", "error", "beeuni.yaml", 20_003, 3, TOOL_NAME)]);
}

#[test]
fn an_import_that_is_a_folder() {
    let (code, report) = lint_bytes(
        b"imports: [config]\ntools:\n  web_search: beeuni:web_search\n",
        &[("config/agents.yaml", "agents: {}\n")],
    );
    assert_eq!(code, 1);
    let message = "imported file `config` is a folder, not a file";
    assert_findings(&report, &[("import-missing", "error", "beeuni.yaml", 1, 11, message)]);
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn fifos_are_never_opened() {
    let dir = project(&[(
        "beeuni.yaml",
        "imports: [pipe.yaml]\ntools:\n  web_search: beeuni:web_search\n  piped: tools/pipe.ts\n",
    )]);
    std::fs::create_dir(dir.path().join("tools")).unwrap();
    mkfifo(&dir.path().join("pipe.yaml"));
    mkfifo(&dir.path().join("tools/pipe.ts"));
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    let import = "imported file `pipe.yaml` is not a regular file (a FIFO, socket or device)";
    let module = "module `tools/pipe.ts` of tool `piped` is not a regular file (a FIFO, socket or device)";
    assert_findings(
        &report,
        &[
            ("import-missing", "error", "beeuni.yaml", 1, 11, import),
            ("module-missing", "error", "beeuni.yaml", 4, 3, module),
        ],
    );
    // A manifest that is a FIFO is an unreadable repository.
    let fifo_root = tempfile::TempDir::new().unwrap();
    mkfifo(&fifo_root.path().join("beeuni.yaml"));
    let run = run_in(fifo_root.path(), &["."]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("is not a regular file"), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_repository_are_never_read() {
    let outside = project(&[
        ("secret.yaml", "tools:\n  leaked: TOPSECRET_IMPORT_CONTENT\n"),
        ("secret.ts", "export default 'TOPSECRET_MODULE_CONTENT'\n"),
    ]);
    let dir = project(&[(
        "beeuni.yaml",
        "imports:\n  - config/shared.yaml\ntools:\n  web_search: beeuni:web_search\n  helper: tools/helper.ts\n",
    )]);
    std::fs::create_dir_all(dir.path().join("config")).unwrap();
    std::fs::create_dir_all(dir.path().join("tools")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.yaml"), dir.path().join("config/shared.yaml")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.ts"), dir.path().join("tools/helper.ts")).unwrap();
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    let import = "import `config/shared.yaml` resolves through a symlink to outside the repository";
    let module = "module `tools/helper.ts` is a symlink to outside the repository; its target is not read";
    assert_findings(
        &report,
        &[
            ("import-path", "error", "beeuni.yaml", 2, 3, import),
            ("module-missing", "error", "beeuni.yaml", 5, 3, module),
        ],
    );
    for format in ["json", "human", "short"] {
        let run = run_in(dir.path(), &["--format", format, "."]);
        for secret in ["TOPSECRET", "leaked"] {
            assert!(!run.stdout.contains(secret), "{format} output shows {secret}:\n{}", run.stdout);
        }
    }
}

#[test]
fn import_cycles_are_found_through_dot_and_dot_dot() {
    let dir = project(&[
        ("beeuni.yaml", "imports:\n  - ./a.yaml\ntools:\n  web_search: beeuni:web_search\n"),
        ("a.yaml", "imports:\n  - config/b.yaml\n"),
        ("config/b.yaml", "imports:\n  - config/../a.yaml\n  - ./beeuni.yaml\n"),
    ]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    // One finding for the three files that import one another, at the first import that closes a cycle.
    assert_findings(
        &report,
        &[(
            "import-cycle",
            "error",
            "config/b.yaml",
            2,
            3,
            "import cycle: a.yaml → config/b.yaml → a.yaml; 3 files import one another through cycles like it",
        )],
    );
    assert_eq!(report["summary"]["files"], 3);
}

/// A manifest over the 32 MiB beeuni-lint reads: a located `yaml-syntax` finding on it, not an exit 2 that
/// names an absolute path.
#[test]
fn a_manifest_over_32_mib_is_a_located_finding() {
    let mut yaml = over_the_limit(b"tools:\n  web_search: beeuni:web_search\n#");
    yaml.push(b'\n');
    let dir = project(&[]);
    write(dir.path(), "beeuni.yaml", &yaml);
    let run = run_in(dir.path(), &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let root = dir.path().canonicalize().unwrap();
    assert!(!run.stdout.contains(root.to_str().unwrap()), "{}", run.stdout);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let message =
        "this file is 34603009 bytes, more than the 33554432 bytes beeuni-lint reads: nothing in it was checked";
    assert_findings(&report, &[("yaml-syntax", "error", "beeuni.yaml", 1, 1, message)]);
}

/// An imported file over 32 MiB is there: the finding goes on it (`yaml-syntax` at its start, once however many
/// files import it), not `import-missing` on the entries that name it; in git, tracking still covers it.
#[test]
fn an_imported_file_over_32_mib_is_a_finding_on_it() {
    let dir = project(&[
        (
            "beeuni.yaml",
            "imports:\n  - config/big.yaml\n  - config/more.yaml\ntools:\n  web_search: beeuni:web_search\n",
        ),
        ("config/more.yaml", "imports:\n  - config/big.yaml\n"),
    ]);
    let big = over_the_limit(b"agents: {}\n#");
    write(dir.path(), "config/big.yaml", &big);
    let message =
        "this file is 34603008 bytes, more than the 33554432 bytes beeuni-lint reads: nothing in it was checked";
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_findings(&report, &[("yaml-syntax", "error", "config/big.yaml", 1, 1, message)]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "beeuni.yaml", "config/more.yaml"]);
    let (_, report) = json_in(dir.path(), &[]);
    let untracked = of_rule(&report, "file-untracked");
    assert_eq!(untracked.len(), 1, "{report:#}");
    let message = "file `config/big.yaml` is not tracked by git yet: a config release contains only files Git tracks";
    assert_finding(untracked[0], &("file-untracked", "info", "beeuni.yaml", 2, 3, message));
}

/// A declared module over 32 MiB that git does not track: `file-untracked` on its tools entry, as for any module.
#[test]
fn an_untracked_module_over_32_mib_is_still_untracked() {
    let dir = project(&[("beeuni.yaml", "tools:\n  big: tools/big.ts\n")]);
    let big = over_the_limit(b"export default {}\n//");
    write(dir.path(), "tools/big.ts", &big);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "beeuni.yaml"]);
    let (_, report) = json_in(dir.path(), &[]);
    let untracked = of_rule(&report, "file-untracked");
    let message = "module `tools/big.ts` is not tracked by git yet: a config release contains only files Git tracks";
    assert_eq!(untracked.len(), 1, "{report:#}");
    assert_finding(untracked[0], &("file-untracked", "info", "beeuni.yaml", 2, 3, message));
}

/// A helper over 32 MiB is there (Bun loads it): not `module-import-missing`, but `analysis-limit` (a warning: it
/// fails the default gate) on it, and nothing else.
#[test]
fn a_helper_over_32_mib_is_not_analysed() {
    let module = "import { h } from './big'\nexport default {\n  description: 'Look up',\n  parameters: { type: 'object', properties: {} },\n  execute: async () => h,\n}\n";
    let dir = project(&[("tools/x.ts", module)]);
    let big = over_the_limit(b"export const h = 1\n//");
    write(dir.path(), "tools/big.ts", &big);
    write(dir.path(), "beeuni.yaml", b"tools:\n  web_search: beeuni:web_search\n  x: tools/x.ts\n");
    let (code, report) = json_in(dir.path(), &[]);
    let message = "`tools/big.ts` is 34603008 bytes, more than the 33554432 bytes beeuni-lint reads: none of its checks were made";
    assert_findings(&report, &[("analysis-limit", "warning", "tools/big.ts", 1, 1, message)]);
    assert_eq!(code, 1);
}

/// Found by the `manifest` fuzz target: a list whose last item is left empty at the very end of the file (no
/// line break) panicked while `no-beeuni-tools` planned its fix.
#[test]
fn an_empty_last_item_at_the_end_of_the_file() {
    let (code, report) = lint_bytes(b"tools:\n  web_searcimports:\n  - a.yaml\n  - ", &[]);
    assert_eq!(code, 1);
    let none = "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one.";
    let list = "the value of tool `web_searcimports` must be a string, not a list";
    assert_findings(
        &report,
        &[
            ("no-beeuni-tools", "warning", "beeuni.yaml", 1, 1, none),
            ("tool-value", "error", "beeuni.yaml", 2, 3, list),
        ],
    );
}

/// A declared module over 32 MiB exists (Bun loads it): `analysis-limit` (warning) on it, not `module-missing`.
#[test]
fn a_declared_module_over_32_mib_is_not_analysed() {
    let dir = project(&[]);
    let big = over_the_limit(b"export default { description: 'd', parameters: { type: 'object' }, execute() {} }\n//");
    write(dir.path(), "tools/big.ts", &big);
    write(dir.path(), "beeuni.yaml", b"tools:\n  web_search: beeuni:web_search\n  big: tools/big.ts\n");
    let (code, report) = json_in(dir.path(), &[]);
    let message = "`tools/big.ts` is 34603008 bytes, more than the 33554432 bytes beeuni-lint reads: none of its checks were made";
    assert_findings(&report, &[("analysis-limit", "warning", "tools/big.ts", 1, 1, message)]);
    assert_eq!(code, 1);
}

/// `head` padded with `x` to 33 MiB: over the 32 MiB beeuni-lint reads.
fn over_the_limit(head: &[u8]) -> Vec<u8> {
    let mut bytes = head.to_vec();
    bytes.resize(33 * 1024 * 1024, b'x');
    bytes
}
