//! Blocks, in their three forms: [`TensorBlock`] owns its block; [`TensorBlockRef`] and
//! [`TensorBlockRefMut`] borrow one (from a tensor map, or the gradient of a block). All
//! three hold a `mts_block_t` pointer.

mod block_ref;
pub use self::block_ref::{GradientsIter, TensorBlockData, TensorBlockRef};

mod block_mut;
pub use self::block_mut::{GradientsMutIter, TensorBlockDataMut, TensorBlockRefMut};

mod owned;
pub use self::owned::TensorBlock;

mod raw;

use std::sync::OnceLock;

use crate::c_api::mts_block_t;

/// Metadata of a block read on first use: a field of the block that costs a call (and a
/// reference count) to get, and may not be needed.
pub struct LazyMetadata<T> {
    block: *const mts_block_t,
    init: fn(*const mts_block_t) -> T,
    metadata: OnceLock<T>,
}

impl<T: std::fmt::Debug> std::fmt::Debug for LazyMetadata<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lazy")
            .field("block", &self.block)
            .field("metadata", &self.metadata)
            .finish_non_exhaustive()
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
        LazyMetadata {
            block,
            init,
            metadata: OnceLock::new(),
        }
    }
}
