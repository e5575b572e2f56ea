//! The [`Array`] implementation of `ndarray`: `Arc<RwLock<ndarray::ArrayD<T>>>`, whose lock
//! lets the data be exported through DLPack (a read lock held by the export) while Rust's
//! rules on shared and mutable access still hold.

use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError};

use dlpk::sys::{DLDataType, DLDataTypeCode, DLDevice, DLPackVersion};
use dlpk::{DLPackPointerCast, DLPackTensor, GetDLPackDataType, ReadOnly};
use ndarray::{ArrayD, ArrayViewD, Axis, Slice};

use crate::c_api::{MTS_INVALID_PARAMETER_ERROR, mts_data_movement_t};
use crate::errors::Error;

use super::{Array, MtsArray};

/// The element types an `ndarray` array stored in metatensor can have.
pub trait Element: 'static + Send + Sync + Clone + Default + GetDLPackDataType + DLPackPointerCast {}

impl<T> Element for T where T: 'static + Send + Sync + Clone + Default + GetDLPackDataType + DLPackPointerCast {}

/// Something to do with the element type a DLPack data type names (see [`dispatch`]).
pub(crate) trait ElementVisitor {
    type Output;
    fn visit<T: Element>(self) -> Self::Output;
}

/// Calls `visitor` with the Rust type of the elements of `dtype`, or fails for a data type
/// without one.
pub(crate) fn dispatch<V: ElementVisitor>(dtype: DLDataType, visitor: V) -> Result<V::Output, Error> {
    use DLDataTypeCode::{kDLBool, kDLComplex, kDLFloat, kDLInt, kDLUInt};
    if dtype.lanes != 1 {
        return Err(invalid(format!("unsupported dtype with {} lanes: only 1 lane is supported", dtype.lanes)));
    }
    let output = match (dtype.code, dtype.bits) {
        (kDLFloat, 16) => visitor.visit::<half::f16>(),
        (kDLFloat, 32) => visitor.visit::<f32>(),
        (kDLFloat, 64) => visitor.visit::<f64>(),
        (kDLInt, 8) => visitor.visit::<i8>(),
        (kDLInt, 16) => visitor.visit::<i16>(),
        (kDLInt, 32) => visitor.visit::<i32>(),
        (kDLInt, 64) => visitor.visit::<i64>(),
        (kDLUInt, 8) => visitor.visit::<u8>(),
        (kDLUInt, 16) => visitor.visit::<u16>(),
        (kDLUInt, 32) => visitor.visit::<u32>(),
        (kDLUInt, 64) => visitor.visit::<u64>(),
        (kDLBool, 8) => visitor.visit::<bool>(),
        (kDLComplex, 64) => visitor.visit::<[f32; 2]>(),
        (kDLComplex, 128) => visitor.visit::<[f64; 2]>(),
        _ => return Err(invalid(format!("unsupported dtype {dtype}"))),
    };
    Ok(output)
}

fn invalid(message: String) -> Error {
    Error { code: Some(MTS_INVALID_PARAMETER_ERROR), message }
}

/// The read lock of an array, failing (rather than waiting) when a writer holds it.
fn read<T>(array: &RwLock<ArrayD<T>>) -> RwLockReadGuard<'_, ArrayD<T>> {
    match array.try_read() {
        Ok(guard) => guard,
        Err(TryLockError::Poisoned(_)) => panic!("array lock is poisoned"),
        Err(TryLockError::WouldBlock) => panic!("array is already locked"),
    }
}

/// The write lock of an array, failing (rather than waiting) when it is in use.
fn write<T>(array: &RwLock<ArrayD<T>>) -> RwLockWriteGuard<'_, ArrayD<T>> {
    match array.try_write() {
        Ok(guard) => guard,
        Err(TryLockError::Poisoned(_)) => panic!("array lock is poisoned"),
        Err(TryLockError::WouldBlock) => panic!("array is already locked"),
    }
}

impl<T: Element, D: ndarray::Dimension> From<ndarray::Array<T, D>> for MtsArray {
    fn from(array: ndarray::Array<T, D>) -> MtsArray {
        MtsArray::from(Arc::new(RwLock::new(array.into_dyn())))
    }
}

/// True when `next` continues the run of `previous`: the next sample on both sides, the same
/// properties.
fn continues(previous: &mts_data_movement_t, next: &mts_data_movement_t) -> bool {
    next.sample_in == previous.sample_in + 1
        && next.sample_out == previous.sample_out + 1
        && next.properties_start_in == previous.properties_start_in
        && next.properties_start_out == previous.properties_start_out
        && next.properties_length == previous.properties_length
}

