/*
 * test_array.h: an instrumented `mts_array_t` for the C API tests.
 *
 * Header-only (every function is `static inline`); include it once per test
 * program, after check.h or on its own. Needs -pthread.
 *
 * What it is
 * ----------
 * A `struct test_array` is a host (CPU memory) n-dimensional array of int32,
 * int64, float32 or float64 (`TA_INT32`, `TA_INT64`, `TA_FLOAT32`,
 * `TA_FLOAT64`), stored C-contiguous in `data` (NULL when it has no elements).
 * Every member works the same for the four dtypes.
 * `ta_mts(array)` wraps it in an `mts_array_t` implementing every member of
 * the vtable, with `ptr` pointing at the struct. Everything the library does
 * with the array is recorded:
 *
 *  - `calls[member]` counts the calls of each member on this array, and
 *    `ta_total_calls(member)` the calls on every test array;
 *  - the arguments of the last `as_dlpack` and `copy` calls are kept
 *    (`last_dlpack_device`, `last_dlpack_stream_null`, `last_dlpack_version`,
 *    `last_copy_device`), and so are the version and flags of the last tensor
 *    given to `from_dlpack`;
 *  - a process-wide counter of live arrays (`ta_live()`): created minus
 *    destroyed. A destroyed array is not freed at once but moved to a
 *    graveyard, so a second `destroy` is counted (`ta_stats.double_destroy`)
 *    instead of being a use-after-free, and the counters of arrays the
 *    library destroyed can still be read. `ta_finish()` frees the graveyard.
 *  - `ta_stats.out_not_zeroed` counts out-arrays given to `copy`, `create`
 *    and `from_dlpack` that were not zero-filled by the caller.
 *
 * Members
 * -------
 *  - `origin`: the origin registered as "metatensor-go.tests"
 *    (`ta_origin_id()`).
 *  - `device`: the `device` field, which tests may set to anything (e.g.
 *    {kDLCUDA, 0} or {kDLExtDev, 0}) to fake data living elsewhere. The data
 *    itself always stays in host memory.
 *  - `dtype`: the `dtype` field.
 *  - `as_dlpack`: only a request for device {kDLCPU, 0} is accepted (any
 *    stream, any max_version). Arrays on kDLExtDev have no data and fail. The
 *    result is a real `DLManagedTensorVersioned` with version
 *    `dlpack_version` (default 1.3), whose deleter counts
 *    (`ta_stats.dlpack_deleted`, `dlpack_deleted_after_destroy` when the
 *    array was destroyed before the tensor, `dlpack_double_delete`). The
 *    deleter frees the data made for the export, but the
 *    `DLManagedTensorVersioned` itself stays allocated and unchanged until
 *    `ta_finish()`, so a second deletion is counted instead of crashing (and
 *    a consumer reading the struct after deleting it, as the reference does
 *    when it refuses a tensor's version, reads what was there). The memory layout is chosen by
 *    `layout`: TA_LAYOUT_NULL_STRIDES (default) and TA_LAYOUT_C_STRIDES share
 *    the array's buffer when the array is on CPU (zero-copy) and copy it
 *    otherwise, with strides NULL or explicit row-major strides;
 *    TA_LAYOUT_NULL_STRIDES_OFFSET exports a row-major copy with NULL strides
 *    behind a non-zero `byte_offset`; TA_LAYOUT_FORTRAN exports a column-major copy; TA_LAYOUT_STRIDED_OFFSET
 *    exports a copy with padded rows (last axis stride 1, others larger than
 *    contiguous) behind a non-zero `byte_offset`. Copies are flagged
 *    DLPACK_FLAG_BITMASK_IS_COPIED.
 *  - `from_dlpack`: copies a CPU tensor of one of the four dtypes (any ndim up to
 *    TA_MAX_NDIM, honouring strides and byte_offset) into a new test array on
 *    the tensor's device, and always calls the tensor's deleter, on success
 *    and on failure.
 *  - `shape`: the `shape` field (pointer NULL when `ndim` is 0).
 *  - `reshape`: changes the shape when the element count matches.
 *  - `swap_axes`: physically transposes the data.
 *  - `create`: a new array with the same dtype and device, filled with the
 *    scalar in `fill_value` (read directly when it is a test array, through
 *    its as_dlpack otherwise), and always destroys `fill_value`.
 *  - `copy`: a new array with the same data on the requested device.
 *  - `move_data`: output[sample_out, ..., start_out + x] =
 *    input[sample_in, ..., start_in + x], both being test arrays with the same
 *    dtype and the same number of elements in the middle axes.
 *  - `destroy`: frees the data, counts, moves the struct to the graveyard.
 *
 * New arrays made by `from_dlpack`, `copy` and `create` record the array they
 * were made from (`created_from`) and by which member (`created_by`).
 *
 * Failures on purpose
 * -------------------
 * `ta_set_fail(array, member, status, message)` makes `member` fail: it calls
 * `mts_set_last_error(message, "tests", data, ta_error_data_deleter)` (unless
 * `fail_sets_error` is set to 0 afterwards) and returns `status` (pass
 * MTS_CALLBACK_ERROR, or any other non-zero value). `data` is a fresh
 * `struct ta_error_data` recording the array and member; its deleter counts
 * (`ta_stats.error_data_created` / `error_data_deleted`). Arrays made later
 * from an array by from_dlpack, copy or create fail `children_fail_member`
 * (with the same status and message) when it is set. A failing
 * `from_dlpack` still calls the tensor's deleter; a failing `create` still
 * destroys `fill_value`.
 *
 * Helpers
 * -------
 *   ta_new(dtype, shape, ndim, data)    copy `data` (may be NULL: zeros)
 *   ta_new_i32(values, rows, cols)      a 2-D int32 array
 *   ta_mts(array)                       the mts_array_t (owning: destroy set)
 *   ta_cast(ptr)                        the test array behind `ptr`, or NULL
 *   ta_calls(array, member)             calls of `member` on `array`
 *   ta_description_calls(array, calls)  calls of origin, device and dtype
 *   ta_total_calls(member)              calls of `member` on all test arrays
 *   ta_live()                           arrays created and not destroyed
 *   ta_member_name(member)              "as_dlpack", ...
 *   ta_finish()                         free the graveyards; 0 when nothing
 *                                       leaked, nothing was destroyed twice
 *                                       and every exported tensor was deleted
 *                                       exactly once
 */
