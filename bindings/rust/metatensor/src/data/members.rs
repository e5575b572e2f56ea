//! The methods [`MtsArray`](super::MtsArray), [`ArrayRef`](super::ArrayRef) and
//! [`ArrayRefMut`](super::ArrayRefMut) share: each calls one function of the `mts_array_t`
//! they hold (in the `array` field), written once here and stamped into each type.

use dlpk::sys::{DLDataType, DLDevice, DLPackVersion};

use crate::c_api::{mts_array_t, mts_data_movement_t, mts_data_origin_t};
use crate::errors::{Error, check_status};
use crate::out::{no_dtype, out};

/// A copy of `array` without its `destroy` member: a reference that never destroys the array,
/// even when handed back to C.
pub(super) fn borrowed(array: mts_array_t) -> mts_array_t {
    mts_array_t { destroy: None, ..array }
}

/// The member `$name` of an array, or a panic naming it when the array lacks it.
macro_rules! member {
    ($array: expr, $name: ident) => {
        $array.$name.expect(concat!("mts_array_t.", stringify!($name), " function is NULL"))
    };
}

// The functions below call a member of an array that its owner keeps alive while the
// caller borrows it: that is the contract their unsafe blocks rely on.

pub(super) fn origin(array: &mts_array_t) -> Result<mts_data_origin_t, Error> {
    // SAFETY: array is alive and the out pointer valid for a write
    out(0, |origin| check_status(unsafe { member!(array, origin)(array.ptr, origin) }))
}

pub(super) fn device(array: &mts_array_t) -> Result<DLDevice, Error> {
    // SAFETY: array is alive and the out pointer valid for a write
    out(DLDevice::cpu(), |device| check_status(unsafe { member!(array, device)(array.ptr, device) }))
}

pub(super) fn dtype(array: &mts_array_t) -> Result<DLDataType, Error> {
    // SAFETY: array is alive and the out pointer valid for a write
    out(no_dtype(), |dtype| check_status(unsafe { member!(array, dtype)(array.ptr, dtype) }))
}

pub(super) fn as_dlpack(
    array: &mts_array_t, device: DLDevice, stream: Option<i64>, max_version: DLPackVersion,
) -> Result<dlpk::DLPackTensor, Error> {
    let mut tensor = std::ptr::null_mut();
    let stream = stream.as_ref().map_or(std::ptr::null(), std::ptr::from_ref);
    // SAFETY: array is alive, tensor valid for a write, stream NULL or one i64
    check_status(unsafe { member!(array, as_dlpack)(array.ptr, &mut tensor, device, stream, max_version) })?;
    if tensor.is_null() {
        return Err(Error { code: None, message: "mts_array_t.as_dlpack succeeded without giving a tensor".into() });
    }
    // SAFETY: on success the member gives a tensor the caller owns
    Ok(unsafe { dlpk::DLPackTensor::from_ptr(tensor) })
}

/// The shape of `array`, borrowed from it as long as `'a` (the owner's borrow).
pub(super) fn shape<'a>(array: &mts_array_t) -> Result<&'a [usize], Error> {
    let mut shape = std::ptr::null();
    let mut count = 0;
    // SAFETY: array is alive and both out pointers valid for a write
    check_status(unsafe { member!(array, shape)(array.ptr, &mut shape, &mut count) })?;
    if count == 0 {
        return Ok(&[]);
    }
    assert!(!shape.is_null(), "mts_array_t.shape gave a NULL shape");
    // SAFETY: the shape stays valid until the array changes, which needs a mutable borrow of
    // its owner: not while 'a lasts
    Ok(unsafe { std::slice::from_raw_parts(shape, count) })
}

pub(super) fn create(array: &mts_array_t, shape: &[usize], fill_value: &mts_array_t) -> Result<super::MtsArray, Error> {
    let mut created = mts_array_t::null();
    // SAFETY: array and fill_value are alive, shape holds shape.len() sizes, created valid
    // for a write
    check_status(unsafe { member!(array, create)(array.ptr, shape.as_ptr(), shape.len(), *fill_value, &mut created) })?;
    Ok(super::MtsArray::from_raw(created))
}

