//! Blocks, in their three forms: [`TensorBlock`] owns its block; [`TensorBlockRef`] and
//! [`TensorBlockRefMut`] borrow one (from a tensor map, or the gradient of a block). All
//! three hold a `mts_block_t` pointer.

/// The methods `TensorBlock` and `TensorBlockRefMut` share: their pointer, and the reads of
/// `TensorBlockRef` through `self.as_ref()`.
macro_rules! block_methods {
    () => {
        /// The underlying `mts_block_t`.
        pub fn as_ptr(&self) -> *const $crate::c_api::mts_block_t {
            self.ptr
        }

        /// The underlying `mts_block_t`, to change it.
        pub fn as_mut_ptr(&mut self) -> *mut $crate::c_api::mts_block_t {
            self.ptr
        }

        /// An immutable reference to this block.
        #[inline]
        pub fn as_ref(&self) -> $crate::TensorBlockRef<'_> {
            // SAFETY: the reference borrows self, so the block stays alive and unchanged
            unsafe { $crate::TensorBlockRef::from_raw(self.ptr) }
        }

        /// The device holding the values of this block.
        #[inline]
        pub fn device(&self) -> Result<dlpk::sys::DLDevice, $crate::Error> {
            self.as_ref().device()
        }

        /// The type of the values of this block.
        #[inline]
        pub fn dtype(&self) -> Result<dlpk::sys::DLDataType, $crate::Error> {
            self.as_ref().dtype()
        }

        /// The values of this block.
        #[inline]
        pub fn values(&self) -> $crate::ArrayRef<'_> {
            self.as_ref().values()
        }

        /// The samples of this block.
        #[inline]
        pub fn samples(&self) -> $crate::Labels {
            self.as_ref().samples()
        }

        /// The components of this block, one labels per axis between samples and properties.
        #[inline]
        pub fn components(&self) -> Vec<$crate::Labels> {
            self.as_ref().components()
        }

        /// The properties of this block.
        #[inline]
        pub fn properties(&self) -> $crate::Labels {
            self.as_ref().properties()
        }

        /// Saves this block to the file at `path` (see [`crate::io::save_block`]).
        pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), $crate::Error> {
            self.as_ref().save(path)
        }

        /// Saves this block to an in-memory `buffer` (see [`crate::io::save_block_buffer`]).
        pub fn save_buffer(&self, buffer: &mut Vec<u8>) -> Result<(), $crate::Error> {
            self.as_ref().save_buffer(buffer)
        }
    };
}

mod block_ref;
pub use self::block_ref::{GradientsIter, TensorBlockRef};

mod block_mut;
pub use self::block_mut::{GradientsMutIter, TensorBlockRefMut};

mod owned;
pub use self::owned::TensorBlock;

mod raw;

use std::sync::OnceLock;

use crate::c_api::mts_block_t;
use crate::{ArrayRef, ArrayRefMut, Labels};

/// The values and metadata of a block as separate fields, which can be borrowed separately;
/// the metadata is read on first use.
#[derive(Debug)]
pub struct BlockData<V> {
    pub values: V,
    pub samples: LazyMetadata<Labels>,
    pub components: LazyMetadata<Vec<Labels>>,
    pub properties: LazyMetadata<Labels>,
}

/// The values and metadata of a [`TensorBlockRef`] as separate fields.
pub type TensorBlockData<'a> = BlockData<ArrayRef<'a>>;

/// The values (mutable) and metadata of a [`TensorBlockRefMut`] as separate fields.
pub type TensorBlockDataMut<'a> = BlockData<ArrayRefMut<'a>>;

impl<V> BlockData<V> {
    /// The `values` and lazily read metadata of the live `block`.
    fn new(values: V, block: *const mts_block_t) -> BlockData<V> {
        BlockData {
            values,
            samples: LazyMetadata::new(raw::samples, block),
            components: LazyMetadata::new(raw::components, block),
            properties: LazyMetadata::new(raw::properties, block),
        }
    }
}

/// Metadata of a block read on first use: a field of the block that costs a call (and a
/// reference count) to get, and may not be needed.
pub struct LazyMetadata<T> {
    block: *const mts_block_t,
    init: fn(*const mts_block_t) -> T,
    metadata: OnceLock<T>,
}

impl<T: std::fmt::Debug> std::fmt::Debug for LazyMetadata<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lazy").field("block", &self.block).field("metadata", &self.metadata).finish_non_exhaustive()
    }
}

impl<T> std::ops::Deref for LazyMetadata<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.metadata.get_or_init(|| (self.init)(self.block))
    }
}

impl<T> LazyMetadata<T> {
    /// Metadata of `block` that `init` reads on first use.
    pub fn new(init: fn(*const mts_block_t) -> T, block: *const mts_block_t) -> LazyMetadata<T> {
        LazyMetadata { block, init, metadata: OnceLock::new() }
    }
}
