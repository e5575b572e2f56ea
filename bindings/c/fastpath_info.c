/* The info fast path (fastpath.h): the info of a tensor map made in C that Go never saw is set
 * and read in C, in the record (struct mtsgo_c_info), so that naming a new map and reading its
 * info back do not make it in Go; Go takes the entries over when it makes the map
 * (cInfoOf, fastpath_info.go). Keys that are not plain ASCII go to Go, which checks that they
 * are UTF-8, as does every call on any other tensor map, and a set that runs out of memory.
 * The generated wrappers (wrappers_gen.c) have already rejected NULL arguments. */
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

/* Makes room for one more entry; 0 when memory ran out, the entries unchanged. */
static int info_reserve(struct mtsgo_c_info **slot) {
    if (*slot == NULL && (*slot = calloc(1, sizeof **slot)) == NULL) {
        return 0;
    }
    struct mtsgo_c_info *info = *slot;
    if (info->count < info->capacity) {
        return 1;
    }
    uintptr_t capacity = info->capacity == 0 ? 4 : 2 * info->capacity;
    char **keys = realloc(info->keys, capacity * sizeof *keys);
    if (keys == NULL) {
        return 0;
    }
    info->keys = keys;
    char **values = realloc(info->values, capacity * sizeof *values);
    if (values == NULL) {
        return 0;
    }
    info->values = values;
    info->capacity = capacity;
    return 1;
}

mts_status_t mtsgo_c_tensormap_set_info(struct mts_tensormap_t *tensor, const char *key, const char *value) {
    if (c_info_map(tensor) && mtsgo_plain_text(key)) {
        intptr_t found = info_find(tensor->c_info, key);
        char *value_copy = strdup(value);
        if (value_copy != NULL && found >= 0) {
            /* the value get_info handed out for this key ends here */
            free(tensor->c_info->values[found]);
            tensor->c_info->values[found] = value_copy;
            return MTS_SUCCESS;
        }
        char *key_copy = value_copy != NULL ? strdup(key) : NULL;
        if (key_copy != NULL && info_reserve(&tensor->c_info)) {
            struct mtsgo_c_info *info = tensor->c_info;
            info->keys[info->count] = key_copy;
            info->values[info->count] = value_copy;
            info->count++;
            /* a new key: the list of keys handed out so far ends here */
            free((void *)tensor->info_keys);
            tensor->info_keys = NULL;
            tensor->info_keys_count = 0;
            return MTS_SUCCESS;
        }
        free(key_copy);
        free(value_copy);
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
    for (uintptr_t i = 0; i < info->count; i++) {
        free(info->keys[i]);
        if (!info->values_taken) {
            free(info->values[i]);
        }
    }
    free(info->keys);
    free(info->values);
    free(info);
}