pub(super) fn copy(array: &mts_array_t, device: DLDevice) -> Result<super::MtsArray, Error> {
    let mut copy = mts_array_t::null();
    // SAFETY: array is alive and copy valid for a write
    check_status(unsafe { member!(array, copy)(array.ptr, device, &mut copy) })?;
    Ok(super::MtsArray::from_raw(copy))
}

pub(super) fn reshape(array: &mut mts_array_t, shape: &[usize]) -> Result<(), Error> {
    // SAFETY: array is alive and borrowed mutably; shape holds shape.len() sizes
    check_status(unsafe { member!(array, reshape)(array.ptr, shape.as_ptr(), shape.len()) })
}

pub(super) fn swap_axes(array: &mut mts_array_t, axis_1: usize, axis_2: usize) -> Result<(), Error> {
    // SAFETY: array is alive and borrowed mutably
    check_status(unsafe { member!(array, swap_axes)(array.ptr, axis_1, axis_2) })
}

pub(super) fn move_data(
    array: &mut mts_array_t, input: &mts_array_t, moves: &[mts_data_movement_t],
) -> Result<(), Error> {
    // SAFETY: array is alive and borrowed mutably, input alive, moves holds moves.len()
    // movements
    check_status(unsafe { member!(array, move_data)(array.ptr, input.ptr, moves.as_ptr(), moves.len()) })
}

/// The methods every array type has, stamped into its `impl` block: they read the
/// `mts_array_t` in the `array` field.
macro_rules! shared_array_methods {
    () => {
        /// The origin of this array (see `mts_register_data_origin`).
        pub fn origin(&self) -> Result<$crate::c_api::mts_data_origin_t, $crate::Error> {
            super::members::origin(&self.array)
        }

        /// The device holding the data of this array.
        pub fn device(&self) -> Result<dlpk::sys::DLDevice, $crate::Error> {
            super::members::device(&self.array)
        }

        /// The type of the elements of this array.
        pub fn dtype(&self) -> Result<dlpk::sys::DLDataType, $crate::Error> {
            super::members::dtype(&self.array)
        }

        /// Exports the data as a DLPack tensor on `device`, when the array supports it.
        pub fn as_dlpack(
            &self, device: dlpk::sys::DLDevice, stream: Option<i64>, max_version: dlpk::sys::DLPackVersion,
        ) -> Result<dlpk::DLPackTensor, $crate::Error> {
            super::members::as_dlpack(&self.array, device, stream, max_version)
        }

        /// The shape of this array.
        pub fn shape(&self) -> Result<&[usize], $crate::Error> {
            super::members::shape(&self.array)
        }

        /// A new array of the same kind, data type and device as this one, with the given
        /// shape, every element set to the single value of `fill_value`.
        pub fn create(
            &self, shape: &[usize], fill_value: $crate::ArrayRef<'_>,
        ) -> Result<$crate::MtsArray, $crate::Error> {
            super::members::create(&self.array, shape, fill_value.as_raw())
        }

        /// A deep copy of this array on `device`.
        pub fn copy(&self, device: dlpk::sys::DLDevice) -> Result<$crate::MtsArray, $crate::Error> {
            super::members::copy(&self.array, device)
        }

        /// This array as `&dyn Any`, to get back the type of a Rust array.
        ///
        /// # Panics
        ///
        /// When the array was not made by this crate from an [`Array`]($crate::Array).
        #[inline]
        pub fn as_any(&self) -> &dyn std::any::Any {
            // SAFETY: the array is alive as long as self, and the borrow of the result
            unsafe { super::members::any(&self.array) }
        }

        /// The underlying `mts_array_t`.
        pub fn as_raw(&self) -> &$crate::c_api::mts_array_t {
            &self.array
        }
    };
}

