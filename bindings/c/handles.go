package main

import (
	"sync"
	"sync/atomic"

	"github.com/metatensor-go/metatensor/internal/core"
)

// objectHandle is what C holds in place of a Go object: an index into a table of Go values,
// as cgo.Handle, but read without a lock or hashing, since every call on a labels, block or
// tensor map looks one up. Handles are never 0.
type objectHandle uintptr

const (
	handleChunkBits = 10
	handleChunkSize = 1 << handleChunkBits
	handleChunks    = 1 << 16 // up to 64 Mi live handles
)

// handleTable holds the values in fixed chunks, made on demand and never moved, so a lookup
// is two loads. Freed slots are reused.
var handleTable handleTableType

type handleTableType struct {
	chunks [handleChunks]atomic.Pointer[[handleChunkSize]any]

	lock sync.Mutex // guards next and free
	next uintptr    // slots below it have been used
	free []uintptr
}

// newHandle stores v and gives its handle; delete it when C lets go of the object. (Not
// newHandles with one value: most objects get their handle here, one at a time, and the two
// closures cost as much as the rest.)
func newHandle(v any) objectHandle {
	t := &handleTable
	t.lock.Lock()
	slot, ok := t.takeSlot()
	if ok {
		*t.at(slot) = v
	}
	t.lock.Unlock()
	if !ok {
		panic(errTooManyObjects)
	}
	return objectHandle(slot + 1)
}

// newHandles stores count values, taking the lock once: value(i) is stored, and set(i, h)
// given its handle.
func newHandles(count int, value func(i int) any, set func(i int, h objectHandle)) {
	t := &handleTable
	t.lock.Lock()
	defer t.lock.Unlock()
	for i := range count {
		slot, ok := t.takeSlot()
		if !ok {
			panic(errTooManyObjects)
		}
		*t.at(slot) = value(i)
		set(i, objectHandle(slot+1))
	}
}

var errTooManyObjects = core.Errorf(core.InternalError, "too many live objects")

// takeSlot gives a free slot, reused or new, its chunk made; false when the table is full.
// Under the lock.
func (t *handleTableType) takeSlot() (uintptr, bool) {
	if n := len(t.free); n > 0 {
		slot := t.free[n-1]
		t.free = t.free[:n-1]
		return slot, true
	}
	slot := t.next
	if slot>>handleChunkBits >= handleChunks {
		return 0, false
	}
	t.next++
	if chunk := slot >> handleChunkBits; t.chunks[chunk].Load() == nil {
		t.chunks[chunk].Store(new([handleChunkSize]any))
	}
	return slot, true
}

// at is where the value of a slot is stored, its chunk made.
func (t *handleTableType) at(slot uintptr) *any {
	return &t.chunks[slot>>handleChunkBits].Load()[slot&(handleChunkSize-1)]
}

// Value gives the stored value.
func (h objectHandle) Value() any { return *handleTable.at(uintptr(h) - 1) }

// Delete frees the handle; it must not be used afterwards.
func (h objectHandle) Delete() { deleteHandles([]objectHandle{h}) }

// deleteHandles is Delete for many handles, taking the lock once.
func deleteHandles(handles []objectHandle) {
	for _, h := range handles {
		*handleTable.at(uintptr(h) - 1) = nil
	}
	handleTable.lock.Lock()
	for _, h := range handles {
		handleTable.free = append(handleTable.free, uintptr(h)-1)
	}
	handleTable.lock.Unlock()
}
