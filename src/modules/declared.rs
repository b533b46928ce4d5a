//! The declarations that name a module, held without an allocation of their own in the usual case of one.

use std::ops::Deref;

/// Indices into `Project::tools` of the entries that declare a module, in order. Nearly every module has one
/// declaration: a list of its own for each cost an allocation per module on the thread the run waits for (20,000
/// at the 20k bench), and 32 bytes of heap kept to the end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeclaredBy {
    /// The first, while there is at most one.
    first: Option<usize>,
    /// Every one, once there are two or more (empty before).
    all: Vec<usize>,
}

impl DeclaredBy {
    pub fn one(index: usize) -> Self {
        DeclaredBy { first: Some(index), all: Vec::new() }
    }

    pub fn push(&mut self, index: usize) {
        match (self.first, self.all.is_empty()) {
            (None, _) => self.first = Some(index),
            (Some(first), true) => self.all = vec![first, index],
            (Some(_), false) => self.all.push(index),
        }
    }
}

impl Deref for DeclaredBy {
    type Target = [usize];

    fn deref(&self) -> &[usize] {
        if self.all.is_empty() { self.first.as_slice() } else { &self.all }
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
        let mut two = DeclaredBy::one(4);
        two.push(5);
        assert_eq!(two.iter().copied().collect::<Vec<_>>(), vec![4, 5]);
    }
}
