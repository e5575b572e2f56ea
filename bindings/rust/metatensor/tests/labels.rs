//! Labels against a plain Rust model of their set operations and lookups.

use std::collections::BTreeMap;

use metatensor::{LabelValue, Labels, LabelsBuilder};

/// Entries of two dimensions from a small deterministic generator, without repeats, in the
/// order of first appearance.
fn entries(seed: u64, count: usize) -> Vec<[i32; 2]> {
    let mut state = seed;
    let mut seen = Vec::new();
    while seen.len() < count {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let entry = [((state >> 33) % 13) as i32, ((state >> 45) % 11) as i32 - 5];
        if !seen.contains(&entry) {
            seen.push(entry);
        }
    }
    seen
}

fn positions(entries: &[[i32; 2]]) -> BTreeMap<[i32; 2], i64> {
    entries.iter().enumerate().map(|(i, &entry)| (entry, i as i64)).collect()
}

fn rows(labels: &Labels) -> Vec<[i32; 2]> {
    labels.iter_fixed_size::<2>().map(|&[a, b]| [a.i32(), b.i32()]).collect()
}

#[test]
fn set_operations_follow_the_model() {
    for seed in 0..20 {
        let first = entries(seed, 6);
        let second = entries(seed + 100, 9);
        let a = Labels::new(["x", "y"], first.clone());
        let b = Labels::new(["x", "y"], second.clone());

        // union: the entries of first, then the new ones of second
        let mut union = first.clone();
        union.extend(second.iter().filter(|entry| !first.contains(entry)));
        let (mut first_map, mut second_map) = (vec![0; first.len()], vec![0; second.len()]);
        let result = a.union(&b, Some(&mut first_map), Some(&mut second_map)).unwrap();
        assert_eq!(rows(&result), union);
        let position = positions(&union);
        assert_eq!(first_map, first.iter().map(|e| position[e]).collect::<Vec<_>>());
        assert_eq!(second_map, second.iter().map(|e| position[e]).collect::<Vec<_>>());

        // difference: the entries of first not in second, mapped or -1
        let difference: Vec<_> = first.iter().copied().filter(|e| !second.contains(e)).collect();
        let mut map = vec![0; first.len()];
        let result = a.difference(&b, Some(&mut map)).unwrap();
        assert_eq!(rows(&result), difference);
        let position = positions(&difference);
        assert_eq!(map, first.iter().map(|e| *position.get(e).unwrap_or(&-1)).collect::<Vec<_>>());

        // intersection: the common entries, every one mapped or -1 on both sides
        let (mut first_map, mut second_map) = (vec![0; first.len()], vec![0; second.len()]);
        let result = a.intersection(&b, Some(&mut first_map), Some(&mut second_map)).unwrap();
        let common = rows(&result);
        assert!(common.iter().all(|e| first.contains(e) && second.contains(e)));
        assert_eq!(common.len(), first.iter().filter(|e| second.contains(e)).count());
        let position = positions(&common);
        assert_eq!(first_map, first.iter().map(|e| *position.get(e).unwrap_or(&-1)).collect::<Vec<_>>());
        assert_eq!(second_map, second.iter().map(|e| *position.get(e).unwrap_or(&-1)).collect::<Vec<_>>());
    }
}

#[test]
fn lookups_follow_the_model() {
    let values = entries(7, 12);
    let labels = Labels::new(["x", "y"], values.clone());
    assert_eq!(labels.count(), 12);
    assert_eq!(labels.size(), 2);
    for (i, entry) in values.iter().enumerate() {
        let entry = [LabelValue::new(entry[0]), LabelValue::new(entry[1])];
        assert_eq!(labels.position(&entry), Some(i));
        assert_eq!(labels[i], entry);
    }
    assert_eq!(labels.position(&[LabelValue::new(100), LabelValue::new(0)]), None);

    // selection on the first dimension: every entry with x == 3 or x == 5, in order
    let selection = Labels::new(["x"], [[3], [5]]);
    let expected: Vec<usize> = (0..values.len()).filter(|&i| values[i][0] == 3 || values[i][0] == 5).collect();
    assert_eq!(labels.select(&selection).unwrap(), expected);
}

#[test]
fn built_and_given_labels_are_equal() {
    let values = entries(3, 10);
    let mut builder = LabelsBuilder::new(vec!["x", "y"]);
    for entry in &values {
        builder.add(entry);
    }
    let built = builder.finish();
    let given = Labels::new(["x", "y"], ndarray::Array2::from_shape_vec((10, 2), values.concat()).unwrap());
    assert_eq!(built, given);
    assert_eq!(built.clone(), given, "clones are equal");
    assert_ne!(built, Labels::new(["x", "z"], values.clone()), "names count");
    assert_ne!(built, Labels::new(["x", "y"], values[..9].to_vec()), "entries count");
}

#[test]
fn labels_are_shared_between_threads() {
    let labels = Labels::new(["x", "y"], entries(11, 50));
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| labels.iter().map(|entry| entry[0].i32() + entry[1].i32()).sum::<i32>()))
            .collect();
        let expected: i32 = labels.values_cpu().iter().map(|v| v.i32()).sum();
        for handle in handles {
            assert_eq!(handle.join().unwrap(), expected);
        }
    });
    // moved to another thread and released there
    let moved = labels.clone();
    std::thread::spawn(move || assert_eq!(moved.count(), 50)).join().unwrap();
}
