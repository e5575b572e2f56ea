//! Saving and loading labels.

use crate::{Error, Labels};

use super::{c_path, realloc_vec, save_to_vec};

/// Loads the labels saved in the file at `path`.
pub fn load_labels(path: impl AsRef<std::path::Path>) -> Result<Labels, Error> {
    let path = c_path(path.as_ref())?;
    // SAFETY: path is NUL-terminated
    let ptr = unsafe { crate::checked::labels_load(path.as_ptr())? };
    // SAFETY: new labels, which we own
    Ok(unsafe { Labels::from_raw(ptr) })
}

/// Loads labels saved in `buffer`.
pub fn load_labels_buffer(buffer: &[u8]) -> Result<Labels, Error> {
    // SAFETY: buffer holds buffer.len() bytes
    let ptr = unsafe { crate::checked::labels_load_buffer(buffer.as_ptr(), buffer.len())? };
    // SAFETY: new labels, which we own
    Ok(unsafe { Labels::from_raw(ptr) })
}

/// Saves `labels` to the file at `path`, replacing it if it exists.
pub fn save_labels(path: impl AsRef<std::path::Path>, labels: &Labels) -> Result<(), Error> {
    let path = c_path(path.as_ref())?;
    // SAFETY: path is NUL-terminated, the labels live
    unsafe { crate::checked::labels_save(path.as_ptr(), labels.as_mts_labels_t()) }
}

/// Saves `labels` to `buffer`, which grows to fit and holds the saved bytes only.
pub fn save_labels_buffer(labels: &Labels, buffer: &mut Vec<u8>) -> Result<(), Error> {
    save_to_vec(buffer, |pointer, count, vector| {
        // SAFETY: pointer and count describe the vector, which realloc_vec grows; the labels
        // are live
        unsafe {
            crate::checked::labels_save_buffer(pointer, count, vector, Some(realloc_vec), labels.as_mts_labels_t())
        }
    })
}