#ifndef MTS_TESTS_TEST_ARRAY_H
#define MTS_TESTS_TEST_ARRAY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#define TA_MAX_NDIM 8
#define TA_MAGIC 0x7e57a7a1u
#define TA_DEAD_MAGIC 0xdeadaa11u
#define TA_ERROR_MAGIC 0xe7707da7u
#define TA_ORIGIN_NAME "metatensor-go.tests"
#define TA_ERROR_ORIGIN "tests"

enum ta_member {
    TA_NONE = 0,
    TA_ORIGIN,
    TA_DEVICE,
    TA_DTYPE,
    TA_AS_DLPACK,
    TA_FROM_DLPACK,
    TA_SHAPE,
    TA_RESHAPE,
    TA_SWAP_AXES,
    TA_CREATE,
    TA_COPY,
    TA_MOVE_DATA,
    TA_DESTROY,
    TA_MEMBER_COUNT,
};

enum ta_layout {
    TA_LAYOUT_NULL_STRIDES = 0,
    TA_LAYOUT_C_STRIDES,
    TA_LAYOUT_NULL_STRIDES_OFFSET,
    TA_LAYOUT_FORTRAN,
    TA_LAYOUT_STRIDED_OFFSET,
};

static const DLDataType TA_INT32 = {kDLInt, 32, 1};
static const DLDataType TA_INT64 = {kDLInt, 64, 1};
static const DLDataType TA_FLOAT32 = {kDLFloat, 32, 1};
static const DLDataType TA_FLOAT64 = {kDLFloat, 64, 1};
static const DLDevice TA_CPU = {kDLCPU, 0};

struct test_array {
    uint32_t magic;
    long id; /* creation order, starting at 1 */

    uintptr_t shape[TA_MAX_NDIM];
    uintptr_t ndim;
    DLDataType dtype;
    void *data; /* C-contiguous host data, NULL when empty */
    DLDevice device;

    /* how as_dlpack lays out its result, and the version it claims */
    enum ta_layout layout;
    DLPackVersion dlpack_version;

    /* failures on purpose */
    enum ta_member fail_member;
    mts_status_t fail_status;
    int fail_sets_error;
    char fail_message[256];
    /* arrays made from this one (from_dlpack, copy, create) fail this member,
     * with the same status and message */
    enum ta_member children_fail_member;

    /* what happened to this array */
    atomic_int calls[TA_MEMBER_COUNT];
    atomic_int destroyed;
    enum ta_member created_by;
    struct test_array *created_from;

    DLDevice last_dlpack_device;
    int last_dlpack_stream_null;
    DLPackVersion last_dlpack_version;
    DLDevice last_copy_device;
    DLPackVersion last_received_version;
    uint64_t last_received_flags;
    atomic_int dlpack_live; /* tensors exported from this array not deleted yet */

    struct test_array *graveyard_next;
};

/* custom data attached to the errors set by failing members */
struct ta_error_data {
    uint32_t magic;
    enum ta_member member;
    struct test_array *array;
};

struct ta_global_stats {
    atomic_long created;
    atomic_long destroyed;
    atomic_long double_destroy;
    atomic_long calls[TA_MEMBER_COUNT];
    atomic_long dlpack_exported;
    atomic_long dlpack_deleted;
    atomic_long dlpack_deleted_after_destroy;
    atomic_long dlpack_double_delete;
    atomic_long dlpack_received;
    atomic_long out_not_zeroed;
    atomic_long error_data_created;
    atomic_long error_data_deleted;
};

static struct ta_global_stats ta_stats;

static pthread_mutex_t ta_graveyard_lock = PTHREAD_MUTEX_INITIALIZER;
static struct test_array *ta_graveyard = NULL;

static pthread_mutex_t ta_origin_lock = PTHREAD_MUTEX_INITIALIZER;
static mts_data_origin_t ta_origin_value = 0;
static int ta_origin_registered = 0;

static inline const char *ta_member_name(enum ta_member member) {
    switch (member) {
    case TA_NONE: return "none";
    case TA_ORIGIN: return "origin";
    case TA_DEVICE: return "device";
    case TA_DTYPE: return "dtype";
    case TA_AS_DLPACK: return "as_dlpack";
    case TA_FROM_DLPACK: return "from_dlpack";
    case TA_SHAPE: return "shape";
    case TA_RESHAPE: return "reshape";
    case TA_SWAP_AXES: return "swap_axes";
    case TA_CREATE: return "create";
    case TA_COPY: return "copy";
    case TA_MOVE_DATA: return "move_data";
    case TA_DESTROY: return "destroy";
    case TA_MEMBER_COUNT: break;
    }
    return "?";
}

