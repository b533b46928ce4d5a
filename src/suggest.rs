//! Near matches for a name that is not known: edit distance and "did you mean".

/// Optimal string alignment distance (`strsim`'s): a transposition of neighbours counts as one edit. A name longer
/// than [`LONGEST_COMPARED`] is given the longer length, a distance no smaller than the true one.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let longer = a.chars().count().max(b.chars().count());
    if longer > LONGEST_COMPARED {
        return longer;
    }
    strsim::osa_distance(a, b)
}

/// Names longer than this (in characters) are near nothing: no tool name has more than 64, and a distance between
/// names a repository makes megabytes long would cost it quadratic work.
const LONGEST_COMPARED: usize = 256;

/// What a [`NearMatcher`] charges for comparing two names: the product of their lengths (the alignment's table),
/// each length counted as at least this, the longest tool name's. Up to that length the fixed cost of a
/// comparison (the count of characters not shared) outweighs the alignment, and every comparison costs the same;
/// past it, a comparison of two names of 246 characters costs 15 of those.
pub const SHORTEST_CHARGED: usize = 64;

/// The charge for comparing names of these lengths (see [`SHORTEST_CHARGED`]).
fn charge(a: usize, b: usize) -> usize {
    a.max(SHORTEST_CHARGED).saturating_mul(b.max(SHORTEST_CHARGED))
}

/// [`edit_distance`] when it is at most `bound`, else some distance above it. The alignment is quadratic; most
/// names compared are far apart, and a count of the characters they do not share (linear) tells most of them:
/// an edit changes that count by at most two, so more than twice `bound` of them is a distance above `bound`.
fn edit_distance_within(a: &str, b: &str, bound: usize) -> usize {
    if unshared_characters(a, b) > bound.saturating_mul(2) {
        return bound.saturating_add(1);
    }
    edit_distance(a, b)
}

/// The characters of `a` and of `b` the other lacks, counted as multisets (`aab`, `abc`: `a` and `c`, 2).
fn unshared_characters(a: &str, b: &str) -> usize {
    let mut counts: rustc_hash::FxHashMap<char, isize> = rustc_hash::FxHashMap::default();
    for c in a.chars() {
        *counts.entry(c).or_default() += 1;
    }
    for c in b.chars() {
        *counts.entry(c).or_default() -= 1;
    }
    counts.values().map(|n| n.unsigned_abs()).sum()
}

/// The known names nearest to `name`, within distance 2: every name tied at the smallest distance, in the
/// candidates' order (docs/spec/rules.md §10, revision 2). Case does not count as an edit: `BASH` is nearest to `bash`.
pub fn near_matches<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let lower = name.to_lowercase();
    let mut best = usize::MAX;
    let mut found: Vec<&str> = Vec::new();
    // Cheap length filter first: a distance of at most 2 needs lengths within 2.
    for c in candidates.into_iter().filter(|c| c.len().abs_diff(name.len()) <= 2 && *c != name) {
        let d = edit_distance(&lower, &c.to_lowercase());
        if d > 2 || d > best {
            continue;
        }
        if d < best {
            best = d;
            found.clear();
        }
        if !found.contains(&c) {
            found.push(c);
        }
    }
    found
}

/// [`near_matches`] against one list of candidates for many names, each candidate lowercased once and the
/// candidates grouped by length, each name's search memoised, and the whole held to a budget of characters compared
/// (see [`charge`]): the lists a repository controls (every declared tool) and the names looked up (every unknown
/// one) can each hold a hundred thousand, of up to [`LONGEST_COMPARED`] characters.
pub struct NearMatcher<'a> {
    /// Each distinct candidate, in the order first given, lowercased.
    candidates: Vec<(&'a str, String)>,
    /// Candidates by their length in bytes (the length filter of [`near_matches`]): their places in `candidates`.
    by_length: std::collections::HashMap<usize, Vec<usize>>,
    found: std::collections::HashMap<String, Option<Vec<&'a str>>>,
    /// Characters still allowed to be compared (see [`charge`]).
    budget: usize,
}

