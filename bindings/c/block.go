package main

// #include <stdlib.h>
// #include "fastpath.h"
import "C"

import (
	"cmp"
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
	record := C.mtsgo_block_record_new()
	if record == nil {
		panic(core.Errorf(core.InternalError, "out of memory allocating a block record"))
	}
	return attachBlockRecord(block, record, newHandle(block))
}

// blockRecordsOf gives the records of blocks in records (records[i] the record of blocks[i],
// at most maxBlockRecords at once), making those they lack with one call into C and one lock
// of the handles table.
func blockRecordsOf(blocks []*core.Block, records []*C.struct_mts_block_t) {
	var missing [maxBlockRecords]int
	count := 0
	for i, block := range blocks {
		records[i] = (*C.struct_mts_block_t)(block.View().Record())
		if records[i] == nil {
			missing[count] = i
			count++
		}
	}
	if count == 0 {
		return
	}
	var made [maxBlockRecords]*C.struct_mts_block_t // C pointers in Go memory: C may fill it
	if done := int(C.mtsgo_block_records_new(&made[0], C.uintptr_t(count))); done != count {
		for _, record := range made[:done] {
			C.mtsgo_block_record_free(record)
		}
		panic(core.Errorf(core.InternalError, "out of memory allocating a block record"))
	}
	var handles [maxBlockRecords]objectHandle
	newHandles(count, func(k int) any { return blocks[missing[k]] }, func(k int, handle objectHandle) {
		handles[k] = handle
	})
	for k, i := range missing[:count] { // outside the handles' lock, which disposing takes
		records[i] = attachBlockRecord(blocks[i], made[k], handles[k])
	}
}

// maxBlockRecords is the most records blockRecordsOf makes at once.
const maxBlockRecords = 64

// attachBlockRecord makes a new record, given its handle, the record of a block; when another
// thread attached one first (reading functions may run concurrently), the new record goes and
// that one is the answer.
func attachBlockRecord(block *core.Block, record *C.struct_mts_block_t, handle objectHandle) *C.struct_mts_block_t {
	record.record.magic = C.uint64_t(blockRecord)
	record.record.handle = C.uintptr_t(handle)
	if !block.View().Attach(unsafe.Pointer(record)) {
		disposeBlockRecord(record)
		return (*C.struct_mts_block_t)(block.View().Record())
	}
	return record
}

// disposeBlockRecord releases a block record and the lists it handed out.
func disposeBlockRecord(record *C.struct_mts_block_t) {
	record.record.magic = C.MTSGO_FREED_MAGIC
	if record.lent != 0 {
		// what the record lent its block goes with it
		if handle := lentBlockGone(record); handle != 0 {
			handle.Delete()
		}
		// (a lent record the core frees has no C gradients: it is a gradient, or a block without
		// any; a lent block with gradients goes with its map in C, or owns first)
		C.mtsgo_c_block_release(record, nil)
		return
	}
	dropBlockView(record, core.DirectRelease{})
	objectHandle(record.record.handle).Delete()
	C.mtsgo_block_record_free(record)
}

// borrowedBlockRecord gives the record of a block that belongs to a tensor map or a block.
func borrowedBlockRecord(block *core.Block) *C.struct_mts_block_t {
	record := blockRecordOf(block)
	record.held = 1
	return record
}

// errHeldBlock is the error of a block given where an owned block is needed.
func errHeldBlock(argument string) error {
	return core.Errorf(core.InvalidParameterError,
		"`%s` belongs to a tensor map or a block: it can not be freed or given away by itself", argument)
}

// listsLock serialises building the string lists of records, which functions that only read
// a block or tensor map may do from several threads at once.
var listsLock sync.Mutex

// forgetGradientsList frees the parameters list given by mts_block_gradients_list.
func forgetGradientsList(record *C.struct_mts_block_t) {
	if record.gradients == nil {
		return // no list handed out: no call into C
	}
	C.free(unsafe.Pointer(record.gradients))
	record.gradients = nil
	record.gradients_count = 0
}

// blockOf gives the core block behind a record, making it for a block made by the fast path
// (fastpath_block.c).
func blockOf(record *C.struct_mts_block_t) (*core.Block, error) {
	handle := objectHandle(atomic.LoadUintptr(blockHandle(record)))
	if handle == 0 {
		if err := materializeBlocks([]*C.struct_mts_block_t{record}, nil); err != nil {
			return nil, err
		}
		handle = objectHandle(atomic.LoadUintptr(blockHandle(record)))
	}
	if batch, ok := handle.Value().(*lentBlocks); ok {
		return &batch.made[record.lent_index].block, nil
	}
	return handle.Value().(*core.Block), nil
}

// blockHandle is the address of the handle of a block record, which C and Go both read: Go
// sets it once (publishHandle) for blocks made in C.
func blockHandle(record *C.struct_mts_block_t) *uintptr {
	return (*uintptr)(unsafe.Pointer(&record.record.handle))
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

// mtsgo_block_asked is the Go body of mts_block, for the cases that its fast path
// (fastpath_block.c) leaves to Go: before asking anything (asked NULL), or after asking what
// asked holds.
//
//export mtsgo_block_asked
func mtsgo_block_asked(data C.struct_mts_array_t, samples *C.struct_mts_labels_t, components **C.struct_mts_labels_t,
	componentsCount C.uintptr_t, properties *C.struct_mts_labels_t, asked *C.struct_mtsgo_asked) (result *C.struct_mts_block_t) {
	defer recoverObject("mts_block", &result)
	known, err := askedOf(asked)
	if err != nil {
		destroyArray(&data)
		recordError(err)
		return nil
	}
	block, err := newBlock(data, samples, components, componentsCount, properties, known)
	if err != nil {
		recordError(err)
		return nil
	}
	return block
}

func newBlock(data C.struct_mts_array_t, samples *C.struct_mts_labels_t, components **C.struct_mts_labels_t,
	componentsCount C.uintptr_t, properties *C.struct_mts_labels_t, asked core.Asked) (*C.struct_mts_block_t, error) {
	values := arrayFromC(data)
	samplesObject, samplesErr := labelsOf(samples)
	componentsLabels, componentsErr := labelsList(components, componentsCount, "component")
	propertiesObject, propertiesErr := labelsOf(properties)
	// the first error in the order of the arguments; the values, given to mts_block, go with it
	if err := cmp.Or(samplesErr, componentsErr, propertiesErr); err != nil {
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
	if gradientRecord != record {
		// Blocks made in C are made in Go together.
		if err := materializeBlocks([]*C.struct_mts_block_t{record, gradientRecord}, nil); err != nil {
			return err
		}
	}
	block, err := blockOf(record)
	if err != nil {
		return err
	}
	if gradientRecord.held != 0 {
		return errHeldBlock("gradient")
	}
	if err := ownLent(record, block); err != nil {
		return err
	}
	gradient, err := blockOf(gradientRecord)
	if err != nil {
		return err
	}
	C.mtsgo_blocks_given(&gradientRecord, 1)
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
	storeOut(parameters, (**C.char)(unsafe.Pointer(record.gradients)))
	*count = record.gradients_count
	return nil
}
