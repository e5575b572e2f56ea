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
	return tensorFromCReleasedBy(managed, func() { deleteTensor(managed) })
}

// deleteTensor calls the deleter of a DLPack tensor produced by C.
func deleteTensor(managed *C.DLManagedTensorVersioned) {
	if managed.deleter != nil {
		C.mtsgo_call_DLManagedTensorVersionedDeleter(managed.deleter, managed)
	}
}

// tensorFromCReleasedBy is tensorFromC, with release letting go of the tensor.
func tensorFromCReleasedBy(managed *C.DLManagedTensorVersioned, release func()) (*core.Tensor, error) {
	if managed.version.major != 1 {
		major := managed.version.major
		release()
		// The reference's text and status, for callers that match on them.
		return nil, core.Errorf(core.InternalError,
			"Incompatible DLPack version, got %d, but this code only supports version 1", major)
	}
	dl := &managed.dl_tensor
	ndim := int(dl.ndim)
	if ndim < 0 || ndim > 0 && dl.shape == nil {
		release()
		return nil, core.Errorf(core.InvalidParameterError, "invalid DLPack tensor: %d dimensions and no shape", ndim)
	}
	view := core.Tensor{
		External:   true,
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
