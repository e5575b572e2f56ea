/* The reads fast path (fastpath.h): the functions that only read a block or a tensor map
 * made in C (fastpath_block.c, fastpath_tensormap.c) and not yet made in Go are answered from
 * the record, calling the values' callbacks exactly as Go would, so that reading a new tensor
 * map (its blocks' values and labels, its dtype and device) does not make it in Go. Every other
 * case, errors included, goes to the Go body before anything is asked. mts_block_gradient is
 * not among them: Go makes a block with its C gradients, so that a gradient is never made
 * alone, without its parent (nested gradients are added to a gradient Go made). The
 * generated wrappers (wrappers_gen.c) have already rejected NULL arguments. */
#include <string.h>

#include "_cgo_export.h"
#include "fastpath.h"

/* Tells whether a block record is one made in C that Go never saw. */
static int c_block(const struct mts_block_t *block) {
    return (mtsgo_fastpaths & MTSGO_FASTPATH_READS) && block->samples != NULL &&
           __atomic_load_n(&block->record.handle, __ATOMIC_ACQUIRE) == 0;
}

/* The block whose values a tensor map made in C and never seen by Go describes: its first
 * one; NULL for any other tensor map. */
static struct mts_block_t *c_tensormap_first(const struct mts_tensormap_t *tensor) {
    if (!(mtsgo_fastpaths & MTSGO_FASTPATH_READS) || tensor->keys == NULL ||
        __atomic_load_n(&tensor->record.handle, __ATOMIC_ACQUIRE) != 0) {
        return NULL;
    }
    return tensor->blocks[0];
}

/* The error of a values callback that failed, as Go words it (failed, array_adaptor.go). */
static mts_status_t callback_failed(const char *context) {
    mtsgo_callback_failed(context, strlen(context));
    return MTS_CALLBACK_ERROR;
}

/* The values' device and dtype, asked as the core asks them (Block.Device, Block.DType). A
 * block made in C has a device callback; one without a dtype callback goes to Go. */
static mts_status_t values_device(const struct mts_block_t *block, DLDevice *device) {
    if (mtsgo_array_device(&block->values, device) != MTS_SUCCESS) {
        return callback_failed("calling mts_array_t.device failed");
    }
    return MTS_SUCCESS;
}

static mts_status_t values_dtype(const struct mts_block_t *block, DLDataType *dtype) {
    if (mtsgo_array_dtype(&block->values, dtype) != MTS_SUCCESS) {
        return callback_failed("calling mts_array_t.dtype failed");
    }
    return MTS_SUCCESS;
}

const struct mts_labels_t *mtsgo_c_block_labels(const struct mts_block_t *block, uintptr_t axis) {
    if (!c_block(block) || axis > block->components_count + 1) {
        return mtsgo_block_labels((struct mts_block_t *)block, axis);
    }
    struct mts_labels_t *labels = axis == 0                             ? block->samples
                                  : axis == block->components_count + 1 ? block->properties
                                                                        : block->components[axis - 1];
    /* The block holds a reference: the count is not 0 and no core reference is needed. */
    mtsgo_labels_acquire(labels);
    return labels;
}

mts_status_t mtsgo_c_block_data(struct mts_block_t *block, struct mts_array_t *data) {
    if (!c_block(block)) {
        return mtsgo_block_data(block, data);
    }
    *data = block->values;
    data->destroy = NULL; /* a view: the block keeps the array */
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_block_gradients_list(const struct mts_block_t *block, const char *const **parameters,
                                          uintptr_t *count) {
    if (!c_block(block) || block->c_gradients != NULL) {
        /* Go builds the list a block keeps. */
        return mtsgo_block_gradients_list((struct mts_block_t *)block, (char ***)parameters, count);
    }
    *parameters = NULL;
    *count = 0;
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_block_device(const struct mts_block_t *block, DLDevice *device) {
    return c_block(block) ? values_device(block, device)
                          : mtsgo_block_device((struct mts_block_t *)block, device);
}

mts_status_t mtsgo_c_block_dtype(const struct mts_block_t *block, DLDataType *dtype) {
    return c_block(block) && block->values.dtype != NULL
               ? values_dtype(block, dtype)
               : mtsgo_block_dtype((struct mts_block_t *)block, dtype);
}

mts_status_t mtsgo_c_tensormap_device(const struct mts_tensormap_t *tensor, DLDevice *device) {
    struct mts_block_t *first = c_tensormap_first(tensor);
    return first != NULL ? values_device(first, device)
                         : mtsgo_tensormap_device((struct mts_tensormap_t *)tensor, device);
}

mts_status_t mtsgo_c_tensormap_dtype(const struct mts_tensormap_t *tensor, DLDataType *dtype) {
    struct mts_block_t *first = c_tensormap_first(tensor);
    return first != NULL && first->values.dtype != NULL ? values_dtype(first, dtype)
                         : mtsgo_tensormap_dtype((struct mts_tensormap_t *)tensor, dtype);
}
