use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A change removes a Beeuni tool that sessions got at the base.
    ///
    /// ## What it checks
    /// Needs a base (`--base REV`, or `--staged`: HEAD). A Beeuni tool the base
    /// version loaded is not loaded after the change: its line under `tools:` was
    /// deleted, or the change adds the graph's first `tools:` key (anywhere,
    /// also in an imported file) and that key does not list it, or an import
    /// that held the only `tools:` key was removed. The finding points at the
    /// head's `tools:` key (the one of the file that declared the tool, when it
    /// still has one); with no `tools:` key left, at line 1 of `beeuni.yaml`.
    /// A head whose `tools:` value is neither a mapping nor null (`tools: 7`) is
    /// `manifest-shape` alone: that manifest does not load.
    ///
    /// ## Why
    /// Removing a Beeuni tool is one deleted line, and every agent of the
    /// project loses it, on both harnesses, in every session that starts after
    /// the change merges. Nothing at run time says so: the model just stops
    /// being offered the tool.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    ///   lookup_order: tools/lookup_order.ts   # added: image_search, … are gone
    /// ```
    ///
    /// One change gives one finding, whatever it removes: with several tools
    /// the message names them all ("this change removes the Beeuni tools
    /// `image_search`, `memory`: …") and the help is the block of lines to paste.
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    ///   image_search: beeuni:image_search
    ///   scrape_webpage: beeuni:scrape_webpage
    ///   memory: beeuni:memory
    ///   show: beeuni:show
    ///   lookup_order: tools/lookup_order.ts   # added
    /// ```
    ///
    /// ## Fix
    /// Add `<name>: beeuni:<name>` under `tools:` for each tool to keep (when the
    /// removal is not wanted): `--fix --unsafe-fixes` does it (an unsafe fix). When
    /// the removal is wanted,
    /// name the tools in `removed-beeuni-tools = [...]` of `beeuni-lint.toml`.
    id: "removed-beeuni-tool",
    severity: Warning,
    category: ChangeAware,
    fix: Unsafe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let Some(base) = &project.base else { return };
    // A head whose `tools:` value has the wrong type is `manifest-shape`: what it loads is unknown.
    if project.selection_unknown() {
        return;
    }
    // A removal the config accepts (`removed-beeuni-tools`) is not reported.
    let removed: Vec<&str> = base
        .loaded_beeuni
        .iter()
        .copied()
        .filter(|name| !project.is_loaded_beeuni(name) && !project.removed_on_purpose.iter().any(|r| r == name))
        .collect();
    let Some(first) = removed.first() else { return };
    // The `tools:` key of the file that declared the first removed tool at the base, when it still has one.
    let declared_in = base.beeuni_declared_in.iter().find(|(n, _)| n == first).map(|(_, path)| path.as_str());
    let key = declared_in
        .and_then(|path| project.tools_keys.iter().find(|k| project.file(k.file).path == path))
        .or(project.tools_keys.first());
    let at = match (key, project.root_file()) {
        (Some(key), _) => Label::new(key.file, key.key),
        (None, Some(root)) => Label::new(root, project.file(root).line_span(0)),
        (None, None) => return,
    };
    let (message, help) = match removed.as_slice() {
        [name] => (
            format!(
                "this change removes the Beeuni tool `{name}`: every agent of the project loses it, on both harnesses, in every session that starts after the change merges. Add `{name}: beeuni:{name}` under `tools:` to keep it."
            ),
            format!("compared with {}", base.description),
        ),
        names => (
            format!(
                "this change removes the Beeuni tools {}: every agent of the project loses them, on both harnesses, in every session that starts after the change merges. Add the lines below under `tools:` to keep them.",
                names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            ),
            names.iter().map(|n| format!("{n}: beeuni:{n}")).collect::<Vec<_>>().join("\n"),
        ),
    };
    let mut diagnostic = RULE.diagnostic(at, message).help(help);
    // Unsafe: the removal may be wanted (say so in `removed-beeuni-tools` of beeuni-lint.toml instead).
    diagnostic.fix = key.and_then(|key| super::fixes::add_beeuni_lines(project, key, &removed));
    out.push(diagnostic);
}
