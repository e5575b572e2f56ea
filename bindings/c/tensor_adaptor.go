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
	return tensorFromCInto(managed, producedTensor{managed}, new(tensorMemory))
}

// producedTensor is the owner of a tensor produced by C, whose deleter releases it.
type producedTensor struct{ managed *C.DLManagedTensorVersioned }

func (p producedTensor) ReleaseTensor() { deleteTensor(p.managed) }

// deleteTensor calls the deleter of a DLPack tensor produced by C.
func deleteTensor(managed *C.DLManagedTensorVersioned) {
	if managed.deleter != nil {
		C.mtsgo_call_DLManagedTensorVersionedDeleter(managed.deleter, managed)
	}
}

// tensorMemory is where tensorFromCInto makes a tensor, with the shape and strides of up to two
// dimensions: part of a larger allocation, or one of its own.
type tensorMemory struct {
	tensor core.Tensor
	dims   [4]int64 // shape, then strides
}

// tensorFromCInto is tensorFromC, with owner letting go of the tensor, made in memory.
func tensorFromCInto(managed *C.DLManagedTensorVersioned, owner core.TensorOwner, memory *tensorMemory) (*core.Tensor, error) {
	if managed.version.major != 1 {
		major := managed.version.major
		owner.ReleaseTensor()
		// The reference's text and status, for callers that match on them.
		return nil, core.Errorf(core.InternalError,
			"Incompatible DLPack version, got %d, but this code only supports version 1", major)
	}
	dl := &managed.dl_tensor
	ndim := int(dl.ndim)
	if ndim < 0 || ndim > 0 && dl.shape == nil {
		owner.ReleaseTensor()
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
	var dims []int64 // the shape and strides: in memory, or in one allocation
	if 2*ndim <= len(memory.dims) {
		dims = memory.dims[:0]
	} else if ndim > 0 {
		dims = make([]int64, 0, 2*ndim)
	}
	if ndim > 0 {
		dims = append(dims, unsafe.Slice((*int64)(unsafe.Pointer(dl.shape)), ndim)...)
		view.Shape = dims[:ndim:ndim]
		if dl.strides != nil {
			dims = append(dims, unsafe.Slice((*int64)(unsafe.Pointer(dl.strides)), ndim)...)
			view.Strides = dims[ndim:]
		}
	}
	core.InitOwnedTensor(&memory.tensor, view, owner)
	return &memory.tensor, nil
}
