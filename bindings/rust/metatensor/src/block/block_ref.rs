//! [`TensorBlockRef`]: a borrowed block.

use std::ffi::CString;

use crate::c_api::{mts_array_t, mts_block_t};
use crate::out::strings;
use crate::{ArrayRef, Error, Labels};

use super::{BlockData, TensorBlock, TensorBlockData, raw};

/// A reference to a block owned by something else (a [`TensorBlock`], a tensor map, or a
/// block whose gradient this is).
#[derive(Debug, Clone, Copy)]
pub struct TensorBlockRef<'a> {
    ptr: *const mts_block_t,
    marker: std::marker::PhantomData<&'a mts_block_t>,
}

// SAFETY: a reference only reads the block, which the library allows from any thread, and
// releases nothing
unsafe impl Send for TensorBlockRef<'_> {}
// SAFETY: a reference only reads the block, which the library allows from several threads
unsafe impl Sync for TensorBlockRef<'_> {}

impl<'a> TensorBlockRef<'a> {
    /// A reference to the block `ptr`, for a lifetime the caller picks.
    ///
    /// # Safety
    ///
    /// The block must stay alive, and not change, for `'a`: tie `'a` to a borrow of its
    /// owner.
    ///
    /// # Panics
    ///
    /// When `ptr` is NULL.
    pub unsafe fn from_raw(ptr: *const mts_block_t) -> TensorBlockRef<'a> {
        TensorBlockRef { ptr: raw::not_null(ptr), marker: std::marker::PhantomData }
    }

    /// The underlying `mts_block_t`.
    pub fn as_ptr(&self) -> *const mts_block_t {
        self.ptr
    }

    device_and_dtype!(block_device, block_dtype);

    /// The values and metadata of this block as separate fields.
    #[inline]
    pub fn data(&'a self) -> TensorBlockData<'a> {
        BlockData::new(self.values(), self.ptr)
    }

    /// The values of this block.
    #[inline]
    pub fn values(&self) -> ArrayRef<'a> {
        let mut array = mts_array_t::null();
        // SAFETY: the block is live and array valid for a write; the library only reads the
        // block (its pointer is mutable in the C API for mutable views of the data)
        unsafe { crate::checked::block_data(self.ptr.cast_mut(), &mut array) }
            .expect("failed to get the array for a block");
        // SAFETY: the array lives as long as the block, 'a; nothing can change it meanwhile,
        // since the block is borrowed immutably for 'a
        unsafe { ArrayRef::from_raw(array) }
    }

    /// The samples of this block.
    #[inline]
    pub fn samples(&self) -> Labels {
        raw::samples(self.ptr)
    }

    /// The components of this block, one labels per axis between samples and properties.
    #[inline]
    pub fn components(&self) -> Vec<Labels> {
        raw::components(self.ptr)
    }

    /// The properties of this block.
    #[inline]
    pub fn properties(&self) -> Labels {
        raw::properties(self.ptr)
    }

    /// The parameters of the gradients of this block.
    #[inline]
    pub fn gradient_list(&self) -> Vec<&'a str> {
        let mut parameters: *const *const std::ffi::c_char = std::ptr::null();
        let mut count = 0;
        // SAFETY: the block is live and the out pointers valid for writes
        unsafe { crate::checked::block_gradients_list(self.ptr, &mut parameters, &mut count) }
            .expect("failed to get gradient list");
        // SAFETY: count NUL-terminated strings owned by the block, alive for 'a: the block can
        // not change while borrowed immutably
        unsafe { strings(parameters, count) }
    }

    /// The gradient of this block with respect to `parameter`, if it has one.
    #[inline]
    pub fn gradient(&self, parameter: &str) -> Option<TensorBlockRef<'a>> {
        let parameter = CString::new(parameter).expect("invalid C string");
        // SAFETY: the block is live; the library only reads it here
        let gradient = unsafe { raw::gradient(self.ptr.cast_mut(), &parameter) }?;
        // SAFETY: the gradient belongs to the block, alive and unchanged for 'a
        Some(unsafe { TensorBlockRef::from_raw(gradient) })
    }

    /// A deep copy of this block, gradients included (which fails when an array can not be
    /// copied).
    #[inline]
    pub fn try_clone(&self) -> Result<TensorBlock, Error> {
        // SAFETY: the block is live
        let copy = unsafe { crate::checked::block_copy(self.ptr)? };
        // SAFETY: a new block, which we own
        Ok(unsafe { TensorBlock::from_raw(copy) })
    }

    /// An iterator over the parameters and gradients of this block.
    #[inline]
    pub fn gradients(&self) -> GradientsIter<'a> {
        let gradients = self
            .gradient_list()
            .into_iter()
            .map(|parameter| (parameter, self.gradient(parameter).expect("missing gradient")));
        GradientsIter { inner: gradients.collect::<Vec<_>>().into_iter() }
    }

    /// Saves this block to the file at `path` (see [`crate::io::save_block`]).
    pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        crate::io::save_block(path, *self)
    }

    /// Saves this block to an in-memory `buffer` (see [`crate::io::save_block_buffer`]).
    pub fn save_buffer(&self, buffer: &mut Vec<u8>) -> Result<(), Error> {
        crate::io::save_block_buffer(*self, buffer)
    }
}

/// Iterator over the parameters and gradients of a [`TensorBlockRef`].
pub struct GradientsIter<'a> {
    inner: std::vec::IntoIter<(&'a str, TensorBlockRef<'a>)>,
}

forward_iterator!(GradientsIter<'a>, (&'a str, TensorBlockRef<'a>));
