//! An `execute` function's parameters as the facts keep them: one string, as a message shows them.

use super::InlineStr;

/// A function's parameters as written (`{ location }`, `...rest`), joined by `, ` as a message shows them: one
/// string, inline up to 24 bytes (`args, context`), where a list of them cost every module an allocation kept to the
/// end of the run (1.3 MB at the 20k bench).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Params {
    joined: InlineStr,
    /// How many there are.
    count: u32,
    /// The length of the first in `joined`.
    first: u32,
}

/// How many `, ` a text holds, counted by bytes (`, ` cannot overlap itself): a warm run checks every module's
/// parameters as it decodes them, and `str::matches` builds a substring searcher for each (200 instructions).
fn separators(text: &str) -> usize {
    text.as_bytes().windows(2).filter(|pair| pair == b", ").count()
}

impl Params {
    /// Joined as they come: the analysis passes each parameter's text without gathering them in a list first.
    pub fn new<S: AsRef<str>>(params: impl IntoIterator<Item = S>) -> Params {
        let mut joined = InlineStr::default();
        let (mut count, mut first) = (0usize, 0usize);
        for param in params {
            let param = param.as_ref();
            if count == 0 {
                first = param.len();
            } else {
                joined.push_str(", ");
            }
            joined.push_str(param);
            count += 1;
        }
        let cut = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Params { joined, count: cut(count), first: cut(first) }
    }

    /// Made of its parts (as [`Params::joined`], [`Params::len`] and the first's length give them), if they agree.
    pub fn from_parts(joined: &str, count: usize, first: usize) -> Option<Params> {
        let consistent = match count {
            0 => joined.is_empty() && first == 0,
            1 => first == joined.len(),
            // No more than the separators allow (a destructured parameter may hold more).
            _ => joined.get(first..).is_some_and(|rest| rest.starts_with(", ")) && count <= separators(joined) + 1,
        };
        let (count, first) = (u32::try_from(count).ok()?, u32::try_from(first).ok()?);
        consistent.then(|| Params { joined: joined.into(), count, first })
    }

    /// The parameters joined by `, `.
    pub fn joined(&self) -> &str {
        &self.joined
    }

    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn first(&self) -> Option<&str> {
        (self.count > 0).then(|| self.joined.get(..self.first as usize).unwrap_or_default())
    }

    /// The length of the first (0 when there is none).
    pub fn first_len(&self) -> usize {
        self.first as usize
    }
}
