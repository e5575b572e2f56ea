/* Releases that Go would otherwise do in several calls into C, each costing more than the
 * work itself when thousands of blocks are freed. */
#include <stdlib.h>

#include "mtsgo.h"

void mtsgo_array_release(struct mts_array_t *array) {
    mtsgo_array_destroy(array);
    free(array);
}

void mtsgo_block_record_free(struct mts_block_t *record) {
    free((void *)record->gradients);
    free(record);
}
