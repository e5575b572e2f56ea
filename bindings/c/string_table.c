/* String lists handed to C callers (labels names, gradient parameters, info keys): one
 * allocation holding the pointer table and the strings, so one free releases it. */
#include <stdlib.h>
#include <string.h>

#include "mtsgo.h"

/* The table for `count` strings: string i starts at starts[i] (or at `text` plus the lengths
 * before it when starts is NULL) and has lengths[i] bytes. */
static const char *const *string_table(const char *const *starts, const char *text,
                                       const size_t *lengths, uintptr_t count) {
    if (count == 0) {
        return NULL;
    }
    size_t total = count * sizeof(char *);
    for (uintptr_t i = 0; i < count; i++) {
        total += lengths[i] + 1;
    }
    char **table = malloc(total);
    if (table == NULL) {
        return NULL;
    }
    char *out = (char *)(table + count);
    for (uintptr_t i = 0; i < count; i++) {
        const char *start = starts != NULL ? starts[i] : text;
        memcpy(out, start, lengths[i]);
        out[lengths[i]] = '\0';
        table[i] = out;
        out += lengths[i] + 1;
        text += lengths[i];
    }
    return (const char *const *)table;
}

const char *const *mtsgo_string_table(const char *const *strings, uintptr_t count) {
    if (count == 0) {
        return NULL;
    }
    size_t small[16] = {0};
    size_t *lengths = count <= 16 ? small : malloc(count * sizeof(size_t));
    if (lengths == NULL) {
        return NULL;
    }
    for (uintptr_t i = 0; i < count; i++) {
        lengths[i] = strlen(strings[i]);
    }
    const char *const *table = string_table(strings, NULL, lengths, count);
    if (lengths != small) {
        free(lengths);
    }
    return table;
}

const char *const *mtsgo_string_table_packed(const char *text, const size_t *lengths, uintptr_t count) {
    return string_table(NULL, text, lengths, count);
}
