/*
 * Tests of the labels part of the C API: every mts_labels_* function except
 * load/save (the reference's behaviour, with the callback errors of
 * docs/reference-behaviour.md).
 *
 * Labels values are instrumented arrays from test_array.h: they count the
 * calls the library makes, can fake living on another device, and can fail
 * on purpose. At the end no test array may be alive, none may have been
 * destroyed twice, and every DLPack tensor they exported must have been
 * deleted exactly once.
 *
 * The test about the "metatensor.Labels" origin fast path must run first:
 * before anything asks the library's own labels array for its origin, the
 * library does not call `origin` on user arrays (registering the name with
 * mts_register_data_origin does not change that).
 *
 * Built with MTS_TEST_REFERENCE defined, the tests expect the reference's
 * behaviour (the library in build/reference); otherwise ours. Where we differ
 * on purpose (docs/reference-behaviour.md#differences), the reference build
 * follows the reference:
 *  - a 3-D values array with the right last dimension passes the
 *    construction checks: mts_labels fails later (255, "unexpected shape for
 *    labels array") after calling as_dlpack; assume_unique succeeds and the
 *    first use of the values fails the same way;
 *  - mts_labels_values destroys an owning array already in `*array` before
 *    writing the view;
 *  - callback errors while a set operation builds its result (from_dlpack,
 *    copy, device) are panics (255) with "created invalid labels in <op>:
 *    CallbackError" ("intersection" for the difference too) or "failed to
 *    get the device for Labels values: CallbackError"; the callback's
 *    message, origin and data are lost. A failing device in select is the
 *    same panic;
 *  - a DLPack tensor with major version != 1 is a panic (255) "Incompatible
 *    DLPack version, got <major>, but this code only supports version 1",
 *    with <major> read after the deleter ran.
 *
 * Where we deliberately differ (see spec/api.yaml), the tests of our library
 * expect:
 *  - zero-copy values: a contiguous CPU int32 export is kept (not deleted)
 *    while the labels live, and values_cpu points into the caller's memory;
 *  - mts_labels_values only writes its out-parameter;
 *  - callback errors in set operations are MTS_CALLBACK_ERROR with the
 *    callback's own message (prefixed), origin and data.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_helpers.h"

/* DLPack exports of a contiguous CPU array that the labels still hold: the
 * reference copies the values and deletes the export at once, we keep it. */
#ifdef MTS_TEST_REFERENCE
#define KEPT_EXPORTS 0
#else
#define KEPT_EXPORTS 1
#endif

static const char *const NAMES_BA[] = {"b", "a"};

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

/* the error for a mapping count `given` with the labels `name` holding
 * `entries` entries */
#define MAPPING_COUNT_MESSAGE(name, given, entries)                                      \
    INVALID "`" name "_mapping_count` (" given ") must match the number of elements in `" \
        name "` (" entries ") but doesn't"

/* the error of the set operation `op` on labels with the dimensions `first`
 * and `second` (quoted lists) */
#define DIMENSIONS_MESSAGE(op, first, second)                                               \
    INVALID "can not take the " op " of these Labels, they have different dimensions: " first \
            ", and " second

/* `call` refuses the mapping count `given` for `name` holding `entries` */
#define CHECK_MAPPING_COUNT(call, name, given, entries) \
    CHECK_ERROR(call, MTS_INVALID_PARAMETER_ERROR, MAPPING_COUNT_MESSAGE(name, given, entries))

/* a new test array of `count` rows and `size` columns on `device` */
static struct test_array *new_values(const int32_t *values, uintptr_t count, uintptr_t size,
                                     DLDevice device) {
    struct test_array *array = ta_new_i32(values, count, size);
    array->device = device;
    return array;
}

/* mts_labels, or mts_labels_assume_unique when `unique` */
static const mts_labels_t *new_labels(int unique, const char *const *names, uintptr_t count,
                                      struct test_array *array) {
    return unique ? mts_labels_assume_unique(names, count, ta_mts(array))
                  : mts_labels(names, count, ta_mts(array));
}

/* labels (assume_unique when `unique`, else checked) over a new test array;
 * `*array_out` gets the array */
static const mts_labels_t *any_labels_on(int unique, const char *const *names, uintptr_t size,
                                         const int32_t *values, uintptr_t count,
                                         DLDevice device, struct test_array **array_out) {
    struct test_array *array = new_values(values, count, size, device);
    if (array_out != NULL) {
        *array_out = array;
    }
    return new_labels(unique, names, size, array);
}

/* checked labels over a new test array; `*array_out` gets the array */
static const mts_labels_t *labels_on(const char *const *names, uintptr_t size,
                                     const int32_t *values, uintptr_t count, DLDevice device,
                                     struct test_array **array_out) {
    return any_labels_on(0, names, size, values, count, device, array_out);
}

static const mts_labels_t *labels_cpu(const char *const *names, uintptr_t size,
                                      const int32_t *values, uintptr_t count,
                                      struct test_array **array_out) {
    return labels_on(names, size, values, count, TA_CPU, array_out);
}

static const mts_labels_t *unique_labels_on(const char *const *names, uintptr_t size,
                                            const int32_t *values, uintptr_t count,
                                            DLDevice device, struct test_array **array_out) {
    return any_labels_on(1, names, size, values, count, device, array_out);
}

/* zero-dimension labels (their values are the library's own array) */
static const mts_labels_t *zero_dimension_labels(void) {
    struct test_array *array = ta_new_i32(NULL, 0, 0);
    return mts_labels(NULL, 0, ta_mts(array));
}

/* check the CPU values of `labels` */
static void check_values_(const mts_labels_t *labels, const int32_t *expected, uintptr_t count,
                          uintptr_t size, int line) {
    const int32_t *values = NULL;
    uintptr_t got_count = 12345, got_size = 12345;
    mts_status_t status = mts_labels_values_cpu(labels, &values, &got_count, &got_size);
    int ok = status == MTS_SUCCESS && got_count == count && got_size == size;
    if (ok && count * size != 0) {
        ok = values != NULL && memcmp(values, expected, count * size * sizeof(int32_t)) == 0;
    }
    if (!ok) {
        fprintf(stderr, "test_labels.c:%d: unexpected values (status %d, count %zu, size %zu):",
                line, (int)status, (size_t)got_count, (size_t)got_size);
        if (status == MTS_SUCCESS && values != NULL) {
            for (uintptr_t i = 0; i < got_count * got_size; i++) {
                fprintf(stderr, " %d", values[i]);
            }
        }
        fprintf(stderr, "\n");
    }
    check_record_(ok, __FILE__, line, "check_values");
}
#define CHECK_VALUES(labels, expected, count, size) \
    check_values_((labels), (expected), (count), (size), __LINE__)

static void check_mapping_(const int64_t *got, const int64_t *expected, size_t n, int line) {
    int ok = memcmp(got, expected, n * sizeof(int64_t)) == 0;
    if (!ok) {
        fprintf(stderr, "test_labels.c:%d: mapping:", line);
        for (size_t i = 0; i < n; i++) {
            fprintf(stderr, " %lld", (long long)got[i]);
        }
        fprintf(stderr, " expected:");
        for (size_t i = 0; i < n; i++) {
            fprintf(stderr, " %lld", (long long)expected[i]);
        }
        fprintf(stderr, "\n");
    }
    check_record_(ok, __FILE__, line, "check_mapping");
}
#define CHECK_MAPPING(got, expected, n) check_mapping_((got), (expected), (n), __LINE__)

static void check_selected_(const uint64_t *got, uintptr_t got_count, const uint64_t *expected,
                            uintptr_t count, int line) {
    int ok = got_count == count;
    for (uintptr_t i = 0; ok && i < count; i++) {
        ok = got[i] == expected[i];
    }
    if (!ok) {
        fprintf(stderr, "test_labels.c:%d: selected %zu entries:", line, (size_t)got_count);
        for (uintptr_t i = 0; i < got_count && i < 16; i++) {
            fprintf(stderr, " %llu", (unsigned long long)got[i]);
        }
        fprintf(stderr, "\n");
    }
    check_record_(ok, __FILE__, line, "check_selected");
}
#define CHECK_SELECTED(got, got_count, expected, count) \
    check_selected_((got), (got_count), (expected), (count), __LINE__)

/* selecting `selection` (freed here) in `labels` with 4 slots succeeds and
 * gives the rows `expected`: 2 checks */
static void check_select_(const mts_labels_t *labels, const mts_labels_t *selection,
                          const uint64_t *expected, uintptr_t count, int line) {
    uint64_t selected[8] = {0};
    uintptr_t selected_count = 4;
    check_int_eq_(mts_labels_select(labels, selection, selected, &selected_count), MTS_SUCCESS,
                  "mts_labels_select(...)", "MTS_SUCCESS", "CHECK_STATUS", __FILE__, line);
    check_selected_(selected, selected_count, expected, count, line);
    mts_labels_free(selection);
}
#define CHECK_SELECT(labels, selection, expected) \
    check_select_((labels), (selection), (expected), ARRAY_SIZE(expected), __LINE__)

/* the test array stored in `labels` */
static struct test_array *values_array(const mts_labels_t *labels) {
    mts_array_t array;
    memset(&array, 0, sizeof(array));
    if (mts_labels_values(labels, &array) != MTS_SUCCESS) {
        return NULL;
    }
    return ta_cast(array.ptr);
}

static int64_t position_of(const mts_labels_t *labels, int32_t a, int32_t b) {
    int32_t entry[2] = {a, b};
    int64_t position = -42;
    if (mts_labels_position(labels, entry, 2, &position) != MTS_SUCCESS) {
        return -42;
    }
    return position;
}

/* ------------------------------------------------------------------------ */
/* the "metatensor.Labels" origin fast path (must run first)                */

#ifndef MTS_TEST_ORIGIN_UNASKED
static void test_origin_fast_path(void) {
    static const int32_t values[] = {0, 1, 1, 2};
    struct test_array *array = NULL;

    /* nothing has asked for the "metatensor.Labels" origin yet: the library
     * does not call `origin` (nor `dtype`) on the array */
    const mts_labels_t *labels = labels_cpu(NAMES_AB, 2, values, 2, &array);
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_ORIGIN), 0);
    CHECK_INT_EQ(ta_calls(array, TA_DTYPE), 0);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    mts_labels_free(labels);

    /* registering the name from outside */
    mts_data_origin_t registered = 0;
    CHECK_STATUS(mts_register_data_origin("metatensor.Labels", &registered), MTS_SUCCESS);
    labels = labels_cpu(NAMES_AB, 2, values, 2, &array);
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_ORIGIN), 0);
    mts_labels_free(labels);

    /* the library's own labels array registers the name on its first origin
     * call; from then on, user arrays are asked for their origin */
    const mts_labels_t *empty = zero_dimension_labels();
    CHECK(empty != NULL);
    mts_array_t library;
    memset(&library, 0, sizeof(library));
    CHECK_STATUS(mts_labels_values(empty, &library), MTS_SUCCESS);
    CHECK(library.origin != NULL);
    mts_data_origin_t origin = 0;
    if (library.origin != NULL) {
        CHECK_STATUS(library.origin(library.ptr, &origin), MTS_SUCCESS);
    }
    CHECK_INT_EQ(origin, registered);
    char name[64] = "";
    CHECK_STATUS(mts_get_data_origin(origin, name, sizeof(name)), MTS_SUCCESS);
    CHECK_STR_EQ(name, "metatensor.Labels");
    mts_labels_free(empty);

    labels = labels_cpu(NAMES_AB, 2, values, 2, &array);
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_ORIGIN), 1);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(ta_calls(array, TA_DTYPE), 0);
    mts_labels_free(labels);

    /* assume_unique does not ask */
    labels = unique_labels_on(NAMES_AB, 2, values, 2, TA_CPU, &array);
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_ORIGIN), 0);
    mts_labels_free(labels);
}
#endif

/* ------------------------------------------------------------------------ */
/* names                                                                    */

/* new_labels on a fresh `array` (after a stale error) must fail with
 * `message` (only its start when `prefix`) and `origin` (unchecked when
 * NULL), destroying the array once: it was consumed */
static void check_refused_(int unique, const char *const *names, uintptr_t count,
                           struct test_array *array, const char *message, int prefix,
                           const char *origin, const char *file, int line) {
    long live = ta_live() - 1;
    set_stale_error();
    const mts_labels_t *labels = new_labels(unique, names, count, array);
    check_record_(labels == NULL, file, line, "labels == NULL");
    if (prefix) {
        check_str_prefix_(last_message(), message, "last_message()", "message", file, line);
    } else {
        check_str_eq_(last_message(), message, "last_message()", "message", file, line);
    }
    if (origin != NULL) {
        check_str_eq_(last_error().origin, origin, "origin", "origin", file, line);
    }
    check_int_eq_(ta_calls(array, TA_DESTROY), 1, "destroy calls", "1", "CHECK_INT_EQ", file,
                  line);
    check_int_eq_(ta_live(), live, "ta_live()", "live", "CHECK_INT_EQ", file, line);
    mts_labels_free(labels);
}

static void check_invalid_names_(const char *const *names, uintptr_t count, const char *message,
                                 int line) {
    static const int32_t values[] = {1, 2, 3, 4};
    for (int unique = 0; unique < 2; unique++) {
        check_refused_(unique, names, count, ta_new_i32(values, 1, count), message, 0,
                       "metatensor-core", __FILE__, line);
    }
}
#define CHECK_INVALID_NAMES(names, message) \
    check_invalid_names_((names), ARRAY_SIZE(names), (message), __LINE__)

/* `labels` have one dimension, named `name`: 2 or 3 checks */
static void check_single_name(const mts_labels_t *labels, const char *name) {
    const char *const *got = NULL;
    uintptr_t count = 0;
    CHECK_STATUS(mts_labels_dimensions(labels, &got, &count), MTS_SUCCESS);
    CHECK_INT_EQ(count, 1);
    if (got != NULL && count == 1) {
        CHECK_STR_EQ(got[0], name);
    }
}

