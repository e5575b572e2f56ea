//! [`TensorBlockRefMut`]: a mutably borrowed block.

use std::ffi::CString;
use std::iter::FusedIterator;

use crate::c_api::{mts_array_t, mts_block_t};
use crate::{ArrayRef, ArrayRefMut, Error, Labels};

use super::{LazyMetadata, TensorBlockRef, raw};

/// A mutable reference to a block owned by something else (a
/// [`TensorBlock`](crate::TensorBlock), a tensor map, or a block whose gradient this is).
#[derive(Debug)]
pub struct TensorBlockRefMut<'a> {
    ptr: *mut mts_block_t,
    marker: std::marker::PhantomData<&'a mut mts_block_t>,
}

// SAFETY: the library allows using a block from any thread, and the reference releases
// nothing
unsafe impl Send for TensorBlockRefMut<'_> {}
// SAFETY: through &TensorBlockRefMut the block is only read, which the library allows from
// several threads; changes need &mut
unsafe impl Sync for TensorBlockRefMut<'_> {}

/// The values (mutable) and metadata of a block as separate fields, which can be borrowed
/// separately. The metadata is read on first use.
#[derive(Debug)]
pub struct TensorBlockDataMut<'a> {
    pub values: ArrayRefMut<'a>,
    pub samples: LazyMetadata<Labels>,
    pub components: LazyMetadata<Vec<Labels>>,
    pub properties: LazyMetadata<Labels>,
}

impl<'a> TensorBlockRefMut<'a> {
    /// A mutable reference to the block `ptr`, for a lifetime the caller picks.
    ///
    /// # Safety
    ///
    /// The block must stay alive for `'a`, and nothing else may use it meanwhile: tie `'a`
    /// to a mutable borrow of its owner.
    ///
    /// # Panics
    ///
    /// When `ptr` is NULL.
    pub unsafe fn from_raw(ptr: *mut mts_block_t) -> TensorBlockRefMut<'a> {
        assert!(!ptr.is_null(), "pointer to mts_block_t should not be NULL");
        TensorBlockRefMut {
            ptr,
            marker: std::marker::PhantomData,
        }
    }

    /// The underlying `mts_block_t`.
    pub fn as_ptr(&self) -> *const mts_block_t {
        self.ptr
    }

    /// The underlying `mts_block_t`, to change it.
    pub fn as_mut_ptr(&mut self) -> *mut mts_block_t {
        self.ptr
    }

    /// An immutable reference to this block.
    #[inline]
    pub fn as_ref(&self) -> TensorBlockRef<'_> {
        // SAFETY: the reference borrows self, so the block stays alive and unchanged
        unsafe { TensorBlockRef::from_raw(self.ptr) }
    }

    /// The values (mutable) and metadata of this block as separate fields.
    #[inline]
    pub fn data_mut(&mut self) -> TensorBlockDataMut<'_> {
        let ptr = self.ptr;
        TensorBlockDataMut {
            values: self.values_mut(),
            samples: LazyMetadata::new(raw::samples, ptr),
            components: LazyMetadata::new(raw::components, ptr),
            properties: LazyMetadata::new(raw::properties, ptr),
        }
    }

    /// The device holding the values of this block.
    #[inline]
    pub fn device(&self) -> Result<dlpk::sys::DLDevice, Error> {
        self.as_ref().device()
    }

    /// The type of the values of this block.
    #[inline]
    pub fn dtype(&self) -> Result<dlpk::sys::DLDataType, Error> {
        self.as_ref().dtype()
    }

    /// The values of this block, to change them.
    #[inline]
    pub fn values_mut(&mut self) -> ArrayRefMut<'_> {
        let mut array = mts_array_t::null();
        // SAFETY: the block is live and array valid for a write
        unsafe { crate::checked::block_data(self.ptr, &mut array) }.expect("failed to get the array for a block");
        // SAFETY: the result borrows self mutably: the array stays alive and only it uses it
        unsafe { ArrayRefMut::from_raw(array) }
    }

    /// The values of this block.
    #[inline]
    pub fn values(&self) -> ArrayRef<'_> {
        self.as_ref().values()
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

    /// The gradient of this block with respect to `parameter`, if it has one, to change it.
    #[inline]
    pub fn gradient_mut(&mut self, parameter: &str) -> Option<TensorBlockRefMut<'_>> {
        let parameter = CString::new(parameter).expect("invalid C string");
        // SAFETY: the block is live
        let gradient = unsafe { raw::gradient(self.ptr, &parameter) }?;
        // SAFETY: the result borrows self mutably: the gradient stays alive and only it uses
        // it
        Some(unsafe { TensorBlockRefMut::from_raw(gradient) })
    }

    /// An iterator over the parameters and gradients of this block, to change them.
    #[inline]
    pub fn gradients_mut(&mut self) -> GradientsMutIter<'_> {
        let ptr = self.ptr;
        GradientsMutIter {
            parameters: self.as_ref().gradient_list().into_iter(),
            block: ptr,
            marker: std::marker::PhantomData,
        }
    }

    /// Saves this block to the file at `path` (see [`crate::io::save_block`]).
    pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        self.as_ref().save(path)
    }

    /// Saves this block to an in-memory `buffer` (see [`crate::io::save_block_buffer`]).
    pub fn save_buffer(&self, buffer: &mut Vec<u8>) -> Result<(), Error> {
        self.as_ref().save_buffer(buffer)
    }
}

/// Iterator over the parameters and gradients of a [`TensorBlockRefMut`], with mutable
/// access to the gradients.
pub struct GradientsMutIter<'a> {
    parameters: std::vec::IntoIter<&'a str>,
    block: *mut mts_block_t,
    marker: std::marker::PhantomData<&'a mut mts_block_t>,
}

impl<'a> Iterator for GradientsMutIter<'a> {
    type Item = (&'a str, TensorBlockRefMut<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let parameter = self.parameters.next()?;
        let name = CString::new(parameter).expect("invalid C string");
        // SAFETY: the block is live for 'a, mutably borrowed by this iterator
        let gradient = unsafe { raw::gradient(self.block, &name) }.expect("missing gradient");
        // SAFETY: each parameter appears once, so each gradient is handed out once, and the
        // gradients of a block are distinct blocks; all live for 'a
        Some((parameter, unsafe { TensorBlockRefMut::from_raw(gradient) }))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.parameters.size_hint()
    }
}

impl ExactSizeIterator for GradientsMutIter<'_> {}

impl FusedIterator for GradientsMutIter<'_> {}
