//! The rule registry. One rule, one file, declared with [`declare_rule!`]: the doc comment of its declaration is
//! what `beeuni-lint explain` prints, its first line what `beeuni-lint rules` shows.

use crate::diagnostic::Diagnostic;
use crate::project::Project;
use rayon::prelude::*;

mod declare;
pub(crate) use declare::declare_rule;
pub use declare::{Category, Check, FixAvailability, Rule};

mod agent_tools_shape;
mod analysis_limit;
mod beeuni_ref;
mod beeuni_ref_project;
mod connector_in_tools;
mod duplicate_agent;
mod duplicate_key;
mod duplicate_tool;
mod eject_comment;
mod ejected_template;
mod empty_tool_list;
mod file_untracked;
mod fixes;
mod harness_tool_name;
pub mod hints;
mod import_cycle;
mod import_missing;
mod import_path;
mod legacy_tools_map;
mod manifest_name;
mod manifest_shape;
mod module_missing;
mod module_path;
mod no_beeuni_tools;
mod permission_unknown_tool;
mod pty_follows_bash;
mod redundant_wildcard;
mod reserved_tool_name;
mod shared_permission;
mod stale_ejected_copy;
mod task_escalation;
pub mod tool_name;
mod tool_value;
mod unknown_excluded_tool;
mod unknown_key;
mod unknown_tool;
mod unloaded_beeuni_tool;
pub mod unused_ignore;
mod yaml_syntax;

mod legacy_beeuni_copy;
mod legacy_harness_tool;
mod module_description;
mod module_execute;
mod module_execute_signature;
mod module_factory_export;
mod module_fetch_signal;
mod module_harness_import;
mod module_harness_type_import;
mod module_import_missing;
mod module_no_default_export;
mod module_opencode_tool;
mod module_package_missing;
mod module_package_not_installed;
mod module_package_untracked;
mod module_parameters;
mod module_process_env;
mod module_required;
mod module_syntax;
mod module_unanalyzable;
pub mod policy_gain;
mod removed_beeuni_tool;
mod removed_tool_in_use;
mod secret_not_granted;
mod shapes;
pub(crate) mod site;
mod ui_view_contract;
mod xcsh_execute_signature;
mod xcsh_export;
mod xcsh_factory_return;
mod xcsh_metadata_file;
mod xcsh_name;
mod xcsh_name_conflict;
mod xcsh_parameters;
mod xcsh_signal;
mod xcsh_site;
mod xcsh_tool_shape;
mod xcsh_ui_guard;
mod xcsh_unanalyzable;

mod docs_page;

pub use docs_page::{PAGES_URL, SITE_URL, docs_page, index_page, page_file, page_url};

/// Every rule, in catalogue order (docs/spec/rules.md).
pub static RULES: &[&Rule] = &[
    &yaml_syntax::RULE,
    &duplicate_key::RULE,
    &manifest_shape::RULE,
    &manifest_name::RULE,
    &unknown_key::RULE,
    &import_missing::RULE,
    &import_path::RULE,
    &import_cycle::RULE,
    &file_untracked::RULE,
    &unused_ignore::RULE,
    &tool_name::RULE,
    &harness_tool_name::RULE,
    &reserved_tool_name::RULE,
    &beeuni_ref::RULE,
    &beeuni_ref_project::RULE,
    &tool_value::RULE,
    &module_path::RULE,
    &module_missing::RULE,
    &duplicate_tool::RULE,
    &no_beeuni_tools::RULE,
    &eject_comment::RULE,
    &stale_ejected_copy::RULE,
    &ejected_template::RULE,
    &agent_tools_shape::RULE,
    &unknown_tool::RULE,
    &unknown_excluded_tool::RULE,
    &connector_in_tools::RULE,
    &permission_unknown_tool::RULE,
    &unloaded_beeuni_tool::RULE,
    &legacy_tools_map::RULE,
    &redundant_wildcard::RULE,
    &empty_tool_list::RULE,
    &shared_permission::RULE,
    &pty_follows_bash::RULE,
    &task_escalation::RULE,
    &secret_not_granted::RULE,
    &duplicate_agent::RULE,
    &module_syntax::RULE,
    &module_no_default_export::RULE,
    &module_factory_export::RULE,
    &module_opencode_tool::RULE,
    &module_description::RULE,
    &module_parameters::RULE,
    &module_required::RULE,
    &module_execute::RULE,
    &module_execute_signature::RULE,
    &module_import_missing::RULE,
    &module_package_missing::RULE,
    &module_package_not_installed::RULE,
    &module_package_untracked::RULE,
    &module_harness_import::RULE,
    &module_harness_type_import::RULE,
    &module_process_env::RULE,
    &module_fetch_signal::RULE,
    &ui_view_contract::RULE,
    &module_unanalyzable::RULE,
    &analysis_limit::RULE,
    &legacy_beeuni_copy::RULE,
    &legacy_harness_tool::RULE,
    &xcsh_export::RULE,
    &xcsh_factory_return::RULE,
    &xcsh_tool_shape::RULE,
    &xcsh_name::RULE,
    &xcsh_name_conflict::RULE,
    &xcsh_parameters::RULE,
    &xcsh_execute_signature::RULE,
    &xcsh_signal::RULE,
    &xcsh_ui_guard::RULE,
    &xcsh_metadata_file::RULE,
    &xcsh_unanalyzable::RULE,
    &removed_beeuni_tool::RULE,
    &removed_tool_in_use::RULE,
    &policy_gain::RULE,
];

