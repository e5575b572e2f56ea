package main

// #include "fastpath.h"
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// batchRelease is the core.Releaser of mts_tensormap_free's fast path: the blocks' C values
// arrays, their records and the tensor map's record are released by one C call at the end
// (fastpath_release.c) instead of two calls per block and a few per map, which cost more than
// the releases themselves; the arrays go first, as an array may live in its block's record.
// The lists hold addresses and handles as integers (no pointer for cgo to check), sized for
// every block of the tensor map (gradients included) and the map itself, in the release's own
// memory for small maps, else in one Go allocation; other records and arrays, and any past
// that size, are released at once, as core.DirectRelease does. Called from the fast path of
// mts_tensormap_free, the lists of a small map go in the fast path's memory instead, and the
// fast path releases them once Go returned (struct mtsgo_deferred_release): one call into C
// fewer, for a cost of the order of the whole release. The labels that go with the
// tensor map (labelsBatch) are released in the same call, after the blocks, and so is the
// tensor map record's C reference to its keys when Go made them: without it, C would call
// back into Go to release them.
type batchRelease struct {
	arrays    []C.uintptr_t // each marked MTSGO_RELEASE_OWNED when it is its adaptor's own allocation
	records   []C.uintptr_t
	handles   []objectHandle
	tensorMap *C.struct_mts_tensormap_t
	// The labels' arrays (marked as arrays are) and records (marked MTSGO_RELEASE_LABELS), in
	// the order to release them; few, as labels are shared, and grown when more.
	labels      []C.uintptr_t
	labelsFirst [6]C.uintptr_t
	wordsFirst  [3*smallRelease + 1 + labelsHandles]C.uintptr_t // the lists of a small map, or its handles
	// deferred is the fast path's memory for the lists of a small map, which C releases once
	// Go returned (struct mtsgo_deferred_release); nil when Go calls C to release them.
	deferred *C.struct_mtsgo_deferred_release
	// recycled is the memory of the labels made in C that went, and recycledMap of the tensor
	// map, recycled once the free is over
	recycled    []*madeInC
	recycledMap *madeTensorMap
}

const (
	// smallRelease is the most blocks whose lists fit in wordsFirst.
	smallRelease = 4
	// labelsHandles is the room the handles list keeps for the labels records that go with the
	// tensor map, usually its keys, samples and properties; more grow it.
	labelsHandles = 4
)

// prepare sizes the lists for the release of count blocks (gradients included) with a tensor
// map, in deferred when it is not nil and they fit; false when switched off.
func (b *batchRelease) prepare(count int, deferred *C.struct_mtsgo_deferred_release) bool {
	if C.mtsgo_fastpaths&C.MTSGO_FASTPATH_RELEASE == 0 {
		return false
	}
	if deferred != nil && count > C.MTSGO_DEFERRED_BLOCKS {
		deferred = nil
	}
	// The blocks' handles, the tensor map's and those of its labels that go; then, when the
	// fast path's memory does not hold them, the arrays and the records.
	handles := count + 1 + labelsHandles
	need := handles
	if deferred == nil {
		need += 2 * count
	}
	words := core.InRoom(b.wordsFirst[:], need)
	b.handles = unsafe.Slice((*objectHandle)(unsafe.Pointer(&words[0])), handles)[:0]
	b.deferred = deferred
	if deferred != nil {
		b.arrays = deferred.arrays[:0:count]
		b.records = deferred.blocks[:0:count]
		b.labels = deferred.labels[:0]
	} else {
		b.arrays = words[handles : handles : handles+count]
		b.records = words[handles+count : handles+count : handles+2*count]
		b.labels = b.labelsFirst[:0]
	}
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
	if len(b.arrays) == cap(b.arrays) {
		array.Destroy()
	} else if address := releasedArray(array); address != 0 {
		b.arrays = append(b.arrays, address)
	}
}

// releasedArray is the address to give C for the release of array, marked
// MTSGO_RELEASE_OWNED when the adaptor allocated it, and leaves array released; 0 when array
// had nothing to release in C or was released at once (any array that is not a caller's in C
// memory).
func releasedArray(array core.Array) C.uintptr_t {
	c, ok := array.(*cArray)
	if !ok || c.raw == nil || c.labels != nil {
		array.Destroy() // Go memory, or the labels record's own array (mtsgo_labels_dispose)
		return 0
	}
	address := c.address()
	if c.allocated {
		address |= C.MTSGO_RELEASE_OWNED
	}
	c.raw = nil
	return address
}

