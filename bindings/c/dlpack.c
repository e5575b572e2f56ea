/* DLPack tensors whose memory metatensor-go allocates for C consumers. */
#include <stdlib.h>

#include "mtsgo.h"

static void free_managed_tensor(DLManagedTensorVersioned *tensor) {
    free(tensor);
}

DLManagedTensorVersioned *mtsgo_managed_tensor_new(int32_t ndim, size_t data_bytes) {
    /* One block: the struct, then shape and strides, then the data (aligned to 64 bytes). */
    size_t header = sizeof(DLManagedTensorVersioned) + 2 * (size_t)ndim * sizeof(int64_t);
    size_t offset = (header + 63) / 64 * 64;
    DLManagedTensorVersioned *tensor = NULL;
    if (posix_memalign((void **)&tensor, 64, offset + data_bytes) != 0) {
        return NULL;
    }
    int64_t *dims = (int64_t *)(tensor + 1);
    tensor->version.major = DLPACK_MAJOR_VERSION;
    tensor->version.minor = DLPACK_MINOR_VERSION;
    tensor->manager_ctx = NULL;
    tensor->deleter = free_managed_tensor;
    tensor->flags = 0;
    tensor->dl_tensor.data = (char *)tensor + offset;
    tensor->dl_tensor.device.device_type = kDLCPU;
    tensor->dl_tensor.device.device_id = 0;
    tensor->dl_tensor.ndim = ndim;
    tensor->dl_tensor.shape = dims;
    tensor->dl_tensor.strides = dims + ndim;
    tensor->dl_tensor.byte_offset = 0;
    return tensor;
}
