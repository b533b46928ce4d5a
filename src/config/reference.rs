//! The key-by-key reference of `beeuni-lint.toml` that docs/configuration.md shows below its introduction
//! (tests/it/config_reference.rs writes it with `BEEUNI_LINT_BLESS_DOCS=1` and fails when it is not current).
//! Each key's example is parsed by [`Config::parse`] and must be accepted, and each wrong value is parsed too:
//! the page shows the error the parser gives it, word for word, so the page cannot drift from the parser. A test
//! checks that the keys here are the keys the parser knows.

use super::{Config, FILE_NAME};
use crate::source::escape::prefixed_lines;

/// One key of the config, as the reference shows it.
pub struct Key {
    /// The key as written in the file: `harness-tools`, or with its table, `[paths] exclude`.
    pub name: &'static str,
    pub kind: &'static str,
    pub default: &'static str,
    /// What it does (Markdown).
    pub what: &'static str,
    /// A config using the key, which the parser accepts.
    pub example: &'static str,
    /// Configs with a wrong value of the key, each rejected by the parser.
    pub wrong: &'static [&'static str],
}

/// Every key, in the order of the reference.
pub const KEYS: &[Key] = &[
    Key {
        name: "harness-tools",
        kind: "list of strings (at most 1,000)",
        default: "`[]`",
        what: "Harness tool names the built-in table does not know: a newer harness's tool, or a tool a \
               plugin adds. They count as tier 1 ([the specification](spec/rules.md#the-harness-table)): an agent \
               list may name them, and no project tool may take their name.",
        example: "harness-tools = [\"my_builtin\"]\n",
        wrong: &["harness-tools = \"my_builtin\"\n", "harness-tools = [\"my_builtin\", 7]\n"],
    },
    Key {
        name: "removed-beeuni-tools",
        kind: "list of Beeuni tool names (`web_search`, `image_search`, `scrape_webpage`, `memory`, `show`)",
        default: "`[]`",
        what: "Beeuni tools the project leaves out on purpose: `removed-beeuni-tool` and `no-beeuni-tools` stay \
               silent about them ([removing a Beeuni tool on purpose](ignoring.md#removing-a-beeuni-tool-on-purpose)). \
               A name the project loads again is reported as `unused-ignore` at its entry.",
        example: "removed-beeuni-tools = [\"image_search\", \"memory\"]\n",
        wrong: &["removed-beeuni-tools = [\"imge_search\"]\n"],
    },
    Key {
        name: "xcsh-paths",
        kind: "list of folder paths (at most 1,000)",
        default: "`[]` (`.xcsh/tools`, `.claude/tools` and `.codex/tools` are always checked)",
        what: "More folders of xcsh custom tools ([xcsh](xcsh.md)), relative to the config's folder, like \
               `--xcsh PATH`. A folder of another project of a monorepo is that project's, not this one's.",
        example: "xcsh-paths = [\"agent/tools\"]\n",
        wrong: &["xcsh-paths = [\"../tools\"]\n"],
    },
    Key {
        name: "[rules]",
        kind: "table: a rule id, then its level, `\"error\"`, `\"warning\"`, `\"info\"` or `\"off\"`",
        default: "each rule's own severity ([rules](rules/index.md))",
        what: "One level for every finding of the rule: `off` drops them, any other level replaces the \
               severity (also for rules whose severity depends on the case, like `file-untracked`), and \
               `--fail-on` and `--min-severity` then see that level.",
        example: "[rules]\nunknown-tool = \"error\"\ntask-escalation = \"off\"\n",
        wrong: &["[rules]\nunknown-toll = \"error\"\n", "[rules]\nunknown-tool = \"warn\"\n", "rules = \"off\"\n"],
    },
    Key {
        name: "[paths] exclude",
        kind: "list of globs (globset syntax, at most 1,000 of at most 256 bytes)",
        default: "none",
        what: "Findings in a file whose path matches are dropped (the path from the config's folder, with `/`). \
               The files are still read and still count (a tool declared in an excluded file is declared): only \
               their findings are dropped.",
        example: "[paths]\nexclude = [\"examples/**\"]\n",
        wrong: &["[paths]\nexclude = [\"tools/[a-\"]\n", "[paths]\nexclud = [\"examples/**\"]\n"],
    },
    Key {
        name: "[limits] module-bytes",
        kind: "a number of bytes, from 1 to 33,554,432 (32 MiB, the most of any file read)",
        default: "`2097152` (2 MiB)",
        what: "The largest tool module or helper (a file a module imports) beeuni-lint reads and parses. A larger \
               one is checked for its size before a byte of it is read and is one `analysis-limit` warning at its \
               line 1, which fails the default `--fail-on warning`: none of its checks were made. Parsing costs \
               some 40 bytes of memory a byte of module ([limits](limits.md)).",
        example: "[limits]\nmodule-bytes = 4194304\n",
        wrong: &["[limits]\nmodule-bytes = 0\n", "[limits]\nmodule-bytes = \"2 MiB\"\n", "[limits]\nmodule-byte = 1\n"],
    },
    Key {
        name: "[policy] guard",
        kind: "list of inline tables `{ agents, harness, tools, secrets }` (at most 100)",
        default: "none: no gain needs approval",
        what: "The gains `--policy` reports as `policy-gain` findings until approved ([policy](policy.md)): \
               `agents` a glob of agent names (`*` when left out), `harness` `standard` or `experimental` (both \
               when left out), `tools` tool names or groups (`bash` with its `pty_*`, `write` the shared write \
               group, `all`), `secrets` names or globs. An entry needs `tools` or `secrets`.",
        example: "[policy]\nguard = [\n  { agents = \"*\", tools = [\"bash\", \"write\"] },\n  { agents = \"support*\", secrets = [\"STRIPE_*\"] },\n]\n",
        wrong: &[
            "[policy]\nguard = [{ agents = \"*\", tools = [\"bsh\"] }]\n",
            "[policy]\nguard = [{ agents = \"*\", harness = \"beta\", tools = [\"bash\"] }]\n",
            "[policy]\nguard = [{ agents = \"*\" }]\n",
        ],
    },
];

