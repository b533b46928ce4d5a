//! Hostile inputs: output. A stranger's repository names its folder, tools, agents and paths, and writes its config
//! keys, with what GitHub's log reads as a new line (CR, LF: then `::add-mask::`, `::stop-commands::`), what a
//! terminal acts on (ESC: an OSC title change, a screen clear), BiDi overrides, and Markdown (backticks, an image
//! link). Every output that shows that text (the human, short and github reports, the step summary, the fix log,
//! `ls`, `agents`, a config error) shows it escaped (`\r`, `\n`, `\u{1b}`, `\u{202e}`), and the step summary's
//! Markdown never lets it become a link, an image, HTML or a mention (the names a message quotes are code spans).

use crate::support::*;

/// The project's folder: every path a report shows starts with it.
const FOLDER: &str = "p\u{1b}]0;title\u{7}\r::add-mask::p\u{202e}";
/// The same as the reports show it.
const FOLDER_SHOWN: &str = "p\\u{1b}]0;title\\u{7}\\r::add-mask::p\\u{202e}";
/// The agent's name (a double-quoted YAML key): a LF, then a workflow command, then an OSC title change.
const AGENT_YAML: &str = "agent\\n::add-mask::y\\e]0;title\\a";
const AGENT_SHOWN: &str = "agent\\n::add-mask::y\\u{1b}]0;title\\u{7}";
/// Markdown that would render an image out of a code span.
const IMAGE: &str = "tick`![x](http://e/x.png)`";

/// The manifest: the names and values in double-quoted scalars, whose escapes YAML decodes.
fn manifest() -> String {
    format!(
        "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n  \
         \"evil\\r::add-mask::x\": tools/lookup.ts\n  \"rtl\\u202Eexe\": beeuni:nothing\n  \
         \"{IMAGE}\": tools/broken.ts\n  raw_path: \"tools/\\e[2J\\r::warning::forged\\u202E.ts\"\n\
         agents:\n  \"{AGENT_YAML}\":\n    tools:\n      exclude: [bsh, \"{IMAGE}\"]\n  other:\n    \
         tools: [raed, \"raed\\r::stop-commands::z\", lookup]\n"
    )
}

/// A module that does not parse, whose raw bytes (a comment with ESC, BEL, U+202E and a lone CR before a
/// workflow command) the human report shows in its snippet.
const BROKEN_MODULE: &[u8] =
    b"// \x1b]0;title\x07 \xe2\x80\xae\r::add-mask::snippet\nexport default tool({ name: \"c\", \x1b[2J\r::warning::x\n";

/// The repository: the project in [`FOLDER`], committed.
fn hostile() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox
        .file(&format!("{FOLDER}/beeuni.yaml"), manifest())
        .file(&format!("{FOLDER}/tools/lookup.ts"), MODULE)
        .file(&format!("{FOLDER}/tools/broken.ts"), BROKEN_MODULE)
        .commit("hostile names");
    sandbox
}

/// Bounded, no raw control byte, and no line (split at CR and LF, as GitHub splits a log) that starts a workflow
/// command but the `allowed` ones (the run's own annotations).
fn assert_neutral(what: &str, outcome: &Outcome, allowed: &[&str]) {
    outcome.assert_bounded(what);
    assert_no_workflow_command(&format!("{what}, stdout"), &outcome.stdout(), allowed);
    assert_no_workflow_command(&format!("{what}, stderr"), &outcome.stderr(), &[]);
}

#[test]
fn every_report_format_shows_repository_text_escaped() {
    let sandbox = hostile();
    for format in ["human", "short", "github"] {
        let outcome = sandbox.run(&["check", FOLDER, "--format", format]);
        let what = format!("--format {format}");
        let allowed: &[&str] = if format == "github" { &["::error ", "::warning ", "::notice "] } else { &[] };
        assert_neutral(&what, &outcome, allowed);
        assert_eq!(outcome.code, Some(1), "{what}: {}", outcome.stderr());
        let out = outcome.stdout();
        for shown in [FOLDER_SHOWN, AGENT_SHOWN, "evil\\r::add-mask::x", "rtl\\u{202e}exe", "raed\\r::stop-commands::z"]
        {
            assert!(out.contains(shown), "{what}: no `{shown}` in\n{out}");
        }
        sandbox.assert_untouched(&what, &outcome);
    }
    // JSON and SARIF keep the data: what serde leaves raw (a BiDi control) is a JSON escape there.
    for format in ["json", "sarif"] {
        let outcome = sandbox.run(&["check", FOLDER, "--format", format]);
        assert_neutral(&format!("--format {format}"), &outcome, &[]);
        let json = outcome.json().to_string();
        assert!(json.contains("rtl\u{202e}exe") && !outcome.stdout().contains('\u{202e}'), "{}", outcome.stdout());
    }
    // The one-line format, in full for one finding: path, rule and message on their line.
    let short = sandbox.run(&["check", FOLDER, "--format", "short"]).stdout();
    let line = format!(
        "{FOLDER_SHOWN}/beeuni.yaml:11:17: error[unknown-excluded-tool] agent `{AGENT_SHOWN}` excludes `bsh`, \
         which is not a known tool: it hides nothing, and `bash` stays enabled\n"
    );
    assert!(short.contains(&line), "{short}");
    // The snippet keeps its lines (the lone CR is a line break there too) and shows no raw byte.
    let human = sandbox.run(&["check", FOLDER, "--format", "human"]).stdout();
    assert!(human.contains(&format!("╭─[{FOLDER_SHOWN}/tools/broken.ts:2:1]")), "{human}");
    assert!(human.contains(" 1 │ // ?]0;title? ???\n 2 │ ::add-mask::snippet\n"), "{human}");
    // The annotation's file property: escaped as the runner reads it (`:` and `,` encoded).
    let github = sandbox.run(&["check", FOLDER, "--format", "github"]).stdout();
    let file = "file=p\\u{1b}]0;title\\u{7}\\r%3A%3Aadd-mask%3A%3Ap\\u{202e}/beeuni.yaml,line=11,col=17";
    assert!(github.contains(file), "{github}");
}

