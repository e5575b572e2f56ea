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
// yet, with their C gradients (fastpath_gradient.c), together: the blocks, their array adaptors
// and their components are allocated at once,
// since a tensor map made from blocks made in C makes thousands here. C checked the values'
// shape and devices against the labels, and the components, as strictly as the core, which
// takes that check (core.Asked.BlockChecked). Each block takes over its record's
// references to the labels and its values array, which stays in the record; or, when lend is
// set (the blocks of a tensor map made in C, made in Go together), the records lend them
// (core.Asked.Lent): each keeps its references, and releases them with itself in C
// (mtsgo_c_block_release), so that a free of the map reads no Go block. Records lend only
// when none had a block already; their C gradients lend with them (C releases them with
// their parent).
//
// room, for the blocks of a tensor map made in C (nil otherwise), is where they lend from: the
// lent batch and, for a map of one block without gradients, the block itself live in the Go
// tensor map's own allocation.
func materializeBlocks(records []*C.struct_mts_block_t, room *lendRoom) error {
	lend := room != nil
	materializingBlocks.Lock()
	defer materializingBlocks.Unlock()
	if !lend {
		// (the blocks of a tensor map, which lend, are never gradients: the map refused them)
		records = gradientsAsParents(records)
	}
	// One pass over the records, which a tensor map of thousands of blocks reads from memory:
	// whether some have a block already, their components, whether any has gradients.
	pending, components, gradients := records, 0, false
	for i, record := range records {
		if atomic.LoadUintptr(blockHandle(record)) != 0 {
			// Some have a block already (made in Go, or by another thread first).
			pending = slices.Clone(records[:i])
			for _, record := range records[i:] {
				if atomic.LoadUintptr(blockHandle(record)) == 0 {
					pending = append(pending, record)
				}
			}
			components, gradients = 0, false
			for _, record := range pending {
				components += int(record.components_count)
				gradients = gradients || record.c_gradients != nil
			}
			break
		}
		components += int(record.components_count)
		gradients = gradients || record.c_gradients != nil
	}
	if len(pending) == 0 {
		return nil
	}
	parents := len(pending)
	if gradients {
		// The C gradients of these blocks are made with them, after them (appended past a
		// clipped slice: records may be C memory, so the first append copies them to Go
		// memory once).
		pending = slices.Clip(pending)
		for _, record := range pending[:parents] {
			for g := record.c_gradients; g != nil; g = g.next {
				pending = append(pending, g.block)
				components += int(g.block.components_count)
			}
		}
	}
	lend = lend && parents == len(records) && C.mtsgo_fastpaths&C.MTSGO_FASTPATH_RELEASE != 0
	// One allocation for the blocks and their adaptors, another for their components.
	var made []blockAndValues
	if lend {
		made = room.blocksMemory(len(pending))
	} else {
		made = make([]blockAndValues, len(pending))
	}
	var componentsLabels []*core.ArrayLabels
	if components > 0 {
		componentsLabels = make([]*core.ArrayLabels, components)
	}
	var handovers [C.MTSGO_FASTPATH_BLOCK_COMPONENTS + 2]labelsHandover
	defer func() {
		for i := range handovers {
			handovers[i].flush()
		}
	}()
	done := 0
	var err error
	for i, record := range pending {
		count := int(record.components_count)
		blockComponents := componentsLabels[:count:count]
		componentsLabels = componentsLabels[count:]
		made[i].values.raw = &record.values
		if err = materializeInto(&made[i].block, &made[i].values, blockComponents, record, &handovers, lend); err != nil {
			break
		}
		if !made[i].block.View().AttachNew(unsafe.Pointer(record)) {
			panic(core.Errorf(core.InternalError, "a new block already has a record"))
		}
		if lend {
			record.lent_index = C.uintptr_t(i)
		}
		done++
	}
	if err == nil && gradients {
		// Each parent takes its gradients, checked in C; the record keeps its C list, unread
		// from now on.
		next := parents
		for i, record := range pending[:parents] {
			for g := record.c_gradients; g != nil; g = g.next {
				made[i].block.AddCheckedGradient(C.GoString(g.parameter), &made[next].block)
				next++
			}
		}
	}
	if lend {
		room.lendBlocks(pending[:done], made[:done])
		return err
	}
	newHandles(done, func(i int) any { return &made[i].block }, func(i int, h objectHandle) {
		publishHandle(blockHandle(pending[i]), uintptr(h))
	})
	return err
}

