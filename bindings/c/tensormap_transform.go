package main

// #include "mtsgo.h"
import "C"

import (
	"github.com/metatensor-go/metatensor/internal/core"
)

// The operations making a new tensor map from another: moving keys to samples or properties,
// and components to properties.

func implTensormapKeysToProperties(record *C.struct_mts_tensormap_t, keysToMove *C.struct_mts_labels_t,
	fill C.struct_mts_array_t, sortSamples C.bool) (*C.struct_mts_tensormap_t, error) {
	return moveKeys(record, keysToMove, fill, sortSamples, (*core.TensorMap).KeysToProperties)
}

func implTensormapKeysToSamples(record *C.struct_mts_tensormap_t, keysToMove *C.struct_mts_labels_t,
	fill C.struct_mts_array_t, sortSamples C.bool) (*C.struct_mts_tensormap_t, error) {
	return moveKeys(record, keysToMove, fill, sortSamples, (*core.TensorMap).KeysToSamples)
}

// moveKeys runs keys_to_properties or keys_to_samples; the fill value is consumed whatever
// happens.
func moveKeys(record *C.struct_mts_tensormap_t, keysToMove *C.struct_mts_labels_t, fill C.struct_mts_array_t,
	sortSamples C.bool, operation func(*core.TensorMap, *core.ArrayLabels, core.Array, bool) (*core.TensorMap, error),
) (*C.struct_mts_tensormap_t, error) {
	fillValue := arrayFromC(fill)
	object, err := tensorMapOf(record)
	if err != nil {
		fillValue.Destroy()
		return nil, err
	}
	keys, err := labelsOf(keysToMove)
	if err != nil {
		fillValue.Destroy()
		return nil, err
	}
	result, err := operation(object.tensor, keys.labels, fillValue, bool(sortSamples))
	if err != nil {
		return nil, err
	}
	return newTensorMapRecord(result), nil
}

func implTensormapComponentsToProperties(record *C.struct_mts_tensormap_t, dimensions **C.char,
	count C.uintptr_t) (*C.struct_mts_tensormap_t, error) {
	object, err := tensorMapOf(record)
	if err != nil {
		return nil, err
	}
	names, err := stringsFromC(dimensions, count, "dimension")
	if err != nil {
		return nil, err
	}
	result, err := object.tensor.ComponentsToProperties(names)
	if err != nil {
		return nil, err
	}
	return newTensorMapRecord(result), nil
}