impl<T: Element> Array for Arc<RwLock<ArrayD<T>>> {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }

    fn create(&self, shape: &[usize], fill_value: MtsArray) -> Box<dyn Array> {
        let cpu = DLDevice::cpu();
        let tensor =
            fill_value.as_dlpack(cpu, None, DLPackVersion::current()).expect("can not read fill_value through DLPack");
        assert_eq!(tensor.device(), cpu, "fill_value must be on the CPU");
        let view: ArrayViewD<'_, T> = tensor.as_ref().try_into().expect("fill_value must have the dtype of the array");
        assert_eq!(view.len(), 1, "fill_value must hold a single value");
        let value = view.iter().next().expect("one value").clone();
        Box::new(Arc::new(RwLock::new(ArrayD::from_elem(shape, value))))
    }

    fn copy(&self, device: DLDevice) -> Box<dyn Array> {
        assert_eq!(device, DLDevice::cpu(), "ndarray arrays can only be copied to the CPU");
        let copy = read(self).clone();
        Box::new(Arc::new(RwLock::new(copy)))
    }

    fn shape(&self) -> Vec<usize> {
        read(self).shape().to_vec()
    }

    fn reshape(&mut self, shape: &[usize]) {
        let mut array = write(self);
        let reshaped = std::mem::take(&mut *array).into_shape_clone(shape).expect("invalid shape");
        *array = reshaped;
    }

    fn swap_axes(&mut self, axis_1: usize, axis_2: usize) {
        write(self).swap_axes(axis_1, axis_2);
    }

    fn move_data(&mut self, input: &dyn Array, movements: &[mts_data_movement_t]) {
        let input = input.as_any().downcast_ref::<Self>().expect("input must be a ndarray of the same type");
        let input = read(input);
        let mut output = write(self);
        assert!(output.ndim() >= 2, "move_data needs arrays with samples and properties");
        let properties = Axis(output.ndim() - 1);
        // consecutive samples with the same properties move as one slice
        let mut start = 0;
        while start < movements.len() {
            let first = &movements[start];
            let mut end = start + 1;
            while end < movements.len() && continues(&movements[end - 1], &movements[end]) {
                end += 1;
            }
            let samples = end - start;
            let length = first.properties_length;
            let from =
                input.slice_axis(Axis(0), Slice::from(first.sample_in..first.sample_in + samples)).slice_axis_move(
                    properties,
                    Slice::from(first.properties_start_in..first.properties_start_in + length),
                );
            output
                .slice_axis_mut(Axis(0), Slice::from(first.sample_out..first.sample_out + samples))
                .slice_axis_mut(
                    properties,
                    Slice::from(first.properties_start_out..first.properties_start_out + length),
                )
                .assign(&from);
            start = end;
        }
    }

    fn device(&self) -> DLDevice {
        DLDevice::cpu()
    }

    fn dtype(&self) -> DLDataType {
        T::get_dlpack_data_type()
    }

    fn as_dlpack(
        &self, device: DLDevice, stream: Option<i64>, max_version: DLPackVersion,
    ) -> Result<DLPackTensor, Error> {
        if stream.is_some() {
            return Err(invalid("CPU arrays can not be used with a stream".into()));
        }
        let supported = DLPackVersion::current();
        if max_version.major != supported.major {
            return Err(invalid(format!(
                "invalid `max_version` in ndarray::ArrayD<T>::as_dlpack: we got v{}.{}, but we support v{}.{}",
                max_version.major, max_version.minor, supported.major, supported.minor
            )));
        }
        if device != DLDevice::cpu() {
            return Err(invalid(format!(
                "Requested DLPack device ({device}) does not match array device ({})",
                DLDevice::cpu()
            )));
        }
        ReadOnly(Arc::clone(self))
            .try_into()
            .map_err(|e| invalid(format!("failed to convert ndarray to DLPack: {e:?}")))
    }

    fn from_dlpack(&self, dl_tensor: DLPackTensor) -> Result<Box<dyn Array>, Error> {
        dispatch(dl_tensor.dtype(), FromDLPack(dl_tensor))?
    }
}

/// Copies a DLPack tensor into a new `ndarray` array of its element type.
struct FromDLPack(DLPackTensor);

impl ElementVisitor for FromDLPack {
    type Output = Result<Box<dyn Array>, Error>;

    fn visit<T: Element>(self) -> Self::Output {
        let array: ArrayD<T> =
            self.0.try_into().map_err(|e| invalid(format!("failed to convert DLPack to ndarray: {e:?}")))?;
        Ok(Box::new(Arc::new(RwLock::new(array))))
    }
}

#[cfg(test)]
mod unit_tests {
    use super::*;
    use crate::c_api::mts_data_movement_t;

