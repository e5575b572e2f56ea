/* The fast paths of mts_labels and mts_labels_assume_unique (fastpath.h): labels with plain
 * names, whose array answers as arrays usually do, are made in C. The record holds the names
 * and the array, and Go makes its labels the first time a Go function is given the record
 * (labelsOf, fastpath_labels.go), or never when it is only freed. Every other case, errors
 * included, goes on in Go (mtsgo_labels_asked) from what was already asked. The generated
 * wrappers (wrappers_gen.c) have already rejected NULL arguments. */
#include <stdint.h>
#include <string.h>

#include "_cgo_export.h"
#include "fastpath.h"

int mtsgo_labels_origin_asked = 0;

/* Tells whether labels with these names can be made without asking Go to check them: every
 * name an ASCII identifier, no name twice. Other names (invalid ones, and valid ones this
 * does not bother with) go through Go, which gives the exact error. */
static int plainly_valid_names(const char *const *names, uintptr_t count) {
    if (count > MTSGO_FASTPATH_LABELS_MAX_NAMES) {
        return 0;
    }
    for (uintptr_t i = 0; i < count; i++) {
        const char *name = names[i];
        if (name == NULL || name[0] == '\0' || (name[0] >= '0' && name[0] <= '9')) {
            return 0;
        }
        for (const char *c = name; *c != '\0'; c++) {
            int letter = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z');
            if (!letter && *c != '_' && !(*c >= '0' && *c <= '9')) {
                return 0;
            }
        }
        for (uintptr_t j = 0; j < i; j++) {
            if (strcmp(names[j], name) == 0) {
                return 0;
            }
        }
    }
    return 1;
}

/* Whether the call is one a labels fast path takes, before anything is asked. */
static int plain_call(unsigned fastpath, const char *const *names, uintptr_t count,
                      const struct mts_array_t *array) {
    return (mtsgo_fastpaths & fastpath) && count != 0 && array->shape != NULL &&
           plainly_valid_names(names, count);
}

static const struct mts_labels_t *callback_failed(struct mts_array_t *array, const char *context) {
    mtsgo_array_callback_failed(array, context);
    return NULL;
}

/* Asks the array its shape into asked; 0 when the callback failed (the error is recorded). */
static int ask_shape(struct mts_array_t *array, struct mtsgo_asked *asked) {
    asked->has_shape = 1;
    if (mtsgo_array_shape(array, &asked->shape, &asked->dimensions) != MTS_SUCCESS) {
        mtsgo_array_callback_failed(array, "calling mts_array_t.shape failed");
        return 0;
    }
    return 1;
}

/* Whether the shape asked is that of `count` entries of `size` values, `count` at most
 * `largest`. */
static int shape_fits(const struct mtsgo_asked *asked, uintptr_t size, uintptr_t largest) {
    return asked->shape != NULL && asked->dimensions >= 2 && asked->shape[1] == size &&
           asked->shape[0] <= largest;
}

/* A record for labels made in C, holding the array; NULL when out of memory. */
static struct mts_labels_t *c_labels_record(const char *const *names, uintptr_t size,
                                            uintptr_t count, struct mts_array_t array) {
    struct mts_labels_t *labels = mtsgo_labels_alloc(names, size);
    if (labels == NULL) {
        return NULL;
    }
    labels->array = array;
    labels->size = size;
    labels->count = count;
    labels->references = MTSGO_CALLER_REFERENCE;
    labels->record.magic = MTSGO_LABELS_MAGIC;
    return labels;
}

void mtsgo_fastpath_labels_dispose(struct mts_labels_t *labels) {
    labels->record.magic = MTSGO_FREED_MAGIC;
    labels->array_released = 1;
    mtsgo_labels_dispose(labels);
}

/* Labels assumed unique read nothing but the shape. */
const struct mts_labels_t *mtsgo_c_labels_assume_unique(const char *const *names, uintptr_t count,
                                                        struct mts_array_t array) {
    if (!plain_call(MTSGO_FASTPATH_UNIQUE, names, count, &array)) {
        return mtsgo_labels_asked((char **)names, count, array, 0, NULL);
    }
    struct mtsgo_asked asked;
    mtsgo_asked_start(&asked);
    if (!ask_shape(&array, &asked)) {
        return NULL;
    }
    struct mts_labels_t *labels = NULL;
    if (shape_fits(&asked, count, MTSGO_LABELS_MAX_COUNT)) {
        labels = c_labels_record(names, count, asked.shape[0], array);
    }
    if (labels == NULL) {
        /* A shape to reject, or no memory. */
        return mtsgo_labels_asked((char **)names, count, array, 0, &asked);
    }
    return labels;
}

/* The values of an export when it is what arrays usually give: DLPack 1.x, on the CPU, int32,
 * shape (count, size), contiguous in row-major order (strides absent, or those of row-major
 * order on every axis longer than 1), non-NULL and aligned; NULL for anything else, which Go
 * reads or rejects. */