impl<'a> NearMatcher<'a> {
    pub fn new(candidates: impl IntoIterator<Item = &'a str>, budget: usize) -> Self {
        let mut seen = std::collections::HashSet::new();
        let candidates: Vec<(&str, String)> =
            candidates.into_iter().filter(|c| seen.insert(*c)).map(|c| (c, c.to_lowercase())).collect();
        let mut by_length: std::collections::HashMap<usize, Vec<usize>> = std::collections::HashMap::new();
        for (at, (c, _)) in candidates.iter().enumerate() {
            by_length.entry(c.len()).or_default().push(at);
        }
        NearMatcher { candidates, by_length, found: std::collections::HashMap::new(), budget }
    }

    /// What [`near_matches`] gives for `name`, or `None` once the characters allowed to be compared are spent.
    pub fn near(&mut self, name: &str) -> Option<Vec<&'a str>> {
        if let Some(found) = self.found.get(name) {
            return found.clone();
        }
        // Near nothing (see `edit_distance`), whatever the candidates: no comparison needed.
        if name.chars().count() > LONGEST_COMPARED {
            return Some(Vec::new());
        }
        let lower = name.to_lowercase();
        let mut places: Vec<usize> = (name.len().saturating_sub(2)..=name.len() + 2)
            .filter_map(|len| self.by_length.get(&len))
            .flatten()
            .copied()
            .collect();
        let cost =
            places.iter().fold(0usize, |sum, &at| sum.saturating_add(charge(lower.len(), self.candidates[at].1.len())));
        let found = if cost > self.budget {
            self.budget = 0;
            None
        } else {
            self.budget -= cost;
            // In the candidates' order, as [`near_matches`] names ties.
            places.sort_unstable();
            let mut best = usize::MAX;
            let mut found = Vec::new();
            for at in places {
                let (candidate, lowered) = &self.candidates[at];
                if *candidate == name {
                    continue;
                }
                let distance = edit_distance_within(&lower, lowered, 2);
                if distance > 2 || distance > best {
                    continue;
                }
                if distance < best {
                    best = distance;
                    found.clear();
                }
                found.push(*candidate);
            }
            Some(found)
        };
        self.found.insert(name.to_string(), found.clone());
        found
    }
}

/// "`a`", "`a` or `b`", "`a`, `b` or `c`".
pub fn one_of(names: &[&str]) -> String {
    listed(names, "or")
}

/// The names in backticks, the last two joined by `word` ("`a`, `b` and `c`").
pub fn listed(names: &[&str], word: &str) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {word} {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// "did you mean `x`?" naming every nearest match (ties are all named).
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let near = near_matches(name, candidates);
    (!near.is_empty()).then(|| format!("did you mean {}?", one_of(&near)))
}

/// [`did_you_mean`] for a name typed on the command line, where a part of the name is common too: without a
/// match within two edits, the candidates that hold the name (`unknown-exclude` → `unknown-excluded-tool`), or
/// that the name holds once `-`, `_` and case are set aside (`websearch` → `web_search`), when at most three do.
pub fn did_you_mean_typed(name: &str, candidates: &[&str]) -> Option<String> {
    if let Some(hint) = did_you_mean(name, candidates.iter().copied()) {
        return Some(hint);
    }
    let plain = |s: &str| s.chars().filter(|c| !matches!(c, '-' | '_')).collect::<String>().to_lowercase();
    let typed = plain(name);
    if typed.len() < 3 {
        return None;
    }
    let holding: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| {
            let c = plain(c);
            c.contains(&typed) || typed.contains(&c)
        })
        .collect();
    (!holding.is_empty() && holding.len() <= 3).then(|| format!("did you mean {}?", one_of(&holding)))
}

