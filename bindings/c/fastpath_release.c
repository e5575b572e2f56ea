/* mts_tensormap_free's record releases in one call from Go (fastpath_release.go): a call into
 * C per block costs more than the release itself for thousands of blocks. */
#include "fastpath.h"

void mtsgo_release_batch(struct mts_block_t *const *records, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        mtsgo_block_record_free(records[i]);
    }
}
