/* The labels functions that only read the C record: no Go call on their common path. The
 * generated wrappers (wrappers_gen.c) have already rejected NULL arguments and turned the
 * callers' handles into live records. */
#include <stdint.h>
#include <string.h>

#include "_cgo_export.h"
#include "fastpath.h"
#include "mtsgo.h"

/* What values_cpu gives for labels without values: not NULL, never read. */
static const int32_t NO_VALUES[1] = {0};

void mtsgo_labels_publish_values(struct mts_labels_t *labels, const int32_t *values) {
    __atomic_store_n(&labels->values, values, __ATOMIC_RELEASE);
}

const struct mts_labels_t *mtsgo_c_labels_clone(const struct mts_labels_t *labels) {
    mtsgo_labels_acquire((struct mts_labels_t *)labels);
    return labels;
}

uintptr_t mtsgo_labels_acquire(struct mts_labels_t *labels) {
    uint64_t before = __atomic_fetch_add(&labels->references, MTSGO_CALLER_REFERENCE, __ATOMIC_ACQ_REL);
    return MTSGO_REFERENCES(before);
}

mts_status_t mtsgo_labels_release_unheld(struct mts_labels_t *labels) {
    if (__atomic_load_n(&labels->record.handle, __ATOMIC_ACQUIRE) != 0) {
        return mtsgo_labels_release(labels);
    }
    /* Labels that Go never saw (made by a fast path) hold only C memory. */
    mtsgo_fastpath_labels_dispose(labels);
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_labels_free(const struct mts_labels_t *labels) {
    struct mts_labels_t *shared = (struct mts_labels_t *)labels;
    /* Labels a block or tensor map holds outlive their callers' references, with the same
     * handle: one more free than there were references is refused, not counted. */
    uint64_t references = __atomic_load_n(&shared->references, __ATOMIC_ACQUIRE);
    do {
        if (MTSGO_CALLERS(references) == 0) {
            return mtsgo_fail(MTS_INVALID_PARAMETER_ERROR,
                              "invalid parameter: `labels` was freed already");
        }
    } while (!__atomic_compare_exchange_n(&shared->references, &references,
                                          references - MTSGO_CALLER_REFERENCE, 0,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    if (MTSGO_REFERENCES(references) != 1) {
        return MTS_SUCCESS;
    }
    return mtsgo_labels_release_unheld(shared);
}

mts_status_t mtsgo_c_labels_dimensions(const struct mts_labels_t *labels,
                                       const char *const **names, uintptr_t *count) {
    *names = labels->names;
    *count = labels->size;
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_labels_values(const struct mts_labels_t *labels, struct mts_array_t *array) {
    if (labels->cpu_values && __atomic_load_n(&labels->array.ptr, __ATOMIC_ACQUIRE) == NULL) {
        /* the library's own values, not exported yet */
        mts_status_t status = mtsgo_labels_export_values((struct mts_labels_t *)labels);
        if (status != MTS_SUCCESS) {
            return status;
        }
    }
    *array = labels->array;
    array->destroy = NULL; /* a view: the labels keep owning the array */
    return MTS_SUCCESS;
}

const int32_t *mtsgo_labels_cpu_values(struct mts_labels_t *labels, mts_status_t *status) {
    const int32_t *values = __atomic_load_n(&labels->values, __ATOMIC_ACQUIRE);
    if (values == NULL) {
        *status = mtsgo_labels_read_values(labels);
        if (*status == MTS_SUCCESS) {
            values = __atomic_load_n(&labels->values, __ATOMIC_ACQUIRE);
        }
    }
    return values;
}

mts_status_t mtsgo_c_labels_values_cpu(const struct mts_labels_t *labels, const int32_t **values,
                                       uintptr_t *count, uintptr_t *size) {
    struct mts_labels_t *shared = (struct mts_labels_t *)labels;
    const int32_t *cpu = NO_VALUES;
    if (shared->count != 0 && shared->size != 0) {
        mts_status_t status = MTS_SUCCESS;
        cpu = mtsgo_labels_cpu_values(shared, &status);
        if (cpu == NULL) {
            return status;
        }
    }
    *values = cpu;
    *count = labels->count;
    *size = labels->size;
    return MTS_SUCCESS;
}
