package main

// #include <stdlib.h>
// #include "fastpath.h"
// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// cArray adapts a C caller's mts_array_t to core.Array. Every call goes through a generated
// trampoline (Go can not call C function pointers itself).
type cArray struct {
	// raw is where the struct lives, always in C memory: cgo checks every call's pointer into
	// Go memory by walking the struct's thirteen pointer members, which costs more than the
	// call. allocated says whether it is this cArray's own allocation, freed by Destroy.
	raw       *C.struct_mts_array_t
	allocated bool
}

var _ core.Array = (*cArray)(nil)

// newCArray takes ownership of a caller's array.
func newCArray(raw C.struct_mts_array_t) *cArray {
	a := newEmptyCArray()
	*a.raw = raw
	return a
}

// newEmptyCArray allocates a zero-filled array struct, for a callback to fill.
func newEmptyCArray() *cArray {
	raw := (*C.struct_mts_array_t)(C.calloc(1, C.size_t(unsafe.Sizeof(C.struct_mts_array_t{}))))
	if raw == nil {
		panic(core.Errorf(core.InternalError, "out of memory allocating an array"))
	}
	return &cArray{raw: raw, allocated: true}
}

// filledBy runs a callback filling a new array: the array when it succeeds, nil (and the
// struct freed) when it fails.
func filledBy(fill func(created *C.struct_mts_array_t) C.mts_status_t) (*cArray, bool) {
	created := newEmptyCArray()
	if fill(created.raw) != C.MTS_SUCCESS {
		C.free(unsafe.Pointer(created.raw))
		return nil, false
	}
	return created, true
}

// cArrayAt takes ownership of a caller's array already stored in C memory, which must outlive
// the cArray.
func cArrayAt(raw *C.struct_mts_array_t) *cArray {
	return &cArray{raw: raw}
}

// missing is the error of a NULL vtable member the core needs.
func missing(member string) error {
	return core.Errorf(core.InternalError, "mts_array_t.%s function is NULL", member)
}

// failed turns an array callback's non-zero status into MTS_CALLBACK_ERROR. The callback recorded
// its own error (with its origin and data, which C++ and Python use to rethrow their
// exceptions), so only the message is prefixed, here on the calling thread.
func failed(member string) error {
	return callbackFailed("calling mts_array_t." + member + " failed")
}

// callbackFailed is failed for any user callback: context says which call failed.
func callbackFailed(context string) error {
	C.mtsgo_callback_failed((*C.char)(unsafe.Pointer(unsafe.StringData(context))), C.size_t(len(context)))
	message, _ := lastError()
	return recordedError{&core.Error{Status: core.CallbackError, Message: message}}
}

func (a *cArray) Origin() (core.Origin, error) {
	if a.raw.origin == nil {
		return 0, missing("origin")
	}
	var origin C.mts_data_origin_t
	if C.mtsgo_array_origin(a.raw, &origin) != C.MTS_SUCCESS {
		return 0, failed("origin")
	}
	return core.Origin(origin), nil
}

func (a *cArray) Device() (core.Device, error) {
	if a.raw.device == nil {
		return core.Device{}, missing("device")
	}
	result := C.mtsgo_array_device_value(a.raw)
	if result.status != C.MTS_SUCCESS {
		return core.Device{}, failed("device")
	}
	return deviceFromC(result.device), nil
}

func (a *cArray) DType() (core.DType, error) {
	if a.raw.dtype == nil {
		return core.DType{}, missing("dtype")
	}
	var dtype C.DLDataType
	if C.mtsgo_array_dtype(a.raw, &dtype) != C.MTS_SUCCESS {
		return core.DType{}, failed("dtype")
	}
	return dtypeFromC(dtype), nil
}

func (a *cArray) AsDLPack(device core.Device, stream *int64, maxVersion core.DLPackVersion) (*core.Tensor, error) {
	if a.raw.as_dlpack == nil {
		return nil, missing("as_dlpack")
	}
	var managed *C.DLManagedTensorVersioned
	version := C.DLPackVersion{major: C.uint32_t(maxVersion.Major), minor: C.uint32_t(maxVersion.Minor)}
	if C.mtsgo_array_as_dlpack(a.raw, &managed, deviceToC(device), (*C.int64_t)(stream), version) != C.MTS_SUCCESS {
		return nil, failed("as_dlpack")
	}
	return exportedTensor(managed)
}

// exportedTensor wraps what a successful as_dlpack call gave.
func exportedTensor(managed *C.DLManagedTensorVersioned) (*core.Tensor, error) {
	if managed == nil {
		return nil, core.Errorf(core.InternalError, "mts_array_t.as_dlpack returned a NULL tensor")
	}
	return tensorFromC(managed)
}

