package main

// #include <stdlib.h>
// #include "mtsgo.h"
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// Labels records and the core's labels share one life. The record's C reference count counts
// the C callers' references (clone and free change it in C alone) and those of blocks made in
// C (MTSGO_REFERENCES, mtsgo.h); while it is above zero, the record holds one reference to the
// core labels. Blocks and tensor maps hold their own core
// references, so labels they use outlive their callers' references, and hand the same record
// out again (mts_block_labels, mts_tensormap_keys). The record goes when the core labels do
// (through the labels' View).

// labelsObject is what the handle of a labels record points to.
type labelsObject struct {
	labels *core.ArrayLabels
	// exported is the library's own values array as C sees it, when the values array is a
	// Go array (labels without dimensions, results built like such labels).
	exported *exportedArray

	pinLock sync.Mutex
	pinner  runtime.Pinner // keeps Go-allocated CPU values where C reads them
	pinned  atomic.Bool    // set once pinner pinned something: most labels never pin

	// made is the memory the object lives in, for labels made in C (madeInC): a tensor map's
	// free recycles it once the labels are gone.
	made *madeInC
}

// fillLabelsRecord completes a record holding the names and, with callerArray, the values
// array as the caller gave it (kept verbatim for mts_labels_values). The record has one C
// reference, holding the labels' reference that the caller of this function gives it. With
// publishValues, CPU values already read are published to C at once; without, C asks for
// them the first time it reads them (mtsgo_labels_read_values): pinning Go memory for C costs
// more than making the rest of the record, and the labels of a block C reads may never be.
func fillLabelsRecord(record *C.struct_mts_labels_t, labels *core.ArrayLabels, callerArray, publishValues bool) {
	object := &labelsObject{labels: labels}
	fillLabelsRecordWith(record, object, callerArray, publishValues)
	record.record.handle = C.uintptr_t(newHandle(object))
}

// fillLabelsRecordWith is fillLabelsRecord for the object of the labels, all but the record's
// handle, which names the object.
func fillLabelsRecordWith(record *C.struct_mts_labels_t, object *labelsObject, callerArray, publishValues bool) {
	labels := object.labels
	record.references = C.MTSGO_CALLER_REFERENCE
	record.size = C.uintptr_t(labels.Size())
	record.count = C.uintptr_t(labels.Count())
	if !callerArray {
		if _, own := labels.Array().(*core.ReadOnlyLabelsValues); own {
			// exported when C first asks for it (mtsgo_labels_export_values): most labels
			// records of the library's own values never are
			record.cpu_values = 1
		} else {
			object.exported = exportArray(labels.Array())
			record.array = object.exported.raw
		}
	}
	if cpu := labels.CPUIfRead(); cpu != nil && publishValues {
		object.publish(record, cpu)
	}
	record.record.magic = C.uint64_t(labelsRecord)
}

// mtsgo_labels_export_values exports the library's own values array of labels (cpu_values)
// into their record, the first time C asks for it (mts_labels_values). The array's ptr is
// stored last: C reads the rest once it sees ptr.
//
//export mtsgo_labels_export_values
func mtsgo_labels_export_values(record *C.struct_mts_labels_t) (status C.mts_status_t) {
	defer recoverStatus("mts_labels_values", &status)
	object, err := labelsOf(record)
	if err != nil {
		return recordError(err)
	}
	ptr := (*unsafe.Pointer)(unsafe.Pointer(&record.array.ptr))
	object.pinLock.Lock()
	defer object.pinLock.Unlock()
	if atomic.LoadPointer(ptr) == nil {
		object.exported = exportArray(object.labels.Array())
		array := object.exported.raw
		array.ptr = nil
		storeOut(&record.array, array)
		atomic.StorePointer(ptr, object.exported.raw.ptr)
	}
	return C.MTS_SUCCESS
}

// attachLabelsRecord makes record the labels' record, which must not have one yet.
func attachLabelsRecord(record *C.struct_mts_labels_t, labels *core.ArrayLabels) {
	if !labels.View().AttachNew(unsafe.Pointer(record)) {
		panic(core.Errorf(core.InternalError, "new labels already have a record"))
	}
}

// publish makes the CPU values visible to C. Values in Go memory are pinned first, as C keeps
// the pointer; values in C memory (a caller's DLPack export) need nothing.
func (o *labelsObject) publish(record *C.struct_mts_labels_t, cpu *core.Labels) {
	values := cpu.Values()
	if len(values) == 0 {
		return
	}
	if o.labels.ValuesInGoMemory() {
		o.pinLock.Lock()
		o.pinner.Pin(&values[0])
		o.pinned.Store(true)
		o.pinLock.Unlock()
	}
	C.mtsgo_labels_publish_values(record, (*C.int32_t)(unsafe.Pointer(&values[0])))
}

