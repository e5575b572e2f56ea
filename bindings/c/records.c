/* Releases of the C memory of records (records.go) and of arrays, each in one call from Go. */
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
