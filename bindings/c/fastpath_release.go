package main

// #include <stdlib.h>
// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// batchRelease is the core.Releaser of mts_tensormap_free's fast path: the blocks' C values
// arrays and their records are released by one C call each at the end (fastpath_release.c)
// instead of two calls per block, which cost more than the releases themselves for thousands
// of blocks; the arrays go first, as an array may live in its block's record. The lists are in
// C memory, sized for every block of the tensor map (gradients included); other records and
// arrays, and any past that size, are released at once, as core.DirectRelease does.
type batchRelease struct {
	arrays  []*C.struct_mts_array_t
	owned   []C.uint8_t // whether arrays[i] is its adaptor's own allocation, to free
	records []*C.struct_mts_block_t
	handles []objectHandle
	memory  unsafe.Pointer
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
	// Zeroed: Go's write barrier reads the old value of every pointer the lists are given,
	// and malloc's leftovers may look like pointers into the Go heap.
	pointer := unsafe.Sizeof(uintptr(0))
	memory := C.calloc(C.size_t(count), C.size_t(2*pointer+1))
	if memory == nil {
		return nil
	}
	return &batchRelease{
		arrays:  unsafe.Slice((**C.struct_mts_array_t)(memory), count)[:0],
		records: unsafe.Slice((**C.struct_mts_block_t)(unsafe.Add(memory, uintptr(count)*pointer)), count)[:0],
		owned:   unsafe.Slice((*C.uint8_t)(unsafe.Add(memory, uintptr(count)*2*pointer)), count)[:0],
		handles: make([]objectHandle, 0, count),
		memory:  memory,
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

func (b *batchRelease) DestroyArray(array core.Array) {
	c, ok := array.(*cArray)
	if !ok || c.raw == nil || len(b.arrays) == cap(b.arrays) {
		array.Destroy()
		return
	}
	owned := C.uint8_t(0)
	if c.allocated {
		owned = 1
	}
	b.arrays = append(b.arrays, c.raw)
	b.owned = append(b.owned, owned)
	c.raw = nil
}

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

// finish does the releases collected and frees the lists.
func (b *batchRelease) finish() {
	C.mtsgo_release_arrays(unsafe.SliceData(b.arrays), unsafe.SliceData(b.owned), C.uintptr_t(len(b.arrays)))
	deleteHandles(b.handles)
	C.mtsgo_release_batch(unsafe.SliceData(b.records), C.uintptr_t(len(b.records)))
	C.free(b.memory)
}