// newLabelsRecord allocates and fills the record of labels the core built (publishValues as
// fillLabelsRecord says).
func newLabelsRecord(labels *core.ArrayLabels, publishValues bool) *C.struct_mts_labels_t {
	text, lengths := packStrings(labels.Names())
	record := C.mtsgo_labels_alloc_packed(text, lengths, C.uintptr_t(len(labels.Names())))
	if record == nil {
		panic(core.Errorf(core.InternalError, "out of memory allocating a labels record"))
	}
	object := &labelsObject{labels: labels}
	fillNewLabelsRecord(record, object, publishValues)
	record.record.handle = C.uintptr_t(newHandle(object))
	return record
}

// fillNewLabelsRecord fills a record newLabelsRecord or newLabelsRecords allocated, all but its
// handle: a C values array is kept as the caller gave it.
func fillNewLabelsRecord(record *C.struct_mts_labels_t, object *labelsObject, publishValues bool) {
	values, isC := object.labels.Array().(*cArray)
	if isC {
		record.array = *values.raw
	}
	fillLabelsRecordWith(record, object, isC, publishValues)
}

// newLabelsRecords is newLabelsRecord (values not published) for many labels, into records:
// one call into C allocates them all and one lock of the handles names them all, where the
// first read of the blocks of a loaded map crossed into C and took the lock for each of their
// labels.
func newLabelsRecords(all []*core.ArrayLabels, records []*C.struct_mts_labels_t) {
	if len(all) == 0 {
		return
	}
	sizes := make([]C.uintptr_t, len(all))
	for i, labels := range all {
		sizes[i] = C.uintptr_t(len(labels.Names()))
	}
	text, lengths := packStringLists(len(all), func(i int) []string { return all[i].Names() })
	made := int(C.mtsgo_labels_alloc_packed_many(text, lengths, &sizes[0], C.uintptr_t(len(all)), &records[0]))
	if made != len(all) {
		for _, record := range records[:made] {
			C.mtsgo_labels_dispose(record)
		}
		panic(core.Errorf(core.InternalError, "out of memory allocating %d labels records", len(all)))
	}
	objects := make([]labelsObject, len(all))
	for i, labels := range all {
		objects[i].labels = labels
		fillNewLabelsRecord(records[i], &objects[i], false)
	}
	newHandles(len(all), func(i int) any { return &objects[i] }, func(i int, handle objectHandle) {
		records[i].record.handle = C.uintptr_t(handle)
	})
}

// adoptLabels gives C the record of new labels the core built, taking over the core's
// reference.
func adoptLabels(labels *core.ArrayLabels) *C.struct_mts_labels_t {
	record := newLabelsRecord(labels, true) // new labels: the caller reads them
	attachLabelsRecord(record, labels)
	return record
}

// shareLabels gives C a new reference to labels held by a block or tensor map: their record,
// made the first time. The caller releases it with mts_labels_free.
func shareLabels(labels *core.ArrayLabels) *C.struct_mts_labels_t {
	return referLabels(labels, C.MTSGO_CALLER_REFERENCE)
}

// referLabels gives the record of labels, made the first time, adding reference to its count
// of references: a C caller's (MTSGO_CALLER_REFERENCE) or a record's (1), in one atomic add.
func referLabels(labels *core.ArrayLabels, reference uint64) *C.struct_mts_labels_t {
	for {
		if existing := labels.View().Record(); existing != nil {
			record := (*C.struct_mts_labels_t)(existing)
			if addReference(record, reference) == 0 {
				labels.Retain() // the record holds a reference again
			}
			return record
		}
		labels.Retain()
		record := newLabelsRecord(labels, false) // a block's or map's: maybe never read
		record.references = C.uint64_t(reference)
		if labels.View().Attach(unsafe.Pointer(record)) {
			return record
		}
		// Another thread attached a record first: use that one.
		disposeLabelsRecord(record)
		labels.Release()
	}
}

// maxReferredLabels is the most labels referNewLabels takes at once: half the slots of its
// table of distinct labels.
const maxReferredLabels = 1 << (distinctSlotBits - 1)

// referLabelsAll is referLabels for many labels, each listing adding reference to its
// record's count, into records: the records missing are made together (referNewLabels).
func referLabelsAll(all []*core.ArrayLabels, reference uint64, records []*C.struct_mts_labels_t) {
	missing := false
	for i, labels := range all {
		records[i] = nil
		if labels.View().Record() != nil {
			records[i] = referLabels(labels, reference)
		} else {
			missing = true
		}
	}
	for len(all) > 0 && missing {
		batch := min(len(all), maxReferredLabels)
		referNewLabels(all[:batch], reference, records[:batch])
		all, records = all[batch:], records[batch:]
	}
}

