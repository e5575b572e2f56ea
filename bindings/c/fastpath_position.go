package main

// #include "mtsgo.h"
import "C"

import (
	"sync/atomic"
	"unsafe"
)

// publishIndex gives C the hash index of the labels once a lookup in Go built it, so that the
// next lookups stay in C (fastpath_position.c). The slots are Go memory, pinned with the
// values until the record goes (forgetLabelsRecord). Nothing is published before the values
// (C compares wide rows with them) or twice.
func (o *labelsObject) publishIndex(record *C.struct_mts_labels_t) {
	if indexPublished(record) || atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&record.values))) == nil {
		return
	}
	cpu := o.labels.CPUIfRead()
	if cpu == nil {
		return
	}
	table, ok := cpu.IndexTable()
	if !ok || len(table.Slots) == 0 {
		return
	}
	o.pinLock.Lock()
	defer o.pinLock.Unlock()
	if indexPublished(record) {
		return
	}
	o.pinner.Pin(&table.Slots[0])
	o.pinned.Store(true)
	C.mtsgo_labels_publish_index(record, (*C.uint32_t)(unsafe.Pointer(&table.Slots[0])), C.uint64_t(table.Mask),
		C.uint32_t(table.Shift), C.uint32_t(table.PosBits), C.uint32_t(table.PosMask))
}

// indexPublished tells whether the record's index is published already.
func indexPublished(record *C.struct_mts_labels_t) bool {
	return atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&record.index.slots))) != nil
}
