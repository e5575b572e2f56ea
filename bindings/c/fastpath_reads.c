/* The reads fast path (fastpath.h): the functions that only read a block or a tensor map
 * made in C (fastpath_block.c, fastpath_tensormap.c) and not yet made in Go are answered from
 * the record, calling the values' callbacks exactly as Go would, so that reading a new tensor
 * map (its blocks' values, labels and gradients, its dtype and device) does not make it in Go
 * (nor does its info: fastpath_info.c). So are the reads of blocks whose records lend to the
 * blocks Go made of them, and the labels and values of any other block Go holds, once Go
 * published them in its record (fastpath_reads.go): the blocks of results and of loaded
 * maps. Every other case, errors included, goes to the Go body before anything is asked. A
 * gradient handed out here is held by its block, so nothing is added to it in C: Go makes it
 * with its block first (blockOf). The generated wrappers (wrappers_gen.c) have already
 * rejected NULL arguments. */
#include <stdlib.h>
#include <string.h>

#include "_cgo_export.h"
#include "fastpath.h"

/* Tells whether a block record describes its block in C: one made in C that Go never saw,
 * or that lends its labels and values to the block Go made (lent_blocks.go), which stays as
 * the record says until it stops lending. */
static int c_block(const struct mts_block_t *block) {
    return (mtsgo_fastpaths & MTSGO_FASTPATH_READS) && block->samples != NULL &&
           (__atomic_load_n(&block->record.handle, __ATOMIC_ACQUIRE) == 0 || block->lent);
}

/* Tells whether the labels and values of a block are read in C: c_block, or a view Go
 * published in the record, asking Go to publish it the first time (fastpath_reads.go). */
static int c_view(struct mts_block_t *block) {
    if (c_block(block)) {
        return 1;
    }
    if (!(mtsgo_fastpaths & MTSGO_FASTPATH_READS)) {
        return 0;
    }
    int published = __atomic_load_n(&block->published, __ATOMIC_ACQUIRE);
    return published != 0 ? published > 0 : mtsgo_block_publish(block);
}

/* The block whose values a tensor map made in C and never seen by Go describes: its first
 * one; NULL for any other tensor map. */
static struct mts_block_t *c_tensormap_first(const struct mts_tensormap_t *tensor) {
    return (mtsgo_fastpaths & MTSGO_FASTPATH_READS) && mtsgo_unseen_c_tensormap(tensor) ? tensor->blocks[0] : NULL;
}

/* The values' device and dtype, asked as the core asks them (Block.Device, Block.DType). A
 * block made in C has a device callback; one without a dtype callback goes to Go. */
static mts_status_t values_device(const struct mts_block_t *block, DLDevice *device) {
    if (mtsgo_array_device(&block->values, device) != MTS_SUCCESS) {
        return mtsgo_callback_error("calling mts_array_t.device failed");
    }
    return MTS_SUCCESS;
}

static mts_status_t values_dtype(const struct mts_block_t *block, DLDataType *dtype) {
    if (mtsgo_array_dtype(&block->values, dtype) != MTS_SUCCESS) {
        return mtsgo_callback_error("calling mts_array_t.dtype failed");
    }
    return MTS_SUCCESS;
}

const struct mts_labels_t *mtsgo_c_block_labels(const struct mts_block_t *block, uintptr_t axis) {
    if (!c_view((struct mts_block_t *)block) || axis > block->components_count + 1) {
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
    if (!c_view(block)) {
        return mtsgo_block_data(block, data);
    }
    *data = block->values;
    data->destroy = NULL; /* a view: the block keeps the array */
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_block_gradient(struct mts_block_t *block, const char *parameter,
                                    struct mts_block_t **gradient) {
    struct mtsgo_c_gradient *found = c_block(block) ? mtsgo_find_c_gradient(block, parameter) : NULL;
    if (found != NULL) {
        *gradient = found->block;
        return MTS_SUCCESS;
    }
    /* Not found: Go words the error. */
    return mtsgo_block_gradient(block, (char *)parameter, gradient);
}

/* Blocks with more gradients than this have their list made by Go. */
#define LISTED_HERE 16

mts_status_t mtsgo_c_block_gradients_list(const struct mts_block_t *block, const char *const **parameters,
                                          uintptr_t *count) {
    struct mts_block_t *record = (struct mts_block_t *)block;
    if (!c_block(block)) {
        return mtsgo_block_gradients_list(record, (char ***)parameters, count);
    }
    /* The list the block keeps until a gradient is added, made once (threads may read a
     * block at once: the first list stored is the one). */
    const char *const *list = __atomic_load_n(&record->gradients, __ATOMIC_ACQUIRE);
    if (list == NULL && block->c_gradients != NULL) {
        const char *names[LISTED_HERE];
        uintptr_t length = 0;
        for (const struct mtsgo_c_gradient *g = block->c_gradients; g != NULL; g = g->next) {
            if (length == LISTED_HERE) {
                return mtsgo_block_gradients_list(record, (char ***)parameters, count);
            }
            names[length++] = g->parameter;
        }
        const char *const *made = mtsgo_string_table(names, length);
        if (made == NULL) {
            return mtsgo_block_gradients_list(record, (char ***)parameters, count);
        }
        record->gradients_count = length; /* the same for every thread */
        if (__atomic_compare_exchange_n(&record->gradients, &list, made, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            list = made;
        } else {
            free((void *)made); /* another thread's is the one; list holds it */
        }
    }
    *parameters = list;
    *count = list != NULL ? record->gradients_count : 0;
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