/* ------------------------------------------------------------------------ */
/* small helpers                                                            */

static inline struct test_array *ta_cast(const void *ptr) {
    struct test_array *array = (struct test_array *)ptr;
    if (array == NULL || (array->magic != TA_MAGIC && array->magic != TA_DEAD_MAGIC)) {
        return NULL;
    }
    return array;
}

static inline size_t ta_elsize(DLDataType dtype) {
    return (size_t)dtype.bits / 8 * (size_t)(dtype.lanes == 0 ? 1 : dtype.lanes);
}

static inline size_t ta_count(const struct test_array *array) {
    size_t count = 1;
    for (uintptr_t i = 0; i < array->ndim; i++) {
        count *= array->shape[i];
    }
    return count;
}

static inline int ta_dtype_eq(DLDataType a, DLDataType b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

static inline int ta_supported_dtype(DLDataType dtype) {
    return ta_dtype_eq(dtype, TA_INT32) || ta_dtype_eq(dtype, TA_INT64) ||
           ta_dtype_eq(dtype, TA_FLOAT32) || ta_dtype_eq(dtype, TA_FLOAT64);
}

static inline void ta_count_call(struct test_array *array, enum ta_member member) {
    atomic_fetch_add(&array->calls[member], 1);
    atomic_fetch_add(&ta_stats.calls[member], 1);
}

static inline void ta_error_data_deleter(void *data) {
    struct ta_error_data *error = data;
    if (error != NULL && error->magic == TA_ERROR_MAGIC) {
        error->magic = 0;
        atomic_fetch_add(&ta_stats.error_data_deleted, 1);
        free(error);
    }
}

/* set the last error as a failing callback does: message, origin "tests" and
 * a counted `struct ta_error_data` */
static inline void ta_set_error(struct test_array *array, enum ta_member member,
                                const char *message) {
    struct ta_error_data *data = malloc(sizeof(*data));
    if (data != NULL) {
        data->magic = TA_ERROR_MAGIC;
        data->member = member;
        data->array = array;
        atomic_fetch_add(&ta_stats.error_data_created, 1);
    }
    mts_set_last_error(message, TA_ERROR_ORIGIN, data, data != NULL ? ta_error_data_deleter : NULL);
}

/* an error that is not on purpose (bad input to the test array) */
static inline mts_status_t ta_error(struct test_array *array, enum ta_member member,
                                    const char *message) {
    ta_set_error(array, member, message);
    return MTS_CALLBACK_ERROR;
}

/* returns non-zero when `member` must fail on `array`, after setting the error */
static inline int ta_should_fail(struct test_array *array, enum ta_member member) {
    if (array->fail_member != member) {
        return 0;
    }
    if (array->fail_sets_error) {
        ta_set_error(array, member, array->fail_message);
    }
    return 1;
}

static inline void ta_set_fail(struct test_array *array, enum ta_member member,
                               mts_status_t status, const char *message) {
    array->fail_member = member;
    array->fail_status = status;
    array->fail_sets_error = 1;
    if (message == NULL) {
        snprintf(array->fail_message, sizeof(array->fail_message),
                 "test array: %s failed on purpose", ta_member_name(member));
    } else {
        snprintf(array->fail_message, sizeof(array->fail_message), "%s", message);
    }
}

/* record that `child` was made from `parent` by `member`, and pass on the
 * failures asked for with `children_fail_member` */
static inline void ta_adopt(struct test_array *child, struct test_array *parent,
                            enum ta_member member) {
    child->created_by = member;
    child->created_from = parent;
    if (parent->children_fail_member != TA_NONE) {
        child->fail_member = parent->children_fail_member;
        child->fail_status = parent->fail_status;
        child->fail_sets_error = parent->fail_sets_error;
        memcpy(child->fail_message, parent->fail_message, sizeof(child->fail_message));
    }
}

static inline mts_data_origin_t ta_origin_id(void) {
    pthread_mutex_lock(&ta_origin_lock);
    if (!ta_origin_registered) {
        if (mts_register_data_origin(TA_ORIGIN_NAME, &ta_origin_value) == MTS_SUCCESS) {
            ta_origin_registered = 1;
        }
    }
    mts_data_origin_t origin = ta_origin_value;
    pthread_mutex_unlock(&ta_origin_lock);
    return origin;
}

static inline int ta_is_zeroed(const mts_array_t *array) {
    static const mts_array_t zero;
    return memcmp(array, &zero, sizeof(zero)) == 0;
}

/* ------------------------------------------------------------------------ */
/* construction                                                             */

static inline struct test_array *ta_new(DLDataType dtype, const uintptr_t *shape, uintptr_t ndim,
                                        const void *data) {
    if (ndim > TA_MAX_NDIM || !ta_supported_dtype(dtype)) {
        return NULL;
    }
    struct test_array *array = calloc(1, sizeof(*array));
    if (array == NULL) {
        return NULL;
    }
    array->magic = TA_MAGIC;
    array->ndim = ndim;
    for (uintptr_t i = 0; i < ndim; i++) {
        array->shape[i] = shape[i];
    }
    array->dtype = dtype;
    array->device = TA_CPU;
    array->layout = TA_LAYOUT_NULL_STRIDES;
    array->dlpack_version.major = 1;
    array->dlpack_version.minor = 3;
    array->fail_member = TA_NONE;
    array->fail_status = MTS_CALLBACK_ERROR;
    array->fail_sets_error = 1;
    array->children_fail_member = TA_NONE;
    array->created_by = TA_NONE;

    size_t bytes = ta_count(array) * ta_elsize(dtype);
    if (bytes != 0) {
        array->data = calloc(1, bytes);
        if (array->data == NULL) {
            free(array);
            return NULL;
        }
        if (data != NULL) {
            memcpy(array->data, data, bytes);
        }
    }
    array->id = atomic_fetch_add(&ta_stats.created, 1) + 1;
    return array;
}

static inline struct test_array *ta_new_i32(const int32_t *values, uintptr_t rows, uintptr_t cols) {
    uintptr_t shape[2] = {rows, cols};
    return ta_new(TA_INT32, shape, 2, values);
}

static inline long ta_live(void) {
    return atomic_load(&ta_stats.created) - atomic_load(&ta_stats.destroyed);
}

static inline int ta_calls(const struct test_array *array, enum ta_member member) {
    return atomic_load(&((struct test_array *)array)->calls[member]);
}

/* the calls of origin, device and dtype on `array`, in that order */
static inline void ta_description_calls(const struct test_array *array, int calls[3]) {
    calls[0] = ta_calls(array, TA_ORIGIN);
    calls[1] = ta_calls(array, TA_DEVICE);
    calls[2] = ta_calls(array, TA_DTYPE);
}

static inline long ta_total_calls(enum ta_member member) {
    return atomic_load(&ta_stats.calls[member]);
}

/* ------------------------------------------------------------------------ */
/* strided copies                                                           */

/* copy between the C-contiguous buffer `flat` and the strided tensor at
 * `strided` + byte_offset, where element idx sits at sum(idx[d] * strides[d])
 * elements; `gather` reads the strided side, else it is written */
static inline void ta_strided_copy(char *flat, char *strided, const int64_t *shape,
                                   const int64_t *strides, int ndim, size_t elsize,
                                   uint64_t offset, int gather) {
    size_t total = 1;
    for (int d = 0; d < ndim; d++) {
        total *= (size_t)shape[d];
    }
    for (size_t k = 0; k < total; k++) {
        size_t rest = k;
        int64_t position = 0;
        for (int d = ndim - 1; d >= 0; d--) {
            size_t index = rest % (size_t)shape[d];
            rest /= (size_t)shape[d];
            position += (int64_t)index * strides[d];
        }
        char *element = strided + offset + (size_t)position * elsize;
        if (gather) {
            memcpy(flat + k * elsize, element, elsize);
        } else {
            memcpy(element, flat + k * elsize, elsize);
        }
    }
}

/* copy the C-contiguous `src` to the strided `dst` */
static inline void ta_scatter(char *dst, const char *src, const int64_t *shape,
                              const int64_t *strides, int ndim, size_t elsize, uint64_t offset) {
    ta_strided_copy((char *)src, dst, shape, strides, ndim, elsize, offset, 0);
}

/* the inverse: gather a strided tensor into C-contiguous `dst` */
static inline void ta_gather(char *dst, const char *src, const int64_t *shape,
                             const int64_t *strides, int ndim, size_t elsize, uint64_t offset) {
    ta_strided_copy(dst, (char *)src, shape, strides, ndim, elsize, offset, 1);
}

/* ------------------------------------------------------------------------ */
/* the vtable                                                               */

static inline void ta_destroy(void *ptr) {
    struct test_array *array = ta_cast(ptr);
    if (array == NULL) {
        return;
    }
    atomic_fetch_add(&array->calls[TA_DESTROY], 1);
    atomic_fetch_add(&ta_stats.calls[TA_DESTROY], 1);
    if (atomic_exchange(&array->destroyed, 1) != 0) {
        atomic_fetch_add(&ta_stats.double_destroy, 1);
        return;
    }
    free(array->data);
    array->data = NULL;
    array->magic = TA_DEAD_MAGIC;
    atomic_fetch_add(&ta_stats.destroyed, 1);

    pthread_mutex_lock(&ta_graveyard_lock);
    array->graveyard_next = ta_graveyard;
    ta_graveyard = array;
    pthread_mutex_unlock(&ta_graveyard_lock);
}

/* A getter: counts its call, fails when told to, else writes one value. */
#define TA_GETTER(name, member, type, value)                      \
    static inline mts_status_t name(const void *ptr, type *out) { \
        struct test_array *array = ta_cast(ptr);                  \
        ta_count_call(array, member);                             \
        if (ta_should_fail(array, member)) {                      \
            return array->fail_status;                            \
        }                                                         \
        *out = (value);                                           \
        return MTS_SUCCESS;                                       \
    }

TA_GETTER(ta_origin, TA_ORIGIN, mts_data_origin_t, ta_origin_id())
TA_GETTER(ta_device, TA_DEVICE, DLDevice, array->device)
TA_GETTER(ta_dtype, TA_DTYPE, DLDataType, array->dtype)

static inline mts_status_t ta_shape(const void *ptr, const uintptr_t **shape,
                                    uintptr_t *shape_count) {
    struct test_array *array = ta_cast(ptr);
    ta_count_call(array, TA_SHAPE);
    if (ta_should_fail(array, TA_SHAPE)) {
        return array->fail_status;
    }
    *shape = array->ndim == 0 ? NULL : array->shape;
    *shape_count = array->ndim;
    return MTS_SUCCESS;
}

/* the manager context of the tensors made by as_dlpack */
struct ta_dlpack_ctx {
    DLManagedTensorVersioned tensor; /* first: the tensor pointer is the ctx */
    int64_t shape[TA_MAX_NDIM];
    int64_t strides[TA_MAX_NDIM];
    void *owned; /* a buffer made for this export, or NULL when zero-copy */
    struct test_array *source;
    atomic_int deleted;
    struct ta_dlpack_ctx *graveyard_next;
};

/* every tensor made by as_dlpack, freed by ta_finish */
static struct ta_dlpack_ctx *ta_dlpack_graveyard = NULL;

static inline void ta_dlpack_deleter(DLManagedTensorVersioned *tensor) {
    struct ta_dlpack_ctx *ctx = tensor->manager_ctx;
    struct test_array *source = ctx->source;
    if (atomic_exchange(&ctx->deleted, 1) != 0) {
        atomic_fetch_add(&ta_stats.dlpack_double_delete, 1);
        return;
    }
    atomic_fetch_add(&ta_stats.dlpack_deleted, 1);
    atomic_fetch_sub(&source->dlpack_live, 1);
    if (atomic_load(&source->destroyed)) {
        atomic_fetch_add(&ta_stats.dlpack_deleted_after_destroy, 1);
    }
    /* the data made for this export goes now; the tensor struct itself stays
     * readable (and unchanged) until ta_finish */
    free(ctx->owned);
    ctx->owned = NULL;
}

static inline mts_status_t ta_as_dlpack(void *ptr, DLManagedTensorVersioned **dl_managed_tensor,
                                        DLDevice device, const int64_t *stream,
                                        DLPackVersion max_version) {
    struct test_array *array = ta_cast(ptr);
    ta_count_call(array, TA_AS_DLPACK);
    array->last_dlpack_device = device;
    array->last_dlpack_stream_null = (stream == NULL);
    array->last_dlpack_version = max_version;
    if (ta_should_fail(array, TA_AS_DLPACK)) {
        return array->fail_status;
    }
    if (device.device_type != kDLCPU || device.device_id != 0) {
        return ta_error(array, TA_AS_DLPACK, "test array: as_dlpack can only export to CPU:0");
    }
    if (array->device.device_type == kDLExtDev) {
        return ta_error(array, TA_AS_DLPACK, "test array: arrays on kDLExtDev have no data");
    }

    struct ta_dlpack_ctx *ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL) {
        return ta_error(array, TA_AS_DLPACK, "test array: out of memory");
    }
    int ndim = (int)array->ndim;
    size_t elsize = ta_elsize(array->dtype);
    size_t total = ta_count(array);
    for (int d = 0; d < ndim; d++) {
        ctx->shape[d] = (int64_t)array->shape[d];
    }

    int on_cpu = array->device.device_type == kDLCPU;
    uint64_t byte_offset = 0;
    int64_t *strides = NULL;
    void *data = NULL;
    uint64_t flags = 0;

    switch (array->layout) {
    case TA_LAYOUT_NULL_STRIDES:
    case TA_LAYOUT_C_STRIDES:
        if (array->layout == TA_LAYOUT_C_STRIDES) {
            int64_t stride = 1;
            for (int d = ndim - 1; d >= 0; d--) {
                ctx->strides[d] = stride;
                stride *= ctx->shape[d];
            }
            strides = ctx->strides;
        }
        if (on_cpu || total == 0) {
            data = array->data;
        } else {
            /* "copy from the device" */
            ctx->owned = malloc(total * elsize);
            if (ctx->owned == NULL) {
                free(ctx);
                return ta_error(array, TA_AS_DLPACK, "test array: out of memory");
            }
            memcpy(ctx->owned, array->data, total * elsize);
            data = ctx->owned;
            flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
        }
        break;
    case TA_LAYOUT_NULL_STRIDES_OFFSET:
    case TA_LAYOUT_FORTRAN:
    case TA_LAYOUT_STRIDED_OFFSET: {
        size_t span = 0;
        if (array->layout == TA_LAYOUT_NULL_STRIDES_OFFSET) {
            int64_t stride = 1;
            for (int d = ndim - 1; d >= 0; d--) {
                ctx->strides[d] = stride;
                stride *= ctx->shape[d];
            }
            span = total;
            byte_offset = 3 * elsize;
        } else if (array->layout == TA_LAYOUT_FORTRAN) {
            int64_t stride = 1;
            for (int d = 0; d < ndim; d++) {
                ctx->strides[d] = stride;
                stride *= ctx->shape[d];
            }
            span = total;
        } else {
            /* rows padded by 3 elements, data starting 2 elements in */
            int64_t stride = 1;
            for (int d = ndim - 1; d >= 0; d--) {
                ctx->strides[d] = stride;
                stride *= ctx->shape[d] + (d == ndim - 1 ? 3 : 0);
            }
            span = (size_t)stride + 3;
            byte_offset = 2 * elsize;
        }
        /* the NULL_STRIDES_OFFSET export uses the C strides computed above to
         * write the copy, but tells NULL strides */
        strides = array->layout == TA_LAYOUT_NULL_STRIDES_OFFSET ? NULL : ctx->strides;
        ctx->owned = calloc(1, span * elsize + (size_t)byte_offset + 1);
        if (ctx->owned == NULL) {
            free(ctx);
            return ta_error(array, TA_AS_DLPACK, "test array: out of memory");
        }
        if (total != 0) {
            ta_scatter(ctx->owned, array->data, ctx->shape, ctx->strides, ndim, elsize,
                       byte_offset);
        }
        data = ctx->owned;
        flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
        break;
    }
    }

    ctx->source = array;
    ctx->tensor.version = array->dlpack_version;
    ctx->tensor.manager_ctx = ctx;
    ctx->tensor.deleter = ta_dlpack_deleter;
    ctx->tensor.flags = flags;
    ctx->tensor.dl_tensor.data = data;
    ctx->tensor.dl_tensor.device = TA_CPU;
    ctx->tensor.dl_tensor.ndim = ndim;
    ctx->tensor.dl_tensor.dtype = array->dtype;
    ctx->tensor.dl_tensor.shape = ctx->shape;
    ctx->tensor.dl_tensor.strides = strides;
    ctx->tensor.dl_tensor.byte_offset = byte_offset;

    pthread_mutex_lock(&ta_graveyard_lock);
    ctx->graveyard_next = ta_dlpack_graveyard;
    ta_dlpack_graveyard = ctx;
    pthread_mutex_unlock(&ta_graveyard_lock);

    atomic_fetch_add(&ta_stats.dlpack_exported, 1);
    atomic_fetch_add(&array->dlpack_live, 1);
    *dl_managed_tensor = &ctx->tensor;
    return MTS_SUCCESS;
}