/// The rules that need a base (`--base`, `--staged`): those of the `change-aware` category (a test checks the list
/// against the categories). A list, not a search of [`RULES`] by id: it is asked once a finding.
pub fn is_change_aware(id: &str) -> bool {
    [removed_beeuni_tool::RULE.id, removed_tool_in_use::RULE.id, policy_gain::RULE.id].contains(&id)
}

pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().copied().find(|r| r.id == id)
}

/// Runs every rule over the model: on the analysis threads, each rule into a list of its own, the lists joined in
/// catalogue order (so the findings come out as a serial run gives them). Serial on the main thread, the rules
/// were a fifth of a warm run's critical path at 20,000 modules while the pool waited.
pub fn check(project: &Project) -> Vec<Diagnostic> {
    let run = |rule: &&Rule| {
        let mut out = Vec::new();
        if let Some(check) = rule.check {
            check(project, &mut out);
        }
        out.iter().for_each(|finding| rule.debug_assert_declared_fix(finding));
        out
    };
    let found: Vec<Vec<Diagnostic>> = match crate::pool::threads() {
        // One task per rule: their costs differ a hundredfold (`file-untracked` is a fifth of the whole at 20,000
        // modules), and in the pieces rayon cuts a list into by default the two threads' shares were 25.5 : 19.1.
        Some(pool) => pool.install(|| RULES.par_iter().with_max_len(1).map(run).collect()),
        None => RULES.iter().map(run).collect(),
    };
    // Moved, not cloned (`concat` clones): a repository can make a rule find a hundred thousand things.
    found.into_iter().flatten().collect()
}

/// A name declared in two files: every declaration after the first (in graph order) whose file differs from the
/// first's, with that first. Repeats within one file are `duplicate-key`. `first`: the position in `items` of the
/// first item of the same name (a table of positions by name: a map of the names held 0.8 MB at the 20k bench,
/// at the run's peak).
fn declared_elsewhere<'i, T>(
    items: &'i [T],
    first: impl Fn(&T) -> Option<usize>,
    file: impl Fn(&T) -> crate::source::FileId,
) -> Vec<(&'i T, &'i T)> {
    let first_of = |item: &'i T| items.get(first(item)?).filter(|first| file(first) != file(item));
    items.iter().filter_map(|item| Some((first_of(item)?, item))).collect()
}