// gradientsAsParents replaces each gradient added in C by the block it belongs to (the top
// one), once, as gradients are made with their blocks; records is returned when none is one.
func gradientsAsParents(records []*C.struct_mts_block_t) []*C.struct_mts_block_t {
	if !slices.ContainsFunc(records, func(r *C.struct_mts_block_t) bool { return r.parent != nil }) {
		return records
	}
	seen := make(map[*C.struct_mts_block_t]bool, len(records))
	replaced := make([]*C.struct_mts_block_t, 0, len(records))
	for _, record := range records {
		for record.parent != nil {
			record = record.parent
		}
		if !seen[record] {
			seen[record] = true
			replaced = append(replaced, record)
		}
	}
	return replaced
}

// blockAndValues is a block made from a record made in C, with the adaptor of its values.
type blockAndValues struct {
	block  core.Block
	values cArray
}

// materializeInto makes one block of materializeBlocks, in place; the record's references to
// its labels go to the block through handovers (samples, components, properties in order),
// or stay with the record when it lends them (handovers then only keep the labels objects).
func materializeInto(block *core.Block, values *cArray, components []*core.ArrayLabels, record *C.struct_mts_block_t,
	handovers *[C.MTSGO_FASTPATH_BLOCK_COMPONENTS + 2]labelsHandover, lend bool) error {
	count := len(components)
	var labelsBuffer recordLabelsBuffer
	all := recordLabels(record, &labelsBuffer)
	var objects [len(labelsBuffer)]*labelsObject
	for i, labels := range all {
		object := handovers[i].object
		if handovers[i].record != labels {
			var err error
			if object, err = labelsOf(labels); err != nil {
				return err // the record's reference keeps the labels alive: can not happen
			}
		}
		objects[i] = object
		if i > 0 && i <= count {
			components[i-1] = object.labels
		}
	}
	// Set field by field: a composite literal is built aside and copied whole, reading back
	// the words just written (a stall per block). C checked the block as the core does
	// (mtsgo_c_block, fastpath_gradient.c), which therefore can not fail.
	var asked core.Asked
	asked.BlockChecked, asked.Retained, asked.Lent = true, true, lend
	_ = core.InitBlockAsked(block, values, objects[0].labels, components, objects[count+1].labels, &asked)
	if lend {
		for i, labels := range all {
			handovers[i].keep(labels, objects[i])
		}
		record.lent = 1
		return nil
	}
	// The record's references become the block's.
	for i, labels := range all {
		handovers[i].add(labels, objects[i])
	}
	forgetRecordLabels(record)
	return nil
}

// recordLabelsBuffer is room for the labels of a block record made in C.
type recordLabelsBuffer [C.MTSGO_FASTPATH_BLOCK_COMPONENTS + 2]*C.struct_mts_labels_t

// recordLabels lists the labels a block record made in C, or a view (fastpath_reads.go),
// holds a reference to: samples, components, properties, in buffer.
func recordLabels(record *C.struct_mts_block_t, buffer *recordLabelsBuffer) []*C.struct_mts_labels_t {
	all := append(buffer[:0], record.samples)
	all = append(all, record.components[:record.components_count]...)
	return append(all, record.properties)
}

// forgetRecordLabels empties a block record's labels once its references became the block's.
func forgetRecordLabels(record *C.struct_mts_block_t) {
	record.samples, record.properties, record.components_count = nil, nil, 0
	record.components = [C.MTSGO_FASTPATH_BLOCK_COMPONENTS]*C.struct_mts_labels_t{}
}

// labelsHandover turns C references of block records to one labels into references of the
// blocks made from them (core.Asked.Retained), for a run of blocks sharing those labels: one
// atomic operation on each counter per run instead of two per block, as the blocks of a map
// usually share their samples and properties. The labels stay alive meanwhile, the C
// references being dropped last; the run's labels object serves its next block without a
// lookup of the record's handle.
type labelsHandover struct {
	record *C.struct_mts_labels_t
	object *labelsObject
	count  uint64
}

// add hands one reference of record over, after those of the run of another labels.
func (h *labelsHandover) add(record *C.struct_mts_labels_t, object *labelsObject) {
	if record != h.record {
		h.flush()
		h.record, h.object = record, object
	}
	h.count++
}

// keep makes object the run's, as add does, without a reference to hand over: the records
// lend theirs.
func (h *labelsHandover) keep(record *C.struct_mts_labels_t, object *labelsObject) {
	if record != h.record {
		h.flush()
		h.record, h.object = record, object
	}
}

// flush gives the run's blocks their references, then drops the records'.
func (h *labelsHandover) flush() {
	if h.count > 0 {
		h.object.labels.RetainN(int64(h.count))
		dropCReferences(h.record, h.object, h.count)
	}
	*h = labelsHandover{}
}