static inline mts_array_t ta_mts(struct test_array *array);

static inline mts_status_t ta_from_dlpack(const void *ptr, DLManagedTensorVersioned *tensor,
                                          mts_array_t *new_array) {
    struct test_array *array = ta_cast(ptr);
    ta_count_call(array, TA_FROM_DLPACK);
    atomic_fetch_add(&ta_stats.dlpack_received, 1);
    if (!ta_is_zeroed(new_array)) {
        atomic_fetch_add(&ta_stats.out_not_zeroed, 1);
    }

    mts_status_t status = MTS_SUCCESS;
    struct test_array *result = NULL;
    if (tensor == NULL) {
        return ta_error(array, TA_FROM_DLPACK, "test array: from_dlpack got a NULL tensor");
    }
    array->last_received_version = tensor->version;
    array->last_received_flags = tensor->flags;

    const DLTensor *dl = &tensor->dl_tensor;
    DLDevice tensor_device = dl->device;
    if (ta_should_fail(array, TA_FROM_DLPACK)) {
        status = array->fail_status;
    } else if (tensor->version.major != 1) {
        status = ta_error(array, TA_FROM_DLPACK, "test array: unsupported DLPack major version");
    } else if (dl->device.device_type != kDLCPU) {
        status = ta_error(array, TA_FROM_DLPACK, "test array: from_dlpack only reads CPU tensors");
    } else if (dl->ndim < 0 || dl->ndim > TA_MAX_NDIM || !ta_supported_dtype(dl->dtype)) {
        status = ta_error(array, TA_FROM_DLPACK, "test array: from_dlpack needs an int32, "
                                                 "int64, float32 or float64 tensor");
    } else {
        uintptr_t shape[TA_MAX_NDIM];
        for (int d = 0; d < dl->ndim; d++) {
            shape[d] = (uintptr_t)dl->shape[d];
        }
        result = ta_new(dl->dtype, shape, (uintptr_t)dl->ndim, NULL);
        if (result == NULL) {
            status = ta_error(array, TA_FROM_DLPACK, "test array: out of memory");
        } else if (ta_count(result) != 0) {
            int64_t strides[TA_MAX_NDIM];
            if (dl->strides != NULL) {
                for (int d = 0; d < dl->ndim; d++) {
                    strides[d] = dl->strides[d];
                }
            } else {
                int64_t stride = 1;
                for (int d = dl->ndim - 1; d >= 0; d--) {
                    strides[d] = stride;
                    stride *= dl->shape[d];
                }
            }
            ta_gather(result->data, dl->data, dl->shape, strides, dl->ndim,
                      ta_elsize(dl->dtype), dl->byte_offset);
        }
    }

    /* ownership of the tensor passed to us, whatever happens */
    if (tensor->deleter != NULL) {
        tensor->deleter(tensor);
    }
    if (status != MTS_SUCCESS) {
        return status;
    }

    /* the tensor (and `dl`) is gone now: only use the saved device */
    result->device = tensor_device;
    ta_adopt(result, array, TA_FROM_DLPACK);
    *new_array = ta_mts(result);
    return MTS_SUCCESS;
}

