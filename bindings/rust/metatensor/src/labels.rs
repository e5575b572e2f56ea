//! [`Labels`], the metadata of each axis of a block and the keys of a tensor map, and
//! [`LabelValue`], one value of one of their entries.

use std::collections::BTreeSet;
use std::ffi::{CString, c_char};
use std::iter::FusedIterator;
use std::sync::OnceLock;

use crate::MtsArray;
use crate::c_api::{mts_array_t, mts_labels_t};
use crate::errors::Error;

/// One value of a labels entry: a 32-bit signed integer, with conversions from and to the
/// other integer types.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct LabelValue(i32);

impl PartialEq<i32> for LabelValue {
    #[inline]
    fn eq(&self, other: &i32) -> bool {
        self.0 == *other
    }
}

impl PartialEq<LabelValue> for i32 {
    #[inline]
    fn eq(&self, other: &LabelValue) -> bool {
        *self == other.0
    }
}

impl std::fmt::Debug for LabelValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::fmt::Display for LabelValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl From<i32> for LabelValue {
    #[inline]
    fn from(value: i32) -> LabelValue {
        LabelValue(value)
    }
}

/// Conversions from the other integers, which panic for a value out of the range of `i32`.
macro_rules! label_value_from {
    ($($integer: ty),*) => {$(
        impl From<$integer> for LabelValue {
            #[inline]
            fn from(value: $integer) -> LabelValue {
                LabelValue(i32::try_from(value).expect("label value out of the range of i32"))
            }
        }
    )*};
}

label_value_from!(u32, usize, isize);

impl LabelValue {
    /// The label value `value`.
    #[inline]
    pub fn new(value: i32) -> LabelValue {
        LabelValue(value)
    }

    /// This value as a `usize`, for a value known not to be negative (checked in debug
    /// builds).
    #[inline]
    #[allow(clippy::cast_sign_loss)]
    pub fn usize(self) -> usize {
        debug_assert!(self.0 >= 0, "negative label value used as usize");
        self.0 as usize
    }

    /// This value as an `isize`.
    #[inline]
    pub fn isize(self) -> isize {
        self.0 as isize
    }

    /// This value as an `i32`.
    #[inline]
    pub fn i32(self) -> i32 {
        self.0
    }
}

/// A set of unique entries, each a tuple of integers with one value per named dimension:
/// a two-dimensional array of `count()` rows and `size()` columns, with names for the
/// columns. Labels describe the samples, components and properties of a block, and the keys
/// of a tensor map.
///
/// Labels are immutable and reference counted: a clone is cheap and shares the values.
pub struct Labels {
    pub(crate) ptr: *const mts_labels_t,
    // caches of what never changes in the labels
    values_cpu_ptr: OnceLock<*const LabelValue>,
    count: OnceLock<usize>,
    size: OnceLock<usize>,
}

// SAFETY: the C labels are immutable and reference counted with atomic counts: they can be
// used and released from any thread, and the cached pointer points into them
unsafe impl Send for Labels {}
// SAFETY: nothing changes labels after their creation but the OnceLock caches, which are
// thread-safe
unsafe impl Sync for Labels {}

impl std::fmt::Debug for Labels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        pretty_print_labels(self, "", f)
    }
}

/// Prints `labels` as a table, each line after the first indented by `offset`.
pub(crate) fn pretty_print_labels(labels: &Labels, offset: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    let names = labels.names();
    writeln!(f, "Labels @ {:p} {{", labels.ptr)?;
    writeln!(f, "{offset}    {}", names.join(", "))?;
    for entry in labels {
        write!(f, "{offset}    ")?;
        for (value, name) in entry.iter().zip(&names) {
            write!(f, "{:^width$}  ", value.isize(), width = name.len())?;
        }
        writeln!(f)?;
    }
    writeln!(f, "{offset}}}")
}

