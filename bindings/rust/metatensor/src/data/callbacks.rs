//! The `mts_array_t` functions of the arrays this crate makes: each forwards to the
//! [`Array`](super::Array) inside a `RustArray`. None lets a panic or an error cross the C
//! API: both are stored for `mts_last_error` and reported as `MTS_CALLBACK_ERROR`.

use std::ffi::c_void;

use dlpk::DLPackTensor;
use dlpk::sys::{DLDataType, DLDevice, DLManagedTensorVersioned, DLPackVersion};

use crate::c_api::{mts_array_t, mts_data_movement_t, mts_data_origin_t, mts_status_t};
use crate::errors::{Error, catch_unwind};

use super::MtsArray;
use super::array::{RUST_DATA_ORIGIN, RustArray};

/// The `mts_array_t` of a `RustArray` leaked with `Box::into_raw`; its `destroy` releases it.
pub(super) fn rust_array_vtable(ptr: *mut c_void) -> mts_array_t {
    mts_array_t {
        ptr,
        origin: Some(rust_array_origin),
        device: Some(rust_array_device),
        dtype: Some(rust_array_dtype),
        as_dlpack: Some(rust_array_as_dlpack),
        from_dlpack: Some(rust_array_from_dlpack),
        shape: Some(rust_array_shape),
        reshape: Some(rust_array_reshape),
        swap_axes: Some(rust_array_swap_axes),
        create: Some(rust_array_create),
        copy: Some(rust_array_copy),
        destroy: Some(rust_array_destroy),
        move_data: Some(rust_array_move_data),
    }
}

/// Rejects a NULL pointer argument with an error naming it.
fn non_null<T>(pointer: *const T, name: &str) -> Result<(), Error> {
    if pointer.is_null() {
        return Err(Error {
            code: Some(crate::c_api::MTS_INVALID_PARAMETER_ERROR),
            message: format!("got invalid NULL pointer for {name}"),
        });
    }
    Ok(())
}

/// The `count` elements at `pointer`, which may be NULL when `count` is 0.
///
/// # Safety
///
/// A non-NULL `pointer` must point to `count` elements alive for `'a`.
unsafe fn slice<'a, T>(pointer: *const T, count: usize, name: &str) -> Result<&'a [T], Error> {
    if count == 0 {
        return Ok(&[]);
    }
    non_null(pointer, name)?;
    // SAFETY: pointer is not NULL and, by the caller's contract, points to count elements
    Ok(unsafe { std::slice::from_raw_parts(pointer, count) })
}

/// The `RustArray` behind a `ptr` of this crate's vtable.
///
/// # Safety
///
/// A non-NULL `array` must be the `ptr` of an array made by `rust_array_vtable`, alive and
/// not borrowed mutably elsewhere for `'a`.
unsafe fn array_ref<'a>(array: *const c_void) -> Result<&'a RustArray, Error> {
    non_null(array, "array")?;
    // SAFETY: the caller's contract
    Ok(unsafe { &*array.cast::<RustArray>() })
}

/// The `RustArray` behind a `ptr` of this crate's vtable, for a change.
///
/// # Safety
///
/// As for [`array_ref`], and nothing else may use the array for `'a`.
unsafe fn array_mut<'a>(array: *mut c_void) -> Result<&'a mut RustArray, Error> {
    non_null(array, "array")?;
    // SAFETY: the caller's contract
    Ok(unsafe { &mut *array.cast::<RustArray>() })
}

/// Writes `value` to an out pointer of the C API.
///
/// # Safety
///
/// A non-NULL `out` must be valid for a write.
unsafe fn write<T>(out: *mut T, value: T, name: &str) -> Result<(), Error> {
    non_null(out, name)?;
    // SAFETY: out is not NULL, and valid for writes by the caller's contract
    unsafe { out.write(value) };
    Ok(())
}

// The callbacks below are only ever called by the C library, with the `ptr` of an array made
// by rust_array_vtable: that is the contract their unsafe blocks rely on.

unsafe extern "C" fn rust_array_origin(array: *const c_void, origin: *mut mts_data_origin_t) -> mts_status_t {
    catch_unwind(|| {
        non_null(array, "array")?;
        // SAFETY: origin comes from the C library, valid for a write
        unsafe { write(origin, *RUST_DATA_ORIGIN, "origin") }
    })
}

unsafe extern "C" fn rust_array_device(array: *const c_void, device: *mut DLDevice) -> mts_status_t {
    catch_unwind(|| {
        // SAFETY: array is a live RustArray, device valid for a write
        unsafe { write(device, array_ref(array)?.inner.device(), "device") }
    })
}

unsafe extern "C" fn rust_array_dtype(array: *const c_void, dtype: *mut DLDataType) -> mts_status_t {
    catch_unwind(|| {
        // SAFETY: array is a live RustArray, dtype valid for a write
        unsafe { write(dtype, array_ref(array)?.inner.dtype(), "dtype") }
    })
}

unsafe extern "C" fn rust_array_shape(
    array: *const c_void, shape: *mut *const usize, shape_count: *mut usize,
) -> mts_status_t {
    catch_unwind(|| {
        // SAFETY: array is a live RustArray; its shape vector lives until the next reshape,
        // swap_axes or destroy, as the C API allows
        let rust_shape = unsafe { &array_ref(array)?.shape };
        // SAFETY: both out pointers come from the C library, valid for a write
        unsafe {
            write(shape, rust_shape.as_ptr(), "shape")?;
            write(shape_count, rust_shape.len(), "shape_count")
        }
    })
}

