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

// madeInC is the Go memory of labels made in C, in one allocation: the adaptor of the values
// array the record holds, the object of the labels' handle, their values' export and shape,
// and the core labels with their checked rows.
type madeInC struct {
	array  cArray
	object labelsObject
	export tensorMemory // the export C kept, for checked labels
	shape  [2]uintptr   // the values' shape, as C asked it
	memory core.LabelsMemory
	// record and exported are the labels' record and the export C kept, which goes back to
	// the record when the labels let it go (ReleaseTensor)
	record   *C.struct_mts_labels_t
	exported *C.DLManagedTensorVersioned
}

// ReleaseTensor gives the export back to the record, which deletes it with itself
// (mtsgo_labels_dispose): one call into C instead of three. Before Go made the labels (they
// failed), it is deleted at once.
func (m *madeInC) ReleaseTensor() {
	if atomic.LoadUintptr(recordHandle(m.record)) != 0 {
		m.record.exported = m.exported
	} else {
		deleteTensor(m.exported)
	}
}

// materializeLabels makes the core labels of a record made in C, which holds valid names (C
// checked them as the core would) and an array of a valid shape, and sets its handle.
func materializeLabels(record *C.struct_mts_labels_t) objectHandle {
	materializing.Lock()
	defer materializing.Unlock()
	if handle := objectHandle(atomic.LoadUintptr(recordHandle(record))); handle != 0 {
		return handle // another thread was first
	}
	// The names live out of the recycled memory, which other labels' names must not share.
	names := namesOf(record.names, int(record.size))
	made := newMadeInC()
	made.array.raw = &record.array
	made.shape = [2]uintptr{uintptr(record.count), uintptr(record.size)}
	made.record = record
	made.object.made = made
	array, shape := &made.array, made.shape[:]
	// Assumed unique, or checked without entries: only the shape is checked, as at creation,
	// and nothing is read. Checked with entries: the labels take the export C kept, which is
	// not asked again, with the check C made of its rows.
	asked := core.Asked{Shape: shape, HasShape: true, Memory: &made.memory, NamesChecked: true, NamesKept: true}
	checked := record.exported != nil
	if checked {
		asked.Exported = true
		made.exported = record.exported
		asked.Tensor, asked.ExportError = tensorFromCInto(made.exported, made, &made.export)
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
	made.object.labels = labels
	handle := newHandle(&made.object)
	attachLabelsRecord(record, labels)
	if labels.Array() == core.Array(array) {
		array.labels = record // labels without dimensions have the library's own array
	}
	publishHandle(recordHandle(record), uintptr(handle))
	return handle
}
