package main

// #include <stdlib.h>
// #include "mtsgo.h"
import "C"

import (
	"runtime"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// exportedArray exposes a Go core.Array to C as an mts_array_t whose ptr is a cgo handle to
// this struct. The shape lives in C memory, as C may keep the pointer while the array lives.
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

//export mtsgo_goarray_destroy
func mtsgo_goarray_destroy(handle C.uintptr_t) {
	defer func() { recover() }() // destroy has no way to report a failure
	e := exportedOf(handle)
	e.array.Destroy()
	e.release()
}

//export mtsgo_goarray_origin
func mtsgo_goarray_origin(handle C.uintptr_t, origin *C.mts_data_origin_t) C.mts_status_t {
	return goArrayCall("origin", handle, func(e *exportedArray) error {
		value, err := e.array.Origin()
		*origin = C.mts_data_origin_t(value)
		return err
	})
}

//export mtsgo_goarray_device
func mtsgo_goarray_device(handle C.uintptr_t, device *C.DLDevice) C.mts_status_t {
	return goArrayCall("device", handle, func(e *exportedArray) error {
		value, err := e.array.Device()
		*device = deviceToC(value)
		return err
	})
}

//export mtsgo_goarray_dtype
func mtsgo_goarray_dtype(handle C.uintptr_t, dtype *C.DLDataType) C.mts_status_t {
	return goArrayCall("dtype", handle, func(e *exportedArray) error {
		value, err := e.array.DType()
		*dtype = dtypeToC(value)
		return err
	})
}

//export mtsgo_goarray_as_dlpack
func mtsgo_goarray_as_dlpack(handle C.uintptr_t, tensor **C.DLManagedTensorVersioned, device C.DLDevice,
	stream *C.int64_t, maxVersion C.DLPackVersion) C.mts_status_t {
	return goArrayCall("as_dlpack", handle, func(e *exportedArray) error {
		version := core.DLPackVersion{Major: uint32(maxVersion.major), Minor: uint32(maxVersion.minor)}
		exported, err := e.array.AsDLPack(deviceFromC(device), (*int64)(unsafe.Pointer(stream)), version)
		if err != nil {
			return err
		}
		managed, err := tensorToCShared(exported)
		if err != nil {
			return err
		}
		*tensor = managed
		return nil
	})
}

//export mtsgo_goarray_from_dlpack
func mtsgo_goarray_from_dlpack(handle C.uintptr_t, tensor *C.DLManagedTensorVersioned, created *C.struct_mts_array_t) C.mts_status_t {
	return goArrayCall("from_dlpack", handle, func(e *exportedArray) error {
		if tensor == nil {
			return core.Errorf(core.InvalidParameterError, "got invalid NULL pointer for dl_managed_tensor")
		}
		imported, err := tensorFromC(tensor)
		if err != nil {
			return err
		}
		array, err := e.array.FromDLPack(imported)
		if err != nil {
			return err
		}
		*created = exportOwnedArray(array)
		return nil
	})
}

//export mtsgo_goarray_shape
func mtsgo_goarray_shape(handle C.uintptr_t, shape **C.uintptr_t, count *C.uintptr_t) C.mts_status_t {
	return goArrayCall("shape", handle, func(e *exportedArray) error {
		value, err := e.array.Shape()
		if err != nil {
			return err
		}
		if len(value) > 0 {
			// Reallocated on every call: a reshape may have changed the number of axes.
			resized := (*C.uintptr_t)(C.realloc(unsafe.Pointer(e.shape), C.size_t(len(value))*C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))
			if resized == nil {
				return core.Errorf(core.InternalError, "out of memory for an array shape")
			}
			e.shape = resized
			copy(unsafe.Slice((*uintptr)(unsafe.Pointer(e.shape)), len(value)), value)
		}
		*shape = e.shape
		*count = C.uintptr_t(len(value))
		return nil
	})
}

//export mtsgo_goarray_reshape
func mtsgo_goarray_reshape(handle C.uintptr_t, shape *C.uintptr_t, count C.uintptr_t) C.mts_status_t {
	return goArrayCall("reshape", handle, func(e *exportedArray) error {
		return e.array.Reshape(sizesFromC(shape, count))
	})
}

//export mtsgo_goarray_swap_axes
func mtsgo_goarray_swap_axes(handle C.uintptr_t, axis1, axis2 C.uintptr_t) C.mts_status_t {
	return goArrayCall("swap_axes", handle, func(e *exportedArray) error {
		return e.array.SwapAxes(uintptr(axis1), uintptr(axis2))
	})
}

//export mtsgo_goarray_create
func mtsgo_goarray_create(handle C.uintptr_t, shape *C.uintptr_t, count C.uintptr_t, fill C.struct_mts_array_t, created *C.struct_mts_array_t) C.mts_status_t {
	return goArrayCall("create", handle, func(e *exportedArray) error {
		fill.destroy = nil // borrowed
		array, err := e.array.Create(sizesFromC(shape, count), arrayFromC(fill))
		if err != nil {
			return err
		}
		*created = exportOwnedArray(array)
		return nil
	})
}

//export mtsgo_goarray_copy
func mtsgo_goarray_copy(handle C.uintptr_t, device C.DLDevice, created *C.struct_mts_array_t) C.mts_status_t {
	return goArrayCall("copy", handle, func(e *exportedArray) error {
		array, err := e.array.Copy(deviceFromC(device))
		if err != nil {
			return err
		}
		*created = exportOwnedArray(array)
		return nil
	})
}

//export mtsgo_goarray_move_data
func mtsgo_goarray_move_data(output, input C.uintptr_t, movements *C.struct_mts_data_movement_t, count C.uintptr_t) C.mts_status_t {
	return goArrayCall("move_data", output, func(e *exportedArray) error {
		var moves []core.DataMovement
		if count > 0 {
			moves = unsafe.Slice((*core.DataMovement)(unsafe.Pointer(movements)), count)
		}
		return e.array.MoveData(exportedOf(input).array, moves)
	})
}

func sizesFromC(shape *C.uintptr_t, count C.uintptr_t) []uintptr {
	if count == 0 {
		return []uintptr{}
	}
	return append([]uintptr(nil), unsafe.Slice((*uintptr)(unsafe.Pointer(shape)), count)...)
}

// sharedTensor keeps a Go tensor (and its pinned memory) alive while C holds its export.
type sharedTensor struct {
	tensor *core.Tensor
	pinner runtime.Pinner
}

// tensorToCShared exports a tensor to C without copying its data: Go memory is pinned until
// C calls the deleter, which also releases the Go tensor.
func tensorToCShared(tensor *core.Tensor) (*C.DLManagedTensorVersioned, error) {
	shared := &sharedTensor{tensor: tensor}
	handle := newHandle(shared)
	ndim := len(tensor.Shape)
	managed := C.mtsgo_shared_tensor_new(C.int32_t(ndim), C.uintptr_t(handle))
	if managed == nil {
		handle.Delete()
		tensor.Release()
		return nil, core.Errorf(core.InternalError, "out of memory for a DLPack tensor")
	}
	if tensor.Data != nil {
		shared.pinner.Pin(tensor.Data)
	}
	managed.version = C.DLPackVersion{major: C.uint32_t(tensor.Version.Major), minor: C.uint32_t(tensor.Version.Minor)}
	managed.flags = C.uint64_t(tensor.Flags)
	dl := &managed.dl_tensor
	dl.data = tensor.Data
	dl.device = deviceToC(tensor.Device)
	dl.dtype = dtypeToC(tensor.DType)
	dl.byte_offset = C.uint64_t(tensor.ByteOffset)
	if ndim > 0 {
		copy(unsafe.Slice((*int64)(unsafe.Pointer(dl.shape)), ndim), tensor.Shape)
		strides := unsafe.Slice((*int64)(unsafe.Pointer(dl.strides)), ndim)
		if tensor.Strides != nil {
			copy(strides, tensor.Strides)
		} else {
			stride := int64(1)
			for axis := ndim - 1; axis >= 0; axis-- {
				strides[axis] = stride
				stride *= tensor.Shape[axis]
			}
		}
	}
	return managed, nil
}

//export mtsgo_shared_tensor_release
func mtsgo_shared_tensor_release(handle C.uintptr_t) {
	defer func() { recover() }() // a deleter has no way to report a failure
	h := objectHandle(handle)
	shared := h.Value().(*sharedTensor)
	h.Delete()
	shared.pinner.Unpin()
	shared.tensor.Release()
}
