//! A rule and its metadata, declared in one place by [`declare_rule!`]: id, default severity, category, the fixes
//! it may offer, and its documentation (the doc comment of the declaration). The declaration is what `rules`,
//! `explain`, the SARIF rule descriptors and the generated docs pages read.

use crate::diagnostic::{Diagnostic, Fix, Label, Safety, Severity};
use crate::project::Project;

pub type Check = fn(&Project, &mut Vec<Diagnostic>);

/// The section of the rule catalogue a rule belongs to, in catalogue order. Its name is the rule's SARIF tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// The files of the manifest graph: YAML, the top-level shape, imports, tracking, ignore comments.
    Manifest,
    /// The declarations under `tools:` and the files they name.
    Tool,
    /// The agents and their tool lists.
    Agent,
    /// The tool modules Beeuni loads (static analysis).
    Module,
    /// The legacy harness folder.
    Legacy,
    /// The xcsh custom tools.
    Xcsh,
    /// What a change does, against a base (`--base`, `--staged`).
    ChangeAware,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Manifest => "manifest",
            Category::Tool => "tool",
            Category::Agent => "agent",
            Category::Module => "module",
            Category::Legacy => "legacy",
            Category::Xcsh => "xcsh",
            Category::ChangeAware => "change-aware",
        }
    }

    /// Every category, in catalogue order.
    pub const ALL: [Category; 7] = [
        Category::Manifest,
        Category::Tool,
        Category::Agent,
        Category::Module,
        Category::Legacy,
        Category::Xcsh,
        Category::ChangeAware,
    ];

    /// The heading of the category's section in the rules index, after the catalogue's (docs/spec/rules.md).
    pub fn title(self) -> &'static str {
        match self {
            Category::Manifest => "Files and YAML",
            Category::Tool => "Tool declarations",
            Category::Agent => "Agent tool lists",
            Category::Module => "Tool modules",
            Category::Legacy => "The legacy harness folder",
            Category::Xcsh => "xcsh custom tools",
            Category::ChangeAware => "Change-aware rules",
        }
    }

    /// What the category's rules read, one sentence for the rules index.
    pub fn scope(self) -> &'static str {
        match self {
            Category::Manifest => {
                "The files of the manifest graph: YAML, the top-level shape, imports, tracking, ignore comments."
            }
            Category::Tool => "The declarations under `tools:` and the files they name.",
            Category::Agent => "The agents and their tool lists.",
            Category::Module => "The tool modules Beeuni loads, read by static analysis (never run).",
            Category::Legacy => "The legacy harness folder.",
            Category::Xcsh => "The xcsh custom tools.",
            Category::ChangeAware => "What a change does, against a base: they run only with `--base` or `--staged`.",
        }
    }
}

/// The fixes a rule's findings may carry. A rule declared with a fix offers it only where it can compute one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixAvailability {
    /// No finding carries a fix.
    None,
    /// Fixes applied by `--fix`.
    Safe,
    /// Fixes applied only with `--unsafe-fixes`.
    Unsafe,
    /// Safe in some cases, unsafe in others (the docs' `## Fix` says which).
    SafeOrUnsafe,
}

impl FixAvailability {
    pub fn as_str(self) -> &'static str {
        match self {
            FixAvailability::None => "none",
            FixAvailability::Safe => "safe",
            FixAvailability::Unsafe => "unsafe",
            FixAvailability::SafeOrUnsafe => "safe or unsafe",
        }
    }

    /// Does the declaration allow a finding to carry `fix`?
    pub fn allows(self, fix: Option<&Fix>) -> bool {
        match (self, fix.map(|fix| fix.safety)) {
            (_, None) | (FixAvailability::SafeOrUnsafe, Some(_)) => true,
            (FixAvailability::Safe, Some(safety)) => safety == Safety::Safe,
            (FixAvailability::Unsafe, Some(safety)) => safety == Safety::Unsafe,
            (FixAvailability::None, Some(_)) => false,
        }
    }
}

/// A rule of the registry; made by [`declare_rule!`] only.
pub struct Rule {
    pub id: &'static str,
    pub severity: Severity,
    /// `None` for rules another stage reports (`unused-ignore`).
    pub check: Option<Check>,
    pub(in crate::rules) category: Category,
    pub(in crate::rules) fix: FixAvailability,
    /// The doc comment's lines as the compiler gives them (`/// text` is ` text`), each ended by a line break.
    pub(in crate::rules) doc_lines: &'static str,
}

impl Rule {
    /// The documentation: the declaration's doc comment, as Markdown.
    pub fn docs(&self) -> String {
        let mut out = String::with_capacity(self.doc_lines.len());
        for line in self.doc_lines.lines() {
            out.push_str(line.strip_prefix(' ').unwrap_or(line));
            out.push('\n');
        }
        out
    }

