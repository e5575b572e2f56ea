package main

// #include <stdlib.h>
// #include "fastpath.h"
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The Go side of the reads fast path (fastpath_reads.c) for the blocks Go holds: the results
// of operations, loaded maps, blocks Go made otherwise. Their records publish what C needs to
// answer mts_block_labels and mts_block_data (a view of the block), and the record of a
// tensor map Go made lists the records of its blocks that mts_tensormap_block_by_id gave
// (its views), so that reading such a map crosses into Go once per block instead of once per
// call. A view holds one C reference to each of the block's labels, dropped with the record
// (dropBlockView): mts_labels_free of the labels C gave then never drops the last one, which
// would call Go to let go of the labels.

// publishBlockView publishes the view of a block Go holds in its record, once; it tells
// whether the record now describes the block. Blocks whose records lend, or that Go never saw,
// are read from the record already (c_block); blocks with more components than a record holds,
// or with values Go made (no C array to hand out), have no view.
func publishBlockView(record *C.struct_mts_block_t, block *core.Block) bool {
	if state := atomic.LoadInt32((*int32)(unsafe.Pointer(&record.published))); state != 0 {
		return state > 0
	}
	listsLock.Lock()
	defer listsLock.Unlock()
	return publishBlockViewLocked(record, block)
}

// publishBlockViewLocked is publishBlockView under listsLock.
func publishBlockViewLocked(record *C.struct_mts_block_t, block *core.Block) bool {
	if state := atomic.LoadInt32((*int32)(unsafe.Pointer(&record.published))); state != 0 {
		return state > 0 // another thread published it
	}
	if !viewable(record, block) {
		return false
	}
	var list [C.MTSGO_FASTPATH_BLOCK_COMPONENTS + 2]*core.ArrayLabels
	var buffer [len(list)]*C.struct_mts_labels_t
	held := buffer[:0]
	for _, labels := range appendViewLabels(list[:0], block) {
		held = append(held, holdLabels(labels))
	}
	setView(record, block, held)
	return true
}

// viewable tells whether a block's record, not published yet, can describe the block: not
// while it lends (read from the record, c_block), and never (published set to -1) with more
// components than a record holds or values Go made.
func viewable(record *C.struct_mts_block_t, block *core.Block) bool {
	if record.lent != 0 {
		return false
	}
	if len(block.Components()) > C.MTSGO_FASTPATH_BLOCK_COMPONENTS || arrayGiven(block.Values()) == nil {
		atomic.StoreInt32((*int32)(unsafe.Pointer(&record.published)), -1)
		return false
	}
	return true
}

// appendViewLabels appends the labels a block's view holds, in the order setView takes their
// records: samples, components, properties.
func appendViewLabels(list []*core.ArrayLabels, block *core.Block) []*core.ArrayLabels {
	list = append(list, block.Samples())
	list = append(list, block.Components()...)
	return append(list, block.Properties())
}

// setView publishes the view of a viewable block in its record, labels the records of the
// block's labels (appendViewLabels), each holding a reference for the view.
func setView(record *C.struct_mts_block_t, block *core.Block, labels []*C.struct_mts_labels_t) {
	components := len(block.Components())
	record.samples = labels[0]
	for i := range components {
		record.components[i] = labels[1+i]
	}
	record.components_count = C.uintptr_t(components)
	record.properties = labels[components+1]
	if raw := arrayGiven(block.Values()); raw != &record.values {
		// (the record of a block made in C holds the array itself)
		view, _ := arrayView(block.Values()) // viewable: given through C
		storeOut(&record.values, view)
	}
	atomic.StoreInt32((*int32)(unsafe.Pointer(&record.published)), 1)
}

// holdLabels gives the record of labels, as shareLabels does, with a reference that is not a
// C caller's (as a block made in C holds): no mts_labels_free may drop it.
func holdLabels(labels *core.ArrayLabels) *C.struct_mts_labels_t {
	return referLabels(labels, 1)
}

// dropBlockView lets go of the labels references of a record's view, r releasing the labels
// that go with them, before the record goes.
func dropBlockView(record *C.struct_mts_block_t, r core.Releaser) {
	if atomic.LoadInt32((*int32)(unsafe.Pointer(&record.published))) <= 0 {
		return
	}
	var buffer recordLabelsBuffer
	for _, labels := range recordLabels(record, &buffer) {
		if object, err := labelsOf(labels); err == nil { // the view's reference keeps them alive
			dropCReferencesWith(labels, object, 1, r)
		}
	}
	forgetRecordLabels(record)
	record.published = 0
}

// mtsgo_block_publish publishes the view of a block Go holds (publishBlockView), for the
// reads fast path: 1 when C can read the block, else 0 (the caller then goes to the Go body,
// which reports any error).
//
//export mtsgo_block_publish
func mtsgo_block_publish(record *C.struct_mts_block_t) (published C.int) {
	defer func() {
		if recover() != nil {
			published = 0
		}
	}()
	block, err := blockOf(record)
	if err != nil || !publishBlockView(record, block) {
		return 0
	}
	return 1
}

