/* Releases that Go would otherwise do in several calls into C, each costing more than the
 * work itself when thousands of blocks are freed. */
#include <stdlib.h>
#include <string.h>

#include "mtsgo.h"

void mtsgo_array_release(struct mts_array_t *array) {
    mtsgo_array_destroy(array);
    free(array);
}

void mtsgo_block_record_free(struct mts_block_t *record) {
    free((void *)record->gradients);
    free(record);
}

void mtsgo_release_batch(struct mts_array_t *const *arrays, const uint8_t *owned,
                         uintptr_t arrays_count, struct mts_block_t *const *records,
                         uintptr_t records_count) {
    for (uintptr_t i = 0; i < arrays_count; i++) {
        if (owned[i]) {
            mtsgo_array_release(arrays[i]);
        } else {
            mtsgo_array_destroy(arrays[i]);
            memset(arrays[i], 0, sizeof(struct mts_array_t));
        }
    }
    for (uintptr_t i = 0; i < records_count; i++) {
        mtsgo_block_record_free(records[i]);
    }
}
