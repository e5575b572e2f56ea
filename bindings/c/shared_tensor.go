package main

// #include "mtsgo.h"
import "C"

import (
	"runtime"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

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
	managed.version = versionToC(tensor.Version)
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
