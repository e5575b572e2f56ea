/* bench_array.c: see bench_array.h. */
#include "bench_array.h"
#include "harness.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const DLDataType BENCH_I32 = {.code = kDLInt, .bits = 32, .lanes = 1};
const DLDataType BENCH_F64 = {.code = kDLFloat, .bits = 64, .lanes = 1};
const DLDataType BENCH_F32 = {.code = kDLFloat, .bits = 32, .lanes = 1};

static mts_data_origin_t bench_origin;

int bench_array_init(const char *origin_name) {
    if (mts_register_data_origin(origin_name, &bench_origin) != MTS_SUCCESS) {
        bench_origin = 0;
        return -1;
    }
    return 0;
}

/* Records the message of a failing callback. */
static mts_status_t fail(const char *format, ...) __attribute__((format(printf, 1, 2)));

static mts_status_t fail(const char *format, ...) {
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    mts_set_last_error(message, "bench_array", NULL, NULL);
    return MTS_CALLBACK_ERROR;
}

/* Bytes per element, 0 for a dtype bench arrays do not hold. */
static size_t element_size(DLDataType dtype) {
    if (dtype.bits == 0 || dtype.bits % 8 != 0 || dtype.lanes == 0) {
        return 0;
    }
    return (size_t)dtype.bits / 8 * dtype.lanes;
}

