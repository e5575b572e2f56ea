package main

// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// batchRelease is the core.Releaser of mts_tensormap_free's fast path: the blocks' C values
// arrays, their records and the tensor map's record are released by one C call at the end
// (fastpath_release.c) instead of two calls per block and a few per map, which cost more than
// the releases themselves; the arrays go first, as an array may live in its block's record.
// The lists hold addresses and handles as integers in one Go allocation (no pointer for cgo
// to check), sized for every block of the tensor map (gradients included) and the map itself;
// other records and arrays, and any past that size, are released at once, as
// core.DirectRelease does.
type batchRelease struct {
	arrays    []C.uintptr_t // each marked MTSGO_RELEASE_OWNED when it is its adaptor's own allocation
	records   []C.uintptr_t
	handles   []objectHandle
	tensorMap *C.struct_mts_tensormap_t
}

// prepare sizes the lists for the release of a tensor map's blocks; false when switched off.
func (b *batchRelease) prepare(tensor *core.TensorMap) bool {
	if C.mtsgo_fastpaths&C.MTSGO_FASTPATH_RELEASE == 0 {
		return false
	}
	count := countBlocks(tensor.Blocks())
	words := make([]C.uintptr_t, 3*count+1)
	b.arrays = words[:0:count]
	b.records = words[count : count : 2*count]
	// The blocks' handles, and the tensor map's.
	b.handles = unsafe.Slice((*objectHandle)(unsafe.Pointer(&words[2*count])), count+1)[:0]
	return true
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
	address := C.uintptr_t(uintptr(unsafe.Pointer(c.raw)))
	if c.allocated {
		address |= C.MTSGO_RELEASE_OWNED
	}
	b.arrays = append(b.arrays, address)
	c.raw = nil
}

func (b *batchRelease) ReleaseRecord(record unsafe.Pointer) {
	switch kind := recordKind((*C.struct_mtsgo_record)(record).magic); {
	case kind == blockRecord && len(b.records) < cap(b.records):
		block := (*C.struct_mts_block_t)(record)
		block.record.magic = C.MTSGO_FREED_MAGIC
		b.handles = append(b.handles, objectHandle(block.record.handle))
		b.records = append(b.records, C.uintptr_t(uintptr(record)))
	case kind == tensorMapRecord && b.tensorMap == nil:
		b.tensorMap = (*C.struct_mts_tensormap_t)(record)
		b.handles = append(b.handles, forgetTensorMapRecord(b.tensorMap))
	default:
		releaseRecord(record)
	}
}

// finish does the releases collected.
func (b *batchRelease) finish() {
	deleteHandles(b.handles)
	C.mtsgo_release_tensormap(unsafe.SliceData(b.arrays), C.uintptr_t(len(b.arrays)),
		unsafe.SliceData(b.records), C.uintptr_t(len(b.records)), b.tensorMap)
}
