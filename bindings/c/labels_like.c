/* New labels values in an array of a caller's kind (labels_like.go), in one call into C: the
 * values' DLPack tensor built, the array's from_dlpack, then its device, asked in the order the
 * core asks them (ArrayLabels.like). */
#include <stdlib.h>

#include "mtsgo.h"

struct mtsgo_labels_like_result mtsgo_labels_like(const struct mts_array_t *array, struct mtsgo_tensor_export values,
                                                  const int32_t *data, int64_t count, int64_t size) {
    struct mtsgo_labels_like_result result = {0};
    int64_t dims[4] = {count, size, size, 1}; /* the shape, then row-major strides */
    DLManagedTensorVersioned *tensor = mtsgo_tensor_export_new(values, (void *)data, dims, dims + 2);
    if (tensor == NULL) {
        result.failed = MTSGO_LABELS_LIKE_NO_TENSOR;
        return result;
    }
    result.created = calloc(1, sizeof(struct mts_array_t));
    if (result.created == NULL) {
        tensor->deleter(tensor);
        result.failed = MTSGO_LABELS_LIKE_NO_ARRAY;
        return result;
    }
    result.status = mtsgo_array_from_dlpack(array, tensor, result.created);
    if (result.status != MTS_SUCCESS) {
        free(result.created);
        result.created = NULL;
        result.failed = MTSGO_LABELS_LIKE_FROM_DLPACK;
        return result;
    }
    if (array->device == NULL) {
        result.failed = MTSGO_LABELS_LIKE_NO_DEVICE_MEMBER;
        return result;
    }
    result.status = mtsgo_array_device(array, &result.device);
    if (result.status != MTS_SUCCESS) {
        result.failed = MTSGO_LABELS_LIKE_DEVICE;
    }
    return result;
}
