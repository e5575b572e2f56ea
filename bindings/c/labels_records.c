/* Allocation and release of the C memory of a labels record, each in one call from Go:
 * crossings into C cost more than the work itself for small labels. */
#include <stdlib.h>

#include "mtsgo.h"

struct mts_labels_t *mtsgo_labels_alloc(const char *const *names, uintptr_t size) {
    struct mts_labels_t *labels = calloc(1, sizeof(struct mts_labels_t));
    if (labels == NULL || size == 0) {
        return labels;
    }
    labels->names = mtsgo_string_table(names, size);
    if (labels->names == NULL) {
        free(labels);
        return NULL;
    }
    return labels;
}

void mtsgo_labels_dispose(struct mts_labels_t *labels) {
    mtsgo_handle_end(&labels->record);
    free((void *)labels->names);
    free(labels);
}
