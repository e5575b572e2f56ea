/* mts_tensormap_free's releases in one call from Go (fastpath_release.go): two calls into C
 * per block cost more than the releases themselves for thousands of blocks. */
#include <string.h>

#include "fastpath.h"

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
