//! [`MtsArray`]: an owned `mts_array_t`, whatever made it.

use std::sync::{Arc, RwLock, RwLockReadGuard};

use ndarray::ArrayD;

use crate::c_api::mts_array_t;
use crate::errors::{Error, check_status};

use super::{ArrayRef, ArrayRefMut};

/// An array owned by Rust code: any `mts_array_t` (from this crate's [`Array`](super::Array)
/// implementations, or from another language), destroyed when dropped.
pub struct MtsArray {
    array: mts_array_t,
}

impl Drop for MtsArray {
    fn drop(&mut self) {
        if let Some(destroy) = self.array.destroy {
            // SAFETY: this MtsArray owns the array, and destroys it once
            unsafe { destroy(self.array.ptr) }
        }
    }
}

impl MtsArray {
    /// Takes ownership of `array`: it is destroyed (by its `destroy` member, when it has one)
    /// when the `MtsArray` is dropped.
    pub fn from_raw(array: mts_array_t) -> MtsArray {
        MtsArray { array }
    }

    /// Gives up ownership of the array: the caller must destroy it.
    pub fn into_raw(self) -> mts_array_t {
        let array = self.array;
        std::mem::forget(self);
        array
    }

    shared_array_methods!();
    mutable_array_methods!();

    /// The `ndarray` data of this array, locked for reading.
    ///
    /// # Panics
    ///
    /// When the array is not an `ndarray` array of `T` made by this crate, or is locked for
    /// writing.
    #[inline]
    pub fn as_ndarray<T: 'static>(&self) -> RwLockReadGuard<'_, ArrayD<T>> {
        let lock: &Arc<RwLock<ArrayD<T>>> = self.as_any().downcast_ref().expect("this is not an Arc<RwLock<ArrayD>>");
        lock.read().expect("lock was poisoned")
    }

    /// A reference to this array.
    pub fn as_ref(&self) -> ArrayRef<'_> {
        // SAFETY: the reference borrows self, which keeps the array alive
        unsafe { ArrayRef::from_raw(self.array) }
    }

    /// A mutable reference to this array.
    pub fn as_mut(&mut self) -> ArrayRefMut<'_> {
        // SAFETY: the reference borrows self mutably, which keeps the array alive and unused
        // elsewhere
        unsafe { ArrayRefMut::from_raw(self.array) }
    }

    /// A new array of the same kind as this one, made from a DLPack tensor (which it takes).
    pub fn from_dlpack(&self, dlpack_tensor: dlpk::DLPackTensor) -> Result<MtsArray, Error> {
        let function = self.array.from_dlpack.expect("mts_array_t.from_dlpack function is NULL");
        let mut created = mts_array_t::null();
        // SAFETY: the array is alive; the member takes the tensor whatever happens
        check_status(unsafe { function(self.array.ptr, dlpack_tensor.into_raw().as_ptr(), &mut created) })?;
        Ok(MtsArray::from_raw(created))
    }
}

impl<const N: usize> From<Vec<[i32; N]>> for MtsArray {
    /// Label values: one entry of `N` values per element, without copy.
    fn from(values: Vec<[i32; N]>) -> MtsArray {
        let count = values.len();
        let array = ndarray::Array2::from_shape_vec((count, N), values.into_flattened())
            .expect("count x N values have the shape (count, N)");
        MtsArray::from(array)
    }
}

impl<const N: usize, const M: usize> From<[[i32; N]; M]> for MtsArray {
    /// Label values: `M` entries of `N` values each.
    fn from(values: [[i32; N]; M]) -> MtsArray {
        MtsArray::from(Vec::from(values))
    }
}

impl<'a> From<&'a MtsArray> for ArrayRef<'a> {
    fn from(array: &'a MtsArray) -> ArrayRef<'a> {
        array.as_ref()
    }
}

impl<'a> From<&'a mut MtsArray> for ArrayRefMut<'a> {
    fn from(array: &'a mut MtsArray) -> ArrayRefMut<'a> {
        array.as_mut()
    }
}
