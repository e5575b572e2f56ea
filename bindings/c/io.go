package main

// #include "mtsgo.h"
import "C"

import (
	"unicode/utf8"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The twelve load and save functions: C arguments become core sources and sinks here; the
// format itself lives in internal/core.

func implLabelsLoad(path *C.char) (*C.struct_mts_labels_t, error) {
	name, err := pathFromC(path)
	if err != nil {
		return nil, err
	}
	labels, err := core.LoadLabelsFile(name)
	if err != nil {
		return nil, err
	}
	return adoptLabels(labels, nil), nil
}

func implLabelsLoadBuffer(buffer *C.uint8_t, count C.uintptr_t) (*C.struct_mts_labels_t, error) {
	labels, err := core.LoadLabelsBuffer(bytesFromC(buffer, count))
	if err != nil {
		return nil, err
	}
	return adoptLabels(labels, nil), nil
}

func implLabelsSave(path *C.char, record *C.struct_mts_labels_t) error {
	name, err := pathFromC(path)
	if err != nil {
		return err
	}
	object, err := labelsOf(record)
	if err != nil {
		return err
	}
	return core.SaveLabelsFile(name, object.labels)
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

func implBlockLoad(path *C.char, create C.mts_create_array_callback_t) (*C.struct_mts_block_t, error) {
	name, err := pathFromC(path)
	if err != nil {
		return nil, err
	}
	block, err := core.LoadBlockFile(name, createArrayWith(create))
	if err != nil {
		return nil, err
	}
	return blockRecordOf(block), nil
}

func implBlockLoadBuffer(buffer *C.uint8_t, count C.uintptr_t, create C.mts_create_array_callback_t) (*C.struct_mts_block_t, error) {
	block, err := core.LoadBlockBuffer(bytesFromC(buffer, count), createArrayWith(create))
	if err != nil {
		return nil, err
	}
	return blockRecordOf(block), nil
}

func implBlockSave(path *C.char, record *C.struct_mts_block_t) error {
	name, err := pathFromC(path)
	if err != nil {
		return err
	}
	block, err := blockOf(record)
	if err != nil {
		return err
	}
	return core.SaveBlockFile(name, block)
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

func implTensormapLoad(path *C.char, create C.mts_create_array_callback_t) (*C.struct_mts_tensormap_t, error) {
	name, err := pathFromC(path)
	if err != nil {
		return nil, err
	}
	tensor, err := core.LoadTensorMapFile(name, createArrayWith(create))
	if err != nil {
		return nil, err
	}
	return newTensorMapRecord(tensor), nil
}

func implTensormapLoadBuffer(buffer *C.uint8_t, count C.uintptr_t, create C.mts_create_array_callback_t) (*C.struct_mts_tensormap_t, error) {
	tensor, err := core.LoadTensorMapBuffer(bytesFromC(buffer, count), createArrayWith(create))
	if err != nil {
		return nil, err
	}
	return newTensorMapRecord(tensor), nil
}

func implTensormapSave(path *C.char, record *C.struct_mts_tensormap_t) error {
	name, err := pathFromC(path)
	if err != nil {
		return err
	}
	object, err := tensorMapOf(record)
	if err != nil {
		return err
	}
	return core.SaveTensorMapFile(name, object.tensor)
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

// pathFromC reads a path, which must be UTF-8 (the reference panics otherwise, hence the status).
func pathFromC(path *C.char) (string, error) {
	name := C.GoString(path)
	if !utf8.ValidString(name) {
		return "", core.Errorf(core.InternalError, "the path is not valid UTF-8")
	}
	return name, nil
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
