package main

// #include <stdlib.h>
// #include "mtsgo.h"
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// tensorMapObject is what the handle of a tensor map record points to: the core tensor map
// and the info values C has been given, which stay valid until their key is set again.
type tensorMapObject struct {
	tensor *core.TensorMap
	values map[string]*C.char
	// made is the memory the object lives in, for tensor maps made in C (madeTensorMap): their
	// free recycles it when it reads no block.
	made *madeTensorMap
}

// spareReleases keeps the scratch memory of mts_tensormap_free (a batchRelease, some 300
// bytes) that earlier frees left, so that neither a free nor each tensor map allocates its
// own; a sync.Pool, per processor, takes no atomic operation where a shared slot took two.
var spareReleases = sync.Pool{New: func() any { return new(batchRelease) }}

// newTensorMapRecord gives C a tensor map the core built; the record goes with the tensor map.
func newTensorMapRecord(tensor *core.TensorMap) *C.struct_mts_tensormap_t {
	record := C.mtsgo_tensormap_record_taking(nil, 0)
	if record == nil {
		tensor.Free()
		panic(errRecordMemory)
	}
	return attachTensorMapRecord(record, tensor)
}

var errRecordMemory = core.Errorf(core.InternalError, "out of memory allocating a tensor map record")

// attachTensorMapRecord makes a zeroed record the record of tensor.
func attachTensorMapRecord(record *C.struct_mts_tensormap_t, tensor *core.TensorMap) *C.struct_mts_tensormap_t {
	record.record.magic = C.uint64_t(tensorMapRecord)
	record.record.handle = C.uintptr_t(newHandle(&tensorMapObject{tensor: tensor}))
	tensor.View().AttachNew(unsafe.Pointer(record))
	return record
}

// disposeTensorMapRecord releases a tensor map record and the strings it handed out.
func disposeTensorMapRecord(record *C.struct_mts_tensormap_t) {
	forgetTensorMapRecord(record).Delete()
	C.mtsgo_tensormap_record_free(record)
}

// forgetTensorMapRecord releases the strings a tensor map record handed out and marks it
// freed, leaving its handle to delete and its memory to free.
func forgetTensorMapRecord(record *C.struct_mts_tensormap_t) objectHandle {
	handle := objectHandle(record.record.handle)
	record.record.magic = C.MTSGO_FREED_MAGIC
	for _, value := range handle.Value().(*tensorMapObject).values {
		C.free(unsafe.Pointer(value))
	}
	return handle
}

// tensorMapOf gives the Go object behind a tensor map record,
// making it for a tensor map made by the fast path (fastpath_tensormap.go).
func tensorMapOf(record *C.struct_mts_tensormap_t) (*tensorMapObject, error) {
	handle := objectHandle(atomic.LoadUintptr(tensorMapHandle(record)))
	if handle == 0 {
		var err error
		if handle, err = materializeTensorMap(record); err != nil {
			return nil, err
		}
	}
	return handle.Value().(*tensorMapObject), nil
}

// tensorMapCalls numbers the calls to mts_tensormap.
var tensorMapCalls atomic.Uint64

func implTensormap(keys *C.struct_mts_labels_t, blocks **C.struct_mts_block_t, count C.uintptr_t) (*C.struct_mts_tensormap_t, error) {
	keysObject, err := labelsOf(keys)
	if err != nil {
		return nil, err
	}
	var slots []*C.struct_mts_block_t
	if count != 0 {
		slots = unsafe.Slice(blocks, count)
	}
	// Everything that leaves the blocks with the caller is checked before taking any.
	// A block given twice is found by the call's number left in its record.
	call := C.uint64_t(tensorMapCalls.Add(1))
	for i, slot := range slots {
		if slot == nil {
			return nil, core.Errorf(core.InvalidParameterError, "got invalid NULL pointer for blocks[%d]", i)
		}
		if slot.claimed == call {
			return nil, core.Errorf(core.InvalidParameterError,
				"got the same block more than once when constructing a tensor map")
		}
		if slot.held != 0 {
			return nil, errHeldBlock(fmt.Sprintf("blocks[%d]", i))
		}
		slot.claimed = call
	}
	coreBlocks := make([]*core.Block, len(slots))
	// Blocks made in C are made in Go together.
	if err := materializeBlocks(slots, nil); err != nil {
		return nil, err
	}
	for i, slot := range slots {
		if coreBlocks[i], err = blockOf(slot); err != nil {
			return nil, err
		}
	}
	// The blocks are taken and the tensor map's record allocated in one call into C.
	record := C.mtsgo_tensormap_record_taking(blocks, count)
	if record == nil {
		return nil, errRecordMemory
	}
	for i := range slots {
		slots[i] = nil
	}
	tensor, err := core.NewTensorMap(keysObject.labels, coreBlocks)
	if err != nil {
		C.free(unsafe.Pointer(record))
		return nil, err
	}
	return attachTensorMapRecord(record, tensor), nil
}