impl Clone for Labels {
    #[inline]
    fn clone(&self) -> Labels {
        // SAFETY: self.ptr is live labels
        let ptr = unsafe { crate::checked::labels_clone(self.ptr) }.expect("failed to clone Labels");
        Labels { ptr, values_cpu_ptr: self.values_cpu_ptr.clone(), count: self.count.clone(), size: self.size.clone() }
    }
}

impl Drop for Labels {
    fn drop(&mut self) {
        // SAFETY: these labels own one reference to ptr (NULL after into_raw, which the
        // library ignores); a failure can not be reported from drop
        let _ = unsafe { crate::checked::labels_free(self.ptr) };
    }
}

/// The signature of `mts_labels` and `mts_labels_assume_unique`.
type LabelsCreator = unsafe fn(*const *const c_char, usize, mts_array_t) -> Result<*const mts_labels_t, Error>;

/// The signature of `mts_labels_union` and `mts_labels_intersection`.
type SetOperation = unsafe fn(
    *const mts_labels_t,
    *const mts_labels_t,
    *mut *const mts_labels_t,
    *mut i64,
    usize,
    *mut i64,
    usize,
) -> Result<(), Error>;

impl Labels {
    /// Labels with the given dimension `names` and `values`: anything that converts into an
    /// [`MtsArray`] of `i32` with one row per entry and one column per name, such as
    /// `Vec<[i32; N]>`, `[[i32; N]; M]` or a two-dimensional `ndarray` array.
    ///
    /// ```
    /// use metatensor::{LabelValue, Labels};
    ///
    /// let labels = Labels::new(["system", "atom"], [[0, 0], [0, 1], [1, 0]]);
    /// assert_eq!(labels.count(), 3);
    /// assert_eq!(labels[2], [1, 0]);
    /// assert_eq!(labels.position(&[LabelValue::new(0), LabelValue::new(1)]), Some(1));
    /// ```
    ///
    /// # Panics
    ///
    /// When a name is not valid or given twice, or an entry appears twice.
    #[inline]
    pub fn new<'a>(names: impl AsRef<[&'a str]>, values: impl Into<MtsArray>) -> Labels {
        Labels::create(names.as_ref(), values.into(), crate::checked::labels)
    }

    /// As [`Labels::new`], without checking that the entries are unique (faster). Labels
    /// with repeated entries give wrong results later: the caller guarantees there are none.
    ///
    /// # Panics
    ///
    /// When a name is not valid or given twice.
    #[inline]
    pub fn new_assume_unique<'a>(names: impl AsRef<[&'a str]>, values: impl Into<MtsArray>) -> Labels {
        Labels::create(names.as_ref(), values.into(), crate::checked::labels_assume_unique)
    }

    fn create(names: &[&str], values: MtsArray, creator: LabelsCreator) -> Labels {
        let unique: BTreeSet<_> = names.iter().collect();
        assert!(unique.len() == names.len(), "invalid labels: the same name is used multiple times");
        let names: Vec<CString> =
            names.iter().map(|&name| CString::new(name).expect("name contains a NULL byte")).collect();
        let pointers: Vec<*const c_char> = names.iter().map(|name| name.as_ptr()).collect();
        // SAFETY: pointers holds names.len() NUL-terminated names; the array is handed over
        let ptr = unsafe { creator(pointers.as_ptr(), pointers.len(), values.into_raw()) }.expect("invalid labels");
        // SAFETY: a new labels pointer, which we own
        unsafe { Labels::from_raw(ptr) }
    }

    /// The underlying `mts_labels_t`, still owned by these labels.
    pub fn as_mts_labels_t(&self) -> *const mts_labels_t {
        self.ptr
    }

    /// Takes ownership of `ptr`, which is released when the labels are dropped.
    ///
    /// # Safety
    ///
    /// `ptr` must be live labels made by metatensor, whose reference the caller hands over.
    ///
    /// # Panics
    ///
    /// When `ptr` is NULL.
    #[inline]
    pub unsafe fn from_raw(ptr: *const mts_labels_t) -> Labels {
        assert!(!ptr.is_null(), "expected mts_labels_t pointer to not be NULL");
        Labels { ptr, values_cpu_ptr: OnceLock::new(), count: OnceLock::new(), size: OnceLock::new() }
    }

    /// Gives up ownership of the underlying `mts_labels_t`: the caller must release it (with
    /// [`Labels::from_raw`], or `mts_labels_free`).
    #[inline]
    pub fn into_raw(mut labels: Labels) -> *const mts_labels_t {
        std::mem::replace(&mut labels.ptr, std::ptr::null())
    }

    /// Labels with the given dimension `names` and no entry.
    #[inline]
    pub fn empty<'a>(names: impl AsRef<[&'a str]>) -> Labels {
        let names = names.as_ref();
        let values = ndarray::Array2::<i32>::zeros((0, names.len()));
        Labels::new(names, values)
    }

    /// The labels of one entry, `_ = 0`, for an axis that needs no metadata.
    #[inline]
    pub fn single() -> Labels {
        Labels::new(["_"], [[0]])
    }

    load_functions!(Labels, load_labels, load_labels_buffer);
    save_methods!(save_labels, save_labels_buffer);

    /// The number of dimensions, which is the number of values in each entry.
    #[inline]
    pub fn size(&self) -> usize {
        *self.size.get_or_init(|| self.names().len())
    }

    /// The names of the dimensions.
    #[inline]
    pub fn names(&self) -> Vec<&str> {
        let mut names: *const *const c_char = std::ptr::null();
        let mut count = 0;
        // SAFETY: self.ptr is live labels and both out pointers valid for writes
        unsafe { crate::checked::labels_dimensions(self.ptr, &mut names, &mut count) }
            .expect("failed to get labels dimensions");
        // SAFETY: count NUL-terminated names, owned by the labels and alive as long as self
        unsafe { crate::out::strings(names, count) }
    }

    /// The array holding the values of these labels, on whatever device it lives.
    pub fn values(&self) -> MtsArray {
        let mut array = mts_array_t::null();
        // SAFETY: self.ptr is live labels and array valid for a write; the library gives a
        // view (without destroy) of the array the labels keep, usable as long as self
        unsafe { crate::checked::labels_values(self.ptr, &mut array) }.expect("failed to get labels values array");
        MtsArray::from_raw(array)
    }

    /// The values of these labels in CPU memory, entry after entry (copied from their device
    /// once, when they live elsewhere).
    pub fn values_cpu(&self) -> &[LabelValue] {
        let values = *self.values_cpu_ptr.get_or_init(|| {
            let mut values: *const i32 = std::ptr::null();
            let (mut count, mut size) = (0, 0);
            // SAFETY: self.ptr is live labels and the out pointers valid for writes
            unsafe { crate::checked::labels_values_cpu(self.ptr, &mut values, &mut count, &mut size) }
                .expect("failed to get CPU values for Labels");
            values.cast()
        });
        let length = self.count() * self.size();
        if length == 0 {
            return &[];
        }
        // SAFETY: count * size values owned by the labels, alive as long as self; LabelValue
        // is a transparent i32
        unsafe { std::slice::from_raw_parts(values, length) }
    }

    /// The device holding the values of these labels.
    #[inline]
    pub fn device(&self) -> dlpk::DLDevice {
        self.values().device().expect("failed to get the array device")
    }

    /// The number of entries.
    #[inline]
    pub fn count(&self) -> usize {
        *self.count.get_or_init(|| self.values().shape().expect("failed to get the array shape")[0])
    }

    /// True when these labels have no entry.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// True when `label` is one of the entries.
    #[inline]
    pub fn contains(&self, label: &[LabelValue]) -> bool {
        self.position(label).is_some()
    }

    /// The position of the entry `value` among the entries, if it is one.
    ///
    /// # Panics
    ///
    /// When `value` does not have one value per dimension.
    #[inline]
    pub fn position(&self, value: &[LabelValue]) -> Option<usize> {
        assert!(value.len() == self.size(), "invalid size of index in Labels::position");
        let mut position = -1;
        // SAFETY: self.ptr is live labels, value holds value.len() i32 (LabelValue is a
        // transparent i32), position valid for a write
        unsafe { crate::checked::labels_position(self.ptr, value.as_ptr().cast(), value.len(), &mut position) }
            .expect("failed to check label position");
        usize::try_from(position).ok()
    }

    /// The union of these labels and `other`: their entries, then those of `other` they do
    /// not have. A mapping, when given, must have one element per entry of its labels, and
    /// receives the position of each of them in the union.
    #[inline]
    pub fn union(
        &self, other: &Labels, first_mapping: Option<&mut [i64]>, second_mapping: Option<&mut [i64]>,
    ) -> Result<Labels, Error> {
        self.combine(other, first_mapping, second_mapping, crate::checked::labels_union)
    }

    /// The intersection of these labels and `other`: the entries in both. A mapping, when
    /// given, must have one element per entry of its labels, and receives the position of
    /// each of them in the intersection, or -1 when it is not in it.
    #[inline]
    pub fn intersection(
        &self, other: &Labels, first_mapping: Option<&mut [i64]>, second_mapping: Option<&mut [i64]>,
    ) -> Result<Labels, Error> {
        self.combine(other, first_mapping, second_mapping, crate::checked::labels_intersection)
    }

    /// The union or intersection of these labels and `other`, by `operation`.
    fn combine(
        &self, other: &Labels, first_mapping: Option<&mut [i64]>, second_mapping: Option<&mut [i64]>,
        operation: SetOperation,
    ) -> Result<Labels, Error> {
        let (first, first_count) = mapping_parts(first_mapping);
        let (second, second_count) = mapping_parts(second_mapping);
        let mut result = std::ptr::null();
        // SAFETY: both labels are live; each mapping is NULL or holds its count elements
        unsafe { operation(self.ptr, other.ptr, &mut result, first, first_count, second, second_count)? };
        // SAFETY: a new labels pointer, which we own
        Ok(unsafe { Labels::from_raw(result) })
    }

    /// The entries of these labels that `other` does not have. The mapping, when given,
    /// must have one element per entry of these labels, and receives the position of each
    /// of them in the difference, or -1 when it is not in it.
    #[inline]
    pub fn difference(&self, other: &Labels, mapping: Option<&mut [i64]>) -> Result<Labels, Error> {
        let (mapping, count) = mapping_parts(mapping);
        let mut result = std::ptr::null();
        // SAFETY: both labels are live; the mapping is NULL or holds count elements
        unsafe { crate::checked::labels_difference(self.ptr, other.ptr, &mut result, mapping, count)? };
        // SAFETY: a new labels pointer, which we own
        Ok(unsafe { Labels::from_raw(result) })
    }

    /// The positions of the entries matching an entry of `selection`, whose dimensions are
    /// some of these labels' (compared on those dimensions only).
    pub fn select(&self, selection: &Labels) -> Result<Vec<usize>, Error> {
        let mut selected = vec![0_u64; self.count()];
        let mut count = selected.len();
        // SAFETY: both labels are live; selected holds count elements
        unsafe { crate::checked::labels_select(self.ptr, selection.ptr, selected.as_mut_ptr(), &mut count)? };
        selected.truncate(count);
        Ok(selected.into_iter().map(|position| usize::try_from(position).expect("a position fits in usize")).collect())
    }

    /// An iterator over the entries.
    #[inline]
    pub fn iter(&self) -> LabelsIter<'_> {
        LabelsIter { values: self.values_cpu(), size: self.size(), current: 0, count: self.count() }
    }

    /// A parallel iterator over the entries.
    #[cfg(feature = "rayon")]
    #[inline]
    pub fn par_iter(&self) -> LabelsParIter<'_> {
        use rayon::slice::ParallelSlice;
        LabelsParIter { inner: self.values_cpu().par_chunks_exact(self.size()) }
    }

    /// An iterator over the entries as arrays of `N` values.
    ///
    /// # Panics
    ///
    /// When `N` is not the number of dimensions.
    #[inline]
    pub fn iter_fixed_size<const N: usize>(&self) -> LabelsFixedSizeIter<'_, N> {
        assert!(
            N == self.size(),
            "wrong label size in `iter_fixed_size`: the entries contains {} element but this function was called with size of {}",
            self.size(),
            N
        );
        LabelsFixedSizeIter { values: self.values_cpu() }
    }
}