func (b *batchRelease) ReleaseRecord(record unsafe.Pointer) {
	switch kind := recordKind((*C.struct_mtsgo_record)(record).magic); {
	case kind == blockRecord && len(b.records) < cap(b.records) && (*C.struct_mts_block_t)(record).lent == 0:
		// (a record that still lends goes at once: disposeBlockRecord releases what it keeps)
		block := (*C.struct_mts_block_t)(record)
		dropBlockView(block, b.LabelsReleaser())
		block.record.magic = C.MTSGO_FREED_MAGIC
		b.handles = append(b.handles, objectHandle(block.record.handle))
		b.records = append(b.records, C.uintptr_t(uintptr(record)))
	case kind == tensorMapRecord && b.tensorMap == nil:
		b.tensorMap = (*C.struct_mts_tensormap_t)(record)
		b.handles = append(b.handles, forgetTensorMapRecord(b.tensorMap))
		if keys := b.tensorMap.keys; keys != nil {
			if handle := objectHandle(atomic.LoadUintptr(recordHandle(keys))); handle != 0 {
				b.tensorMap.keys = nil
				dropCReferencesWith(keys, handle.Value().(*labelsObject), 1, b.LabelsReleaser())
			}
		}
	default:
		releaseRecord(record)
	}
}

func (b *batchRelease) LabelsReleaser() core.Releaser { return (*labelsBatch)(b) }

// labelsBatch is the core.Releaser of the labels a batchRelease releases.
type labelsBatch batchRelease

func (l *labelsBatch) DestroyArray(array core.Array) {
	if address := releasedArray(array); address != 0 {
		l.labels = append(l.labels, address)
	}
}

func (l *labelsBatch) ReleaseRecord(record unsafe.Pointer) {
	if recordKind((*C.struct_mtsgo_record)(record).magic) != labelsRecord {
		releaseRecord(record)
		return
	}
	handle := forgetLabelsRecord((*C.struct_mts_labels_t)(record))
	if made := handle.Value().(*labelsObject).made; made != nil {
		l.recycled = append(l.recycled, made)
	}
	l.handles = append(l.handles, handle)
	l.labels = append(l.labels, C.uintptr_t(uintptr(record))|C.MTSGO_RELEASE_LABELS)
}

// finish does the releases collected, or leaves them to the fast path when they are all in
// its memory (more labels than it holds moved them to Go's), then recycles the Go memory the
// free let go.
func (b *batchRelease) finish() {
	deleteHandles(b.handles)
	if d := b.deferred; d != nil && unsafe.SliceData(b.labels) == &d.labels[0] {
		d.arrays_count, d.blocks_count, d.labels_count = C.uintptr_t(len(b.arrays)), C.uintptr_t(len(b.records)), C.uintptr_t(len(b.labels))
		storeOut(&d.tensormap, b.tensorMap) // the stack memory of C, never written before
		d.ready = 1
	} else {
		// a labels release fails only on a broken record, which Go's own releases ignore too
		_ = C.mtsgo_release_tensormap(unsafe.SliceData(b.arrays), C.uintptr_t(len(b.arrays)),
			unsafe.SliceData(b.records), C.uintptr_t(len(b.records)),
			unsafe.SliceData(b.labels), C.uintptr_t(len(b.labels)), b.tensorMap)
	}
	// the fast path's memory ends with its call; the rest is ready for the next free
	b.arrays, b.records, b.labels, b.handles, b.deferred, b.tensorMap = nil, nil, nil, nil, nil, nil
	b.recycle()
}

// recycle gives back the memory of the labels and tensor map made in C that the free let go
// (recycled.go), last: nothing of the free reads them any more.
func (b *batchRelease) recycle() {
	if len(b.recycled) > 0 {
		recycleMadeInC(b.recycled)
		clear(b.recycled)
		b.recycled = b.recycled[:0]
	}
	if made := b.recycledMap; made != nil {
		b.recycledMap = nil
		recycleMadeTensorMap(made)
	}
}
