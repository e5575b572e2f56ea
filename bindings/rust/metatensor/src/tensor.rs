//! [`TensorMap`], blocks indexed by the entries of their keys, and its iterators.

use std::ffi::{CStr, CString, c_char};

use crate::c_api::{mts_block_t, mts_tensormap_t};
use crate::out::strings;
use crate::{Error, LabelValue, Labels, MtsArray, TensorBlock, TensorBlockRef, TensorBlockRefMut};

/// The main type of metatensor: a block-sparse tensor, made of [`TensorBlock`]s, each
/// identified by one entry of the keys. All the blocks have the same names of samples,
/// components and properties, and the same gradients.
///
/// Blocks sharing some key dimensions can be merged, moving those dimensions to their samples
/// or properties (a sparse representation made denser).
pub struct TensorMap {
    pub(crate) ptr: *mut mts_tensormap_t,
    // the keys, read once: they never change
    keys: Labels,
}

// SAFETY: the library allows using and releasing a tensor map from any thread
unsafe impl Send for TensorMap {}
// SAFETY: through &TensorMap the tensor map is only read, which the library allows from
// several threads; changes need &mut
unsafe impl Sync for TensorMap {}

impl std::fmt::Debug for TensorMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Tensormap @ {:p} {{", self.ptr)?;
        write!(f, "    keys: ")?;
        crate::labels::pretty_print_labels(&self.keys, "    ", f)?;
        writeln!(f, "}}")
    }
}

impl Drop for TensorMap {
    fn drop(&mut self) {
        // SAFETY: this TensorMap owns the tensor map (NULL after into_raw, which the library
        // ignores); a failure can not be reported from drop
        let _ = unsafe { crate::checked::tensormap_free(self.ptr) };
    }
}

/// The signature of `mts_tensormap_keys_to_samples` and `..._to_properties`.
type KeysMove = unsafe fn(
    *const mts_tensormap_t,
    *const crate::c_api::mts_labels_t,
    crate::c_api::mts_array_t,
    bool,
) -> Result<*mut mts_tensormap_t, Error>;

impl TensorMap {
    /// A tensor map of the given `blocks`, one per entry of `keys`. The blocks must hold the
    /// same kind of data: the same names of labels, the same gradients.
    #[inline]
    pub fn new(keys: Labels, mut blocks: Vec<TensorBlock>) -> Result<TensorMap, Error> {
        // SAFETY: TensorBlock is a transparent *mut mts_block_t, so the vector is an array of
        // blocks.len() block pointers; the library takes each block it accepts and sets its
        // slot to NULL, so that dropping the vector releases only those it did not take
        let ptr = unsafe {
            crate::checked::tensormap(
                keys.as_mts_labels_t(),
                blocks.as_mut_ptr().cast::<*mut mts_block_t>(),
                blocks.len(),
            )?
        };
        drop(blocks);
        // SAFETY: a new tensor map, which we own
        Ok(unsafe { TensorMap::from_raw(ptr) })
    }

    /// Takes ownership of the tensor map `ptr`, which is released when the `TensorMap` is
    /// dropped.
    ///
    /// # Safety
    ///
    /// `ptr` must be a live tensor map that nothing else owns.
    ///
    /// # Panics
    ///
    /// When `ptr` is NULL.
    pub unsafe fn from_raw(ptr: *mut mts_tensormap_t) -> TensorMap {
        assert!(!ptr.is_null(), "pointer to mts_tensormap_t should not be NULL");
        // SAFETY: ptr is a live tensor map; the result is a new reference to its keys
        let keys = unsafe { crate::checked::tensormap_keys(ptr) }.expect("failed to get the keys");
        // SAFETY: a new labels pointer, which we own
        let keys = unsafe { Labels::from_raw(keys) };
        TensorMap { ptr, keys }
    }

    /// Gives up ownership of the tensor map: the caller must release it (with
    /// [`TensorMap::from_raw`], or `mts_tensormap_free`).
    pub fn into_raw(mut tensor: TensorMap) -> *mut mts_tensormap_t {
        std::mem::replace(&mut tensor.ptr, std::ptr::null_mut())
    }

    /// The underlying `mts_tensormap_t`, still owned by this tensor map.
    pub fn as_ptr(&self) -> *const mts_tensormap_t {
        self.ptr
    }

    /// The underlying `mts_tensormap_t`, still owned by this tensor map, to change it.
    pub fn as_mut_ptr(&mut self) -> *mut mts_tensormap_t {
        self.ptr
    }

