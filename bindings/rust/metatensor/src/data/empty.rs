//! [`EmptyArray`]: an array with a shape and no data.

use dlpk::DLPackTensor;
use dlpk::sys::{DLDataType, DLDataTypeCode, DLDevice, DLPackVersion};

use crate::c_api::mts_data_movement_t;
use crate::errors::Error;

use super::{Array, MtsArray};

/// An [`Array`] that has a shape but holds no data, for blocks whose values are never read
/// (to describe the metadata of a computation, say). Its data type is `float64`, its device
/// the CPU; the operations that need data (`move_data`, DLPack exchanges) fail.
#[derive(Debug, Clone)]
pub struct EmptyArray {
    shape: Vec<usize>,
}

impl EmptyArray {
    /// An `EmptyArray` of the given shape.
    pub fn new(shape: Vec<usize>) -> EmptyArray {
        EmptyArray { shape }
    }
}

/// The error of the operations an array without data can not do.
fn no_data(operation: &str) -> Error {
    Error {
        code: Some(crate::c_api::MTS_INVALID_PARAMETER_ERROR),
        message: format!("can not call Array::{operation}() for EmptyArray: it holds no data"),
    }
}

impl Array for EmptyArray {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }

    fn create(&self, shape: &[usize], _fill_value: MtsArray) -> Box<dyn Array> {
        Box::new(EmptyArray::new(shape.to_vec()))
    }

    fn copy(&self, device: DLDevice) -> Box<dyn Array> {
        assert_eq!(device, DLDevice::cpu(), "an EmptyArray can only be copied on the CPU");
        Box::new(self.clone())
    }

    fn shape(&self) -> Vec<usize> {
        self.shape.clone()
    }

    fn reshape(&mut self, shape: &[usize]) {
        self.shape = shape.to_vec();
    }

    fn swap_axes(&mut self, axis_1: usize, axis_2: usize) {
        self.shape.swap(axis_1, axis_2);
    }

    fn move_data(&mut self, _input: &dyn Array, _movements: &[mts_data_movement_t]) {
        panic!("{}", no_data("move_data").message);
    }

    fn device(&self) -> DLDevice {
        DLDevice::cpu()
    }

    fn dtype(&self) -> DLDataType {
        DLDataType { code: DLDataTypeCode::kDLFloat, bits: 64, lanes: 1 }
    }

    fn as_dlpack(
        &self, _device: DLDevice, _stream: Option<i64>, _max_version: DLPackVersion,
    ) -> Result<DLPackTensor, Error> {
        Err(no_data("as_dlpack"))
    }

    fn from_dlpack(&self, _dl_tensor: DLPackTensor) -> Result<Box<dyn Array>, Error> {
        Err(no_data("from_dlpack"))
    }
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn only_the_shape_is_kept() {
        let mut array = MtsArray::from(EmptyArray::new(vec![2, 3, 4]));
        assert_eq!(array.shape().unwrap(), [2, 3, 4]);
        array.swap_axes(0, 2).unwrap();
        assert_eq!(array.shape().unwrap(), [4, 3, 2]);
        array.reshape(&[24]).unwrap();
        assert_eq!(array.shape().unwrap(), [24]);
        assert_eq!(array.device().unwrap(), DLDevice::cpu());
        assert_eq!(array.dtype().unwrap().bits, 64);

        let fill = MtsArray::from(ndarray::arr0(1.0));
        let created = array.create(&[5, 1], fill.as_ref()).unwrap();
        assert_eq!(created.shape().unwrap(), [5, 1]);
        assert!(created.as_any().downcast_ref::<EmptyArray>().is_some());
        assert_eq!(array.copy(DLDevice::cpu()).unwrap().shape().unwrap(), [24]);
    }

    #[test]
    fn operations_on_data_fail_with_a_message() {
        let mut array = MtsArray::from(EmptyArray::new(vec![2, 3]));
        let error = array.as_dlpack(DLDevice::cpu(), None, DLPackVersion::current()).unwrap_err();
        assert!(error.message.contains("as_dlpack() for EmptyArray"), "{}", error.message);

        let input = MtsArray::from(EmptyArray::new(vec![2, 3]));
        let error = array.move_data(&input, &[]).unwrap_err();
        assert!(error.message.contains("move_data() for EmptyArray"), "{}", error.message);
    }
}
