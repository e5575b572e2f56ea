//! Errors of metatensor calls, and how they cross the C API both ways: a failed call becomes
//! an [`Error`] read from `mts_last_error`; an error or a panic inside one of this crate's
//! callbacks is stored with `mts_set_last_error` and reported as `MTS_CALLBACK_ERROR`.

use std::ffi::{CStr, CString, c_char, c_void};

use crate::c_api::{MTS_CALLBACK_ERROR, MTS_SUCCESS, mts_status_t};

pub use metatensor_sys::Error;

/// The origin under which this crate's callbacks store their errors: an error read back with
/// this origin carries the `Error` itself as its data.
const RUST_ERROR_ORIGIN: &CStr = c"Rust Error";

/// Turns a status of the C API into a `Result`, reading the message of a failure from
/// `mts_last_error`.
pub fn check_status(status: mts_status_t) -> Result<(), Error> {
    if status == MTS_SUCCESS { Ok(()) } else { Err(last_error(Some(status))) }
}

/// Turns a pointer returned by the C API into a `Result`: NULL means the call failed, and
/// `mts_last_error` says why.
pub fn check_ptr<T>(ptr: *const T) -> Result<(), Error> {
    if ptr.is_null() { Err(last_error(None)) } else { Ok(()) }
}

/// The error of the last failed call on this thread. An error stored by one of this crate's
/// callbacks comes back as it was stored (the `Error` travels as the record's data), so a
/// panic's message reaches the caller unchanged.
fn last_error(status: Option<mts_status_t>) -> Error {
    let mut message: *const c_char = std::ptr::null();
    let mut origin: *const c_char = std::ptr::null();
    let mut data: *mut c_void = std::ptr::null_mut();
    // SAFETY: the three out pointers are valid for writes
    let read = unsafe { crate::c_api::mts_last_error(&mut message, &mut origin, &mut data) };
    if read != MTS_SUCCESS {
        return Error { code: status, message: "internal error: mts_last_error failed".into() };
    }
    // SAFETY: the library gives NUL-terminated strings (or NULL) that stay valid until the
    // next error on this thread; nothing here records one before we are done with them
    let from_this_crate =
        !data.is_null() && !origin.is_null() && unsafe { CStr::from_ptr(origin) } == RUST_ERROR_ORIGIN;
    if from_this_crate {
        // SAFETY: with this origin, data is the Box<Error> of store_last_error, alive until
        // the record is replaced, which can not happen while we read it on this thread
        let stored = unsafe { &*data.cast::<Error>() }.clone();
        // SAFETY: message is the record's NUL-terminated message (or NULL), copied at once
        let message = unsafe { optional_str(message) }.unwrap_or_default();
        release_stored_error(&message);
        return stored;
    }
    // SAFETY: as for origin above
    let message = unsafe { optional_str(message) };
    Error { code: status, message: message.unwrap_or_else(|| "<no message>".into()) }
}

/// Copies a C string that may be NULL.
///
/// # Safety
///
/// A non-NULL `text` must point to a NUL-terminated string.
unsafe fn optional_str(text: *const c_char) -> Option<String> {
    if text.is_null() {
        return None;
    }
    // SAFETY: the caller gives a NUL-terminated string
    Some(unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned())
}

/// Releases the `Error` stored by `store_last_error`, when the record is replaced.
unsafe extern "C" fn drop_stored_error(data: *mut c_void) {
    if !data.is_null() {
        // SAFETY: data is the Box<Error> that store_last_error leaked, released once
        drop(unsafe { Box::from_raw(data.cast::<Error>()) });
    }
}

/// `message` as a C string, its NUL bytes (which C can not hold) written `\0`.
fn c_message(message: &str) -> CString {
    CString::new(message.replace('\0', "\\0")).expect("no NUL byte is left in the message")
}

/// Replaces the record holding an `Error` of this crate by one with the same message and
/// origin but no data, releasing the `Error`: the library never releases the data of the
/// record a thread holds when it exits, so an error that has been read gives its data back.
fn release_stored_error(message: &str) {
    let message = c_message(message);
    // SAFETY: both strings are NUL-terminated and copied by the library; no data
    let _ = unsafe {
        crate::c_api::mts_set_last_error(message.as_ptr(), RUST_ERROR_ORIGIN.as_ptr(), std::ptr::null_mut(), None)
    };
}