func implTensormapFree(record *C.struct_mts_tensormap_t) error {
	deferred := record.deferred // the fast path's, for this call only
	record.deferred = nil
	object, err := tensorMapOf(record)
	if err != nil {
		return err
	}
	release := spareReleases.Get().(*batchRelease)
	defer spareReleases.Put(release)
	lent := allLent(record)
	count := 0 // C releases lent blocks
	if lent == nil {
		count = countBlocks(object.tensor.Blocks())
		if err := ownLentBlocks(record); err != nil {
			return err
		}
	}
	if !release.prepare(count, deferred) {
		object.tensor.Free() // the release fast path is off
		return nil
	}
	defer release.finish()
	if lent != nil {
		release.releaseLent(record, object.tensor, lent, deferred)
		release.recycledMap = object.made
		return nil
	}
	object.tensor.FreeWith(release)
	return nil
}

func implTensormapSetInfo(record *C.struct_mts_tensormap_t, key, value *C.char) error {
	object, err := tensorMapOf(record)
	if err != nil {
		return err
	}
	info := object.tensor.Info()
	keyText := C.GoString(key)
	before := info.Len()
	if err := info.Set(keyText, C.GoString(value)); err != nil {
		return err
	}
	listsLock.Lock()
	defer listsLock.Unlock()
	if old, ok := object.values[keyText]; ok {
		C.free(unsafe.Pointer(old))
		delete(object.values, keyText)
	}
	if info.Len() != before && record.info_keys != nil {
		// A new key: the list handed out so far ends here (the test spares a call into C).
		C.free(unsafe.Pointer(record.info_keys))
		record.info_keys = nil
		record.info_keys_count = 0
	}
	return nil
}

func implTensormapGetInfo(record *C.struct_mts_tensormap_t, key *C.char, value **C.char) error {
	object, err := tensorMapOf(record)
	if err != nil {
		return err
	}
	// The key's bytes in place, for the lookups: only a key kept below is copied.
	keyText := unsafe.String((*byte)(unsafe.Pointer(key)), cStringLength(key))
	if err := core.CheckInfoKey(keyText); err != nil {
		return err
	}
	text, ok := object.tensor.Info().Get(keyText)
	if !ok {
		storeOut(value, nil)
		return nil
	}
	listsLock.Lock()
	defer listsLock.Unlock()
	cached, ok := object.values[keyText]
	if !ok {
		if set := cInfoValue(record, keyText, text); set != nil {
			storeOut(value, set) // still the value set in C, which the record keeps
			return nil
		}
		cached = C.CString(text)
		if object.values == nil {
			object.values = make(map[string]*C.char)
		}
		object.values[strings.Clone(keyText)] = cached
	}
	storeOut(value, cached)
	return nil
}

func implTensormapInfoKeys(record *C.struct_mts_tensormap_t, keys ***C.char, count *C.uintptr_t) error {
	object, err := tensorMapOf(record)
	if err != nil {
		return err
	}
	info := object.tensor.Info()
	listsLock.Lock()
	defer listsLock.Unlock()
	if record.info_keys == nil && info.Len() > 0 {
		record.info_keys = (**C.char)(unsafe.Pointer(stringTable(info.Keys())))
		record.info_keys_count = C.uintptr_t(info.Len())
	}
	storeOut(keys, (**C.char)(unsafe.Pointer(record.info_keys)))
	*count = record.info_keys_count
	return nil
}
