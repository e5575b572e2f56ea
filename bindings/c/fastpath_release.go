package main

// #include <stdlib.h>
// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// batchRelease is the core.Releaser of mts_tensormap_free's fast path: the blocks' records
// are freed by one C call at the end (fastpath_release.c) instead of one call per block, which
// costs more than the release itself for thousands of blocks. The list is in C memory, sized
// for every block of the tensor map (gradients included); other records, and any past that
// size, are released at once, as core.DirectRelease does. The values arrays are destroyed at
// once too, in the plain path's order: destroying them at the end as well, after the labels,
// made the C tests crash in the Go garbage collector now and then (a Go object left pointing
// at freed Go memory, cause not found).
type batchRelease struct {
	records []*C.struct_mts_block_t
	handles []objectHandle
}

// newBatchRelease prepares the release of a tensor map's blocks; nil when out of memory or
// switched off.
func newBatchRelease(tensor *core.TensorMap) *batchRelease {
	if C.mtsgo_fastpaths&C.MTSGO_FASTPATH_RELEASE == 0 {
		return nil
	}
	count := countBlocks(tensor.Blocks())
	if count == 0 {
		return nil
	}
	memory := C.malloc(C.size_t(uintptr(count) * unsafe.Sizeof(uintptr(0))))
	if memory == nil {
		return nil
	}
	return &batchRelease{
		records: unsafe.Slice((**C.struct_mts_block_t)(memory), count)[:0],
		handles: make([]objectHandle, 0, count),
	}
}

// countBlocks counts blocks and their gradients, recursively.
func countBlocks(blocks []*core.Block) int {
	count := 0
	for _, block := range blocks {
		count += blockTreeSize(block)
	}
	return count
}

// blockTreeSize counts a block and its gradients, recursively.
func blockTreeSize(block *core.Block) int {
	count := 1
	for _, gradient := range block.Gradients() {
		count += blockTreeSize(gradient.Block)
	}
	return count
}

func (b *batchRelease) DestroyArray(array core.Array) { array.Destroy() }

func (b *batchRelease) ReleaseRecord(record unsafe.Pointer) {
	if recordKind((*C.struct_mtsgo_record)(record).magic) != blockRecord || len(b.records) == cap(b.records) {
		releaseRecord(record)
		return
	}
	block := (*C.struct_mts_block_t)(record)
	block.record.magic = C.MTSGO_FREED_MAGIC
	b.handles = append(b.handles, objectHandle(block.record.handle))
	b.records = append(b.records, block)
}

// finish does the releases collected and frees the list.
func (b *batchRelease) finish() {
	deleteHandles(b.handles)
	records := unsafe.SliceData(b.records)
	C.mtsgo_release_batch(records, C.uintptr_t(len(b.records)))
	C.free(unsafe.Pointer(records))
}
