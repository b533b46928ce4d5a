//! The maps a specifier goes through before a file: a package's `exports`, a `package.json`'s `imports`
//! (`#name`), and `compilerOptions.paths` of a `tsconfig.json`/`jsconfig.json`.

use super::json::Json;

/// The conditions Bun matches in `exports` and `imports`, for an `import` or a `require()`.
pub fn conditions(require: bool) -> [&'static str; 4] {
    ["bun", if require { "require" } else { "import" }, "node", "default"]
}

/// Entries (keys, conditions, fallback items, alias targets) one look-up examines. The largest `exports` of the
/// npm registry's packages have a few thousand; a map built to make each look-up slow has hundreds of thousands.
pub const MAX_EXAMINED: usize = 10_000;

/// Bytes of a target with its `*` filled in: no path is longer (`PATH_MAX`), and a target of a million `*`
/// filled with a long subpath would be gigabytes.
const MAX_TARGET_BYTES: usize = 4_096;

/// What a map gives for a key.
#[derive(Debug, PartialEq, Eq)]
pub enum Mapped {
    /// The target, with the pattern's `*` filled in.
    Target(String),
    /// No key matches, a matching key's value is `null`, or none of its conditions match.
    NotDefined,
    /// The map is too large to look the key up in ([`MAX_EXAMINED`] entries, or a target over 4 KiB): whether
    /// it maps the key is not known.
    TooLarge,
}

/// What is left to examine of [`MAX_EXAMINED`].
struct Budget(usize);

impl Budget {
    /// Takes `entries` from what is left; `false` when there were not as many.
    fn take(&mut self, entries: usize) -> bool {
        match self.0.checked_sub(entries) {
            Some(left) => {
                self.0 = left;
                true
            }
            None => false,
        }
    }
}

/// Looks `key` (`.`, `./sub` for `exports`; `#name` for `imports`) up in a map, as Node's
/// `PACKAGE_EXPORTS_RESOLVE` / `PACKAGE_IMPORTS_RESOLVE` do: an exact key first, else the pattern key with the
/// longest prefix before its `*`; then the conditions in the target's key order, the first match winning.
pub fn lookup(map: &Json, key: &str, conditions: &[&str]) -> Mapped {
    let budget = &mut Budget(MAX_EXAMINED);
    if let Json::Object(entries) = map
        && !budget.take(entries.len())
    {
        return Mapped::TooLarge;
    }
    // `exports: "./x.js"`, an array, or an object of conditions alone: the main entry.
    let sugar = match map {
        Json::Object(entries) => !entries.iter().any(|(k, _)| k.starts_with('.') || k.starts_with('#')),
        _ => true,
    };
    if sugar {
        return if key == "." { target(map, None, conditions, budget) } else { Mapped::NotDefined };
    }
    let Json::Object(entries) = map else { return Mapped::NotDefined };
    if let Some((_, value)) = entries.iter().find(|(k, _)| k == key && !k.contains('*')) {
        return target(value, None, conditions, budget);
    }
    let best = entries
        .iter()
        .filter_map(|(pattern, value)| {
            let (prefix, suffix) = pattern.split_once('*')?;
            let matched = key.strip_prefix(prefix)?.strip_suffix(suffix)?;
            (key.len() >= pattern.len()).then_some((prefix.len(), matched, value))
        })
        .max_by_key(|(prefix, ..)| *prefix);
    match best {
        Some((_, matched, value)) => target(value, Some(matched), conditions, budget),
        None => Mapped::NotDefined,
    }
}

fn target(value: &Json, matched: Option<&str>, conditions: &[&str], budget: &mut Budget) -> Mapped {
    match value {
        Json::String(target) => match matched {
            Some(part) if target.len() + target.matches('*').count() * part.len() > MAX_TARGET_BYTES => {
                Mapped::TooLarge
            }
            Some(part) => Mapped::Target(target.replace('*', part)),
            None => Mapped::Target(target.clone()),
        },
        // Node takes the first entry that is a valid target (without looking at the file system).
        Json::Array(items) if !budget.take(items.len()) => Mapped::TooLarge,
        Json::Array(items) => items
            .iter()
            .map(|item| target(item, matched, conditions, budget))
            .find(|mapped| *mapped != Mapped::NotDefined)
            .unwrap_or(Mapped::NotDefined),
        Json::Object(entries) if !budget.take(entries.len()) => Mapped::TooLarge,
        Json::Object(entries) => entries
            .iter()
            .filter(|(condition, _)| conditions.contains(&condition.as_str()))
            .map(|(_, value)| target(value, matched, conditions, budget))
            .find(|mapped| *mapped != Mapped::NotDefined)
            .unwrap_or(Mapped::NotDefined),
        _ => Mapped::NotDefined,
    }
}

