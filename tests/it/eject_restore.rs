//! `beeuni-lint eject` and `restore` (docs/spec/rules.md §8) on real git repositories: the docs' starter, a manifest
//! without `tools:`, an entry in an imported file, every refusal, `--force`, restore keeping a module with
//! uncommitted edits, and eject-then-restore giving back the original bytes.

use crate::common::{fixture_path, git, project, run_in};
use crate::fix_support::{files, lint};
use std::path::Path;

/// A repository with one commit of `files`.
fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = project(files);
    git(dir.path(), &["init", "-q"]);
    commit(dir.path());
    dir
}

fn commit(dir: &Path) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "step"]);
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

/// Runs a command that must be refused: exit 2, nothing changed, and the one-line message.
fn refused(dir: &Path, args: &[&str]) -> String {
    let before = files(dir);
    let run = run_in(dir, args);
    assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
    assert_eq!(files(dir), before, "{args:?} changed files");
    run.stderr.trim_end().strip_prefix("beeuni-lint: ").unwrap().to_string()
}

fn docs_starter() -> String {
    std::fs::read_to_string(fixture_path("docs-starter/beeuni.yaml")).unwrap()
}

#[test]
fn eject_from_file_on_the_docs_starter_replaces_the_trailing_comment() {
    let dir = repo(&[("beeuni.yaml", &docs_starter())]);
    std::fs::write(dir.path().join("source.ts"), crate::common::MODULE).unwrap();
    let run = run_in(dir.path(), &["eject", "web_search", "--from", "source.ts"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(read(dir.path(), "tools/web_search.ts"), crate::common::MODULE);
    let expected = docs_starter().replace(
        "web_search: beeuni:web_search      # maintained by Beeuni, updated automatically",
        "web_search: tools/web_search.ts      # ejected from beeuni:web_search",
    );
    assert_eq!(read(dir.path(), "beeuni.yaml"), expected);
    assert!(run.stdout.starts_with("  ✓  Ejected web_search\n  wrote   tools/web_search.ts (the source from source.ts, now the project's to change)\n  set     beeuni.yaml: web_search: tools/web_search.ts      # ejected from beeuni:web_search\n\nNext:\n  1. Edit tools/web_search.ts."), "{}", run.stdout);
    for step in [
        "  2. beeuni-lint\n",
        "  3. git add tools/web_search.ts beeuni.yaml && git commit -m \"Own the web_search tool\"\n",
        "  4. Open a change request",
    ] {
        assert!(run.stdout.contains(step), "{step:?} in {}", run.stdout);
    }
    // The result lints clean but for the new file not being added yet.
    let rules: Vec<String> = lint(dir.path())["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(rules, ["file-untracked"]);
}

#[test]
fn template_is_a_valid_module_that_ejected_template_reports() {
    let dir = repo(&[("beeuni.yaml", &docs_starter())]);
    for name in ["show", "memory"] {
        assert_eq!(run_in(dir.path(), &["eject", name, "--template"]).code, 0);
    }
    git(dir.path(), &["add", "-A"]);
    let report = lint(dir.path());
    let found: Vec<(String, String, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["rule"].as_str().unwrap().into(), d["path"].as_str().unwrap().into(), d["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            ("ejected-template".into(), "tools/memory.ts".into(), 1),
            ("ejected-template".into(), "tools/show.ts".into(), 1)
        ]
    );
    let show = read(dir.path(), "tools/show.ts");
    for argument in ["type:", "path:", "url:", "content:", "items:", "throw new Error("] {
        assert!(show.contains(argument), "{argument} in {show}");
    }
}

#[test]
fn without_a_tools_key_eject_lists_the_other_four() {
    let dir = repo(&[("beeuni.yaml", "# my agents\nagents:\n  a:\n    tools: all\n")]);
    assert_eq!(run_in(dir.path(), &["eject", "image_search", "--template"]).code, 0);
    assert_eq!(
        read(dir.path(), "beeuni.yaml"),
        "# my agents\nagents:\n  a:\n    tools: all\ntools:\n  image_search: tools/image_search.ts  # ejected from beeuni:image_search\n  web_search: beeuni:web_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\n"
    );
    let (_, ls) = {
        let run = run_in(dir.path(), &["ls", "--json"]);
        (run.code, serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap())
    };
    assert_eq!(ls["removed"], serde_json::json!([]));
}

#[test]
fn the_file_that_declares_the_entry_is_edited() {
    let dir = repo(&[
        ("beeuni.yaml", "imports:\n  - config/tools.yaml\n"),
        ("config/tools.yaml", "tools:\r\n  memory: 'beeuni:memory'\r\n  show: beeuni:show\r\n"),
    ]);
    assert_eq!(run_in(dir.path(), &["eject", "memory", "--template"]).code, 0);
    assert_eq!(read(dir.path(), "beeuni.yaml"), "imports:\n  - config/tools.yaml\n");
    assert_eq!(
        read(dir.path(), "config/tools.yaml"),
        "tools:\r\n  memory: 'tools/memory.ts'  # ejected from beeuni:memory\r\n  show: beeuni:show\r\n"
    );
    // An entry with no value gets the path after its colon.
    std::fs::write(dir.path().join("config/tools.yaml"), "tools:\n  show:\n  memory: beeuni:memory\n").unwrap();
    commit(dir.path());
    assert_eq!(run_in(dir.path(), &["eject", "show", "--template", "--force"]).code, 0);
    assert_eq!(
        read(dir.path(), "config/tools.yaml"),
        "tools:\n  show: tools/show.ts  # ejected from beeuni:show\n  memory: beeuni:memory\n"
    );
    // A tool no file declares goes under the root file's `tools:` (created there).
    assert_eq!(run_in(dir.path(), &["eject", "web_search", "--template"]).code, 0);
    assert_eq!(
        read(dir.path(), "beeuni.yaml"),
        "imports:\n  - config/tools.yaml\ntools:\n  web_search: tools/web_search.ts  # ejected from beeuni:web_search\n"
    );
}

#[test]
fn refusals() {
    let dir = repo(&[
        ("beeuni.yaml", "tools:\n  web_search: integrations/search.ts\n  show: beeuni:show\n  memory: beeuni:memory\n"),
        ("integrations/search.ts", crate::common::MODULE),
        ("tools/show.ts", crate::common::MODULE),
    ]);
    assert_eq!(
        refused(dir.path(), &["eject", "bash", "--template"]),
        "`bash` is not a Beeuni tool: eject takes one of web_search, image_search, scrape_webpage, memory, show"
    );
    // A near name is named.
    assert_eq!(
        refused(dir.path(), &["eject", "websearch", "--template"]),
        "`websearch` is not a Beeuni tool (did you mean `web_search`?): eject takes one of web_search, image_search, scrape_webpage, memory, show"
    );
    assert_eq!(
        refused(dir.path(), &["restore", "Memory"]),
        "`Memory` is not a Beeuni tool (did you mean `memory`?): restore takes one of web_search, image_search, scrape_webpage, memory, show"
    );
    assert_eq!(
        refused(dir.path(), &["eject", "memory"]),
        "eject needs the tool's source, which is not available offline: `beeuni tools eject memory` gives it (pass that file with `--from FILE`), or `--template` writes a starter to fill in"
    );
    assert_eq!(
        refused(dir.path(), &["eject", "web_search", "--template"]),
        "`web_search` already points to another module, `integrations/search.ts`: pass `--force` to eject anyway"
    );
    assert_eq!(
        refused(dir.path(), &["eject", "show", "--template"]),
        "`tools/show.ts` exists: pass `--force` to overwrite it"
    );
    assert_eq!(
        refused(dir.path(), &["restore", "bash"]),
        "`bash` is not a Beeuni tool: restore takes one of web_search, image_search, scrape_webpage, memory, show"
    );
    // --force overwrites a committed file, never one with uncommitted changes.
    std::fs::write(dir.path().join("tools/show.ts"), "// mine\n").unwrap();
    assert_eq!(
        refused(dir.path(), &["eject", "show", "--template", "--force"]),
        "`tools/show.ts` exists and has changes git has not committed: commit or move it first (`--force` never overwrites uncommitted changes)"
    );
    commit(dir.path());
    assert_eq!(run_in(dir.path(), &["eject", "show", "--template", "--force"]).code, 0);
    assert!(read(dir.path(), "tools/show.ts").contains("beeuni-lint: ejected-template"));
    assert_eq!(run_in(dir.path(), &["eject", "web_search", "--template", "--force"]).code, 0);
    assert!(
        read(dir.path(), "beeuni.yaml").contains("web_search: tools/web_search.ts  # ejected from beeuni:web_search\n")
    );
    // A manifest that does not parse is not edited.
    std::fs::write(dir.path().join("beeuni.yaml"), "tools: [\n").unwrap();
    assert!(refused(dir.path(), &["eject", "memory", "--template"]).starts_with("beeuni.yaml:"));
}

#[test]
fn eject_then_restore_gives_back_the_original_bytes() {
    for manifest in [
        "tools:\n  web_search: beeuni:web_search\n  show: beeuni:show\n",
        "\u{feff}tools:\r\n  show: \"beeuni:show\"\r\n  web_search: beeuni:web_search\r\n",
    ] {
        let dir = repo(&[("beeuni.yaml", manifest)]);
        assert_eq!(run_in(dir.path(), &["eject", "show", "--template"]).code, 0);
        commit(dir.path());
        let run = run_in(dir.path(), &["restore", "show"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.contains("  deleted tools/show.ts\n"), "{}", run.stdout);
        assert_eq!(read(dir.path(), "beeuni.yaml"), manifest);
        assert!(!dir.path().join("tools/show.ts").exists());
    }
}

#[test]
fn restore_keeps_a_module_it_cannot_delete_safely() {
    let dir = repo(&[("beeuni.yaml", "tools:\n  show: beeuni:show\n  web_search: beeuni:web_search\n")]);
    assert_eq!(run_in(dir.path(), &["eject", "show", "--template"]).code, 0);
    commit(dir.path());
    std::fs::write(dir.path().join("tools/show.ts"), "// edited\n").unwrap();
    let run = run_in(dir.path(), &["restore", "show"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("  kept    tools/show.ts: it has changes git has not committed\n"), "{}", run.stdout);
    assert_eq!(read(dir.path(), "tools/show.ts"), "// edited\n");
    assert_eq!(read(dir.path(), "beeuni.yaml"), "tools:\n  show: beeuni:show\n  web_search: beeuni:web_search\n");
    // A module the line points to without the eject comment is the user's own.
    let dir = repo(&[("beeuni.yaml", "tools:\n  show: tools/show.ts\n"), ("tools/show.ts", crate::common::MODULE)]);
    let run = run_in(dir.path(), &["restore", "show"]);
    assert!(
        run.stdout.contains("  kept    tools/show.ts: the line did not say `# ejected from beeuni:show`"),
        "{}",
        run.stdout
    );
    assert!(dir.path().join("tools/show.ts").exists());
    // Restoring what is already restored changes nothing.
    let run = run_in(dir.path(), &["restore", "show"]);
    assert_eq!(run.stdout, "show is already the Beeuni tool (`show: beeuni:show`): nothing to restore\n");
}

/// A value written as a block scalar (`show: >-` with the value on the next line): eject sets a plain value on
/// the key's line with its comment after it, restore gives `beeuni:show` back, and the next entry is never joined
/// to the value (it was: `tools/show.tsweb_search: …`, `web_search` lost, exit 0). A header that holds more than
/// the indicator is refused, with nothing written.
#[test]
fn block_scalar_values_are_set_without_touching_the_next_entry() {
    let module = crate::common::MODULE;
    for (header, content) in
        [(">-", "beeuni:show"), ("|-", "beeuni:show"), ("|", "beeuni:show"), (">", "beeuni:\n    show")]
    {
        let before = format!("tools:\n  show: {header}\n    {content}\n  web_search: beeuni:web_search\n");
        let dir = repo(&[("beeuni.yaml", &before)]);
        std::fs::write(dir.path().join("source.ts"), module).unwrap();
        let run = run_in(dir.path(), &["eject", "show", "--from", "source.ts"]);
        assert_eq!(run.code, 0, "{header}: {}", run.stderr);
        let ejected = "tools:\n  show: tools/show.ts  # ejected from beeuni:show\n  web_search: beeuni:web_search\n";
        assert_eq!(read(dir.path(), "beeuni.yaml"), ejected, "{header}");
        assert!(
            run.stdout.contains("\n  set     beeuni.yaml: show: tools/show.ts  # ejected from beeuni:show\n"),
            "{}",
            run.stdout
        );
        std::fs::remove_file(dir.path().join("source.ts")).unwrap();
        commit(dir.path());
        let run = run_in(dir.path(), &["restore", "show"]);
        assert_eq!(run.code, 0, "{header}: {}", run.stderr);
        assert_eq!(read(dir.path(), "beeuni.yaml"), "tools:\n  show: beeuni:show\n  web_search: beeuni:web_search\n");
        assert!(!dir.path().join("tools/show.ts").exists(), "{header}: the ejected copy is deleted");
    }
    let commented = "tools:\n  show: >- # mine\n    beeuni:show\n  web_search: beeuni:web_search\n";
    let dir = repo(&[("beeuni.yaml", commented)]);
    assert_eq!(
        refused(dir.path(), &["eject", "show", "--template"]),
        "the value of `show` in beeuni.yaml is a block scalar whose `|`/`>` line holds more than the indicator: write it as a plain value first"
    );
}

/// `restore` on a block scalar the user wrote: `beeuni:show` is set as a plain value on the key's line (set as the
/// content of `|-` it would do too, but `|` and `>` add a line break to the value), the next entry kept.
#[test]
fn restore_sets_a_block_scalar_value_on_the_key_line() {
    for header in ["|-", "|", ">"] {
        let before = format!("tools:\n  show: {header}\n    tools/show.ts\n  web_search: beeuni:web_search\n");
        let dir = repo(&[("beeuni.yaml", &before), ("tools/show.ts", crate::common::MODULE)]);
        let run = run_in(dir.path(), &["restore", "show"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(read(dir.path(), "beeuni.yaml"), "tools:\n  show: beeuni:show\n  web_search: beeuni:web_search\n");
        // Not marked as ejected: the module may be the user's own, so it stays.
        assert!(dir.path().join("tools/show.ts").exists());
    }
}

/// Ejecting a tool the project does not declare into a flow mapping: the entry goes in, and the marker ends the
/// line it lands on (it was left out, so `restore` later kept the copy); restore then deletes the copy. Into a
/// block mapping the printed `set` line is the new entry (it was the entry above it).
#[test]
fn an_undeclared_tool_ejected_into_a_flow_mapping_is_marked_and_restored() {
    let before = "tools: {web_search: beeuni:web_search, memory: beeuni:memory}\nagents:\n  a:\n    tools: all\n";
    let dir = repo(&[("beeuni.yaml", before)]);
    let run = run_in(dir.path(), &["eject", "show", "--template"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ejected = "tools: {web_search: beeuni:web_search, memory: beeuni:memory, show: tools/show.ts}  # ejected from beeuni:show\nagents:\n  a:\n    tools: all\n";
    assert_eq!(read(dir.path(), "beeuni.yaml"), ejected);
    assert!(
        run.stdout.contains(&format!("\n  set     beeuni.yaml: {}\n", ejected.lines().next().unwrap())),
        "{}",
        run.stdout
    );
    commit(dir.path());
    let run = run_in(dir.path(), &["restore", "show"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\n  deleted tools/show.ts\n"), "{}", run.stdout);
    assert!(!dir.path().join("tools/show.ts").exists());
    let restored = "tools: {web_search: beeuni:web_search, memory: beeuni:memory, show: beeuni:show}\nagents:\n  a:\n    tools: all\n";
    assert_eq!(read(dir.path(), "beeuni.yaml"), restored);

    let block = repo(&[("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n")]);
    let run = run_in(block.path(), &["eject", "show", "--template"]);
    assert!(
        run.stdout.contains("\n  set     beeuni.yaml: show: tools/show.ts  # ejected from beeuni:show\n"),
        "{}",
        run.stdout
    );
    // A comment already ends the flow mapping's line: the marker has nowhere to go, nothing is written.
    let commented = repo(&[("beeuni.yaml", "tools: {web_search: beeuni:web_search}  # hosted\n")]);
    assert_eq!(
        refused(commented.path(), &["eject", "show", "--template"]),
        "the line of the flow mapping `tools:` in beeuni.yaml ends in a comment, where `# ejected from beeuni:show` must go: write the entry by hand"
    );
}

/// A manifest whose one document ends with `...` (with or without `%YAML 1.2`, with a BOM and CRLF): the first
/// `tools:` key goes inside the document, before the marker (after it, it would start a second document), every
/// other byte kept; the `set` line shows the tool's line, not the new key. Restore then finds the line there.
#[test]
fn the_first_tools_key_goes_inside_a_document_that_ends_with_its_marker() {
    let four = "  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n";
    let cases = [
        ("---\nagents:\n  a:\n    tools: all\n...\n", "---\nagents:\n  a:\n    tools: all\n", "...\n"),
        (
            "%YAML 1.2\n---\n# my agents\nagents:\n  a:\n    tools: all\n... # end\n# after the document\n",
            "%YAML 1.2\n---\n# my agents\nagents:\n  a:\n    tools: all\n",
            "... # end\n# after the document\n",
        ),
        ("agents:\n  a:\n    tools: all\n...", "agents:\n  a:\n    tools: all\n", "..."),
    ];
    for (before, head, tail) in cases {
        let dir = repo(&[("beeuni.yaml", before)]);
        let run = run_in(dir.path(), &["eject", "show", "--template"]);
        assert_eq!(run.code, 0, "{before:?}: {}", run.stderr);
        let ejected = format!("{head}tools:\n  show: tools/show.ts  # ejected from beeuni:show\n{four}{tail}");
        assert_eq!(read(dir.path(), "beeuni.yaml"), ejected, "{before:?}");
        assert!(
            run.stdout.contains("\n  set     beeuni.yaml: show: tools/show.ts  # ejected from beeuni:show\n"),
            "{}",
            run.stdout
        );
        // The project lints without a YAML error, and restoring edits the line inside the document.
        commit(dir.path());
        let report = lint(dir.path());
        assert!(!crate::common::rule_ids(&report).contains(&"yaml-syntax"), "{report:#}");
        assert_eq!(run_in(dir.path(), &["restore", "show"]).code, 0);
        let restored = format!("{head}tools:\n  show: beeuni:show\n{four}{tail}");
        assert_eq!(read(dir.path(), "beeuni.yaml"), restored, "{before:?}");
    }
    // A byte order mark and CRLF line ends are kept, and the new lines take CRLF.
    let before = "\u{feff}%YAML 1.2\r\n---\r\nagents:\r\n  a:\r\n    tools: all\r\n...\r\n";
    let dir = repo(&[("beeuni.yaml", before)]);
    assert_eq!(run_in(dir.path(), &["eject", "memory", "--template"]).code, 0);
    assert_eq!(
        read(dir.path(), "beeuni.yaml"),
        "\u{feff}%YAML 1.2\r\n---\r\nagents:\r\n  a:\r\n    tools: all\r\ntools:\r\n  memory: tools/memory.ts  # ejected from beeuni:memory\r\n  web_search: beeuni:web_search\r\n  image_search: beeuni:image_search\r\n  scrape_webpage: beeuni:scrape_webpage\r\n  show: beeuni:show\r\n...\r\n"
    );
}
