//! The raw ABI through the crate's declarations: labels, a block, errors.

mod common;

use std::ffi::CStr;
use std::ptr;

use common::{check, i32_array, last_error, names};
use metatensor_sys::*;

#[test]
fn version_is_the_abi_of_the_crate() {
    // SAFETY: mts_version gives a static NUL-terminated string
    let version = unsafe { CStr::from_ptr(mts_version()) }.to_str().unwrap();
    assert!(version.starts_with("0.2."), "unexpected version {version}");
}

#[test]
fn labels_create_read_free() {
    let dims = names(&["structure", "atom"]);
    let values = i32_array(&[3, 2], vec![0, 1, 0, 2, 1, 0]);
    // SAFETY: two valid names; the array is owned by the labels from now on
    let labels = unsafe { mts_labels(dims.pointers.as_ptr(), 2, values) };
    assert!(!labels.is_null(), "{}", last_error());

    let mut first_names = ptr::null();
    let mut count = 0;
    // SAFETY: labels is live; the out pointers are valid
    check(unsafe { mts_labels_dimensions(labels, &mut first_names, &mut count) });
    assert_eq!(count, 2);
    // SAFETY: count names, each NUL-terminated, owned by the labels
    let second = unsafe { CStr::from_ptr(*first_names.add(1)) };
    assert_eq!(second.to_str().unwrap(), "atom");

    let (mut data, mut entries, mut size) = (ptr::null(), 0, 0);
    // SAFETY: labels is live; the out pointers are valid
    check(unsafe { mts_labels_values_cpu(labels, &mut data, &mut entries, &mut size) });
    assert_eq!((entries, size), (3, 2));
    // SAFETY: entries * size values owned by the labels
    let read = unsafe { std::slice::from_raw_parts(data, entries * size) };
    assert_eq!(read, &[0, 1, 0, 2, 1, 0]);

    let mut position = -2;
    // SAFETY: labels is live; two values for two dimensions
    check(unsafe { mts_labels_position(labels, [1, 0].as_ptr(), 2, &mut position) });
    assert_eq!(position, 2);

    // SAFETY: labels is live and freed once
    check(unsafe { mts_labels_free(labels) });
}

#[test]
fn block_with_its_labels() {
    let samples_names = names(&["sample"]);
    let properties_names = names(&["property"]);
    // SAFETY: valid names; each array belongs to its labels
    let (samples, properties) = unsafe {
        (
            mts_labels(
                samples_names.pointers.as_ptr(),
                1,
                i32_array(&[2, 1], vec![0, 1]),
            ),
            mts_labels(
                properties_names.pointers.as_ptr(),
                1,
                i32_array(&[3, 1], vec![5, 6, 7]),
            ),
        )
    };
    assert!(
        !samples.is_null() && !properties.is_null(),
        "{}",
        last_error()
    );

    let values = i32_array(&[2, 3], vec![1, 2, 3, 4, 5, 6]);
    // SAFETY: the labels are live and only borrowed; the values belong to the block
    let block = unsafe { mts_block(values, samples, ptr::null(), 0, properties) };
    assert!(!block.is_null(), "{}", last_error());

    // SAFETY: block is live; axis 1 is the properties (no components)
    let axis = unsafe { mts_block_labels(block, 1) };
    assert!(!axis.is_null(), "{}", last_error());
    let (mut data, mut entries, mut size) = (ptr::null(), 0, 0);
    // SAFETY: axis is live until freed below
    check(unsafe { mts_labels_values_cpu(axis, &mut data, &mut entries, &mut size) });
    // SAFETY: entries * size values owned by the labels
    assert_eq!(
        unsafe { std::slice::from_raw_parts(data, entries * size) },
        &[5, 6, 7]
    );

    let mut array = mts_array_t::null();
    // SAFETY: block is live; the out array is borrowed from it
    check(unsafe { mts_block_data(block, &mut array) });
    let (mut shape, mut ndim) = (ptr::null(), 0);
    // SAFETY: the block's array is ours, with its shape member set
    check(unsafe { array.shape.unwrap()(array.ptr, &mut shape, &mut ndim) });
    // SAFETY: ndim sizes owned by the array
    assert_eq!(unsafe { std::slice::from_raw_parts(shape, ndim) }, &[2, 3]);

    // SAFETY: each object is live and freed once; the block kept its own references
    unsafe {
        check(mts_labels_free(axis));
        check(mts_block_free(block));
        check(mts_labels_free(samples));
        check(mts_labels_free(properties));
    }
}

#[test]
fn errors_come_back_through_last_error() {
    // SAFETY: NULL names are rejected; the array is destroyed by the failing call
    let labels = unsafe { mts_labels(ptr::null(), 1, i32_array(&[1, 1], vec![0])) };
    assert!(labels.is_null());
    assert_eq!(last_error(), "invalid parameter: names can not be NULL");

    let dims = names(&["a"]);
    // SAFETY: one valid name; the repeated entry is rejected, the array destroyed
    let labels = unsafe { mts_labels(dims.pointers.as_ptr(), 1, i32_array(&[2, 1], vec![4, 4])) };
    assert!(labels.is_null());
    assert!(
        last_error().contains("can not have the same label entry multiple time"),
        "{}",
        last_error()
    );
}

#[test]
fn set_last_error_round_trips() {
    let message = c"from rust";
    let origin = c"tests";
    // SAFETY: valid strings, no data
    let status =
        unsafe { mts_set_last_error(message.as_ptr(), origin.as_ptr(), ptr::null_mut(), None) };
    assert_eq!(status, MTS_SUCCESS);
    let (mut got_message, mut got_origin) = (ptr::null(), ptr::null());
    // SAFETY: valid out pointers
    check(unsafe { mts_last_error(&mut got_message, &mut got_origin, ptr::null_mut()) });
    // SAFETY: strings valid until the next error
    unsafe {
        assert_eq!(CStr::from_ptr(got_message), message);
        assert_eq!(CStr::from_ptr(got_origin), origin);
    }
}
