/* The labels functions that only read the C record: no Go call on their common path. The
 * generated wrappers (wrappers_gen.c) have already rejected NULL arguments. */
#include <stdint.h>
#include <string.h>

#include "_cgo_export.h"
#include "fastpath.h"
#include "mtsgo.h"

/* What values_cpu gives for labels without values: not NULL, never read. */
static const int32_t NO_VALUES[1] = {0};

mts_status_t mtsgo_labels_check(const struct mts_labels_t *labels) {
    if (labels->record.magic != MTSGO_LABELS_MAGIC) {
        return mtsgo_fail(MTS_INVALID_PARAMETER_ERROR,
                          "invalid parameter: this pointer is not a valid labels: it was freed or "
                          "is of another type");
    }
    return MTS_SUCCESS;
}

void mtsgo_labels_publish_values(struct mts_labels_t *labels, const int32_t *values) {
    __atomic_store_n(&labels->values, values, __ATOMIC_RELEASE);
}

const struct mts_labels_t *mtsgo_c_labels_clone(const struct mts_labels_t *labels) {
    if (mtsgo_labels_check(labels) != MTS_SUCCESS) {
        return NULL;
    }
    struct mts_labels_t *shared = (struct mts_labels_t *)labels;
    __atomic_add_fetch(&shared->references, 1, __ATOMIC_RELAXED);
    return labels;
}

uintptr_t mtsgo_labels_acquire(struct mts_labels_t *labels) {
    return __atomic_fetch_add(&labels->references, 1, __ATOMIC_ACQ_REL);
}

mts_status_t mtsgo_c_labels_free(const struct mts_labels_t *labels) {
    mts_status_t status = mtsgo_labels_check(labels);
    if (status != MTS_SUCCESS) {
        return status;
    }
    struct mts_labels_t *shared = (struct mts_labels_t *)labels;
    if (__atomic_sub_fetch(&shared->references, 1, __ATOMIC_ACQ_REL) != 0) {
        return MTS_SUCCESS;
    }
    if (__atomic_load_n(&shared->record.handle, __ATOMIC_ACQUIRE) != 0) {
        return mtsgo_labels_release(shared);
    }
    /* Labels that Go never saw (see mtsgo_c_labels_assume_unique and mtsgo_c_labels) hold
     * only C memory. As in Go, the export goes before the array it views. */
    shared->record.magic = MTSGO_FREED_MAGIC;
    DLManagedTensorVersioned *exported = shared->exported;
    if (exported != NULL && exported->deleter != NULL) {
        exported->deleter(exported);
    }
    mtsgo_array_destroy(&shared->array);
    mtsgo_labels_dispose(shared);
    return MTS_SUCCESS;
}

/* Tells whether labels with these names can be made without asking Go to check them: every
 * name an ASCII identifier, no name twice. Other names (invalid ones, and valid ones this
 * does not bother with) go through Go, which gives the exact error. */
