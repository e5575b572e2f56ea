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
var handleTable struct {
	chunks [handleChunks]atomic.Pointer[[handleChunkSize]any]

	lock sync.Mutex // guards next and free
	next uintptr    // slots below it have been used
	free []uintptr
}

// newHandle stores v and gives its handle; delete it when C lets go of the object.
func newHandle(v any) objectHandle {
	t := &handleTable
	t.lock.Lock()
	var slot uintptr
	if n := len(t.free); n > 0 {
		slot = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		slot = t.next
		if slot>>handleChunkBits >= handleChunks {
			t.lock.Unlock()
			panic(core.Errorf(core.InternalError, "too many live objects"))
		}
		t.next++
		if chunk := slot >> handleChunkBits; t.chunks[chunk].Load() == nil {
			t.chunks[chunk].Store(new([handleChunkSize]any))
		}
	}
	t.lock.Unlock()
	t.chunks[slot>>handleChunkBits].Load()[slot&(handleChunkSize-1)] = v
	return objectHandle(slot + 1)
}

// Value gives the stored value.
func (h objectHandle) Value() any {
	slot := uintptr(h) - 1
	return handleTable.chunks[slot>>handleChunkBits].Load()[slot&(handleChunkSize-1)]
}

// Delete frees the handle; it must not be used afterwards.
func (h objectHandle) Delete() {
	slot := uintptr(h) - 1
	handleTable.chunks[slot>>handleChunkBits].Load()[slot&(handleChunkSize-1)] = nil
	handleTable.lock.Lock()
	handleTable.free = append(handleTable.free, slot)
	handleTable.lock.Unlock()
}