/// The methods of the array types that may change their array (`MtsArray`, `ArrayRefMut`).
macro_rules! mutable_array_methods {
    () => {
        /// Changes the shape of this array, keeping the elements in row-major order.
        pub fn reshape(&mut self, shape: &[usize]) -> Result<(), $crate::Error> {
            super::members::reshape(&mut self.array, shape)
        }

        /// Exchanges two axes of this array.
        pub fn swap_axes(&mut self, axis_1: usize, axis_2: usize) -> Result<(), $crate::Error> {
            super::members::swap_axes(&mut self.array, axis_1, axis_2)
        }

        /// Copies data from `input` into this array, as each of the `moves` says (see
        /// [`Array::move_data`]($crate::Array::move_data)).
        pub fn move_data<'input>(
            &mut self, input: impl Into<$crate::ArrayRef<'input>>, moves: &[$crate::c_api::mts_data_movement_t],
        ) -> Result<(), $crate::Error> {
            super::members::move_data(&mut self.array, input.into().as_raw(), moves)
        }

        /// The underlying `mts_array_t`, to change it.
        pub fn as_raw_mut(&mut self) -> &mut $crate::c_api::mts_array_t {
            &mut self.array
        }
    };
}

/// The methods of the borrowed array types (`ArrayRef`, `ArrayRefMut`) reaching a Rust array
/// for the whole lifetime `'a` of the borrow.
macro_rules! borrowed_array_methods {
    () => {
        /// The array as `&dyn Any`, for the whole lifetime of the reference.
        ///
        /// # Panics
        ///
        /// When the array was not made by this crate.
        #[inline]
        pub fn to_any(self) -> &'a dyn std::any::Any {
            // SAFETY: the array lives, unchanged, for 'a (the contract of from_raw)
            unsafe { super::members::any(&self.array) }
        }

        /// The `ndarray` data of this array, behind its lock.
        ///
        /// # Panics
        ///
        /// When the array is not an `ndarray` array of `T` made by this crate.
        #[inline]
        pub fn as_ndarray_lock<T: 'static>(&self) -> &std::sync::Arc<std::sync::RwLock<ndarray::ArrayD<T>>> {
            self.as_any().downcast_ref().expect("this is not an Arc<RwLock<ArrayD>>")
        }

        /// As `as_ndarray_lock`, for the whole lifetime of the reference.
        #[inline]
        pub fn to_ndarray_lock<T: 'static>(self) -> &'a std::sync::Arc<std::sync::RwLock<ndarray::ArrayD<T>>> {
            self.to_any().downcast_ref().expect("this is not an Arc<RwLock<ArrayD>>")
        }
    };
}

/// The Rust array behind `array` as `&dyn Any`, for the lifetime the caller picks.
///
/// # Safety
///
/// `array` must stay alive, and unchanged, for `'a`.
///
/// # Panics
///
/// When the array was not made by this crate.
pub(super) unsafe fn any<'a>(array: &mts_array_t) -> &'a dyn std::any::Any {
    // SAFETY: array is alive (the caller's contract)
    let rust_array = unsafe { super::array::rust_array_ptr(array) }.unwrap_or_else(|message| panic!("{message}"));
    // SAFETY: a RustArray alive for 'a, only read
    unsafe { (*rust_array).inner.as_any() }
}

/// As [`any`], mutably.
///
/// # Safety
///
/// As for [`any`], and nothing else may use the array for `'a`.
pub(super) unsafe fn any_mut<'a>(array: &mts_array_t) -> &'a mut dyn std::any::Any {
    // SAFETY: array is alive (the caller's contract)
    let rust_array = unsafe { super::array::rust_array_ptr(array) }.unwrap_or_else(|message| panic!("{message}"));
    // SAFETY: a RustArray alive for 'a, that nothing else uses meanwhile
    unsafe { (*rust_array).inner.as_any_mut() }
}
