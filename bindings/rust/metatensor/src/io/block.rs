//! Saving and loading blocks.

use crate::{Error, TensorBlock, TensorBlockRef};

use super::{c_path, realloc_vec, save_to_vec};

load_functions!(
    TensorBlock,
    "block",
    load_block,
    load_block_custom_array,
    block_load,
    load_block_buffer,
    load_block_buffer_custom_array,
    block_load_buffer,
);

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
