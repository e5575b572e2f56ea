/* compareArrays (internal/core/array_description.go) over C arrays, in C: the fast paths of
 * mts_tensormap and mts_block_add_gradient ask the arrays what Go would, in the same order; and
 * describeArray of one C array asked from Go in one call (cArray.Describe). */
#include <stddef.h>
#include <string.h>

#include "fastpath.h"

/* Describes one array; on failure, *failure is the member (1 origin, 2 device, 3 dtype), made
 * negative when the member is NULL. */
static int describe(const struct mts_array_t *array, struct mtsgo_array_description *out, int *failure) {
    memset(out, 0, sizeof(*out));
    if (array->origin == NULL) {
        *failure = -1;
    } else if (mtsgo_array_origin(array, &out->origin) != MTS_SUCCESS) {
        *failure = 1;
    } else if (array->device == NULL) {
        *failure = -2;
    } else if (mtsgo_array_device(array, &out->device) != MTS_SUCCESS) {
        *failure = 2;
    } else if (array->dtype == NULL) {
        *failure = -3;
    } else if (mtsgo_array_dtype(array, &out->dtype) != MTS_SUCCESS) {
        *failure = 3;
    }
    return *failure == 0;
}

struct mtsgo_array_described mtsgo_describe_array(uintptr_t array) {
    struct mtsgo_array_described out = {0};
    describe((const struct mts_array_t *)array, &out.description, &out.failure);
    return out;
}

static int same(const struct mtsgo_array_description *a, const struct mtsgo_array_description *b) {
    return a->origin == b->origin && a->device.device_type == b->device.device_type &&
           a->device.device_id == b->device.device_id && a->dtype.code == b->dtype.code &&
           a->dtype.bits == b->dtype.bits && a->dtype.lanes == b->dtype.lanes;
}

int64_t mtsgo_compare_blocks(struct mts_block_t *const *blocks, uintptr_t count, struct mtsgo_comparison *out) {
    out->failure = 0;
    if (!describe(&blocks[0]->values, &out->first, &out->failure)) {
        out->other = out->first;
        return 0;
    }
    for (uintptr_t i = 1; i < count; i++) {
        mtsgo_prefetch_block(blocks, i, count, offsetof(struct mts_block_t, values), sizeof(struct mts_array_t));
        if (!describe(&blocks[i]->values, &out->other, &out->failure) || !same(&out->first, &out->other)) {
            return (int64_t)i;
        }
    }
    out->other = out->first;
    return -1;
}
