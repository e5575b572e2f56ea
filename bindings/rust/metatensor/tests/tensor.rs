//! Tensor maps: building, reading, changing and saving them, their gradients and info.

use metatensor::{Labels, MtsArray, TensorBlock, TensorMap};
use ndarray::ArrayD;

/// A block of `rows` samples whose values are `offset + sample * 10 + property`, with a
/// gradient of two samples.
fn block(rows: i32, offset: f64) -> TensorBlock {
    let samples = Labels::new(["s"], (0..rows).map(|s| [s]).collect::<Vec<_>>());
    let properties = Labels::new(["p"], [[0], [1], [2]]);
    let values = ArrayD::from_shape_fn(vec![rows as usize, 3], |i| offset + (i[0] * 10 + i[1]) as f64);
    let mut block = TensorBlock::new(values, &samples, &[], &properties).unwrap();
    let gradient = TensorBlock::new(
        ArrayD::from_elem(vec![2, 3, 3], -offset),
        &Labels::new(["sample", "atom"], [[0, 0], [0, 1]]),
        &[Labels::new(["xyz"], [[0], [1], [2]])],
        &properties,
    )
    .unwrap();
    block.add_gradient("positions", gradient).unwrap();
    block
}

fn tensor() -> TensorMap {
    TensorMap::new(Labels::new(["key"], [[1], [2], [3]]), vec![block(2, 0.0), block(3, 100.0), block(1, 200.0)])
        .unwrap()
}

#[test]
fn rejected_blocks_are_released_once() {
    // the library takes and frees the blocks it rejects; the leak and address checks of
    // these tests (make rust-tests-leaks, rust-tests-asan) see a double free or a leak here
    let error = TensorMap::new(Labels::new(["key"], [[1], [2]]), vec![block(2, 0.0)]).unwrap_err();
    assert!(error.message.contains("expected the same number of blocks"), "{}", error.message);
    let mismatched =
        TensorBlock::new(ndarray::arr2(&[[1.0]]), &Labels::new(["other"], [[0]]), &[], &Labels::new(["p"], [[0]]))
            .unwrap();
    assert!(TensorMap::new(Labels::new(["key"], [[1], [2]]), vec![block(2, 0.0), mismatched]).is_err());
}

#[test]
fn blocks_by_position_and_selection() {
    let tensor = tensor();
    assert_eq!(tensor.keys().count(), 3);
    let block = tensor.block(&Labels::new(["key"], [[2]])).unwrap();
    assert_eq!(block.values().shape().unwrap(), [3, 3]);
    let values = block.values().to_ndarray_lock::<f64>().read().unwrap();
    assert_eq!(values[[2, 1]], 121.0);

    let error = tensor.block(&Labels::new(["key"], [[5]])).unwrap_err();
    assert_eq!(error.message, "no blocks matched the selection (key = 5)");
    let gradient = block.gradient("positions").unwrap();
    assert_eq!(gradient.components()[0].names(), ["xyz"]);
    assert!(block.gradient("cell").is_none());
}

#[test]
fn blocks_change_in_place() {
    let mut tensor = tensor();
    for (key, mut block) in &mut tensor {
        let data = block.data_mut();
        let values = data.values.as_ndarray_lock::<f64>();
        values.write().unwrap()[[0, 0]] = f64::from(key[0].i32());
        assert_eq!(data.samples.names(), ["s"]);
        for (parameter, mut gradient) in block.gradients_mut() {
            assert_eq!(parameter, "positions");
            gradient.values_mut().get_ndarray_mut::<f64>().fill(7.0);
        }
    }
    for (key, block) in tensor.iter() {
        let values = block.values().to_ndarray_lock::<f64>().read().unwrap();
        assert_eq!(values[[0, 0]], f64::from(key[0].i32()));
        let gradient = block.gradient("positions").unwrap();
        assert!(gradient.values().to_ndarray_lock::<f64>().read().unwrap().iter().all(|&v| v == 7.0));
    }
}