static bool same_dtype(DLDataType a, DLDataType b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

static uintptr_t product(const uintptr_t *shape, uintptr_t from, uintptr_t to) {
    uintptr_t result = 1;
    for (uintptr_t i = from; i < to; i++) {
        result *= shape[i];
    }
    return result;
}

uintptr_t bench_array_count(const struct bench_array *array) {
    return product(array->shape, 0, array->ndim);
}

static size_t byte_count(const struct bench_array *array) {
    return bench_array_count(array) * element_size(array->dtype);
}

/* Data buffers of at least RECYCLE_BYTES are recycled: the last one freed is kept and handed
 * to the next allocation of the same size. The merged arrays of a timed loop then reuse
 * memory that is already mapped, and the timings do not hold the kernel's page faults. */
#define RECYCLE_BYTES ((size_t)1 << 20)

static atomic_flag spare_lock = ATOMIC_FLAG_INIT;
static void *spare_data;
static size_t spare_bytes;

static void spare_lock_take(void) {
    while (atomic_flag_test_and_set_explicit(&spare_lock, memory_order_acquire)) {
    }
}

static void spare_lock_give(void) {
    atomic_flag_clear_explicit(&spare_lock, memory_order_release);
}

static void *data_alloc(size_t bytes) {
    if (bytes >= RECYCLE_BYTES) {
        void *data = NULL;
        spare_lock_take();
        if (spare_data != NULL && spare_bytes == bytes) {
            data = spare_data;
            spare_data = NULL;
        }
        spare_lock_give();
        if (data != NULL) {
            return data;
        }
    }
    return malloc(bytes + 1);
}

static void data_free(void *data, size_t bytes) {
    if (data != NULL && bytes >= RECYCLE_BYTES) {
        spare_lock_take();
        void *previous = spare_data;
        spare_data = data;
        spare_bytes = bytes;
        spare_lock_give();
        data = previous;
    }
    free(data);
}

void bench_array_finish(void) {
    spare_lock_take();
    free(spare_data);
    spare_data = NULL;
    spare_lock_give();
}

/* The array without data. */
static struct bench_array *header_new(DLDataType dtype, uintptr_t ndim, const uintptr_t *shape) {
    if (element_size(dtype) == 0 || ndim > BENCH_ARRAY_MAX_DIMS) {
        return NULL;
    }
    struct bench_array *array = malloc(sizeof *array);
    if (array == NULL) {
        return NULL;
    }
    atomic_init(&array->references, 1);
    array->dtype = dtype;
    array->ndim = ndim;
    for (uintptr_t i = 0; i < ndim; i++) {
        array->shape[i] = shape[i];
    }
    array->data = NULL;
    array->imported = NULL;
    return array;
}

struct bench_array *bench_array_new_shape_only(DLDataType dtype, uintptr_t ndim, const uintptr_t *shape) {
    return header_new(dtype, ndim, shape);
}

struct bench_array *bench_array_new(DLDataType dtype, uintptr_t ndim, const uintptr_t *shape) {
    struct bench_array *array = header_new(dtype, ndim, shape);
    if (array == NULL) {
        return NULL;
    }
    array->data = data_alloc(byte_count(array));
    if (array->data == NULL) {
        free(array);
        return NULL;
    }
    return array;
}

struct bench_array *bench_array_new_i32(uintptr_t count, uintptr_t size) {
    const uintptr_t shape[2] = {count, size};
    return bench_array_new(BENCH_I32, 2, shape);
}

struct bench_array *bench_array_retain(struct bench_array *array) {
    atomic_fetch_add_explicit(&array->references, 1, memory_order_relaxed);
    return array;
}

static void release_data(struct bench_array *array) {
    if (array->imported != NULL) {
        if (array->imported->deleter != NULL) {
            array->imported->deleter(array->imported);
        }
        array->imported = NULL;
    } else {
        data_free(array->data, byte_count(array));
    }
    array->data = NULL;
}

void bench_array_release(struct bench_array *array) {
    if (array != NULL && atomic_fetch_sub_explicit(&array->references, 1, memory_order_acq_rel) == 1) {
        release_data(array);
        free(array);
    }
}

/* Whether the array may be changed in place: it holds the only reference to its buffer. */
static mts_status_t check_exclusive(const struct bench_array *array, const char *operation) {
    if (atomic_load_explicit(&array->references, memory_order_acquire) != 1) {
        return fail("bench arrays can not %s a shared buffer", operation);
    }
    return MTS_SUCCESS;
}

/* ------------------------------------------------------------------ the vtable */

static void array_destroy(void *array) {
    bench_array_release(array);
}

static mts_status_t array_origin(const void *array, mts_data_origin_t *origin) {
    (void)array;
    *origin = bench_origin;
    return MTS_SUCCESS;
}

static mts_status_t array_device(const void *array, DLDevice *device) {
    (void)array;
    device->device_type = kDLCPU;
    device->device_id = 0;
    return MTS_SUCCESS;
}

static mts_status_t array_dtype(const void *array, DLDataType *dtype) {
    *dtype = ((const struct bench_array *)array)->dtype;
    return MTS_SUCCESS;
}

static mts_status_t array_shape(const void *array, const uintptr_t **shape, uintptr_t *shape_count) {
    const struct bench_array *values = array;
    *shape = values->ndim == 0 ? NULL : values->shape;
    *shape_count = values->ndim;
    return MTS_SUCCESS;
}

struct exported {
    DLManagedTensorVersioned tensor; /* first, so the deleter can find the rest */
    int64_t shape[BENCH_ARRAY_MAX_DIMS];
    struct bench_array *array;
};

static void exported_delete(DLManagedTensorVersioned *tensor) {
    struct exported *exported = (struct exported *)tensor;
    bench_array_release(exported->array);
    free(exported);
}

static mts_status_t array_as_dlpack(void *array, DLManagedTensorVersioned **dl_managed_tensor, DLDevice device,
                                    const int64_t *stream, DLPackVersion max_version) {
    struct bench_array *values = array;
    if (device.device_type != kDLCPU || device.device_id != 0) {
        return fail("bench arrays only export to CPU:0");
    }
    if (stream != NULL) {
        return fail("bench arrays only accept a NULL stream");
    }
    if (max_version.major < 1) {
        return fail("bench arrays need DLPack 1.x");
    }
    struct exported *exported = calloc(1, sizeof *exported);
    if (exported == NULL) {
        return fail("out of memory");
    }
    exported->array = bench_array_retain(values);
    for (uintptr_t i = 0; i < values->ndim; i++) {
        exported->shape[i] = (int64_t)values->shape[i];
    }

    DLManagedTensorVersioned *tensor = &exported->tensor;
    tensor->version.major = 1;
    tensor->version.minor = max_version.major == 1 && max_version.minor < DLPACK_MINOR_VERSION
                                ? max_version.minor
                                : DLPACK_MINOR_VERSION;
    tensor->manager_ctx = exported;
    tensor->deleter = exported_delete;
    tensor->flags = DLPACK_FLAG_BITMASK_READ_ONLY;
    tensor->dl_tensor.data = values->data;
    tensor->dl_tensor.device.device_type = kDLCPU;
    tensor->dl_tensor.device.device_id = 0;
    tensor->dl_tensor.ndim = (int32_t)values->ndim;
    tensor->dl_tensor.dtype = values->dtype;
    tensor->dl_tensor.shape = exported->shape;
    tensor->dl_tensor.strides = NULL;
    tensor->dl_tensor.byte_offset = 0;
    *dl_managed_tensor = tensor;
    return MTS_SUCCESS;
}

/* Copies the elements of a strided tensor, row-major, into `destination`. */
static void gather(char *destination, const char *source, const DLTensor *tensor, int32_t axis, size_t size) {
    int64_t stride = tensor->strides[axis] * (int64_t)size;
    int64_t count = tensor->shape[axis];
    if (axis == tensor->ndim - 1) {
        for (int64_t i = 0; i < count; i++) {
            memcpy(destination + i * (int64_t)size, source + i * stride, size);
        }
        return;
    }
    int64_t inner = 1;
    for (int32_t a = axis + 1; a < tensor->ndim; a++) {
        inner *= tensor->shape[a];
    }
    for (int64_t i = 0; i < count; i++) {
        gather(destination + i * inner * (int64_t)size, source + i * stride, tensor, axis + 1, size);
    }
}

/* Takes the tensor over; deletes it on failure, and once copied. */
static mts_status_t array_from_dlpack(const void *array, DLManagedTensorVersioned *dl_managed_tensor,
                                      mts_array_t *new_array) {
    (void)array;
    const DLTensor *tensor = &dl_managed_tensor->dl_tensor;
    mts_status_t status = MTS_SUCCESS;
    uintptr_t shape[BENCH_ARRAY_MAX_DIMS];
    if (dl_managed_tensor->version.major != 1) {
        status = fail("bench arrays only import DLPack 1.x tensors");
    } else if (tensor->device.device_type != kDLCPU) {
        status = fail("bench arrays only import CPU tensors");
    } else if (element_size(tensor->dtype) == 0) {
        status = fail("bench arrays do not import this dtype");
    } else if (tensor->ndim < 0 || tensor->ndim > BENCH_ARRAY_MAX_DIMS) {
        status = fail("bench arrays import tensors of at most %d dimensions", BENCH_ARRAY_MAX_DIMS);
    } else {
        for (int32_t i = 0; i < tensor->ndim; i++) {
            if (tensor->shape[i] < 0) {
                status = fail("negative dimension in an imported tensor");
            }
            shape[i] = (uintptr_t)tensor->shape[i];
        }
    }
    if (status != MTS_SUCCESS) {
        if (dl_managed_tensor->deleter != NULL) {
            dl_managed_tensor->deleter(dl_managed_tensor);
        }
        return status;
    }

    /* C-contiguous: NULL strides, or row-major ones (any stride on an axis of size 1) */
    bool contiguous = true;
    if (tensor->strides != NULL) {
        int64_t expected = 1;
        for (int32_t i = tensor->ndim - 1; i >= 0; i--) {
            if (tensor->shape[i] != 1 && tensor->strides[i] != expected) {
                contiguous = false;
            }
            expected *= tensor->shape[i];
        }
    }
    const char *source = (const char *)tensor->data + tensor->byte_offset;
    struct bench_array *result = NULL;
    if (contiguous) {
        result = header_new(tensor->dtype, (uintptr_t)tensor->ndim, shape);
        if (result != NULL) {
            result->data = (void *)source;
            result->imported = dl_managed_tensor;
        }
    } else {
        result = bench_array_new(tensor->dtype, (uintptr_t)tensor->ndim, shape);
        if (result != NULL && bench_array_count(result) != 0) {
            gather(result->data, source, tensor, 0, element_size(tensor->dtype));
        }
    }
    if (result == NULL || !contiguous) {
        if (dl_managed_tensor->deleter != NULL) {
            dl_managed_tensor->deleter(dl_managed_tensor);
        }
    }
    if (result == NULL) {
        return fail("out of memory");
    }
    *new_array = bench_array_adopt(result);
    return MTS_SUCCESS;
}

static mts_status_t array_copy(const void *array, DLDevice device, mts_array_t *new_array) {
    const struct bench_array *values = array;
    if (device.device_type != kDLCPU) {
        return fail("bench arrays only copy to the CPU");
    }
    struct bench_array *copy = bench_array_new(values->dtype, values->ndim, values->shape);
    if (copy == NULL) {
        return fail("out of memory");
    }
    memcpy(copy->data, values->data, byte_count(values));
    *new_array = bench_array_adopt(copy);
    return MTS_SUCCESS;
}

static mts_status_t array_reshape(void *array, const uintptr_t *shape, uintptr_t shape_count) {
    struct bench_array *values = array;
    mts_status_t status = check_exclusive(values, "reshape");
    if (status != MTS_SUCCESS) {
        return status;
    }
    if (shape_count > BENCH_ARRAY_MAX_DIMS) {
        return fail("bench arrays have at most %d dimensions", BENCH_ARRAY_MAX_DIMS);
    }
    if (product(shape, 0, shape_count) != bench_array_count(values)) {
        return fail("reshape changes the number of elements");
    }
    for (uintptr_t i = 0; i < shape_count; i++) {
        values->shape[i] = shape[i];
    }
    values->ndim = shape_count;
    return MTS_SUCCESS;
}

static mts_status_t array_swap_axes(void *array, uintptr_t axis_1, uintptr_t axis_2) {
    struct bench_array *values = array;
    mts_status_t status = check_exclusive(values, "swap the axes of");
    if (status != MTS_SUCCESS) {
        return status;
    }
    if (axis_1 >= values->ndim || axis_2 >= values->ndim) {
        return fail("swap_axes(%zu, %zu) on an array of %zu dimensions", (size_t)axis_1, (size_t)axis_2,
                    (size_t)values->ndim);
    }
    if (axis_1 == axis_2) {
        return MTS_SUCCESS;
    }
    uintptr_t a = axis_1 < axis_2 ? axis_1 : axis_2, b = axis_1 < axis_2 ? axis_2 : axis_1;
    /* element (i, x, k, y, l) of shape (I, na, K, nb, L) goes to (i, y, k, x, l) */
    uintptr_t outer = product(values->shape, 0, a), na = values->shape[a];
    uintptr_t middle = product(values->shape, a + 1, b), nb = values->shape[b];
    size_t run = product(values->shape, b + 1, values->ndim) * element_size(values->dtype);
    char *data = data_alloc(byte_count(values));
    if (data == NULL) {
        return fail("out of memory");
    }
    const char *source = values->data;
    for (uintptr_t i = 0; i < outer; i++) {
        for (uintptr_t x = 0; x < na; x++) {
            for (uintptr_t k = 0; k < middle; k++) {
                for (uintptr_t y = 0; y < nb; y++) {
                    size_t from = (((i * na + x) * middle + k) * nb + y) * run;
                    size_t to = (((i * nb + y) * middle + k) * na + x) * run;
                    memcpy(data + to, source + from, run);
                }
            }
        }
    }
    release_data(values);
    values->data = data;
    values->shape[a] = nb;
    values->shape[b] = na;
    return MTS_SUCCESS;
}

/* Reads the single element of `fill_value` into `element` (`size` bytes of `dtype`). */
static mts_status_t read_fill_value(mts_array_t fill_value, DLDataType dtype, char *element, size_t size) {
    if (fill_value.as_dlpack == NULL) {
        return fail("the fill value has no as_dlpack");
    }
    DLManagedTensorVersioned *managed = NULL;
    DLDevice cpu = {kDLCPU, 0};
    DLPackVersion version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    mts_status_t status = fill_value.as_dlpack(fill_value.ptr, &managed, cpu, NULL, version);
    if (status != MTS_SUCCESS) {
        return status;
    }
    const DLTensor *tensor = &managed->dl_tensor;
    int64_t count = 1;
    for (int32_t i = 0; i < tensor->ndim; i++) {
        count *= tensor->shape[i];
    }
    if (!same_dtype(tensor->dtype, dtype)) {
        status = fail("the fill value's dtype differs from the array's");
    } else if (count != 1) {
        status = fail("the fill value has %lld elements instead of 1", (long long)count);
    } else {
        memcpy(element, (const char *)tensor->data + tensor->byte_offset, size);
    }
    if (managed->deleter != NULL) {
        managed->deleter(managed);
    }
    return status;
}

static mts_status_t array_create(const void *array, const uintptr_t *shape, uintptr_t shape_count,
                                 mts_array_t fill_value, mts_array_t *new_array) {
    const struct bench_array *values = array;
    size_t size = element_size(values->dtype);
    char element[64] = {0};
    mts_status_t status = size <= sizeof element ? read_fill_value(fill_value, values->dtype, element, size)
                                                 : fail("bench arrays can not fill elements of %zu bytes", size);
    if (fill_value.destroy != NULL) {
        fill_value.destroy(fill_value.ptr);
    }
    if (status != MTS_SUCCESS) {
        return status;
    }
    if (shape_count > BENCH_ARRAY_MAX_DIMS) {
        return fail("bench arrays have at most %d dimensions", BENCH_ARRAY_MAX_DIMS);
    }
    struct bench_array *created = bench_array_new(values->dtype, shape_count, shape);
    if (created == NULL) {
        return fail("out of memory");
    }
    size_t total = byte_count(created);
    bool zero = true;
    for (size_t i = 0; i < size; i++) {
        zero = zero && element[i] == 0;
    }
    if (zero) {
        memset(created->data, 0, total);
    } else if (total != 0) {
        /* one element, then doubling copies */
        char *data = created->data;
        memcpy(data, element, size);
        for (size_t filled = size; filled < total;) {
            size_t chunk = filled < total - filled ? filled : total - filled;
            memcpy(data + filled, data, chunk);
            filled += chunk;
        }
    }
    *new_array = bench_array_adopt(created);
    return MTS_SUCCESS;
}

static mts_status_t array_move_data(void *output, const void *input, const mts_data_movement_t *movements,
                                    uintptr_t movements_count) {
    struct bench_array *out = output;
    const struct bench_array *in = input;
    mts_status_t status = check_exclusive(out, "move data into");
    if (status != MTS_SUCCESS) {
        return status;
    }
    if (out->imported != NULL) {
        return fail("bench arrays can not move data into an imported tensor");
    }
    if (!same_dtype(out->dtype, in->dtype)) {
        return fail("move_data between arrays of different dtypes");
    }
    if (out->ndim < 2 || out->ndim != in->ndim) {
        return fail("move_data between arrays of %zu and %zu dimensions", (size_t)in->ndim, (size_t)out->ndim);
    }
    uintptr_t last = out->ndim - 1;
    for (uintptr_t axis = 1; axis < last; axis++) {
        if (out->shape[axis] != in->shape[axis]) {
            return fail("move_data between arrays with different dimension %zu", (size_t)axis);
        }
    }
    size_t size = element_size(out->dtype);
    uintptr_t middle = product(out->shape, 1, last);
    uintptr_t in_properties = in->shape[last], out_properties = out->shape[last];
    size_t in_step = in_properties * size, out_step = out_properties * size;
    for (uintptr_t m = 0; m < movements_count; m++) {
        const mts_data_movement_t *move = &movements[m];
        uintptr_t length = move->properties_length;
        if (move->sample_in >= in->shape[0] || move->sample_out >= out->shape[0] || length > in_properties ||
            move->properties_start_in > in_properties - length || length > out_properties ||
            move->properties_start_out > out_properties - length) {
            return fail("movement %zu is out of bounds: sample %zu -> %zu, properties %zu -> %zu, length %zu",
                        (size_t)m, (size_t)move->sample_in, (size_t)move->sample_out,
                        (size_t)move->properties_start_in, (size_t)move->properties_start_out, (size_t)length);
        }
        const char *source = (const char *)in->data + (move->sample_in * middle * in_properties + move->properties_start_in) * size;
        char *destination = (char *)out->data + (move->sample_out * middle * out_properties + move->properties_start_out) * size;
        for (uintptr_t c = 0; c < middle; c++) {
            memcpy(destination, source, length * size);
            source += in_step;
            destination += out_step;
        }
    }
    return MTS_SUCCESS;
}

mts_array_t bench_array_adopt(struct bench_array *array) {
    mts_array_t result = {
        .ptr = array,
        .destroy = array_destroy,
        .origin = array_origin,
        .device = array_device,
        .dtype = array_dtype,
        .as_dlpack = array_as_dlpack,
        .from_dlpack = array_from_dlpack,
        .shape = array_shape,
        .reshape = array_reshape,
        .swap_axes = array_swap_axes,
        .create = array_create,
        .copy = array_copy,
        .move_data = array_move_data,
    };
    return result;
}

/* The as_dlpack of the arrays bench_array_create_for_load makes: the loads write into them
 * through as_dlpack, so they export writable while they hold the only reference to their
 * buffer (other bench arrays always export read-only). */
static mts_status_t writable_as_dlpack(void *array, DLManagedTensorVersioned **dl_managed_tensor, DLDevice device,
                                       const int64_t *stream, DLPackVersion max_version) {
    const struct bench_array *values = array;
    bool exclusive = atomic_load_explicit(&values->references, memory_order_acquire) == 1;
    mts_status_t status = array_as_dlpack(array, dl_managed_tensor, device, stream, max_version);
    if (status == MTS_SUCCESS && exclusive) {
        (*dl_managed_tensor)->flags &= ~(uint64_t)DLPACK_FLAG_BITMASK_READ_ONLY;
    }
    return status;
}

mts_status_t bench_array_create_for_load(const uintptr_t *shape, uintptr_t shape_count, DLDataType dtype,
                                         mts_array_t *array) {
    struct bench_array *values = bench_array_new(dtype, shape_count, shape);
    if (values == NULL) {
        mts_set_last_error("bench arrays: create_array: out of memory or unsupported dtype/rank", "bench", NULL, NULL);
        return MTS_CALLBACK_ERROR;
    }
    *array = bench_array_adopt(values);
    array->as_dlpack = writable_as_dlpack;
    return MTS_SUCCESS;
}

bool bench_array_made_for_load(const mts_array_t *array) {
    return array->as_dlpack == writable_as_dlpack;
}

mts_array_t bench_array_share(struct bench_array *array) {
    return bench_array_adopt(bench_array_retain(array));
}

mts_array_t bench_array_scalar(DLDataType dtype, double value) {
    struct bench_array *array = NULL;
    if (same_dtype(dtype, BENCH_F64) || same_dtype(dtype, BENCH_F32)) {
        array = bench_array_new(dtype, 0, NULL);
    }
    if (array == NULL) {
        mts_array_t none = {0};
        return none;
    }
    if (dtype.bits == 64) {
        memcpy(array->data, &value, sizeof value);
    } else {
        float single = (float)value;
        memcpy(array->data, &single, sizeof single);
    }
    return bench_array_adopt(array);
}

/* ------------------------------------------------------------------ labels */

static const mts_labels_t *range_labels(const char *name, int32_t first, uintptr_t count, bool assume_unique) {
    struct bench_array *values = bench_array_new_i32(count, 1);
    if (values == NULL) {
        bench_fail("out of memory");
        return NULL;
    }
    int32_t *rows = values->data;
    for (uintptr_t i = 0; i < count; i++) {
        rows[i] = first + (int32_t)i;
    }
    const char *names[] = {name};
    if (assume_unique) {
        const mts_labels_t *labels = mts_labels_assume_unique(names, 1, bench_array_adopt(values));
        bench_pointer(labels, "mts_labels_assume_unique");
        return labels;
    }
    const mts_labels_t *labels = mts_labels(names, 1, bench_array_adopt(values));
    bench_pointer(labels, "mts_labels");
    return labels;
}

const mts_labels_t *bench_range_labels(const char *name, int32_t first, uintptr_t count) {
    return range_labels(name, first, count, false);
}

const mts_labels_t *bench_unique_range_labels(const char *name, int32_t first, uintptr_t count) {
    return range_labels(name, first, count, true);
}

const mts_labels_t *bench_pair_labels(const char *first, const char *second, uintptr_t count, uintptr_t per_first) {
    return bench_shuffled_pair_labels(first, second, count, per_first, 0);
}

const mts_labels_t *bench_shuffled_pair_labels(const char *first, const char *second, uintptr_t count,
                                               uintptr_t per_first, uint64_t seed) {
    struct bench_array *values = bench_array_new_i32(count, 2);
    if (values == NULL) {
        bench_fail("out of memory");
        return NULL;
    }
    int32_t *rows = values->data;
    for (uintptr_t i = 0; i < count; i++) {
        rows[2 * i] = (int32_t)(i / per_first);
        rows[2 * i + 1] = (int32_t)(i % per_first);
    }
    for (uintptr_t i = count; seed != 0 && i > 1; i--) { /* Fisher-Yates, with splitmix64 */
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        uintptr_t j = (uintptr_t)((z ^ (z >> 31)) % i);
        int32_t row[2] = {rows[2 * (i - 1)], rows[2 * (i - 1) + 1]};
        rows[2 * (i - 1)] = rows[2 * j], rows[2 * (i - 1) + 1] = rows[2 * j + 1];
        rows[2 * j] = row[0], rows[2 * j + 1] = row[1];
    }
    const char *names[] = {first, second};
    const mts_labels_t *labels = mts_labels(names, 2, bench_array_adopt(values));
    bench_pointer(labels, "mts_labels");
    return labels;
}

void bench_labels_free(const mts_labels_t **labels) {
    if (*labels != NULL) {
        mts_labels_free(*labels);
        *labels = NULL;
    }
}

/* ------------------------------------------------------------------ tensor maps */

mts_tensormap_t *bench_dense_map_new(uintptr_t blocks_count, uintptr_t samples_count, uintptr_t atoms_per_system,
                                     uintptr_t components_count, int32_t component_first, uintptr_t properties_count) {
    const mts_labels_t *keys = NULL, *samples = NULL, *component = NULL, *properties = NULL;
    mts_block_t **blocks = calloc(blocks_count == 0 ? 1 : blocks_count, sizeof(*blocks));
    if (blocks == NULL) {
        bench_fail("out of memory");
        return NULL;
    }
    mts_tensormap_t *map = NULL;
    int failed = (keys = bench_range_labels("key", 0, blocks_count)) == NULL;
    failed = failed || (samples = bench_pair_labels("system", "atom", samples_count, atoms_per_system)) == NULL;
    failed = failed || (component = bench_range_labels("m", component_first, components_count)) == NULL;
    failed = failed || (properties = bench_range_labels("n", 0, properties_count)) == NULL;
    const uintptr_t shape[3] = {samples_count, components_count, properties_count};
    const uintptr_t block_size = samples_count * components_count * properties_count;
    for (uintptr_t b = 0; b < blocks_count && !failed; b++) {
        struct bench_array *values = bench_array_new(BENCH_F64, 3, shape);
        if (values == NULL) {
            bench_fail("out of memory");
            failed = 1;
            break;
        }
        double *data = values->data;
        for (uintptr_t e = 0; e < block_size; e++) {
            data[e] = (double)(1 + b * block_size + e);
        }
        blocks[b] = mts_block(bench_array_adopt(values), samples, &component, 1, properties);
        failed = bench_pointer(blocks[b], "mts_block") != 0;
    }
    if (!failed) {
        map = mts_tensormap(keys, blocks, blocks_count);
        bench_pointer(map, "mts_tensormap");
    }
    for (uintptr_t b = 0; b < blocks_count; b++) {
        if (blocks[b] != NULL) { /* the ones mts_tensormap did not take */
            mts_block_free(blocks[b]);
        }
    }
    free(blocks);
    bench_labels_free(&keys);
    bench_labels_free(&samples);
    bench_labels_free(&component);
    bench_labels_free(&properties);
    return map;
}

int bench_keys_to_loop(const mts_tensormap_t *map, const mts_labels_t *keys_to_move, bool to_samples,
                       bool sort_samples, DLDataType dtype, uint64_t n, bool time_free, double *elapsed_ns,
                       int (*check)(const void *context, mts_tensormap_t *moved), const void *context) {
    const char *call = to_samples ? "mts_tensormap_keys_to_samples" : "mts_tensormap_keys_to_properties";
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        mts_array_t fill = bench_array_scalar(dtype, 0.0);
        if (fill.ptr == NULL) {
            bench_fail("out of memory");
            return -1;
        }
        double start = bench_now_ns();
        mts_tensormap_t *moved = to_samples ? mts_tensormap_keys_to_samples(map, keys_to_move, fill, sort_samples)
                                            : mts_tensormap_keys_to_properties(map, keys_to_move, fill, sort_samples);
        *elapsed_ns += bench_now_ns() - start;
        if (bench_pointer(moved, call) != 0) {
            return -1;
        }
        int checked = check(context, moved);
        double freeing = bench_now_ns();
        mts_tensormap_free(moved);
        *elapsed_ns += time_free ? bench_now_ns() - freeing : 0;
        if (checked != 0) {
            return -1;
        }
    }
    return 0;
}
