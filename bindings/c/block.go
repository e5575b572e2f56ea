package main

// #include <stdlib.h>
// #include "mtsgo.h"
import "C"

import (
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// A block's record is made the first time C sees the block (creation, block_by_id, gradient)
// and goes with the block (through its View), so a block keeps one address for its life.

// blockRecordOf gives the record of a block, making it the first time.
func blockRecordOf(block *core.Block) *C.struct_mts_block_t {
	if existing := block.View().Record(); existing != nil {
		return (*C.struct_mts_block_t)(existing)
	}
	record := (*C.struct_mts_block_t)(C.calloc(1, C.size_t(unsafe.Sizeof(C.struct_mts_block_t{}))))
	if record == nil {
		panic(core.Errorf(core.InternalError, "out of memory allocating a block record"))
	}
	record.record.magic = C.uint64_t(blockRecord)
	record.record.handle = C.uintptr_t(newHandle(block))
	if !block.View().Attach(unsafe.Pointer(record)) {
		// Another thread made one first (reading functions may run concurrently).
		disposeBlockRecord(record)
		return (*C.struct_mts_block_t)(block.View().Record())
	}
	return record
}

// disposeBlockRecord releases a block record and the lists it handed out.
func disposeBlockRecord(record *C.struct_mts_block_t) {
	record.record.magic = C.MTSGO_FREED_MAGIC
	objectHandle(record.record.handle).Delete()
	C.mtsgo_block_record_free(record)
}

// listsLock serialises building the string lists of records, which functions that only read
// a block or tensor map may do from several threads at once.
var listsLock sync.Mutex

// forgetGradientsList frees the parameters list given by mts_block_gradients_list.
func forgetGradientsList(record *C.struct_mts_block_t) {
	C.free(unsafe.Pointer(record.gradients))
	record.gradients = nil
	record.gradients_count = 0
}

// blockOf gives the core block behind a record, making it for a block made in C.
func blockOf(record *C.struct_mts_block_t) (*core.Block, error) {
	if recordKind(record.record.magic) != blockRecord {
		// lookupRecord gives the error.
		_, err := lookupRecord(&record.record, blockRecord)
		return nil, err
	}
	handle := objectHandle(atomic.LoadUintptr(blockHandle(record)))
	if handle == 0 {
		if err := materializeBlocks([]*C.struct_mts_block_t{record}); err != nil {
			return nil, err
		}
		handle = objectHandle(atomic.LoadUintptr(blockHandle(record)))
	}
	return handle.Value().(*core.Block), nil
}

// blockHandle is the address of the handle of a block record, which C and Go both read: Go
// sets it once, atomically, for blocks made in C.
func blockHandle(record *C.struct_mts_block_t) *uintptr {
	return (*uintptr)(unsafe.Pointer(&record.record.handle))
}

// materializingBlocks serialises the making of blocks for records made in C.
var materializingBlocks sync.Mutex

// materializeBlocks makes the core blocks of records made in C (mtsgo_c_block) that have none
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
	var labelsBuffer [C.MTSGO_C_BLOCK_COMPONENTS + 2]*C.struct_mts_labels_t
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
	asked := core.BlockAsked{Shape: shape[:len(all)], HasShape: true, Devices: devices[:len(all)+1]}
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
	record.components = [C.MTSGO_C_BLOCK_COMPONENTS]*C.struct_mts_labels_t{}
	return nil
}

// labelsList looks up the labels of an array of records, rejecting NULL entries.
func labelsList(records **C.struct_mts_labels_t, count C.uintptr_t, what string) ([]*core.ArrayLabels, error) {
	if count == 0 {
		return nil, nil
	}
	result := make([]*core.ArrayLabels, count)
	for i, record := range unsafe.Slice(records, count) {
		if record == nil {
			return nil, core.Errorf(core.InvalidParameterError, "got invalid NULL pointer for %s", what)
		}
		object, err := labelsOf(record)
		if err != nil {
			return nil, err
		}
		result[i] = object.labels
	}
	return result, nil
}

