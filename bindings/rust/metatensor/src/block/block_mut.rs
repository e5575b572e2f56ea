//! [`TensorBlockRefMut`]: a mutably borrowed block.

use std::ffi::CString;

use crate::ArrayRefMut;
use crate::c_api::{mts_array_t, mts_block_t};

use super::{BlockData, TensorBlockDataMut, raw};

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
        TensorBlockRefMut { ptr: raw::not_null(ptr).cast_mut(), marker: std::marker::PhantomData }
    }

    /// The values (mutable) and metadata of this block as separate fields.
    #[inline]
    pub fn data_mut(&mut self) -> TensorBlockDataMut<'_> {
        let ptr = self.ptr;
        BlockData::new(self.values_mut(), ptr)
    }

    block_methods!();

    /// The values of this block, to change them.
    #[inline]
    pub fn values_mut(&mut self) -> ArrayRefMut<'_> {
        let mut array = mts_array_t::null();
        // SAFETY: the block is live and array valid for a write
        unsafe { crate::checked::block_data(self.ptr, &mut array) }.expect("failed to get the array for a block");
        // SAFETY: the result borrows self mutably: the array stays alive and only it uses it
        unsafe { ArrayRefMut::from_raw(array) }
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
        let block = self.ptr;
        let gradients = self.as_ref().gradient_list().into_iter().map(|parameter| {
            let name = CString::new(parameter).expect("invalid C string");
            // SAFETY: the block is live
            let gradient = unsafe { raw::gradient(block, &name) }.expect("missing gradient");
            // SAFETY: each parameter appears once, so each gradient is handed out once, and
            // the gradients of a block are distinct blocks; the iterator borrows self mutably
            (parameter, unsafe { TensorBlockRefMut::from_raw(gradient) })
        });
        GradientsMutIter { inner: gradients.collect::<Vec<_>>().into_iter() }
    }
}

/// Iterator over the parameters and gradients of a [`TensorBlockRefMut`], with mutable
/// access to the gradients.
pub struct GradientsMutIter<'a> {
    inner: std::vec::IntoIter<(&'a str, TensorBlockRefMut<'a>)>,
}

forward_iterator!(GradientsMutIter<'a>, (&'a str, TensorBlockRefMut<'a>));