// mtsgo_tensormap_block_view is mts_tensormap_block_by_id for the reads fast path, when the
// record of the tensor map does not list the block yet: the Go body's answer, then the
// block's view published and, for a tensor map Go made, its record listed in the tensor map's
// views.
//
//export mtsgo_tensormap_block_view
func mtsgo_tensormap_block_view(tensor *C.struct_mts_tensormap_t, block **C.struct_mts_block_t, index C.uintptr_t) (status C.mts_status_t) {
	if status = mtsgo_tensormap_block_by_id(tensor, block, index); status != C.MTS_SUCCESS {
		return status
	}
	defer recoverStatus("mts_tensormap_block_by_id", &status)
	record := *block
	if found, err := blockOf(record); err == nil {
		publishBlockView(record, found)
	}
	if tensor.blocks_count == 0 {
		if object, err := tensorMapOf(tensor); err == nil {
			blocks := object.tensor.Blocks()
			listBlockView(tensor, len(blocks), int(index), record)
			publishAhead(tensor, blocks, int(index)+1)
		}
	}
	return C.MTS_SUCCESS
}

// readAhead is how many of the blocks after the one asked publishAhead lists at once: a code
// reading every block then enters Go once per readAhead blocks, and one reading a single block
// of a large map pays for at most readAhead more.
const readAhead = 32

// publishAhead publishes the views of the blocks of a tensor map Go made from index from on,
// up to readAhead of them, and lists them in the record of the tensor map: the records the
// blocks lack are made together (blockRecordsOf).
func publishAhead(tensor *C.struct_mts_tensormap_t, blocks []*core.Block, from int) {
	views := atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&tensor.views)))
	if views == nil {
		return
	}
	var wanted [readAhead]*core.Block
	var at [readAhead]int
	count := 0
	for i := from; i < len(blocks) && i < from+readAhead; i++ {
		if atomic.LoadPointer(viewSlot(views, i)) == nil {
			wanted[count], at[count] = blocks[i], i
			count++
		}
	}
	var records [readAhead]*C.struct_mts_block_t
	blockRecordsOf(wanted[:count], records[:count])
	listsLock.Lock()
	defer listsLock.Unlock()
	// The views to publish, and the records of all their labels made together.
	ahead := &publishingAhead
	for k, record := range records[:count] {
		record.held = 1 // as borrowedBlockRecord: the tensor map's block
		if atomic.LoadInt32((*int32)(unsafe.Pointer(&record.published))) == 0 && viewable(record, wanted[k]) {
			ahead.viewed = append(ahead.viewed, k)
			ahead.labels = appendViewLabels(ahead.labels, wanted[k])
		}
	}
	held := ahead.held[:len(ahead.labels)]
	referLabelsAll(ahead.labels, 1, held)
	for _, k := range ahead.viewed {
		own := len(wanted[k].Components()) + 2
		setView(records[k], wanted[k], held[:own])
		held = held[own:]
	}
	clear(ahead.labels) // keeps no labels alive
	ahead.labels, ahead.viewed = ahead.labels[:0], ahead.viewed[:0]
	for k, record := range records[:count] {
		listBlockView(tensor, len(blocks), at[k], record)
	}
}

// publishingAhead is the room publishAhead works in, under listsLock, made once.
var publishingAhead struct {
	viewed []int               // the blocks whose views are published, by index
	labels []*core.ArrayLabels // their labels (appendViewLabels), one block after the other
	held   [readAhead * (C.MTSGO_FASTPATH_BLOCK_COMPONENTS + 2)]*C.struct_mts_labels_t
}

func init() {
	publishingAhead.viewed = make([]int, 0, readAhead)
	publishingAhead.labels = make([]*core.ArrayLabels, 0, len(publishingAhead.held))
}

// mtsgo_tensormap_keys_view is mts_tensormap_keys for the reads fast path, for a tensor map
// whose record does not hold its keys (one Go made): the Go body's answer, then the keys kept
// in the record, with a reference of its own, so that later calls are answered in C.
//
//export mtsgo_tensormap_keys_view
func mtsgo_tensormap_keys_view(tensor *C.struct_mts_tensormap_t) (result *C.struct_mts_labels_t) {
	if result = mtsgo_tensormap_keys(tensor); result == nil {
		return nil
	}
	defer recoverObject("mts_tensormap_keys", &result)
	object, err := tensorMapOf(tensor)
	if err != nil {
		return result
	}
	listsLock.Lock()
	defer listsLock.Unlock()
	if tensor.keys == nil {
		// the record's free drops this reference (batchRelease.ReleaseRecord)
		held := holdLabels(object.tensor.Keys())
		atomic.StorePointer((*unsafe.Pointer)(unsafe.Pointer(&tensor.keys)), unsafe.Pointer(held))
	}
	return result
}

// listBlockView lists a block's record in the views of the record of a tensor map of count
// blocks that Go made, allocating them the first time.
func listBlockView(tensor *C.struct_mts_tensormap_t, count, index int, record *C.struct_mts_block_t) {
	viewsAddress := (*unsafe.Pointer)(unsafe.Pointer(&tensor.views))
	views := atomic.LoadPointer(viewsAddress)
	if views == nil {
		made := C.calloc(C.size_t(count), C.size_t(unsafe.Sizeof(record)))
		if made == nil {
			return // no memory: the next call asks Go again
		}
		tensor.views_count = C.uintptr_t(count) // the same for every thread
		if atomic.CompareAndSwapPointer(viewsAddress, nil, made) {
			views = made
		} else {
			C.free(made)
			views = atomic.LoadPointer(viewsAddress)
		}
	}
	atomic.StorePointer(viewSlot(views, index), unsafe.Pointer(record))
}

// viewSlot is where the views of a tensor map's record list the record of a block. C memory,
// holding C pointers: the collector ignores both.
func viewSlot(views unsafe.Pointer, index int) *unsafe.Pointer {
	return (*unsafe.Pointer)(unsafe.Add(views, uintptr(index)*unsafe.Sizeof((*C.struct_mts_block_t)(nil))))
}
