package main

// #include <stdlib.h>
// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// recordKind tells the object records apart; it is the record's magic number.
type recordKind uint64

const (
	labelsRecord    recordKind = C.MTSGO_LABELS_MAGIC
	blockRecord     recordKind = C.MTSGO_BLOCK_MAGIC
	tensorMapRecord recordKind = C.MTSGO_TENSORMAP_MAGIC
)

func (k recordKind) String() string {
	switch k {
	case labelsRecord:
		return "labels"
	case blockRecord:
		return "block"
	case tensorMapRecord:
		return "tensor map"
	}
	return "object"
}

// newRecord allocates the C record of a Go object: C keeps the record's address, the record
// keeps an objectHandle, so the Go object is never seen by C and stays alive until freeRecord.
func newRecord(kind recordKind, value any) *C.struct_mtsgo_record {
	record := (*C.struct_mtsgo_record)(C.calloc(1, C.size_t(unsafe.Sizeof(C.struct_mtsgo_record{}))))
	if record == nil {
		panic(core.Errorf(core.InternalError, "out of memory allocating a %s record", kind))
	}
	record.magic = C.uint64_t(kind)
	record.handle = C.uintptr_t(newHandle(value))
	return record
}

// lookupRecord gives the Go object behind a record, rejecting pointers to freed records and
// to records of another kind.
func lookupRecord(record *C.struct_mtsgo_record, kind recordKind) (any, error) {
	if recordKind(record.magic) != kind {
		return nil, core.Errorf(core.InvalidParameterError, "this pointer is not a valid %s: it was freed or is of another type", kind)
	}
	return objectHandle(record.handle).Value(), nil
}

// freeRecord drops the handle and releases the record. The magic number is cleared first so
// that a later use of the dangling pointer is likely to be caught by lookupRecord.
func freeRecord(record *C.struct_mtsgo_record, kind recordKind) error {
	if _, err := lookupRecord(record, kind); err != nil {
		return err
	}
	record.magic = C.MTSGO_FREED_MAGIC
	objectHandle(record.handle).Delete()
	C.free(unsafe.Pointer(record))
	return nil
}

// The core tells when an object with a record goes away; the record goes with it.
func init() {
	core.ViewReleased = releaseRecord
}

func releaseRecord(pointer unsafe.Pointer) {
	record := (*C.struct_mtsgo_record)(pointer)
	switch recordKind(record.magic) {
	case labelsRecord:
		disposeLabelsRecord((*C.struct_mts_labels_t)(pointer))
	case blockRecord:
		disposeBlockRecord((*C.struct_mts_block_t)(pointer))
	case tensorMapRecord:
		disposeTensorMapRecord((*C.struct_mts_tensormap_t)(pointer))
	default:
		panic(core.Errorf(core.InternalError, "released a record of unknown kind %#x", uint64(record.magic)))
	}
}
