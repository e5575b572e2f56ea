//! Saving and loading tensor maps.

use crate::c_api::mts_create_array_callback_t;
use crate::{Error, TensorMap};

use super::{c_path, create_ndarray, realloc_vec, save_to_vec};

/// Loads the tensor map saved in the file at `path`, its arrays as `ndarray` arrays.
///
/// The format (`.mts`) is numpy's NPZ: a ZIP archive of uncompressed `.npy` arrays, the keys
/// in `keys.npy`, and each block under `blocks/<index>/`: its values in `values/data.npy`
/// with their samples, components and properties labels beside them, and each gradient under
/// `gradients/<parameter>/`.
pub fn load(path: impl AsRef<std::path::Path>) -> Result<TensorMap, Error> {
    load_custom_array(path, Some(create_ndarray))
}

/// Loads the tensor map saved in the file at `path`, its arrays made by `create_array`.
pub fn load_custom_array(path: impl AsRef<std::path::Path>, create_array: mts_create_array_callback_t) -> Result<TensorMap, Error> {
    let path = c_path(path.as_ref())?;
    // SAFETY: path is NUL-terminated; create_array is a valid callback or None
    let ptr = unsafe { crate::checked::tensormap_load(path.as_ptr(), create_array)? };
    // SAFETY: a new tensor map, which we own
    Ok(unsafe { TensorMap::from_raw(ptr) })
}

/// Loads a tensor map saved in `buffer`, its arrays as `ndarray` arrays.
pub fn load_buffer(buffer: &[u8]) -> Result<TensorMap, Error> {
    load_buffer_custom_array(buffer, Some(create_ndarray))
}

/// Loads a tensor map saved in `buffer`, its arrays made by `create_array`.
pub fn load_buffer_custom_array(buffer: &[u8], create_array: mts_create_array_callback_t) -> Result<TensorMap, Error> {
    // SAFETY: buffer holds buffer.len() bytes; create_array is a valid callback or None
    let ptr = unsafe { crate::checked::tensormap_load_buffer(buffer.as_ptr(), buffer.len(), create_array)? };
    // SAFETY: a new tensor map, which we own
    Ok(unsafe { TensorMap::from_raw(ptr) })
}

/// Saves `tensor` to the file at `path`, replacing it if it exists (`.mts` is the usual
/// extension; the format is described at [`load`]).
pub fn save(path: impl AsRef<std::path::Path>, tensor: &TensorMap) -> Result<(), Error> {
    let path = c_path(path.as_ref())?;
    // SAFETY: path is NUL-terminated, the tensor map live
    unsafe { crate::checked::tensormap_save(path.as_ptr(), tensor.ptr) }
}

/// Saves `tensor` to `buffer`, which grows to fit and holds the saved bytes only.
pub fn save_buffer(tensor: &TensorMap, buffer: &mut Vec<u8>) -> Result<(), Error> {
    save_to_vec(buffer, |pointer, count, vector| {
        // SAFETY: pointer and count describe the vector, which realloc_vec grows; the tensor
        // map is live
        unsafe { crate::checked::tensormap_save_buffer(pointer, count, vector, Some(realloc_vec), tensor.ptr) }
    })
}
