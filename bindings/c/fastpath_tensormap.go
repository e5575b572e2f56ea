package main

// #include "fastpath.h"
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The Go side of the tensor map fast path (fastpath_tensormap.c): the tensor maps of records
// made in C, and the errors C found.

// materializingTensorMaps serialises the making of tensor maps for records made in C: two
// threads may read one tensor map at once.
var materializingTensorMaps sync.Mutex

// materializeTensorMap makes the core tensor map of a record made in C, once: its blocks
// (materializeBlocks), then the map, from the checks C made without asking anything again,
// with the info set in C (cInfoOf). The record keeps its keys and blocks (read in C) until
// it is freed.
func materializeTensorMap(record *C.struct_mts_tensormap_t) (objectHandle, error) {
	materializingTensorMaps.Lock()
	defer materializingTensorMaps.Unlock()
	if handle := objectHandle(atomic.LoadUintptr(tensorMapHandle(record))); handle != 0 {
		return handle, nil
	}
	slots := unsafe.Slice(record.blocks, record.blocks_count)
	made := newMadeTensorMap()
	made.object.made = made
	made.lent.tensorMap = record
	if err := materializeBlocks(slots, &made.lent); err != nil {
		return 0, err
	}
	blocks := made.blockList(len(slots))
	if lent := &made.lent.batch; lent.handle != 0 {
		// materializeBlocks lent every block just now, made in the slots' order (lendBlocks)
		record.lends = 1
		for i := range blocks {
			blocks[i] = &lent.made[i].block
		}
	} else {
		for i, slot := range slots {
			var err error
			if blocks[i], err = blockOf(slot); err != nil {
				return 0, err
			}
		}
	}
	keys, err := labelsOf(record.keys)
	if err != nil {
		return 0, err
	}
	info, err := cInfoOf(record)
	if err != nil {
		return 0, err
	}
	tensor := core.NewCheckedTensorMapIn(&made.tensor, keys.labels, blocks)
	*tensor.Info() = info
	tensor.View().AttachNew(unsafe.Pointer(record))
	made.object.tensor = tensor
	handle := newHandle(&made.object)
	publishHandle(tensorMapHandle(record), uintptr(handle))
	return handle, nil
}

// madeTensorMap is a tensor map Go made from a C one, with the list of its blocks when they
// are few and the memory its blocks lend from: one allocation.
type madeTensorMap struct {
	object    tensorMapObject
	tensor    core.TensorMap
	fewBlocks [4]*core.Block
	lent      lendRoom
	// blocks is the list of the blocks when they are more than fewBlocks holds: its own, or
	// spareBlocks, the cleared list a recycled map kept (recycled.go).
	blocks      []*core.Block
	spareBlocks []*core.Block
}

// blockList gives the list for n blocks: fewBlocks, the kept list when it has room (all of
// its capacity kept for the next map, as lendRoom.blocksMemory keeps the blocks'), for more
// blocks than a map keeps the larger spare of recycled.go when it has room, else new. Under
// materializingTensorMaps.
func (m *madeTensorMap) blockList(n int) []*core.Block {
	if n <= len(m.fewBlocks) {
		return m.fewBlocks[:n:n]
	}
	if n <= cap(m.spareBlocks) {
		m.blocks = m.spareBlocks[:n]
	} else if list, ok := spareLargeList.take(n); ok {
		m.blocks = list
	} else {
		m.blocks = make([]*core.Block, n)
	}
	m.spareBlocks = nil
	return m.blocks[:n:n]
}

// tensorMapHandle is the address of the handle of a tensor map record, which C and Go both
// read: Go sets it once (publishHandle) for tensor maps made in C.
func tensorMapHandle(record *C.struct_mts_tensormap_t) *uintptr {
	return (*uintptr)(unsafe.Pointer(&record.record.handle))
}

// mtsgo_tensormap_refused records the error of a tensor map the fast path refused after asking
// the arrays and the keys, worded as core.NewTensorMap words it; when they all agreed, C lacked
// the memory for the record.
//
//export mtsgo_tensormap_refused
func mtsgo_tensormap_refused(asked *C.struct_mtsgo_tensormap_asked) (status C.mts_status_t) {
	defer recoverStatus("mts_tensormap", &status)
	first, other, err := comparisonOf(&asked.comparison)
	if err == nil {
		var keysErr error
		if asked.keys_failed != 0 {
			keysErr = failed("device")
		}
		err = core.BlocksDataError(first, other, deviceFromC(asked.keys_device), keysErr)
	}
	if err == nil {
		err = errRecordMemory
	}
	return recordError(err)
}