    fn movement(
        sample_in: usize, sample_out: usize, start_in: usize, start_out: usize, length: usize,
    ) -> mts_data_movement_t {
        mts_data_movement_t {
            sample_in,
            sample_out,
            properties_start_in: start_in,
            properties_start_out: start_out,
            properties_length: length,
        }
    }

    #[test]
    fn move_data_copies_each_movement() {
        // input[s, c, p] = 100 s + 10 c + p; an independent loop computes the expected output
        let input = ArrayD::from_shape_fn(vec![4, 2, 3], |i| (100 * i[0] + 10 * i[1] + i[2]) as f64);
        let movements = [
            movement(0, 1, 0, 2, 2), // a run of two consecutive samples...
            movement(1, 2, 0, 2, 2),
            movement(3, 0, 1, 0, 1), // ...then two isolated ones
            movement(2, 3, 0, 0, 3),
        ];
        let mut expected = ArrayD::from_elem(vec![4, 2, 5], -1.0);
        for m in &movements {
            for c in 0..2 {
                for p in 0..m.properties_length {
                    expected[[m.sample_out, c, m.properties_start_out + p]] =
                        input[[m.sample_in, c, m.properties_start_in + p]];
                }
            }
        }

        let source = MtsArray::from(input);
        let mut output = MtsArray::from(ArrayD::from_elem(vec![4, 2, 5], -1.0));
        output.move_data(&source, &movements).unwrap();
        assert_eq!(*output.as_ndarray::<f64>(), expected);
    }

    #[test]
    fn move_data_refuses_other_element_types() {
        let source = MtsArray::from(ArrayD::from_elem(vec![1, 1], 1_i32));
        let mut output = MtsArray::from(ArrayD::from_elem(vec![1, 1], 0.0));
        let error = output.move_data(&source, &[movement(0, 0, 0, 0, 1)]).unwrap_err();
        assert!(error.message.contains("same type"), "{}", error.message);
    }

    #[test]
    fn create_takes_the_fill_value_and_checks_it() {
        let array = MtsArray::from(ArrayD::from_elem(vec![2], 0_i16));
        let fill = MtsArray::from(ndarray::arr1(&[7_i16]));
        let created = array.create(&[3, 2], fill.as_ref()).unwrap();
        assert_eq!(*created.as_ndarray::<i16>(), ArrayD::from_elem(vec![3, 2], 7_i16));

        let wrong = MtsArray::from(ndarray::arr0(7.0_f32));
        let error = array.create(&[1], wrong.as_ref()).err().expect("a wrong dtype fails");
        assert!(error.message.contains("dtype"), "{}", error.message);
        let two = MtsArray::from(ndarray::arr1(&[1_i16, 2]));
        let error = array.create(&[1], two.as_ref()).err().expect("two values fail");
        assert!(error.message.contains("single value"), "{}", error.message);
    }

    #[test]
    fn reshape_keeps_the_row_major_order_after_a_swap() {
        let mut array = MtsArray::from(ndarray::arr2(&[[1, 2, 3], [4, 5, 6]]));
        array.swap_axes(0, 1).unwrap();
        array.reshape(&[6]).unwrap();
        assert_eq!(array.as_ndarray::<i32>().as_slice().unwrap(), [1, 4, 2, 5, 3, 6]);
    }

    #[test]
    fn copies_are_independent() {
        let array = MtsArray::from(ndarray::arr1(&[1.0, 2.0]));
        let copy = array.copy(DLDevice::cpu()).unwrap();
        array.as_ref().as_ndarray_lock::<f64>().write().unwrap()[0] = 10.0;
        assert_eq!(copy.as_ndarray::<f64>().as_slice().unwrap(), [1.0, 2.0]);
    }

    #[test]
    fn from_dlpack_for_every_element_type() {
        fn round_trip<T: Element + PartialEq + std::fmt::Debug>(value: T) {
            let array = MtsArray::from(ArrayD::from_elem(vec![2, 1], value.clone()));
            let tensor = array.as_dlpack(DLDevice::cpu(), None, DLPackVersion::current()).unwrap();
            let back = array.from_dlpack(tensor).unwrap();
            assert_eq!(back.dtype().unwrap(), T::get_dlpack_data_type());
            assert_eq!(*back.as_ndarray::<T>(), ArrayD::from_elem(vec![2, 1], value));
        }
        round_trip(half::f16::from_f32(1.5));
        round_trip(2.5_f32);
        round_trip(-3.5_f64);
        round_trip(-8_i8);
        round_trip(-16_i16);
        round_trip(-32_i32);
        round_trip(-64_i64);
        round_trip(8_u8);
        round_trip(16_u16);
        round_trip(32_u32);
        round_trip(64_u64);
        round_trip(true);
        round_trip([1.0_f32, -1.0]);
        round_trip([2.0_f64, -2.0]);
    }
}
