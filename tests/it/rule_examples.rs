//! Every rule page shows the wrong code (`## Example`) and the corrected one (`## Use instead`). Where both are
//! self-contained projects, they are linted as such: the rule fires on the example and not on its correction, so
//! a page cannot show a correction that does not pass or an example the rule misses.
//!
//! A section is a project when every block names its file: a `yaml` block is `beeuni.yaml`, or several files
//! each under a `# path.yaml` line; a `ts`/`js` block starts with a `// path` line. A section of one whole
//! module (a block that starts with `import` or has an `export default` line) is that module declared as the
//! project's one tool; the files of an xcsh rule's section are found in `.xcsh/tools/`. The code shown must
//! parse, but where a syntax error is what the rule reports. The rules whose examples are snippets (a part of a
//! module) or need more than files (git state, a base) are listed in [`NOT_SELF_CONTAINED`], and the list is
//! exact.

use crate::common::*;
use beeuni_lint::rules::{Category, RULES, Rule};
use std::path::Path;

/// The rules that report code that does not parse.
const SYNTAX: [&str; 2] = ["yaml-syntax", "module-syntax"];

/// The rules whose `## Example` or `## Use instead` is not a project of its own, and why.
const NOT_SELF_CONTAINED: &[(&str, &str)] = &[
    ("manifest-name", "a file's name, in prose"),
    ("file-untracked", "git's index: the correction is a `git add`"),
    ("legacy-beeuni-copy", "a path of the legacy harness folder"),
    ("legacy-harness-tool", "a path of the legacy harness folder"),
    ("removed-beeuni-tool", "change-aware: needs a base"),
    ("removed-tool-in-use", "change-aware: needs a base"),
    ("xcsh-metadata-file", "a list of paths"),
    ("policy-gain", "change-aware: needs a base, a policy and --policy (tests/it/policy.rs)"),
];

/// The files of a section (`path`, text), or `None` when a block names no file.
fn project_files(section: &str, category: Category) -> Option<Vec<(String, String)>> {
    let mut files: Vec<(String, String)> = Vec::new();
    let (mut has_yaml, mut modules) = (false, Vec::new());
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        let Some(language) = line.strip_prefix("```") else { continue };
        let block: Vec<&str> = lines.by_ref().take_while(|line| *line != "```").collect();
        match language {
            "yaml" => {
                has_yaml = true;
                let mut path = "beeuni.yaml".to_string();
                let mut text = String::new();
                for line in block {
                    match line.strip_prefix("# ").filter(|name| name.ends_with(".yaml") && !name.contains(' ')) {
                        Some(name) => {
                            if !text.is_empty() {
                                files.push((path, std::mem::take(&mut text)));
                            }
                            path = name.to_string();
                        }
                        None => text.push_str(&format!("{line}\n")),
                    }
                }
                files.push((path, text));
            }
            "ts" | "js" => {
                let (first, rest) = block.split_first()?;
                let named = first.strip_prefix("// ").filter(|path| path.contains('/') && !path.contains(' '));
                let text = |lines: &[&str]| lines.iter().map(|line| format!("{line}\n")).collect();
                match named {
                    Some(path) => files.push((path.to_string(), text(rest))),
                    // A whole module (it starts with its imports or its export) is the one tool of a project.
                    None if first.starts_with("import ")
                        || block.iter().any(|line| line.starts_with("export default")) =>
                    {
                        let path = match category {
                            Category::Xcsh => format!(".xcsh/tools/repo_stats.{language}"),
                            _ => format!("tools/lookup_order.{language}"),
                        };
                        modules.push(path.clone());
                        files.push((path, text(&block)));
                    }
                    None => return None,
                }
            }
            _ => return None,
        }
    }
    // An xcsh tool is found in its folder; a module is declared.
    let manifest = match (category, modules.as_slice()) {
        _ if has_yaml => return modules.is_empty().then_some(files),
        (Category::Xcsh, [] | [_]) if !files.is_empty() => "tools:\n  web_search: beeuni:web_search\n".to_string(),
        (_, [module]) => format!("tools:\n  lookup_order: {module}\n"),
        _ => return None,
    };
    Some([files, vec![("beeuni.yaml".to_string(), manifest)]].concat())
}

/// The text of a `## heading` section of a rule's documentation, up to the next heading.
fn section(rule: &Rule, heading: &str) -> String {
    let docs = rule.docs();
    let start = docs.find(&format!("## {heading}\n")).unwrap_or_else(|| panic!("{} has no ## {heading}", rule.id));
    let body = &docs[start + heading.len() + 4..];
    body[..body.find("\n## ").unwrap_or(body.len())].to_string()
}