static inline mts_status_t ta_reshape(void *ptr, const uintptr_t *shape, uintptr_t shape_count) {
    struct test_array *array = ta_cast(ptr);
    ta_count_call(array, TA_RESHAPE);
    if (ta_should_fail(array, TA_RESHAPE)) {
        return array->fail_status;
    }
    if (shape_count > TA_MAX_NDIM) {
        return ta_error(array, TA_RESHAPE, "test array: too many dimensions");
    }
    size_t count = 1;
    for (uintptr_t i = 0; i < shape_count; i++) {
        count *= shape[i];
    }
    if (count != ta_count(array)) {
        return ta_error(array, TA_RESHAPE, "test array: reshape must keep the element count");
    }
    array->ndim = shape_count;
    for (uintptr_t i = 0; i < shape_count; i++) {
        array->shape[i] = shape[i];
    }
    return MTS_SUCCESS;
}

static inline mts_status_t ta_swap_axes(void *ptr, uintptr_t axis_1, uintptr_t axis_2) {
    struct test_array *array = ta_cast(ptr);
    ta_count_call(array, TA_SWAP_AXES);
    if (ta_should_fail(array, TA_SWAP_AXES)) {
        return array->fail_status;
    }
    if (axis_1 >= array->ndim || axis_2 >= array->ndim) {
        return ta_error(array, TA_SWAP_AXES, "test array: swap_axes axis out of bounds");
    }
    if (axis_1 == axis_2) {
        return MTS_SUCCESS;
    }

    int ndim = (int)array->ndim;
    size_t elsize = ta_elsize(array->dtype);
    size_t total = ta_count(array);

    /* new shape, and the strides of the old data seen with the new axes */
    int64_t new_shape[TA_MAX_NDIM];
    int64_t old_strides[TA_MAX_NDIM];
    int64_t stride = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        old_strides[d] = stride;
        stride *= (int64_t)array->shape[d];
    }
    for (int d = 0; d < ndim; d++) {
        new_shape[d] = (int64_t)array->shape[d];
    }
    new_shape[axis_1] = (int64_t)array->shape[axis_2];
    new_shape[axis_2] = (int64_t)array->shape[axis_1];
    int64_t tmp = old_strides[axis_1];
    old_strides[axis_1] = old_strides[axis_2];
    old_strides[axis_2] = tmp;

    if (total != 0) {
        char *data = malloc(total * elsize);
        if (data == NULL) {
            return ta_error(array, TA_SWAP_AXES, "test array: out of memory");
        }
        ta_gather(data, array->data, new_shape, old_strides, ndim, elsize, 0);
        free(array->data);
        array->data = data;
    }
    for (int d = 0; d < ndim; d++) {
        array->shape[d] = (uintptr_t)new_shape[d];
    }
    return MTS_SUCCESS;
}