    /// A deep copy of this tensor map (which fails when an array can not be copied).
    #[inline]
    pub fn try_clone(&self) -> Result<TensorMap, Error> {
        // SAFETY: the tensor map is live
        let copy = unsafe { crate::checked::tensormap_copy(self.ptr)? };
        // SAFETY: a new tensor map, which we own
        Ok(unsafe { TensorMap::from_raw(copy) })
    }

    load_functions!(TensorMap, load, load_buffer);
    save_methods!(save, save_buffer);

    device_and_dtype!(tensormap_device, tensormap_dtype);

    /// The keys of this tensor map.
    #[inline]
    pub fn keys(&self) -> &Labels {
        &self.keys
    }

    /// The block of the key at `index`.
    ///
    /// # Panics
    ///
    /// When `index` is out of bounds.
    #[inline]
    pub fn block_by_id(&self, index: usize) -> TensorBlockRef<'_> {
        // SAFETY: the tensor map is live; its block is only read here, and the reference
        // borrows self
        unsafe { TensorBlockRef::from_raw(block_pointer(self.ptr, index)) }
    }

    /// The block of the key at `index`, to change it.
    ///
    /// # Panics
    ///
    /// When `index` is out of bounds.
    #[inline]
    pub fn block_mut_by_id(&mut self, index: usize) -> TensorBlockRefMut<'_> {
        // SAFETY: the tensor map is live, and the reference borrows self mutably
        unsafe { TensorBlockRefMut::from_raw(block_pointer(self.ptr, index)) }
    }

    /// The one block whose key matches `selection` (one entry, whose dimensions are some of
    /// the keys').
    #[inline]
    pub fn block(&self, selection: &Labels) -> Result<TensorBlockRef<'_>, Error> {
        let matching = self.keys.select(selection)?;
        if let [index] = matching[..] {
            return Ok(self.block_by_id(index));
        }
        let described = selection
            .names()
            .iter()
            .zip(&selection[0])
            .map(|(name, value)| format!("{name} = {value}"))
            .collect::<Vec<_>>()
            .join(", ");
        let message = if matching.is_empty() {
            format!("no blocks matched the selection ({described})")
        } else {
            format!("{} blocks matched the selection ({described}), expected only one", matching.len())
        };
        Err(Error { code: None, message })
    }

    /// References to every block, in the order of the keys.
    #[inline]
    pub fn blocks(&self) -> Vec<TensorBlockRef<'_>> {
        (0..self.keys.count()).map(|index| self.block_by_id(index)).collect()
    }

    /// Mutable references to every block, in the order of the keys.
    #[inline]
    pub fn blocks_mut(&mut self) -> Vec<TensorBlockRefMut<'_>> {
        // SAFETY: the references borrow self mutably
        unsafe { mutable_blocks(self.ptr, self.keys.count()) }
    }

    /// Merges the blocks whose keys differ only in the dimensions of `keys_to_move` along
    /// their samples: those dimensions leave the keys and join the samples.
    /// `keys_to_move` must have no entries. With `sort_samples`, the merged samples are
    /// sorted; otherwise they come block after block. `fill_value` (a scalar array of the
    /// values' type) fills the parts of merged blocks that no block provides.
    #[inline]
    pub fn keys_to_samples(
        &self, keys_to_move: &Labels, fill_value: MtsArray, sort_samples: bool,
    ) -> Result<TensorMap, Error> {
        self.move_keys(keys_to_move, fill_value, sort_samples, crate::checked::tensormap_keys_to_samples)
    }

    /// Merges the blocks whose keys differ only in the dimensions of `keys_to_move` along
    /// their properties: those dimensions leave the keys and join the properties. Without
    /// entries in `keys_to_move`, the merged properties are those of the blocks, each
    /// prefixed by its block's key; with entries, every block must have the same properties,
    /// and the merged ones are each entry followed by each property. `sort_samples` and
    /// `fill_value` are as for [`TensorMap::keys_to_samples`].
    ///
    /// ```
    /// use metatensor::{Labels, MtsArray, TensorBlock, TensorMap};
    ///
    /// // one block per species, one property each
    /// let block = |species: i32| {
    ///     let values = ndarray::arr2(&[[f64::from(species)]]);
    ///     let properties = Labels::new(["n"], [[0]]);
    ///     TensorBlock::new(values, &Labels::new(["atom"], [[0]]), &[], &properties).unwrap()
    /// };
    /// let tensor = TensorMap::new(Labels::new(["species"], [[1], [8]]), vec![block(1), block(8)]).unwrap();
    ///
    /// let fill = MtsArray::from(ndarray::arr0(0.0));
    /// let merged = tensor.keys_to_properties(&Labels::empty(["species"]), fill, true).unwrap();
    /// let block = merged.block_by_id(0);
    /// assert_eq!(block.properties(), Labels::new(["species", "n"], [[1, 0], [8, 0]]));
    /// assert_eq!(*block.values().to_ndarray_lock::<f64>().read().unwrap(), ndarray::arr2(&[[1.0, 8.0]]).into_dyn());
    /// ```
    #[inline]
    pub fn keys_to_properties(
        &self, keys_to_move: &Labels, fill_value: MtsArray, sort_samples: bool,
    ) -> Result<TensorMap, Error> {
        self.move_keys(keys_to_move, fill_value, sort_samples, crate::checked::tensormap_keys_to_properties)
    }

    fn move_keys(
        &self, keys_to_move: &Labels, fill_value: MtsArray, sort_samples: bool, operation: KeysMove,
    ) -> Result<TensorMap, Error> {
        // SAFETY: the tensor map and labels are live; the fill value is handed over
        let ptr = unsafe { operation(self.ptr, keys_to_move.as_mts_labels_t(), fill_value.into_raw(), sort_samples)? };
        // SAFETY: a new tensor map, which we own
        Ok(unsafe { TensorMap::from_raw(ptr) })
    }

    /// Moves the component `dimensions` of every block to its properties.
    #[inline]
    pub fn components_to_properties(&self, dimensions: &[&str]) -> Result<TensorMap, Error> {
        let names =
            dimensions.iter().map(|&name| CString::new(name).expect("unexpected NULL byte")).collect::<Vec<_>>();
        let pointers = names.iter().map(|name| name.as_ptr()).collect::<Vec<_>>();
        // SAFETY: the tensor map is live, pointers holds pointers.len() NUL-terminated names
        let ptr =
            unsafe { crate::checked::tensormap_components_to_properties(self.ptr, pointers.as_ptr(), pointers.len())? };
        // SAFETY: a new tensor map, which we own
        Ok(unsafe { TensorMap::from_raw(ptr) })
    }

    /// An iterator over the keys and their blocks.
    #[inline]
    pub fn iter(&self) -> TensorMapIter<'_> {
        TensorMapIter { inner: self.keys.iter().zip(self.blocks()) }
    }

    /// An iterator over the keys and their blocks, to change the blocks.
    #[inline]
    pub fn iter_mut(&mut self) -> TensorMapIterMut<'_> {
        // SAFETY: the references borrow self mutably, through the iterator
        let blocks = unsafe { mutable_blocks(self.ptr, self.keys.count()) };
        TensorMapIterMut { inner: self.keys.iter().zip(blocks) }
    }

    /// A parallel iterator over the keys and their blocks.
    #[cfg(feature = "rayon")]
    #[inline]
    pub fn par_iter(&self) -> TensorMapParIter<'_> {
        use rayon::iter::{IndexedParallelIterator, IntoParallelIterator};
        TensorMapParIter { inner: self.keys.par_iter().zip_eq(self.blocks().into_par_iter()) }
    }

    /// A parallel iterator over the keys and their blocks, to change the blocks.
    #[cfg(feature = "rayon")]
    #[inline]
    pub fn par_iter_mut(&mut self) -> TensorMapParIterMut<'_> {
        use rayon::iter::{IndexedParallelIterator, IntoParallelIterator};
        // SAFETY: the references borrow self mutably, through the iterator
        let blocks = unsafe { mutable_blocks(self.ptr, self.keys.count()) };
        TensorMapParIterMut { inner: self.keys.par_iter().zip_eq(blocks.into_par_iter()) }
    }

    /// Sets the info (global metadata) `key` to `value`, replacing any previous value.
    ///
    /// # Panics
    ///
    /// When `key` or `value` contains a NUL byte.
    pub fn set_info(&mut self, key: &str, value: &str) {
        let key = CString::new(key).expect("info key contains a NUL byte");
        let value = CString::new(value).expect("info value contains a NUL byte");
        // SAFETY: the tensor map is live, both strings NUL-terminated
        unsafe { crate::checked::tensormap_set_info(self.ptr, key.as_ptr(), value.as_ptr()) }
            .expect("failed to set info");
    }

    /// The info (global metadata) `key`, if it is set.
    pub fn get_info(&self, key: &str) -> Option<&str> {
        let key = CString::new(key).ok()?;
        let mut value: *const c_char = std::ptr::null();
        // SAFETY: the tensor map is live, key NUL-terminated, value valid for a write
        unsafe { crate::checked::tensormap_get_info(self.ptr, key.as_ptr(), &mut value) }.expect("failed to get info");
        if value.is_null() {
            return None;
        }
        // SAFETY: a NUL-terminated string owned by the tensor map, alive until the info
        // changes, which needs &mut self
        Some(unsafe { CStr::from_ptr(value) }.to_str().expect("invalid UTF-8 string"))
    }

    /// An iterator over the info (global metadata) keys and values.
    pub fn info(&self) -> TensorMapInfoIter<'_> {
        let mut keys: *const *const c_char = std::ptr::null();
        let mut count = 0;
        // SAFETY: the tensor map is live and the out pointers valid for writes
        unsafe { crate::checked::tensormap_info_keys(self.ptr, &mut keys, &mut count) }
            .expect("failed to get info keys");
        // SAFETY: count NUL-terminated strings owned by the tensor map, alive until the info
        // changes, which needs &mut self
        let keys = unsafe { strings(keys, count) };
        let info = keys.into_iter().map(|key| (key, self.get_info(key).expect("missing info")));
        TensorMapInfoIter { inner: info.collect::<Vec<_>>().into_iter() }
    }
}

