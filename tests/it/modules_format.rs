//! CommonJS or ES module as Bun decides it (issue 35), beyond what the snapshots of `mod-module-format`,
//! `mod-jsx-in-commonjs` and `mod-reexported-default` show: the JSX verdict does not depend on `react` being
//! installed, and the help of a re-exported default that does not exist.

use crate::common::*;

/// JSX in a CommonJS module fails under Bun whether `react` is installed or not: the same `module-syntax`, and no
/// package finding either way (Bun never gets to resolve the import it adds).
#[test]
fn jsx_in_commonjs_fails_with_or_without_react() {
    let dir = fixture("mod-jsx-in-commonjs");
    let (_, with_react) = json_in(dir.path(), &[]);
    std::fs::remove_dir_all(dir.path().join("node_modules")).unwrap();
    let (code, without_react) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    for report in [&with_react, &without_react] {
        let syntax = of_rule(report, "module-syntax");
        assert_eq!(syntax.len(), 1, "{report:#}");
        assert!(
            syntax[0]["message"]
                .as_str()
                .unwrap()
                .contains("Unexpected token '{'. import call expects one or two arguments."),
            "{report:#}"
        );
        assert!(rule_ids(report).iter().all(|id| !id.starts_with("module-package")), "{report:#}");
    }
    assert_eq!(of_rule(&with_react, "module-syntax"), of_rule(&without_react, "module-syntax"));
}

/// `export { default } from './impl'` without a default export in `./impl`: the help says how to give it one.
#[test]
fn a_missing_reexported_default_says_how_to_give_one() {
    let dir = fixture("mod-reexported-default");
    let (_, report) = json_in(dir.path(), &[]);
    let syntax = of_rule(&report, "module-syntax");
    assert_eq!(syntax.len(), 1, "{report:#}");
    assert_help(
        syntax[0],
        "the module is skipped at load: give the module it re-exports from a default export (`export default { … }`), or re-export the name that module exports (`export { lookupOrder as default } from './impl'`)",
    );
}