/* read the scalar in `fill` as `dtype` into `out` (elsize bytes) */
static inline int ta_read_fill(mts_array_t fill, DLDataType dtype, void *out) {
    struct test_array *fill_array = ta_cast(fill.ptr);
    if (fill_array != NULL && fill.shape == ta_shape) {
        if (!ta_dtype_eq(fill_array->dtype, dtype) || ta_count(fill_array) != 1) {
            return 0;
        }
        memcpy(out, fill_array->data, ta_elsize(dtype));
        return 1;
    }
    if (fill.as_dlpack == NULL) {
        return 0;
    }
    DLManagedTensorVersioned *tensor = NULL;
    DLPackVersion version = {1, 3};
    if (fill.as_dlpack(fill.ptr, &tensor, TA_CPU, NULL, version) != MTS_SUCCESS || tensor == NULL) {
        return 0;
    }
    int ok = 0;
    if (ta_dtype_eq(tensor->dl_tensor.dtype, dtype) && tensor->dl_tensor.data != NULL) {
        memcpy(out, (const char *)tensor->dl_tensor.data + tensor->dl_tensor.byte_offset,
               ta_elsize(dtype));
        ok = 1;
    }
    if (tensor->deleter != NULL) {
        tensor->deleter(tensor);
    }
    return ok;
}

