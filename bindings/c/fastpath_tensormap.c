/* The fast path of mts_tensormap and mts_tensormap_free (fastpath.h): a tensor map of blocks
 * made in C (fastpath_block.c) is checked and made in C, asking the blocks' arrays and the
 * keys what Go would ask, in the same order, and Go makes its tensor map the first time a Go
 * function is given the record (tensorMapOf, fastpath_tensormap.go). A tensor map that Go never
 * saw is freed in C, and its keys and blocks are read in C. Every other case goes to the Go
 * body, before anything is asked; the errors found after asking are worded by Go
 * (mtsgo_tensormap_refused) from what C asked. */
#include <stddef.h>
#include <stdlib.h>

#include "_cgo_export.h"
#include "fastpath.h"

/* Numbers the calls of this path, in the upper half of the numbers a block's `claimed` holds
 * (Go numbers its own calls from 1): a block given twice to one call is found by the number. */
#define C_CALL_BIT ((uint64_t)1 << 63)
static uint64_t calls;

/* Tells whether the keys fit the map and their device is known without a call into Go
 * (mtsgo_plain_labels). */
static int plain_keys(const struct mts_labels_t *keys, uintptr_t count) {
    return mtsgo_plain_labels(keys) && keys->count == count;
}

/* Tells whether every block was made in C, is free to take, and shares block 0's dimension
 * names and gradients' structure, marking them claimed by this call; nothing is asked. */
static int plain_blocks(struct mts_block_t *const *blocks, uintptr_t count) {
    uint64_t call = C_CALL_BIT | __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    const struct mts_block_t *first = blocks[0];
    for (uintptr_t i = 0; i < count; i++) {
        struct mts_block_t *block = blocks[i];
        mtsgo_prefetch_block(blocks, i, count, 0, offsetof(struct mts_block_t, components));
        if (block == NULL || block->held || block->claimed == call ||
            __atomic_load_n(&block->record.handle, __ATOMIC_ACQUIRE) != 0 ||
            block->components_count != first->components_count ||
            !mtsgo_same_names(block->samples, first->samples) ||
            !mtsgo_same_names(block->properties, first->properties) || !mtsgo_same_c_gradients(block, first)) {
            return 0;
        }
        for (uintptr_t c = 0; c < block->components_count; c++) {
            if (!mtsgo_same_names(block->components[c], first->components[c])) {
                return 0;
            }
        }
        block->claimed = call;
    }
    return 1;
}

/* Asks the blocks' arrays and then the keys what NewTensorMap asks; returns whether all
 * agree, the answers in asked. */
static int same_data(const struct mts_labels_t *keys, struct mts_block_t *const *blocks, uintptr_t count,
                     struct mtsgo_tensormap_asked *asked) {
    if (mtsgo_compare_blocks(blocks, count, &asked->comparison) >= 0) {
        return 0;
    }
    if (!mtsgo_labels_device(keys, &asked->keys_device)) {
        asked->keys_failed = 1;
        return 0;
    }
    return asked->keys_device.device_type == asked->comparison.first.device.device_type &&
           asked->keys_device.device_id == asked->comparison.first.device.device_id;
}

/* Releases the blocks of a tensor map made in C, in order (in Go those that Go made, read
 * through mts_tensormap_block_by_id); the first failure's status. */
static mts_status_t release_blocks(struct mts_block_t *const *blocks, uintptr_t count) {
    struct mtsgo_labels_runs runs;
    mtsgo_labels_runs_start(&runs);
    mts_status_t status = MTS_SUCCESS;
    for (uintptr_t i = 0; i < count; i++) {
        if (__atomic_load_n(&blocks[i]->record.handle, __ATOMIC_ACQUIRE) != 0) {
            mts_status_t released = mtsgo_block_release(blocks[i]);
            status = status != MTS_SUCCESS ? status : released;
        } else {
            mtsgo_c_block_release(blocks[i], &runs);
        }
    }
    mts_status_t released = mtsgo_labels_runs_flush(&runs);
    return status != MTS_SUCCESS ? status : released;
}

