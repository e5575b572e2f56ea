package main

// #include <stdlib.h>
// #include "fastpath.h"
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// labelsOf gives the Go object behind a labels record, made now for labels that a fast path
// made alone (fastpath_labels.c).
func labelsOf(record *C.struct_mts_labels_t) (*labelsObject, error) {
	handle := objectHandle(atomic.LoadUintptr(recordHandle(record)))
	if handle == 0 {
		handle = materializeLabels(record)
	}
	return handle.Value().(*labelsObject), nil
}

// recordHandle is the address of the handle of a labels record, which C and Go both read: Go
// sets it once (publishHandle) for labels made in C.
func recordHandle(record *C.struct_mts_labels_t) *uintptr {
	return (*uintptr)(unsafe.Pointer(&record.record.handle))
}

// cpuOf reads the CPU values of labels, publishing them to C the first time.
func cpuOf(record *C.struct_mts_labels_t) (*core.Labels, error) {
	object, err := labelsOf(record)
	if err != nil {
		return nil, err
	}
	if cpu := object.labels.CPUIfRead(); cpu != nil && record.values != nil {
		return cpu, nil
	}
	// Read here, or already read by an operation of the core: either way, C may not have the
	// pointer yet.
	cpu, err := object.labels.CPU()
	if err != nil {
		return nil, err
	}
	object.publish(record, cpu)
	return cpu, nil
}

//export mtsgo_labels_read_values
func mtsgo_labels_read_values(record *C.struct_mts_labels_t) (status C.mts_status_t) {
	defer recoverStatus("mts_labels_values_cpu", &status)
	_, err := cpuOf(record)
	return statusOf(err)
}

// labelsFunction names the C function making labels, with or without the uniqueness check.
func labelsFunction(checkUnique C.int) string {
	if checkUnique != 0 {
		return "mts_labels"
	}
	return "mts_labels_assume_unique"
}

// mtsgo_labels_asked is the Go body of mts_labels (checkUnique not 0) and of
// mts_labels_assume_unique, for the cases that their fast paths (fastpath_labels.c) leave to
// Go: before asking the array anything (asked NULL), or after asking what asked holds.
//
//export mtsgo_labels_asked
func mtsgo_labels_asked(names **C.char, count C.uintptr_t, array C.struct_mts_array_t, checkUnique C.int,
	asked *C.struct_mtsgo_asked) (result *C.struct_mts_labels_t) {
	defer recoverObject(labelsFunction(checkUnique), &result)
	known, err := askedOf(asked)
	if err != nil {
		newCArray(array).Destroy()
		recordError(err)
		return nil
	}
	labels, err := newLabels(names, count, array, checkUnique != 0, known)
	if err != nil {
		recordError(err)
		return nil
	}
	return labels
}

// newLabels builds labels from a caller's names and array, going on from what was asked of
// the array already. The array and the tensor in asked are always consumed.
func newLabels(cNames **C.char, count C.uintptr_t, array C.struct_mts_array_t, checkUnique bool,
	asked core.Asked) (*C.struct_mts_labels_t, error) {
	names, err := stringsFromC(cNames, count, "names")
	if err != nil {
		asked.Tensor.Release()
		newCArray(array).Destroy()
		return nil, err
	}
	// The record comes first so that the array lives in it, in C memory, while the core reads.
	record := C.mtsgo_labels_alloc(cNames, count)
	if record == nil {
		asked.Tensor.Release()
		newCArray(array).Destroy()
		panic(core.Errorf(core.InternalError, "out of memory allocating a labels record"))
	}
	record.array = array
	labels, err := core.NewArrayLabelsAsked(names, cArrayAt(&record.array), checkUnique, asked)
	if err != nil {
		C.mtsgo_labels_dispose(record)
		return nil, err
	}
	// Labels without dimensions replaced the caller's array by the library's own.
	_, isC := labels.Array().(*cArray)
	fillLabelsRecord(record, labels, isC, true)
	attachLabelsRecord(record, labels)
	return record, nil
}

func implLabelsPosition(record *C.struct_mts_labels_t, values *C.int32_t, count C.uintptr_t, result *C.int64_t) error {
	object, err := labelsOf(record)
	if err != nil {
		return err
	}
	var row []int32
	if count != 0 {
		row = unsafe.Slice((*int32)(unsafe.Pointer(values)), count)
	}
	if int(count) == object.labels.Size() {
		// Reading through cpuOf publishes the values to C for later values_cpu calls.
		if _, err := cpuOf(record); err != nil {
			return err
		}
	}
	position, err := object.labels.Position(row)
	if err != nil {
		return err
	}
	*result = C.int64_t(position)
	object.publishIndex(record)
	return nil
}
