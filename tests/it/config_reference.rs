//! docs/configuration.md is its hand-written introduction, then the reference `config::reference::page` makes
//! from the config's definition, with the errors the parser really gives (`BEEUNI_LINT_BLESS_DOCS=1 cargo test
//! --test it config_reference::` rewrites it, as for the rule pages).

use std::path::Path;

const HEADING: &str = "## Every key\n";

#[test]
fn the_configuration_page_holds_the_current_reference() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/configuration.md");
    let text = std::fs::read_to_string(&path).unwrap();
    // The introduction is everything above the generated heading (all of the page, before the first bless).
    let intro = text.split_once(HEADING).map_or(text.as_str(), |(intro, _)| intro);
    let wanted = format!("{}\n\n{}", intro.trim_end(), beeuni_lint::config::reference::page());
    if std::env::var_os("BEEUNI_LINT_BLESS_DOCS").is_some_and(|value| value == "1") {
        std::fs::write(&path, &wanted).unwrap();
    }
    assert!(
        text == wanted,
        "docs/configuration.md is not current: run BEEUNI_LINT_BLESS_DOCS=1 cargo test --test it config_reference::"
    );
}

/// The page's wrong values fail the binary as the page says: run each in a project and compare standard error.
#[test]
fn a_wrong_value_fails_the_binary_with_the_error_shown() {
    for key in beeuni_lint::config::reference::KEYS {
        let wrong = key.wrong[0];
        let dir = crate::common::project(&[
            ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n"),
            ("beeuni-lint.toml", wrong),
        ]);
        crate::common::git(dir.path(), &["init", "-q"]);
        crate::common::git(dir.path(), &["add", "-A"]);
        let run = crate::common::run_in(dir.path(), &[]);
        assert_eq!(run.code, 2, "{wrong}");
        let page = beeuni_lint::config::reference::page();
        assert!(
            page.contains(&format!("```toml\n{wrong}```\n\n```text\n{}```\n", run.stderr)),
            "{wrong}: {}",
            run.stderr
        );
    }
}