    /// The first line of the documentation.
    pub fn summary(&self) -> String {
        let first = self.doc_lines.lines().next().unwrap_or_default();
        first.strip_prefix(' ').unwrap_or(first).to_string()
    }

    pub fn category(&self) -> Category {
        self.category
    }

    pub fn fix(&self) -> FixAvailability {
        self.fix
    }

    /// A finding of this rule at its default severity.
    pub fn diagnostic(&self, primary: Label, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.id, self.severity, primary, message)
    }

    /// A finding of this rule at a severity the rule computed (a case it finds more or less serious than its
    /// default; configured levels still apply after the rules).
    pub fn diagnostic_with(&self, severity: Severity, primary: Label, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.id, severity, primary, message)
    }

    /// Debug builds: panics when a finding of this rule carries a fix its declaration does not allow.
    pub(in crate::rules) fn debug_assert_declared_fix(&self, diagnostic: &Diagnostic) {
        debug_assert!(
            self.fix.allows(diagnostic.fix.as_ref()),
            "`{}` is declared with fix `{}` but a finding carries a {:?} fix: {}",
            self.id,
            self.fix.as_str(),
            diagnostic.fix.as_ref().map(|fix| fix.safety),
            diagnostic.message
        );
    }
}

/// Declares a rule as `pub static RULE`. The doc comment is the rule's documentation (its first line the summary;
/// then the sections `## What it checks`, `## Why`, `## Example`, `## Use instead`, `## Fix`); it is joined at compile time.
///
/// ```text
/// declare_rule! {
///     /// An agent's list holds `*` and other names.
///     ///
///     /// ## What it checks
///     /// …
///     id: "redundant-wildcard",
///     severity: Info,             // a `Severity` variant: the default level
///     category: Agent,            // a `Category` variant: the catalogue section
///     fix: None,                  // a `FixAvailability` variant
///     check: check,               // omitted when another stage reports the rule
/// }
/// ```
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])+
        id: $id:literal,
        severity: $severity:ident,
        category: $category:ident,
        fix: $fix:ident
        $(, check: $check:path)?
        $(,)?
    ) => {
        $(#[doc = $doc])+
        pub static RULE: $crate::rules::Rule = $crate::rules::Rule {
            id: $id,
            severity: $crate::diagnostic::Severity::$severity,
            category: $crate::rules::Category::$category,
            fix: $crate::rules::FixAvailability::$fix,
            doc_lines: concat!($($doc, "\n"),+),
            check: $crate::rules::declare_rule!(@check $($check)?),
        };
    };
    (@check) => {
        None
    };
    (@check $check:path) => {
        Some($check)
    };
}

pub(crate) use declare_rule;

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(safety: Safety) -> Fix {
        Fix::delete(safety, "tools/old.ts".into())
    }

    #[test]
    fn a_declaration_allows_the_fixes_it_names() {
        let (safe, unsafe_) = (fix(Safety::Safe), fix(Safety::Unsafe));
        let allowed =
            |availability: FixAvailability| [None, Some(&safe), Some(&unsafe_)].map(|fix| availability.allows(fix));
        assert_eq!(allowed(FixAvailability::None), [true, false, false]);
        assert_eq!(allowed(FixAvailability::Safe), [true, true, false]);
        assert_eq!(allowed(FixAvailability::Unsafe), [true, false, true]);
        assert_eq!(allowed(FixAvailability::SafeOrUnsafe), [true, true, true]);
    }

    declare_rule! {
        /// A rule of the tests.
        ///
        ///   indented
        id: "test-rule",
        severity: Warning,
        category: Agent,
        fix: Safe,
    }

    #[test]
    fn the_doc_comment_is_the_docs_and_its_first_line_the_summary() {
        assert_eq!(RULE.docs(), "A rule of the tests.\n\n  indented\n");
        assert_eq!(RULE.summary(), "A rule of the tests.");
        assert_eq!(
            (RULE.id, RULE.severity, RULE.category(), RULE.fix()),
            ("test-rule", Severity::Warning, Category::Agent, FixAvailability::Safe)
        );
        assert!(RULE.check.is_none());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "`test-rule` is declared with fix `safe` but a finding carries a Some(Unsafe) fix")]
    fn a_debug_build_refuses_a_fix_the_declaration_does_not_allow() {
        let finding = RULE.diagnostic(Label::new(0, crate::source::Span::new(0, 1)), "m").fix(fix(Safety::Unsafe));
        RULE.debug_assert_declared_fix(&finding);
    }
}
