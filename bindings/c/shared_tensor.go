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
	export := exportTensor(tensor)
	managed := C.mtsgo_tensor_export_new(export.description, export.data, export.shape, export.strides)
	if err := export.done(managed != nil); err != nil {
		return nil, err
	}
	return managed, nil
}

// tensorExport is a tensor on its way to C: what C builds the export from
// (mtsgo_tensor_export_new), in the same call as the member taking it when a generated helper
// does it; done ends the Go side once C built it, or failed to.
type tensorExport struct {
	description    C.struct_mtsgo_tensor_export
	data           unsafe.Pointer
	shape, strides *C.int64_t
	tensor         *core.Tensor
	shared         *sharedTensor // nil for a copy
	handle         objectHandle
}

// exportTensor describes a tensor for C, pinning its memory when C will view it.
func exportTensor(tensor *core.Tensor) tensorExport {
	export := tensorExport{tensor: tensor, data: tensor.Data}
	d := &export.description
	d.ndim = C.int32_t(len(tensor.Shape))
	if len(tensor.Shape) > 0 {
		export.shape = (*C.int64_t)(unsafe.Pointer(&tensor.Shape[0]))
		if tensor.Strides != nil {
			export.strides = (*C.int64_t)(unsafe.Pointer(&tensor.Strides[0]))
		}
	}
	d.device = deviceToC(tensor.Device)
	d.dtype = dtypeToC(tensor.DType)
	d.byte_offset = C.uint64_t(tensor.ByteOffset)
	d.flags = C.uint64_t(tensor.Flags)
	d.version = versionToC(tensor.Version)
	if bytes := copiedSize(tensor); bytes > 0 {
		d.copied = C.size_t(bytes)
		return export
	}
	export.shared = &sharedTensor{tensor: tensor}
	export.handle = newHandle(export.shared)
	d.handle = C.uintptr_t(export.handle)
	if tensor.Data != nil {
		export.shared.pinner.Pin(tensor.Data)
	}
	return export
}

// done releases what the export no longer needs: a copied tensor at once, a shared one only
// when C could not build its export (the deleter releases it otherwise).
func (e *tensorExport) done(built bool) error {
	switch {
	case e.shared == nil:
		e.tensor.Release()
	case !built:
		e.handle.Delete()
		e.shared.pinner.Unpin()
		e.tensor.Release()
	}
	if !built {
		return errTensorMemory
	}
	return nil
}

// errTensorMemory is the error of a DLPack export C lacked the memory for.
var errTensorMemory = core.Errorf(core.InternalError, "out of memory for a DLPack tensor")

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