/// The table rows of a step summary: the cells of each, split at the pipes that end a cell (not `\|`).
fn rows(summary: &str) -> Vec<Vec<String>> {
    let rows = summary.lines().filter(|line| line.starts_with("| ") && !line.starts_with("| Rule |"));
    rows.filter(|line| !line.starts_with("| ---"))
        .map(|line| {
            let mut cells = vec![String::new()];
            let mut escaped = false;
            for c in line.trim().trim_start_matches('|').chars() {
                match c {
                    '|' if !escaped => cells.push(String::new()),
                    c => cells.last_mut().expect("one cell").push(c),
                }
                escaped = c == '\\';
            }
            cells.pop();
            cells.into_iter().map(|cell| cell.trim().to_string()).collect()
        })
        .collect()
}

/// Is `text` one Markdown code span: a run of backticks, content without a run of that length, the same run?
fn is_code_span(text: &str) -> bool {
    let fence = text.len() - text.trim_start_matches('`').len();
    let inner = &text[fence..];
    if fence == 0 || inner.len() < fence || !inner.ends_with(&"`".repeat(fence)) {
        return false;
    }
    let content = &inner[..inner.len() - fence];
    !content.ends_with('`') && content.split(|c| c != '`').all(|run| run.len() != fence)
}

/// Does `text`, read as GitHub Flavored Markdown (autolinks on), hold only plain text and code spans, with no
/// `@name` in the text?
fn is_inert_prose(text: &str) -> bool {
    use comrak::nodes::NodeValue;
    let arena = comrak::Arena::new();
    let mut options = comrak::Options::default();
    options.extension.autolink = true;
    options.extension.strikethrough = true;
    let root = comrak::parse_document(&arena, text, &options);
    root.descendants().all(|node| match &node.data.borrow().value {
        NodeValue::Document | NodeValue::Paragraph | NodeValue::Code(_) => true,
        NodeValue::Text(text) => {
            !text.char_indices().any(|(i, c)| c == '@' && text[i + 1..].starts_with(|c: char| c.is_alphanumeric()))
        }
        _ => false,
    })
}

#[test]
fn the_step_summary_keeps_repository_text_in_code_spans() {
    let sandbox = hostile();
    // Not in the outside folder: that one must stay as it was.
    let summary_dir = tempfile::TempDir::new().expect("temporary folder");
    let summary_path = summary_dir.path().join("summary.md");
    let summary_env = summary_path.to_str().expect("a UTF-8 path");
    let outcome = run_with(
        &sandbox.repo,
        &["check", FOLDER, "--format", "github"],
        &[("GITHUB_STEP_SUMMARY", summary_env)],
        None,
    );
    assert_neutral("the step summary's run", &outcome, &["::error ", "::warning ", "::notice "]);
    sandbox.assert_untouched("the step summary's run", &outcome);
    let summary = std::fs::read_to_string(&summary_path).expect("the step summary");
    assert_no_control_bytes("the step summary", summary.as_bytes());
    assert_no_workflow_command("the step summary", &summary, &[]);
    let rows = rows(&summary);
    assert_eq!(rows.len(), 9, "{summary}");
    for row in &rows {
        assert_eq!(row.len(), 4, "{row:?}");
        assert!(row[0].bytes().all(|b| b.is_ascii_lowercase() || b == b'-'), "the rule: {row:?}");
        assert!(["error", "warning", "info"].contains(&row[1].as_str()), "the severity: {row:?}");
        // The location: a code span. Each line of the message: prose of code spans and plain text, so no link,
        // image, HTML, emphasis or mention.
        assert!(is_code_span(&row[2]), "not one code span: {:?} in {row:?}", row[2]);
        for part in row[3].split("<br>") {
            assert!(is_inert_prose(part), "not code spans and plain text: {part:?} in {row:?}");
        }
    }
    assert!(rows.iter().any(|row| row[3].contains("![x](http://e/x.png)")), "the image's text is shown: {summary}");
    // Outside the rows: the heading and the count, nothing of the repository.
    for line in summary.lines().filter(|line| !line.starts_with('|')) {
        assert!(!line.contains(['<', '[', '`', '!']), "{line:?}");
    }
}

