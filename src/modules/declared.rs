//! The declarations that name a module, held without an allocation of their own in the usual case of one.

use std::ops::Deref;

/// Indices into `Project::tools` of the entries that declare a module, in order. Nearly every module has one
/// declaration: a list of its own for each cost an allocation per module on the thread the run waits for (20,000
/// at the 20k bench), and 32 bytes of heap kept to the end.
/// Held in 16 bytes (a first index beside a list took 40, the list alone 24), in every module named and every module
/// kept: the rare list of two or more is boxed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DeclaredBy {
    #[default]
    None,
    One(usize),
    /// Two or more.
    Many(Box<Vec<usize>>),
}

impl DeclaredBy {
    pub fn one(index: usize) -> Self {
        DeclaredBy::One(index)
    }

    pub fn push(&mut self, index: usize) {
        match self {
            DeclaredBy::None => *self = DeclaredBy::One(index),
            DeclaredBy::One(first) => *self = DeclaredBy::Many(Box::new(vec![*first, index])),
            DeclaredBy::Many(all) => all.push(index),
        }
    }
}

impl Deref for DeclaredBy {
    type Target = [usize];

    fn deref(&self) -> &[usize] {
        match self {
            DeclaredBy::None => &[],
            DeclaredBy::One(index) => std::slice::from_ref(index),
            DeclaredBy::Many(all) => all,
        }
    }
}

impl<'a> IntoIterator for &'a DeclaredBy {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::DeclaredBy;

    #[test]
    fn holds_every_index_in_order() {
        let mut declared = DeclaredBy::default();
        assert!(declared.is_empty());
        for index in [7, 3, 9, 1] {
            declared.push(index);
        }
        assert_eq!(&*declared, &[7, 3, 9, 1]);
        assert_eq!((DeclaredBy::one(4).first(), DeclaredBy::one(4).len()), (Some(&4), 1));
        assert_eq!(std::mem::size_of::<DeclaredBy>(), 2 * std::mem::size_of::<usize>());
        let mut two = DeclaredBy::one(4);
        two.push(5);
        assert_eq!(two.iter().copied().collect::<Vec<_>>(), vec![4, 5]);
    }
}
