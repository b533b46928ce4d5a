//! A tool name is not snake_case of at most 64 characters.
//!
//! ## What it checks
//! Every name under `tools:` must match `^[a-z][a-z0-9_]{0,63}$`. The
//! message says which part fails: upper case, a leading digit, a dash, another
//! character, or the length.
//!
//! ## Why
//! The platform refuses the name, and the tool never loads.
//!
//! ## Example
//! ```yaml
//! tools:
//!   lookup-order: tools/lookup_order.ts
//! ```
//!
//! ## Fix
//! Rename the tool in snake_case (and every agent list that names it).

use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::project::Project;
use crate::rules::Rule;

pub static RULE: Rule = Rule::new("tool-name", Severity::Error, include_str!("tool_name.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for decl in &project.tools {
        if let Some(problem) = name_problem(&decl.name) {
            let message = if decl.name.is_empty() {
                "a tool name is empty: it must be snake_case of 1 to 64 characters".to_string()
            } else {
                format!("tool name `{}` is not snake_case of at most 64 characters: {problem}", decl.name)
            };
            let diagnostic = Diagnostic::new(RULE.id, RULE.severity, Label::new(decl.file, decl.entry()), message);
            out.push(diagnostic.help(suggestion(&decl.name)));
        }
    }
}

/// What part of a name breaks `^[a-z][a-z0-9_]{0,63}$`, if any.
pub fn name_problem(name: &str) -> Option<String> {
    // The common case, a good name, in one pass over its bytes (all ASCII: as many characters as bytes).
    let bytes = name.as_bytes();
    if bytes.len() <= 64
        && bytes.first().is_some_and(u8::is_ascii_lowercase)
        && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_')
    {
        return None;
    }
    let Some(first) = name.chars().next() else {
        return Some("it is empty".into());
    };
    if name.chars().count() > 64 {
        return Some(format!("it has {} characters, more than 64", name.chars().count()));
    }
    if let Some(upper) = name.chars().find(|c| c.is_uppercase()) {
        return Some(format!("it has the upper-case letter `{upper}`"));
    }
    if first.is_ascii_digit() {
        return Some("it starts with a digit".into());
    }
    if name.contains('-') {
        return Some("it has a dash; use `_`".into());
    }
    if !first.is_ascii_lowercase() {
        return Some(format!("it starts with `{first}`, not a lower-case ASCII letter"));
    }
    let other = name.chars().find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))?;
    Some(format!("it has the character `{other}`"))
}

fn suggestion(name: &str) -> String {
    let mut snake = String::new();
    for c in name.chars() {
        if c.is_uppercase() && !snake.is_empty() && !snake.ends_with('_') {
            snake.push('_');
        }
        match c {
            'a'..='z' | '0'..='9' | '_' => snake.push(c),
            c if c.is_ascii_uppercase() => snake.push(c.to_ascii_lowercase()),
            _ => snake.push('_'),
        }
    }
    let snake = snake.trim_start_matches(|c: char| !c.is_ascii_lowercase());
    let snake: String = snake.chars().take(64).collect();
    if snake.is_empty() || name_problem(&snake).is_some() {
        "use lower-case letters, digits and `_`, starting with a letter".into()
    } else {
        format!("rename it, e.g. `{snake}`, here and in every agent list that names it")
    }
}