/// The reference: a section for each key (type, default, what it does, an example, and each wrong value with
/// the error it gets), after what any other key gets.
pub fn page() -> String {
    let mut page = String::from(
        "## Every key\n\n<!-- Generated from src/config/reference.rs by tests/it/config_reference.rs: edit the \
         source. -->\n\nThe file is optional; every key is. A mistake is an error (exit 2) that names the file \
         from the repository root, the line and the column; every mistake of the file is listed in one run. \
         Any other key is one:\n\n",
    );
    page.push_str(&shown_error("harness-tool = [\"my_builtin\"]\n"));
    for key in KEYS {
        page.push_str(&format!(
            "### `{}`\n\n- Type: {}\n- Default: {}\n\n{}\n\n",
            key.name, key.kind, key.default, key.what
        ));
        page.push_str(&format!("```toml\n{}```\n\n", key.example));
        let values = if key.wrong.len() == 1 { "A wrong value" } else { "Wrong values" };
        page.push_str(&format!("{values}, and what beeuni-lint says:\n\n"));
        for wrong in key.wrong {
            page.push_str(&shown_error(wrong));
        }
    }
    page.truncate(page.trim_end().len());
    page.push('\n');
    page
}

/// `config` in a TOML block, and the error `beeuni-lint` prints for it in a text block.
fn shown_error(config: &str) -> String {
    let error = match Config::parse(config, FILE_NAME) {
        Ok(_) => format!("(no error: `{config}` is accepted)"),
        Err(error) => prefixed_lines("beeuni-lint: ", &error),
    };
    format!("```toml\n{config}```\n\n```text\n{error}```\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_names_the_keys_the_parser_knows() {
        let mut named: Vec<String> = KEYS
            .iter()
            .map(|key| {
                let name = key.name.trim_start_matches('[');
                name.split_once("] ").map_or(name.trim_end_matches(']'), |(table, _)| table).to_string()
            })
            .collect();
        named.dedup();
        assert_eq!(named, super::super::KEYS);
        let paths: Vec<&str> = KEYS.iter().filter_map(|key| key.name.strip_prefix("[paths] ")).collect();
        assert_eq!(paths, super::super::PATHS_KEYS);
    }

    #[test]
    fn every_example_is_accepted_and_every_wrong_value_refused() {
        for key in KEYS {
            assert!(Config::parse(key.example, FILE_NAME).is_ok(), "{}: {}", key.name, key.example);
            for wrong in key.wrong {
                let error = Config::parse(wrong, FILE_NAME).err().unwrap_or_else(|| panic!("{wrong} is accepted"));
                assert!(error.starts_with("beeuni-lint.toml:"), "{error}");
            }
        }
        let page = page();
        assert!(!page.contains("(no error"), "{page}");
        assert!(page.contains(
            "beeuni-lint: beeuni-lint.toml:1:1: unknown key `harness-tool`: did you mean `harness-tools`?\n"
        ));
    }
}
