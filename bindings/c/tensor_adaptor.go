package main

// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// tensorFromC takes ownership of a DLPack tensor produced by C: the core.Tensor views its
// memory and calls its deleter on Release. A tensor of another major version is released at
// once and rejected, as its layout may differ.
func tensorFromC(managed *C.DLManagedTensorVersioned) (*core.Tensor, error) {
	release := func() {
		if managed.deleter != nil {
			C.mtsgo_call_DLManagedTensorVersionedDeleter(managed.deleter, managed)
		}
	}
	if managed.version.major != 1 {
		major, minor := managed.version.major, managed.version.minor
		release()
		return nil, core.Errorf(core.InvalidParameterError,
			"unsupported DLPack version v%d.%d from mts_array_t.as_dlpack, we support v1.x", major, minor)
	}
	dl := &managed.dl_tensor
	ndim := int(dl.ndim)
	if ndim < 0 || ndim > 0 && dl.shape == nil {
		release()
		return nil, core.Errorf(core.InvalidParameterError, "invalid DLPack tensor: %d dimensions and no shape", ndim)
	}
	view := core.Tensor{
		Version:    core.DLPackVersion{Major: uint32(managed.version.major), Minor: uint32(managed.version.minor)},
		Flags:      uint64(managed.flags),
		Data:       dl.data,
		Device:     deviceFromC(dl.device),
		DType:      dtypeFromC(dl.dtype),
		ByteOffset: uint64(dl.byte_offset),
	}
	if ndim > 0 {
		view.Shape = append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(dl.shape)), ndim)...)
		if dl.strides != nil {
			view.Strides = append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(dl.strides)), ndim)...)
		}
	}
	return core.NewTensor(view, release), nil
}

// tensorToC copies a CPU tensor into a DLPack tensor allocated in C memory, which a C callback
// can keep (C may not keep pointers to Go memory). The Go tensor is released.
func tensorToC(tensor *core.Tensor) (*C.DLManagedTensorVersioned, error) {
	defer tensor.Release()
	if tensor.Device != core.CPU {
		return nil, core.Errorf(core.InternalError, "only CPU tensors can be handed to C, got one on %s", tensor.Device)
	}
	size := tensor.DType.ElementSize()
	elements := tensor.Elements()
	bytes := int(elements) * size
	managed := C.mtsgo_managed_tensor_new(C.int32_t(len(tensor.Shape)), C.size_t(bytes))
	if managed == nil {
		return nil, core.Errorf(core.InternalError, "out of memory for a %d bytes DLPack tensor", bytes)
	}
	managed.flags = C.uint64_t(tensor.Flags)
	managed.dl_tensor.dtype = C.DLDataType{code: C.uint8_t(tensor.DType.Code), bits: C.uint8_t(tensor.DType.Bits), lanes: C.uint16_t(tensor.DType.Lanes)}
	ndim := len(tensor.Shape)
	if ndim > 0 {
		shape := unsafe.Slice((*int64)(unsafe.Pointer(managed.dl_tensor.shape)), ndim)
		strides := unsafe.Slice((*int64)(unsafe.Pointer(managed.dl_tensor.strides)), ndim)
		copy(shape, tensor.Shape)
		stride := int64(1)
		for axis := ndim - 1; axis >= 0; axis-- {
			strides[axis] = stride
			stride *= tensor.Shape[axis]
		}
	}
	if bytes > 0 {
		destination := unsafe.Slice((*byte)(managed.dl_tensor.data), bytes)
		core.CopyContiguous(destination, tensor)
	}
	return managed, nil
}