func (a *cArray) FromDLPack(tensor *core.Tensor) (core.Array, error) {
	if a.raw.from_dlpack == nil {
		tensor.Release()
		return nil, missing("from_dlpack")
	}
	managed, err := tensorToCShared(tensor)
	if err != nil {
		return nil, err
	}
	created, ok := filledBy(func(out *C.struct_mts_array_t) C.mts_status_t {
		return C.mtsgo_array_from_dlpack(a.raw, managed, out)
	})
	if !ok {
		return nil, failed("from_dlpack")
	}
	return created, nil
}

func (a *cArray) Shape() ([]uintptr, error) {
	if a.raw.shape == nil {
		return nil, missing("shape")
	}
	result := C.mtsgo_array_shape_value(a.raw)
	if result.status != C.MTS_SUCCESS {
		return nil, failed("shape")
	}
	return shapeFromC(result.shape, result.count)
}

// shapeFromC copies the shape an array's shape callback gave.
func shapeFromC(shape *C.uintptr_t, count C.uintptr_t) ([]uintptr, error) {
	if count == 0 {
		return []uintptr{}, nil
	}
	if shape == nil {
		return nil, core.Errorf(core.InternalError, "mts_array_t.shape returned a NULL shape with %d dimensions", count)
	}
	return append([]uintptr(nil), unsafe.Slice((*uintptr)(unsafe.Pointer(shape)), count)...), nil
}

func (a *cArray) Reshape(shape []uintptr) error {
	if a.raw.reshape == nil {
		return missing("reshape")
	}
	if C.mtsgo_array_reshape(a.raw, sizesToC(shape), C.uintptr_t(len(shape))) != C.MTS_SUCCESS {
		return failed("reshape")
	}
	return nil
}

func (a *cArray) SwapAxes(axis1, axis2 uintptr) error {
	if a.raw.swap_axes == nil {
		return missing("swap_axes")
	}
	if C.mtsgo_array_swap_axes(a.raw, C.uintptr_t(axis1), C.uintptr_t(axis2)) != C.MTS_SUCCESS {
		return failed("swap_axes")
	}
	return nil
}

func (a *cArray) Create(shape []uintptr, fill core.Array) (core.Array, error) {
	if a.raw.create == nil {
		return nil, missing("create")
	}
	fillC, ok := fill.(*cArray)
	if !ok {
		return nil, core.Errorf(core.InternalError, "the fill value of mts_array_t.create must be a C array")
	}
	view := *fillC.raw
	view.destroy = nil // the callee borrows the fill value
	created, ok := filledBy(func(out *C.struct_mts_array_t) C.mts_status_t {
		return C.mtsgo_array_create(a.raw, sizesToC(shape), C.uintptr_t(len(shape)), view, out)
	})
	if !ok {
		return nil, failed("create")
	}
	return created, nil
}

func (a *cArray) Copy(device core.Device) (core.Array, error) {
	if a.raw.copy == nil {
		return nil, missing("copy")
	}
	created, ok := filledBy(func(out *C.struct_mts_array_t) C.mts_status_t {
		return C.mtsgo_array_copy(a.raw, deviceToC(device), out)
	})
	if !ok {
		return nil, failed("copy")
	}
	return created, nil
}

func (a *cArray) MoveData(input core.Array, movements []core.DataMovement) error {
	if a.raw.move_data == nil {
		return missing("move_data")
	}
	source, ok := input.(*cArray)
	if !ok {
		return core.Errorf(core.InternalError, "mts_array_t.move_data needs an input array of the same kind")
	}
	var first *C.struct_mts_data_movement_t
	if len(movements) > 0 {
		first = (*C.struct_mts_data_movement_t)(unsafe.Pointer(&movements[0]))
	}
	if C.mtsgo_array_move_data(a.raw, source.raw.ptr, first, C.uintptr_t(len(movements))) != C.MTS_SUCCESS {
		return failed("move_data")
	}
	return nil
}

func (a *cArray) Destroy() {
	if a.raw == nil {
		return
	}
	if a.allocated {
		C.mtsgo_array_release(a.raw)
		a.raw = nil
		return
	}
	C.mtsgo_array_destroy(a.raw)
	*a.raw = C.struct_mts_array_t{}
}

func sizesToC(shape []uintptr) *C.uintptr_t {
	if len(shape) == 0 {
		return nil
	}
	return (*C.uintptr_t)(unsafe.Pointer(&shape[0]))
}

func deviceFromC(d C.DLDevice) core.Device {
	return core.Device{Type: core.DeviceType(d.device_type), ID: int32(d.device_id)}
}

func deviceToC(d core.Device) C.DLDevice {
	return C.DLDevice{device_type: C.DLDeviceType(d.Type), device_id: C.int32_t(d.ID)}
}

func dtypeFromC(t C.DLDataType) core.DType {
	return core.DType{Code: core.DataTypeCode(t.code), Bits: uint8(t.bits), Lanes: uint16(t.lanes)}
}

func dtypeToC(t core.DType) C.DLDataType {
	return C.DLDataType{code: C.uint8_t(t.Code), bits: C.uint8_t(t.Bits), lanes: C.uint16_t(t.Lanes)}
}
