package main

// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The twelve load and save functions: C arguments become core sources and sinks here; the
// format itself, and the checks of paths, live in internal/core.

func implLabelsLoad(path *C.char) (*C.struct_mts_labels_t, error) {
	return recorded(adoptNewLabels)(core.LoadLabelsFile(C.GoString(path)))
}

func implLabelsLoadBuffer(buffer *C.uint8_t, count C.uintptr_t) (*C.struct_mts_labels_t, error) {
	return recorded(adoptNewLabels)(core.LoadLabelsBuffer(bytesFromC(buffer, count)))
}

func implBlockLoad(path *C.char, create C.mts_create_array_callback_t) (*C.struct_mts_block_t, error) {
	return recorded(blockRecordOf)(core.LoadBlockFile(C.GoString(path), createArrayWith(create)))
}

func implBlockLoadBuffer(buffer *C.uint8_t, count C.uintptr_t, create C.mts_create_array_callback_t) (*C.struct_mts_block_t, error) {
	return recorded(blockRecordOf)(core.LoadBlockBuffer(bytesFromC(buffer, count), createArrayWith(create)))
}

func implTensormapLoad(path *C.char, create C.mts_create_array_callback_t) (*C.struct_mts_tensormap_t, error) {
	return recorded(newTensorMapRecord)(core.LoadTensorMapFile(C.GoString(path), createArrayWith(create)))
}

func implTensormapLoadBuffer(buffer *C.uint8_t, count C.uintptr_t, create C.mts_create_array_callback_t) (*C.struct_mts_tensormap_t, error) {
	return recorded(newTensorMapRecord)(core.LoadTensorMapBuffer(bytesFromC(buffer, count), createArrayWith(create)))
}

func implLabelsSave(path *C.char, record *C.struct_mts_labels_t) error {
	object, err := labelsOf(record)
	if err != nil {
		return err
	}
	return core.SaveLabelsFile(C.GoString(path), object.labels)
}

func implBlockSave(path *C.char, record *C.struct_mts_block_t) error {
	block, err := blockOf(record)
	if err != nil {
		return err
	}
	return core.SaveBlockFile(C.GoString(path), block)
}

func implTensormapSave(path *C.char, record *C.struct_mts_tensormap_t) error {
	object, err := tensorMapOf(record)
	if err != nil {
		return err
	}
	return core.SaveTensorMapFile(C.GoString(path), object.tensor)
}

func implLabelsSaveBuffer(buffer **C.uint8_t, count *C.uintptr_t, userData unsafe.Pointer,
	realloc C.mts_realloc_buffer_t, record *C.struct_mts_labels_t) error {
	object, err := labelsOf(record)
	if err != nil {
		return err
	}
	return saveToBuffer("mts_labels_save_buffer", buffer, count, userData, realloc, func(sink core.SaveSink) error {
		return core.SaveLabels(sink, object.labels)
	})
}

func implBlockSaveBuffer(buffer **C.uint8_t, count *C.uintptr_t, userData unsafe.Pointer,
	realloc C.mts_realloc_buffer_t, record *C.struct_mts_block_t) error {
	block, err := blockOf(record)
	if err != nil {
		return err
	}
	return saveToBuffer("mts_block_save_buffer", buffer, count, userData, realloc, func(sink core.SaveSink) error {
		return core.SaveBlock(sink, block)
	})
}

func implTensormapSaveBuffer(buffer **C.uint8_t, count *C.uintptr_t, userData unsafe.Pointer,
	realloc C.mts_realloc_buffer_t, record *C.struct_mts_tensormap_t) error {
	object, err := tensorMapOf(record)
	if err != nil {
		return err
	}
	return saveToBuffer("mts_tensormap_save_buffer", buffer, count, userData, realloc, func(sink core.SaveSink) error {
		return core.SaveTensorMap(sink, object.tensor)
	})
}

// recorded gives C the record of what a loader returned, or passes its error on.
func recorded[T any, R any](record func(T) R) func(T, error) (R, error) {
	return func(value T, err error) (R, error) {
		if err != nil {
			var none R
			return none, err
		}
		return record(value), nil
	}
}

// adoptNewLabels gives C the record of labels a loader built.
func adoptNewLabels(labels *core.ArrayLabels) *C.struct_mts_labels_t {
	return adoptLabels(labels, nil)
}

// bytesFromC views a caller's buffer, which is only read during the call.
func bytesFromC(buffer *C.uint8_t, count C.uintptr_t) []byte {
	if count == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(buffer)), count)
}

// createArrayWith adapts mts_create_array_callback_t to the core's array factory.
func createArrayWith(callback C.mts_create_array_callback_t) core.CreateArray {
	return func(shape []uintptr, dtype core.DType) (core.Array, error) {
		created, ok := filledBy(func(out *C.struct_mts_array_t) C.mts_status_t {
			return C.mtsgo_call_create_array_callback(callback, sizesToC(shape), C.uintptr_t(len(shape)), dtypeToC(dtype), out)
		})
		if !ok {
			return nil, callbackFailed("failed to create a new array")
		}
		return created, nil
	}
}