// mtsgo_block_asked is the Go body of mts_block, for the cases that its C body (mtsgo_c_block)
// leaves to Go: before asking anything (hasShape 0), or after asking the values' shape (as the
// array gave it) and the first devicesCount devices in the order of core.BlockAsked.
//
//export mtsgo_block_asked
func mtsgo_block_asked(data C.struct_mts_array_t, samples *C.struct_mts_labels_t, components **C.struct_mts_labels_t,
	componentsCount C.uintptr_t, properties *C.struct_mts_labels_t, shape *C.uintptr_t, dimensions C.uintptr_t,
	hasShape C.int, devices *C.DLDevice, devicesCount C.uintptr_t) (result *C.struct_mts_block_t) {
	defer recoverObject("mts_block", &result)
	var asked core.BlockAsked
	if hasShape != 0 {
		known, err := shapeFromC(shape, dimensions)
		if err != nil {
			destroyArray(&data)
			recordError(err)
			return nil
		}
		asked.Shape, asked.HasShape = known, true
		for _, device := range unsafe.Slice(devices, devicesCount) {
			asked.Devices = append(asked.Devices, deviceFromC(device))
		}
	}
	block, err := newBlock(data, samples, components, componentsCount, properties, asked)
	if err != nil {
		recordError(err)
		return nil
	}
	return block
}

func newBlock(data C.struct_mts_array_t, samples *C.struct_mts_labels_t, components **C.struct_mts_labels_t,
	componentsCount C.uintptr_t, properties *C.struct_mts_labels_t, asked core.BlockAsked) (*C.struct_mts_block_t, error) {
	values := arrayFromC(data)
	samplesObject, err := labelsOf(samples)
	if err != nil {
		values.Destroy()
		return nil, err
	}
	componentsLabels, err := labelsList(components, componentsCount, "component")
	if err != nil {
		values.Destroy()
		return nil, err
	}
	propertiesObject, err := labelsOf(properties)
	if err != nil {
		values.Destroy()
		return nil, err
	}
	block, err := core.NewBlockAsked(values, samplesObject.labels, componentsLabels, propertiesObject.labels, asked)
	if err != nil {
		return nil, err
	}
	return blockRecordOf(block), nil
}

// mtsgo_block_release is the Go body of mts_block_free, for blocks Go made or was given.
//
//export mtsgo_block_release
func mtsgo_block_release(record *C.struct_mts_block_t) (status C.mts_status_t) {
	defer recoverStatus("mts_block_free", &status)
	block, err := blockOf(record)
	if err != nil {
		return recordError(err)
	}
	block.Free()
	return C.MTS_SUCCESS
}

func implBlockAddGradient(record *C.struct_mts_block_t, parameter *C.char, gradientRecord *C.struct_mts_block_t) error {
	block, err := blockOf(record)
	if err != nil {
		return err
	}
	gradient, err := blockOf(gradientRecord)
	if err != nil {
		return err
	}
	name := C.GoString(parameter)
	if !utf8.ValidString(name) {
		gradient.Free()
		return core.Errorf(core.InvalidParameterError, "the gradient parameter is not valid UTF-8")
	}
	// The list handed out so far ends here, whatever happens.
	forgetGradientsList(record)
	return block.AddGradient(name, gradient)
}

func implBlockGradientsList(record *C.struct_mts_block_t, parameters ***C.char, count *C.uintptr_t) error {
	block, err := blockOf(record)
	if err != nil {
		return err
	}
	gradients := block.Gradients()
	listsLock.Lock()
	defer listsLock.Unlock()
	if record.gradients == nil && len(gradients) > 0 {
		names := make([]string, len(gradients))
		for i, g := range gradients {
			names[i] = g.Parameter
		}
		record.gradients = (**C.char)(unsafe.Pointer(stringTable(names)))
		record.gradients_count = C.uintptr_t(len(names))
	}
	*parameters = (**C.char)(unsafe.Pointer(record.gradients))
	*count = record.gradients_count
	return nil
}

