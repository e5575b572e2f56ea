package main

// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// What the generated bodies (impl_gen.go) call to convert arguments and store results, where
// a conversion is more than a cast.

// checkEntries rejects a buffer whose length (the count argument countName) is not the
// number of entries of the labels argument labelsName.
func checkEntries(countName string, count C.uintptr_t, labelsName string, labels *core.ArrayLabels) error {
	if int(count) != labels.Count() {
		return core.Errorf(core.InvalidParameterError,
			"`%s` (%d) must match the number of elements in `%s` (%d) but doesn't",
			countName, count, labelsName, labels.Count())
	}
	return nil
}

// copyToC copies values into a caller's buffer of the same element type, when there is one.
func copyToC[T any, CT any](destination *CT, values []T) {
	if destination != nil && len(values) > 0 {
		copy(unsafe.Slice((*T)(unsafe.Pointer(destination)), len(values)), values)
	}
}

// writeCString writes text and a final NUL into a caller's buffer of size bytes, failing with
// MTS_BUFFER_SIZE_ERROR when it does not fit.
func writeCString(buffer *C.char, size C.uintptr_t, text string) error {
	if uint64(size) < uint64(len(text))+1 {
		space := uint64(size)
		if space > 0 {
			space-- // room for the final NUL
		}
		return core.Errorf(core.BufferSizeError, "got space for %d characters, but we need to write %d", space, len(text))
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(buffer)), len(text)+1)
	copy(out, text)
	out[len(text)] = 0
	return nil
}

// bytesFromC views a caller's buffer, which is only read during the call.
func bytesFromC(buffer *C.uint8_t, count C.uintptr_t) []byte {
	if count == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(buffer)), count)
}

// createArrayWith adapts mts_create_array_callback_t to the core's array factory.
func createArrayWith(callback C.mts_create_array_callback_t) core.CreateArray {
	return func(shape []uintptr, dtype core.DType) (core.Array, error) {
		created, ok := filledBy(func(out *C.struct_mts_array_t) C.mts_status_t {
			return C.mtsgo_call_create_array_callback(callback, sizesToC(shape), C.uintptr_t(len(shape)), dtypeToC(dtype), out)
		})
		if !ok {
			return nil, callbackFailed("failed to create a new array")
		}
		if *created.raw == (C.struct_mts_array_t{}) {
			// A callback that reports success without filling the array is the caller's
			// mistake, not ours.
			created.Destroy()
			return nil, core.Errorf(core.InvalidParameterError,
				"create_array returned success but left the mts_array_t empty (every member NULL)")
		}
		return created, nil
	}
}

// arrayView gives the mts_array_t C gave for an array, with destroy NULL: the holder keeps it.
func arrayView(array core.Array) (C.struct_mts_array_t, error) {
	raw := arrayGiven(array)
	if raw == nil {
		return C.struct_mts_array_t{}, core.Errorf(core.InternalError,
			"this block's values were not given through the C API")
	}
	view := *raw
	view.destroy = nil
	return view, nil
}

// arrayGiven is the mts_array_t C gave for an array, nil for an array Go made.
func arrayGiven(array core.Array) *C.struct_mts_array_t {
	switch a := array.(type) {
	case *cArray:
		return a.raw
	case *cHeldGoArray:
		return &a.raw
	}
	return nil
}

// storeOut writes v into a C caller's output without Go's write barrier, which reads the old
// content of the memory it overwrites, during a garbage collection, as a pointer to mark: an
// output the caller left uninitialised can hold anything, including what looks like a pointer
// into a freed part of the Go heap, which stops the program. v holds no Go pointer (records,
// C strings and arrays live in C memory), so the collector needs to see none.
func storeOut[T any](out *T, v T) {
	size := unsafe.Sizeof(v)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(out)), size), unsafe.Slice((*byte)(unsafe.Pointer(&v)), size))
}