/// The pointer and count of an optional mapping: NULL and 0 for none.
fn mapping_parts(mapping: Option<&mut [i64]>) -> (*mut i64, usize) {
    match mapping {
        Some(mapping) => (mapping.as_mut_ptr(), mapping.len()),
        None => (std::ptr::null_mut(), 0),
    }
}

impl PartialEq for Labels {
    #[inline]
    fn eq(&self, other: &Labels) -> bool {
        if self.names() != other.names() || self.count() != other.count() || self.device() != other.device() {
            return false;
        }
        // torch's meta device (kDLExtDev) has no values to compare
        self.device().device_type == dlpk::DLDeviceType::kDLExtDev || self.values_cpu() == other.values_cpu()
    }
}

impl std::ops::Index<usize> for Labels {
    type Output = [LabelValue];

    #[inline]
    fn index(&self, i: usize) -> &[LabelValue] {
        let size = self.size();
        &self.values_cpu()[i * size..(i + 1) * size]
    }
}

/// Iterator over the entries of [`Labels`].
pub struct LabelsIter<'a> {
    values: &'a [LabelValue],
    size: usize,
    current: usize,
    count: usize,
}

impl<'a> Iterator for LabelsIter<'a> {
    type Item = &'a [LabelValue];

    #[inline]
    fn next(&mut self) -> Option<&'a [LabelValue]> {
        if self.current == self.count {
            return None;
        }
        let start = self.current * self.size;
        self.current += 1;
        Some(&self.values[start..start + self.size])
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let remaining = self.count - self.current;
        (remaining, Some(remaining))
    }
}

