package core

import (
	"sync"
	"unsafe"
	"weak"
)

// Recycled memory for the results of reductions. A result goes to the caller's array through
// DLPack without a copy; when the caller frees that array, the DLPack deleter gives the memory
// back here, and the next result of the same size is written over it. A fresh Go allocation
// of that size costs a pass that zeroes it (or, for memory new to the process, a page fault
// per page), as much as the reduction's own pass over a result as large as its input (a
// gradient whose rows are not merged). Buffers given back are held through weak pointers: a
// garbage collection frees those not taken again, so recycling keeps no memory alive.

// recycleMinBytes is the size from which results are recycled; smaller ones cost little to
// allocate. A variable, for the tests to recycle small results.
var recycleMinBytes = 1 << 20

// recycleMaxPerSize bounds the buffers of one size waiting to be taken again, and
// recycleMaxSizes the sizes: past it, the sizes whose buffers were all collected are dropped
// (results of ever-changing sizes would otherwise leave their weak pointers behind).
const (
	recycleMaxPerSize = 16
	recycleMaxSizes   = 64
)

var recycled = struct {
	sync.Mutex
	free map[int][]weak.Pointer[uint64] // by size in 8-byte words
}{free: map[int][]weak.Pointer[uint64]{}}

// resultBuffer gives n elements of type T whose contents are undefined: the caller writes
// every one of them. Hand it to the caller with resultTensor. The memory is 8-byte words,
// whatever T, so that it suits every element type once recycled.
func resultBuffer[T Reducible](n int) []T {
	words := (n*int(unsafe.Sizeof(T(0))) + 7) / 8
	if words == 0 {
		return []T{}
	}
	first := takeRecycled(words)
	if first == nil {
		first = &make([]uint64, words)[0]
	}
	return unsafe.Slice((*T)(unsafe.Pointer(first)), n)
}

// takeRecycled gives the first word of a recycled buffer of that many words, or nil.
func takeRecycled(words int) *uint64 {
	if words*8 < recycleMinBytes {
		return nil
	}
	recycled.Lock()
	defer recycled.Unlock()
	free := recycled.free[words]
	var first *uint64
	for first == nil && len(free) > 0 {
		first = free[len(free)-1].Value() // nil once collected
		free = free[:len(free)-1]
	}
	if len(free) == 0 {
		delete(recycled.free, words)
	} else {
		recycled.free[words] = free
	}
	return first
}

// resultTensor is tensorOver for a buffer of resultBuffer: once released, the buffer is
// given back for the next result of its size.
func resultTensor[T Reducible](view Tensor, data []T) *Tensor {
	if len(data) > 0 {
		view.Data = unsafe.Pointer(&data[0])
	}
	return NewTensor(view, func() { recycleBuffer(data) })
}

// recycleBuffer gives back a buffer of resultBuffer, which nothing reads or writes any more.
func recycleBuffer[T Reducible](data []T) {
	words := (len(data)*int(unsafe.Sizeof(T(0))) + 7) / 8
	if words == 0 || words*8 < recycleMinBytes {
		return
	}
	pointer := weak.Make((*uint64)(unsafe.Pointer(&data[0])))
	recycled.Lock()
	defer recycled.Unlock()
	if len(recycled.free) >= recycleMaxSizes {
		dropCollected()
	}
	if free := recycled.free[words]; len(free) < recycleMaxPerSize {
		recycled.free[words] = append(free, pointer)
	}
}

// dropCollected forgets the buffers the garbage collector freed, and the sizes left without
// any; with the lock held.
func dropCollected() {
	for words, free := range recycled.free {
		live := free[:0]
		for _, pointer := range free {
			if pointer.Value() != nil {
				live = append(live, pointer)
			}
		}
		if len(live) == 0 {
			delete(recycled.free, words)
		} else {
			recycled.free[words] = live
		}
	}
}
