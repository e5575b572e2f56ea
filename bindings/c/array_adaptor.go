package main

// #include "fastpath.h"
// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// cArray adapts a C caller's mts_array_t to core.Array. Every call goes through a generated
// trampoline (Go can not call C function pointers itself); the methods are generated
// (array_adaptor_gen.go), but for Destroy.
type cArray struct {
	// raw is where the struct lives, always in C memory: cgo checks every call's pointer into
	// Go memory by walking the struct's thirteen pointer members, which costs more than the
	// call. allocated says whether it is this cArray's own allocation, freed by Destroy.
	raw       *C.struct_mts_array_t
	allocated bool
	// lentToBody says that the C wrapper destroys the array once the Go body returned
	// (arrayLentToBody): Destroy lets go of it only.
	lentToBody bool
	// labels is the record of labels made in C whose values array this is, once Go made
	// them: Destroy leaves the array to the record's disposal, which follows at once.
	labels *C.struct_mts_labels_t
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
	raw := C.mtsgo_array_struct_new()
	if raw == nil {
		panic(core.Errorf(core.InternalError, "out of memory allocating an array"))
	}
	return &cArray{raw: raw, allocated: true}
}

// createdCArray adopts the array a member created, in C memory the generated helper
// allocated; NULL means that memory ran out before the member was called.
func createdCArray(raw *C.struct_mts_array_t) *cArray {
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
		C.mtsgo_array_struct_free(created.raw)
		return nil, false
	}
	return created, true
}

// address is where the array struct lives, as an integer: the generated value helpers take
// it so, as cgo checks every pointer argument on each call, and this one is always C memory.
func (a *cArray) address() C.uintptr_t {
	return C.uintptr_t(uintptr(unsafe.Pointer(a.raw)))
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

// exportedTensor wraps what a successful as_dlpack call gave.
func exportedTensor(managed *C.DLManagedTensorVersioned) (*core.Tensor, error) {
	if managed == nil {
		return nil, core.Errorf(core.InternalError, "mts_array_t.as_dlpack returned a NULL tensor")
	}
	return tensorFromC(managed)
}

// shapeFromC copies the shape an array's shape callback gave.
func shapeFromC(shape *C.uintptr_t, count C.uintptr_t) ([]uintptr, error) {
	if count == 0 {
		return []uintptr{}, nil
	}
	if shape == nil {
		return nil, nullShapeError(count)
	}
	return append([]uintptr(nil), unsafe.Slice((*uintptr)(unsafe.Pointer(shape)), count)...), nil
}

// nullShapeError is the error of a shape callback giving no shape for some axes.
func nullShapeError(count C.uintptr_t) error {
	return core.Errorf(core.InternalError, "mts_array_t.shape returned a NULL shape with %d dimensions", count)
}

// smallShapeFromC is shapeFromC by value (cArray.SmallShape, core.SmallShaper): reading a
// shape of up to four axes allocates nothing.
func smallShapeFromC(shape *C.uintptr_t, count C.uintptr_t) (core.SmallShape, error) {
	if shape == nil && count != 0 {
		return core.SmallShape{}, nullShapeError(count)
	}
	return core.NewSmallShape(unsafe.Slice((*uintptr)(unsafe.Pointer(shape)), count)), nil
}

// borrowedAddress is the address of the C array behind a value a member borrows (create's
// fill value); the generated C helper passes the member a copy without destroy, so it can not
// release it.
func borrowedAddress(value core.Array, message string) (C.uintptr_t, error) {
	c, ok := value.(*cArray)
	if !ok {
		return 0, core.Errorf(core.InternalError, "%s", message)
	}
	return c.address(), nil
}

// sameKindData is the data pointer of move_data's input, which must be a C array too.
func sameKindData(value core.Array, message string) (unsafe.Pointer, error) {
	c, ok := value.(*cArray)
	if !ok {
		return nil, core.Errorf(core.InternalError, "%s", message)
	}
	return c.raw.ptr, nil
}

func (a *cArray) Destroy() {
	if a.raw == nil {
		return
	}
	if a.lentToBody {
		a.raw = nil
		return
	}
	if a.labels != nil {
		a.labels.array_released = 1
		a.raw = nil
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
	return sliceToC[C.uintptr_t](shape)
}

// sliceToC passes a Go slice to C as a pointer to its first element (NULL when empty);
// C's element type E has the layout of T.
func sliceToC[E, T any](values []T) *E {
	if len(values) == 0 {
		return nil
	}
	return (*E)(unsafe.Pointer(&values[0]))
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

func versionFromC(v C.DLPackVersion) core.DLPackVersion {
	return core.DLPackVersion{Major: uint32(v.major), Minor: uint32(v.minor)}
}

func versionToC(v core.DLPackVersion) C.DLPackVersion {
	return C.DLPackVersion{major: C.uint32_t(v.Major), minor: C.uint32_t(v.Minor)}
}
