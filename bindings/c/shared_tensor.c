/* DLPack tensors of Go data (shared_tensor.go): the struct, shape and strides are one
 * malloc'd block. A shared tensor views memory Go keeps alive, its deleter handing the handle
 * back to Go; a copied tensor holds its data in the same block, its deleter a plain free. */
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

DLManagedTensorVersioned *mtsgo_shared_tensor_new(int32_t ndim, uintptr_t handle) {
    DLManagedTensorVersioned *tensor = new_tensor(ndim, 0);
    if (tensor != NULL) {
        tensor->manager_ctx = (void *)handle;
        tensor->deleter = release_shared_tensor;
    }
    return tensor;
}

DLManagedTensorVersioned *mtsgo_copied_tensor_new(int32_t ndim, const void *data, size_t bytes) {
    DLManagedTensorVersioned *tensor = new_tensor(ndim, bytes);
    if (tensor != NULL) {
        tensor->deleter = free_copied_tensor;
        /* after the struct and 2 ndim int64: aligned for any element type */
        tensor->dl_tensor.data = (char *)(tensor + 1) + 2 * (size_t)ndim * sizeof(int64_t);
        memcpy(tensor->dl_tensor.data, data, bytes);
    }
    return tensor;
}
