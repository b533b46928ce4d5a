use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A mapping repeats a key.
    ///
    /// ## What it checks
    /// Within one mapping of any file of the graph, a key may appear once. `a`
    /// and `"a"` are the same key; `1` and `"1"` are not. Two empty keys (`: a`
    /// then `: b`) are one key, `null`, as are `~` and `null`: the YAML test suite
    /// calls such a file valid (it tests syntax, not keys), but a loader keeps only
    /// the last entry (Bun's YAML parser reads it as `{ null: 'b' }`). The finding
    /// points at the repeat and labels the first place.
    ///
    /// ## Why
    /// YAML forbids duplicate keys, and most parsers silently keep the last one:
    /// the first declaration is lost without a word.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    ///   web_search: tools/web_search.ts
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// ```
    ///
    /// ## Fix
    /// Keep one of the two entries.
    id: "duplicate-key",
    severity: Error,
    category: Manifest,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for manifest in &project.graph.files {
        let doc = &manifest.doc;
        for dup in &doc.duplicate_keys {
            let repeat = doc.node(dup.repeat).span;
            let at = Label::with_message(manifest.file, repeat, "repeated here");
            let first = Label::with_message(manifest.file, doc.node(dup.first).span, "first defined here");
            // An empty key has no text to quote: the parser's stand-in (`~`) is not what the author wrote.
            let message = if repeat.is_empty() {
                "duplicate empty key (read as `null`): YAML keeps only one of them".to_string()
            } else {
                format!("duplicate key `{}`: YAML keeps only one of them", doc.scalar(dup.repeat).unwrap_or_default())
            };
            out.push(RULE.diagnostic(at, message).related(first).help("remove one of the two entries"));
        }
    }
}
