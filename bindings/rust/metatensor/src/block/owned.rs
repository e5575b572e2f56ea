//! [`TensorBlock`]: a block owned by Rust code.

use std::ffi::CString;

use crate::c_api::mts_block_t;
use crate::{Error, Labels, MtsArray};

use super::TensorBlockRefMut;

/// A block of data: values with labels for each axis (samples, components, properties), and
/// optionally gradients of these values with respect to parameters, blocks themselves.
#[derive(Debug)]
// transparent: TensorMap::new hands a slice of TensorBlock to C as `mts_block_t **`
#[repr(transparent)]
pub struct TensorBlock {
    ptr: *mut mts_block_t,
}

// SAFETY: the library allows using and releasing a block from any thread
unsafe impl Send for TensorBlock {}
// SAFETY: through &TensorBlock the block is only read, which the library allows from several
// threads; changes need &mut
unsafe impl Sync for TensorBlock {}

impl Drop for TensorBlock {
    fn drop(&mut self) {
        // SAFETY: this TensorBlock owns the block (NULL after into_raw or once a tensor map
        // took it, which the library ignores); a failure can not be reported from drop
        let _ = unsafe { crate::checked::block_free(self.ptr) };
    }
}

impl TensorBlock {
    /// Takes ownership of the block `ptr`, which is released when the `TensorBlock` is
    /// dropped.
    ///
    /// # Safety
    ///
    /// `ptr` must be a live block that nothing else owns (not a block inside a tensor map).
    ///
    /// # Panics
    ///
    /// When `ptr` is NULL.
    pub unsafe fn from_raw(ptr: *mut mts_block_t) -> TensorBlock {
        TensorBlock { ptr: super::raw::not_null(ptr).cast_mut() }
    }

    /// Gives up ownership of the block: the caller must release it (with
    /// [`TensorBlock::from_raw`], or `mts_block_free`).
    pub fn into_raw(mut block: TensorBlock) -> *mut mts_block_t {
        std::mem::replace(&mut block.ptr, std::ptr::null_mut())
    }

    /// A mutable reference to this block.
    #[inline]
    pub fn as_ref_mut(&mut self) -> TensorBlockRefMut<'_> {
        // SAFETY: the reference borrows self mutably, so only it uses the block
        unsafe { TensorBlockRefMut::from_raw(self.ptr) }
    }

    block_methods!();

    /// A block of the given `values`, described by `samples`, `components` and
    /// `properties` (one labels per axis of the values), without gradients.
    #[inline]
    pub fn new(
        values: impl Into<MtsArray>, samples: &Labels, components: &[Labels], properties: &Labels,
    ) -> Result<TensorBlock, Error> {
        let components: Vec<_> = components.iter().map(Labels::as_mts_labels_t).collect();
        // SAFETY: the labels are live, components holds components.len() of them, and the
        // array is handed over
        let ptr = unsafe {
            crate::checked::block(
                values.into().into_raw(),
                samples.as_mts_labels_t(),
                components.as_ptr(),
                components.len(),
                properties.as_mts_labels_t(),
            )?
        };
        // SAFETY: a new block, which we own
        Ok(unsafe { TensorBlock::from_raw(ptr) })
    }

    /// Adds `gradient`, the gradient of the values with respect to `parameter`. Its
    /// properties are those of this block, its components those of this block, after any
    /// components of its own. The gradient is consumed, even on failure.
    #[allow(clippy::needless_pass_by_value)]
    #[inline]
    pub fn add_gradient(&mut self, parameter: &str, gradient: TensorBlock) -> Result<(), Error> {
        let parameter = CString::new(parameter).map_err(|_| Error {
            code: Some(crate::c_api::MTS_INVALID_PARAMETER_ERROR),
            message: "the gradient parameter contains a NUL byte".into(),
        })?;
        // the library takes the gradient whatever happens
        let gradient = TensorBlock::into_raw(gradient);
        // SAFETY: both blocks are live, parameter is NUL-terminated, and the gradient is
        // handed over
        unsafe { crate::checked::block_add_gradient(self.ptr, parameter.as_ptr(), gradient) }
    }

    load_functions!(TensorBlock, load_block, load_block_buffer);
}