static inline mts_status_t ta_create(const void *ptr, const uintptr_t *shape,
                                     uintptr_t shape_count, mts_array_t fill_value,
                                     mts_array_t *new_array) {
    struct test_array *array = ta_cast(ptr);
    ta_count_call(array, TA_CREATE);
    if (!ta_is_zeroed(new_array)) {
        atomic_fetch_add(&ta_stats.out_not_zeroed, 1);
    }

    mts_status_t status = MTS_SUCCESS;
    struct test_array *result = NULL;
    char fill[16];
    if (ta_should_fail(array, TA_CREATE)) {
        status = array->fail_status;
    } else if (!ta_read_fill(fill_value, array->dtype, fill)) {
        status = ta_error(array, TA_CREATE, "test array: can not read the fill value");
    } else {
        result = ta_new(array->dtype, shape, shape_count, NULL);
        if (result == NULL) {
            status = ta_error(array, TA_CREATE, "test array: can not create the new array");
        } else {
            size_t elsize = ta_elsize(array->dtype);
            size_t total = ta_count(result);
            for (size_t i = 0; i < total; i++) {
                memcpy((char *)result->data + i * elsize, fill, elsize);
            }
        }
    }

    if (fill_value.destroy != NULL) {
        fill_value.destroy(fill_value.ptr);
    }
    if (status != MTS_SUCCESS) {
        return status;
    }
    result->device = array->device;
    ta_adopt(result, array, TA_CREATE);
    *new_array = ta_mts(result);
    return MTS_SUCCESS;
}

static inline mts_status_t ta_copy(const void *ptr, DLDevice device, mts_array_t *new_array) {
    struct test_array *array = ta_cast(ptr);
    ta_count_call(array, TA_COPY);
    array->last_copy_device = device;
    if (!ta_is_zeroed(new_array)) {
        atomic_fetch_add(&ta_stats.out_not_zeroed, 1);
    }
    if (ta_should_fail(array, TA_COPY)) {
        return array->fail_status;
    }
    struct test_array *result = ta_new(array->dtype, array->shape, array->ndim, array->data);
    if (result == NULL) {
        return ta_error(array, TA_COPY, "test array: can not copy");
    }
    result->device = device;
    ta_adopt(result, array, TA_COPY);
    *new_array = ta_mts(result);
    return MTS_SUCCESS;
}

