/*
 * sequence.h: what labels_sequence.c, tensor_sequence.c and
 * callback_counts.c share: the splitmix64 generator and the random choices
 * built on it, the printing of statuses, errors, devices, array views and
 * rows, sorting rows, snapshots of the array members' calls, and the array
 * and DLPack counters at the end of a run.
 *
 * Every function is `static inline`, so that each program compiles the ones
 * it uses without unused-function warnings. Include this header before any
 * other: it defines _POSIX_C_SOURCE for the system headers.
 */
#ifndef METATENSOR_TESTS_REFERENCE_SEQUENCE_H
#define METATENSOR_TESTS_REFERENCE_SEQUENCE_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#include "test_array.h"

#define MAX_DIMS 8
#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* ------------------------------------------------------------------------ */
/* random numbers                                                           */

struct rng {
    uint64_t state;
};

static inline uint64_t rng_next(struct rng *rng) {
    uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* uniform in [0, n), 0 when n is 0 */
static inline uint32_t rng_below(struct rng *rng, uint32_t n) {
    return n == 0 ? 0 : (uint32_t)(rng_next(rng) % n);
}

/* uniform in [low, high] */
static inline int32_t rng_range(struct rng *rng, int32_t low, int32_t high) {
    return low + (int32_t)rng_below(rng, (uint32_t)(high - low + 1));
}

static inline int rng_percent(struct rng *rng, uint32_t percent) {
    return rng_below(rng, 100) < percent;
}

/* 0, ..., n - 1 in random order */
static inline void rng_order(struct rng *rng, int *order, int n) {
    for (int i = 0; i < n; i++) {
        order[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
        int k = (int)rng_below(rng, (uint32_t)i + 1);
        int tmp = order[i];
        order[i] = order[k];
        order[k] = tmp;
    }
}

/* the first of `n` slots, trying them from a random one on, that `accept`
 * takes; -1 when it takes none */
static inline int rng_slot(struct rng *rng, int n, int (*accept)(int slot, const void *context),
                           const void *context) {
    int start = (int)rng_below(rng, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        int slot = (start + i) % n;
        if (accept(slot, context)) {
            return slot;
        }
    }
    return -1;
}

/* a random DLPack layout: null strides, C strides, Fortran order or strided
 * with an offset while the draw in [0, 100) is below percent[0], [1], [2] or
 * [3], null strides with an offset above */
static inline enum ta_layout rng_layout(struct rng *rng, const uint32_t percent[4]) {
    static const enum ta_layout LAYOUTS[4] = {TA_LAYOUT_NULL_STRIDES, TA_LAYOUT_C_STRIDES,
                                              TA_LAYOUT_FORTRAN, TA_LAYOUT_STRIDED_OFFSET};
    uint32_t kind = rng_below(rng, 100);
    for (int i = 0; i < 4; i++) {
        if (kind < percent[i]) {
            return LAYOUTS[i];
        }
    }
    return TA_LAYOUT_NULL_STRIDES_OFFSET;
}

/* ------------------------------------------------------------------------ */
/* output                                                                   */

/* `slot`, after printing "<op> skip" when it is negative (nothing to work on) */
static inline int skip_when_none(int slot, const char *op) {
    if (slot < 0) {
        printf("%s skip", op);
    }
    return slot;
}

static inline void print_device(DLDevice device) {
    switch (device.device_type) {
    case kDLCPU: printf("CPU:%d", device.device_id); break;
    case kDLCUDA: printf("CUDA:%d", device.device_id); break;
    case kDLExtDev: printf("ExtDev:%d", device.device_id); break;
    default: printf("type%d:%d", (int)device.device_type, device.device_id); break;
    }
}

/* " err=[message] origin=[origin]", without the location of NULL pointer messages */
static inline void print_error(void) {
    const char *message = NULL;
    const char *origin = NULL;
    mts_last_error(&message, &origin, NULL);
    if (message == NULL) {
        message = "<NULL>";
    }
    static const char null_prefix[] = "got invalid NULL pointer for ";
    size_t length = strlen(message);
    const char *null_message = strstr(message, null_prefix);
    if (null_message != NULL) {
        const char *at = strstr(null_message + sizeof(null_prefix) - 1, " at ");
        if (at != NULL) {
            length = (size_t)(at - message);
        }
    }
    printf(" err=[%.*s] origin=[%s]", (int)length, message, origin != NULL ? origin : "<NULL>");
}

/* " status=S" plus the error when S is not 0; returns S */
static inline mts_status_t print_status(mts_status_t status) {
    printf(" status=%d", (int)status);
    if (status != MTS_SUCCESS) {
        print_error();
    }
    return status;
}

/* " NULL err=..." for a pointer-returning function that returned NULL */
static inline void print_null(void) {
    printf(" NULL");
    print_error();
}

/* the result of a pointer-returning call meant to fail: " NULL err=..." or
 * " UNEXPECTED-SUCCESS"; returns whether `result` is not NULL (the caller
 * frees it then) */
static inline int expect_null(const void *result) {
    if (result == NULL) {
        print_null();
        return 0;
    }
    printf(" UNEXPECTED-SUCCESS");
    return 1;
}

/* `what` and the status when `status` is a failure (freeing something);
 * returns `status` */
static inline mts_status_t report_failure(mts_status_t status, const char *what) {
    if (status != MTS_SUCCESS) {
        printf("%s", what);
        print_status(status);
    }
    return status;
}

/* "(v1,v2,...)" */
static inline void print_row(const int32_t *row, size_t size) {
    printf("(");
    for (size_t j = 0; j < size; j++) {
        printf(j == 0 ? "%" PRId32 : ",%" PRId32, row[j]);
    }
    printf(")");
}

/* " shape=[..]" of an array view, or " shape=<failed>"; returns 0 when the
 * shape could be read (into `shape` and `ndim`) */
static inline int print_view_shape(const mts_array_t *view, const uintptr_t **shape,
                                   uintptr_t *ndim) {
    if (view->shape == NULL || view->shape(view->ptr, shape, ndim) != MTS_SUCCESS) {
        printf(" shape=<failed>");
        return 1;
    }
    printf(" shape=[");
    for (uintptr_t d = 0; d < *ndim; d++) {
        printf(d == 0 ? "%zu" : ",%zu", (size_t)(*shape)[d]);
    }
    printf("]");
    return 0;
}

/* " device=D" of an array view, or " device=<failed>" */
static inline void print_view_device(const mts_array_t *view) {
    DLDevice device = {kDLCPU, -1};
    if (view->device == NULL || view->device(view->ptr, &device) != MTS_SUCCESS) {
        printf(" device=<failed>");
    } else {
        printf(" device=");
        print_device(device);
    }
}

/* ------------------------------------------------------------------------ */
/* labels                                                                   */

/* the device of the values of `labels` (CPU when it can not be read); `view`
 * receives the values */
static inline DLDevice labels_device(const mts_labels_t *labels, mts_array_t *view) {
    memset(view, 0, sizeof(*view));
    DLDevice device = TA_CPU;
    if (mts_labels_values(labels, view) == MTS_SUCCESS && view->device != NULL) {
        DLDevice read = TA_CPU;
        if (view->device(view->ptr, &read) == MTS_SUCCESS) {
            device = read;
        }
    }
    return device;
}

/* projection[i]: the (last) position of names[i] among the `n_from` names
 * of `from`, -1 when missing; returns whether every name is there */
static inline int names_projection(const char *const *names, int n, const char *const *from,
                                   int n_from, int *projection) {
    int projectable = 1;
    for (int i = 0; i < n; i++) {
        projection[i] = -1;
        for (int k = 0; k < n_from; k++) {
            if (strcmp(names[i], from[k]) == 0) {
                projection[i] = k;
            }
        }
        projectable &= projection[i] >= 0;
    }
    return projectable;
}

static inline int row_compare(const int32_t *a, const int32_t *b, size_t size) {
    for (size_t j = 0; j < size; j++) {
        if (a[j] != b[j]) {
            return a[j] < b[j] ? -1 : 1;
        }
    }
    return 0;
}

/* sorts `count` rows of `size` values (at most MAX_DIMS), by insertion: counts are small */
static inline void rows_sort(int32_t *values, size_t count, size_t size) {
    int32_t tmp[MAX_DIMS];
    for (size_t i = 1; i < count; i++) {
        memcpy(tmp, values + i * size, size * sizeof(int32_t));
        size_t k = i;
        while (k > 0 && row_compare(values + (k - 1) * size, tmp, size) > 0) {
            memcpy(values + k * size, values + (k - 1) * size, size * sizeof(int32_t));
            k--;
        }
        memcpy(values + k * size, tmp, size * sizeof(int32_t));
    }
}

/* ------------------------------------------------------------------------ */
/* counting calls                                                           */

/* the calls made so far to every member of every test array, so that an
 * operation's own calls are the difference with a later snapshot */
struct calls_snapshot {
    long calls[TA_MEMBER_COUNT];
};

static inline void calls_snapshot_take(struct calls_snapshot *snapshot) {
    for (int member = 0; member < TA_MEMBER_COUNT; member++) {
        snapshot->calls[member] = ta_total_calls((enum ta_member)member);
    }
}

/* the calls of `member` since `snapshot` was taken */
static inline long calls_since(const struct calls_snapshot *snapshot, enum ta_member member) {
    return ta_total_calls(member) - snapshot->calls[member];
}

/* ------------------------------------------------------------------------ */
/* running                                                                  */

/* runs operations 0 to count - 1, flushing the transcript after each */
static inline void run_sequence(uint64_t seed, long count, void (*run_one)(uint64_t, long)) {
    for (long i = 0; i < count; i++) {
        run_one(seed, i);
        fflush(stdout);
    }
}

/* prints the array and DLPack counters, less `made` arrays and `received`
 * DLPack tensors (whose counters are then named "<counter><minus>"), frees
 * what the test arrays kept and prints whether all is well; returns the exit
 * code: 1 when an array leaked or was destroyed twice, or when a DLPack
 * tensor was not deleted exactly once */
static inline int finish_arrays(const char *minus, long made, long received) {
    printf("arrays: created%s=%ld destroyed%s=%ld live=%ld double_destroy=%ld\n", minus,
           (long)atomic_load(&ta_stats.created) - made, minus,
           (long)atomic_load(&ta_stats.destroyed) - made, ta_live(),
           (long)atomic_load(&ta_stats.double_destroy));
    printf("dlpack: exported=%ld deleted=%ld double_delete=%ld deleted_after_destroy=%ld "
           "received%s=%ld out_not_zeroed=%ld\n",
           (long)atomic_load(&ta_stats.dlpack_exported),
           (long)atomic_load(&ta_stats.dlpack_deleted),
           (long)atomic_load(&ta_stats.dlpack_double_delete),
           (long)atomic_load(&ta_stats.dlpack_deleted_after_destroy), minus,
           (long)atomic_load(&ta_stats.dlpack_received) - received,
           (long)atomic_load(&ta_stats.out_not_zeroed));
    int failed = ta_finish();
    printf("arrays: %s\n", failed ? "FAILED (leak, double destroy or DLPack imbalance)" : "ok");
    fflush(stdout);
    return failed ? 1 : 0;
}

#endif
