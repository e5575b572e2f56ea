/* The mts_array_t vtable of arrays made by Go (the library's own labels arrays, Go host
 * arrays): each member forwards to a Go export. The array's `ptr` is a small C block holding
 * the cgo handle, so that it is a real, unique address as callers expect. The shims exist
 * because Go exports can not have the vtable's exact (const) signatures. */
#include <stdlib.h>

#include "_cgo_export.h"
#include "mtsgo.h"

#define MTSGO_GO_ARRAY_MAGIC 0x474f4152524159ull /* "GOARRAY" */

struct mtsgo_go_array {
    uint64_t magic;
    uintptr_t handle;
};

#define HANDLE(array) (((const struct mtsgo_go_array *)(array))->handle)

static void go_destroy(void *array) {
    mtsgo_goarray_destroy(HANDLE(array));
}

static mts_status_t go_origin(const void *array, mts_data_origin_t *origin) {
    return mtsgo_goarray_origin(HANDLE(array), origin);
}

static mts_status_t go_device(const void *array, DLDevice *device) {
    return mtsgo_goarray_device(HANDLE(array), device);
}

static mts_status_t go_dtype(const void *array, DLDataType *dtype) {
    return mtsgo_goarray_dtype(HANDLE(array), dtype);
}

static mts_status_t go_as_dlpack(void *array, DLManagedTensorVersioned **tensor, DLDevice device,
                                 const int64_t *stream, DLPackVersion max_version) {
    return mtsgo_goarray_as_dlpack(HANDLE(array), tensor, device, (int64_t *)stream, max_version);
}

static mts_status_t go_from_dlpack(const void *array, DLManagedTensorVersioned *tensor,
                                   struct mts_array_t *new_array) {
    return mtsgo_goarray_from_dlpack(HANDLE(array), tensor, new_array);
}

static mts_status_t go_shape(const void *array, const uintptr_t **shape, uintptr_t *shape_count) {
    return mtsgo_goarray_shape(HANDLE(array), (uintptr_t **)shape, shape_count);
}

static mts_status_t go_reshape(void *array, const uintptr_t *shape, uintptr_t shape_count) {
    return mtsgo_goarray_reshape(HANDLE(array), (uintptr_t *)shape, shape_count);
}

static mts_status_t go_swap_axes(void *array, uintptr_t axis_1, uintptr_t axis_2) {
    return mtsgo_goarray_swap_axes(HANDLE(array), axis_1, axis_2);
}

static mts_status_t go_create(const void *array, const uintptr_t *shape, uintptr_t shape_count,
                              struct mts_array_t fill_value, struct mts_array_t *new_array) {
    return mtsgo_goarray_create(HANDLE(array), (uintptr_t *)shape, shape_count, fill_value,
                                new_array);
}

static mts_status_t go_copy(const void *array, DLDevice device, struct mts_array_t *new_array) {
    return mtsgo_goarray_copy(HANDLE(array), device, new_array);
}

static mts_status_t go_move_data(void *output, const void *input,
                                 const struct mts_data_movement_t *movements,
                                 uintptr_t movements_count) {
    if (input == NULL || ((const struct mtsgo_go_array *)input)->magic != MTSGO_GO_ARRAY_MAGIC) {
        return mtsgo_fail(MTS_INVALID_PARAMETER_ERROR,
                          "invalid parameter: the input of move_data must be an array of the "
                          "same kind as the output");
    }
    return mtsgo_goarray_move_data(HANDLE(output), HANDLE(input),
                                   (struct mts_data_movement_t *)movements, movements_count);
}

struct mts_array_t mtsgo_go_array(uintptr_t handle, int owning) {
    struct mtsgo_go_array *block = malloc(sizeof(struct mtsgo_go_array));
    if (block == NULL) {
        struct mts_array_t nothing = {0};
        return nothing;
    }
    block->magic = MTSGO_GO_ARRAY_MAGIC;
    block->handle = handle;
    struct mts_array_t array = {
        .ptr = block,
        .destroy = owning ? go_destroy : NULL,
        .origin = go_origin,
        .device = go_device,
        .dtype = go_dtype,
        .as_dlpack = go_as_dlpack,
        .from_dlpack = go_from_dlpack,
        .shape = go_shape,
        .reshape = go_reshape,
        .swap_axes = go_swap_axes,
        .create = go_create,
        .copy = go_copy,
        .move_data = go_move_data,
    };
    return array;
}

const void *mtsgo_go_array_origin(void) {
    return (const void *)go_origin;
}

uintptr_t mtsgo_go_array_handle(const void *ptr) {
    return HANDLE(ptr);
}

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
