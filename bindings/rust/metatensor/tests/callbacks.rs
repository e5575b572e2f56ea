//! Panics and errors of the Rust code the C library calls back (array members, loading
//! callbacks) reach the caller as errors with their message; nothing unwinds through C.

use std::sync::{Arc, RwLock};

use metatensor::c_api::{MTS_CALLBACK_ERROR, mts_array_t, mts_status_t};
use metatensor::{Array, EmptyArray, Labels, MtsArray, TensorBlock, TensorMap};

use dlpk::DLPackTensor;
use dlpk::sys::{DLDataType, DLDevice, DLPackVersion};
use ndarray::ArrayD;

/// An ndarray array whose `create` and `copy` panic, forwarding everything else.
struct Fragile(Arc<RwLock<ArrayD<f64>>>);

impl Array for Fragile {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
    fn create(&self, _shape: &[usize], _fill_value: MtsArray) -> Box<dyn Array> {
        panic!("Fragile::create refuses to work")
    }
    fn copy(&self, _device: DLDevice) -> Box<dyn Array> {
        panic!("Fragile::copy refuses to work")
    }
    fn shape(&self) -> Vec<usize> {
        self.0.shape()
    }
    fn reshape(&mut self, shape: &[usize]) {
        self.0.reshape(shape)
    }
    fn swap_axes(&mut self, axis_1: usize, axis_2: usize) {
        self.0.swap_axes(axis_1, axis_2)
    }
    fn move_data(&mut self, input: &dyn Array, movements: &[metatensor::c_api::mts_data_movement_t]) {
        self.0.move_data(input, movements)
    }
    fn device(&self) -> DLDevice {
        self.0.device()
    }
    fn dtype(&self) -> DLDataType {
        self.0.dtype()
    }
    fn as_dlpack(
        &self, device: DLDevice, stream: Option<i64>, max_version: DLPackVersion,
    ) -> Result<DLPackTensor, metatensor::Error> {
        self.0.as_dlpack(device, stream, max_version)
    }
    fn from_dlpack(&self, tensor: DLPackTensor) -> Result<Box<dyn Array>, metatensor::Error> {
        self.0.from_dlpack(tensor)
    }
}

fn tensor_of(make: impl Fn(Vec<usize>) -> MtsArray) -> TensorMap {
    let block = |key: i32| {
        TensorBlock::new(
            make(vec![2, 1]),
            &Labels::new(["sample"], [[0], [1]]),
            &[],
            &Labels::new(["property"], [[key]]),
        )
        .unwrap()
    };
    TensorMap::new(Labels::new(["key"], [[0], [1]]), vec![block(0), block(1)]).unwrap()
}

#[test]
fn a_panic_in_create_is_the_error_of_the_operation() {
    let tensor = tensor_of(|shape| MtsArray::from(Fragile(Arc::new(RwLock::new(ArrayD::zeros(shape))))));
    let fill = MtsArray::from(ndarray::arr0(0.0));
    let error = tensor.keys_to_properties(&Labels::empty(["key"]), fill, true).unwrap_err();
    assert_eq!(error.message, "Fragile::create refuses to work");
    assert_eq!(error.code, None, "a caught panic has no status of its own");

    let error = tensor.try_clone().unwrap_err();
    assert_eq!(error.message, "Fragile::copy refuses to work");
    // the tensor map is still usable after the failures
    assert_eq!(tensor.keys().count(), 2);
}

#[test]
fn arrays_without_data_refuse_to_move_it() {
    let tensor = tensor_of(|shape| MtsArray::from(EmptyArray::new(shape)));
    let fill = MtsArray::from(ndarray::arr0(0.0));
    let error = tensor.keys_to_samples(&Labels::empty(["key"]), fill, true).unwrap_err();
    assert!(error.message.contains("move_data() for EmptyArray"), "{}", error.message);

    // and nothing else needs the data
    let copy = tensor.try_clone().unwrap();
    assert_eq!(copy.block_by_id(1).values().shape().unwrap(), [2, 1]);
}

/// A `mts_create_array_callback_t` that fails, as a callback must: storing its error.
unsafe extern "C" fn refuse(
    _shape: *const usize, _count: usize, _dtype: DLDataType, _array: *mut mts_array_t,
) -> mts_status_t {
    let message = c"refused by the test".as_ptr();
    // SAFETY: NUL-terminated strings, no data
    let _ = unsafe { metatensor::c_api::mts_set_last_error(message, c"test".as_ptr(), std::ptr::null_mut(), None) };
    MTS_CALLBACK_ERROR
}

#[test]
fn loads_report_the_errors_of_their_callback() {
    let tensor = tensor_of(|shape| MtsArray::from(ArrayD::<f64>::zeros(shape)));
    let mut buffer = Vec::new();
    tensor.save_buffer(&mut buffer).unwrap();

    let error = metatensor::io::load_buffer_custom_array(&buffer, Some(refuse)).unwrap_err();
    assert_eq!(error.code, None, "loads return an object: NULL, without status");
    assert!(error.message.contains("refused by the test"), "{}", error.message);

    // the default callback makes ndarray arrays
    let loaded = metatensor::io::load_buffer_custom_array(&buffer, Some(metatensor::io::create_ndarray)).unwrap();
    let values = loaded.block_by_id(0).values();
    assert_eq!(*values.as_ndarray_lock::<f64>().read().unwrap(), ArrayD::<f64>::zeros(vec![2, 1]));
}

#[test]
fn arrays_of_other_origins_are_not_rust_arrays() {
    // loaded labels hold an array the library made
    let mut buffer = Vec::new();
    Labels::new(["a"], [[1]]).save_buffer(&mut buffer).unwrap();
    let labels = Labels::load_buffer(&buffer).unwrap();
    let values = labels.values();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        values.as_any();
    }));
    let message = *caught.unwrap_err().downcast::<String>().unwrap();
    assert!(message.starts_with("this array was not created as a rust Array"), "{message}");
}