static void test_names(void) {
    static const int32_t values[] = {7, 8, 9};
    const char *valid[] = {"_", "_1", "a", "A_b9", "abcdefghijklmnopqrstuvwxyz_0123456789"};
    for (size_t i = 0; i < ARRAY_SIZE(valid); i++) {
        const char *names[] = {valid[i]};
        for (int unique = 0; unique < 2; unique++) {
            const mts_labels_t *labels = new_labels(unique, names, 1, ta_new_i32(values, 1, 1));
            CHECK(labels != NULL);
            check_single_name(labels, valid[i]);
            mts_labels_free(labels);
        }
    }

    const char *n1[] = {"1a"};
    CHECK_INVALID_NAMES(n1, "invalid parameter: '1a' is not a valid label name");
    const char *n2[] = {"a-b"};
    CHECK_INVALID_NAMES(n2, "invalid parameter: 'a-b' is not a valid label name");
    const char *n3[] = {"a b"};
    CHECK_INVALID_NAMES(n3, "invalid parameter: 'a b' is not a valid label name");
    const char *n4[] = {""};
    CHECK_INVALID_NAMES(n4, "invalid parameter: '' is not a valid label name");
    const char *n5[] = {"\xc3\xa9t\xc3\xa9"}; /* "été" */
    CHECK_INVALID_NAMES(n5, "invalid parameter: '\xc3\xa9t\xc3\xa9' is not a valid label name");
    const char *n6[] = {"a", "9"};
    CHECK_INVALID_NAMES(n6, "invalid parameter: '9' is not a valid label name");
    const char *n7[] = {"a.b", "c"};
    CHECK_INVALID_NAMES(n7, "invalid parameter: 'a.b' is not a valid label name");

    /* names are validated in order, before duplicates are looked for */
    const char *n8[] = {"a", "a", "1x"};
    CHECK_INVALID_NAMES(n8, "invalid parameter: '1x' is not a valid label name");

    /* duplicates: the first one in (i, j) order is reported */
    const char *d1[] = {"a", "b", "a"};
    CHECK_INVALID_NAMES(d1, "invalid parameter: label dimensions must be unique, got 'a' "
                            "multiple times");
    const char *d2[] = {"a", "b", "b", "a"};
    CHECK_INVALID_NAMES(d2, "invalid parameter: label dimensions must be unique, got 'a' "
                            "multiple times");
    const char *d3[] = {"x", "b", "b"};
    CHECK_INVALID_NAMES(d3, "invalid parameter: label dimensions must be unique, got 'b' "
                            "multiple times");

    /* a NULL names pointer with a non-zero count; the array is consumed */
    for (int unique = 0; unique < 2; unique++) {
        check_refused_(unique, NULL, 2, ta_new_i32(values, 1, 2),
                       "invalid parameter: names can not be NULL", 0, NULL, __FILE__, __LINE__);
    }

    /* invalid UTF-8 in a name is a panic (255) */
    for (int unique = 0; unique < 2; unique++) {
        const char *names[] = {"a", "\xff\xfe"};
        check_refused_(unique, names, 2, ta_new_i32(values, 1, 2), INTERNAL_PREFIX, 1,
                       "metatensor-core", __FILE__, __LINE__);
    }
}

/* ------------------------------------------------------------------------ */
/* shapes and dtypes                                                        */

static void check_bad_shape_(const uintptr_t *shape, uintptr_t ndim, uintptr_t names_count,
                             int line) {
    static const char *const names[] = {"a", "b", "c"};
    for (int unique = 0; unique < 2; unique++) {
        struct test_array *array = ta_new(TA_INT32, shape, ndim, NULL);
        check_refused_(unique, names, names_count, array, INTERNAL_PREFIX, 1, NULL, __FILE__,
                       line);
        check_int_eq_(ta_calls(array, TA_AS_DLPACK), 0, "as_dlpack calls", "0", "CHECK_INT_EQ",
                      __FILE__, line);
    }
}
#define CHECK_BAD_SHAPE(shape, names_count) \
    check_bad_shape_((shape), ARRAY_SIZE(shape), (names_count), __LINE__)

/* Names read in Go (a set operation makes the labels in Go): each as given, short ones
 * repeated and prefixes of each other, and long ones, around 64 bytes */
static void test_names_read_in_go(void) {
    static const int32_t values[] = {7};
    char long_names[3][101];
    const size_t long_lengths[3] = {64, 65, 100};
    for (size_t i = 0; i < 3; i++) {
        memset(long_names[i], 'n', long_lengths[i]);
        long_names[i][long_lengths[i]] = '\0';
    }
    const char *given[] = {"ab", "abc", "ab", "a", "abc", long_names[0], long_names[1], long_names[2],
                           long_names[0]};
    for (size_t i = 0; i < ARRAY_SIZE(given); i++) {
        const char *names[] = {given[i]};
        for (int unique = 0; unique < 2; unique++) {
            const mts_labels_t *labels = new_labels(unique, names, 1, ta_new_i32(values, 1, 1));
            CHECK(labels != NULL);
            const mts_labels_t *result = NULL;
            CHECK_STATUS(mts_labels_union(labels, labels, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
            check_single_name(result, given[i]);
            mts_labels_free(result);
            mts_labels_free(labels);
        }
    }
}

static void test_shapes(void) {
    /* zero names: the array must have no elements; it is destroyed at once
     * and replaced by the library's own [0, 0] array */
    static const uintptr_t empty_shapes[][2] = {{0, 0}, {3, 0}, {0, 4}};
    for (size_t i = 0; i < ARRAY_SIZE(empty_shapes); i++) {
        for (int unique = 0; unique < 2; unique++) {
            long live = ta_live();
            struct test_array *array = ta_new(TA_INT32, empty_shapes[i], 2, NULL);
            const mts_labels_t *labels = new_labels(unique, NULL, 0, array);
            CHECK(labels != NULL);
            CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
            CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
            CHECK_INT_EQ(ta_live(), live);
            CHECK_VALUES(labels, NULL, 0, 0);

            mts_array_t values;
            memset(&values, 0, sizeof(values));
            CHECK_STATUS(mts_labels_values(labels, &values), MTS_SUCCESS);
            CHECK(values.ptr != array);
            CHECK(ta_cast(values.ptr) == NULL);
            CHECK(values.destroy == NULL);
            const uintptr_t *shape = NULL;
            uintptr_t ndim = 0;
            if (values.shape != NULL) {
                CHECK_STATUS(values.shape(values.ptr, &shape, &ndim), MTS_SUCCESS);
                CHECK_INT_EQ(ndim, 2);
                if (ndim == 2) {
                    CHECK_INT_EQ(shape[0], 0);
                    CHECK_INT_EQ(shape[1], 0);
                }
            }
            mts_labels_free(labels);
        }
    }

    /* zero names with elements: a panic */
    static const uintptr_t full[] = {2, 1};
    CHECK_BAD_SHAPE(full, 0);
    /* not 2-D */
    static const uintptr_t one_d[] = {2};
    CHECK_BAD_SHAPE(one_d, 1);

    /* 3-D with the right width: not refused by the construction checks.
     * mts_labels fails when it checks the shape of the exported tensor;
     * assume_unique accepts it, and the first use of the values fails */
    static const uintptr_t three_d[] = {2, 1, 1};
    static const int32_t three_d_values[] = {1, 2};
    long live = ta_live();
    struct test_array *array = ta_new(TA_INT32, three_d, 3, three_d_values);
    set_stale_error();
    CHECK(mts_labels(NAMES_A, 1, ta_mts(array)) == NULL);
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "assertion `left == right` failed: unexpected "
                                 "shape for labels array\n  left: [2, 1, 1]\n right: [2, 1]");
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(array->dlpack_live, 0);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);

    array = ta_new(TA_INT32, three_d, 3, three_d_values);
    const mts_labels_t *labels = mts_labels_assume_unique(NAMES_A, 1, ta_mts(array));
    CHECK(labels != NULL);
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    set_stale_error();
    CHECK_STATUS(mts_labels_values_cpu(labels, &values, &count, &size), MTS_INTERNAL_ERROR);
    CHECK_STR_PREFIX(last_message(), INTERNAL_PREFIX "assertion `left == right` failed: "
                                     "unexpected shape for labels array");
    CHECK_INT_EQ(array->dlpack_live, 0);
    mts_labels_free(labels);
    CHECK_INT_EQ(ta_live(), live);
    /* width different from the names count */
    static const uintptr_t wide[] = {2, 3};
    CHECK_BAD_SHAPE(wide, 2);
    static const uintptr_t narrow[] = {2, 1};
    CHECK_BAD_SHAPE(narrow, 2);
    static const uintptr_t empty_wide[] = {0, 3};
    CHECK_BAD_SHAPE(empty_wide, 2);

    /* a float64 array: the values can not be read as i32. mts_labels fails
     * at once; assume_unique only when the values are first needed */
    static const double doubles[] = {0.0, 1.0, 2.0, 3.0};
    static const uintptr_t shape[] = {2, 2};
    array = ta_new(TA_FLOAT64, shape, 2, doubles);
    set_stale_error();
    CHECK(mts_labels(NAMES_AB, 2, ta_mts(array)) == NULL);
    CHECK_STR_PREFIX(last_message(),
                     "invalid parameter: failed to cast pointer to i32 for Labels values: ");
    CHECK_INT_EQ(ta_calls(array, TA_DTYPE), 0);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);

    array = ta_new(TA_FLOAT64, shape, 2, doubles);
    labels = mts_labels_assume_unique(NAMES_AB, 2, ta_mts(array));
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    set_stale_error();
    CHECK_STATUS(mts_labels_values_cpu(labels, &values, &count, &size),
                 MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(),
                     "invalid parameter: failed to cast pointer to i32 for Labels values: ");
    int32_t entry[2] = {0, 1};
    int64_t position = -42;
    set_stale_error();
    CHECK_STATUS(mts_labels_position(labels, entry, 2, &position), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(),
                     "invalid parameter: failed to cast pointer to i32 for Labels values: ");
    CHECK_INT_EQ(position, -42);
    CHECK_INT_EQ(ta_calls(array, TA_DTYPE), 0);
    CHECK_INT_EQ(array->dlpack_live, 0);
    mts_labels_free(labels);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* duplicated entries                                                       */

static void check_duplicates_(const int32_t *values, uintptr_t count, const char *message,
                              int line) {
    long live = ta_live();
    struct test_array *array = ta_new_i32(values, count, 2);
    set_stale_error();
    const mts_labels_t *labels = mts_labels(NAMES_AB, 2, ta_mts(array));
    check_null_result_(labels, message, __FILE__, line);
    check_int_eq_(ta_calls(array, TA_DESTROY), 1, "destroy calls", "1", "CHECK_INT_EQ", __FILE__,
                  line);
    check_int_eq_(array->dlpack_live, 0, "dlpack_live", "0", "CHECK_INT_EQ", __FILE__, line);
    check_int_eq_(ta_live(), live, "ta_live()", "live", "CHECK_INT_EQ", __FILE__, line);
    mts_labels_free(labels);
}
#define CHECK_DUPLICATES(values, message) \
    check_duplicates_((values), ARRAY_SIZE(values) / 2, (message), __LINE__)

#define DUPLICATE_PREFIX "invalid parameter: can not have the same label entry multiple times: "

static void test_duplicate_entries(void) {
    /* in the sorted prefix */
    static const int32_t v1[] = {0, 1, 1, 2, 1, 2};
    CHECK_DUPLICATES(v1, DUPLICATE_PREFIX "[1, 2] is already present");
    /* found after sorting: the smallest duplicated row */
    static const int32_t v2[] = {3, 3, 1, 1, 3, 3, 1, 1};
    CHECK_DUPLICATES(v2, DUPLICATE_PREFIX "[1, 1] is already present");
    static const int32_t v3[] = {9, 9, 4, 4, 8, 8, 4, 4, 9, 9};
    CHECK_DUPLICATES(v3, DUPLICATE_PREFIX "[4, 4] is already present");
    /* a duplicate in the sorted prefix wins over a smaller one later */
    static const int32_t v4[] = {0, 0, 5, 5, 5, 5, 1, 1, 1, 1};
    CHECK_DUPLICATES(v4, DUPLICATE_PREFIX "[5, 5] is already present");
    /* signed comparison */
    static const int32_t v5[] = {-1, 0, -1, 0};
    CHECK_DUPLICATES(v5, DUPLICATE_PREFIX "[-1, 0] is already present");
    static const int32_t v6[] = {1, -5, -3, 2, 1, -5};
    CHECK_DUPLICATES(v6, DUPLICATE_PREFIX "[1, -5] is already present");

    /* unsorted unique entries and negative values are fine */
    static const int32_t ok[] = {5, 1, -3, 2, 5, 0, 0, 0, -2147483647 - 1, 2147483647};
    struct test_array *array = NULL;
    const mts_labels_t *labels = labels_cpu(NAMES_AB, 2, ok, 5, &array);
    CHECK(labels != NULL);
    CHECK_VALUES(labels, ok, 5, 2);
    CHECK_INT_EQ(position_of(labels, -2147483647 - 1, 2147483647), 4);
    CHECK_INT_EQ(position_of(labels, 5, 0), 2);
    mts_labels_free(labels);

    /* one column */
    static const int32_t col[] = {3, 1, 2, 1};
    struct test_array *single = ta_new_i32(col, 4, 1);
    set_stale_error();
    CHECK(mts_labels(NAMES_A, 1, ta_mts(single)) == NULL);
    CHECK_STR_EQ(last_message(), DUPLICATE_PREFIX "[1] is already present");

    /* assume_unique does not look */
    static const int32_t dup[] = {1, 1, 1, 1};
    labels = unique_labels_on(NAMES_AB, 2, dup, 2, TA_CPU, &array);
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    mts_labels_free(labels);
}

/* ------------------------------------------------------------------------ */
/* small checked labels (which our library makes in C while the             */
/* "metatensor.Labels" origin was never asked, see test_labels_origin_unasked.c) */

/* checked labels ask their array's origin once the "metatensor.Labels" origin
 * was asked (test_origin_fast_path) */
#ifdef MTS_TEST_ORIGIN_UNASKED
#define ORIGIN_CALLS 0
#else
#define ORIGIN_CALLS 1
#endif