/// The rule ids and messages found when `files` are a project of a fresh git repository, every file added.
fn findings(files: &[(String, String)]) -> Vec<(String, String)> {
    let dir = tempfile::TempDir::new().unwrap();
    for (path, text) in files {
        write(dir.path(), path, text.as_bytes());
    }
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    let (_, report) = json_in(Path::new(dir.path()), &[]);
    let text = |d: &serde_json::Value, key: &str| d[key].as_str().unwrap().to_string();
    diagnostics(&report).iter().map(|d| (text(d, "rule"), text(d, "message"))).collect()
}

/// The messages of `rule`, and of the syntax rules, among `found`.
fn of<'f>(found: &'f [(String, String)], rules: &[&str]) -> Vec<&'f (String, String)> {
    found.iter().filter(|(rule, _)| rules.contains(&rule.as_str())).collect()
}

#[test]
fn every_rule_shows_a_correction_after_its_example() {
    for rule in RULES {
        let docs = rule.docs();
        let (example, use_instead, fix) =
            (docs.find("\n## Example\n"), docs.find("\n## Use instead\n"), docs.find("\n## Fix\n"));
        assert!(
            example < use_instead && use_instead < fix && example.is_some(),
            "{}: Example, Use instead, Fix",
            rule.id
        );
        assert!(section(rule, "Use instead").trim().len() > 10, "{}: an empty ## Use instead", rule.id);
    }
}

#[test]
fn a_rule_fires_on_its_example_and_not_on_its_correction() {
    let (mut checked, mut wrong) = (0, Vec::new());
    for rule in RULES {
        let listed = NOT_SELF_CONTAINED.iter().any(|(id, _)| *id == rule.id);
        let example = project_files(&section(rule, "Example"), rule.category());
        let corrected = project_files(&section(rule, "Use instead"), rule.category());
        let (Some(example), Some(corrected)) = (example, corrected) else {
            // A snippet of a module is checked by the rule's fixtures; any other rule is a project or listed.
            let snippet = matches!(rule.category(), Category::Module | Category::Xcsh);
            assert!(snippet || listed, "`{}`: its ## Example or ## Use instead is not a project", rule.id);
            continue;
        };
        if listed {
            assert_eq!(rule.category(), Category::ChangeAware, "`{}` is listed but is a project", rule.id);
            continue;
        }
        // The code shown parses (but where a syntax error is what the rule reports): a correction that does not
        // parse would pass any other rule.
        let syntax: &[&str] = if SYNTAX.contains(&rule.id) { &[] } else { &SYNTAX };
        let found = findings(&example);
        if of(&found, &[rule.id]).is_empty() || !of(&found, syntax).is_empty() {
            wrong.push(format!("`{}` on its ## Example: {found:?}\n{example:?}", rule.id));
        }
        let found = findings(&corrected);
        let left = of(&found, &[&[rule.id][..], &SYNTAX].concat());
        if !left.is_empty() {
            wrong.push(format!("`{}` on its ## Use instead: {left:?}\n{corrected:?}", rule.id));
        }
        checked += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 62, "only {checked} rules checked");
}

#[test]
fn a_section_names_its_files() {
    let files = project_files(
        "```yaml\n# beeuni.yaml\nimports: [a.yaml]\n# a.yaml\nagents: {}\n```\n\n```ts\n// tools/x.ts\nexport default {}\n```\n",
        Category::Tool,
    );
    let files: Vec<(&str, &str)> = files.iter().flatten().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    assert_eq!(
        files,
        [("beeuni.yaml", "imports: [a.yaml]\n"), ("a.yaml", "agents: {}\n"), ("tools/x.ts", "export default {}\n")]
    );
    assert_eq!(project_files("```ts\nparameters: {},\n```\n", Category::Module), None);
    assert_eq!(project_files("```yaml\ntools: {}\n```\n```ts\nasync execute() {}\n```\n", Category::Tool), None);
    let module = project_files("```ts\nexport default {}\n```\n", Category::Module).unwrap();
    assert_eq!(module[1], ("beeuni.yaml".to_string(), "tools:\n  lookup_order: tools/lookup_order.ts\n".to_string()));
    let xcsh = project_files("```ts\nexport default (pi) => ({})\n```\n", Category::Xcsh).unwrap();
    assert_eq!(xcsh[0].0, ".xcsh/tools/repo_stats.ts");
}