#[test]
fn the_fix_log_shows_repository_text_escaped() {
    let sandbox = hostile();
    // In GitHub's job log the diff is shown escaped; piped to a program it is the exact patch (`| git apply`).
    let diff =
        run_with(&sandbox.repo, &["check", FOLDER, "--unsafe-fixes", "--diff"], &[("GITHUB_ACTIONS", "true")], None);
    assert_neutral("--diff", &diff, &[]);
    let header = format!("--- a/{FOLDER_SHOWN}/beeuni.yaml\n+++ b/{FOLDER_SHOWN}/beeuni.yaml\n");
    assert!(diff.stdout().starts_with(&header), "{}", diff.stdout());
    let piped = sandbox.run(&["check", FOLDER, "--unsafe-fixes", "--diff"]);
    assert!(piped.stdout().starts_with(&format!("--- a/{FOLDER}/beeuni.yaml\n")), "{}", piped.stdout());
    let outcome = sandbox.run(&["check", FOLDER, "--unsafe-fixes", "--format", "short"]);
    assert_neutral("--unsafe-fixes", &outcome, &[]);
    sandbox.assert_untouched("--unsafe-fixes", &outcome);
    let log = outcome.stderr();
    let fixed = format!(
        "fixed {FOLDER_SHOWN}/beeuni.yaml:11: unsafe[unknown-excluded-tool] replaced `bsh` with `bash` in `exclude:`\n"
    );
    assert!(log.contains(&fixed), "{log}");
    assert!(log.contains("Fixed 2 findings in 1 file;"), "{log}");
    let fixed = std::fs::read_to_string(sandbox.repo.join(FOLDER).join("beeuni.yaml")).expect("the manifest");
    assert!(fixed.contains("exclude: [bash, ") && fixed.contains("tools: [read, "), "{fixed}");
}

#[test]
fn ls_and_agents_show_repository_text_escaped() {
    let sandbox = hostile();
    let ls = sandbox.run(&["ls", FOLDER]);
    assert_neutral("ls", &ls, &[]);
    let row = "raw_path    project  tools/\\u{1b}[2J\\r::warning::forged\\u{202e}.ts\n";
    assert!(ls.stdout().contains(row), "{}", ls.stdout());
    let agents = sandbox.run(&["agents", FOLDER]);
    assert_neutral("agents", &agents, &[]);
    let out = agents.stdout();
    assert!(out.lines().any(|line| line.starts_with(AGENT_SHOWN)), "the agent's row, on one line:\n{out}");
    for args in [["ls", FOLDER, "--json"], ["agents", FOLDER, "--json"]] {
        let outcome = sandbox.run(&args);
        assert_neutral(&args.join(" "), &outcome, &[]);
        let json = outcome.json().to_string();
        assert!(json.contains("\\u001b"), "JSON keeps the data, escaped by JSON: {json}");
    }
    // A view that cannot answer prints the findings that say why, one a line, escaped.
    sandbox.file(&format!("{FOLDER}/beeuni.yaml"), format!("tools: [\"{AGENT_YAML}\"]\n"));
    let blocked = sandbox.run(&["ls", FOLDER]);
    assert_neutral("ls of an unreadable manifest", &blocked, &[]);
    assert_eq!(blocked.code, Some(2));
    assert!(blocked.stderr().starts_with(&format!("{FOLDER_SHOWN}/beeuni.yaml:1:")), "{}", blocked.stderr());
}

#[test]
fn config_errors_show_the_keys_escaped_each_on_its_line() {
    let sandbox = Sandbox::new();
    let config = "\"k\\r::add-mask::x\\u001b]0;title\\u0007\" = 1\n[rules]\n\"r\\n::stop-commands::y\\u202E\" = \"error\"\n\
                  [paths]\nexclude = [\"a[\\u001b\"]\n";
    sandbox.file("beeuni.yaml", MANIFEST).file("beeuni-lint.toml", config).commit("a hostile config");
    let outcome = sandbox.run(&["check", "."]);
    assert_neutral("a config error", &outcome, &[]);
    assert_eq!(outcome.code, Some(2));
    let stderr = outcome.stderr();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(lines.iter().all(|line| line.starts_with("beeuni-lint: beeuni-lint.toml:")), "{stderr}");
    assert!(lines[0].contains("unknown key `k\\r::add-mask::x\\u{1b}]0;title\\u{7}`"), "{stderr}");
    assert!(lines[1].contains("unknown rule `r\\n::stop-commands::y\\u{202e}` in [rules]"), "{stderr}");
    assert!(lines[2].contains("`a[\\u{1b}` is not a glob"), "{stderr}");
    for view in ["ls", "agents"] {
        let outcome = sandbox.run(&[view]);
        assert_neutral(&format!("{view} with a hostile config"), &outcome, &[]);
        assert_eq!(outcome.stderr(), stderr, "{view}: the same error");
    }
}