impl ExactSizeIterator for LabelsIter<'_> {}

impl FusedIterator for LabelsIter<'_> {}

impl<'a> IntoIterator for &'a Labels {
    type IntoIter = LabelsIter<'a>;
    type Item = &'a [LabelValue];

    #[inline]
    fn into_iter(self) -> LabelsIter<'a> {
        self.iter()
    }
}

/// Parallel iterator over the entries of [`Labels`].
#[cfg(feature = "rayon")]
#[derive(Debug, Clone)]
pub struct LabelsParIter<'a> {
    inner: rayon::slice::ChunksExact<'a, LabelValue>,
}

#[cfg(feature = "rayon")]
forward_parallel_iterator!(LabelsParIter<'a>, &'a [LabelValue]);

/// Iterator over the entries of [`Labels`] as arrays of `N` values.
#[derive(Debug, Clone)]
pub struct LabelsFixedSizeIter<'a, const N: usize> {
    values: &'a [LabelValue],
}

impl<'a, const N: usize> Iterator for LabelsFixedSizeIter<'a, N> {
    type Item = &'a [LabelValue; N];

    #[inline]
    fn next(&mut self) -> Option<&'a [LabelValue; N]> {
        if self.values.is_empty() {
            return None;
        }
        let (entry, rest) = self.values.split_first_chunk::<N>()?;
        self.values = rest;
        Some(entry)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len(), Some(self.len()))
    }
}

impl<const N: usize> ExactSizeIterator for LabelsFixedSizeIter<'_, N> {
    #[inline]
    fn len(&self) -> usize {
        self.values.len().checked_div(N).unwrap_or(0)
    }
}
