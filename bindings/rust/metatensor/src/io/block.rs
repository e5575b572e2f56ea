//! Saving and loading blocks.

use crate::c_api::mts_create_array_callback_t;
use crate::{Error, TensorBlock, TensorBlockRef};

use super::{c_path, create_ndarray, realloc_vec, save_to_vec};

/// Loads the block saved in the file at `path`, its arrays as `ndarray` arrays.
pub fn load_block(path: impl AsRef<std::path::Path>) -> Result<TensorBlock, Error> {
    load_block_custom_array(path, Some(create_ndarray))
}

/// Loads the block saved in the file at `path`, its arrays made by `create_array`.
pub fn load_block_custom_array(path: impl AsRef<std::path::Path>, create_array: mts_create_array_callback_t) -> Result<TensorBlock, Error> {
    let path = c_path(path.as_ref())?;
    // SAFETY: path is NUL-terminated; create_array is a valid callback or None
    let ptr = unsafe { crate::checked::block_load(path.as_ptr(), create_array)? };
    // SAFETY: a new block, which we own
    Ok(unsafe { TensorBlock::from_raw(ptr) })
}

/// Loads a block saved in `buffer`, its arrays as `ndarray` arrays.
pub fn load_block_buffer(buffer: &[u8]) -> Result<TensorBlock, Error> {
    load_block_buffer_custom_array(buffer, Some(create_ndarray))
}

/// Loads a block saved in `buffer`, its arrays made by `create_array`.
pub fn load_block_buffer_custom_array(buffer: &[u8], create_array: mts_create_array_callback_t) -> Result<TensorBlock, Error> {
    // SAFETY: buffer holds buffer.len() bytes; create_array is a valid callback or None
    let ptr = unsafe { crate::checked::block_load_buffer(buffer.as_ptr(), buffer.len(), create_array)? };
    // SAFETY: a new block, which we own
    Ok(unsafe { TensorBlock::from_raw(ptr) })
}

/// Saves `block` to the file at `path`, replacing it if it exists.
pub fn save_block(path: impl AsRef<std::path::Path>, block: TensorBlockRef<'_>) -> Result<(), Error> {
    let path = c_path(path.as_ref())?;
    // SAFETY: path is NUL-terminated, the block live
    unsafe { crate::checked::block_save(path.as_ptr(), block.as_ptr()) }
}

/// Saves `block` to `buffer`, which grows to fit and holds the saved bytes only.
pub fn save_block_buffer(block: TensorBlockRef<'_>, buffer: &mut Vec<u8>) -> Result<(), Error> {
    save_to_vec(buffer, |pointer, count, vector| {
        // SAFETY: pointer and count describe the vector, which realloc_vec grows; the block
        // is live
        unsafe { crate::checked::block_save_buffer(pointer, count, vector, Some(realloc_vec), block.as_ptr()) }
    })
}