static const int32_t *plain_values(const DLManagedTensorVersioned *managed, uintptr_t count,
                                   uintptr_t size) {
    if (managed == NULL || managed->version.major != 1) {
        return NULL;
    }
    const DLTensor *tensor = &managed->dl_tensor;
    if (tensor->device.device_type != kDLCPU || tensor->device.device_id != 0 ||
        tensor->dtype.code != kDLInt || tensor->dtype.bits != 32 || tensor->dtype.lanes != 1 ||
        tensor->ndim != 2 || tensor->shape == NULL || tensor->shape[0] != (int64_t)count ||
        tensor->shape[1] != (int64_t)size || tensor->data == NULL) {
        return NULL;
    }
    if (tensor->strides != NULL && ((size != 1 && tensor->strides[1] != 1) ||
                                    (count != 1 && tensor->strides[0] != (int64_t)size))) {
        return NULL;
    }
    uintptr_t address = (uintptr_t)tensor->data + (uintptr_t)tensor->byte_offset;
    if (address % sizeof(int32_t) != 0) {
        return NULL;
    }
    return (const int32_t *)address;
}

/* Compares two rows of `size` values as signed integers, in lexicographic order: the one row
 * comparison of the C code. */
static int compare_rows(const int32_t *a, const int32_t *b, uintptr_t size) {
    for (uintptr_t k = 0; k < size; k++) {
        if (a[k] != b[k]) {
            return a[k] < b[k] ? -1 : 1;
        }
    }
    return 0;
}

/* Tells whether no row appears twice: rows that increase all along are distinct (and
 * *sorted is set), others are compared pair by pair (count is small). */
static int distinct_rows(const int32_t *values, uintptr_t count, uintptr_t size, int *sorted) {
    uintptr_t first = 1;
    while (first < count && compare_rows(values + (first - 1) * size, values + first * size, size) < 0) {
        first++;
    }
    *sorted = first >= count;
    /* rows before `first` increase, so each later row is compared with every row before it */
    for (uintptr_t i = first; i < count; i++) {
        for (uintptr_t j = 0; j < i; j++) {
            if (compare_rows(values + j * size, values + i * size, size) == 0) {
                return 0;
            }
        }
    }
    return 1;
}

/* Checked labels of few entries, whose array gives plain values (plain_values), asking the
 * array what Go asks in the same order (shape, device, as_dlpack): the record keeps the
 * export, whose values C publishes at once, and Go adopts the export when it makes the
 * labels. */
const struct mts_labels_t *mtsgo_c_labels(const char *const *names, uintptr_t count,
                                          struct mts_array_t array) {
    if (!plain_call(MTSGO_FASTPATH_LABELS, names, count, &array) ||
        __atomic_load_n(&mtsgo_labels_origin_asked, __ATOMIC_ACQUIRE)) {
        return mtsgo_labels_asked((char **)names, count, array, 1, NULL);
    }
    struct mtsgo_asked asked;
    mtsgo_asked_start(&asked);
    if (!ask_shape(&array, &asked)) {
        return NULL;
    }
    if (!shape_fits(&asked, count, MTSGO_FASTPATH_LABELS_MAX_COUNT) || array.device == NULL) {
        return mtsgo_labels_asked((char **)names, count, array, 1, &asked);
    }
    uintptr_t entries = asked.shape[0];
    if (entries == 0) {
        /* Nothing more is asked without entries: such labels are what assume_unique makes. */
        struct mts_labels_t *labels = c_labels_record(names, count, 0, array);
        return labels != NULL ? labels : mtsgo_labels_asked((char **)names, count, array, 1, &asked);
    }
    if (mtsgo_array_device(&array, &asked.devices[0]) != MTS_SUCCESS) {
        return callback_failed(&array, "calling mts_array_t.device failed");
    }
    asked.devices_count = 1;
    if (asked.devices[0].device_type == kDLExtDev || array.as_dlpack == NULL) {
        return mtsgo_labels_asked((char **)names, count, array, 1, &asked);
    }
    DLDevice cpu = {kDLCPU, 0};
    DLPackVersion version = {1, 3};
    if (mtsgo_array_as_dlpack(&array, &asked.managed, cpu, NULL, version) != MTS_SUCCESS) {
        return callback_failed(&array, "calling mts_array_t.as_dlpack failed");
    }
    asked.exported = 1;
    const int32_t *values = plain_values(asked.managed, entries, count);
    struct mts_labels_t *labels = NULL;
    int sorted = 0;
    if (values != NULL && distinct_rows(values, entries, count, &sorted)) {
        labels = c_labels_record(names, count, entries, array);
    }
    if (labels == NULL) {
        /* Duplicates, values to copy or reject, or no memory. */
        return mtsgo_labels_asked((char **)names, count, array, 1, &asked);
    }
    labels->exported = asked.managed;
    labels->exported_sorted = sorted;
    labels->values = values;
    return labels;
}
