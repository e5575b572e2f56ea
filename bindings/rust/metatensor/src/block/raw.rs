//! Reading a block through its pointer, for the three block types: the labels of its axes, and
//! its gradients.

use std::ffi::CStr;

use crate::Labels;
use crate::c_api::{MTS_INVALID_PARAMETER_ERROR, mts_block_t};

/// `block`, checked not to be NULL.
///
/// # Panics
///
/// When `block` is NULL.
pub(super) fn not_null<T>(block: *const T) -> *const T {
    assert!(!block.is_null(), "pointer to mts_block_t should not be NULL");
    block
}

/// The gradient of `block` with respect to `parameter`, or None when it has none.
///
/// # Safety
///
/// `block` must be a live block; the gradient lives as long as it.
///
/// # Panics
///
/// When the library fails for another reason than a missing gradient.
pub(super) unsafe fn gradient(block: *mut mts_block_t, parameter: &CStr) -> Option<*mut mts_block_t> {
    let mut gradient = std::ptr::null_mut();
    // SAFETY: block is live (the caller's contract), parameter NUL-terminated, gradient
    // valid for a write
    match unsafe { crate::checked::block_gradient(block, parameter.as_ptr(), &mut gradient) } {
        Ok(()) => Some(gradient),
        // the library reports a missing gradient as an invalid parameter
        Err(error) if error.code == Some(MTS_INVALID_PARAMETER_ERROR) => None,
        Err(error) => panic!("failed to get the gradient from a block: {error:?}"),
    }
}

/// The labels of `axis` of a live block.
///
/// # Panics
///
/// When the block has no such axis.
pub(super) fn labels(block: *const mts_block_t, axis: usize) -> Labels {
    // SAFETY: callers hold a reference to a live block; the result is a new reference to
    // its labels
    let labels = unsafe { crate::checked::block_labels(block, axis) }.expect("failed to get labels");
    // SAFETY: a new labels pointer, which we own
    unsafe { Labels::from_raw(labels) }
}

pub(super) fn samples(block: *const mts_block_t) -> Labels {
    labels(block, 0)
}

pub(super) fn components(block: *const mts_block_t) -> Vec<Labels> {
    (1..dimensions(block) - 1).map(|axis| labels(block, axis)).collect()
}

pub(super) fn properties(block: *const mts_block_t) -> Labels {
    labels(block, dimensions(block) - 1)
}

/// The number of dimensions of the values of a live block.
fn dimensions(block: *const mts_block_t) -> usize {
    let mut array = crate::c_api::mts_array_t::null();
    // SAFETY: callers hold a reference to a live block; the library only reads it here (the
    // pointer is mutable in the C API for the sake of mutable views of the data)
    unsafe { crate::checked::block_data(block.cast_mut(), &mut array) }.expect("failed to get the array for a block");
    // SAFETY: the array is owned by the block, alive while we read its shape
    let values = unsafe { crate::ArrayRef::from_raw(array) };
    values.shape().expect("failed to get the data shape").len()
}
