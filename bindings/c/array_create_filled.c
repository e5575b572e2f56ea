/* createFilled (internal/core/tensormap_keys_to.go) over C arrays, in one call from Go: the
 * array's dtype, the fill's dtype, shape and device, then the array's create, each a call into
 * C of its own otherwise (cArray.CreateFilled). It stops where createFilled stops: after a NULL
 * member or a failed call, or an answer the core rejects, which Go words. */
#include "mtsgo.h"

struct mtsgo_filled_created mtsgo_create_filled(uintptr_t like, const uintptr_t *shape, uintptr_t shape_count,
                                                uintptr_t fill) {
    const struct mts_array_t *like_array = (const struct mts_array_t *)like;
    const struct mts_array_t *fill_array = (const struct mts_array_t *)fill;
    struct mtsgo_filled_created out = {0};

    out.calls = 1;
    if (like_array->dtype == NULL) {
        out.missing = 1;
        return out;
    }
    struct mtsgo_array_dtype_result dtype = mtsgo_array_dtype_value(like);
    out.dtype = dtype.dtype;
    if (dtype.status != MTS_SUCCESS) {
        out.failed = 1;
        return out;
    }

    out.calls = 2;
    if (fill_array->dtype == NULL) {
        out.missing = 1;
        return out;
    }
    struct mtsgo_array_dtype_result fill_dtype = mtsgo_array_dtype_value(fill);
    out.fill_dtype = fill_dtype.dtype;
    if (fill_dtype.status != MTS_SUCCESS) {
        out.failed = 1;
        return out;
    }
    if (out.fill_dtype.code != out.dtype.code || out.fill_dtype.bits != out.dtype.bits ||
        out.fill_dtype.lanes != out.dtype.lanes) {
        return out;
    }

    out.calls = 3;
    if (fill_array->shape == NULL) {
        out.missing = 1;
        return out;
    }
    struct mtsgo_array_shape_result fill_shape = mtsgo_array_shape_value(fill);
    out.fill_shape = fill_shape.shape;
    out.fill_shape_count = fill_shape.shape_count;
    if (fill_shape.status != MTS_SUCCESS) {
        out.failed = 1;
        return out;
    }
    if (out.fill_shape_count != 0) {
        return out;
    }

    out.calls = 4;
    if (fill_array->device == NULL) {
        out.missing = 1;
        return out;
    }
    struct mtsgo_array_device_result fill_device = mtsgo_array_device_value(fill);
    out.fill_device = fill_device.device;
    if (fill_device.status != MTS_SUCCESS) {
        out.failed = 1;
        return out;
    }
    if (out.fill_device.device_type != kDLCPU) {
        return out;
    }

    out.calls = 5;
    if (like_array->create == NULL) {
        out.missing = 1;
        return out;
    }
    struct mtsgo_array_create_result created = mtsgo_array_create_value(like, shape, shape_count, fill);
    out.created = created.new_array;
    out.failed = created.status != MTS_SUCCESS;
    return out;
}
