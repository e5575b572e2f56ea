/* DLPack tensors viewing memory Go keeps alive (shared_tensor.go): the struct, shape and
 * strides are one malloc'd block; the deleter hands the handle back to Go. */
#include <stdlib.h>

#include "_cgo_export.h"
#include "mtsgo.h"

static void release_shared_tensor(DLManagedTensorVersioned *tensor) {
    mtsgo_shared_tensor_release((uintptr_t)tensor->manager_ctx);
    free(tensor);
}

DLManagedTensorVersioned *mtsgo_shared_tensor_new(int32_t ndim, uintptr_t handle) {
    size_t bytes = sizeof(DLManagedTensorVersioned) + 2 * (size_t)ndim * sizeof(int64_t);
    DLManagedTensorVersioned *tensor = calloc(1, bytes);
    if (tensor == NULL) {
        return NULL;
    }
    int64_t *dims = (int64_t *)(tensor + 1);
    tensor->manager_ctx = (void *)handle;
    tensor->deleter = release_shared_tensor;
    tensor->dl_tensor.ndim = ndim;
    tensor->dl_tensor.shape = ndim > 0 ? dims : NULL;
    tensor->dl_tensor.strides = ndim > 0 ? dims + ndim : NULL;
    return tensor;
}