struct mts_tensormap_t *mtsgo_c_tensormap(const struct mts_labels_t *keys, struct mts_block_t **blocks,
                                          uintptr_t count) {
    struct mts_labels_t *go_keys = (struct mts_labels_t *)keys;
    if (!(mtsgo_fastpaths & MTSGO_FASTPATH_TENSORMAP) || count == 0 || !plain_keys(keys, count) ||
        !plain_blocks(blocks, count)) {
        return mtsgo_tensormap(go_keys, (struct mts_block_t **)blocks, count);
    }
    struct mtsgo_tensormap_asked asked = {0};
    if (!same_data(keys, blocks, count, &asked)) {
        /* Go words the error; the blocks go, as in the Go body. */
        mtsgo_blocks_given(blocks, count);
        mtsgo_tensormap_refused(&asked);
        release_blocks(blocks, count);
        for (uintptr_t i = 0; i < count; i++) {
            blocks[i] = NULL;
        }
        return NULL;
    }
    /* Held before the new record is written, as mts_block's labels (fastpath_block.c). */
    mtsgo_labels_hold(go_keys);
    struct mts_tensormap_t *tensor = mtsgo_tensormap_record_new(count);
    if (tensor != NULL) {
        tensor->record.magic = MTSGO_TENSORMAP_MAGIC; /* the kind of its handle */
        if (mtsgo_handle_new_unshared(&tensor->record) == NULL) {
            mtsgo_tensormap_record_free(tensor);
            tensor = NULL;
        }
    }
    if (tensor == NULL) {
        /* Everything agreed: Go words the lack of memory; the blocks stay with the caller. */
        mtsgo_labels_unhold(go_keys, 1);
        mtsgo_tensormap_refused(&asked);
        return NULL;
    }
    mtsgo_blocks_given(blocks, count);
    tensor->keys = go_keys;
    for (uintptr_t i = 0; i < count; i++) {
        tensor->blocks[i] = blocks[i];
        blocks[i] = NULL;
    }
    return tensor;
}

mts_status_t mtsgo_c_tensormap_free(struct mts_tensormap_t *tensor) {
    if (__atomic_load_n(&tensor->record.handle, __ATOMIC_ACQUIRE) != 0) {
        struct mtsgo_deferred_release deferred;
        deferred.ready = 0;
        deferred.dying.count = 0;
        /* The labels references of records that all lend are dropped here, where C would drop
         * them after Go returned and call Go back for each labels Go made that went with them. */
        mts_status_t dropped = MTS_SUCCESS;
        if ((mtsgo_fastpaths & MTSGO_FASTPATH_RELEASE) && tensor->lends) {
            dropped = mtsgo_lent_labels_drop(tensor, &deferred.dying);
        }
        tensor->deferred = &deferred;
        mts_status_t status = mtsgo_tensormap_free(tensor);
        status = dropped != MTS_SUCCESS ? dropped : status;
        if (deferred.ready) {
            mts_status_t released =
                mtsgo_release_tensormap(deferred.arrays, deferred.arrays_count, deferred.blocks,
                                        deferred.blocks_count, deferred.labels, deferred.labels_count, deferred.tensormap);
            status = status != MTS_SUCCESS ? status : released;
        }
        return status;
    }
    /* Go never saw it: release what it holds in the order Go's TensorMap.Free does. */
    tensor->record.magic = MTSGO_FREED_MAGIC;
    mts_status_t status = release_blocks(tensor->blocks, tensor->blocks_count);
    mts_status_t released = mtsgo_tensormap_record_free(tensor);
    return status != MTS_SUCCESS ? status : released;
}

/* A tensor map made in C keeps its keys and its blocks' records for its whole life, even once
 * Go made it (nothing changes the blocks of a tensor map): they are read in C. So are the
 * records of the blocks of a tensor map Go made, once Go gave them (fastpath_reads.go). */

mts_status_t mtsgo_c_tensormap_block_by_id(struct mts_tensormap_t *tensor, struct mts_block_t **block,
                                           uintptr_t index) {
    if (index < tensor->blocks_count) {
        *block = tensor->blocks[index];
        return MTS_SUCCESS;
    }
    if (!(mtsgo_fastpaths & MTSGO_FASTPATH_READS)) {
        return mtsgo_tensormap_block_by_id(tensor, block, index);
    }
    struct mts_block_t **views = __atomic_load_n(&tensor->views, __ATOMIC_ACQUIRE);
    struct mts_block_t *view = views != NULL && index < tensor->views_count
                                   ? __atomic_load_n(&views[index], __ATOMIC_ACQUIRE)
                                   : NULL;
    if (view != NULL) {
        *block = view;
        return MTS_SUCCESS;
    }
    return mtsgo_tensormap_block_view(tensor, block, index);
}

const struct mts_labels_t *mtsgo_c_tensormap_keys(const struct mts_tensormap_t *tensor) {
    /* Read atomically: Go may publish the keys of a map it made (fastpath_reads.go). */
    struct mts_labels_t *keys = __atomic_load_n(&tensor->keys, __ATOMIC_ACQUIRE);
    if (keys == NULL) {
        return (mtsgo_fastpaths & MTSGO_FASTPATH_READS) ? mtsgo_tensormap_keys_view((struct mts_tensormap_t *)tensor)
                                                        : mtsgo_tensormap_keys((struct mts_tensormap_t *)tensor);
    }
    mtsgo_labels_acquire(keys);
    return keys;
}
