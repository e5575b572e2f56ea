/* DLPack tensors of Go data (shared_tensor.go), built in C from Go's description of them:
 * the struct, shape and strides are one malloc'd block. A shared tensor views memory Go keeps
 * alive, its deleter handing the handle back to Go; a copied tensor holds its data in the same
 * block, its deleter a plain free. */
#include <stdlib.h>
#include <string.h>

#include "_cgo_export.h"
#include "mtsgo.h"

static void release_shared_tensor(DLManagedTensorVersioned *tensor) {
    mtsgo_shared_tensor_release((uintptr_t)tensor->manager_ctx);
    free(tensor);
}

static void free_copied_tensor(DLManagedTensorVersioned *tensor) { free(tensor); }

/* The struct, then shape and strides, then `data_bytes` bytes. */
static DLManagedTensorVersioned *new_tensor(int32_t ndim, size_t data_bytes) {
    size_t dims_bytes = 2 * (size_t)ndim * sizeof(int64_t);
    DLManagedTensorVersioned *tensor = calloc(1, sizeof(DLManagedTensorVersioned) + dims_bytes + data_bytes);
    if (tensor == NULL) {
        return NULL;
    }
    int64_t *dims = (int64_t *)(tensor + 1);
    tensor->dl_tensor.ndim = ndim;
    tensor->dl_tensor.shape = ndim > 0 ? dims : NULL;
    tensor->dl_tensor.strides = ndim > 0 ? dims + ndim : NULL;
    return tensor;
}

DLManagedTensorVersioned *mtsgo_tensor_export_new(struct mtsgo_tensor_export export, void *data,
                                                  const int64_t *shape, const int64_t *strides) {
    DLManagedTensorVersioned *tensor = new_tensor(export.ndim, export.copied);
    if (tensor == NULL) {
        return NULL;
    }
    DLTensor *dl = &tensor->dl_tensor;
    if (export.copied > 0) {
        tensor->deleter = free_copied_tensor;
        /* after the struct and 2 ndim int64: aligned for any element type */
        dl->data = (char *)(tensor + 1) + 2 * (size_t)export.ndim * sizeof(int64_t);
        memcpy(dl->data, data, export.copied);
    } else {
        tensor->manager_ctx = (void *)export.handle;
        tensor->deleter = release_shared_tensor;
        dl->data = data;
    }
    tensor->version = export.version;
    tensor->flags = export.flags;
    dl->device = export.device;
    dl->dtype = export.dtype;
    dl->byte_offset = export.byte_offset;
    int64_t stride = 1;
    for (int32_t axis = export.ndim - 1; axis >= 0; axis--) {
        dl->shape[axis] = shape[axis];
        dl->strides[axis] = strides != NULL ? strides[axis] : stride;
        stride *= shape[axis];
    }
    return tensor;
}