/// The block at `index` of a live tensor map.
///
/// # Panics
///
/// When `index` is out of bounds.
fn block_pointer(tensor: *mut mts_tensormap_t, index: usize) -> *mut mts_block_t {
    let mut block = std::ptr::null_mut();
    // SAFETY: callers hold a reference to the live tensor map; block is valid for a write
    unsafe { crate::checked::tensormap_block_by_id(tensor, &mut block, index) }.expect("failed to get a block");
    block
}

/// Mutable references to the `count` blocks of a live tensor map.
///
/// # Safety
///
/// The tensor map must stay alive for `'a`, and nothing else may use its blocks meanwhile.
unsafe fn mutable_blocks<'a>(tensor: *mut mts_tensormap_t, count: usize) -> Vec<TensorBlockRefMut<'a>> {
    (0..count)
        // SAFETY: the blocks are distinct, each handed out once, alive for 'a (the caller's
        // contract)
        .map(|index| unsafe { TensorBlockRefMut::from_raw(block_pointer(tensor, index)) })
        .collect()
}

/// Iterator over the keys and blocks of a [`TensorMap`].
pub struct TensorMapIter<'a> {
    inner: std::iter::Zip<crate::LabelsIter<'a>, std::vec::IntoIter<TensorBlockRef<'a>>>,
}

