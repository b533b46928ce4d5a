//! The pins users copy work: every `uses: beeuni/beeuni-lint@<commit>` and every `rev: <commit>` of a
//! `repo: …/beeuni-lint` in README.md, docs/ and examples/ names a commit of this repository whose action.yml
//! declares every input the same step passes (its `with:` keys) and every output the workflow reads of it
//! (`steps.<id>.outputs.<name>`), and whose .pre-commit-hooks.yaml declares every hook id listed under that `rev:`
//! (a commented-out one too: the docs tell users to uncomment it). The commit is whatever the docs pin: a new pin
//! needs no change here. In a shallow clone, where an older commit may be missing, the test says so on standard
//! error and checks nothing.

use beeuni_lint::yaml;
use std::path::Path;
use std::process::Command;

const REPOSITORY: &str = "https://github.com/beeuni/beeuni-lint";

/// A YAML text users copy: a file of examples/, or a fenced `yaml` block of a page.
struct Snippet {
    /// `file:line` of its first line.
    at: String,
    text: String,
}

/// What a snippet pins, and what it uses with the pin.
#[derive(Debug)]
enum Pin {
    Action { at: String, commit: String, inputs: Vec<String>, outputs: Vec<String> },
    Hooks { at: String, commit: String, ids: Vec<String> },
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn snippets() -> Vec<Snippet> {
    let mut pages = vec![root().join("README.md")];
    let mut folders = vec![root().join("docs"), root().join("examples")];
    let mut out = Vec::new();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().into_owned();
            if path.is_dir() {
                folders.push(path);
            } else if name.ends_with(".md") {
                pages.push(path);
            } else if name.starts_with(&root().join("examples").to_string_lossy().into_owned())
                && (name.ends_with(".yml") || name.ends_with(".yaml"))
            {
                let at = format!("{}:1", relative(&path));
                out.push(Snippet { at, text: std::fs::read_to_string(&path).unwrap() });
            }
        }
    }
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let mut block: Option<(usize, String)> = None;
        for (number, line) in text.lines().enumerate() {
            match &mut block {
                None if matches!(line.trim(), "```yaml" | "```yml") => block = Some((number + 2, String::new())),
                Some((start, body)) if line.trim() == "```" => {
                    out.push(Snippet { at: format!("{}:{start}", relative(&page)), text: std::mem::take(body) });
                    block = None;
                }
                Some((_, body)) => {
                    body.push_str(line);
                    body.push('\n');
                }
                None => {}
            }
        }
    }
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().to_string_lossy().into_owned()
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// A line without its comment (` # …`), trimmed at the end.
fn code(line: &str) -> &str {
    line.split(" #").next().unwrap().trim_end()
}

/// The pins of one snippet, read line by line (a snippet may be a fragment of a file, which YAML would not take).
fn pins(snippet: &Snippet) -> Vec<Pin> {
    let lines: Vec<&str> = snippet.text.lines().collect();
    let mut out = Vec::new();
    for (number, line) in lines.iter().enumerate() {
        let at = format!("{} (+{number})", snippet.at);
        let step = code(line).trim_start().trim_start_matches("- ");
        if let Some(commit) = step.strip_prefix("uses: beeuni/beeuni-lint@") {
            // The step's keys are at the column of `uses:`; the step is the list item holding it (from its `- `),
            // and ends at the first line left of that column.
            let column = line.find("uses:").unwrap();
            let item = |l: &&str| indent(l) + 2 == column && l.trim_start().starts_with("- ");
            let start = lines[..=number].iter().rposition(item).unwrap_or(number);
            let ends = |l: &&str| !l.trim().is_empty() && indent(l) < column && !l.trim_start().starts_with('#');
            let end = lines[number + 1..].iter().position(ends).map_or(lines.len(), |i| number + 1 + i);
            let step_lines = &lines[start..end];
            let key = |l: &str| code(l).trim().trim_start_matches("- ").to_string();
            let with = step_lines.iter().position(|l| indent(l) == column && key(l) == "with:");
            let inputs = with.map_or(Vec::new(), |w| {
                let body =
                    step_lines[w + 1..].iter().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
                let body: Vec<&&str> = body.take_while(|l| indent(l) > column).collect();
                let key_column = body.first().map_or(0, |l| indent(l));
                body.iter()
                    .filter(|l| indent(l) == key_column)
                    .filter_map(|l| code(l).trim().split_once(':').map(|(key, _)| key.to_string()))
                    .collect()
            });
            let id = step_lines.iter().find_map(|l| key(l).strip_prefix("id: ").map(str::to_string));
            let outputs = id.map_or(Vec::new(), |id| {
                let read = format!("steps.{id}.outputs.");
                snippet
                    .text
                    .match_indices(&read)
                    .map(|(i, _)| {
                        let rest = &snippet.text[i + read.len()..];
                        rest.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')).next().unwrap().into()
                    })
                    .collect()
            });
            out.push(Pin::Action { at, commit: commit.trim().to_string(), inputs, outputs });
        } else if let Some(commit) = code(line).trim().strip_prefix("rev: ") {
            let repo = lines[..number]
                .iter()
                .rev()
                .find_map(|l| code(l).trim().trim_start_matches("- ").strip_prefix("repo: "));
            if repo != Some(REPOSITORY) {
                continue;
            }
            let ids = lines[number + 1..]
                .iter()
                .take_while(|l| !code(l).trim_start().starts_with("- repo:"))
                .filter_map(|l| {
                    let l = l.trim_start().trim_start_matches('#').trim_start();
                    code(l).strip_prefix("- id: ").map(|id| id.trim().to_string())
                })
                .collect();
            out.push(Pin::Hooks { at, commit: commit.trim().to_string(), ids });
        }
    }
    out
}

