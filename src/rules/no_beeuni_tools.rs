use crate::catalog::BEEUNI_TOOLS;
use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// The graph has a `tools:` key and it loads no Beeuni tool.
    ///
    /// ## What it checks
    /// With a `tools:` key anywhere in the graph (even `tools: {}` or an empty
    /// `tools:`), sessions get only the Beeuni tools listed there, as
    /// `beeuni:<name>` or as a module that replaces one. When none is listed, the
    /// finding points at the first `tools:` key in graph order. A `tools:` value
    /// that is neither a mapping nor null (`tools: 7`) is `manifest-shape` alone:
    /// that manifest does not load, so this rule says nothing about it. With a
    /// base (`--base`, `--staged`) that loaded a Beeuni tool, the change is what
    /// drops them: that is `removed-beeuni-tool` alone.
    ///
    /// ## Why
    /// This is how a project that adds its first own tool drops all five hosted
    /// tools by accident: one `tools:` line, and every agent loses `web_search`,
    /// `image_search`, `scrape_webpage`, `memory` and `show`.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    ///   lookup_order: tools/lookup_order.ts
    /// ```
    ///
    /// ## Fix
    /// Add `<name>: beeuni:<name>` for each Beeuni tool to keep.
    /// `--fix --unsafe-fixes` adds the five lines under that `tools:` key (an
    /// unsafe fix: the removal may be wanted).
    id: "no-beeuni-tools",
    severity: Warning,
    category: Tool,
    fix: Unsafe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let Some(first) = project.tools_keys.first() else {
        return;
    };
    // `tools: 7` is `manifest-shape`: the manifest does not load, so what sessions get is unknown.
    if project.selection_unknown() {
        return;
    }
    // Left out on purpose (`removed-beeuni-tools`): only the others are missing.
    let missing: Vec<&str> =
        BEEUNI_TOOLS.iter().copied().filter(|name| !project.removed_on_purpose.iter().any(|r| r == name)).collect();
    if !project.loaded_beeuni.is_empty() || missing.is_empty() {
        return;
    }
    // In a change-aware run where the base loaded one of them, this change is what drops them:
    // `removed-beeuni-tool` says so (and offers the same lines), one finding for one cause.
    let on_purpose = |name: &&str| project.removed_on_purpose.iter().any(|r| r == name);
    if project.base.as_ref().is_some_and(|base| base.loaded_beeuni.iter().any(|name| !on_purpose(name))) {
        return;
    }
    let message = "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one.";
    let help = "e.g. `web_search: beeuni:web_search` under `tools:`";
    let mut diagnostic = RULE.diagnostic(Label::new(first.file, first.key), message).help(help);
    diagnostic.fix = super::fixes::add_beeuni_lines(project, first, &missing);
    out.push(diagnostic);
}