forward_iterator!(TensorMapIter<'a>, (&'a [LabelValue], TensorBlockRef<'a>));

impl<'a> IntoIterator for &'a TensorMap {
    type Item = (&'a [LabelValue], TensorBlockRef<'a>);
    type IntoIter = TensorMapIter<'a>;

    fn into_iter(self) -> TensorMapIter<'a> {
        self.iter()
    }
}

/// Iterator over the keys and blocks of a [`TensorMap`], with mutable access to the blocks.
pub struct TensorMapIterMut<'a> {
    inner: std::iter::Zip<crate::LabelsIter<'a>, std::vec::IntoIter<TensorBlockRefMut<'a>>>,
}

forward_iterator!(TensorMapIterMut<'a>, (&'a [LabelValue], TensorBlockRefMut<'a>));

impl<'a> IntoIterator for &'a mut TensorMap {
    type Item = (&'a [LabelValue], TensorBlockRefMut<'a>);
    type IntoIter = TensorMapIterMut<'a>;

    fn into_iter(self) -> TensorMapIterMut<'a> {
        self.iter_mut()
    }
}

/// Parallel iterator over the keys and blocks of a [`TensorMap`].
#[cfg(feature = "rayon")]
pub struct TensorMapParIter<'a> {
    inner: rayon::iter::ZipEq<crate::LabelsParIter<'a>, rayon::vec::IntoIter<TensorBlockRef<'a>>>,
}

/// Parallel iterator over the keys and blocks of a [`TensorMap`], with mutable access to
/// the blocks.
#[cfg(feature = "rayon")]
pub struct TensorMapParIterMut<'a> {
    inner: rayon::iter::ZipEq<crate::LabelsParIter<'a>, rayon::vec::IntoIter<TensorBlockRefMut<'a>>>,
}

#[cfg(feature = "rayon")]
forward_parallel_iterator!(TensorMapParIter<'a>, (&'a [LabelValue], TensorBlockRef<'a>));
#[cfg(feature = "rayon")]
forward_parallel_iterator!(TensorMapParIterMut<'a>, (&'a [LabelValue], TensorBlockRefMut<'a>));

/// Iterator over the info (global metadata) keys and values of a [`TensorMap`].
pub struct TensorMapInfoIter<'a> {
    inner: std::vec::IntoIter<(&'a str, &'a str)>,
}

forward_iterator!(TensorMapInfoIter<'a>, (&'a str, &'a str));
