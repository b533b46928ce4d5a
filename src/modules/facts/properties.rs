//! The keys of a `parameters.properties` object as the facts keep them: one string, as few bytes as the names.

use super::InlineStr;

/// The names `properties` defines, in order, joined by a separator no name holds: one string, inline up to 24 bytes
/// (`id`, `limit`, `include_history`), where a list of them cost nearly every module an allocation of 24 bytes a
/// name kept to the end of the run. The separator is NUL unless a name holds one (then the first character none
/// holds), so every literal key is kept as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Properties {
    joined: InlineStr,
    /// How many names there are: `joined` is empty both for none and for one empty name (`{ '': … }`).
    count: u32,
    separator: char,
}

impl Default for Properties {
    fn default() -> Self {
        Properties { joined: InlineStr::default(), count: 0, separator: '\0' }
    }
}

impl Properties {
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Properties {
        let mut properties = Properties::default();
        names.into_iter().for_each(|name| properties.push(name.as_ref()));
        properties
    }

    /// Adds `name` after the others.
    pub fn push(&mut self, name: &str) {
        if name.contains(self.separator) {
            self.rejoin(name);
        }
        if self.count > 0 {
            self.joined.push(self.separator);
        }
        self.joined.push_str(name);
        self.count += 1;
    }

    /// Joins the names so far again by the first character after the separator that neither they nor `name` hold
    /// (some is: the names hold finitely many).
    fn rejoin(&mut self, name: &str) {
        let names: Vec<String> = self.iter().map(str::to_owned).collect();
        let held = |c: char| name.contains(c) || names.iter().any(|n| n.contains(c));
        let after = u32::from(self.separator) + 1;
        self.separator = (after..=u32::from(char::MAX)).filter_map(char::from_u32).find(|&c| !held(c)).unwrap_or('\0');
        *self = names.iter().fold(Properties { separator: self.separator, ..Properties::default() }, |mut kept, n| {
            kept.push(n);
            kept
        });
    }

    /// The names as the cache keeps them: joined, their number, and the separator.
    pub fn parts(&self) -> (&str, usize, char) {
        (&self.joined, self.len(), self.separator)
    }

    /// The names from [`Properties::parts`], in one copy; `None` unless `joined` holds `count` names `separator`
    /// parts (a damaged or foreign cache entry is not trusted).
    pub fn from_parts(joined: &str, count: usize, separator: char) -> Option<Properties> {
        let pieces = match joined.is_empty() {
            // None, or one empty name.
            true => count.min(1),
            false => joined.matches(separator).count() + 1,
        };
        let count = u32::try_from(count).ok().filter(|_| pieces == count)?;
        Some(Properties { joined: joined.into(), count, separator })
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.joined.split(self.separator).take(self.count as usize)
    }

    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

#[cfg(test)]
mod tests {
    use super::Properties;

    /// Names holding the separator are kept whole (the separator moves past every character they hold), and none,
    /// one empty name and two are told apart.
    #[test]
    fn every_name_is_kept_as_written() {
        let cases: [&[&str]; 6] =
            [&[], &[""], &["", "a"], &["id", "a\0b", "c"], &["a\0b", "\u{1}", "\0\u{2}", ""], &["x", "y\0\u{1}\u{2}z"]];
        for names in cases {
            let kept = Properties::new(names);
            assert_eq!((kept.iter().collect::<Vec<_>>(), kept.len()), (names.to_vec(), names.len()), "{names:?}");
            let (joined, count, separator) = kept.parts();
            assert_eq!(Properties::from_parts(joined, count, separator).as_ref(), Some(&kept), "{names:?}");
        }
    }

    /// Parts that do not agree (a damaged entry) give no names.
    #[test]
    fn parts_that_disagree_are_refused() {
        for (joined, count) in [("", 2), ("a", 0), ("a", 2), ("a\0b", 1), ("a\0b", 3)] {
            assert_eq!(Properties::from_parts(joined, count, '\0'), None, "{joined:?} {count}");
        }
        assert_eq!(Properties::from_parts("", 0, '\0').map(|p| p.len()), Some(0));
        assert_eq!(Properties::from_parts("", 1, '\0').map(|p| p.len()), Some(1));
    }
}
