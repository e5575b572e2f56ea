package main

// #include "fastpath.h"
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The Go side of the labels fast paths (fastpath_labels.c): the labels of records made in C.

func init() {
	// From then on, checked labels ask their array's origin first, which the C fast path
	// leaves to Go. C reads the flag, as it must decide without calling into Go.
	core.OnLabelsOriginAsked(func() {
		atomic.StoreInt32((*int32)(unsafe.Pointer(&C.mtsgo_labels_origin_asked)), 1)
	})
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
	// Assumed unique, or checked without entries: only the shape is checked, as at creation,
	// and nothing is read. Checked with entries: the labels take the export C kept, which is
	// not asked again, with the check C made of its rows.
	asked := core.Asked{Shape: shape, HasShape: true}
	checked := record.exported != nil
	if checked {
		asked.Exported = true
		// Once Go made the labels, their export goes back to the record when they go, and is
		// deleted with it (mtsgo_labels_dispose): one call into C instead of three.
		managed := record.exported
		asked.Tensor, asked.ExportError = tensorFromCReleasedBy(managed, func() {
			if atomic.LoadUintptr(recordHandle(record)) != 0 {
				record.exported = managed
			} else {
				deleteTensor(managed)
			}
		})
		asked.Distinct, asked.Sorted = true, record.exported_sorted != 0
		record.exported = nil
	}
	labels, err := core.NewArrayLabelsAsked(names, array, checked, asked)
	if err != nil {
		// C checked the names and the shape as strictly as the core: this is a bug, and the
		// array is gone, so the record must not destroy it again.
		record.array.destroy = nil
		panic(core.Errorf(core.InternalError, "labels made in C are invalid: %v", err))
	}
	handle := newHandle(&labelsObject{labels: labels})
	attachLabelsRecord(record, labels)
	if labels.Array() == core.Array(array) {
		array.labels = record // labels without dimensions have the library's own array
	}
	atomic.StoreUintptr(recordHandle(record), uintptr(handle))
	return handle
}
