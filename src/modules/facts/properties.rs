//! The keys of a `parameters.properties` object as the facts keep them: one string, as few bytes as the names.

use super::InlineStr;

/// The names `properties` defines, in order, joined by NUL: one string, inline up to 24 bytes (`id`, `limit`,
/// `include_history`), where a list of them cost nearly every module an allocation of 24 bytes a name kept to the
/// end of the run. A name that holds a NUL itself cannot be kept so ([`Properties::push`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Properties {
    joined: InlineStr,
    /// How many names there are: `joined` is empty both for none and for one empty name (`{ '': … }`).
    count: u32,
}

impl Properties {
    /// These names, unless one holds a NUL.
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Option<Properties> {
        let mut properties = Properties::default();
        names.into_iter().all(|name| properties.push(name.as_ref())).then_some(properties)
    }

    /// Adds `name`; `false` (and nothing added) when it holds a NUL, which would split it in two.
    pub fn push(&mut self, name: &str) -> bool {
        if name.contains('\0') {
            return false;
        }
        if self.count > 0 {
            self.joined.push('\0');
        }
        self.joined.push_str(name);
        self.count += 1;
        true
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.joined.split('\0').take(self.count as usize)
    }

    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}