static void test_small_checked_labels(void) {
    static const int32_t unsorted[] = {3, 1, 0, 2, 3, 0, -1, 7};
    struct test_array *array = NULL;

    /* made, cloned and freed without any use: the array is asked its shape,
     * device and export once each; the export is deleted and the array
     * destroyed once, by the last free */
    const mts_labels_t *labels = labels_cpu(NAMES_AB, 2, unsorted, 4, &array);
    CHECK(labels != NULL);
#ifdef MTS_TEST_REFERENCE
    CHECK_INT_EQ(ta_calls(array, TA_SHAPE), 2); /* the reference asks twice, we once */
#else
    CHECK_INT_EQ(ta_calls(array, TA_SHAPE), 1);
#endif
    CHECK_INT_EQ(ta_calls(array, TA_DEVICE), 1);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(ta_calls(array, TA_DTYPE), 0);
    CHECK_INT_EQ(ta_calls(array, TA_ORIGIN), ORIGIN_CALLS);
    CHECK_INT_EQ(array->dlpack_live, KEPT_EXPORTS);
    const mts_labels_t *clone = mts_labels_clone(labels);
    CHECK_STATUS(mts_labels_free(labels), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);
    CHECK_INT_EQ(array->dlpack_live, KEPT_EXPORTS);
    CHECK_STATUS(mts_labels_free(clone), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(array->dlpack_live, 0);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);

    /* unsorted entries: values_cpu first (zero-copy for us), then lookups,
     * which make the labels in Go for us: the same values, not asked again */
    labels = labels_cpu(NAMES_AB, 2, unsorted, 4, &array);
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    CHECK_STATUS(mts_labels_values_cpu(labels, &values, &count, &size), MTS_SUCCESS);
    CHECK(count == 4 && size == 2);
#ifdef MTS_TEST_REFERENCE
    CHECK(values != (const int32_t *)array->data);
#else
    CHECK(values == (const int32_t *)array->data);
#endif
    CHECK_VALUES(labels, unsorted, 4, 2);
    for (int32_t i = 0; i < 4; i++) {
        CHECK_INT_EQ(position_of(labels, unsorted[2 * i], unsorted[2 * i + 1]), i);
    }
    CHECK_INT_EQ(position_of(labels, 3, 3), -1);
    const int32_t *again = NULL;
    CHECK_STATUS(mts_labels_values_cpu(labels, &again, &count, &size), MTS_SUCCESS);
    CHECK(again == values);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(ta_calls(array, TA_DEVICE), 1);
    CHECK_INT_EQ(array->dlpack_live, KEPT_EXPORTS);
    mts_labels_free(labels);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(array->dlpack_live, 0);

    /* lookups first, then values_cpu */
    labels = labels_cpu(NAMES_AB, 2, unsorted, 4, &array);
    CHECK_INT_EQ(position_of(labels, -1, 7), 3);
    CHECK_VALUES(labels, unsorted, 4, 2);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    mts_labels_free(labels);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(array->dlpack_live, 0);

    /* a set operation on small checked labels, sorted and not */
    static const int32_t sorted[] = {-1, 7, 0, 2, 5, 5};
    struct test_array *other = NULL;
    labels = labels_cpu(NAMES_AB, 2, unsorted, 4, &array);
    const mts_labels_t *second = labels_cpu(NAMES_AB, 2, sorted, 3, &other);
    const mts_labels_t *result = NULL;
    int64_t first_mapping[4] = {0}, second_mapping[3] = {0};
    CHECK_STATUS(mts_labels_union(labels, second, &result, first_mapping, 4, second_mapping, 3),
                 MTS_SUCCESS);
    static const int32_t union_values[] = {3, 1, 0, 2, 3, 0, -1, 7, 5, 5};
    CHECK_VALUES(result, union_values, 5, 2);
    static const int64_t expected_second[] = {3, 1, 4};
    CHECK_MAPPING(second_mapping, expected_second, 3);
    FREE_LABELS(result, second, labels);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(ta_calls(other, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(array->dlpack_live, 0);
    CHECK_INT_EQ(other->dlpack_live, 0);

    /* 64 and 65 entries (we check up to 64 in C): unique ones are fine,
     * duplicates give the same error, in the increasing prefix or after it */
    for (uintptr_t n = 64; n <= 65; n++) {
        int32_t column[65];
        for (uintptr_t i = 0; i < n; i++) {
            column[i] = 1000 - (int32_t)i;
        }
        labels = labels_cpu(NAMES_A, 1, column, n, &array);
        CHECK(labels != NULL);
        int64_t position = -2;
        CHECK_STATUS(mts_labels_position(labels, &column[n / 2], 1, &position), MTS_SUCCESS);
        CHECK_INT_EQ(position, (int64_t)(n / 2));
        mts_labels_free(labels);
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
        CHECK_INT_EQ(array->dlpack_live, 0);

        /* the last entry repeats one in the middle */
        column[n - 1] = column[n / 2];
        array = ta_new_i32(column, n, 1);
        set_stale_error();
        CHECK(mts_labels(NAMES_A, 1, ta_mts(array)) == NULL);
        char message[128];
        snprintf(message, sizeof(message), DUPLICATE_PREFIX "[%d] is already present",
                 (int)column[n / 2]);
        CHECK_STR_EQ(last_message(), message);
        CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
        CHECK_INT_EQ(array->dlpack_live, 0);

        /* increasing entries, the last two equal */
        for (uintptr_t i = 0; i < n; i++) {
            column[i] = (int32_t)i - 10;
        }
        column[n - 1] = column[n - 2];
        array = ta_new_i32(column, n, 1);
        set_stale_error();
        CHECK(mts_labels(NAMES_A, 1, ta_mts(array)) == NULL);
        snprintf(message, sizeof(message), DUPLICATE_PREFIX "[%d] is already present",
                 (int)column[n - 1]);
        CHECK_STR_EQ(last_message(), message);
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
        CHECK_INT_EQ(array->dlpack_live, 0);
    }

    /* no entries: the array is asked its shape, nothing else */
    labels = labels_cpu(NAMES_AB, 2, NULL, 0, &array);
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_DEVICE), 0);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    CHECK_STATUS(mts_labels_values_cpu(labels, &values, &count, &size), MTS_SUCCESS);
    CHECK(values != NULL && count == 0 && size == 2);
    CHECK_INT_EQ(position_of(labels, 0, 0), -1);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    mts_labels_free(labels);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
}

/* ------------------------------------------------------------------------ */
/* mts_labels_assume_unique reads nothing at construction                   */