fn git(args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new("git").args(args).current_dir(root()).output().ok()?;
    out.status.success().then_some(out.stdout)
}

/// The keys of the mapping at `path` (top-level keys, then nested) of a YAML text.
fn keys(text: &str, path: &[&str]) -> Vec<String> {
    let doc = yaml::parse(text).unwrap();
    let mut node = doc.root.unwrap();
    for key in path {
        node = doc.get(node, key).unwrap_or_else(|| panic!("no `{key}`")).value;
    }
    doc.entries(node).unwrap().iter().map(|e| doc.scalar(e.key).unwrap().to_string()).collect()
}

fn hook_ids(text: &str) -> Vec<String> {
    let doc = yaml::parse(text).unwrap();
    let items = doc.items(doc.root.unwrap()).unwrap();
    items.iter().filter_map(|&hook| doc.get(hook, "id").and_then(|e| doc.scalar(e.value)).map(str::to_string)).collect()
}

#[test]
fn every_documented_pin_has_what_the_docs_use_with_it() {
    let all: Vec<Pin> = snippets().iter().flat_map(pins).collect();
    let pinned_in = |file: &str| {
        all.iter().any(|p| matches!(p, Pin::Action { at, .. } | Pin::Hooks { at, .. } if at.starts_with(file)))
    };
    for file in
        ["README.md", "docs/pre-commit.md", "docs/github-action.md", "docs/cache.md", "examples/github-workflow.yml"]
    {
        assert!(pinned_in(file), "no pin read in {file}: {all:?}");
    }
    assert!(pinned_in("examples/pre-commit-config.yaml"), "{all:?}");
    let example = all.iter().find(|p| matches!(p, Pin::Action { at, .. } if at.starts_with("examples/"))).unwrap();
    let Pin::Action { inputs, .. } = example else { unreachable!() };
    assert!(inputs.iter().any(|i| i == "impact"), "the example workflow turns `impact` on: {inputs:?}");

    if git(&["rev-parse", "--is-shallow-repository"]).is_none_or(|out| out != b"false\n") {
        eprintln!("pins: skipped: a shallow clone (or no git history), where the pinned commits may be missing");
        return;
    }
    for pin in &all {
        let (at, commit, file) = match pin {
            Pin::Action { at, commit, .. } => (at, commit, "action.yml"),
            Pin::Hooks { at, commit, .. } => (at, commit, ".pre-commit-hooks.yaml"),
        };
        assert!(
            commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
            "{at}: `{commit}` is not a full commit id"
        );
        assert!(
            git(&["cat-file", "-e", &format!("{commit}^{{commit}}")]).is_some(),
            "{at}: {commit} is not a commit of this repository"
        );
        let text =
            git(&["show", &format!("{commit}:{file}")]).unwrap_or_else(|| panic!("{at}: {commit} has no {file}"));
        let text = String::from_utf8(text).unwrap();
        match pin {
            Pin::Action { inputs, outputs, .. } => {
                let (declared, given) = (keys(&text, &["inputs"]), keys(&text, &["outputs"]));
                for input in inputs {
                    assert!(
                        declared.contains(input),
                        "{at}: the action at {commit} has no input `{input}`: {declared:?}"
                    );
                }
                for output in outputs {
                    assert!(given.contains(output), "{at}: the action at {commit} has no output `{output}`: {given:?}");
                }
            }
            Pin::Hooks { ids, .. } => {
                let declared = hook_ids(&text);
                assert!(!ids.is_empty(), "{at}: no hook listed under the pin");
                for id in ids {
                    assert!(declared.contains(id), "{at}: {commit} has no hook `{id}`: {declared:?}");
                }
            }
        }
    }
}

#[test]
fn the_pins_are_read_with_their_inputs_and_hooks() {
    let workflow = "steps:\n  - uses: actions/checkout@x\n    with:\n      fetch-depth: 0\n  - id: lint\n    uses: beeuni/beeuni-lint@abc # a tag\n    with:\n      impact: true # on\n      # comment: false\n      path: .\n  - run: echo ${{ steps.lint.outputs.status }}\n";
    let read = pins(&Snippet { at: "w".into(), text: workflow.into() });
    let [Pin::Action { commit, inputs, outputs, .. }] = read.as_slice() else { panic!("{read:?}") };
    assert_eq!(
        (commit.as_str(), inputs.as_slice(), outputs.as_slice()),
        ("abc", &["impact".to_string(), "path".into()][..], &["status".to_string()][..])
    );
    let config = "repos:\n  - repo: https://github.com/beeuni/beeuni-lint\n    rev: def\n    hooks:\n      - id: beeuni-lint\n      # - id: beeuni-lint-wheel\n  - repo: https://example.com/other\n    rev: v1\n    hooks:\n      - id: other\n";
    let read = pins(&Snippet { at: "c".into(), text: config.into() });
    let [Pin::Hooks { commit, ids, .. }] = read.as_slice() else { panic!("{read:?}") };
    assert_eq!(
        (commit.as_str(), ids.as_slice()),
        ("def", &["beeuni-lint".to_string(), "beeuni-lint-wheel".into()][..])
    );
}
