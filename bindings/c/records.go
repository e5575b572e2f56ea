package main

// #include <stdlib.h>
// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// recordKind tells the object records apart; it is the record's magic number. The generated
// wrappers only let live records of the right kind through (caller_handles.c).
type recordKind uint64

const (
	labelsRecord    recordKind = C.MTSGO_LABELS_MAGIC
	blockRecord     recordKind = C.MTSGO_BLOCK_MAGIC
	tensorMapRecord recordKind = C.MTSGO_TENSORMAP_MAGIC
)

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