static void test_assume_unique_is_lazy(void) {
    static const int32_t values[] = {2, 3, 0, 1, 1, 2};
    struct test_array *array = NULL;
    const mts_labels_t *labels = unique_labels_on(NAMES_AB, 2, values, 3, TA_CPU, &array);
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    CHECK_INT_EQ(ta_calls(array, TA_DTYPE), 0);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);

    /* dimensions, values and clone do not need the values */
    const char *const *names = NULL;
    uintptr_t count = 0;
    CHECK_STATUS(mts_labels_dimensions(labels, &names, &count), MTS_SUCCESS);
    mts_array_t view;
    memset(&view, 0, sizeof(view));
    CHECK_STATUS(mts_labels_values(labels, &view), MTS_SUCCESS);
    const mts_labels_t *clone = mts_labels_clone(labels);
    CHECK(clone == labels);
    mts_labels_free(clone);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);

    /* position builds the CPU values once, with CPU:0, no stream and 1.3 */
    CHECK_INT_EQ(position_of(labels, 1, 2), 2);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(array->last_dlpack_device.device_type, kDLCPU);
    CHECK_INT_EQ(array->last_dlpack_device.device_id, 0);
    CHECK(array->last_dlpack_stream_null);
    CHECK_INT_EQ(array->last_dlpack_version.major, 1);
    CHECK_INT_EQ(array->last_dlpack_version.minor, 3);
    CHECK_INT_EQ(array->dlpack_live, KEPT_EXPORTS);
    CHECK_INT_EQ(position_of(labels, 2, 3), 0);
    CHECK_INT_EQ(position_of(labels, 3, 2), -1);
    CHECK_VALUES(labels, values, 3, 2);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    mts_labels_free(labels);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);

    /* labels only made, cloned and freed: the array is asked its shape once and destroyed
     * once, by the last free */
    labels = unique_labels_on(NAMES_AB, 2, values, 3, TA_CPU, &array);
    clone = mts_labels_clone(labels);
    CHECK_STATUS(mts_labels_free(labels), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);
    CHECK_STATUS(mts_labels_free(clone), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_SHAPE), 1);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);

    /* values_cpu first */
    labels = unique_labels_on(NAMES_AB, 2, values, 3, TA_CPU, &array);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    CHECK_VALUES(labels, values, 3, 2);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(position_of(labels, 0, 1), 1);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    mts_labels_free(labels);

    /* mts_labels reads the values at once, and only once */
    labels = labels_cpu(NAMES_AB, 2, values, 3, &array);
    CHECK(labels != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(array->dlpack_live, KEPT_EXPORTS);
    CHECK(array->last_dlpack_stream_null);
    CHECK_INT_EQ(array->last_dlpack_version.major, 1);
    CHECK_INT_EQ(array->last_dlpack_version.minor, 3);
    CHECK_VALUES(labels, values, 3, 2);
    CHECK_INT_EQ(position_of(labels, 0, 1), 1);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(ta_calls(array, TA_DTYPE), 0);
    mts_labels_free(labels);

    /* select and set operations build the values of assume_unique labels */
    struct test_array *other = NULL;
    labels = unique_labels_on(NAMES_AB, 2, values, 3, TA_CPU, &array);
    const mts_labels_t *second = unique_labels_on(NAMES_AB, 2, values, 1, TA_CPU, &other);
    uint64_t selected[3] = {0, 0, 0};
    uintptr_t selected_count = 3;
    CHECK_STATUS(mts_labels_select(labels, second, selected, &selected_count), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(ta_calls(other, TA_AS_DLPACK), 1);
    mts_labels_free(labels);
    mts_labels_free(second);

    labels = unique_labels_on(NAMES_AB, 2, values, 3, TA_CPU, &array);
    second = unique_labels_on(NAMES_AB, 2, values, 1, TA_CPU, &other);
    const mts_labels_t *result = NULL;
    CHECK_STATUS(mts_labels_union(labels, second, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(ta_calls(other, TA_AS_DLPACK), 1);
    CHECK_VALUES(result, values, 3, 2);
    FREE_LABELS(result, labels, second);
}

/* ------------------------------------------------------------------------ */
/* accessors                                                                */

static void test_dimensions(void) {
    static const char *const names[] = {"first", "second", "_third"};
    static const int32_t values[] = {1, 2, 3};
    struct test_array *array = NULL;
    const mts_labels_t *labels = labels_cpu(names, 3, values, 1, &array);
    CHECK(labels != NULL);

    const char *const *got = NULL;
    uintptr_t count = 0;
    CHECK_STATUS(mts_labels_dimensions(labels, &got, &count), MTS_SUCCESS);
    CHECK_INT_EQ(count, 3);
    CHECK(got != NULL);
    if (got != NULL && count == 3) {
        CHECK_STR_EQ(got[0], "first");
        CHECK_STR_EQ(got[1], "second");
        CHECK_STR_EQ(got[2], "_third");
        /* the names are the library's copies */
        CHECK(got[0] != names[0]);
        CHECK(got != (const char *const *)names);
    }
    /* stable while the labels live */
    const char *const *again = NULL;
    CHECK_STATUS(mts_labels_dimensions(labels, &again, &count), MTS_SUCCESS);
    CHECK(again == got);
    mts_labels_free(labels);

    /* zero dimensions */
    labels = zero_dimension_labels();
    CHECK(labels != NULL);
    got = (const char *const *)&count; /* not NULL */
    count = 42;
    CHECK_STATUS(mts_labels_dimensions(labels, &got, &count), MTS_SUCCESS);
    CHECK(got == NULL);
    CHECK_INT_EQ(count, 0);
    mts_labels_free(labels);

    /* NULL out-pointers */
    labels = labels_cpu(NAMES_A, 1, values, 1, NULL);
    CHECK_STATUS(mts_labels_dimensions(labels, NULL, &count), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for names");
    CHECK_STATUS(mts_labels_dimensions(labels, &got, NULL), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for count");
    mts_labels_free(labels);
}

static void test_values(void) {
    static const int32_t values[] = {1, 2, 3, 4};
    for (int unique = 0; unique < 2; unique++) {
        struct test_array *array = NULL;
        const mts_labels_t *labels = any_labels_on(unique, NAMES_AB, 2, values, 2, TA_CPU, &array);
        CHECK(labels != NULL);

        mts_array_t got;
        memset(&got, 0, sizeof(got));
        CHECK_STATUS(mts_labels_values(labels, &got), MTS_SUCCESS);
        /* the very array passed in, as a non-owning view */
        CHECK_VIEW_OF(got, array);

        /* the view has a NULL destroy, so it can be passed again */
        CHECK_STATUS(mts_labels_values(labels, &got), MTS_SUCCESS);
        CHECK(got.ptr == array);
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);

        /* an owning array already in the out-parameter is destroyed before
         * it is overwritten (not documented in the header) */
        struct test_array *previous = ta_new_i32(values, 1, 1);
        mts_array_t again = ta_mts(previous);
        mts_array_t kept = again;
        CHECK_STATUS(mts_labels_values(labels, &again), MTS_SUCCESS);
        CHECK(again.ptr == array);
        CHECK(again.destroy == NULL);
#ifdef MTS_TEST_REFERENCE
        CHECK_INT_EQ(ta_calls(previous, TA_DESTROY), 1);
        (void)kept;
#else
        /* ours only writes the out-parameter: the caller still owns it */
        CHECK_INT_EQ(ta_calls(previous, TA_DESTROY), 0);
        kept.destroy(kept.ptr);
#endif
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);

        /* ... but not when the call fails early */
        previous = ta_new_i32(values, 1, 1);
        again = ta_mts(previous);
        CHECK_STATUS(mts_labels_values(NULL, &again), MTS_INVALID_PARAMETER_ERROR);
        CHECK(again.ptr == previous);
        CHECK_INT_EQ(ta_calls(previous, TA_DESTROY), 0);
        ta_destroy(previous);

        mts_labels_free(labels);
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    }

    /* members the user left NULL stay NULL */
    struct test_array *array = ta_new_i32(values, 2, 2);
    mts_array_t partial = ta_mts(array);
    partial.reshape = NULL;
    partial.swap_axes = NULL;
    partial.create = NULL;
    partial.move_data = NULL;
    const mts_labels_t *labels = mts_labels(NAMES_AB, 2, partial);
    CHECK(labels != NULL);
    mts_array_t got;
    memset(&got, 0, sizeof(got));
    CHECK_STATUS(mts_labels_values(labels, &got), MTS_SUCCESS);
    CHECK(got.ptr == array);
    CHECK(got.reshape == NULL);
    CHECK(got.create == NULL);
    CHECK(got.copy == ta_copy);
    mts_labels_free(labels);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);

    /* an array with a NULL destroy is never destroyed */
    array = ta_new_i32(values, 2, 2);
    mts_array_t no_destroy = ta_mts(array);
    no_destroy.destroy = NULL;
    labels = mts_labels(NAMES_AB, 2, no_destroy);
    CHECK(labels != NULL);
    mts_labels_free(labels);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);
    ta_destroy(array);
}

static void test_values_cpu(void) {
    static const int32_t values[] = {1, 2, 3, 4, 5, 6};
    static const enum ta_layout layouts[] = {
        TA_LAYOUT_NULL_STRIDES,       TA_LAYOUT_C_STRIDES, TA_LAYOUT_NULL_STRIDES_OFFSET,
        TA_LAYOUT_FORTRAN,            TA_LAYOUT_STRIDED_OFFSET,
    };
    /* every layout, for 3x2, 1x2, 2x1 and 1x1 arrays */
    static const uintptr_t shapes[][2] = {{3, 2}, {1, 2}, {2, 1}, {1, 1}, {6, 1}, {1, 6}};
    static const char *const names6[] = {"a", "b", "c", "d", "e", "f"};
    for (size_t l = 0; l < ARRAY_SIZE(layouts); l++) {
        for (size_t s = 0; s < ARRAY_SIZE(shapes); s++) {
            for (int unique = 0; unique < 2; unique++) {
                uintptr_t count = shapes[s][0], size = shapes[s][1];
                struct test_array *array = ta_new_i32(values, count, size);
                array->layout = layouts[l];
                const mts_labels_t *labels = new_labels(unique, names6, size, array);
                if (labels == NULL) {
                    fprintf(stderr, "layout %d, shape %zux%zu\n", (int)layouts[l], (size_t)count,
                            (size_t)size);
                }
                CHECK(labels != NULL);
                CHECK_VALUES(labels, values, count, size);
                /* ours keeps contiguous exports, copies the others */
                CHECK(array->dlpack_live >= 0 && array->dlpack_live <= KEPT_EXPORTS);
                mts_labels_free(labels);
                CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
            }
        }
    }

    struct test_array *array = NULL;
    const mts_labels_t *labels = labels_cpu(NAMES_AB, 2, values, 3, &array);
    const int32_t *first = NULL, *second = NULL;
    uintptr_t count = 0, size = 0;
    CHECK_STATUS(mts_labels_values_cpu(labels, &first, &count, &size), MTS_SUCCESS);
    CHECK_STATUS(mts_labels_values_cpu(labels, &second, &count, &size), MTS_SUCCESS);
    CHECK(first == second);
#ifdef MTS_TEST_REFERENCE
    /* the same buffer every time, not the user's memory */
    CHECK(first != (const int32_t *)array->data);
#else
    /* zero-copy: the user's own memory */
    CHECK(first == (const int32_t *)array->data);
#endif
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);

    /* NULL out-pointers */
    CHECK_STATUS(mts_labels_values_cpu(labels, NULL, &count, &size), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for values");
    CHECK_STATUS(mts_labels_values_cpu(labels, &first, NULL, &size), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for count");
    CHECK_STATUS(mts_labels_values_cpu(labels, &first, &count, NULL), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for size");
    mts_labels_free(labels);
}

static void test_position(void) {
    static const int32_t values[] = {0, 1, 1, 2, -3, 4, 2, 3};
    for (int unique = 0; unique < 2; unique++) {
        const mts_labels_t *labels = unique
                                         ? unique_labels_on(NAMES_AB, 2, values, 4, TA_CPU, NULL)
                                         : labels_cpu(NAMES_AB, 2, values, 4, NULL);
        CHECK(labels != NULL);
        CHECK_INT_EQ(position_of(labels, 0, 1), 0);
        CHECK_INT_EQ(position_of(labels, 1, 2), 1);
        CHECK_INT_EQ(position_of(labels, -3, 4), 2);
        CHECK_INT_EQ(position_of(labels, 2, 3), 3);
        CHECK_INT_EQ(position_of(labels, 1, 0), -1);
        CHECK_INT_EQ(position_of(labels, 3, 4), -1);

        int32_t entry[3] = {0, 1, 0};
        int64_t position = -42;
        CHECK_ERROR(mts_labels_position(labels, entry, 3, &position),
                    MTS_INVALID_PARAMETER_ERROR,
                    "invalid parameter: expected label of size 2 in mts_labels_position, got "
                    "size 3");
        CHECK_ERROR(mts_labels_position(labels, entry, 1, &position),
                    MTS_INVALID_PARAMETER_ERROR,
                    "invalid parameter: expected label of size 2 in mts_labels_position, got "
                    "size 1");
        CHECK_ERROR(mts_labels_position(labels, entry, 0, &position),
                    MTS_INVALID_PARAMETER_ERROR,
                    "invalid parameter: expected label of size 2 in mts_labels_position, got "
                    "size 0");
        CHECK_INT_EQ(position, -42);

        CHECK_STATUS(mts_labels_position(labels, NULL, 2, &position),
                     MTS_INVALID_PARAMETER_ERROR);
        CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for values");
        CHECK_STATUS(mts_labels_position(labels, entry, 2, NULL), MTS_INVALID_PARAMETER_ERROR);
        CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for result");
        mts_labels_free(labels);
    }

    /* empty labels: never found */
    const mts_labels_t *empty = labels_cpu(NAMES_AB, 2, NULL, 0, NULL);
    CHECK(empty != NULL);
    CHECK_INT_EQ(position_of(empty, 0, 0), -1);
    mts_labels_free(empty);

    /* zero dimensions: a panic */
    const mts_labels_t *zero = zero_dimension_labels();
    int64_t position = -42;
    int32_t entry[1] = {0};
    set_stale_error();
    CHECK_STATUS(mts_labels_position(zero, entry, 0, &position), MTS_INTERNAL_ERROR);
    CHECK_STR_PREFIX(last_message(), INTERNAL_PREFIX);
    CHECK_ERROR(mts_labels_position(zero, entry, 1, &position), MTS_INVALID_PARAMETER_ERROR,
                "invalid parameter: expected label of size 0 in mts_labels_position, got size 1");
    mts_labels_free(zero);
}

/* Row i of `count` distinct rows of `width` values: a value per digit of i in base 7,
 * spread over the whole int32 range (the extremes included), then i itself. */
static void distinct_row(int32_t *row, uintptr_t width, int32_t i) {
    static const int32_t digits[7] = {-2147483647 - 1, -70000, -1, 0, 3, 65536, 2147483647};
    int32_t rest = i;
    for (uintptr_t k = 0; k + 1 < width; k++) {
        row[k] = digits[rest % 7];
        rest /= 7;
    }
    row[width - 1] = width == 1 ? i * 7919 - 3000000 : i;
}

/* Looks every row of `rows` up in labels holding them in that order, three times (the
 * later lookups may take another path than the first), and rows that are not there. */
static void check_positions_(const mts_labels_t *labels, const int32_t *rows, uintptr_t count, uintptr_t width,
                             int line) {
    int failed = 0;
    int32_t missing[8];
    for (int repeat = 0; repeat < 3 && !failed; repeat++) {
        for (uintptr_t i = 0; i < count && !failed; i++) {
            int64_t position = -42;
            failed = mts_labels_position(labels, rows + i * width, width, &position) != MTS_SUCCESS ||
                     position != (int64_t)i;
            /* the row with one value changed to one no row has */
            memcpy(missing, rows + i * width, width * sizeof(int32_t));
            missing[i % width] = 12345;
            failed = failed || mts_labels_position(labels, missing, width, &position) != MTS_SUCCESS ||
                     position != -1;
        }
    }
    check_record_(!failed, __FILE__, line, "every row found at its position, and no missing row");
}
#define CHECK_POSITIONS(labels, rows, count, width) check_positions_(labels, rows, count, width, __LINE__)

/* Lookups in labels of 1 to 6 dimensions, of few and many entries, checked or assumed
 * unique, and made by the library (a union), whose rows are indexed in Go's memory. */
static void test_position_every_width(void) {
    static const char *const names[6] = {"a", "b", "c", "d", "e", "f"};
    enum { MANY = 3000 };
    int32_t *rows = malloc(MANY * 6 * sizeof(int32_t));
    CHECK(rows != NULL);
    for (uintptr_t width = 1; width <= 6 && rows != NULL; width++) {
        for (int32_t i = 0; i < MANY; i++) {
            distinct_row(rows + (uintptr_t)i * width, width, i);
        }
        const uintptr_t counts[2] = {20, MANY};
        for (int c = 0; c < 2; c++) {
            for (int unique = 0; unique < 2; unique++) {
                const mts_labels_t *labels = any_labels_on(unique, names, width, rows, counts[c], TA_CPU, NULL);
                CHECK(labels != NULL);
                CHECK_POSITIONS(labels, rows, counts[c], width);
                mts_labels_free(labels);
            }
        }
        /* the union of the first half and the last three quarters: every row, in order */
        const mts_labels_t *first = labels_cpu(names, width, rows, MANY / 2, NULL);
        const mts_labels_t *second = labels_cpu(names, width, rows + (MANY / 4) * width, MANY - MANY / 4, NULL);
        const mts_labels_t *both = NULL;
        CHECK_STATUS(mts_labels_union(first, second, &both, NULL, 0, NULL, 0), MTS_SUCCESS);
        CHECK(both != NULL);
        if (both != NULL) {
            CHECK_POSITIONS(both, rows, MANY, width);
            mts_labels_free(both);
        }
        mts_labels_free(first);
        mts_labels_free(second);
    }
    free(rows);
}

static void test_clone_and_free(void) {
    static const int32_t values[] = {0, 1, 1, 2};
    struct test_array *array = NULL;
    const mts_labels_t *labels = labels_cpu(NAMES_AB, 2, values, 2, &array);
    CHECK(labels != NULL);

    const mts_labels_t *clone = mts_labels_clone(labels);
    CHECK(clone == labels);
    const mts_labels_t *clone2 = mts_labels_clone(clone);
    CHECK(clone2 == labels);

    CHECK_STATUS(mts_labels_free(labels), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);
    CHECK_VALUES(clone, values, 2, 2);
    CHECK_STATUS(mts_labels_free(clone), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);
    CHECK_INT_EQ(position_of(clone2, 1, 2), 1);
    CHECK_STATUS(mts_labels_free(clone2), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);

    /* freeing NULL is fine, and sets no error */
    mts_set_last_error("untouched", "test", NULL, NULL);
    CHECK_STATUS(mts_labels_free(NULL), MTS_SUCCESS);
    CHECK_STR_EQ(last_message(), "untouched");

    /* cloning NULL */
    CHECK(mts_labels_clone(NULL) == NULL);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for labels");

    /* clone of zero-dimension labels */
    const mts_labels_t *zero = zero_dimension_labels();
    clone = mts_labels_clone(zero);
    CHECK(clone == zero);
    mts_labels_free(zero);
    mts_labels_free(clone);
}

/* ------------------------------------------------------------------------ */
/* set operations                                                           */

/* the result of a set operation on CPU labels was made by first.from_dlpack */
static void check_made_like_(const mts_labels_t *result, struct test_array *first, DLDevice device,
                             int line) {
    struct test_array *array = values_array(result);
    check_record_(array != NULL, __FILE__, line, "result values are a test array");
    if (array == NULL) {
        return;
    }
    if (device.device_type == kDLCPU) {
        check_int_eq_(array->created_by, TA_FROM_DLPACK, "created_by", "TA_FROM_DLPACK",
                      "CHECK_INT_EQ", __FILE__, line);
        check_record_(array->created_from == first, __FILE__, line, "created_from == first");
    } else {
        check_int_eq_(array->created_by, TA_COPY, "created_by", "TA_COPY", "CHECK_INT_EQ",
                      __FILE__, line);
        struct test_array *intermediate = array->created_from;
        check_record_(intermediate != NULL && intermediate->created_by == TA_FROM_DLPACK &&
                          intermediate->created_from == first,
                      __FILE__, line, "copy of first.from_dlpack");
        if (intermediate != NULL) {
            check_int_eq_(atomic_load(&intermediate->destroyed), 1, "intermediate destroyed", "1",
                          "CHECK_INT_EQ", __FILE__, line);
            check_int_eq_(intermediate->last_copy_device.device_type, device.device_type,
                          "copy device type", "device type", "CHECK_INT_EQ", __FILE__, line);
            check_int_eq_(intermediate->last_copy_device.device_id, device.device_id,
                          "copy device id", "device id", "CHECK_INT_EQ", __FILE__, line);
        }
    }
    check_int_eq_(array->device.device_type, device.device_type, "device type", "expected",
                  "CHECK_INT_EQ", __FILE__, line);
    check_int_eq_(array->device.device_id, device.device_id, "device id", "expected",
                  "CHECK_INT_EQ", __FILE__, line);
    /* the tensor the library handed to from_dlpack */
    check_int_eq_(first->last_received_version.major, 1, "received version", "1", "CHECK_INT_EQ",
                  __FILE__, line);
    check_record_((first->last_received_flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0, __FILE__,
                  line, "received tensor is READ_ONLY");
    /* the CPU values are kept: the result's array is never exported */
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    mts_labels_values_cpu(result, &values, &count, &size);
    check_int_eq_(ta_calls(array, TA_AS_DLPACK), 0, "result as_dlpack calls", "0",
                  "CHECK_INT_EQ", __FILE__, line);
}
#define CHECK_MADE_LIKE(result, first, device) \
    check_made_like_((result), (first), (device), __LINE__)

static void test_union(void) {
    static const int32_t first_values[] = {0, 1, 1, 2};
    static const int32_t second_values[] = {2, 3, 1, 2, 4, 5};
    static const int32_t expected[] = {0, 1, 1, 2, 2, 3, 4, 5};
    struct test_array *first_array = NULL, *second_array = NULL;
    const mts_labels_t *first = labels_cpu(NAMES_AB, 2, first_values, 2, &first_array);
    const mts_labels_t *second = labels_cpu(NAMES_AB, 2, second_values, 3, &second_array);

    long from_dlpack = ta_total_calls(TA_FROM_DLPACK);
    long copies = ta_total_calls(TA_COPY);
    const mts_labels_t *result = NULL;
    int64_t first_mapping[2] = {-7, -7};
    int64_t second_mapping[3] = {-7, -7, -7};
    CHECK_STATUS(mts_labels_union(first, second, &result, first_mapping, 2, second_mapping, 3),
                 MTS_SUCCESS);
    CHECK(result != NULL);
    CHECK_VALUES(result, expected, 4, 2);
    static const int64_t expected_first[] = {0, 1};
    static const int64_t expected_second[] = {2, 1, 3};
    CHECK_MAPPING(first_mapping, expected_first, 2);
    CHECK_MAPPING(second_mapping, expected_second, 3);
    CHECK_INT_EQ(ta_total_calls(TA_FROM_DLPACK), from_dlpack + 1);
    CHECK_INT_EQ(ta_total_calls(TA_COPY), copies);
    CHECK_INT_EQ(ta_calls(first_array, TA_FROM_DLPACK), 1);
    CHECK_INT_EQ(ta_calls(second_array, TA_FROM_DLPACK), 0);
    CHECK_MADE_LIKE(result, first_array, TA_CPU);
    const char *const *names = NULL;
    uintptr_t count = 0;
    mts_status_t status = mts_labels_dimensions(result, &names, &count);
    CHECK_STRINGS(status, names, count, NAMES_AB);
    CHECK_INT_EQ(position_of(result, 4, 5), 3);
    mts_labels_free(result);

    /* the other way around; mappings not requested (counts ignored) */
    result = NULL;
    CHECK_STATUS(mts_labels_union(second, first, &result, NULL, 99, NULL, 42), MTS_SUCCESS);
    static const int32_t expected_reverse[] = {2, 3, 1, 2, 4, 5, 0, 1};
    CHECK_VALUES(result, expected_reverse, 4, 2);
    CHECK_MADE_LIKE(result, second_array, TA_CPU);
    mts_labels_free(result);

    /* only one mapping */
    result = NULL;
    int64_t only_second[3] = {-7, -7, -7};
    CHECK_STATUS(mts_labels_union(first, second, &result, NULL, 0, only_second, 3), MTS_SUCCESS);
    CHECK_MAPPING(only_second, expected_second, 3);
    mts_labels_free(result);

    /* mapping counts must match exactly (first_mapping is NULL where its
     * count is 0) */
    static const struct {
        uintptr_t first_count, second_count;
        const char *message;
    } counts[] = {
        {3, 3, MAPPING_COUNT_MESSAGE("first", "3", "2")},
        {1, 3, MAPPING_COUNT_MESSAGE("first", "1", "2")},
        {2, 2, MAPPING_COUNT_MESSAGE("second", "2", "3")},
        {0, 0, MAPPING_COUNT_MESSAGE("second", "0", "3")},
    };
    result = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
        int64_t *mapping = counts[i].first_count == 0 ? NULL : first_mapping;
        CHECK_ERROR(mts_labels_union(first, second, &result, mapping, counts[i].first_count,
                                     second_mapping, counts[i].second_count),
                    MTS_INVALID_PARAMETER_ERROR, counts[i].message);
    }
    CHECK(result == NULL);

    /* different dimension names (checked after the mapping counts) */
    static const char *const names_aa_bb[] = {"aa", "bb"};
    static const char *const names_aa[] = {"aa"};
    static const int32_t one[] = {1, 2};
    const mts_labels_t *aa_bb = labels_cpu(names_aa_bb, 2, one, 1, NULL);
    const mts_labels_t *aa = labels_cpu(names_aa, 1, one, 1, NULL);
    CHECK_ERROR(mts_labels_union(aa_bb, aa, &result, NULL, 0, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR,
                DIMENSIONS_MESSAGE("union", "[\"aa\", \"bb\"]", "[\"aa\"]"));
    int64_t mapping_one[1];
    CHECK_MAPPING_COUNT(mts_labels_union(aa_bb, aa, &result, mapping_one, 2, NULL, 0),
                        "first", "2", "1");
    const mts_labels_t *ba = labels_cpu(NAMES_BA, 2, one, 1, NULL);
    CHECK_ERROR(mts_labels_union(first, ba, &result, NULL, 0, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR,
                DIMENSIONS_MESSAGE("union", "[\"a\", \"b\"]", "[\"b\", \"a\"]"));
    CHECK(result == NULL);

    /* NULL inputs */
    CHECK_STATUS(mts_labels_union(first, NULL, &result, NULL, 0, NULL, 0),
                 MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for second");

    /* union with itself */
    int64_t self_first[2], self_second[2];
    CHECK_STATUS(mts_labels_union(first, first, &result, self_first, 2, self_second, 2),
                 MTS_SUCCESS);
    CHECK_VALUES(result, first_values, 2, 2);
    static const int64_t identity[] = {0, 1};
    CHECK_MAPPING(self_first, identity, 2);
    CHECK_MAPPING(self_second, identity, 2);
    CHECK(result != first);
    mts_labels_free(result);

    /* zero-dimension labels (made like the library's own array) */
    const mts_labels_t *zero1 = zero_dimension_labels();
    const mts_labels_t *zero2 = zero_dimension_labels();
    result = NULL;
    CHECK_STATUS(mts_labels_union(zero1, zero2, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
    CHECK(result != NULL);
    CHECK_VALUES(result, NULL, 0, 0);
    FREE_LABELS(result, zero1, zero2);

    FREE_LABELS(aa_bb, aa, ba, first, second);
}

static void test_intersection(void) {
    /* `first` is larger: the loop runs over `second`, whose order wins */
    static const int32_t big[] = {0, 1, 1, 2, 2, 3, 4, 5};
    static const int32_t small[] = {4, 5, 9, 9, 1, 2};
    struct test_array *big_array = NULL, *small_array = NULL;
    const mts_labels_t *first = labels_cpu(NAMES_AB, 2, big, 4, &big_array);
    const mts_labels_t *second = labels_cpu(NAMES_AB, 2, small, 3, &small_array);

    const mts_labels_t *result = NULL;
    int64_t first_mapping[4] = {7, 7, 7, 7};
    int64_t second_mapping[3] = {7, 7, 7};
    CHECK_STATUS(
        mts_labels_intersection(first, second, &result, first_mapping, 4, second_mapping, 3),
        MTS_SUCCESS);
    static const int32_t expected[] = {4, 5, 1, 2};
    CHECK_VALUES(result, expected, 2, 2);
    static const int64_t expected_first[] = {-1, 1, -1, 0};
    static const int64_t expected_second[] = {0, -1, 1};
    CHECK_MAPPING(first_mapping, expected_first, 4);
    CHECK_MAPPING(second_mapping, expected_second, 3);
    /* made like `first` even though the loop ran over `second` */
    CHECK_MADE_LIKE(result, big_array, TA_CPU);
    CHECK_INT_EQ(ta_calls(small_array, TA_FROM_DLPACK), 0);
    mts_labels_free(result);

    /* `first` is smaller: its order wins */
    static const int32_t two[] = {2, 3, 1, 2};
    static const int32_t three[] = {1, 2, 0, 0, 2, 3};
    const mts_labels_t *a = labels_cpu(NAMES_AB, 2, two, 2, NULL);
    const mts_labels_t *b = labels_cpu(NAMES_AB, 2, three, 3, NULL);
    int64_t map_a[2], map_b[3];
    CHECK_STATUS(mts_labels_intersection(a, b, &result, map_a, 2, map_b, 3), MTS_SUCCESS);
    CHECK_VALUES(result, two, 2, 2);
    static const int64_t expected_a[] = {0, 1};
    static const int64_t expected_b[] = {1, -1, 0};
    CHECK_MAPPING(map_a, expected_a, 2);
    CHECK_MAPPING(map_b, expected_b, 3);
    mts_labels_free(result);
    /* reversed: `b` is larger, the loop runs over `a` */
    CHECK_STATUS(mts_labels_intersection(b, a, &result, map_b, 3, map_a, 2), MTS_SUCCESS);
    CHECK_VALUES(result, two, 2, 2);
    CHECK_MAPPING(map_b, expected_b, 3);
    CHECK_MAPPING(map_a, expected_a, 2);
    mts_labels_free(result);

    /* ties: `first` order */
    static const int32_t tie1[] = {1, 1, 2, 2, 3, 3};
    static const int32_t tie2[] = {3, 3, 2, 2, 1, 1};
    const mts_labels_t *t1 = labels_cpu(NAMES_AB, 2, tie1, 3, NULL);
    const mts_labels_t *t2 = labels_cpu(NAMES_AB, 2, tie2, 3, NULL);
    CHECK_STATUS(mts_labels_intersection(t1, t2, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
    CHECK_VALUES(result, tie1, 3, 2);
    mts_labels_free(result);
    CHECK_STATUS(mts_labels_intersection(t2, t1, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
    CHECK_VALUES(result, tie2, 3, 2);
    mts_labels_free(result);

    /* nothing in common */
    static const int32_t other[] = {8, 8};
    const mts_labels_t *c = labels_cpu(NAMES_AB, 2, other, 1, NULL);
    int64_t map_c[1] = {7};
    CHECK_STATUS(mts_labels_intersection(a, c, &result, map_a, 2, map_c, 1), MTS_SUCCESS);
    CHECK_VALUES(result, NULL, 0, 2);
    static const int64_t none2[] = {-1, -1};
    static const int64_t none1[] = {-1};
    CHECK_MAPPING(map_a, none2, 2);
    CHECK_MAPPING(map_c, none1, 1);
    mts_labels_free(result);

    /* errors */
    result = NULL;
    CHECK_MAPPING_COUNT(
        mts_labels_intersection(first, second, &result, first_mapping, 3, NULL, 0), "first",
        "3", "4");
    CHECK_MAPPING_COUNT(
        mts_labels_intersection(first, second, &result, NULL, 0, second_mapping, 4), "second",
        "4", "3");
    const mts_labels_t *ba = labels_cpu(NAMES_BA, 2, other, 1, NULL);
    CHECK_ERROR(mts_labels_intersection(first, ba, &result, NULL, 0, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR,
                DIMENSIONS_MESSAGE("intersection", "[\"a\", \"b\"]", "[\"b\", \"a\"]"));
    CHECK(result == NULL);

    FREE_LABELS(ba, c, t1, t2, a, b, first, second);
}

static void test_difference(void) {
    static const int32_t first_values[] = {2, 3, 1, 2, 4, 5};
    static const int32_t second_values[] = {0, 1, 1, 2};
    struct test_array *first_array = NULL;
    const mts_labels_t *first = labels_cpu(NAMES_AB, 2, first_values, 3, &first_array);
    const mts_labels_t *second = labels_cpu(NAMES_AB, 2, second_values, 2, NULL);

    const mts_labels_t *result = NULL;
    int64_t mapping[3] = {7, 7, 7};
    CHECK_STATUS(mts_labels_difference(first, second, &result, mapping, 3), MTS_SUCCESS);
    static const int32_t expected[] = {2, 3, 4, 5};
    CHECK_VALUES(result, expected, 2, 2);
    static const int64_t expected_mapping[] = {0, -1, 1};
    CHECK_MAPPING(mapping, expected_mapping, 3);
    CHECK_MADE_LIKE(result, first_array, TA_CPU);
    mts_labels_free(result);

    /* the other way */
    int64_t mapping2[2] = {7, 7};
    CHECK_STATUS(mts_labels_difference(second, first, &result, mapping2, 2), MTS_SUCCESS);
    static const int32_t expected2[] = {0, 1};
    CHECK_VALUES(result, expected2, 1, 2);
    static const int64_t expected_mapping2[] = {0, -1};
    CHECK_MAPPING(mapping2, expected_mapping2, 2);
    mts_labels_free(result);

    /* with itself: empty */
    CHECK_STATUS(mts_labels_difference(first, first, &result, NULL, 0), MTS_SUCCESS);
    CHECK_VALUES(result, NULL, 0, 2);
    mts_labels_free(result);

    /* errors */
    result = NULL;
    CHECK_MAPPING_COUNT(mts_labels_difference(first, second, &result, mapping, 2),
                        "first", "2", "3");
    static const int32_t one[] = {1};
    const mts_labels_t *a = labels_cpu(NAMES_A, 1, one, 1, NULL);
    CHECK_ERROR(mts_labels_difference(first, a, &result, NULL, 0), MTS_INVALID_PARAMETER_ERROR,
                DIMENSIONS_MESSAGE("difference", "[\"a\", \"b\"]", "[\"a\"]"));
    CHECK(result == NULL);
    FREE_LABELS(a, first, second);
}

/* ------------------------------------------------------------------------ */
/* select                                                                   */

static void test_select(void) {
    static const int32_t values[] = {1, 1, 1, 2, 3, 2, 2, 1};
    struct test_array *array = NULL;
    const mts_labels_t *labels = labels_cpu(NAMES_AB, 2, values, 4, &array);

    uint64_t selected[8];
    uintptr_t selected_count;

    /* same names, same order: selection order, absent entries skipped */
    static const int32_t sel1[] = {1, 1, 2, 1, 5, 1, 1, 2};
    const mts_labels_t *selection = labels_cpu(NAMES_AB, 2, sel1, 4, NULL);
    for (size_t i = 0; i < 8; i++) {
        selected[i] = 1000 + i;
    }
    selected_count = 4;
    CHECK_STATUS(mts_labels_select(labels, selection, selected, &selected_count), MTS_SUCCESS);
    static const uint64_t expected1[] = {0, 3, 1};
    CHECK_SELECTED(selected, selected_count, expected1, 3);
    /* the slot past the count is untouched */
    CHECK_INT_EQ(selected[3], 1003);
    mts_labels_free(selection);

    /* a subset of the dimensions: rows in labels order */
    static const int32_t sel_b2[] = {2};
    static const uint64_t expected2[] = {1, 2};
    CHECK_SELECT(labels, labels_cpu(NAMES_B, 1, sel_b2, 1, NULL), expected2);

    static const int32_t sel_b21[] = {2, 1};
    static const uint64_t expected_all[] = {0, 1, 2, 3};
    CHECK_SELECT(labels, labels_cpu(NAMES_B, 1, sel_b21, 2, NULL), expected_all);

    static const int32_t sel_a[] = {3, 1};
    static const uint64_t expected_a[] = {0, 1, 2};
    CHECK_SELECT(labels, labels_cpu(NAMES_A, 1, sel_a, 2, NULL), expected_a);

    /* the same names in another order: the other path, labels order */
    static const int32_t sel_ba[] = {1, 2, 2, 1, 1, 1};
    static const uint64_t expected_ba[] = {0, 1, 3};
    CHECK_SELECT(labels, labels_cpu(NAMES_BA, 2, sel_ba, 3, NULL), expected_ba);

    /* nothing matches */
    static const int32_t sel_none[] = {7};
    selection = labels_cpu(NAMES_A, 1, sel_none, 1, NULL);
    selected_count = 4;
    selected[0] = 1234;
    CHECK_STATUS(mts_labels_select(labels, selection, selected, &selected_count), MTS_SUCCESS);
    CHECK_INT_EQ(selected_count, 0);
    CHECK_INT_EQ(selected[0], 1234);
    mts_labels_free(selection);

    /* an empty selection with the same names */
    selection = labels_cpu(NAMES_AB, 2, NULL, 0, NULL);
    selected_count = 4;
    CHECK_STATUS(mts_labels_select(labels, selection, selected, &selected_count), MTS_SUCCESS);
    CHECK_INT_EQ(selected_count, 0);
    mts_labels_free(selection);

    /* a zero-dimension selection selects everything */
    CHECK_SELECT(labels, zero_dimension_labels(), expected_all);

    /* unknown dimension, even in an empty selection */
    static const char *const names_bc[] = {"b", "c"};
    static const int32_t sel_bc[] = {1, 1};
    const struct {
        const char *const *names;
        uintptr_t size;
        const int32_t *values;
        uintptr_t count;
    } unknown[] = {{NAMES_C, 1, sel_none, 1}, {NAMES_C, 1, NULL, 0}, {names_bc, 2, sel_bc, 1}};
    for (size_t i = 0; i < ARRAY_SIZE(unknown); i++) {
        selection = labels_cpu(unknown[i].names, unknown[i].size, unknown[i].values,
                               unknown[i].count, NULL);
        selected_count = 4;
        CHECK_ERROR(mts_labels_select(labels, selection, selected, &selected_count),
                    MTS_INVALID_PARAMETER_ERROR,
                    "invalid parameter: 'c' in selection is not part of these Labels");
        mts_labels_free(selection);
    }

    /* selected_count must equal the labels count */
    selection = labels_cpu(NAMES_AB, 2, sel1, 4, NULL);
    selected_count = 8;
    CHECK_ERROR(mts_labels_select(labels, selection, selected, &selected_count),
                MTS_INVALID_PARAMETER_ERROR,
                "invalid parameter: `selected_count` (8) must match the number of elements in "
                "`labels` (4) but doesn't");
    selected_count = 3;
    CHECK_ERROR(mts_labels_select(labels, selection, selected, &selected_count),
                MTS_INVALID_PARAMETER_ERROR,
                "invalid parameter: `selected_count` (3) must match the number of elements in "
                "`labels` (4) but doesn't");
    CHECK_STATUS(mts_labels_select(labels, selection, NULL, &selected_count),
                 MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for selected");
    CHECK_STATUS(mts_labels_select(labels, NULL, selected, &selected_count),
                 MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: got invalid NULL pointer for selection");
    CHECK_STATUS(mts_labels_select(labels, selection, selected, NULL),
                 MTS_INVALID_PARAMETER_ERROR);
    CHECK_STR_PREFIX(last_message(),
                     "invalid parameter: got invalid NULL pointer for selected_count");
    mts_labels_free(selection);

    /* select from empty labels */
    const mts_labels_t *empty = labels_cpu(NAMES_AB, 2, NULL, 0, NULL);
    selection = labels_cpu(NAMES_A, 1, sel_a, 2, NULL);
    selected_count = 0;
    CHECK_STATUS(mts_labels_select(empty, selection, selected, &selected_count), MTS_SUCCESS);
    CHECK_INT_EQ(selected_count, 0);
    mts_labels_free(selection);
    mts_labels_free(empty);

    /* select does not create arrays */
    CHECK_INT_EQ(ta_calls(array, TA_FROM_DLPACK), 0);
    mts_labels_free(labels);
}

/* ------------------------------------------------------------------------ */
/* empty labels ([0, n])                                                    */

static void test_empty_labels(void) {
    for (int unique = 0; unique < 2; unique++) {
        struct test_array *array = NULL;
        const mts_labels_t *empty = any_labels_on(unique, NAMES_AB, 2, NULL, 0, TA_CPU, &array);
        CHECK(empty != NULL);
        const int32_t *values = NULL;
        uintptr_t count = 42, size = 42;
        CHECK_STATUS(mts_labels_values_cpu(empty, &values, &count, &size), MTS_SUCCESS);
        CHECK_INT_EQ(count, 0);
        CHECK_INT_EQ(size, 2);
        CHECK(values != NULL);
        CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
        CHECK_INT_EQ(position_of(empty, 1, 2), -1);
        const char *const *names = NULL;
        CHECK_STATUS(mts_labels_dimensions(empty, &names, &count), MTS_SUCCESS);
        CHECK_INT_EQ(count, 2);
        mts_labels_free(empty);
    }

    static const int32_t values[] = {1, 2, 3, 4};
    struct test_array *empty_array = NULL, *full_array = NULL;
    const mts_labels_t *empty = labels_cpu(NAMES_AB, 2, NULL, 0, &empty_array);
    const mts_labels_t *full = labels_cpu(NAMES_AB, 2, values, 2, &full_array);

    /* union: made like `first` even when it is empty; a non-NULL mapping
     * with count 0 is fine for empty labels */
    const mts_labels_t *result = NULL;
    int64_t dummy[1] = {7};
    int64_t mapping[2] = {7, 7};
    CHECK_STATUS(mts_labels_union(empty, full, &result, dummy, 0, mapping, 2), MTS_SUCCESS);
    CHECK_VALUES(result, values, 2, 2);
    static const int64_t identity[] = {0, 1};
    CHECK_MAPPING(mapping, identity, 2);
    CHECK_INT_EQ(dummy[0], 7);
    CHECK_MADE_LIKE(result, empty_array, TA_CPU);
    mts_labels_free(result);

    CHECK_STATUS(mts_labels_union(full, empty, &result, mapping, 2, dummy, 0), MTS_SUCCESS);
    CHECK_VALUES(result, values, 2, 2);
    mts_labels_free(result);

    CHECK_MAPPING_COUNT(mts_labels_union(full, empty, &result, mapping, 2, dummy, 1),
                        "second", "1", "0");

    CHECK_STATUS(mts_labels_intersection(empty, full, &result, dummy, 0, mapping, 2),
                 MTS_SUCCESS);
    CHECK_VALUES(result, NULL, 0, 2);
    static const int64_t none[] = {-1, -1};
    CHECK_MAPPING(mapping, none, 2);
    mts_labels_free(result);

    CHECK_STATUS(mts_labels_difference(full, empty, &result, mapping, 2), MTS_SUCCESS);
    CHECK_VALUES(result, values, 2, 2);
    CHECK_MAPPING(mapping, identity, 2);
    mts_labels_free(result);

    CHECK_STATUS(mts_labels_difference(empty, full, &result, dummy, 0), MTS_SUCCESS);
    CHECK_VALUES(result, NULL, 0, 2);
    mts_labels_free(result);

    CHECK_STATUS(mts_labels_union(empty, empty, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
    CHECK_VALUES(result, NULL, 0, 2);
    mts_labels_free(result);

    CHECK_INT_EQ(ta_calls(empty_array, TA_AS_DLPACK), 0);
    mts_labels_free(empty);
    mts_labels_free(full);
}

/* ------------------------------------------------------------------------ */
/* errors from the user's callbacks                                         */

static void check_callback_error_(const char *message, const char *origin, enum ta_member member,
                                  int line) {
    struct record r = last_error();
    check_str_eq_(r.message, message, "message", "expected", __FILE__, line);
    check_str_eq_(r.origin, origin, "origin", "expected", __FILE__, line);
    if (strcmp(origin, TA_ERROR_ORIGIN) == 0) {
        struct ta_error_data *data = r.data;
        check_record_(data != NULL && data->magic == TA_ERROR_MAGIC && data->member == member,
                      __FILE__, line, "the callback's error data is kept");
    }
}
#define CHECK_CALLBACK_ERROR(message, member) \
    check_callback_error_((message), TA_ERROR_ORIGIN, (member), __LINE__)

static void test_callback_errors(void) {
    static const int32_t values[] = {0, 1, 1, 2};

    /* as_dlpack failing in mts_labels: NULL, the array destroyed, the
     * callback's origin and data kept, only the message prefixed */
    long live = ta_live();
    long data_deleted = atomic_load(&ta_stats.error_data_deleted);
    struct test_array *array = ta_new_i32(values, 2, 2);
    ta_set_fail(array, TA_AS_DLPACK, MTS_CALLBACK_ERROR, "no export today");
    clear_error();
    CHECK(mts_labels(NAMES_AB, 2, ta_mts(array)) == NULL);
    CHECK_CALLBACK_ERROR("calling mts_array_t.as_dlpack failed: no export today", TA_AS_DLPACK);
    CHECK_INT_EQ(atomic_load(&ta_stats.error_data_deleted), data_deleted);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);
    clear_error();
    CHECK_INT_EQ(atomic_load(&ta_stats.error_data_deleted), data_deleted + 1);

    /* through assume_unique: the status is 254 whatever the callback said */
    const mts_status_t returned[] = {MTS_CALLBACK_ERROR, 1, 42, -1, MTS_INTERNAL_ERROR};
    for (size_t i = 0; i < ARRAY_SIZE(returned); i++) {
        const mts_labels_t *labels = unique_labels_on(NAMES_AB, 2, values, 2, TA_CPU, &array);
        ta_set_fail(array, TA_AS_DLPACK, returned[i], NULL);
        const int32_t *cpu = NULL;
        uintptr_t count = 0, size = 0;
        CHECK_STATUS(mts_labels_values_cpu(labels, &cpu, &count, &size), MTS_CALLBACK_ERROR);
        CHECK_CALLBACK_ERROR("calling mts_array_t.as_dlpack failed: test array: as_dlpack "
                             "failed on purpose",
                             TA_AS_DLPACK);
        int64_t position = -42;
        int32_t entry[2] = {0, 1};
        CHECK_STATUS(mts_labels_position(labels, entry, 2, &position), MTS_CALLBACK_ERROR);
        CHECK_INT_EQ(position, -42);

        /* the lazy values are built on a later call once the array works */
        ta_set_fail(array, TA_NONE, MTS_SUCCESS, NULL);
        CHECK_VALUES(labels, values, 2, 2);
        CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 3);
        mts_labels_free(labels);
    }

    /* a callback that sets no error: the stale record gets the prefix */
    array = ta_new_i32(values, 2, 2);
    ta_set_fail(array, TA_AS_DLPACK, MTS_CALLBACK_ERROR, NULL);
    array->fail_sets_error = 0;
    mts_set_last_error("an old message", "an old origin", NULL, NULL);
    CHECK(mts_labels(NAMES_AB, 2, ta_mts(array)) == NULL);
    check_callback_error_("calling mts_array_t.as_dlpack failed: an old message", "an old origin",
                          TA_NONE, __LINE__);

    /* shape failing: in mts_labels, in assume_unique with another status,
     * and with zero names */
    for (int i = 0; i < 3; i++) {
        uintptr_t size = i == 2 ? 0 : 2;
        array = ta_new_i32(size == 0 ? NULL : values, size, size);
        ta_set_fail(array, TA_SHAPE, i == 0 ? MTS_CALLBACK_ERROR : 3, NULL);
        CHECK(new_labels(i == 1, size == 0 ? NULL : NAMES_AB, size, array) == NULL);
        CHECK_CALLBACK_ERROR("calling mts_array_t.shape failed: test array: shape failed on "
                             "purpose",
                             TA_SHAPE);
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    }

    /* device failing */
    array = ta_new_i32(values, 2, 2);
    ta_set_fail(array, TA_DEVICE, MTS_CALLBACK_ERROR, NULL);
    CHECK(mts_labels(NAMES_AB, 2, ta_mts(array)) == NULL);
    CHECK_CALLBACK_ERROR("calling mts_array_t.device failed: test array: device failed on "
                         "purpose",
                         TA_DEVICE);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);

    /* origin failing (the "metatensor.Labels" origin is registered by now) */
    array = ta_new_i32(values, 2, 2);
    ta_set_fail(array, TA_ORIGIN, MTS_CALLBACK_ERROR, NULL);
#ifdef MTS_TEST_ORIGIN_UNASKED
    /* it is not: the origin is never asked */
    const mts_labels_t *unasked = mts_labels(NAMES_AB, 2, ta_mts(array));
    CHECK(unasked != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_ORIGIN), 0);
    mts_labels_free(unasked);
#else
    CHECK(mts_labels(NAMES_AB, 2, ta_mts(array)) == NULL);
    CHECK_CALLBACK_ERROR("calling mts_array_t.origin failed: test array: origin failed on "
                         "purpose",
                         TA_ORIGIN);
#endif
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);

    /*
     * Callback errors while a set operation makes its result ("device like"
     * creation) are NOT reported as callback errors by the reference: the
     * library panics with the Debug form of its error, giving 255 and
     * "created invalid labels in <operation>: CallbackError" (the
     * difference says "intersection"). The callback's message, origin and
     * data are lost: the record is replaced, so the data's deleter runs.
     * The tensor given to from_dlpack is deleted by the callback.
     */
    struct test_array *first_array = NULL;
    const mts_labels_t *first = labels_cpu(NAMES_AB, 2, values, 2, &first_array);
    const mts_labels_t *second = labels_cpu(NAMES_AB, 2, values, 1, NULL);
    ta_set_fail(first_array, TA_FROM_DLPACK, MTS_CALLBACK_ERROR, NULL);
    const mts_labels_t *result = NULL;
    live = ta_live();
    clear_error();
    long data_created = atomic_load(&ta_stats.error_data_created);
    data_deleted = atomic_load(&ta_stats.error_data_deleted);
#ifdef MTS_TEST_REFERENCE
    CHECK_STATUS(mts_labels_union(first, second, &result, NULL, 0, NULL, 0), MTS_INTERNAL_ERROR);
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "created invalid labels in union: CallbackError");
    CHECK_STR_EQ(last_error().origin, "metatensor-core");
    CHECK(last_error().data == NULL);
    CHECK_INT_EQ(atomic_load(&ta_stats.error_data_created), data_created + 1);
    CHECK_INT_EQ(atomic_load(&ta_stats.error_data_deleted), data_deleted + 1);
    CHECK(result == NULL);
    CHECK_STATUS(mts_labels_intersection(first, second, &result, NULL, 0, NULL, 0),
                 MTS_INTERNAL_ERROR);
    CHECK_STR_EQ(last_message(),
                 INTERNAL_PREFIX "created invalid labels in intersection: CallbackError");
    CHECK_STATUS(mts_labels_difference(first, second, &result, NULL, 0), MTS_INTERNAL_ERROR);
    CHECK_STR_EQ(last_message(),
                 INTERNAL_PREFIX "created invalid labels in intersection: CallbackError");
#else
    CHECK_STATUS(mts_labels_union(first, second, &result, NULL, 0, NULL, 0),
                 MTS_CALLBACK_ERROR);
    CHECK_CALLBACK_ERROR("calling mts_array_t.from_dlpack failed: test array: from_dlpack "
                         "failed on purpose",
                         TA_FROM_DLPACK);
    CHECK_INT_EQ(atomic_load(&ta_stats.error_data_created), data_created + 1);
    CHECK_INT_EQ(atomic_load(&ta_stats.error_data_deleted), data_deleted);
    CHECK(result == NULL);
    CHECK_STATUS(mts_labels_intersection(first, second, &result, NULL, 0, NULL, 0),
                 MTS_CALLBACK_ERROR);
    CHECK_CALLBACK_ERROR("calling mts_array_t.from_dlpack failed: test array: from_dlpack "
                         "failed on purpose",
                         TA_FROM_DLPACK);
    CHECK_STATUS(mts_labels_difference(first, second, &result, NULL, 0), MTS_CALLBACK_ERROR);
    CHECK_CALLBACK_ERROR("calling mts_array_t.from_dlpack failed: test array: from_dlpack "
                         "failed on purpose",
                         TA_FROM_DLPACK);
#endif
    CHECK(result == NULL);
    CHECK_INT_EQ(ta_calls(first_array, TA_FROM_DLPACK), 3);
    CHECK_INT_EQ(ta_live(), live);
    /* select never needs from_dlpack */
    uint64_t selected[2];
    uintptr_t selected_count = 2;
    CHECK_STATUS(mts_labels_select(first, second, selected, &selected_count), MTS_SUCCESS);
    ta_set_fail(first_array, TA_NONE, MTS_SUCCESS, NULL);

    /* device failing in a set operation: a panic as well */
    ta_set_fail(first_array, TA_DEVICE, 5, NULL);
#ifdef MTS_TEST_REFERENCE
    CHECK_STATUS(mts_labels_union(first, second, &result, NULL, 0, NULL, 0), MTS_INTERNAL_ERROR);
    CHECK_STR_EQ(last_message(),
                 INTERNAL_PREFIX "failed to get the device for Labels values: CallbackError");
    CHECK_STR_EQ(last_error().origin, "metatensor-core");
#else
    CHECK_STATUS(mts_labels_union(first, second, &result, NULL, 0, NULL, 0), MTS_CALLBACK_ERROR);
    CHECK_CALLBACK_ERROR("calling mts_array_t.device failed: test array: device failed on "
                         "purpose",
                         TA_DEVICE);
#endif
    CHECK(result == NULL);
    selected_count = 2;
    set_stale_error();
#ifdef MTS_TEST_REFERENCE
    CHECK_STATUS(mts_labels_select(first, second, selected, &selected_count), MTS_INTERNAL_ERROR);
    CHECK_STR_EQ(last_message(),
                 INTERNAL_PREFIX "failed to get the device for Labels values: CallbackError");
#else
    CHECK_STATUS(mts_labels_select(first, second, selected, &selected_count), MTS_CALLBACK_ERROR);
    CHECK_CALLBACK_ERROR("calling mts_array_t.device failed: test array: device failed on "
                         "purpose",
                         TA_DEVICE);
#endif
    ta_set_fail(first_array, TA_NONE, MTS_SUCCESS, NULL);
    CHECK_INT_EQ(ta_live(), live);
    mts_labels_free(first);
    mts_labels_free(second);

    /* copy failing when the result goes to another device: the
     * intermediate CPU array is destroyed */
    first = labels_on(NAMES_AB, 2, values, 2, CUDA0, &first_array);
    second = labels_on(NAMES_AB, 2, values, 1, CUDA0, NULL);
    first_array->children_fail_member = TA_COPY;
    first_array->fail_status = MTS_CALLBACK_ERROR;
    first_array->fail_sets_error = 1;
    snprintf(first_array->fail_message, sizeof(first_array->fail_message), "no copy today");
    live = ta_live();
    long copies = ta_total_calls(TA_COPY);
#ifdef MTS_TEST_REFERENCE
    CHECK_STATUS(mts_labels_union(first, second, &result, NULL, 0, NULL, 0), MTS_INTERNAL_ERROR);
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "created invalid labels in union: CallbackError");
#else
    CHECK_STATUS(mts_labels_union(first, second, &result, NULL, 0, NULL, 0), MTS_CALLBACK_ERROR);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.copy failed: no copy today");
#endif
    CHECK_INT_EQ(ta_total_calls(TA_COPY), copies + 1);
    CHECK(result == NULL);
    CHECK_INT_EQ(ta_live(), live);
    first_array->children_fail_member = TA_NONE;
    mts_labels_free(first);
    mts_labels_free(second);

    /* a NULL from_dlpack is a panic when a set operation needs it */
    array = ta_new_i32(values, 2, 2);
    mts_array_t no_from_dlpack = ta_mts(array);
    no_from_dlpack.from_dlpack = NULL;
    first = mts_labels(NAMES_AB, 2, no_from_dlpack);
    CHECK(first != NULL);
    set_stale_error();
    CHECK_STATUS(mts_labels_union(first, first, &result, NULL, 0, NULL, 0), MTS_INTERNAL_ERROR);
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "mts_array_t.from_dlpack function is NULL");
    CHECK(result == NULL);
    mts_labels_free(first);

    /* a NULL as_dlpack is a panic too */
    array = ta_new_i32(values, 2, 2);
    mts_array_t no_as_dlpack = ta_mts(array);
    no_as_dlpack.as_dlpack = NULL;
    set_stale_error();
    CHECK(mts_labels(NAMES_AB, 2, no_as_dlpack) == NULL);
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "mts_array_t.as_dlpack function is NULL");
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);

    /* an exported tensor with a major version other than 1 is refused (a
     * panic), and its deleter still runs. The reference reads the version
     * for its message after calling the deleter: test_array.h keeps the
     * struct alive, so the message is stable */
    array = ta_new_i32(values, 2, 2);
    array->dlpack_version.major = 2;
    array->dlpack_version.minor = 0;
    long deleted = atomic_load(&ta_stats.dlpack_deleted);
    set_stale_error();
    CHECK(mts_labels(NAMES_AB, 2, ta_mts(array)) == NULL);
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "Incompatible DLPack version, got 2, but this "
                                 "code only supports version 1");
    CHECK_INT_EQ(atomic_load(&ta_stats.dlpack_deleted), deleted + 1);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    const mts_labels_t *old = unique_labels_on(NAMES_AB, 2, values, 2, TA_CPU, &array);
    array->dlpack_version.major = 0;
    array->dlpack_version.minor = 9;
    const int32_t *cpu = NULL;
    uintptr_t cpu_count = 0, cpu_size = 0;
    CHECK_STATUS(mts_labels_values_cpu(old, &cpu, &cpu_count, &cpu_size), MTS_INTERNAL_ERROR);
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "Incompatible DLPack version, got 0, but this "
                                 "code only supports version 1");
    CHECK_INT_EQ(array->dlpack_live, 0);
    mts_labels_free(old);
    /* a newer minor version is fine */
    array = ta_new_i32(values, 2, 2);
    array->dlpack_version.minor = 7;
    const mts_labels_t *labels = mts_labels(NAMES_AB, 2, ta_mts(array));
    CHECK(labels != NULL);
    mts_labels_free(labels);

    clear_error();
}

/* ------------------------------------------------------------------------ */
/* labels on a (fake) non-CPU device                                        */

static void test_other_device(void) {
    static const int32_t first_values[] = {0, 1, 1, 2};
    static const int32_t second_values[] = {2, 3, 1, 2, 4, 5};

    struct test_array *first_array = NULL, *second_array = NULL;
    const mts_labels_t *first = labels_on(NAMES_AB, 2, first_values, 2, CUDA0, &first_array);
    CHECK(first != NULL);
    /* the values were asked for on CPU */
    CHECK_INT_EQ(ta_calls(first_array, TA_AS_DLPACK), 1);
    CHECK_INT_EQ(first_array->last_dlpack_device.device_type, kDLCPU);
    CHECK(ta_calls(first_array, TA_DEVICE) >= 1);
    CHECK_VALUES(first, first_values, 2, 2);
    const mts_labels_t *second = labels_on(NAMES_AB, 2, second_values, 3, CUDA0, &second_array);

    /* union: first.from_dlpack (a CPU array), then copy to CUDA:0, and the
     * intermediate is destroyed */
    long from_dlpack = ta_total_calls(TA_FROM_DLPACK);
    long copies = ta_total_calls(TA_COPY);
    long live = ta_live();
    const mts_labels_t *result = NULL;
    int64_t mapping[3];
    CHECK_STATUS(mts_labels_union(first, second, &result, NULL, 0, mapping, 3), MTS_SUCCESS);
    CHECK_INT_EQ(ta_total_calls(TA_FROM_DLPACK), from_dlpack + 1);
    CHECK_INT_EQ(ta_calls(first_array, TA_FROM_DLPACK), 1);
    CHECK_INT_EQ(ta_total_calls(TA_COPY), copies + 1);
    CHECK_INT_EQ(ta_live(), live + 1);
    static const int32_t expected[] = {0, 1, 1, 2, 2, 3, 4, 5};
    CHECK_VALUES(result, expected, 4, 2);
    CHECK_MADE_LIKE(result, first_array, CUDA0);
    CHECK_INT_EQ(position_of(result, 2, 3), 2);
    mts_labels_free(result);
    CHECK_INT_EQ(ta_live(), live);

    /* intersection and difference too */
    CHECK_STATUS(mts_labels_intersection(second, first, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
    static const int32_t common[] = {1, 2};
    CHECK_VALUES(result, common, 1, 2);
    CHECK_MADE_LIKE(result, second_array, CUDA0);
    mts_labels_free(result);
    CHECK_STATUS(mts_labels_difference(second, first, &result, NULL, 0), MTS_SUCCESS);
    static const int32_t diff[] = {2, 3, 4, 5};
    CHECK_VALUES(result, diff, 2, 2);
    CHECK_MADE_LIKE(result, second_array, CUDA0);
    mts_labels_free(result);

    /* select on the same device */
    uint64_t selected[3];
    uintptr_t selected_count = 3;
    CHECK_STATUS(mts_labels_select(second, first, selected, &selected_count), MTS_SUCCESS);
    static const uint64_t expected_selected[] = {1};
    CHECK_SELECTED(selected, selected_count, expected_selected, 1);

    /* different devices (both non-empty) */
    struct test_array *cpu_array = NULL;
    const mts_labels_t *cpu = labels_cpu(NAMES_AB, 2, first_values, 2, &cpu_array);
    const mts_labels_t *cuda1 = labels_on(NAMES_AB, 2, first_values, 2, CUDA1, NULL);
    result = NULL;
    CHECK_ERROR(mts_labels_union(cpu, second, &result, NULL, 0, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR,
                "invalid parameter: can not take the union of these Labels, they are on "
                "different devices: 'CPU:0', and 'CUDA:0'");
    CHECK_ERROR(mts_labels_intersection(second, cpu, &result, NULL, 0, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR,
                "invalid parameter: can not take the intersection of these Labels, they are on "
                "different devices: 'CUDA:0', and 'CPU:0'");
    CHECK_ERROR(mts_labels_difference(first, cuda1, &result, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR,
                "invalid parameter: can not take the difference of these Labels, they are on "
                "different devices: 'CUDA:0', and 'CUDA:1'");
    CHECK(result == NULL);
    selected_count = 3;
    CHECK_ERROR(mts_labels_select(second, cpu, selected, &selected_count),
                MTS_INVALID_PARAMETER_ERROR,
                "invalid parameter: can not select from Labels, the selection is on a different "
                "device (CPU:0) than the labels being selected (CUDA:0)");

    /* the device is not compared when one side is empty; the result is
     * made like `first` */
    struct test_array *empty_cuda_array = NULL;
    const mts_labels_t *empty_cuda = labels_on(NAMES_AB, 2, NULL, 0, CUDA0, &empty_cuda_array);
    CHECK_STATUS(mts_labels_union(empty_cuda, cpu, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
    CHECK_VALUES(result, first_values, 2, 2);
    CHECK_MADE_LIKE(result, empty_cuda_array, CUDA0);
    mts_labels_free(result);
    CHECK_STATUS(mts_labels_union(cpu, empty_cuda, &result, NULL, 0, NULL, 0), MTS_SUCCESS);
    CHECK_MADE_LIKE(result, cpu_array, TA_CPU);
    mts_labels_free(result);
    selected_count = 0;
    CHECK_STATUS(mts_labels_select(empty_cuda, cpu, selected, &selected_count), MTS_SUCCESS);
    CHECK_INT_EQ(selected_count, 0);

    FREE_LABELS(empty_cuda, cuda1, cpu, first, second);
}

/* ------------------------------------------------------------------------ */
/* labels on kDLExtDev ("meta")                                             */

#define EXTDEV_MESSAGE                                                                   \
    "invalid parameter: labels values can not be loaded from dlpack's kDLExtDev device " \
    "(i.e. torch's meta device)"

static void test_meta_device(void) {
    static const int32_t values[] = {0, 1, 1, 2};

    /* mts_labels needs the values */
    long live = ta_live();
    struct test_array *array = new_values(values, 2, 2, META);
    CHECK_NULL_ERROR(mts_labels(NAMES_AB, 2, ta_mts(array)), EXTDEV_MESSAGE);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);

    /* assume_unique works, and so does everything that needs no values */
    const mts_labels_t *meta = unique_labels_on(NAMES_AB, 2, values, 2, META, &array);
    CHECK(meta != NULL);
    const char *const *names = NULL;
    uintptr_t count = 0, size = 0;
    CHECK_STATUS(mts_labels_dimensions(meta, &names, &count), MTS_SUCCESS);
    CHECK_INT_EQ(count, 2);
    CHECK(values_array(meta) == array);
    const mts_labels_t *clone = mts_labels_clone(meta);
    CHECK(clone == meta);
    mts_labels_free(clone);

    const int32_t *cpu = NULL;
    CHECK_ERROR(mts_labels_values_cpu(meta, &cpu, &count, &size), MTS_INVALID_PARAMETER_ERROR,
                EXTDEV_MESSAGE);
    int32_t entry[2] = {0, 1};
    int64_t position = -42;
    CHECK_ERROR(mts_labels_position(meta, entry, 2, &position), MTS_INVALID_PARAMETER_ERROR,
                EXTDEV_MESSAGE);
    CHECK_INT_EQ(position, -42);

    const mts_labels_t *meta2 = unique_labels_on(NAMES_AB, 2, values, 1, META, NULL);
    const mts_labels_t *result = NULL;
    CHECK_ERROR(mts_labels_union(meta, meta2, &result, NULL, 0, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR, EXTDEV_MESSAGE);
    CHECK_ERROR(mts_labels_intersection(meta, meta2, &result, NULL, 0, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR, EXTDEV_MESSAGE);
    CHECK_ERROR(mts_labels_difference(meta, meta2, &result, NULL, 0),
                MTS_INVALID_PARAMETER_ERROR, EXTDEV_MESSAGE);
    CHECK(result == NULL);
    uint64_t selected[2];
    uintptr_t selected_count = 2;
    CHECK_ERROR(mts_labels_select(meta, meta2, selected, &selected_count),
                MTS_INVALID_PARAMETER_ERROR, EXTDEV_MESSAGE);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    mts_labels_free(meta2);
    mts_labels_free(meta);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);

    /* empty meta labels need no values */
    const mts_labels_t *empty = labels_on(NAMES_AB, 2, NULL, 0, META, &array);
    CHECK(empty != NULL);
    CHECK_VALUES(empty, NULL, 0, 2);
    CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 0);
    mts_labels_free(empty);
}

/* ------------------------------------------------------------------------ */
/* the library's own labels array (zero-dimension labels)                   */

static void test_library_array(void) {
    const mts_labels_t *labels = zero_dimension_labels();
    mts_array_t array;
    memset(&array, 0, sizeof(array));
    CHECK_STATUS(mts_labels_values(labels, &array), MTS_SUCCESS);
    CHECK(array.destroy == NULL);
    if (array.device == NULL || array.dtype == NULL || array.as_dlpack == NULL ||
        array.reshape == NULL || array.swap_axes == NULL || array.copy == NULL ||
        array.from_dlpack == NULL) {
        CHECK(0);
        mts_labels_free(labels);
        return;
    }

    DLDevice device = {kDLCUDA, 5};
    CHECK_STATUS(array.device(array.ptr, &device), MTS_SUCCESS);
    CHECK_INT_EQ(device.device_type, kDLCPU);
    CHECK_INT_EQ(device.device_id, 0);
    DLDataType dtype = {0, 0, 0};
    CHECK_STATUS(array.dtype(array.ptr, &dtype), MTS_SUCCESS);
    CHECK_INT_EQ(dtype.code, kDLInt);
    CHECK_INT_EQ(dtype.bits, 32);
    CHECK_INT_EQ(dtype.lanes, 1);

    DLPackVersion version = {1, 3};
    DLManagedTensorVersioned *tensor = NULL;
    CHECK_STATUS(array.as_dlpack(array.ptr, &tensor, TA_CPU, NULL, version), MTS_SUCCESS);
    CHECK(tensor != NULL);
    if (tensor != NULL) {
        CHECK_INT_EQ(tensor->version.major, 1);
        CHECK_INT_EQ(tensor->version.minor, 3);
        CHECK_INT_EQ(tensor->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
        CHECK_INT_EQ(tensor->dl_tensor.ndim, 2);
        CHECK(tensor->dl_tensor.data == NULL);
        CHECK_INT_EQ(tensor->dl_tensor.byte_offset, 0);
        CHECK(tensor->dl_tensor.shape != NULL);
        if (tensor->dl_tensor.shape != NULL) {
            CHECK_INT_EQ(tensor->dl_tensor.shape[0], 0);
            CHECK_INT_EQ(tensor->dl_tensor.shape[1], 0);
        }
        CHECK(tensor->dl_tensor.strides != NULL);
        if (tensor->dl_tensor.strides != NULL) {
            CHECK_INT_EQ(tensor->dl_tensor.strides[0], 0);
            CHECK_INT_EQ(tensor->dl_tensor.strides[1], 1);
        }
        CHECK_INT_EQ(tensor->dl_tensor.device.device_type, kDLCPU);
        CHECK(tensor->deleter != NULL);
        if (tensor->deleter != NULL) {
            tensor->deleter(tensor);
        }
    }
    DLPackVersion old = {1, 0};
    tensor = NULL;
    CHECK_STATUS(array.as_dlpack(array.ptr, &tensor, TA_CPU, NULL, old), MTS_SUCCESS);
    if (tensor != NULL && tensor->deleter != NULL) {
        tensor->deleter(tensor);
    }

    tensor = NULL;
    set_stale_error();
    CHECK(array.as_dlpack(array.ptr, &tensor, CUDA0, NULL, version) != MTS_SUCCESS);
    CHECK_STR_EQ(last_message(),
                 "invalid parameter: labels values owned by metatensor-core only exist on CPU");
    int64_t stream = 1;
    set_stale_error();
    CHECK(array.as_dlpack(array.ptr, &tensor, TA_CPU, &stream, version) != MTS_SUCCESS);
    CHECK_STR_EQ(last_message(), "invalid parameter: `stream` must be None for CPU data");
    DLPackVersion v2 = {2, 0};
    set_stale_error();
    CHECK(array.as_dlpack(array.ptr, &tensor, TA_CPU, NULL, v2) != MTS_SUCCESS);
    CHECK_STR_EQ(last_message(), "invalid parameter: invalid `max_version` in "
                                 "LabelsArray::as_dlpack: we got v2.0, but we support v1.3");
    CHECK(tensor == NULL);

    uintptr_t shape[2] = {0, 0};
    set_stale_error();
    CHECK(array.reshape(array.ptr, shape, 2) != MTS_SUCCESS);
    CHECK_STR_EQ(last_message(), "invalid parameter: labels arrays do not support `reshape`");
    set_stale_error();
    CHECK(array.swap_axes(array.ptr, 0, 1) != MTS_SUCCESS);
    CHECK_STR_EQ(last_message(), "invalid parameter: labels arrays do not support `swap_axes`");

    /* copy to CPU */
    mts_array_t copy;
    memset(&copy, 0, sizeof(copy));
    CHECK_STATUS(array.copy(array.ptr, TA_CPU, &copy), MTS_SUCCESS);
    CHECK(copy.ptr != NULL);
    if (copy.destroy != NULL) {
        copy.destroy(copy.ptr);
    }

    /* from_dlpack copies a CPU i32 2-D tensor and deletes it */
    static const int32_t values[] = {1, 2, 3, 4, 5, 6};
    struct test_array *source = ta_new_i32(values, 3, 2);
    source->layout = TA_LAYOUT_C_STRIDES;
    tensor = NULL;
    CHECK_STATUS(ta_as_dlpack(source, &tensor, TA_CPU, NULL, version), MTS_SUCCESS);
    mts_array_t created;
    memset(&created, 0, sizeof(created));
    CHECK_STATUS(array.from_dlpack(array.ptr, tensor, &created), MTS_SUCCESS);
    CHECK_INT_EQ(source->dlpack_live, 0);
    if (created.shape != NULL) {
        const uintptr_t *created_shape = NULL;
        uintptr_t ndim = 0;
        CHECK_STATUS(created.shape(created.ptr, &created_shape, &ndim), MTS_SUCCESS);
        CHECK_INT_EQ(ndim, 2);
        if (ndim == 2) {
            CHECK_INT_EQ(created_shape[0], 3);
            CHECK_INT_EQ(created_shape[1], 2);
        }
        /* usable as labels values */
        const mts_labels_t *from_library = mts_labels(NAMES_AB, 2, created);
        CHECK(from_library != NULL);
        CHECK_VALUES(from_library, values, 3, 2);
        mts_labels_free(from_library);
    } else {
        CHECK(0);
    }

    /* not 2-D */
    uintptr_t flat_shape[1] = {6};
    struct test_array *flat = ta_new(TA_INT32, flat_shape, 1, values);
    tensor = NULL;
    CHECK_STATUS(ta_as_dlpack(flat, &tensor, TA_CPU, NULL, version), MTS_SUCCESS);
    memset(&created, 0, sizeof(created));
    set_stale_error();
    CHECK(array.from_dlpack(array.ptr, tensor, &created) != MTS_SUCCESS);
    CHECK_STR_PREFIX(last_message(),
                     "invalid parameter: expected 2D tensor for labels values, got shape=");
    CHECK_INT_EQ(flat->dlpack_live, 0);
    ta_destroy(flat);

    /* not on CPU */
    source->layout = TA_LAYOUT_NULL_STRIDES;
    tensor = NULL;
    CHECK_STATUS(ta_as_dlpack(source, &tensor, TA_CPU, NULL, version), MTS_SUCCESS);
    if (tensor != NULL) {
        tensor->dl_tensor.device = CUDA0;
    }
    set_stale_error();
    CHECK(array.from_dlpack(array.ptr, tensor, &created) != MTS_SUCCESS);
    CHECK_STR_PREFIX(last_message(), "invalid parameter: labels values can not be created from "
                                     "dlpack tensors that are not on CPU");
    CHECK_INT_EQ(source->dlpack_live, 0);
    ta_destroy(source);

    mts_labels_free(labels);
    clear_error();
}

/* ------------------------------------------------------------------------ */
/* labels used from several threads                                         */

struct thread_args {
    const mts_labels_t *labels;
    int32_t count; /* entry i is (i, i + 1) */
    int ok;
};

static void *thread_main(void *ptr) {
    struct thread_args *args = ptr;
    args->ok = 1;
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    if (mts_labels_values_cpu(args->labels, &values, &count, &size) != MTS_SUCCESS ||
        count != (uintptr_t)args->count || size != 2 || values[2 * count - 1] != args->count) {
        args->ok = 0;
    }
    for (int32_t i = 0; i < args->count; i++) {
        int32_t entry[2] = {i, i + 1};
        int64_t position = -42;
        if (mts_labels_position(args->labels, entry, 2, &position) != MTS_SUCCESS ||
            position != i) {
            args->ok = 0;
        }
    }
    const mts_labels_t *clone = mts_labels_clone(args->labels);
    if (clone != args->labels) {
        args->ok = 0;
    }
    mts_labels_free(clone);
    return NULL;
}

/* runs thread_main on labels from 4 threads at once */
static void race_on(const mts_labels_t *labels, int32_t count) {
    struct thread_args args[4];
    pthread_t threads[4];
    for (int t = 0; t < 4; t++) {
        args[t].labels = labels;
        args[t].count = count;
        args[t].ok = 0;
        CHECK_INT_EQ(pthread_create(&threads[t], NULL, thread_main, &args[t]), 0);
    }
    for (int t = 0; t < 4; t++) {
        CHECK_INT_EQ(pthread_join(threads[t], NULL), 0);
        CHECK(args[t].ok);
    }
}

static void test_threads(void) {
    int32_t values[400];
    for (int32_t i = 0; i < 200; i++) {
        values[2 * i] = i;
        values[2 * i + 1] = i + 1;
    }
    struct test_array *array = NULL;
    /* small checked labels, used first by the threads: for us, they race to
     * make the labels in Go, which take the export made at creation */
    for (int repeat = 0; repeat < 20; repeat++) {
        const mts_labels_t *labels = labels_cpu(NAMES_AB, 2, values, 50, &array);
        race_on(labels, 50);
        CHECK_INT_EQ(ta_calls(array, TA_AS_DLPACK), 1);
        CHECK_INT_EQ(array->dlpack_live, KEPT_EXPORTS);
        mts_labels_free(labels);
        CHECK_INT_EQ(array->dlpack_live, 0);
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    }

    /* assume_unique: the threads race to build the lazy values */
    const mts_labels_t *labels = unique_labels_on(NAMES_AB, 2, values, 200, TA_CPU, &array);
    struct thread_args args[4];
    pthread_t threads[4];
    for (int t = 0; t < 4; t++) {
        args[t].labels = labels;
        args[t].count = 200;
        args[t].ok = 0;
        CHECK_INT_EQ(pthread_create(&threads[t], NULL, thread_main, &args[t]), 0);
    }
    for (int t = 0; t < 4; t++) {
        CHECK_INT_EQ(pthread_join(threads[t], NULL), 0);
        CHECK(args[t].ok);
    }
    CHECK(ta_calls(array, TA_AS_DLPACK) >= 1);
    CHECK_INT_EQ(array->dlpack_live, KEPT_EXPORTS);
    mts_labels_free(labels);
    CHECK_INT_EQ(array->dlpack_live, 0);
}

/* the values array of labels whose values the library owns (loaded ones) is made the first
 * time it is asked for: threads asking at once all get the same one, which holds the values */
struct values_args {
    const mts_labels_t *labels;
    mts_array_t array;
    int ok;
};

static void *values_main(void *ptr) {
    struct values_args *args = ptr;
    memset(&args->array, 0, sizeof(args->array));
    args->ok = mts_labels_values(args->labels, &args->array) == MTS_SUCCESS;
    return NULL;
}

static uint8_t *grow_buffer(void *user_data, uint8_t *buffer, uintptr_t size) {
    (void)user_data;
    return realloc(buffer, size);
}

static void test_library_array_threads(void) {
    int32_t values[400];
    for (int32_t i = 0; i < 400; i++) {
        values[i] = i;
    }
    struct test_array *array = NULL;
    const mts_labels_t *made = labels_cpu(NAMES_AB, 2, values, 200, &array);
    for (int repeat = 0; repeat < 20; repeat++) {
        uint8_t *buffer = NULL;
        uintptr_t count = 0;
        CHECK_STATUS(mts_labels_save_buffer(&buffer, &count, NULL, grow_buffer, made), MTS_SUCCESS);
        const mts_labels_t *loaded = mts_labels_load_buffer(buffer, count);
        free(buffer);
        CHECK(loaded != NULL);
        if (loaded == NULL) {
            break;
        }
        struct values_args args[4];
        pthread_t threads[4];
        for (int t = 0; t < 4; t++) {
            args[t].labels = loaded;
            CHECK_INT_EQ(pthread_create(&threads[t], NULL, values_main, &args[t]), 0);
        }
        for (int t = 0; t < 4; t++) {
            CHECK_INT_EQ(pthread_join(threads[t], NULL), 0);
            CHECK(args[t].ok);
            CHECK(args[t].array.ptr != NULL);
            CHECK(args[t].array.ptr == args[0].array.ptr);
            CHECK(args[t].array.destroy == NULL);
        }
        mts_array_t got = args[0].array;
        const uintptr_t *shape = NULL;
        uintptr_t ndim = 0;
        if (got.shape != NULL && got.as_dlpack != NULL) {
            CHECK_STATUS(got.shape(got.ptr, &shape, &ndim), MTS_SUCCESS);
            CHECK_INT_EQ(ndim, 2);
            if (ndim == 2) {
                CHECK_INT_EQ(shape[0], 200);
                CHECK_INT_EQ(shape[1], 2);
            }
            DLManagedTensorVersioned *tensor = NULL;
            DLPackVersion version = {1, 3};
            CHECK_STATUS(got.as_dlpack(got.ptr, &tensor, TA_CPU, NULL, version), MTS_SUCCESS);
            if (tensor != NULL) {
                CHECK(memcmp(tensor->dl_tensor.data, values, sizeof(values)) == 0);
                tensor->deleter(tensor);
            }
        } else {
            CHECK(0);
        }
        /* asked again: the same array */
        mts_array_t again;
        memset(&again, 0, sizeof(again));
        CHECK_STATUS(mts_labels_values(loaded, &again), MTS_SUCCESS);
        CHECK(again.ptr == got.ptr);
        mts_labels_free(loaded);
    }
    mts_labels_free(made);
}

/* ------------------------------------------------------------------------ */
/* the test array itself (it is reused by other tests)                      */

static int i32_data_eq(const struct test_array *array, const int32_t *expected, size_t n) {
    return array != NULL && ta_count(array) == n &&
           (n == 0 || memcmp(array->data, expected, n * sizeof(int32_t)) == 0);
}

static void test_test_array(void) {
    static const int32_t values[] = {1, 2, 3, 4, 5, 6};
    long live = ta_live();
    DLPackVersion version = {1, 3};

    /* as_dlpack with every layout, read back by from_dlpack */
    static const enum ta_layout layouts[] = {
        TA_LAYOUT_NULL_STRIDES,       TA_LAYOUT_C_STRIDES, TA_LAYOUT_NULL_STRIDES_OFFSET,
        TA_LAYOUT_FORTRAN,            TA_LAYOUT_STRIDED_OFFSET,
    };
    for (size_t l = 0; l < ARRAY_SIZE(layouts); l++) {
        struct test_array *source = ta_new_i32(values, 2, 3);
        struct test_array *like = ta_new_i32(NULL, 0, 0);
        source->layout = layouts[l];
        DLManagedTensorVersioned *tensor = NULL;
        CHECK_STATUS(ta_as_dlpack(source, &tensor, TA_CPU, NULL, version), MTS_SUCCESS);
        CHECK_INT_EQ(source->dlpack_live, 1);
        mts_array_t made;
        memset(&made, 0, sizeof(made));
        CHECK_STATUS(ta_from_dlpack(like, tensor, &made), MTS_SUCCESS);
        CHECK_INT_EQ(source->dlpack_live, 0);
        struct test_array *copy = ta_cast(made.ptr);
        CHECK(i32_data_eq(copy, values, 6));
        CHECK(copy != NULL && copy->shape[0] == 2 && copy->shape[1] == 3);
        CHECK(copy != NULL && copy->created_from == like);
        made.destroy(made.ptr);
        ta_destroy(source);
        ta_destroy(like);
    }

    /* as_dlpack refuses other devices and meta arrays */
    struct test_array *array = ta_new_i32(values, 3, 2);
    DLManagedTensorVersioned *tensor = NULL;
    CHECK_STATUS(ta_as_dlpack(array, &tensor, CUDA0, NULL, version), MTS_CALLBACK_ERROR);
    CHECK(tensor == NULL);
    array->device = META;
    CHECK_STATUS(ta_as_dlpack(array, &tensor, TA_CPU, NULL, version), MTS_CALLBACK_ERROR);
    CHECK(tensor == NULL);
    /* a fake CUDA array exports a copy */
    array->device = CUDA0;
    CHECK_STATUS(ta_as_dlpack(array, &tensor, TA_CPU, NULL, version), MTS_SUCCESS);
    if (tensor != NULL) {
        CHECK(tensor->dl_tensor.data != array->data);
        CHECK((tensor->flags & DLPACK_FLAG_BITMASK_IS_COPIED) != 0);
        tensor->deleter(tensor);
    }

    /* reshape, swap_axes */
    uintptr_t shape3[3] = {3, 1, 2};
    CHECK_STATUS(ta_reshape(array, shape3, 3), MTS_SUCCESS);
    CHECK_INT_EQ(array->ndim, 3);
    uintptr_t bad_shape[1] = {5};
    CHECK_STATUS(ta_reshape(array, bad_shape, 1), MTS_CALLBACK_ERROR);
    CHECK_STATUS(ta_swap_axes(array, 0, 2), MTS_SUCCESS);
    static const int32_t swapped[] = {1, 3, 5, 2, 4, 6};
    CHECK(i32_data_eq(array, swapped, 6));
    CHECK(array->shape[0] == 2 && array->shape[1] == 1 && array->shape[2] == 3);

    /* copy keeps the data, on the requested device */
    mts_array_t copy;
    memset(&copy, 0, sizeof(copy));
    CHECK_STATUS(ta_copy(array, CUDA1, &copy), MTS_SUCCESS);
    struct test_array *copied = ta_cast(copy.ptr);
    CHECK(i32_data_eq(copied, swapped, 6));
    CHECK(copied != NULL && copied->device.device_id == 1 && copied->created_by == TA_COPY);

    /* create with a fill value (always destroyed), then move_data */
    int32_t fill_value = -1;
    struct test_array *fill = ta_new(TA_INT32, NULL, 0, &fill_value);
    uintptr_t shape_out[3] = {3, 1, 4};
    mts_array_t created;
    memset(&created, 0, sizeof(created));
    CHECK_STATUS(ta_create(array, shape_out, 3, ta_mts(fill), &created), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
    struct test_array *output = ta_cast(created.ptr);
    CHECK(output != NULL && output->device.device_type == kDLCUDA);
    mts_data_movement_t moves[2] = {{0, 2, 1, 0, 2}, {1, 0, 0, 2, 2}};
    CHECK_STATUS(ta_move_data(output, array, moves, 2), MTS_SUCCESS);
    static const int32_t moved[] = {-1, -1, 2, 4, -1, -1, -1, -1, 3, 5, -1, -1};
    CHECK(i32_data_eq(output, moved, 12));
    created.destroy(created.ptr);
    copy.destroy(copy.ptr);

    /* failures on purpose set the error, with counted data */
    clear_error();
    long data_deleted = atomic_load(&ta_stats.error_data_deleted);
    ta_set_fail(array, TA_DTYPE, 7, NULL);
    DLDataType dtype;
    CHECK_STATUS(ta_dtype(array, &dtype), 7);
    struct record r = last_error();
    CHECK_STR_EQ(r.message, "test array: dtype failed on purpose");
    CHECK_STR_EQ(r.origin, "tests");
    CHECK(r.data != NULL && ((struct ta_error_data *)r.data)->member == TA_DTYPE);
    clear_error();
    CHECK_INT_EQ(atomic_load(&ta_stats.error_data_deleted), data_deleted + 1);

    /* a second destroy is counted, not a crash */
    ta_destroy(array);
    ta_destroy(array);
    CHECK_INT_EQ(atomic_load(&ta_stats.double_destroy), 1);
    atomic_store(&ta_stats.double_destroy, 0);
    CHECK_INT_EQ(ta_live(), live);
}

int main(void) {
    mts_disable_panic_printing();

#ifndef MTS_TEST_ORIGIN_UNASKED
    /* must come first */
    test_origin_fast_path();
#endif

    test_names();
    test_names_read_in_go();
    test_shapes();
    test_duplicate_entries();
    test_small_checked_labels();
    test_assume_unique_is_lazy();
    test_dimensions();
    test_values();
    test_values_cpu();
    test_position();
    test_position_every_width();
    test_clone_and_free();
    test_union();
    test_intersection();
    test_difference();
    test_select();
    test_empty_labels();
    test_callback_errors();
    test_other_device();
    test_meta_device();
    test_threads();
    test_library_array();
    test_library_array_threads();
    test_test_array();

    /* every tensor deleted once; nothing leaked, nothing destroyed twice */
    CHECK_INT_EQ(atomic_load(&ta_stats.dlpack_double_delete), 0);
    CHECK_INT_EQ(atomic_load(&ta_stats.dlpack_exported), atomic_load(&ta_stats.dlpack_deleted));
    CHECK_INT_EQ(atomic_load(&ta_stats.dlpack_deleted_after_destroy), 0);
    CHECK(atomic_load(&ta_stats.dlpack_exported) > 0);
    CHECK_NOTHING_LEAKED();

    return check_summary();
}
