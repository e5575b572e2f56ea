/* Block copies over C arrays, in one call from Go (core.ArraysCopier): each array is asked
 * its device, then copied there, one array after the other, as Go's cArray.Device and
 * cArray.Copy would do in two calls into C per array. */
#include "mtsgo.h"

struct mtsgo_copied mtsgo_copy_on_own_devices(uintptr_t *arrays, uintptr_t count) {
    struct mtsgo_copied out = {0};
    for (; out.copied < count; out.copied++) {
        uintptr_t address = arrays[out.copied];
        const struct mts_array_t *array = (const struct mts_array_t *)address;
        if (array->device == NULL || array->copy == NULL) {
            return out; /* Go's own path names the missing member */
        }
        struct mtsgo_array_device_result device = mtsgo_array_device_value(address);
        if (device.status != MTS_SUCCESS) {
            out.failed_device = 1;
            return out;
        }
        struct mtsgo_array_copy_result copied = mtsgo_array_copy_value(address, device.device);
        if (copied.status != MTS_SUCCESS) {
            out.failed_copy = 1;
            return out;
        }
        if (copied.new_array == NULL) {
            out.out_of_memory = 1;
            return out;
        }
        arrays[out.copied] = (uintptr_t)copied.new_array;
    }
    return out;
}
