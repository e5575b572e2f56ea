//! [`LabelsBuilder`]: labels made one entry at a time.

use crate::{LabelValue, Labels};

/// Builds [`Labels`] one entry at a time, for when the entries are not known up front (the
/// API of earlier versions of the metatensor crate; [`Labels::new`] takes them all at
/// once).
///
/// ```
/// use metatensor::{Labels, LabelsBuilder};
///
/// let mut builder = LabelsBuilder::new(vec!["system", "atom"]);
/// for atom in 0..3 {
///     builder.add(&[0, atom]);
/// }
/// assert_eq!(builder.finish(), Labels::new(["system", "atom"], [[0, 0], [0, 1], [0, 2]]));
/// ```
#[derive(Debug, Clone)]
pub struct LabelsBuilder {
    names: Vec<String>,
    values: Vec<i32>,
}

impl LabelsBuilder {
    /// A builder of labels with the given dimension `names`, without entries yet.
    pub fn new(names: Vec<&str>) -> LabelsBuilder {
        LabelsBuilder { names: names.into_iter().map(str::to_owned).collect(), values: Vec::new() }
    }

    /// Reserves room for `additional` more entries.
    pub fn reserve(&mut self, additional: usize) {
        self.values.reserve(additional * self.size());
    }

    /// The number of dimensions, which is the number of values of each entry.
    pub fn size(&self) -> usize {
        self.names.len()
    }

    /// Adds the entry `entry`, one value per dimension.
    ///
    /// # Panics
    ///
    /// When `entry` does not have one value per dimension.
    pub fn add<T>(&mut self, entry: &[T])
    where
        T: Clone + Into<LabelValue>,
    {
        assert_eq!(
            entry.len(),
            self.size(),
            "wrong size for added label: got {}, but expected {}",
            entry.len(),
            self.size()
        );
        self.values.extend(entry.iter().map(|value| value.clone().into().i32()));
    }

    /// The labels of the entries added so far.
    ///
    /// # Panics
    ///
    /// When a name is not valid or given twice, or an entry was added twice.
    pub fn finish(self) -> Labels {
        let (names, values) = self.parts();
        Labels::new(names.iter().map(String::as_str).collect::<Vec<_>>(), values)
    }

    /// As [`LabelsBuilder::finish`], trusting the caller that no entry was added twice.
    ///
    /// # Panics
    ///
    /// When a name is not valid or given twice.
    pub fn finish_assume_unique(self) -> Labels {
        let (names, values) = self.parts();
        Labels::new_assume_unique(names.iter().map(String::as_str).collect::<Vec<_>>(), values)
    }

    /// The names, and the values as an array of one row per entry.
    fn parts(self) -> (Vec<String>, ndarray::Array2<i32>) {
        let size = self.size();
        let count = self.values.len().checked_div(size).unwrap_or(0);
        let values = ndarray::Array2::from_shape_vec((count, size), self.values).expect("count entries of size values");
        (self.names, values)
    }
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn entries_added_one_by_one() {
        let mut builder = LabelsBuilder::new(vec!["structure", "atom"]);
        builder.reserve(3);
        assert_eq!(builder.size(), 2);
        builder.add(&[0, 1]);
        builder.add(&[LabelValue::new(2), LabelValue::new(-3)]);
        builder.add(&[4_usize, 5]);
        let labels = builder.finish();
        assert_eq!(labels.names(), ["structure", "atom"]);
        assert_eq!(labels, Labels::new(["structure", "atom"], [[0, 1], [2, -3], [4, 5]]));

        let mut builder = LabelsBuilder::new(vec!["a"]);
        builder.add(&[1]);
        builder.add(&[1]);
        assert_eq!(builder.finish_assume_unique().count(), 2);

        assert_eq!(LabelsBuilder::new(vec!["a", "b"]).finish().count(), 0);
    }

    #[test]
    #[should_panic(expected = "wrong size for added label: got 1, but expected 2")]
    fn entries_of_the_wrong_size() {
        LabelsBuilder::new(vec!["a", "b"]).add(&[1]);
    }

    #[test]
    #[should_panic(expected = "can not have the same label entry multiple times")]
    fn repeated_entries() {
        let mut builder = LabelsBuilder::new(vec!["a"]);
        builder.add(&[1]);
        builder.add(&[1]);
        builder.finish();
    }
}
