use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool name is not snake_case of at most 64 characters.
    ///
    /// ## What it checks
    /// Every name under `tools:` must match `^[a-z][a-z0-9_]{0,63}$`. The
    /// message says which part fails: upper case, a leading digit, a dash, another
    /// character, or the length.
    ///
    /// ## Why
    /// The platform refuses the name, and the tool never loads.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   lookup-order: tools/lookup_order.ts
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts
    /// ```
    ///
    /// ## Fix
    /// Rename the tool in snake_case (and every agent list that names it).
    id: "tool-name",
    severity: Error,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for decl in &project.tools {
        if let Some(problem) = name_problem(&decl.name) {
            let message = if decl.name.is_empty() {
                "a tool name is empty: it must be snake_case of 1 to 64 characters".to_string()
            } else {
                format!("tool name `{}` is not snake_case of at most 64 characters: {problem}", decl.name)
            };
            let diagnostic = RULE.diagnostic(Label::new(decl.file, decl.entry()), message);
            out.push(diagnostic.help(suggestion(&decl.name)));
        }
    }
}

/// Every part of a name that breaks `^[a-z][a-z0-9_]{0,63}$`, joined by "; " (`Lookup-Order`: the upper-case
/// letter and the dash, both of which the rename must undo); `None` for a good name.
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
    let mut problems = Vec::new();
    let length = name.chars().count();
    if length > 64 {
        problems.push(format!("it has {length} characters, more than 64"));
    }
    if let Some(upper) = name.chars().find(|c| c.is_uppercase()) {
        problems.push(format!("it has the upper-case letter `{upper}`"));
    }
    // A first character that is neither a letter nor a dash is named as the start; the others once each below.
    let starts_badly = !(first.is_ascii_alphabetic() || first.is_uppercase() || first == '-');
    if first.is_ascii_digit() {
        problems.push("it starts with a digit".into());
    } else if starts_badly {
        problems.push(format!("it starts with `{first}`, not a lower-case ASCII letter"));
    }
    if name.contains('-') {
        problems.push("it has a dash; use `_`".into());
    }
    let fine = |c: &char| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-') || c.is_uppercase();
    if let Some(other) = name.chars().skip(usize::from(starts_badly)).find(|c| !fine(c)) {
        problems.push(format!("it has the character `{other}`"));
    }
    Some(problems.join("; "))
}

/// The snake_case a name means: a word starts at an upper-case letter after a lower-case one or a digit, or at the
/// last capital of a run followed by a lower-case letter (`HTTPFetch` → `http_fetch`), so that a name in capitals
/// only is just lower-cased (`LOOKUP` → `lookup`, RULES §10); a dash or any other character becomes `_`.
fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut snake = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1);
        let starts_word = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
            });
        if starts_word && !snake.ends_with('_') {
            snake.push('_');
        }
        match c {
            'a'..='z' | '0'..='9' | '_' => snake.push(c),
            c if c.is_ascii_uppercase() => snake.push(c.to_ascii_lowercase()),
            _ => snake.push('_'),
        }
    }
    snake
}

fn suggestion(name: &str) -> String {
    let snake = snake_case(name);
    let snake = snake.trim_start_matches(|c: char| !c.is_ascii_lowercase());
    let snake: String = snake.chars().take(64).collect();
    if snake.is_empty() || name_problem(&snake).is_some() {
        "use lower-case letters, digits and `_`, starting with a letter".into()
    } else {
        format!("rename it, e.g. `{snake}`, here and in every agent list that names it")
    }
}

#[cfg(test)]
mod tests {
    use super::{name_problem, snake_case, suggestion};

    #[test]
    fn every_failing_part_is_named() {
        assert_eq!(name_problem("lookup_order"), None);
        assert_eq!(
            name_problem("Lookup-Order").as_deref(),
            Some("it has the upper-case letter `L`; it has a dash; use `_`")
        );
        assert_eq!(name_problem("1a.b").as_deref(), Some("it starts with a digit; it has the character `.`"));
        assert_eq!(name_problem("_a").as_deref(), Some("it starts with `_`, not a lower-case ASCII letter"));
        assert_eq!(name_problem("éa").as_deref(), Some("it starts with `é`, not a lower-case ASCII letter"));
        assert_eq!(name_problem("a b").as_deref(), Some("it has the character ` `"));
    }

    #[test]
    fn the_suggestion_keeps_words_and_lowercases_capitals() {
        let cases = [
            ("LOOKUP", "lookup"),
            ("BASH", "bash"),
            ("LOOKUP_ORDER", "lookup_order"),
            ("LookupOrder", "lookup_order"),
            ("lookupOrder", "lookup_order"),
            ("HTTPFetch", "http_fetch"),
            ("Lookup-Order", "lookup_order"),
            ("getV2Data", "get_v2_data"),
        ];
        for (name, snake) in cases {
            assert_eq!(snake_case(name), snake, "{name}");
        }
        assert_eq!(suggestion("LOOKUP"), "rename it, e.g. `lookup`, here and in every agent list that names it");
    }
}
