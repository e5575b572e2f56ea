package main

// #include <stdlib.h>
// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// exportedArray exposes a Go core.Array to C as an mts_array_t whose ptr is a cgo handle to
// this struct; the vtable's members are generated (go_array_gen.c, go_array_gen.go), but for
// destroy. The shape lives in C memory, as C may keep the pointer while the array lives.
type exportedArray struct {
	array  core.Array
	handle objectHandle
	raw    C.struct_mts_array_t
	shape  *C.uintptr_t
}

// exportArray gives a non-owning mts_array_t for a Go array that stays owned by Go; call
// release when the array goes away.
func exportArray(array core.Array) *exportedArray {
	return newExportedArray(array, false)
}

// exportOwnedArray hands a Go array to C for good: its destroy member destroys the array.
func exportOwnedArray(array core.Array) C.struct_mts_array_t {
	return newExportedArray(array, true).raw
}

func newExportedArray(array core.Array, owning bool) *exportedArray {
	e := &exportedArray{array: array}
	e.handle = newHandle(e)
	flag := C.int(0)
	if owning {
		flag = 1
	}
	e.raw = C.mtsgo_go_array(C.uintptr_t(e.handle), flag)
	if e.raw.ptr == nil {
		e.handle.Delete()
		if owning {
			array.Destroy()
		}
		panic(core.Errorf(core.InternalError, "out of memory exporting an array"))
	}
	return e
}

// release drops the handle and the C memory; the Go array itself is not destroyed.
func (e *exportedArray) release() {
	e.handle.Delete()
	C.free(unsafe.Pointer(e.shape))
	C.free(e.raw.ptr)
	e.shape = nil
}

// goArrayOrigin is the origin member of arrays exported from Go, which tells them apart in Go
// itself: a call into C to compare would cost more than the rest of arrayFromC.
var goArrayOrigin = C.mtsgo_go_array_origin()

// arrayFromC gives the core.Array for an array C hands over: the Go array itself for arrays
// exported from Go, an adaptor otherwise.
func arrayFromC(raw C.struct_mts_array_t) core.Array {
	if unsafe.Pointer(raw.origin) == goArrayOrigin {
		exported := exportedOf(C.mtsgo_go_array_handle(raw.ptr))
		return &cHeldGoArray{Array: exported.array, exported: exported, raw: raw}
	}
	return newCArray(raw)
}

// cHeldGoArray is a Go array that C handed back: destroying it follows the C array's destroy
// member (which may be NULL for a view).
type cHeldGoArray struct {
	core.Array
	exported *exportedArray
	raw      C.struct_mts_array_t
}

// Destroy follows the destroy member C gave with the array.
func (a *cHeldGoArray) Destroy() {
	C.mtsgo_array_destroy(&a.raw)
	a.raw.destroy = nil
}

func exportedOf(handle C.uintptr_t) *exportedArray {
	return objectHandle(handle).Value().(*exportedArray)
}

// goArrayCall runs one vtable member of an exported array, turning errors and panics into the
// status C gets.
func goArrayCall(member string, handle C.uintptr_t, call func(*exportedArray) error) (status C.mts_status_t) {
	defer recoverStatus("mts_array_t."+member, &status)
	return statusOf(call(exportedOf(handle)))
}

// mtsgo_goarray_destroy is mts_array_t.destroy for the C vtable of a Go array: it releases
// the Go array and the export, and has no way to report a failure.
//
//export mtsgo_goarray_destroy
func mtsgo_goarray_destroy(handle C.uintptr_t) {
	defer func() { recover() }()
	e := exportedOf(handle)
	e.array.Destroy()
	e.release()
}

// exportShape gives C the shape of the array in C memory the export owns, as C may keep the
// pointer until the next reshape. It is reallocated on every call: a reshape may have changed
// the number of axes.
func (e *exportedArray) exportShape(shape []uintptr) (*C.uintptr_t, error) {
	if len(shape) > 0 {
		resized := (*C.uintptr_t)(C.realloc(unsafe.Pointer(e.shape), C.size_t(len(shape))*C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))
		if resized == nil {
			return nil, core.Errorf(core.InternalError, "out of memory for an array shape")
		}
		e.shape = resized
		copy(unsafe.Slice((*uintptr)(unsafe.Pointer(e.shape)), len(shape)), shape)
	}
	return e.shape, nil
}

// borrowedFromC is an array C lends for the time of a call: it is not destroyed.
func borrowedFromC(raw C.struct_mts_array_t) core.Array {
	raw.destroy = nil
	return arrayFromC(raw)
}

func sizesFromC(shape *C.uintptr_t, count C.uintptr_t) []uintptr {
	if count == 0 {
		return []uintptr{}
	}
	return append([]uintptr(nil), unsafe.Slice((*uintptr)(unsafe.Pointer(shape)), count)...)
}

// sliceFromC views count C elements of type E as a Go slice of T (same layout), nil when
// empty; the memory stays C's.
func sliceFromC[T, E any](first *E, count C.uintptr_t) []T {
	if count == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(first)), count)
}

// arrayLentToBody is a taken array that the C wrapper lends to a Go body and destroys once the
// body returned (cgo.yaml's lent_to_body): Destroy lets it go without destroying it.
func arrayLentToBody(raw *C.struct_mts_array_t) core.Array {
	if unsafe.Pointer(raw.origin) == goArrayOrigin {
		return borrowedFromC(*raw)
	}
	return &cArray{raw: raw, lentToBody: true}
}
