//! A small CPU array of int32 behind an `mts_array_t`, enough for labels and blocks.

use std::ffi::{CStr, CString};
use std::os::raw::c_void;
use std::ptr;

use dlpk::sys::{
    DLDataType, DLDataTypeCode, DLDevice, DLDeviceType, DLManagedTensorVersioned, DLPackVersion,
    DLTensor,
};
use metatensor_sys::*;

/// The data and shape behind the array's `ptr`.
pub struct I32Array {
    pub shape: Vec<usize>,
    pub data: Vec<i32>,
}

/// What a DLPack export owns: the tensor and the shape it points to.
struct Export {
    tensor: DLManagedTensorVersioned,
    shape: Vec<i64>,
}

/// Makes an owning `mts_array_t` of the given shape and values.
pub fn i32_array(shape: &[usize], data: Vec<i32>) -> mts_array_t {
    assert_eq!(shape.iter().product::<usize>(), data.len());
    let array = Box::new(I32Array {
        shape: shape.to_vec(),
        data,
    });
    let mut raw = mts_array_t::null();
    raw.ptr = Box::into_raw(array).cast();
    raw.origin = Some(origin);
    raw.device = Some(device);
    raw.dtype = Some(dtype);
    raw.as_dlpack = Some(as_dlpack);
    raw.shape = Some(shape_of);
    raw.destroy = Some(destroy);
    raw
}

/// Panics with the message of the last error when `status` is not a success.
pub fn check(status: mts_status_t) {
    if status != MTS_SUCCESS {
        panic!(
            "metatensor call failed with status {status}: {}",
            last_error()
        );
    }
}

/// The message of the last error of this thread.
pub fn last_error() -> String {
    let mut message = ptr::null();
    // SAFETY: the out pointers are valid; origin and data may be NULL
    let status = unsafe { mts_last_error(&mut message, ptr::null_mut(), ptr::null_mut()) };
    assert_eq!(status, MTS_SUCCESS);
    assert!(!message.is_null());
    // SAFETY: mts_last_error gives a NUL-terminated string valid until the next error
    unsafe { CStr::from_ptr(message) }
        .to_str()
        .expect("UTF-8 message")
        .to_owned()
}

/// NUL-terminated copies of names, and the pointers to them.
pub struct Names {
    _owned: Vec<CString>,
    pub pointers: Vec<*const std::os::raw::c_char>,
}

pub fn names(names: &[&str]) -> Names {
    let owned: Vec<CString> = names
        .iter()
        .map(|n| CString::new(*n).expect("no NUL"))
        .collect();
    let pointers = owned.iter().map(|n| n.as_ptr()).collect();
    Names {
        _owned: owned,
        pointers,
    }
}

fn array<'a>(ptr: *const c_void) -> &'a I32Array {
    // SAFETY: every callback of this file gets the ptr that i32_array made from a Box
    unsafe { &*ptr.cast::<I32Array>() }
}

unsafe extern "C" fn origin(_: *const c_void, origin: *mut mts_data_origin_t) -> mts_status_t {
    let name = CString::new("metatensor-sys.tests").expect("no NUL");
    // SAFETY: the library gives a valid out pointer
    unsafe { mts_register_data_origin(name.as_ptr(), origin) }
}

unsafe extern "C" fn device(_: *const c_void, device: *mut DLDevice) -> mts_status_t {
    // SAFETY: the library gives a valid out pointer
    unsafe {
        *device = DLDevice {
            device_type: DLDeviceType::kDLCPU,
            device_id: 0,
        }
    };
    MTS_SUCCESS
}

unsafe extern "C" fn dtype(_: *const c_void, dtype: *mut DLDataType) -> mts_status_t {
    // SAFETY: the library gives a valid out pointer
    unsafe {
        *dtype = DLDataType {
            code: DLDataTypeCode::kDLInt,
            bits: 32,
            lanes: 1,
        }
    };
    MTS_SUCCESS
}

unsafe extern "C" fn shape_of(
    ptr: *const c_void,
    shape: *mut *const usize,
    count: *mut usize,
) -> mts_status_t {
    let array = array(ptr);
    // SAFETY: the library gives valid out pointers; the shape lives as long as the array
    unsafe {
        *shape = array.shape.as_ptr();
        *count = array.shape.len();
    }
    MTS_SUCCESS
}

unsafe extern "C" fn as_dlpack(
    ptr: *mut c_void,
    tensor: *mut *mut DLManagedTensorVersioned,
    _device: DLDevice,
    _stream: *const i64,
    _max_version: DLPackVersion,
) -> mts_status_t {
    let array = array(ptr);
    let mut export = Box::new(Export {
        tensor: DLManagedTensorVersioned {
            version: DLPackVersion { major: 1, minor: 0 },
            manager_ctx: ptr::null_mut(),
            deleter: Some(delete_export),
            flags: 0,
            dl_tensor: DLTensor {
                data: array.data.as_ptr().cast_mut().cast(),
                device: DLDevice {
                    device_type: DLDeviceType::kDLCPU,
                    device_id: 0,
                },
                ndim: array.shape.len() as i32,
                dtype: DLDataType {
                    code: DLDataTypeCode::kDLInt,
                    bits: 32,
                    lanes: 1,
                },
                shape: ptr::null_mut(),
                strides: ptr::null_mut(),
                byte_offset: 0,
            },
        },
        shape: array.shape.iter().map(|&s| s as i64).collect(),
    });
    export.tensor.dl_tensor.shape = export.shape.as_mut_ptr();
    let raw = Box::into_raw(export);
    // SAFETY: raw is a live Box; its first field is the tensor, so the two pointers agree
    unsafe {
        (*raw).tensor.manager_ctx = raw.cast();
        *tensor = &mut (*raw).tensor;
    }
    MTS_SUCCESS
}

unsafe extern "C" fn delete_export(tensor: *mut DLManagedTensorVersioned) {
    // SAFETY: manager_ctx is the Box that as_dlpack leaked, deleted once by the consumer
    drop(unsafe { Box::from_raw((*tensor).manager_ctx.cast::<Export>()) });
}

unsafe extern "C" fn destroy(ptr: *mut c_void) {
    // SAFETY: ptr is the Box that i32_array leaked, destroyed once by the library
    drop(unsafe { Box::from_raw(ptr.cast::<I32Array>()) });
}