static int plainly_valid_names(const char *const *names, uintptr_t count) {
    if (count > 16) {
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

void mtsgo_array_callback_failed(struct mts_array_t *array, const char *context) {
    mtsgo_callback_failed(context, strlen(context));
    mtsgo_array_destroy(array);
}

static const struct mts_labels_t *callback_failed(struct mts_array_t *array, const char *context) {
    mtsgo_array_callback_failed(array, context);
    return NULL;
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
    labels->references = 1;
    labels->record.magic = MTSGO_LABELS_MAGIC;
    return labels;
}

/* Labels assumed unique read nothing but the shape, so the common case is done here without
 * Go: the record holds the names and the array, and Go makes its labels the first time a Go
 * function is given the record (labelsOf), or never when it is only freed. */
const struct mts_labels_t *mtsgo_c_labels_assume_unique(const char *const *names, uintptr_t count,
                                                        struct mts_array_t array) {
    if (!(mtsgo_fastpaths & MTSGO_FASTPATH_UNIQUE) || count == 0 || array.shape == NULL ||
        !plainly_valid_names(names, count)) {
        return mtsgo_labels_new((char **)names, count, array, 0);
    }
    const uintptr_t *shape = NULL;
    uintptr_t dimensions = 0;
    if (mtsgo_array_shape(&array, &shape, &dimensions) != MTS_SUCCESS) {
        return callback_failed(&array, "calling mts_array_t.shape failed");
    }
    struct mts_labels_t *labels = NULL;
    if (shape != NULL && dimensions >= 2 && shape[1] == count && shape[0] <= INT32_MAX) {
        labels = c_labels_record(names, count, shape[0], array);
    }
    if (labels == NULL) {
        /* A shape to reject, very large labels (Go knows the limit) or no memory: Go goes on
         * from the shape it is given, without asking the array again. */
        return mtsgo_labels_asked((char **)names, count, array, 0, (uintptr_t *)shape, dimensions, NULL, 0, NULL);
    }
    return labels;
}

int mtsgo_labels_origin_asked = 0;

/* Checked labels with at most this many entries are made in C: their values are checked for
 * duplicates pair by pair, when not sorted, which is quick only for few entries. */
#define C_CHECKED_MAX_COUNT 64

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

/* Compares two rows of `size` values as signed integers, in lexicographic order. */
static int compare_rows(const int32_t *a, const int32_t *b, uintptr_t size) {
    for (uintptr_t k = 0; k < size; k++) {
        if (a[k] != b[k]) {
            return a[k] < b[k] ? -1 : 1;
        }
    }
    return 0;
}

/* Tells whether no row appears twice: rows that increase all along are distinct, others are
 * compared pair by pair (count is small). */
static int distinct_rows(const int32_t *values, uintptr_t count, uintptr_t size) {
    uintptr_t first = 1;
    while (first < count && compare_rows(values + (first - 1) * size, values + first * size, size) < 0) {
        first++;
    }
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

/* Checked labels of few entries, whose array gives plain values (plain_values), are made here
 * without Go, asking the array what Go asks in the same order (shape, device, as_dlpack):
 * the record keeps the export, whose values C publishes at once, and Go makes the labels the
 * first time a Go function is given the record (labelsOf), adopting the export. Every other
 * case, errors included, goes on in Go from what was already asked, so that no callback runs
 * twice and errors are Go's. */
const struct mts_labels_t *mtsgo_c_labels(const char *const *names, uintptr_t count,
                                          struct mts_array_t array) {
    if (!(mtsgo_fastpaths & MTSGO_FASTPATH_LABELS) || count == 0 || array.shape == NULL ||
        !plainly_valid_names(names, count) || __atomic_load_n(&mtsgo_labels_origin_asked, __ATOMIC_ACQUIRE)) {
        return mtsgo_labels_new((char **)names, count, array, 1);
    }
    const uintptr_t *shape = NULL;
    uintptr_t dimensions = 0;
    if (mtsgo_array_shape(&array, &shape, &dimensions) != MTS_SUCCESS) {
        return callback_failed(&array, "calling mts_array_t.shape failed");
    }
    if (shape == NULL || dimensions < 2 || shape[1] != count || shape[0] > C_CHECKED_MAX_COUNT ||
        array.device == NULL) {
        return mtsgo_labels_asked((char **)names, count, array, 1, (uintptr_t *)shape, dimensions, NULL, 0, NULL);
    }
    if (shape[0] == 0) {
        /* Nothing more is asked without entries: such labels are what assume_unique makes. */
        struct mts_labels_t *labels = c_labels_record(names, count, 0, array);
        if (labels == NULL) {
            return mtsgo_labels_asked((char **)names, count, array, 1, (uintptr_t *)shape, dimensions, NULL, 0, NULL);
        }
        return labels;
    }
    DLDevice device = {0};
    if (mtsgo_array_device(&array, &device) != MTS_SUCCESS) {
        return callback_failed(&array, "calling mts_array_t.device failed");
    }
    if (device.device_type == kDLExtDev || array.as_dlpack == NULL) {
        return mtsgo_labels_asked((char **)names, count, array, 1, (uintptr_t *)shape, dimensions, &device, 0, NULL);
    }
    DLManagedTensorVersioned *managed = NULL;
    DLDevice cpu = {kDLCPU, 0};
    DLPackVersion version = {1, 3};
    if (mtsgo_array_as_dlpack(&array, &managed, cpu, NULL, version) != MTS_SUCCESS) {
        return callback_failed(&array, "calling mts_array_t.as_dlpack failed");
    }
    uintptr_t entries = shape[0];
    const int32_t *values = plain_values(managed, entries, count);
    struct mts_labels_t *labels = NULL;
    if (values != NULL && distinct_rows(values, entries, count)) {
        labels = c_labels_record(names, count, entries, array);
    }
    if (labels == NULL) {
        /* Duplicates, values to copy or reject, or no memory. */
        return mtsgo_labels_asked((char **)names, count, array, 1, (uintptr_t *)shape, dimensions, &device, 1, managed);
    }
    labels->exported = managed;
    labels->values = values;
    return labels;
}

mts_status_t mtsgo_c_labels_dimensions(const struct mts_labels_t *labels,
                                       const char *const **names, uintptr_t *count) {
    mts_status_t status = mtsgo_labels_check(labels);
    if (status != MTS_SUCCESS) {
        return status;
    }
    *names = labels->names;
    *count = labels->size;
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_labels_values(const struct mts_labels_t *labels, struct mts_array_t *array) {
    mts_status_t status = mtsgo_labels_check(labels);
    if (status != MTS_SUCCESS) {
        return status;
    }
    *array = labels->array;
    array->destroy = NULL; /* a view: the labels keep owning the array */
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_labels_values_cpu(const struct mts_labels_t *labels, const int32_t **values,
                                       uintptr_t *count, uintptr_t *size) {
    mts_status_t status = mtsgo_labels_check(labels);
    if (status != MTS_SUCCESS) {
        return status;
    }
    struct mts_labels_t *shared = (struct mts_labels_t *)labels;
    const int32_t *cpu = NO_VALUES;
    if (shared->count != 0 && shared->size != 0) {
        cpu = __atomic_load_n(&shared->values, __ATOMIC_ACQUIRE);
        if (cpu == NULL) {
            status = mtsgo_labels_read_values(shared);
            if (status != MTS_SUCCESS) {
                return status;
            }
            cpu = __atomic_load_n(&shared->values, __ATOMIC_ACQUIRE);
        }
    }
    *values = cpu;
    *count = labels->count;
    *size = labels->size;
    return MTS_SUCCESS;
}