#[test]
fn keys_to_samples_merges_the_values() {
    let merged = tensor().keys_to_samples(&Labels::empty(["key"]), MtsArray::from(ndarray::arr0(0.0)), false).unwrap();
    assert_eq!(merged.keys(), &Labels::single());
    let block = merged.block_by_id(0);
    assert_eq!(block.samples().names(), ["s", "key"]);
    let values = block.values().to_ndarray_lock::<f64>().read().unwrap();
    // the rows of the three blocks, one after the other
    let rows: Vec<f64> = values.outer_iter().map(|row| row[0]).collect();
    assert_eq!(rows, [0.0, 10.0, 100.0, 110.0, 120.0, 200.0]);
}

#[test]
fn info_and_copies() {
    let mut tensor = tensor();
    tensor.set_info("unit", "eV");
    tensor.set_info("source", "test");
    let info: Vec<_> = tensor.info().collect();
    assert_eq!(info.len(), 2);
    assert!(info.contains(&("unit", "eV")) && info.contains(&("source", "test")));
    assert_eq!(tensor.info().len(), 2);

    let copy = tensor.try_clone().unwrap();
    assert_eq!(copy.get_info("unit"), Some("eV"));
    tensor.block_mut_by_id(0).values_mut().get_ndarray_mut::<f64>().fill(-1.0);
    let values = copy.block_by_id(0).values().to_ndarray_lock::<f64>().read().unwrap().clone();
    assert_eq!(values[[1, 2]], 12.0, "the copy is deep");
}

#[test]
fn save_and_load_every_way() {
    let mut tensor = tensor();
    tensor.set_info("unit", "eV");
    let mut buffer = vec![1, 2, 3];
    tensor.save_buffer(&mut buffer).unwrap();
    let loaded = TensorMap::load_buffer(&buffer).unwrap();
    assert_eq!(loaded.keys(), tensor.keys());
    assert_eq!(loaded.get_info("unit"), Some("eV"));

    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("tensor.mts");
    loaded.save(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), buffer, "files and buffers hold the same bytes");
    let block = TensorMap::load(&path).unwrap().block_by_id(1).try_clone().unwrap();
    let values = block.values().to_ndarray_lock::<f64>().read().unwrap().clone();
    assert_eq!(values[[2, 2]], 122.0);

    let mut buffer = Vec::new();
    block.save_buffer(&mut buffer).unwrap();
    let again = TensorBlock::load_buffer(&buffer).unwrap();
    assert_eq!(again.as_ref().gradient_list(), ["positions"]);

    let missing = TensorMap::load(directory.path().join("missing.mts")).unwrap_err();
    assert!(missing.message.contains("No such file"), "{}", missing.message);
}

#[test]
fn values_keep_their_element_type() {
    let block = TensorBlock::new(
        ndarray::arr2(&[[1_i32, 2], [3, 4]]),
        &Labels::new(["s"], [[0], [1]]),
        &[],
        &Labels::new(["p"], [[0], [1]]),
    )
    .unwrap();
    assert_eq!(block.dtype().unwrap().bits, 32);
    let mut buffer = Vec::new();
    block.save_buffer(&mut buffer).unwrap();
    let loaded = TensorBlock::load_buffer(&buffer).unwrap();
    assert_eq!(*loaded.values().to_ndarray_lock::<i32>().read().unwrap(), ndarray::arr2(&[[1, 2], [3, 4]]).into_dyn());
}

#[cfg(feature = "rayon")]
#[test]
fn parallel_iteration() {
    use rayon::iter::ParallelIterator;
    let mut tensor = tensor();
    tensor.par_iter_mut().for_each(|(key, mut block)| {
        block.values_mut().get_ndarray_mut::<f64>().fill(f64::from(key[0].i32()));
    });
    let sums: f64 =
        tensor.par_iter().map(|(_, block)| block.values().to_ndarray_lock::<f64>().read().unwrap().sum()).sum();
    assert_eq!(sums, 1.0 * 6.0 + 2.0 * 9.0 + 3.0 * 3.0);
}
