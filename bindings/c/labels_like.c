/* New labels values in an array of a caller's kind (labels_like.go), in one call into C: the
 * array's from_dlpack of the values (the generated helper, which builds their tensor), then its
 * device, asked in the order the core asks them (ArrayLabels.like). */
#include "mtsgo.h"

struct mtsgo_labels_like_result mtsgo_labels_like(const struct mts_array_t *array, struct mtsgo_tensor_export values,
                                                  const int32_t *data, int64_t count, int64_t size) {
    struct mtsgo_labels_like_result result = {0};
    int64_t dims[4] = {count, size, size, 1}; /* the shape, then row-major strides */
    struct mtsgo_array_from_dlpack_result made =
        mtsgo_array_from_dlpack_value((uintptr_t)array, values, (void *)data, dims, dims + 2);
    result.status = made.status;
    if (!made.dl_managed_tensor_built) {
        result.failed = MTSGO_LABELS_LIKE_NO_TENSOR;
    } else if (made.status != MTS_SUCCESS) {
        result.failed = MTSGO_LABELS_LIKE_FROM_DLPACK;
    } else if (made.new_array == NULL) {
        result.failed = MTSGO_LABELS_LIKE_NO_ARRAY;
    } else if (array->device == NULL) {
        result.created = made.new_array;
        result.failed = MTSGO_LABELS_LIKE_NO_DEVICE_MEMBER;
    } else {
        result.created = made.new_array;
        result.status = mtsgo_array_device(array, &result.device);
        result.failed = result.status != MTS_SUCCESS ? MTSGO_LABELS_LIKE_DEVICE : MTSGO_LABELS_LIKE_OK;
    }
    return result;
}
