//! [`TensorBlockRef`]: a borrowed block.

use std::ffi::{CStr, CString};
use std::iter::FusedIterator;

use crate::c_api::{mts_array_t, mts_block_t};
use crate::{ArrayRef, Error, Labels};

use super::{LazyMetadata, TensorBlock, raw};

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

/// The values and metadata of a block as separate fields, which can be borrowed
/// separately. The metadata is read on first use.
#[derive(Debug)]
pub struct TensorBlockData<'a> {
    pub values: ArrayRef<'a>,
    pub samples: LazyMetadata<Labels>,
    pub components: LazyMetadata<Vec<Labels>>,
    pub properties: LazyMetadata<Labels>,
}

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
        assert!(!ptr.is_null(), "pointer to mts_block_t should not be NULL");
        TensorBlockRef {
            ptr,
            marker: std::marker::PhantomData,
        }
    }

    /// The underlying `mts_block_t`.
    pub fn as_ptr(&self) -> *const mts_block_t {
        self.ptr
    }

    /// The device holding the values of this block.
    #[inline]
    pub fn device(&self) -> Result<dlpk::sys::DLDevice, Error> {
        let mut device = dlpk::sys::DLDevice::cpu();
        // SAFETY: the block is live and device valid for a write
        unsafe { crate::checked::block_device(self.ptr, &mut device)? };
        Ok(device)
    }

    /// The type of the values of this block.
    #[inline]
    pub fn dtype(&self) -> Result<dlpk::sys::DLDataType, Error> {
        let mut dtype = dlpk::sys::DLDataType {
            code: dlpk::sys::DLDataTypeCode::kDLFloat,
            bits: 0,
            lanes: 0,
        };
        // SAFETY: the block is live and dtype valid for a write
        unsafe { crate::checked::block_dtype(self.ptr, &mut dtype)? };
        Ok(dtype)
    }

    /// The values and metadata of this block as separate fields.
    #[inline]
    pub fn data(&'a self) -> TensorBlockData<'a> {
        TensorBlockData {
            values: self.values(),
            samples: LazyMetadata::new(raw::samples, self.ptr),
            components: LazyMetadata::new(raw::components, self.ptr),
            properties: LazyMetadata::new(raw::properties, self.ptr),
        }
    }

    /// The values of this block.
    #[inline]
    pub fn values(&self) -> ArrayRef<'a> {
        let mut array = mts_array_t::null();
        // SAFETY: the block is live and array valid for a write; the library only reads the
        // block (its pointer is mutable in the C API for mutable views of the data)
        unsafe { crate::checked::block_data(self.ptr.cast_mut(), &mut array) }.expect("failed to get the array for a block");
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
        if count == 0 {
            return Vec::new();
        }
        // SAFETY: count NUL-terminated strings owned by the block, alive for 'a: the block can
        // not change while borrowed immutably
        let parameters = unsafe { std::slice::from_raw_parts(parameters, count) };
        parameters
            .iter()
            // SAFETY: as above, for each string
            .map(|&parameter| unsafe { CStr::from_ptr(parameter) }.to_str().expect("invalid UTF8"))
            .collect()
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
        GradientsIter {
            parameters: self.gradient_list().into_iter(),
            block: *self,
        }
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
    parameters: std::vec::IntoIter<&'a str>,
    block: TensorBlockRef<'a>,
}

impl<'a> Iterator for GradientsIter<'a> {
    type Item = (&'a str, TensorBlockRef<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let parameter = self.parameters.next()?;
        Some((parameter, self.block.gradient(parameter).expect("missing gradient")))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.parameters.size_hint()
    }
}

impl ExactSizeIterator for GradientsIter<'_> {}

impl FusedIterator for GradientsIter<'_> {}
