/* mts_tensormap_free's releases in one call from Go (fastpath_release.go), or for a small map
 * by mts_tensormap_free's fast path once Go returned (fastpath_tensormap.c): a call into C per
 * block costs more than the release itself for thousands of blocks, and a few calls more than
 * the whole free of a small map. */
#include <stdlib.h>
#include <string.h>

#include "fastpath.h"

/* Destroys an array of the list, freeing its struct when marked MTSGO_RELEASE_OWNED. */
static void release_array(uintptr_t marked) {
    struct mts_array_t *array = (struct mts_array_t *)(marked & ~MTSGO_RELEASE_OWNED);
    if (marked & MTSGO_RELEASE_OWNED) {
        mtsgo_array_release(array);
    } else {
        mtsgo_array_destroy(array);
        memset(array, 0, sizeof(struct mts_array_t));
    }
}

mts_status_t mtsgo_release_tensormap(const uintptr_t *arrays, uintptr_t arrays_count, const uintptr_t *blocks,
                                     uintptr_t blocks_count, const uintptr_t *labels, uintptr_t labels_count,
                                     struct mts_tensormap_t *tensormap) {
    for (uintptr_t i = 0; i < arrays_count; i++) {
        release_array(arrays[i]);
    }
    for (uintptr_t i = 0; i < blocks_count; i++) {
        mtsgo_block_record_free((struct mts_block_t *)blocks[i]);
    }
    mts_status_t status = MTS_SUCCESS;
    if (tensormap != NULL && tensormap->release_lent) {
        struct mtsgo_labels_runs runs;
        mtsgo_labels_runs_start(&runs);
        for (uintptr_t i = 0; i < tensormap->blocks_count; i++) {
            if (tensormap->labels_dropped) {
                mtsgo_lent_block_release(tensormap->blocks[i]);
            } else {
                mtsgo_c_block_release(tensormap->blocks[i], &runs);
            }
        }
        status = mtsgo_labels_runs_flush(&runs);
    }
    for (uintptr_t i = 0; i < labels_count; i++) {
        if (labels[i] & MTSGO_RELEASE_LABELS) {
            mtsgo_labels_dispose((struct mts_labels_t *)(labels[i] & ~MTSGO_RELEASE_LABELS));
        } else {
            release_array(labels[i]);
        }
    }
    if (tensormap != NULL) {
        mtsgo_tensormap_record_free(tensormap);
    }
    return status;
}
