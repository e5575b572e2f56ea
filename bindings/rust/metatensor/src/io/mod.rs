//! Saving and loading [`TensorMap`](crate::TensorMap), [`TensorBlock`](crate::TensorBlock)
//! and [`Labels`](crate::Labels), to files and in-memory buffers, in metatensor's `.mts`
//! format.

use std::ffi::{CString, c_void};

use dlpk::sys::DLDataType;

use crate::MtsArray;
use crate::c_api::{MTS_SUCCESS, mts_array_t, mts_status_t};
use crate::data::ndarray_array::{ElementVisitor, dispatch};
use crate::errors::Error;

/// The four load functions of the type `$type` (a tensor map or a block): from a file or a
/// buffer, with `ndarray` arrays or with those of a `create_array` callback, by the checked
/// calls `$from_file` and `$from_buffer`.
macro_rules! load_functions {
    (
        $type: ident, $what: literal,
        $load: ident, $load_custom_array: ident, $from_file: ident,
        $load_buffer: ident, $load_buffer_custom_array: ident, $from_buffer: ident $(,)?
    ) => {
        #[doc = concat!("Loads the ", $what, " saved in the file at `path`, its arrays as `ndarray` arrays.")]
        pub fn $load(path: impl AsRef<std::path::Path>) -> Result<$type, Error> {
            $load_custom_array(path, Some(super::create_ndarray))
        }

        #[doc = concat!("Loads the ", $what, " saved in the file at `path`, its arrays made by `create_array`.")]
        pub fn $load_custom_array(
            path: impl AsRef<std::path::Path>, create_array: $crate::c_api::mts_create_array_callback_t,
        ) -> Result<$type, Error> {
            let path = super::c_path(path.as_ref())?;
            // SAFETY: path is NUL-terminated; create_array is a valid callback or None
            let ptr = unsafe { $crate::checked::$from_file(path.as_ptr(), create_array)? };
            // SAFETY: a new object, which we own
            Ok(unsafe { $type::from_raw(ptr) })
        }

        #[doc = concat!("Loads a ", $what, " saved in `buffer`, its arrays as `ndarray` arrays.")]
        pub fn $load_buffer(buffer: &[u8]) -> Result<$type, Error> {
            $load_buffer_custom_array(buffer, Some(super::create_ndarray))
        }

        #[doc = concat!("Loads a ", $what, " saved in `buffer`, its arrays made by `create_array`.")]
        pub fn $load_buffer_custom_array(
            buffer: &[u8], create_array: $crate::c_api::mts_create_array_callback_t,
        ) -> Result<$type, Error> {
            // SAFETY: buffer holds buffer.len() bytes; create_array is a valid callback or None
            let ptr = unsafe { $crate::checked::$from_buffer(buffer.as_ptr(), buffer.len(), create_array)? };
            // SAFETY: a new object, which we own
            Ok(unsafe { $type::from_raw(ptr) })
        }
    };
}

mod tensor;
pub use self::tensor::{load, load_buffer, load_buffer_custom_array, load_custom_array};
pub use self::tensor::{save, save_buffer};

mod block;
pub use self::block::{load_block, load_block_buffer, load_block_buffer_custom_array, load_block_custom_array};
pub use self::block::{save_block, save_block_buffer};

mod labels;
pub use self::labels::{load_labels, load_labels_buffer, save_labels, save_labels_buffer};

/// `path` as a C string.
fn c_path(path: &std::path::Path) -> Result<CString, Error> {
    let invalid = |problem: &str| Error {
        code: Some(crate::c_api::MTS_INVALID_PARAMETER_ERROR),
        message: format!("the path {} {problem}", path.display()),
    };
    let path = path.to_str().ok_or_else(|| invalid("is not valid UTF-8"))?;
    CString::new(path).map_err(|_| invalid("contains a NUL byte"))
}

/// The `mts_realloc_buffer_t` of the saves to a buffer: `user_data` is the `Vec<u8>` being
/// written, grown to `new_size` bytes. A panic (out of memory) gives NULL, which the library
/// reports as a failure of the save.
unsafe extern "C" fn realloc_vec(user_data: *mut c_void, _ptr: *mut u8, new_size: usize) -> *mut u8 {
    let mut grown = std::ptr::null_mut();
    let status = crate::errors::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: the saves below pass their &mut Vec<u8> as user_data, borrowed for the call
        let vector = unsafe { &mut *user_data.cast::<Vec<u8>>() };
        vector.resize(new_size, 0);
        grown = vector.as_mut_ptr();
        Ok(())
    }));
    if status == MTS_SUCCESS { grown } else { std::ptr::null_mut() }
}

/// Runs a save into `buffer`, which the library grows through `realloc_vec`, then cuts the
/// vector to the bytes written.
fn save_to_vec(
    buffer: &mut Vec<u8>, save: impl FnOnce(*mut *mut u8, *mut usize, *mut c_void) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut pointer = buffer.as_mut_ptr();
    let mut count = buffer.len();
    save(&mut pointer, &mut count, std::ptr::from_mut(buffer).cast())?;
    buffer.truncate(count);
    Ok(())
}

/// The `mts_create_array_callback_t` of the loads that do not name another: every array is
/// an `ndarray` array of the element type `dtype` names, zero-filled.
///
/// # Safety
///
/// `shape` must hold `shape_count` sizes (or be NULL when it is 0), and `array` must be
/// valid for a write; the C library, its only caller, guarantees both.
pub unsafe extern "C" fn create_ndarray(
    shape: *const usize, shape_count: usize, dtype: DLDataType, array: *mut mts_array_t,
) -> mts_status_t {
    crate::errors::catch_unwind(|| {
        if array.is_null() || (shape.is_null() && shape_count != 0) {
            return Err(Error {
                code: Some(crate::c_api::MTS_INVALID_PARAMETER_ERROR),
                message: "create_ndarray got a NULL pointer".into(),
            });
        }
        let shape = if shape_count == 0 {
            &[]
        } else {
            // SAFETY: shape holds shape_count sizes (the caller's contract)
            unsafe { std::slice::from_raw_parts(shape, shape_count) }
        };
        let created = dispatch(dtype, Zeros(shape))?;
        // SAFETY: array is valid for a write (the caller's contract)
        unsafe { array.write(created.into_raw()) };
        Ok(())
    })
}

/// Makes a zero-filled (default-filled) `ndarray` array of the given shape.
struct Zeros<'a>(&'a [usize]);

impl ElementVisitor for Zeros<'_> {
    type Output = MtsArray;

    fn visit<T: crate::data::ndarray_array::Element>(self) -> MtsArray {
        MtsArray::from(ndarray::ArrayD::<T>::default(self.0))
    }
}
