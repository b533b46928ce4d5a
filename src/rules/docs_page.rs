//! The generated documentation of the rules: one Markdown page a rule (`docs/rules/<id>.md`) and their index
//! (`docs/rules/index.md`), made from what the registry declares, and the address every report links to. The
//! pages are checked in; `tests/it/rule_pages.rs` fails when one is not what these functions make (and rewrites
//! them with `BEEUNI_LINT_BLESS_DOCS=1`). A field a rule gains later is one more line of [`facts`].

use super::{Category, FixAvailability, RULES, Rule, is_change_aware};

/// The documentation site's address: the book in `docs/`, built by mdBook and published to GitHub Pages from `main`
/// (.github/workflows/docs.yml). The one place it is written; a macro so that [`PAGES_URL`] can be built from it.
macro_rules! site_url {
    () => {
        "https://beeuni.github.io/beeuni-lint"
    };
}

/// The documentation site (its home page); `docs/book.toml`'s `site-url` is its path, checked by tests/it/docs_site.rs.
pub const SITE_URL: &str = site_url!();

/// Where the rules' pages are published: `docs/rules/` rendered on the site.
pub const PAGES_URL: &str = concat!(site_url!(), "/rules");

/// The page of `rule` as SARIF's `helpUri`, the LSP's `codeDescription` and `explain` give it.
pub fn page_url(rule: &Rule) -> String {
    format!("{PAGES_URL}/{}.html", rule.id)
}

/// The file name of `rule`'s page within `docs/rules/`.
pub fn page_file(rule: &Rule) -> String {
    format!("{}.md", rule.id)
}

/// The page of one rule: its id as the title, its facts, then its documentation (its `//!` comment), whose
/// first line is the summary.
pub fn docs_page(rule: &Rule) -> String {
    let mut page = format!("# `{}`\n\n", rule.id);
    page.push_str(GENERATED);
    page.push('\n');
    for (name, value) in facts(rule) {
        page.push_str(&format!("- {name}: {value}\n"));
    }
    page.push('\n');
    page.push_str(&rule.docs());
    page.push_str("\n[All rules](index.md)\n");
    page
}

/// The index of every rule, a section a category in catalogue order: id (linked to its page), severity, the fix
/// it may offer, summary.
pub fn index_page() -> String {
    let mut page = String::from("# Rules\n\n");
    page.push_str(GENERATED);
    page.push_str(
        "\nEvery rule beeuni-lint has, by section of the catalogue (the order of `beeuni-lint rules`). \
         `beeuni-lint explain ID` prints a rule's page in the terminal. Severity is the default level \
         ([configuration](../configuration.md) changes it); Fix says what `--fix` does: **safe** fixes are \
         applied by `--fix`, **unsafe** ones only with `--fix --unsafe-fixes` ([fixes](../fixes.md)).\n",
    );
    for category in Category::ALL {
        let rules: Vec<&Rule> = RULES.iter().copied().filter(|rule| rule.category() == category).collect();
        if rules.is_empty() {
            continue;
        }
        page.push_str(&format!("\n## {}\n\n{}\n\n", category.title(), category.scope()));
        page.push_str("| Rule | Severity | Fix | What it reports |\n|---|---|---|---|\n");
        for rule in rules {
            let summary = rule.summary().replace('|', "\\|");
            let fix = match rule.fix() {
                FixAvailability::None => "—",
                FixAvailability::Safe => "safe",
                FixAvailability::Unsafe => "unsafe",
                FixAvailability::SafeOrUnsafe => "safe or unsafe",
            };
            page.push_str(&format!(
                "| [`{}`]({}) | {} | {fix} | {summary} |\n",
                rule.id,
                page_file(rule),
                rule.severity.as_str()
            ));
        }
    }
    page
}

const GENERATED: &str =
    "<!-- Generated from the rule's documentation in src/rules/ by tests/it/rule_pages.rs: edit the source. -->\n";

/// The facts a page lists under its title.
fn facts(rule: &Rule) -> Vec<(&'static str, String)> {
    let fix = match rule.fix() {
        FixAvailability::None => "none".to_string(),
        FixAvailability::Safe => "safe (`--fix`)".to_string(),
        FixAvailability::Unsafe => "unsafe (`--fix --unsafe-fixes`)".to_string(),
        FixAvailability::SafeOrUnsafe => "safe or unsafe, by case (see Fix below)".to_string(),
    };
    let mut facts = vec![
        ("Severity", format!("**{}**", rule.severity.as_str())),
        ("Category", format!("`{}`", rule.category().as_str())),
        ("Fix", fix),
    ];
    if is_change_aware(rule.id) {
        facts.push(("Runs", "only against a base (`--base`, `--staged`): it is change-aware".to_string()));
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_has_the_id_the_severity_and_the_whole_documentation() {
        let rule = super::super::find("unknown-tool").unwrap();
        let page = docs_page(rule);
        assert!(page.starts_with("# `unknown-tool`\n\n<!-- Generated"), "{page}");
        assert!(page.contains("\n- Severity: **warning**\n"), "{page}");
        assert!(page.contains(&rule.docs()), "{page}");
        assert_eq!(page_url(rule), "https://beeuni.github.io/beeuni-lint/rules/unknown-tool.html");
        let changed = docs_page(super::super::find("removed-beeuni-tool").unwrap());
        assert!(changed.contains("change-aware"), "{changed}");
    }

    #[test]
    fn the_index_links_every_rule_once() {
        let index = index_page();
        for rule in RULES {
            assert_eq!(index.matches(&format!("[`{}`]({})", rule.id, page_file(rule))).count(), 1, "{}", rule.id);
            // Under its category's heading: the last heading above its row.
            let row = index.find(&format!("| [`{}`]", rule.id)).unwrap();
            let heading = index[..row].rfind("\n## ").unwrap();
            assert!(index[heading..].starts_with(&format!("\n## {}\n", rule.category().title())), "{}", rule.id);
        }
        assert!(index.contains("| [`beeuni-ref`](beeuni-ref.md) | error | safe | "), "{index}");
        assert!(index.contains("| [`unknown-tool`](unknown-tool.md) | warning | unsafe | "), "{index}");
        assert!(index.contains("| [`tool-name`](tool-name.md) | error | — | "), "{index}");
        assert_eq!(index.matches("\n## ").count(), Category::ALL.len());
    }
}
