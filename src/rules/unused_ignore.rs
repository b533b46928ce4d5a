crate::rules::declare_rule! {
    /// An ignore comment suppresses nothing.
    ///
    /// ## What it checks
    /// A `# beeuni-lint: ignore[rule-id, …]` comment (or `// beeuni-lint:
    /// ignore[…]` in a module) must suppress at least one finding of each rule it
    /// names, on its own line or, alone on a line, on the line below. Unknown rule
    /// ids are reported too.
    ///
    /// ## Why
    /// A stale ignore hides the next real finding on that line, and a misspelt
    /// rule id ignores nothing.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search  # beeuni-lint: ignore[tool-name]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// ```
    ///
    /// ## Fix
    /// Remove the comment, or the rule id from it.
    id: "unused-ignore",
    severity: Info,
    category: Manifest,
    fix: None,
}
