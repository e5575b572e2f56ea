package main

// #include "fastpath.h"
import "C"

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The Go side of the block fast path (fastpath_block.c): the blocks of records made in C.

// materializingBlocks serialises the making of blocks for records made in C.
var materializingBlocks sync.Mutex

// materializeBlocks makes the core blocks of records made in C (fastpath_block.c) that have none
// yet, together: the blocks, their array adaptors and their components are allocated at once,
// since a tensor map made from blocks made in C makes thousands here. C checked the values'
// shape and devices against the labels as strictly as the core: the core checks them again
// from what C asked, without asking the arrays again. Each block takes over its record's
// references to the labels and its values array, which stays in the record.
func materializeBlocks(records []*C.struct_mts_block_t) error {
	materializingBlocks.Lock()
	defer materializingBlocks.Unlock()
	pending, components := records, 0
	for i, record := range records {
		if atomic.LoadUintptr(blockHandle(record)) != 0 {
			// Some have a block already (made in Go, or by another thread first).
			pending = slices.Clone(records[:i])
			for _, record := range records[i:] {
				if atomic.LoadUintptr(blockHandle(record)) == 0 {
					pending = append(pending, record)
				}
			}
			break
		}
	}
	for _, record := range pending {
		components += int(record.components_count)
	}
	if len(pending) == 0 {
		return nil
	}
	blocks := make([]core.Block, len(pending))
	arrays := make([]cArray, len(pending))
	componentsLabels := make([]*core.ArrayLabels, components)
	made := 0
	var err error
	for i, record := range pending {
		count := int(record.components_count)
		blockComponents := componentsLabels[:count:count]
		componentsLabels = componentsLabels[count:]
		arrays[i].raw = &record.values
		if err = materializeInto(&blocks[i], &arrays[i], blockComponents, record); err != nil {
			break
		}
		if !blocks[i].View().Attach(unsafe.Pointer(record)) {
			panic(core.Errorf(core.InternalError, "a new block already has a record"))
		}
		made++
	}
	newHandles(made, func(i int) any { return &blocks[i] }, func(i int, h objectHandle) {
		atomic.StoreUintptr(blockHandle(pending[i]), uintptr(h))
	})
	return err
}

// materializeInto makes one block of materializeBlocks, in place.
func materializeInto(block *core.Block, values *cArray, components []*core.ArrayLabels, record *C.struct_mts_block_t) error {
	count := len(components)
	var labelsBuffer [C.MTSGO_FASTPATH_BLOCK_COMPONENTS + 2]*C.struct_mts_labels_t
	all := append(labelsBuffer[:0], record.samples)
	all = append(all, record.components[:count]...)
	all = append(all, record.properties)
	var objects [len(labelsBuffer)]*labelsObject
	var shape [len(labelsBuffer)]uintptr
	var devices [len(labelsBuffer) + 1]core.Device
	devices[0] = deviceFromC(record.device)
	for i, labels := range all {
		object, err := labelsOf(labels)
		if err != nil {
			return err // the record's reference keeps the labels alive: can not happen
		}
		objects[i], shape[i], devices[i+1] = object, uintptr(labels.count), devices[0]
		if i > 0 && i <= count {
			components[i-1] = object.labels
		}
	}
	asked := core.Asked{Shape: shape[:len(all)], HasShape: true, Devices: devices[:len(all)+1]}
	err := core.InitBlockAsked(block, values, objects[0].labels, components, objects[count+1].labels, asked)
	if err != nil {
		// C checked what the core checks: this is a bug. The values are gone; the record
		// keeps its labels references, which mts_block_free releases.
		return core.Errorf(core.InternalError, "a block made in C was rejected: %v", err)
	}
	// The block holds its own references now.
	for i, labels := range all {
		dropCReference(labels, objects[i])
	}
	record.samples, record.properties, record.components_count = nil, nil, 0
	record.components = [C.MTSGO_FASTPATH_BLOCK_COMPONENTS]*C.struct_mts_labels_t{}
	return nil
}
