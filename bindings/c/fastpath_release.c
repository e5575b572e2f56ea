/* mts_tensormap_free's releases in one call from Go each (fastpath_release.go): a call into C
 * per block costs more than the release itself for thousands of blocks. */
#include <string.h>

#include "fastpath.h"

void mtsgo_release_arrays(struct mts_array_t *const *arrays, const uint8_t *owned, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        if (owned[i]) {
            mtsgo_array_release(arrays[i]);
        } else {
            mtsgo_array_destroy(arrays[i]);
            memset(arrays[i], 0, sizeof(struct mts_array_t));
        }
    }
}

void mtsgo_release_batch(struct mts_block_t *const *records, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        mtsgo_block_record_free(records[i]);
    }
}
