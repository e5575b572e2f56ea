//! The values of C calls that write their result through an out pointer, and the methods
//! made of such calls that several types share.

use std::ffi::{CStr, c_char};

use dlpk::sys::{DLDataType, DLDataTypeCode};

use crate::errors::Error;

/// The `device` and `dtype` methods of a block or tensor map, by the checked calls `$device`
/// and `$dtype` on the live `self.ptr`.
macro_rules! device_and_dtype {
    ($device: ident, $dtype: ident) => {
        /// The device holding the values.
        #[inline]
        pub fn device(&self) -> Result<dlpk::sys::DLDevice, $crate::Error> {
            let initial = dlpk::sys::DLDevice::cpu();
            // SAFETY: self.ptr is live and the out pointer valid for a write
            $crate::out::out(initial, |device| unsafe { $crate::checked::$device(self.ptr, device) })
        }

        /// The type of the values.
        #[inline]
        pub fn dtype(&self) -> Result<dlpk::sys::DLDataType, $crate::Error> {
            let initial = $crate::out::no_dtype();
            // SAFETY: self.ptr is live and the out pointer valid for a write
            $crate::out::out(initial, |dtype| unsafe { $crate::checked::$dtype(self.ptr, dtype) })
        }
    };
}

/// The `load` and `load_buffer` functions of `$type`, calling `io::$load` and
/// `io::$load_buffer`.
macro_rules! load_functions {
    ($type: ident, $load: ident, $load_buffer: ident) => {
        #[doc = concat!("Loads from the file at `path` (see [`crate::io::", stringify!($load), "`]).")]
        pub fn load(path: impl AsRef<std::path::Path>) -> Result<$type, $crate::Error> {
            $crate::io::$load(path)
        }

        #[doc = concat!("Loads from an in-memory `buffer` (see [`crate::io::", stringify!($load_buffer), "`]).")]
        pub fn load_buffer(buffer: &[u8]) -> Result<$type, $crate::Error> {
            $crate::io::$load_buffer(buffer)
        }
    };
}

/// The `save` and `save_buffer` methods, calling `io::$save` and `io::$save_buffer` with
/// `self`.
macro_rules! save_methods {
    ($save: ident, $save_buffer: ident) => {
        #[doc = concat!("Saves to the file at `path` (see [`crate::io::", stringify!($save), "`]).")]
        pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), $crate::Error> {
            $crate::io::$save(path, self)
        }

        #[doc = concat!("Saves to an in-memory `buffer` (see [`crate::io::", stringify!($save_buffer), "`]).")]
        pub fn save_buffer(&self, buffer: &mut Vec<u8>) -> Result<(), $crate::Error> {
            $crate::io::$save_buffer(self, buffer)
        }
    };
}

/// Runs `call` on a pointer to `initial`, and gives the value it wrote there.
pub(crate) fn out<T>(initial: T, call: impl FnOnce(*mut T) -> Result<(), Error>) -> Result<T, Error> {
    let mut value = initial;
    call(&mut value)?;
    Ok(value)
}

/// A placeholder data type for the calls that write one.
pub(crate) fn no_dtype() -> DLDataType {
    DLDataType { code: DLDataTypeCode::kDLFloat, bits: 0, lanes: 0 }
}

/// The `count` strings of a C array of strings, borrowed for `'a`.
///
/// # Safety
///
/// When `count` is not 0, `strings` must point to `count` NUL-terminated UTF-8 strings that
/// stay alive and unchanged for `'a`.
///
/// # Panics
///
/// When a string is not UTF-8.
pub(crate) unsafe fn strings<'a>(strings: *const *const c_char, count: usize) -> Vec<&'a str> {
    if count == 0 {
        return Vec::new();
    }
    // SAFETY: count pointers (the caller's contract)
    let pointers = unsafe { std::slice::from_raw_parts(strings, count) };
    pointers
        .iter()
        // SAFETY: each a NUL-terminated string alive for 'a (the caller's contract)
        .map(|&string| unsafe { CStr::from_ptr(string) }.to_str().expect("invalid UTF-8 string"))
        .collect()
}
