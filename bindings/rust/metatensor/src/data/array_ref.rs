//! [`ArrayRef`] and [`ArrayRefMut`]: arrays borrowed from their owner (labels, a block).

use std::sync::{Arc, RwLock};

use ndarray::ArrayD;

use crate::c_api::mts_array_t;

/// A reference to an array that something else owns, whatever made it; the data of arrays
/// made by this crate (as `ndarray` arrays, in particular) can be reached through it.
#[derive(Debug, Clone, Copy)]
pub struct ArrayRef<'a> {
    array: mts_array_t,
    marker: std::marker::PhantomData<&'a mts_array_t>,
}

impl<'a> ArrayRef<'a> {
    /// A reference to `array`, for a lifetime the caller picks.
    ///
    /// # Safety
    ///
    /// The array must stay alive, and not change, for `'a`: tie `'a` to a borrow of its
    /// owner.
    pub unsafe fn from_raw(array: mts_array_t) -> ArrayRef<'a> {
        ArrayRef { array: super::members::borrowed(array), marker: std::marker::PhantomData }
    }

    shared_array_methods!();
    borrowed_array_methods!();
}

/// A mutable reference to an array that something else owns, whatever made it.
#[derive(Debug)]
pub struct ArrayRefMut<'a> {
    array: mts_array_t,
    marker: std::marker::PhantomData<&'a mut mts_array_t>,
}

impl<'a> ArrayRefMut<'a> {
    /// A mutable reference to `array`, for a lifetime the caller picks.
    ///
    /// # Safety
    ///
    /// The array must stay alive for `'a`, and nothing else may use it meanwhile: tie `'a`
    /// to a mutable borrow of its owner.
    #[inline]
    pub unsafe fn from_raw(array: mts_array_t) -> ArrayRefMut<'a> {
        ArrayRefMut { array: super::members::borrowed(array), marker: std::marker::PhantomData }
    }

    shared_array_methods!();
    borrowed_array_methods!();
    mutable_array_methods!();

    /// The array as `&mut dyn Any`, for the whole lifetime of the reference.
    ///
    /// # Panics
    ///
    /// When the array was not made by this crate.
    #[inline]
    pub fn to_any_mut(self) -> &'a mut dyn std::any::Any {
        // SAFETY: the array lives for 'a, and only this reference, consumed here, uses it
        unsafe { super::members::any_mut(&self.array) }
    }

    /// The `ndarray` data of this array, without locking: the mutable borrow already makes
    /// the access exclusive.
    ///
    /// # Panics
    ///
    /// When the array is not an `ndarray` array of `T` made by this crate, or when its data
    /// is shared (a DLPack export of it is alive, for instance).
    #[inline]
    pub fn get_ndarray_mut<T: 'static>(self) -> &'a mut ArrayD<T> {
        let shared =
            self.to_any_mut().downcast_mut::<Arc<RwLock<ArrayD<T>>>>().expect("this is not an Arc<RwLock<ArrayD>>");
        let lock = Arc::get_mut(shared).expect("the outer Arc already has multiple owners");
        lock.get_mut().expect("lock was poisoned")
    }
}
