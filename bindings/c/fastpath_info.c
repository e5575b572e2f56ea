/* The info fast path (fastpath.h): the info of a tensor map made in C that Go never saw is set
 * and read in C, in the record (struct mtsgo_c_info), so that naming a new map and reading its
 * info back do not make it in Go; Go copies the entries when it makes the map (cInfoOf,
 * fastpath_info.go). Keys that are not plain ASCII go to Go, which checks that they are
 * UTF-8, as does every call on any other tensor map, and a set that runs out of memory. The
 * generated wrappers (wrappers_gen.c) have already rejected NULL arguments. */
#include <stdlib.h>
#include <string.h>

#include "_cgo_export.h"
#include "fastpath.h"

/* Tells whether the info of this tensor map is kept in C. */
static int c_info_map(const struct mts_tensormap_t *tensor) {
    return (mtsgo_fastpaths & MTSGO_FASTPATH_INFO) && mtsgo_unseen_c_tensormap(tensor);
}

/* The index of key in the info (NULL for none), or -1. */
static intptr_t info_find(const struct mtsgo_c_info *info, const char *key) {
    for (uintptr_t i = 0; info != NULL && i < info->count; i++) {
        if (strcmp(info->keys[i], key) == 0) {
            return (intptr_t)i;
        }
    }
    return -1;
}

/* Makes room for one more entry, moving the info to a larger allocation when full; 0 when
 * memory ran out, the entries unchanged. */
static int info_reserve(struct mtsgo_c_info **slot) {
    struct mtsgo_c_info *info = *slot;
    if (info != NULL && info->count < info->capacity) {
        return 1;
    }
    uintptr_t capacity = info == NULL ? 4 : 2 * info->capacity;
    struct mtsgo_c_info *grown = malloc(sizeof *grown + 2 * capacity * sizeof(char *));
    if (grown == NULL) {
        return 0;
    }
    grown->count = info == NULL ? 0 : info->count;
    grown->capacity = capacity;
    grown->keys = grown->entries;
    grown->values = grown->entries + capacity;
    if (info != NULL) {
        memcpy(grown->keys, info->keys, info->count * sizeof(char *));
        memcpy(grown->values, info->values, info->count * sizeof(char *));
        free(info);
    }
    *slot = grown;
    return 1;
}

/* One allocation holding key then value (freed through the key); NULL when memory ran out. */
static char *entry_new(const char *key, const char *value, char **value_out) {
    size_t key_size = strlen(key) + 1, value_size = strlen(value) + 1;
    char *entry = malloc(key_size + value_size);
    if (entry != NULL) {
        memcpy(entry, key, key_size);
        memcpy(entry + key_size, value, value_size);
        *value_out = entry + key_size;
    }
    return entry;
}

/* Sets key to value in the info kept in C; 0 when memory ran out, the info unchanged. */
static int info_set(struct mts_tensormap_t *tensor, const char *key, const char *value) {
    intptr_t found = info_find(tensor->c_info, key);
    if (found < 0 && !info_reserve(&tensor->c_info)) {
        return 0;
    }
    char *entry_value = NULL;
    char *entry = entry_new(key, value, &entry_value);
    if (entry == NULL) {
        return 0;
    }
    struct mtsgo_c_info *info = tensor->c_info;
    if (found >= 0) {
        /* the value get_info handed out for this key ends here */
        free(info->keys[found]);
    } else {
        found = (intptr_t)info->count++;
        /* a new key: the list of keys handed out so far ends here */
        free((void *)tensor->info_keys);
        tensor->info_keys = NULL;
        tensor->info_keys_count = 0;
    }
    info->keys[found] = entry;
    info->values[found] = entry_value;
    return 1;
}

mts_status_t mtsgo_c_tensormap_set_info(struct mts_tensormap_t *tensor, const char *key, const char *value) {
    if (c_info_map(tensor) && mtsgo_plain_text(key) && info_set(tensor, key, value)) {
        return MTS_SUCCESS;
    }
    return mtsgo_tensormap_set_info(tensor, (char *)key, (char *)value);
}

mts_status_t mtsgo_c_tensormap_get_info(const struct mts_tensormap_t *tensor, const char *key, const char **value) {
    if (!c_info_map(tensor) || !mtsgo_plain_text(key)) {
        return mtsgo_tensormap_get_info((struct mts_tensormap_t *)tensor, (char *)key, (char **)value);
    }
    intptr_t found = info_find(tensor->c_info, key);
    *value = found >= 0 ? tensor->c_info->values[found] : NULL;
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_tensormap_info_keys(const struct mts_tensormap_t *tensor, const char *const **keys,
                                         uintptr_t *keys_count) {
    struct mts_tensormap_t *record = (struct mts_tensormap_t *)tensor;
    if (!c_info_map(tensor)) {
        return mtsgo_tensormap_info_keys(record, (char ***)keys, keys_count);
    }
    uintptr_t count = record->c_info != NULL ? record->c_info->count : 0;
    const char *const *list = __atomic_load_n(&record->info_keys, __ATOMIC_ACQUIRE);
    if (list == NULL && count > 0) {
        /* Made once, as Go makes it: readers on other threads may race to make it. */
        const char *const *made = mtsgo_string_table((const char *const *)record->c_info->keys, count);
        if (made == NULL) {
            return mtsgo_tensormap_info_keys(record, (char ***)keys, keys_count);
        }
        __atomic_store_n(&record->info_keys_count, count, __ATOMIC_RELAXED);
        if (__atomic_compare_exchange_n(&record->info_keys, &list, made, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            list = made;
        } else {
            free((void *)made);
        }
    }
    *keys = list;
    *keys_count = count;
    return MTS_SUCCESS;
}

void mtsgo_c_info_free(struct mtsgo_c_info *info) {
    if (info == NULL) {
        return;
    }
    for (uintptr_t i = 0; i < info->count; i++) {
        free(info->keys[i]); /* with its value */
    }
    free(info);
}
