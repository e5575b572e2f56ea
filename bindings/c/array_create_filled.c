/* createFilled (internal/core/tensormap_keys_to.go) over C arrays, in one call from Go: the
 * array's dtype, the fill's dtype, shape and device, then the array's create, each a call into
 * C of its own otherwise (cArray.CreateFilled). It stops where createFilled stops: after a NULL
 * member or a failed call, or an answer the core rejects, which Go words. */
#include "mtsgo.h"

/* Starts call number `call`: false when its member is NULL (not called). */
static int begin(struct mtsgo_filled_created *out, int call, int member_set) {
    out->calls = call;
    out->missing = !member_set;
    return member_set;
}

/* Ends the current call: false when it failed. */
static int succeeded(struct mtsgo_filled_created *out, mts_status_t status) {
    out->failed = status != MTS_SUCCESS;
    return !out->failed;
}

struct mtsgo_filled_created mtsgo_create_filled(uintptr_t like, const uintptr_t *shape, uintptr_t shape_count,
                                                uintptr_t fill) {
    const struct mts_array_t *like_array = (const struct mts_array_t *)like;
    const struct mts_array_t *fill_array = (const struct mts_array_t *)fill;
    struct mtsgo_filled_created out = {0};

    if (!begin(&out, 1, like_array->dtype != NULL)) {
        return out;
    }
    struct mtsgo_array_dtype_result dtype = mtsgo_array_dtype_value(like);
    out.dtype = dtype.dtype;
    if (!succeeded(&out, dtype.status) || !begin(&out, 2, fill_array->dtype != NULL)) {
        return out;
    }
    struct mtsgo_array_dtype_result fill_dtype = mtsgo_array_dtype_value(fill);
    out.fill_dtype = fill_dtype.dtype;
    if (!succeeded(&out, fill_dtype.status) || out.fill_dtype.code != out.dtype.code ||
        out.fill_dtype.bits != out.dtype.bits || out.fill_dtype.lanes != out.dtype.lanes ||
        !begin(&out, 3, fill_array->shape != NULL)) {
        return out;
    }
    struct mtsgo_array_shape_result fill_shape = mtsgo_array_shape_value(fill);
    out.fill_shape = fill_shape.shape;
    out.fill_shape_count = fill_shape.shape_count;
    if (!succeeded(&out, fill_shape.status) || out.fill_shape_count != 0 ||
        !begin(&out, 4, fill_array->device != NULL)) {
        return out;
    }
    struct mtsgo_array_device_result fill_device = mtsgo_array_device_value(fill);
    out.fill_device = fill_device.device;
    if (!succeeded(&out, fill_device.status) || out.fill_device.device_type != kDLCPU ||
        !begin(&out, 5, like_array->create != NULL)) {
        return out;
    }
    struct mtsgo_array_create_result created = mtsgo_array_create_value(like, shape, shape_count, fill);
    out.created = created.new_array;
    succeeded(&out, created.status);
    return out;
}