// referNewLabels fills the records referLabelsAll left nil: those of labels without a record,
// made together (newLabelsRecords), one for labels listed more than once. Apart, so that the
// batches of labels that all have records do not clear its tables.
func referNewLabels(all []*core.ArrayLabels, reference uint64, records []*C.struct_mts_labels_t) {
	var distinct distinctLabels
	var fresh [maxReferredLabels]*core.ArrayLabels // the labels without a record, once each
	var listings [maxReferredLabels]uint64         // how many times each of them is listed
	var freshAt [maxReferredLabels]int16           // for each listing: its labels in fresh, or -1
	count := 0
	for i, labels := range all {
		freshAt[i] = -1
		if records[i] != nil {
			continue
		}
		if labels.View().Record() != nil { // made meanwhile
			records[i] = referLabels(labels, reference)
			continue
		}
		k := distinct.number(labels, count)
		if k == count {
			fresh[count] = labels
			count++
		}
		listings[k]++
		freshAt[i] = int16(k)
	}
	var made [maxReferredLabels]*C.struct_mts_labels_t
	newLabelsRecords(fresh[:count], made[:count])
	for k, labels := range fresh[:count] {
		labels.Retain() // the record's reference
		made[k].references = C.uint64_t(listings[k] * reference)
		if !labels.View().Attach(unsafe.Pointer(made[k])) {
			// Another thread attached a record first: use that one.
			disposeLabelsRecord(made[k])
			labels.Release()
			made[k] = referLabels(labels, listings[k]*reference)
		}
	}
	for i, k := range freshAt[:len(all)] {
		if k >= 0 {
			records[i] = made[k]
		}
	}
}

// distinctSlotBits sizes the table of distinctLabels: twice as many slots as a batch has labels.
const distinctSlotBits = 9

// distinctLabels numbers the distinct labels of a batch by their address, in an open
// addressing table.
type distinctLabels struct {
	labels  [1 << distinctSlotBits]*core.ArrayLabels
	numbers [1 << distinctSlotBits]int16
}

// number gives the number of labels: the one given the first time they were seen, else next.
func (d *distinctLabels) number(labels *core.ArrayLabels, next int) int {
	const mask = 1<<distinctSlotBits - 1
	slot := int(uint64(uintptr(unsafe.Pointer(labels))) * 0x9e3779b97f4a7c15 >> (64 - distinctSlotBits))
	for ; ; slot = (slot + 1) & mask {
		switch d.labels[slot] {
		case nil:
			d.labels[slot], d.numbers[slot] = labels, int16(next)
			return next
		case labels:
			return int(d.numbers[slot])
		}
	}
}

// addReference adds a reference to a labels record without a call into C (a C caller's, as
// mtsgo_labels_acquire does, or a record's); it gives the count of references before.
func addReference(record *C.struct_mts_labels_t, reference uint64) uint64 {
	return (atomic.AddUint64((*uint64)(unsafe.Pointer(&record.references)), reference) - reference) & 0xffffffff
}

//export mtsgo_labels_release
func mtsgo_labels_release(record *C.struct_mts_labels_t) (status C.mts_status_t) {
	defer recoverStatus("mts_labels_free", &status)
	object, err := labelsOf(record)
	if err != nil {
		return recordError(err)
	}
	// The last C reference is gone: the record lets go of the labels, which release the
	// record in turn unless a block or tensor map still holds them.
	object.labels.Release()
	return C.MTS_SUCCESS
}

// dropCReferences drops n C references to materialized labels, as n mts_labels_free would:
// the last one lets go of the record's core reference.
func dropCReferences(record *C.struct_mts_labels_t, object *labelsObject, n uint64) {
	dropCReferencesWith(record, object, n, core.DirectRelease{})
}

// dropCReferencesWith is dropCReferences, r releasing the labels when they go.
func dropCReferencesWith(record *C.struct_mts_labels_t, object *labelsObject, n uint64, r core.Releaser) {
	if atomic.AddUint64((*uint64)(unsafe.Pointer(&record.references)), -n)&0xffffffff == 0 {
		object.labels.ReleaseNWith(1, r)
	}
}

// disposeLabelsRecord releases a labels record and everything C-side it holds.
func disposeLabelsRecord(record *C.struct_mts_labels_t) {
	forgetLabelsRecord(record).Delete()
	C.mtsgo_labels_dispose(record)
}

// forgetLabelsRecord does the Go part of disposeLabelsRecord, all but deleting the handle it
// gives: mtsgo_labels_dispose is left to do.
func forgetLabelsRecord(record *C.struct_mts_labels_t) objectHandle {
	handle := objectHandle(record.record.handle)
	object := handle.Value().(*labelsObject)
	record.record.magic = C.MTSGO_FREED_MAGIC
	if object.exported != nil {
		object.exported.release()
	}
	// The record is going: nobody publishes its values any more, so an object that never
	// pinned has nothing to unpin, and skips the lock.
	if object.pinned.Load() {
		object.pinLock.Lock()
		object.pinner.Unpin()
		object.pinLock.Unlock()
	}
	return handle
}
