/* String lists handed to C callers (labels names, gradient parameters, info keys): one
 * allocation holding the pointer table and the strings, so one free releases it. */
#include <stdlib.h>
#include <string.h>

#include "mtsgo.h"

/* The bytes of the table of `count` strings of these lengths. */
static size_t string_table_size(const size_t *lengths, uintptr_t count) {
    size_t total = count * sizeof(char *);
    for (uintptr_t i = 0; i < count; i++) {
        total += lengths[i] + 1;
    }
    return total;
}

/* Writes the table for `count` strings into `memory` (string_table_size bytes): string i
 * starts at starts[i] (or at `text` plus the lengths before it when starts is NULL) and has
 * lengths[i] bytes. */
static const char *const *string_table_fill(void *memory, const char *const *starts, const char *text,
                                            const size_t *lengths, uintptr_t count) {
    char **table = memory;
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

/* A zeroed head of `head` bytes (a multiple of the pointer size), then the table for `count`
 * strings (NULL when there are none), in one allocation. */
static void *with_string_table(size_t head, const char *const *starts, const char *text, const size_t *lengths,
                               uintptr_t count, const char *const **table) {
    size_t bytes = count == 0 ? 0 : string_table_size(lengths, count);
    /* Readers of the strings (Go's among them) load up to 32 aligned bytes at once, past a
     * string's end: 32 zeros after the last one keep those loads within the allocation, and
     * reading only bytes the allocation defined. */
    size_t padded = head + bytes + (count == 0 ? 0 : 32);
    char *memory = malloc(padded);
    if (memory == NULL) {
        return NULL;
    }
    memset(memory, 0, head);
    memset(memory + head + bytes, 0, padded - head - bytes);
    *table = count == 0 ? NULL : string_table_fill(memory + head, starts, text, lengths, count);
    return memory;
}

/* The lengths of `count` strings, in `small` when they are few, else allocated (NULL when
 * memory ran out); free them with lengths_free. */
static size_t *lengths_of(const char *const *strings, uintptr_t count, size_t small[16]) {
    size_t *lengths = count <= 16 ? small : malloc(count * sizeof(size_t));
    if (lengths != NULL) {
        for (uintptr_t i = 0; i < count; i++) {
            lengths[i] = strlen(strings[i]);
        }
    }
    return lengths;
}

static void lengths_free(size_t *lengths, size_t small[16]) {
    if (lengths != small) {
        free(lengths);
    }
}

const char *const *mtsgo_string_table(const char *const *strings, uintptr_t count) {
    const char *const *table = NULL;
    if (count != 0) {
        mtsgo_with_string_table(0, strings, count, &table);
    }
    return table;
}

void *mtsgo_with_string_table(size_t head, const char *const *strings, uintptr_t count, const char *const **table) {
    size_t small[16] = {0};
    size_t *lengths = lengths_of(strings, count, small);
    if (lengths == NULL) {
        return NULL;
    }
    void *memory = with_string_table(head, strings, NULL, lengths, count, table);
    lengths_free(lengths, small);
    return memory;
}

void *mtsgo_with_string_table_packed(size_t head, const char *text, const size_t *lengths, uintptr_t count,
                                     const char *const **table) {
    return with_string_table(head, NULL, text, lengths, count, table);
}

const char *const *mtsgo_string_table_packed(const char *text, const size_t *lengths, uintptr_t count) {
    const char *const *table = NULL;
    if (count != 0) {
        with_string_table(0, NULL, text, lengths, count, &table);
    }
    return table;
}
