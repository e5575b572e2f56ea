//! [`TensorBlock`]: a block owned by Rust code.

use std::ffi::CString;

use crate::c_api::mts_block_t;
use crate::{ArrayRef, Error, Labels, MtsArray};

use super::{TensorBlockRef, TensorBlockRefMut};

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
        assert!(!ptr.is_null(), "pointer to mts_block_t should not be NULL");
        TensorBlock { ptr }
    }

    /// Gives up ownership of the block: the caller must release it (with
    /// [`TensorBlock::from_raw`], or `mts_block_free`).
    pub fn into_raw(mut block: TensorBlock) -> *mut mts_block_t {
        std::mem::replace(&mut block.ptr, std::ptr::null_mut())
    }

    /// The underlying `mts_block_t`, still owned by this block.
    pub fn as_ptr(&self) -> *const mts_block_t {
        self.ptr
    }

    /// The underlying `mts_block_t`, still owned by this block, to change it.
    pub fn as_mut_ptr(&mut self) -> *mut mts_block_t {
        self.ptr
    }

    /// A reference to this block.
    #[inline]
    pub fn as_ref(&self) -> TensorBlockRef<'_> {
        // SAFETY: the reference borrows self, so the block stays alive and unchanged
        unsafe { TensorBlockRef::from_raw(self.ptr) }
    }

    /// A mutable reference to this block.
    #[inline]
    pub fn as_ref_mut(&mut self) -> TensorBlockRefMut<'_> {
        // SAFETY: the reference borrows self mutably, so only it uses the block
        unsafe { TensorBlockRefMut::from_raw(self.ptr) }
    }

    /// The device holding the values of this block.
    #[inline]
    pub fn device(&self) -> Result<dlpk::sys::DLDevice, Error> {
        self.as_ref().device()
    }

    /// The type of the values of this block.
    #[inline]
    pub fn dtype(&self) -> Result<dlpk::sys::DLDataType, Error> {
        self.as_ref().dtype()
    }

    /// The values of this block.
    #[inline]
    pub fn values(&self) -> ArrayRef<'_> {
        self.as_ref().values()
    }

    /// The samples of this block.
    #[inline]
    pub fn samples(&self) -> Labels {
        self.as_ref().samples()
    }

    /// The components of this block.
    #[inline]
    pub fn components(&self) -> Vec<Labels> {
        self.as_ref().components()
    }

    /// The properties of this block.
    #[inline]
    pub fn properties(&self) -> Labels {
        self.as_ref().properties()
    }

    /// A block of the given `values`, described by `samples`, `components` and
    /// `properties` (one labels per axis of the values), without gradients.
    #[inline]
    pub fn new(values: impl Into<MtsArray>, samples: &Labels, components: &[Labels], properties: &Labels) -> Result<TensorBlock, Error> {
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

    /// Loads a block from the file at `path` (see [`crate::io::load_block`]).
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<TensorBlock, Error> {
        crate::io::load_block(path)
    }

    /// Loads a block from an in-memory `buffer` (see [`crate::io::load_block_buffer`]).
    pub fn load_buffer(buffer: &[u8]) -> Result<TensorBlock, Error> {
        crate::io::load_block_buffer(buffer)
    }

    /// Saves this block to the file at `path` (see [`crate::io::save_block`]).
    pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        self.as_ref().save(path)
    }

    /// Saves this block to an in-memory `buffer` (see [`crate::io::save_block_buffer`]).
    pub fn save_buffer(&self, buffer: &mut Vec<u8>) -> Result<(), Error> {
        self.as_ref().save_buffer(buffer)
    }
}
