package main

// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// MakeLabelsValues is the step of core's ArrayLabels.like for a caller's array: new labels
// values in an array of its kind (its from_dlpack), then its device, in one call into C
// (labels_like.c) for values small enough to be copied into their tensor; others take the
// core's steps, one call each.
func (a *cArray) MakeLabelsValues(values []int32, count, size int) (core.Array, core.Device, error) {
	bytes := 4 * len(values)
	if a.raw.from_dlpack == nil || bytes == 0 || bytes > copiedExportBytes {
		return core.MakeLabelsValuesInSteps(a, values, count, size)
	}
	description := C.struct_mtsgo_tensor_export{
		copied: C.size_t(bytes), ndim: 2, device: deviceToC(core.CPU), dtype: dtypeToC(core.Int32),
		flags: C.uint64_t(core.FlagReadOnly), version: versionToC(core.CurrentDLPack),
	}
	result := C.mtsgo_labels_like(a.raw, description, (*C.int32_t)(unsafe.Pointer(&values[0])), C.int64_t(count), C.int64_t(size))
	var err error
	switch result.failed {
	case C.MTSGO_LABELS_LIKE_OK:
		return createdCArray(result.created), deviceFromC(result.device), nil
	case C.MTSGO_LABELS_LIKE_NO_TENSOR:
		return nil, core.Device{}, errTensorMemory
	case C.MTSGO_LABELS_LIKE_NO_ARRAY:
		createdCArray(nil) // panics: out of memory
	case C.MTSGO_LABELS_LIKE_FROM_DLPACK:
		return nil, core.Device{}, failed("from_dlpack")
	case C.MTSGO_LABELS_LIKE_NO_DEVICE_MEMBER:
		err = missing("device")
	default:
		err = failed("device")
	}
	// The array was created, its device not known: it goes, after the error is worded.
	createdCArray(result.created).Destroy()
	return nil, core.Device{}, err
}
