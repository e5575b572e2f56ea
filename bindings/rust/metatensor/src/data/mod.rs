//! The arrays metatensor stores: the [`Array`] trait that Rust data implements (with an
//! implementation for `ndarray`, and [`EmptyArray`]), the owned [`MtsArray`] wrapping any
//! `mts_array_t`, and the references [`ArrayRef`] and [`ArrayRefMut`] to arrays owned by
//! labels, blocks and tensor maps.

mod origin;

mod array;
pub use self::array::Array;

mod callbacks;

mod empty;
pub use self::empty::EmptyArray;

pub(crate) mod ndarray_array;

#[macro_use]
mod members;

mod external;
pub use self::external::MtsArray;

mod array_ref;
pub use self::array_ref::{ArrayRef, ArrayRefMut};

pub use dlpk::DLPackTensor;
pub use dlpk::sys::DLPackVersion;
pub use dlpk::sys::{DLDataType, DLDataTypeCode};
pub use dlpk::sys::{DLDevice, DLDeviceType};

pub use metatensor_sys::mts_data_movement_t;
