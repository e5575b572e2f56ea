package main

// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// Blocks lent by their records: when Go makes the blocks of a tensor map made in C
// (materializeBlocks), the records keep their labels references and values arrays and the
// blocks borrow them (core.Asked.Lent), all under one handle, so that freeing the map costs Go
// nothing per block: C releases each record as a block Go never saw (release_lent,
// mtsgo_release_tensormap). A block that changes (a gradient added) or goes otherwise first
// owns what it borrowed, under a handle of its own (ownLent).

// lentBlocks is the Go side of the blocks of one tensor map made in C and of their gradients,
// which one handle names for all their records (each at its lent_index).
type lentBlocks struct {
	made []blockAndValues // the map's blocks, then their gradients
	// lent counts the blocks still lent; the handle goes with the last one.
	lent   int
	handle objectHandle
	// tensorMap is the record of the map, whose lends ends with the first block that stops
	// lending.
	tensorMap *C.struct_mts_tensormap_t
}

// lendRoom is the memory of the lent blocks of a tensor map made in C, part of the Go tensor
// map's own (madeTensorMap): the batch, and one block, which most small maps need, so that
// making them in Go allocates once instead of three times.
type lendRoom struct {
	batch lentBlocks
	few   [1]blockAndValues
	// tensorMap is the record of the map the blocks lend for, given to the batch.
	tensorMap *C.struct_mts_tensormap_t
	// spare is the cleared memory of the blocks of a recycled map (recycled.go), for as many
	// blocks or fewer.
	spare []blockAndValues
}

// blocksMemory gives the memory of n lent blocks: the room's own for one, its spare when it
// has room enough, else, for more blocks than a map keeps, the larger spare of recycled.go when
// that has room enough, else new. Under materializingTensorMaps.
func (room *lendRoom) blocksMemory(n int) []blockAndValues {
	switch {
	case n <= len(room.few):
		return room.few[:n]
	case n <= cap(room.spare):
		return room.spare[:n]
	}
	if blocks, ok := spareLargeBlocks.take(n); ok {
		return blocks
	}
	return make([]blockAndValues, n)
}

// lendBlocks gives the records their blocks, made lent, under one handle; each record has its
// lent_index already (materializeBlocks set it while the record was in the cache).
func (room *lendRoom) lendBlocks(records []*C.struct_mts_block_t, made []blockAndValues) {
	if len(records) == 0 {
		return
	}
	batch := &room.batch
	*batch = lentBlocks{made: made, lent: len(records), tensorMap: room.tensorMap}
	batch.handle = newHandle(batch)
	for _, record := range records {
		publishHandle(blockHandle(record), uintptr(batch.handle))
	}
}

// lentBlockGone counts a lent block gone, giving the handle to delete when it was the last of
// its tensor map's, else 0. Under materializingBlocks, as ownLent.
func lentBlockGone(record *C.struct_mts_block_t) objectHandle {
	materializingBlocks.Lock()
	defer materializingBlocks.Unlock()
	return lentGoneLocked(record)
}

func lentGoneLocked(record *C.struct_mts_block_t) objectHandle {
	batch := objectHandle(record.record.handle).Value().(*lentBlocks)
	batch.lent--
	batch.tensorMap.lends = 0
	if batch.lent == 0 {
		return batch.handle
	}
	return 0
}

// ownLent makes a lent block own its labels and values (core.Block.OwnLent), as blocks Go made
// otherwise do: the record's references to the labels become the block's, the values array,
// which stays in the record, is the block's to release, and the block gets a handle of its
// own.
func ownLent(record *C.struct_mts_block_t, block *core.Block) error {
	materializingBlocks.Lock()
	defer materializingBlocks.Unlock()
	if record.lent == 0 {
		return nil
	}
	var buffer recordLabelsBuffer
	labels := recordLabels(record, &buffer)
	var objects [len(buffer)]*labelsObject
	for i, l := range labels {
		var err error
		if objects[i], err = labelsOf(l); err != nil {
			return err // the record's reference keeps the labels alive: can not happen
		}
	}
	block.OwnLent()
	for i, l := range labels {
		dropCReferences(l, objects[i], 1)
	}
	forgetRecordLabels(record)
	gone := lentGoneLocked(record)
	record.lent = 0
	publishHandle(blockHandle(record), uintptr(newHandle(block)))
	if gone != 0 {
		gone.Delete()
	}
	return nil
}

// ownLentBlocks makes every lent block of a tensor map made in C own what it borrowed
// (ownLent), so that FreeWith frees its blocks all alike, in order.
func ownLentBlocks(record *C.struct_mts_tensormap_t) error {
	for _, block := range unsafe.Slice(record.blocks, record.blocks_count) {
		if block.lent == 0 {
			continue
		}
		object, err := blockOf(block)
		if err != nil {
			return err
		}
		if err := ownLent(block, object); err != nil {
			return err
		}
	}
	return nil
}

// allLent gives the Go side of the blocks of a tensor map made in C when they all still lend,
// with their gradients (the record's lends), else nil.
func allLent(record *C.struct_mts_tensormap_t) *lentBlocks {
	if record.lends == 0 {
		return nil
	}
	return objectHandle((*record.blocks).record.handle).Value().(*lentBlocks)
}

// releaseLent frees a tensor map made in C whose blocks all lend (allLent), as FreeWith would,
// without reading any block: C releases the block records (release_lent) before the keys and
// the map's record, and the one handle of the blocks goes. The labels whose last references
// the records held, which mts_tensormap_free's fast path dropped (deferred.dying), go first.
func (b *batchRelease) releaseLent(record *C.struct_mts_tensormap_t, tensor *core.TensorMap, lent *lentBlocks,
	deferred *C.struct_mtsgo_deferred_release) {
	b.handles = append(b.handles, lent.handle)
	if record.labels_dropped != 0 {
		dying := &deferred.dying
		for _, labels := range dying.labels[:dying.count] {
			// the records' references kept them alive: Go made them with their blocks
			if object, err := labelsOf(labels); err == nil {
				object.labels.ReleaseNWith(1, b.LabelsReleaser())
			}
		}
	}
	record.release_lent = 1
	tensor.FreeLeavingBlocks(b)
}
