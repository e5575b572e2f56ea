//! The [`Array`] trait, and how a Rust array becomes an `mts_array_t`.

use std::sync::LazyLock;

use dlpk::DLPackTensor;
use dlpk::sys::{DLDataType, DLDevice, DLPackVersion};

use crate::c_api::{MTS_SUCCESS, mts_array_t, mts_data_movement_t, mts_data_origin_t};
use crate::errors::Error;

use super::MtsArray;

/// An array of data that metatensor can store in labels, blocks and tensor maps.
///
/// metatensor handles every array as a `Box<dyn Array>` behind an `mts_array_t`, and only
/// through these functions. The functions returning nothing report a failure by panicking:
/// the panic is caught before it reaches the C library, which reports it as an error of the
/// call that needed the array.
pub trait Array: std::any::Any + Send + Sync {
    /// This array as `&dyn Any`, to get back the concrete type.
    fn as_any(&self) -> &dyn std::any::Any;

    /// This array as `&mut dyn Any`, to get back the concrete type.
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;

    /// A new array of the same kind, data type and device as this one, with the given
    /// `shape`, every element set to the single value of `fill_value` (a scalar CPU array of
    /// the same data type).
    fn create(&self, shape: &[usize], fill_value: MtsArray) -> Box<dyn Array>;

    /// A deep copy of this array, of the same kind and data type, on `device`.
    fn copy(&self, device: DLDevice) -> Box<dyn Array>;

    /// The shape of the array (empty for a scalar).
    fn shape(&self) -> Vec<usize>;

    /// Changes the shape of the array, keeping its elements in row-major order.
    fn reshape(&mut self, shape: &[usize]);

    /// Exchanges the axes `axis_1` and `axis_2`.
    fn swap_axes(&mut self, axis_1: usize, axis_2: usize);

    /// Copies data from `input`, an array of the same kind, into this one: for each movement
    /// `m`, the properties `m.properties_start_in..m.properties_start_in +
    /// m.properties_length` of sample `m.sample_in` of the input go to the properties starting
    /// at `m.properties_start_out` of sample `m.sample_out` of this array, for every
    /// component.
    fn move_data(&mut self, input: &dyn Array, movements: &[mts_data_movement_t]);

    /// The device holding the data (`DLDevice::cpu()` for arrays in main memory).
    fn device(&self) -> DLDevice;

    /// The type of the elements.
    fn dtype(&self) -> DLDataType;

    /// Exports the data as a DLPack tensor on `device`, readable by the consumer on
    /// `stream`, in a DLPack version no newer than `max_version`.
    fn as_dlpack(
        &self, device: DLDevice, stream: Option<i64>, max_version: DLPackVersion,
    ) -> Result<DLPackTensor, Error>;

    /// A new array of the same kind as this one, taking the data of `dl_tensor`.
    #[allow(clippy::wrong_self_convention)]
    fn from_dlpack(&self, dl_tensor: DLPackTensor) -> Result<Box<dyn Array>, Error>;
}

/// What the `ptr` of an `mts_array_t` made by this crate points to: the array, and its shape
/// as the C library reads it (a pointer into this vector must stay valid between calls).
pub(super) struct RustArray {
    pub(super) inner: Box<dyn Array>,
    pub(super) shape: Vec<usize>,
}

/// The origin of every array this crate makes, registered on first use.
pub(super) static RUST_DATA_ORIGIN: LazyLock<mts_data_origin_t> =
    LazyLock::new(|| super::origin::register_data_origin("RustArray").expect("can not register the RustArray origin"));

impl From<Box<dyn Array>> for MtsArray {
    fn from(array: Box<dyn Array>) -> MtsArray {
        let shape = array.shape();
        let ptr = Box::into_raw(Box::new(RustArray { inner: array, shape }));
        MtsArray::from_raw(super::callbacks::rust_array_vtable(ptr.cast()))
    }
}

impl<T: Array> From<T> for MtsArray {
    fn from(array: T) -> MtsArray {
        MtsArray::from(Box::new(array) as Box<dyn Array>)
    }
}

/// The Rust array behind `array`; when this crate did not make it, the panic message saying
/// so.
///
/// # Safety
///
/// `array` must be a live array (a NULL `origin` member counts as "not this crate's").
pub(super) unsafe fn rust_array_ptr(array: &mts_array_t) -> Result<*mut RustArray, String> {
    let mut origin = 0;
    let known = match array.origin {
        // SAFETY: array is alive (the caller's contract) and origin valid for a write
        Some(origin_of) => (unsafe { origin_of(array.ptr, &mut origin) }) == MTS_SUCCESS,
        None => false,
    };
    if known && origin == *RUST_DATA_ORIGIN && !array.ptr.is_null() {
        // arrays of this origin come from From<Box<dyn Array>> above: ptr is a RustArray
        return Ok(array.ptr.cast());
    }
    let name = if known {
        super::origin::get_data_origin(origin).unwrap_or_else(|_| "unknown".into())
    } else {
        "unknown".into()
    };
    Err(format!("this array was not created as a rust Array (origin is '{name}')"))
}
