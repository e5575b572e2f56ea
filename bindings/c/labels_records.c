/* Allocation and release of the C memory of a labels record, each in one call from Go:
 * crossings into C cost more than the work itself for small labels. */
#include <stdlib.h>
#include <string.h>

#include "mtsgo.h"

/* The names of the last labels this thread made with names, packed (each NUL-terminated),
 * and their number: the next labels with the same names get the same number. Names longer
 * than the buffer get a number of their own. */
#define REMEMBERED_NAMES_BYTES 248
static _Thread_local struct {
    uint64_t id;
    uintptr_t size;
    size_t bytes;
    char packed[REMEMBERED_NAMES_BYTES];
} last_names;

static uint64_t names_ids; /* atomic; the last number given */

/* The number of a set of names: the last one's when they are the same, else a new one. */
static uint64_t names_id(const char *const *names, uintptr_t size) {
    size_t bytes = 0;
    int same = last_names.id != 0 && last_names.size == size;
    for (uintptr_t i = 0; i < size; i++) {
        size_t length = strlen(names[i]) + 1;
        same = same && bytes + length <= last_names.bytes &&
               memcmp(last_names.packed + bytes, names[i], length) == 0;
        bytes += length;
    }
    if (same && bytes == last_names.bytes) {
        return last_names.id;
    }
    uint64_t id = __atomic_add_fetch(&names_ids, 1, __ATOMIC_RELAXED);
    last_names.id = 0;
    if (bytes <= REMEMBERED_NAMES_BYTES) {
        char *out = last_names.packed;
        for (uintptr_t i = 0; i < size; i++) {
            size_t length = strlen(names[i]) + 1;
            memcpy(out, names[i], length);
            out += length;
        }
        last_names.id = id;
        last_names.size = size;
        last_names.bytes = bytes;
    }
    return id;
}

struct mts_labels_t *mtsgo_labels_alloc(const char *const *names, uintptr_t size) {
    const char *const *table = NULL;
    struct mts_labels_t *labels = mtsgo_with_string_table(sizeof *labels, names, size, &table);
    if (labels == NULL) {
        return NULL;
    }
    labels->names = table;
    if (size != 0) {
        labels->names_id = names_id(names, size);
    }
    return labels;
}

struct mts_labels_t *mtsgo_labels_alloc_packed(const char *text, const size_t *lengths, uintptr_t size) {
    const char *const *table = NULL;
    struct mts_labels_t *labels = mtsgo_with_string_table_packed(sizeof *labels, text, lengths, size, &table);
    if (labels != NULL) {
        labels->names = table;
    }
    return labels;
}

uintptr_t mtsgo_labels_alloc_packed_many(const char *text, const size_t *lengths, const uintptr_t *sizes,
                                         uintptr_t count, struct mts_labels_t **records) {
    for (uintptr_t i = 0; i < count; i++) {
        records[i] = mtsgo_labels_alloc_packed(text, lengths, sizes[i]);
        if (records[i] == NULL) {
            return i;
        }
        for (uintptr_t n = 0; n < sizes[i]; n++) {
            text += lengths[n];
        }
        lengths += sizes[i];
    }
    return count;
}

void mtsgo_labels_dispose(struct mts_labels_t *labels) {
    DLManagedTensorVersioned *exported = labels->exported;
    if (exported != NULL && exported->deleter != NULL) {
        exported->deleter(exported);
    }
    if (labels->array_released) {
        mtsgo_array_destroy(&labels->array);
    }
    mtsgo_handle_end(&labels->record);
    free(labels); /* and its names, in the same allocation */
}