/// What `compilerOptions.paths` gives for a specifier.
#[derive(Debug, PartialEq, Eq)]
pub enum AliasMatch<'p> {
    /// The alias that matches, and its targets with the `*` filled in.
    Matched(&'p str, Vec<String>),
    NoMatch,
    /// The aliases, or the targets of the one that matches, are more than [`MAX_EXAMINED`].
    TooLarge,
}

/// `compilerOptions.paths` of one config: the alias that matches `specifier`, and its targets. An exact alias
/// wins over patterns; among patterns, the longest prefix (as TypeScript does).
pub fn match_alias<'p>(paths: &'p [(String, Vec<String>)], specifier: &str) -> AliasMatch<'p> {
    if paths.len() > MAX_EXAMINED {
        return AliasMatch::TooLarge;
    }
    let exact = paths.iter().find(|(alias, _)| alias == specifier).map(|(alias, targets)| (alias, targets, None));
    let pattern = || {
        paths
            .iter()
            .filter_map(|(alias, targets)| {
                let (prefix, suffix) = alias.split_once('*')?;
                let matched = specifier.strip_prefix(prefix)?.strip_suffix(suffix)?;
                Some((prefix.len(), alias, targets, matched))
            })
            .max_by_key(|(prefix, ..)| *prefix)
            .map(|(_, alias, targets, matched)| (alias, targets, Some(matched)))
    };
    let Some((alias, targets, matched)) = exact.or_else(pattern) else { return AliasMatch::NoMatch };
    if paths.len() + targets.len() > MAX_EXAMINED {
        return AliasMatch::TooLarge;
    }
    let targets = match matched {
        Some(matched) => targets.iter().map(|t| t.replacen('*', matched, 1)).collect(),
        None => targets.clone(),
    };
    AliasMatch::Matched(alias, targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Json {
        Json::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn exports_follow_key_order_and_patterns() {
        let import = conditions(false);
        let require = conditions(true);
        let map = json(
            r#"{".": {"types": "./a.d.ts", "require": "./a.cjs", "import": "./a.mjs"},
                "./utils/*": {"node": "./u/*.js"}, "./utils/private/*": null, "./pkg.json": "./package.json"}"#,
        );
        assert_eq!(lookup(&map, ".", &import), Mapped::Target("./a.mjs".into()));
        assert_eq!(lookup(&map, ".", &require), Mapped::Target("./a.cjs".into()));
        assert_eq!(lookup(&map, "./utils/x", &import), Mapped::Target("./u/x.js".into()));
        assert_eq!(lookup(&map, "./utils/private/x", &import), Mapped::NotDefined);
        assert_eq!(lookup(&map, "./other", &import), Mapped::NotDefined);
        // The first matching key wins, whatever comes after it.
        let first = json(r#"{"default": "./d.js", "bun": "./b.js"}"#);
        assert_eq!(lookup(&first, ".", &import), Mapped::Target("./d.js".into()));
        assert_eq!(lookup(&json(r#""./main.js""#), ".", &import), Mapped::Target("./main.js".into()));
        assert_eq!(lookup(&json(r#""./main.js""#), "./x", &import), Mapped::NotDefined);
        assert_eq!(lookup(&json(r#"{"browser": "./b.js"}"#), ".", &import), Mapped::NotDefined);
        let imports = json(r##"{"#db": {"bun": "./src/db.ts"}, "#lib/*": "./lib/*.ts"}"##);
        assert_eq!(lookup(&imports, "#db", &import), Mapped::Target("./src/db.ts".into()));
        assert_eq!(lookup(&imports, "#lib/a/b", &import), Mapped::Target("./lib/a/b.ts".into()));
    }

    #[test]
    fn aliases_prefer_exact_then_longest_prefix() {
        let paths = vec![
            ("@/*".to_string(), vec!["src/*".to_string()]),
            ("@/core/*".to_string(), vec!["core/*".to_string(), "vendor/core/*".to_string()]),
            ("config".to_string(), vec!["src/config.ts".to_string()]),
        ];
        assert_eq!(match_alias(&paths, "@/x"), AliasMatch::Matched("@/*", vec!["src/x".to_string()]));
        assert_eq!(
            match_alias(&paths, "@/core/db"),
            AliasMatch::Matched("@/core/*", vec!["core/db".to_string(), "vendor/core/db".to_string()])
        );
        assert_eq!(match_alias(&paths, "config"), AliasMatch::Matched("config", vec!["src/config.ts".to_string()]));
        assert_eq!(match_alias(&paths, "zod"), AliasMatch::NoMatch);
    }
}
