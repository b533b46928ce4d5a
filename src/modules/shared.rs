//! Each module's list of import resolutions, shared by the modules whose imports resolve alike: modules of one
//! folder import the same packages and helpers, and a list of its own for each cost an allocation per module on
//! the thread the run waits for (20,000 at the 20k bench) and ~40 bytes of heap each, kept to the end.

use super::resolve::Resolution;
use rustc_hash::FxHashSet;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// One import's resolution (`None`: not resolved, see [`super::Module::resolutions`]), compared and hashed by
/// identity: the resolver hands out one `Arc` per specifier and folder, so two lists of the same pointers hold the
/// same resolutions (equal resolutions from different folders are simply not shared).
#[derive(Clone, Debug)]
pub struct Shared(pub Option<Arc<Resolution>>);

impl PartialEq for Shared {
    fn eq(&self, other: &Shared) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl Eq for Shared {}

impl Hash for Shared {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.as_ref().map_or(0, |resolution| Arc::as_ptr(resolution) as usize).hash(state);
    }
}

/// A module's resolutions, in the order of its imports.
pub type Resolutions = Arc<[Shared]>;

/// The lists made so far in a run, each once.
#[derive(Default)]
pub struct Lists {
    made: FxHashSet<Resolutions>,
    /// The list being made (kept: its room serves every module).
    scratch: Vec<Shared>,
}

impl Lists {
    /// The list of these resolutions: one made before when it holds the same ones.
    pub fn list(&mut self, resolutions: impl Iterator<Item = Option<Arc<Resolution>>>) -> Resolutions {
        self.scratch.clear();
        self.scratch.extend(resolutions.map(Shared));
        if let Some(made) = self.made.get(self.scratch.as_slice()) {
            return Arc::clone(made);
        }
        let list: Resolutions = Arc::from(self.scratch.as_slice());
        self.made.insert(Arc::clone(&list));
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_the_same_resolutions_is_shared_and_no_other() {
        let (a, b) = (Arc::new(Resolution::Builtin), Arc::new(Resolution::Builtin));
        let mut lists = Lists::default();
        let first = lists.list([Some(a.clone()), None].into_iter());
        let again = lists.list([Some(a.clone()), None].into_iter());
        assert!(Arc::ptr_eq(&first, &again));
        // Equal resolutions that are not the same `Arc`, another order, another length: lists of their own.
        for other in [vec![Some(b.clone()), None], vec![None, Some(a.clone())], vec![Some(a.clone())]] {
            let made = lists.list(other.clone().into_iter());
            assert!(!Arc::ptr_eq(&first, &made));
            assert_eq!(made.iter().map(|s| s.0.clone()).collect::<Vec<_>>(), other);
        }
        assert!(lists.list(std::iter::empty()).is_empty());
    }
}
