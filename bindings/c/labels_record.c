/* Allocation and release of the C memory of a labels record, each in one call from Go:
 * crossings into C cost more than the work itself for small labels. */
#include <stdlib.h>
#include <string.h>

#include "mtsgo.h"

struct mts_labels_t *mtsgo_labels_alloc(const char *const *names, uintptr_t size) {
    struct mts_labels_t *labels = calloc(1, sizeof(struct mts_labels_t));
    if (labels == NULL || size == 0) {
        return labels;
    }
    /* One block: the pointer table, then the NUL-terminated strings. */
    size_t total = size * sizeof(char *);
    for (uintptr_t i = 0; i < size; i++) {
        total += strlen(names[i]) + 1;
    }
    char **table = malloc(total);
    if (table == NULL) {
        free(labels);
        return NULL;
    }
    char *text = (char *)(table + size);
    for (uintptr_t i = 0; i < size; i++) {
        size_t length = strlen(names[i]) + 1;
        memcpy(text, names[i], length);
        table[i] = text;
        text += length;
    }
    labels->names = (const char *const *)table;
    return labels;
}

void mtsgo_labels_dispose(struct mts_labels_t *labels) {
    free((void *)labels->names);
    free(labels);
}
