/* Releases of the C memory of records (records.go) and of arrays, each in one call from Go,
 * and the blocks given to a tensor map or a block. */
#include <stdlib.h>

#include "fastpath.h"

void mtsgo_array_release(struct mts_array_t *array) {
    mtsgo_array_destroy(array);
    free(array);
}

void mtsgo_block_record_free(struct mts_block_t *record) {
    mtsgo_handle_end(&record->record);
    free((void *)record->gradients);
    mtsgo_c_gradients_forget(record);
    free(record);
}

mts_status_t mtsgo_tensormap_record_free(struct mts_tensormap_t *record) {
    mtsgo_handle_end(&record->record);
    free((void *)record->info_keys);
    struct mts_labels_t *keys = record->keys;
    free(record);
    return keys != NULL ? mtsgo_labels_unhold(keys, 1) : MTS_SUCCESS;
}

void mtsgo_blocks_given(struct mts_block_t *const *blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        blocks[i]->held = 1;
        mtsgo_handle_end(&blocks[i]->record);
    }
}

struct mts_tensormap_t *mtsgo_tensormap_record_taking(struct mts_block_t *const *blocks, uintptr_t count) {
    struct mts_tensormap_t *record = calloc(1, sizeof(struct mts_tensormap_t));
    if (record != NULL) {
        mtsgo_blocks_given(blocks, count);
    }
    return record;
}
