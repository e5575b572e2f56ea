//! Saving and loading tensor maps.
//!
//! The format (`.mts`) is numpy's NPZ: a ZIP archive of uncompressed `.npy` arrays, the keys
//! in `keys.npy`, and each block under `blocks/<index>/`: its values in `values/data.npy`
//! with their samples, components and properties labels beside them, and each gradient under
//! `gradients/<parameter>/`.

use crate::{Error, TensorMap};

use super::{c_path, realloc_vec, save_to_vec};

load_functions!(
    TensorMap,
    "tensor map",
    load,
    load_custom_array,
    tensormap_load,
    load_buffer,
    load_buffer_custom_array,
    tensormap_load_buffer,
);

/// Saves `tensor` to the file at `path`, replacing it if it exists (`.mts` is the usual
/// extension).
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