/// Is `key` a near miss of the known key `known` (docs/spec/rules.md `unknown-key`)?
pub fn is_near_miss(key: &str, known: &str) -> bool {
    if key == known {
        return false;
    }
    if key.eq_ignore_ascii_case(known) {
        return true;
    }
    if format!("{key}s") == known || format!("{known}s") == key {
        return true;
    }
    let allowed = if known.chars().count() >= 8 { 2 } else { 1 };
    edit_distance(key, known) <= allowed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("bash", "bahs"), 1);
        assert_eq!(edit_distance("bash", "bsh"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert!(is_near_miss("Tools", "tools"));
        assert!(is_near_miss("tool", "tools"));
        assert!(is_near_miss("agent", "agents"));
        assert!(is_near_miss("exlude", "exclude"));
        assert!(is_near_miss("conectors", "connectors"));
        assert!(!is_near_miss("hooks", "tools"));
        assert!(!is_near_miss("tools", "tools"));
        assert_eq!(did_you_mean("bsh", ["read", "bash"]).as_deref(), Some("did you mean `bash`?"));
        // Case is not an edit; ties are all named; a unique nearest wins over farther ones.
        assert_eq!(near_matches("BASH", ["bash", "base"]), ["bash"]);
        assert_eq!(did_you_mean("websearh", ["web_search", "websearch"]).as_deref(), Some("did you mean `websearch`?"));
        assert_eq!(
            did_you_mean("wbsearch", ["websearch", "wbsearchx"]).as_deref(),
            Some("did you mean `websearch` or `wbsearchx`?")
        );
        assert_eq!(one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
    }

    #[test]
    fn names_past_the_longest_compared_are_near_nothing() {
        // Two names of 300,000 characters one apart: no table of their product is made, and no match is made.
        let long: String = "a".repeat(300_000);
        let other = format!("{long}b");
        assert!(near_matches(&long, [other.as_str()]).is_empty());
        assert_eq!(edit_distance(&long, &other), 300_001);
        let mut matcher = NearMatcher::new([other.as_str(), "bash"], 1_000);
        assert_eq!(matcher.near(&long), Some(Vec::new()));
        // At the limit a distance is still exact.
        let edge = "x".repeat(LONGEST_COMPARED);
        assert_eq!(edit_distance(&edge, &format!("{}y", &edge[1..])), 1);
    }

    #[test]
    fn the_matcher_finds_what_near_matches_finds_within_its_budget() {
        let known = ["bash", "base", "read", "wbsearchx", "websearch", "bash", "Web_Search", "kitten"];
        let mut matcher = NearMatcher::new(known, 1_000 * charge(0, 0));
        for name in ["BASH", "bsh", "wbsearch", "web_serch", "sitting", "read", "zzzzzz", "bahs"] {
            assert_eq!(matcher.near(name), Some(near_matches(name, known)), "{name}");
        }
        // Each distinct name is compared once: asked again, it costs nothing.
        let mut matcher = NearMatcher::new(known, 3 * charge(0, 0));
        assert_eq!(matcher.near("bsh"), Some(vec!["bash"]), "bash, base, read: three of length 2 to 5");
        assert_eq!(matcher.near("bsh"), Some(vec!["bash"]));
        assert_eq!(matcher.near("rad"), None, "the budget is spent");
    }

    #[test]
    fn the_budget_counts_characters_compared_past_the_length_of_a_tool_name() {
        let prefix = "k".repeat(240);
        let known: Vec<String> = (0..10).map(|i| format!("{prefix}d{i:05}")).collect();
        let known = known.iter().map(String::as_str).chain(["bash"]);
        // Ten comparisons of names of 64 characters or fewer, or one of names of 246.
        let mut matcher = NearMatcher::new(known.clone(), 10 * charge(0, 0));
        assert_eq!(charge(246, 246), 246 * 246);
        assert_eq!(matcher.near("bsh"), Some(vec!["bash"]));
        assert_eq!(matcher.near(&format!("{prefix}u00000")), None, "ten names of 246: past the budget");
        let mut matcher = NearMatcher::new(known, 10 * charge(246, 246) + charge(3, 4));
        assert_eq!(matcher.near(&format!("{prefix}u00000")), Some(vec![&*format!("{prefix}d00000")]));
        // A name past the longest compared is near nothing, and costs nothing: one comparison with `bash` is left.
        assert_eq!(matcher.near(&"k".repeat(LONGEST_COMPARED + 1)), Some(Vec::new()));
        assert_eq!(matcher.near("bsh"), Some(vec!["bash"]));
    }

    #[test]
    fn a_bounded_distance_stops_above_its_bound() {
        assert_eq!(edit_distance_within("bash", "bahs", 2), 1);
        assert_eq!(edit_distance_within("ab", "ba", 0), 1, "a transposition");
        assert!(edit_distance_within("u00000", "d12345", 2) > 2);
        assert_eq!(edit_distance_within("kitten", "sitting", 3), 3);
        // Past twice the bound in characters not shared, no alignment is needed: the count alone is above it.
        assert_eq!(unshared_characters("aab", "abc"), 2);
        assert_eq!(edit_distance_within("abcde", "vwxyz", 2), 3);
        // The same characters in another order are aligned.
        assert_eq!(edit_distance_within("abcd", "dcba", 2), 3);
    }
}
