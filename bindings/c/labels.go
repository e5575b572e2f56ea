package main

// #include <stdlib.h>
// #include "mtsgo.h"
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// labelsOf gives the Go object behind a labels record, made now for labels that C made alone
// (mtsgo_c_labels_assume_unique).
func labelsOf(record *C.struct_mts_labels_t) (*labelsObject, error) {
	if recordKind(record.record.magic) != labelsRecord {
		// lookupRecord gives the error.
		_, err := lookupRecord(&record.record, labelsRecord)
		return nil, err
	}
	handle := objectHandle(atomic.LoadUintptr(recordHandle(record)))
	if handle == 0 {
		handle = materializeLabels(record)
	}
	return handle.Value().(*labelsObject), nil
}

func init() {
	// From then on, checked labels ask their array's origin, which mtsgo_c_labels leaves to Go.
	core.OnLabelsOriginAsked(func() {
		atomic.StoreInt32((*int32)(unsafe.Pointer(&C.mtsgo_labels_origin_asked)), 1)
	})
}

// recordHandle is the address of the handle of a labels record, which C and Go both read: Go
// sets it once, atomically, for labels made in C.
func recordHandle(record *C.struct_mts_labels_t) *uintptr {
	return (*uintptr)(unsafe.Pointer(&record.record.handle))
}

// materializing serialises the making of labels for records made in C: rare, and short.
var materializing sync.Mutex

// materializeLabels makes the core labels of a record made in C, which holds valid names and
// an array of a valid shape, and sets its handle.
func materializeLabels(record *C.struct_mts_labels_t) objectHandle {
	materializing.Lock()
	defer materializing.Unlock()
	if handle := objectHandle(atomic.LoadUintptr(recordHandle(record))); handle != 0 {
		return handle // another thread was first
	}
	names := make([]string, record.size)
	for i, name := range unsafe.Slice(record.names, record.size) {
		names[i] = C.GoString(name)
	}
	shape := []uintptr{uintptr(record.count), uintptr(record.size)}
	array := cArrayAt(&record.array)
	var labels *core.ArrayLabels
	var err error
	if record.exported != nil {
		// Checked in C (mtsgo_c_labels): the labels take the export C kept, which is not asked
		// again, and check it again (which also sets the sorted flag).
		asked := core.AskedValues{Exported: true}
		asked.Tensor, asked.ExportError = tensorFromC(record.exported)
		record.exported = nil
		labels, err = core.NewArrayLabelsAsked(names, array, shape, asked)
	} else {
		// Assumed unique, or checked without entries: only the shape is checked, as at
		// creation, and nothing is read.
		labels, err = core.NewArrayLabelsOfShape(names, array, shape, false)
	}
	if err != nil {
		// C checked the names and the shape as strictly as the core: this is a bug, and the
		// array is gone, so the record must not destroy it again.
		record.array.destroy = nil
		panic(core.Errorf(core.InternalError, "labels made in C are invalid: %v", err))
	}
	handle := newHandle(&labelsObject{labels: labels})
	attachLabelsRecord(record, labels)
	atomic.StoreUintptr(recordHandle(record), uintptr(handle))
	return handle
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

// mtsgo_labels_new is the Go body of mts_labels (checkUnique not 0) and of
// mts_labels_assume_unique, for the cases that their C bodies (mtsgo_c_labels,
// mtsgo_c_labels_assume_unique) leave to Go before asking the array anything.
//
//export mtsgo_labels_new
func mtsgo_labels_new(names **C.char, count C.uintptr_t, array C.struct_mts_array_t, checkUnique C.int) (result *C.struct_mts_labels_t) {
	defer recoverObject(labelsFunction(checkUnique), &result)
	labels, err := newLabels(names, count, array, checkUnique != 0, nil, nil)
	if err != nil {
		recordError(err)
		return nil
	}
	return labels
}

// mtsgo_labels_asked is mtsgo_labels_new after the C body asked the array its shape (as the
// array gave it) and maybe more: its device when device is not NULL, then, when exported is
// not 0, its CPU export (managed, which this takes over, NULL when as_dlpack gave none).
//
//export mtsgo_labels_asked
func mtsgo_labels_asked(names **C.char, count C.uintptr_t, array C.struct_mts_array_t, checkUnique C.int,
	shape *C.uintptr_t, dimensions C.uintptr_t, device *C.DLDevice, exported C.int, managed *C.DLManagedTensorVersioned) (result *C.struct_mts_labels_t) {
	defer recoverObject(labelsFunction(checkUnique), &result)
	var asked core.AskedValues
	if device != nil {
		known := deviceFromC(*device)
		asked.Device = &known
	}
	if exported != 0 {
		asked.Exported = true
		asked.Tensor, asked.ExportError = exportedTensor(managed)
	}
	known, err := shapeFromC(shape, dimensions)
	if err != nil {
		asked.Tensor.Release()
		newCArray(array).Destroy()
		recordError(err)
		return nil
	}
	labels, err := newLabels(names, count, array, checkUnique != 0, known, &asked)
	if err != nil {
		recordError(err)
		return nil
	}
	return labels
}

// newLabels builds labels from a caller's names and array, whose shape is asked unless known;
// asked (checked labels only) is what was asked of the array past the shape. The array and
// the tensor in asked are always consumed.
func newLabels(cNames **C.char, count C.uintptr_t, array C.struct_mts_array_t, checkUnique bool, shape []uintptr,
	asked *core.AskedValues) (*C.struct_mts_labels_t, error) {
	names, err := stringsFromC(cNames, count, "names")
	if err != nil {
		if asked != nil {
			asked.Tensor.Release()
		}
		newCArray(array).Destroy()
		return nil, err
	}
	// The record comes first so that the array lives in it, in C memory, while the core reads.
	record := C.mtsgo_labels_alloc(cNames, count)
	if record == nil {
		if asked != nil {
			asked.Tensor.Release()
		}
		newCArray(array).Destroy()
		panic(core.Errorf(core.InternalError, "out of memory allocating a labels record"))
	}
	record.array = array
	var labels *core.ArrayLabels
	switch {
	case shape == nil:
		labels, err = core.NewArrayLabels(names, cArrayAt(&record.array), checkUnique)
	case asked != nil:
		labels, err = core.NewArrayLabelsAsked(names, cArrayAt(&record.array), shape, *asked)
	default:
		labels, err = core.NewArrayLabelsOfShape(names, cArrayAt(&record.array), shape, checkUnique)
	}
	if err != nil {
		C.mtsgo_labels_dispose(record)
		return nil, err
	}
	// Labels without dimensions replaced the caller's array by the library's own.
	_, isC := labels.Array().(*cArray)
	fillLabelsRecord(record, labels, isC)
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
	return nil
}

