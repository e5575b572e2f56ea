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

// copiedExportBytes is the size up to which a read-only tensor of Go memory is exported as a
// copy in the export's own allocation: no pin, no handle, and a deleter that does not call
// back into Go, which costs more than copying that much (labels made by operations, scalars).
const copiedExportBytes = 1024

// tensorToCShared exports a tensor to C: Go memory is pinned until C calls the deleter, which
// also releases the Go tensor, except for a small read-only contiguous tensor, copied (no one
// may write through the export, so the copy is not observable but by its address).
func tensorToCShared(tensor *core.Tensor) (*C.DLManagedTensorVersioned, error) {
	ndim := len(tensor.Shape)
	var managed *C.DLManagedTensorVersioned
	if bytes := copiedSize(tensor); bytes > 0 {
		managed = C.mtsgo_copied_tensor_new(C.int32_t(ndim), tensor.Data, C.size_t(bytes))
		tensor.Release()
		if managed == nil {
			return nil, core.Errorf(core.InternalError, "out of memory for a DLPack tensor")
		}
	} else {
		shared := &sharedTensor{tensor: tensor}
		handle := newHandle(shared)
		managed = C.mtsgo_shared_tensor_new(C.int32_t(ndim), C.uintptr_t(handle))
		if managed == nil {
			handle.Delete()
			tensor.Release()
			return nil, core.Errorf(core.InternalError, "out of memory for a DLPack tensor")
		}
		if tensor.Data != nil {
			shared.pinner.Pin(tensor.Data)
		}
		managed.dl_tensor.data = tensor.Data
	}
	managed.version = versionToC(tensor.Version)
	managed.flags = C.uint64_t(tensor.Flags)
	dl := &managed.dl_tensor
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

// copiedSize is the number of bytes tensorToCShared copies for tensor (its byte offset and
// elements), or 0 when it shares the memory instead.
func copiedSize(tensor *core.Tensor) int {
	if tensor.Flags&core.FlagReadOnly == 0 || tensor.Data == nil || tensor.External ||
		tensor.Device.Type != core.DeviceCPU || !tensor.IsRowMajor() {
		return 0
	}
	bytes := int64(tensor.ByteOffset) + tensor.Elements()*int64(tensor.DType.ElementSize())
	if bytes <= 0 || bytes > copiedExportBytes {
		return 0
	}
	return int(bytes)
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