unsafe extern "C" fn rust_array_reshape(array: *mut c_void, shape: *const usize, shape_count: usize) -> mts_status_t {
    catch_unwind(|| {
        // SAFETY: array is a live RustArray the library lets us change; shape holds
        // shape_count sizes
        let (array, shape) = unsafe { (array_mut(array)?, slice(shape, shape_count, "shape")?) };
        array.inner.reshape(shape);
        array.shape = array.inner.shape();
        Ok(())
    })
}

unsafe extern "C" fn rust_array_swap_axes(array: *mut c_void, axis_1: usize, axis_2: usize) -> mts_status_t {
    catch_unwind(|| {
        // SAFETY: array is a live RustArray the library lets us change
        let array = unsafe { array_mut(array)? };
        array.inner.swap_axes(axis_1, axis_2);
        array.shape = array.inner.shape();
        Ok(())
    })
}

unsafe extern "C" fn rust_array_create(
    array: *const c_void, shape: *const usize, shape_count: usize, fill_value: mts_array_t, new_array: *mut mts_array_t,
) -> mts_status_t {
    catch_unwind(|| {
        // SAFETY: array is a live RustArray; shape holds shape_count sizes
        let (array, shape) = unsafe { (array_ref(array)?, slice(shape, shape_count, "shape")?) };
        // the fill value is borrowed: without destroy, dropping it releases nothing
        let fill_value = MtsArray::from_raw(mts_array_t { destroy: None, ..fill_value });
        let created = MtsArray::from(array.inner.create(shape, fill_value));
        // SAFETY: new_array comes from the C library, valid for a write
        unsafe { write(new_array, created.into_raw(), "new_array") }
    })
}

unsafe extern "C" fn rust_array_copy(
    array: *const c_void, device: DLDevice, new_array: *mut mts_array_t,
) -> mts_status_t {
    catch_unwind(|| {
        // SAFETY: array is a live RustArray
        let copy = MtsArray::from(unsafe { array_ref(array)? }.inner.copy(device));
        // SAFETY: new_array comes from the C library, valid for a write
        unsafe { write(new_array, copy.into_raw(), "new_array") }
    })
}

unsafe extern "C" fn rust_array_destroy(array: *mut c_void) {
    if array.is_null() {
        return;
    }
    // SAFETY: the library destroys each array once, and never uses it after
    let array = unsafe { Box::from_raw(array.cast::<RustArray>()) };
    // a panicking Drop of the user's array must not unwind into C: report it on stderr, since
    // destroy has no status to return
    if let Err(payload) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(array))) {
        let error = crate::errors::panic_error(payload.as_ref());
        eprintln!("metatensor: an array panicked while being destroyed: {}", error.message);
    }
}

unsafe extern "C" fn rust_array_move_data(
    output: *mut c_void, input: *const c_void, movements: *const mts_data_movement_t, movements_count: usize,
) -> mts_status_t {
    catch_unwind(|| {
        if std::ptr::eq(output, input) {
            return Err(Error {
                code: Some(crate::c_api::MTS_INVALID_PARAMETER_ERROR),
                message: "can not move data from an array into itself".into(),
            });
        }
        // SAFETY: output and input are two different live RustArrays, the library lets us
        // change output; movements holds movements_count entries
        let (output, input, movements) =
            unsafe { (array_mut(output)?, array_ref(input)?, slice(movements, movements_count, "movements")?) };
        output.inner.move_data(&*input.inner, movements);
        Ok(())
    })
}

unsafe extern "C" fn rust_array_as_dlpack(
    array: *mut c_void, dl_tensor: *mut *mut DLManagedTensorVersioned, device: DLDevice, stream: *const i64,
    max_version: DLPackVersion,
) -> mts_status_t {
    catch_unwind(|| {
        // SAFETY: array is a live RustArray; stream, when not NULL, points to one i64
        let (array, stream) = unsafe { (array_ref(array)?, stream.as_ref().copied()) };
        let tensor = array.inner.as_dlpack(device, stream, max_version)?;
        // SAFETY: dl_tensor comes from the C library, valid for a write; the caller owns the
        // tensor from now on
        unsafe { write(dl_tensor, tensor.into_raw().as_ptr(), "dl_tensor") }
    })
}

unsafe extern "C" fn rust_array_from_dlpack(
    array: *const c_void, dl_tensor: *mut DLManagedTensorVersioned, new_array: *mut mts_array_t,
) -> mts_status_t {
    catch_unwind(|| {
        non_null(dl_tensor, "dl_tensor")?;
        // SAFETY: the tensor is ours whatever happens: wrapping it first makes every early
        // return below call its deleter
        let tensor = unsafe { DLPackTensor::from_ptr(dl_tensor) };
        // SAFETY: array is a live RustArray
        let created = MtsArray::from(unsafe { array_ref(array)? }.inner.from_dlpack(tensor)?);
        // SAFETY: new_array comes from the C library, valid for a write
        unsafe { write(new_array, created.into_raw(), "new_array") }
    })
}