/// Stores `error` as the last error of this thread, for the library to report, and gives
/// the status a failing callback returns. Never panics: it runs at the edge of callbacks.
pub(crate) fn store_last_error(error: Error) -> mts_status_t {
    let message = c_message(&error.message);
    let data = Box::into_raw(Box::new(error));
    // SAFETY: both strings are NUL-terminated and copied by the library; data is handed over
    // with its deleter, which the library calls once when the record is replaced
    let status = unsafe {
        crate::c_api::mts_set_last_error(
            message.as_ptr(),
            RUST_ERROR_ORIGIN.as_ptr(),
            data.cast(),
            Some(drop_stored_error),
        )
    };
    if status != MTS_SUCCESS {
        // the library did not take the error: release it here
        // SAFETY: data was leaked above and the library did not keep it
        unsafe { drop_stored_error(data.cast()) };
    }
    MTS_CALLBACK_ERROR
}

/// Runs the body of a callback, catching both its errors and its panics: they are stored
/// with [`store_last_error`] and turned into `MTS_CALLBACK_ERROR`, since neither may cross
/// the C API.
pub(crate) fn catch_unwind<F>(function: F) -> mts_status_t
where
    F: FnOnce() -> Result<(), Error> + std::panic::UnwindSafe,
{
    match std::panic::catch_unwind(function) {
        Ok(Ok(())) => MTS_SUCCESS,
        Ok(Err(error)) => store_last_error(error),
        Err(payload) => store_last_error(panic_error(payload.as_ref())),
    }
}

/// The error of a caught panic: its message, when the payload is a string.
pub(crate) fn panic_error(payload: &(dyn std::any::Any + Send)) -> Error {
    let message = if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else if let Some(message) = payload.downcast_ref::<&'static str>() {
        (*message).to_owned()
    } else {
        "a callback panicked with a payload that is not a message".to_owned()
    };
    Error { code: None, message }
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn a_stored_error_comes_back_whole() {
        let status = store_last_error(Error {
            code: Some(crate::c_api::MTS_INVALID_PARAMETER_ERROR),
            message: "something went wrong".into(),
        });
        assert_eq!(status, MTS_CALLBACK_ERROR);
        let error = check_status(status).unwrap_err();
        assert_eq!(error.message, "something went wrong");
        assert_eq!(error.code, Some(crate::c_api::MTS_INVALID_PARAMETER_ERROR));
    }

    #[test]
    fn a_panic_becomes_a_callback_error_with_its_message() {
        let status = catch_unwind(|| panic!("the answer is {}", 42));
        assert_eq!(status, MTS_CALLBACK_ERROR);
        let error = check_status(status).unwrap_err();
        assert_eq!(error.message, "the answer is 42");
        assert_eq!(error.code, None);

        let status = catch_unwind(|| std::panic::panic_any(7_u8));
        assert_eq!(status, MTS_CALLBACK_ERROR);
        let error = check_status(status).unwrap_err();
        assert!(error.message.contains("not a message"), "{}", error.message);
    }

    #[test]
    fn success_and_errors_of_callbacks() {
        assert_eq!(catch_unwind(|| Ok(())), MTS_SUCCESS);
        let status = catch_unwind(|| Err(Error { code: None, message: "nul\0byte".into() }));
        let error = check_status(status).unwrap_err();
        assert_eq!(error.message, "nul\0byte", "the stored error is the one returned");
    }

    #[test]
    fn a_read_error_gives_its_data_back() {
        let status = store_last_error(Error { code: None, message: "read me".into() });
        assert_eq!(check_status(status).unwrap_err().message, "read me");
        let (mut message, mut origin, mut data) = (std::ptr::null(), std::ptr::null(), std::ptr::null_mut());
        // SAFETY: valid out pointers
        let _ = unsafe { crate::c_api::mts_last_error(&mut message, &mut origin, &mut data) };
        assert!(data.is_null(), "the stored Error is released once read");
        // SAFETY: the record's strings, read at once
        let (message, origin) = unsafe { (CStr::from_ptr(message), CStr::from_ptr(origin)) };
        assert_eq!((message.to_str().unwrap(), origin), ("read me", RUST_ERROR_ORIGIN));
    }

    #[test]
    fn a_null_pointer_reads_the_library_error() {
        // SAFETY: a NULL path is rejected by the library, which records why
        let labels = unsafe { crate::c_api::mts_labels_load(std::ptr::null()) };
        let error = check_ptr(labels).unwrap_err();
        assert_eq!(error.code, None);
        assert!(error.message.contains("NULL"), "{}", error.message);
    }
}