static inline mts_status_t ta_move_data(void *output_ptr, const void *input_ptr,
                                        const mts_data_movement_t *movements,
                                        uintptr_t movements_count) {
    struct test_array *output = ta_cast(output_ptr);
    ta_count_call(output, TA_MOVE_DATA);
    if (ta_should_fail(output, TA_MOVE_DATA)) {
        return output->fail_status;
    }
    const struct test_array *input = ta_cast(input_ptr);
    if (input == NULL || !ta_dtype_eq(input->dtype, output->dtype)) {
        return ta_error(output, TA_MOVE_DATA, "test array: move_data needs a test array input");
    }
    if (input->ndim < 2 || output->ndim != input->ndim) {
        return ta_error(output, TA_MOVE_DATA, "test array: move_data needs 2-D or more arrays");
    }
    size_t middle = 1;
    for (uintptr_t d = 1; d + 1 < input->ndim; d++) {
        if (input->shape[d] != output->shape[d]) {
            return ta_error(output, TA_MOVE_DATA, "test array: move_data component mismatch");
        }
        middle *= input->shape[d];
    }
    size_t elsize = ta_elsize(output->dtype);
    size_t in_last = input->shape[input->ndim - 1];
    size_t out_last = output->shape[output->ndim - 1];
    for (uintptr_t m = 0; m < movements_count; m++) {
        const mts_data_movement_t *move = &movements[m];
        if (move->sample_in >= input->shape[0] || move->sample_out >= output->shape[0] ||
            move->properties_start_in + move->properties_length > in_last ||
            move->properties_start_out + move->properties_length > out_last) {
            return ta_error(output, TA_MOVE_DATA, "test array: move_data out of bounds");
        }
        for (size_t c = 0; c < middle; c++) {
            size_t in_index = (move->sample_in * middle + c) * in_last + move->properties_start_in;
            size_t out_index =
                (move->sample_out * middle + c) * out_last + move->properties_start_out;
            memcpy((char *)output->data + out_index * elsize,
                   (const char *)input->data + in_index * elsize,
                   move->properties_length * elsize);
        }
    }
    return MTS_SUCCESS;
}

static inline mts_array_t ta_mts(struct test_array *array) {
    /* members not named here (none today) are zero */
    mts_array_t result = {
        .ptr = array, .destroy = ta_destroy, .origin = ta_origin, .device = ta_device,
        .dtype = ta_dtype, .as_dlpack = ta_as_dlpack, .from_dlpack = ta_from_dlpack,
        .shape = ta_shape, .reshape = ta_reshape, .swap_axes = ta_swap_axes,
        .create = ta_create, .copy = ta_copy, .move_data = ta_move_data,
    };
    return result;
}

/* Free the graveyard. Returns 0 when no test array is alive, none was
 * destroyed twice, every exported DLPack tensor was deleted exactly once and
 * none after its array was destroyed. The counters stay readable. */
static inline int ta_finish(void) {
    pthread_mutex_lock(&ta_graveyard_lock);
    struct test_array *array = ta_graveyard;
    ta_graveyard = NULL;
    struct ta_dlpack_ctx *ctx = ta_dlpack_graveyard;
    ta_dlpack_graveyard = NULL;
    pthread_mutex_unlock(&ta_graveyard_lock);
    while (ctx != NULL) {
        struct ta_dlpack_ctx *next = ctx->graveyard_next;
        free(ctx->owned); /* only set for tensors that were never deleted */
        free(ctx);
        ctx = next;
    }
    while (array != NULL) {
        struct test_array *next = array->graveyard_next;
        array->magic = 0;
        free(array);
        array = next;
    }
    return ta_live() != 0 || atomic_load(&ta_stats.double_destroy) != 0 ||
           atomic_load(&ta_stats.dlpack_double_delete) != 0 ||
           atomic_load(&ta_stats.dlpack_exported) != atomic_load(&ta_stats.dlpack_deleted) ||
           atomic_load(&ta_stats.dlpack_deleted_after_destroy) != 0;
}

/* ------------------------------------------------------------------------ */
/* helpers for the block and tensor map tests                               */

/*
 *   ta_new_f64(values, shape, ndim)        a float64 array (values may be
 *                                          NULL: zeros)
 *   ta_new_f64_filled(shape, ndim, value)  a float64 array full of `value`
 *   ta_scalar_f64(value)                   a 0-D float64 array holding one
 *                                          value, e.g. a fill value
 *   ta_f64_at(array, index)                the float64 element at the
 *                                          row-major `index`
 *   ta_labels_on(names, size, values, count, device)
 *                                          checked labels (mts_labels) over
 *                                          a new count x size int32 array
 *                                          on `device`
 *   ta_labels(names, size, values, count)  the same on CPU
 */

static inline struct test_array *ta_new_f64(const double *values, const uintptr_t *shape,
                                            uintptr_t ndim) {
    return ta_new(TA_FLOAT64, shape, ndim, values);
}

static inline struct test_array *ta_new_f64_filled(const uintptr_t *shape, uintptr_t ndim,
                                                   double value) {
    struct test_array *array = ta_new(TA_FLOAT64, shape, ndim, NULL);
    if (array != NULL) {
        size_t total = ta_count(array);
        for (size_t i = 0; i < total; i++) {
            ((double *)array->data)[i] = value;
        }
    }
    return array;
}

static inline struct test_array *ta_scalar_f64(double value) {
    return ta_new(TA_FLOAT64, NULL, 0, &value);
}

static inline double ta_f64_at(const struct test_array *array, size_t index) {
    return ((const double *)array->data)[index];
}

static inline const mts_labels_t *ta_labels_on(const char *const *names, uintptr_t size,
                                               const int32_t *values, uintptr_t count,
                                               DLDevice device) {
    struct test_array *array = ta_new_i32(values, count, size);
    if (array == NULL) {
        return NULL;
    }
    array->device = device;
    return mts_labels(names, size, ta_mts(array));
}

static inline const mts_labels_t *ta_labels(const char *const *names, uintptr_t size,
                                            const int32_t *values, uintptr_t count) {
    return ta_labels_on(names, size, values, count, TA_CPU);
}

#endif