/// Turns the loader's problems of one kind into findings.
fn load_problems(project: &Project, kind: crate::manifest::load::ProblemKind, rule: &Rule, out: &mut Vec<Diagnostic>) {
    for problem in project.graph.problems.iter().filter(|p| p.kind == kind) {
        let mut diagnostic =
            rule.diagnostic(problem.at.clone(), problem.message.clone()).maybe_help(problem.help.clone());
        diagnostic.related = problem.related.clone();
        out.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_documented_with_the_five_headings() {
        for rule in RULES {
            let docs = rule.docs();
            assert!(!rule.summary().is_empty(), "{} has no summary", rule.id);
            for heading in ["## What it checks", "## Why", "## Example", "## Use instead", "## Fix"] {
                assert!(docs.contains(heading), "{} lacks {heading}", rule.id);
            }
        }
        // What `--fix` does is said where it does something, and only there.
        for rule in RULES {
            let docs = rule.docs();
            let fix = &docs[docs.find("## Fix").unwrap()..];
            let (safe, unsafe_) = match rule.fix() {
                FixAvailability::None => (false, false),
                FixAvailability::Safe => (true, false),
                FixAvailability::Unsafe => (false, true),
                FixAvailability::SafeOrUnsafe => (true, true),
            };
            let names_unsafe = fix.contains("`--fix --unsafe-fixes`");
            let names_safe = fix.replace("`--fix --unsafe-fixes`", "").contains("`--fix`");
            assert_eq!((names_safe, names_unsafe), (safe, unsafe_), "{}: ## Fix and `--fix`", rule.id);
        }
        let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
    }

    #[test]
    fn the_rules_come_in_the_order_of_their_catalogue_sections() {
        let out_of_order: Vec<_> =
            RULES.windows(2).filter(|pair| pair[0].category() > pair[1].category()).map(|pair| pair[1].id).collect();
        assert_eq!(out_of_order, Vec::<&str>::new());
        let change_aware: Vec<_> = RULES.iter().filter(|rule| is_change_aware(rule.id)).map(|rule| rule.id).collect();
        assert_eq!(change_aware, ["removed-beeuni-tool", "removed-tool-in-use", "policy-gain"]);
    }

    #[test]
    fn a_rule_is_change_aware_when_its_category_says_so() {
        for rule in RULES {
            assert_eq!(is_change_aware(rule.id), rule.category() == Category::ChangeAware, "{}", rule.id);
        }
        assert!(!is_change_aware("no-such-rule"));
    }

    /// Each fixture linted as a run lints it (the rules, then the did-you-mean's fixes): a finding carries only a
    /// fix its rule declares (a debug build stops at the first that does not), and each fix a rule declares is
    /// offered by some fixture, so a declaration is no wider than the rule either. The fixtures lie in a folder of
    /// this repository: `legacy-beeuni-copy` offers its fix there only when it asks git about the file's path in
    /// the project, not the path a report shows.
    #[test]
    fn the_fixtures_offer_the_fixes_each_rule_declares_and_no_other() {
        use crate::diagnostic::Safety;
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        // The fixtures show the unsafe fix of `unloaded-beeuni-tool` (in a list); its safe one (in an exclude list):
        let excluded = tempfile::tempdir().unwrap();
        let manifest = "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: {exclude: [show]}\n";
        std::fs::write(excluded.path().join("beeuni.yaml"), manifest).unwrap();
        let projects = std::fs::read_dir(&fixtures).unwrap().map(|entry| entry.unwrap().path());
        let mut offered = Vec::new();
        for path in projects.chain([excluded.path().to_path_buf()]) {
            // Linted in place: the repository's root config, whose globs leave the fixtures out of a run at its root
            // (and would hide their findings), is not theirs.
            let mut options = crate::lint::CheckOptions::new(path.clone());
            options.config = Some("/dev/null".into());
            let Ok((report, _)) = crate::lint::lint(&options, None) else {
                continue;
            };
            for finding in &report.diagnostics {
                let Some(rule) = find(finding.rule) else { continue };
                let safety = finding.fix.as_ref().map(|fix| fix.safety);
                assert!(rule.fix().allows(finding.fix.as_ref()), "{}: {safety:?} {finding:?}", path.display());
                offered.extend(safety.map(|safety| (rule.id, safety)));
            }
        }
        // The change-aware rules need a base, which no fixture has: tests/it/fix_behaviour.rs applies their fixes.
        for rule in RULES.iter().filter(|rule| rule.category() != Category::ChangeAware) {
            let declared: &[Safety] = match rule.fix() {
                FixAvailability::None => &[],
                FixAvailability::Safe => &[Safety::Safe],
                FixAvailability::Unsafe => &[Safety::Unsafe],
                FixAvailability::SafeOrUnsafe => &[Safety::Safe, Safety::Unsafe],
            };
            for safety in declared {
                assert!(offered.contains(&(rule.id, *safety)), "no fixture offers a {safety:?} fix of {}", rule.id);
            }
        }
    }

    #[test]
    fn the_rules_on_the_pool_find_what_one_after_another_finds_in_the_same_order() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut found = 0;
        for entry in std::fs::read_dir(&fixtures).unwrap() {
            let path = entry.unwrap().path();
            let Ok(loaded) = crate::lint::load(&crate::lint::CheckOptions::new(path.clone())) else { continue };
            let mut serial = Vec::new();
            for check in RULES.iter().filter_map(|rule| rule.check) {
                check(&loaded.project, &mut serial);
            }
            assert_eq!(check(&loaded.project), serial, "{}", path.display());
            found += serial.len();
        }
        assert!(found > 100, "the fixtures gave {found} findings");
    }
}
