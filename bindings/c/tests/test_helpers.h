/*
 * Helpers shared by the C API tests of labels, blocks and tensor maps
 * (test_labels.c, test_block.c, test_tensormap.c, test_keys_to.c), on top of
 * check.h and the instrumented arrays of test_array.h:
 *
 *   last_error(), last_message()      the current thread's error record
 *   clear_error(), set_stale_error()  reset it, or make it recognisable so that
 *                                     a call which sets no error is noticed
 *   CHECK_ERROR, CHECK_NULL_ERROR     a call fails with a given library error
 *   CHECK_NULL_MESSAGE(name)          the record is the error for a NULL `name`
 *   CHECK_NULL_ARGUMENT(name)         the same, and the origin is the library's
 *   CHECK_NULL_ARG, CHECK_NULL_ARG_PTR a call refuses a NULL argument
 *   range_from(), range()             one-dimension labels of consecutive entries
 *   labels_array(), block_array()     the test array behind labels or a block
 *   block_at(), device_eq()
 *   FREE_LABELS, FREE_BLOCKS,         free each argument, in order
 *   FREE_TENSORS
 *   other_origin_id(), other_origin() a second data origin, and a vtable
 *                                     member claiming it
 *   check_labels_(), check_block_labels_(), check_string_list_(), CHECK_ARRAY,
 *   CHECK_VIEW_OF                     checks of what the library gives back
 *   CHECK_NOTHING_LEAKED              the closing checks of a program
 *
 * and ARRAY_SIZE, the INVALID and INTERNAL_PREFIX message prefixes, the
 * fake devices CUDA0, CUDA1 and META, and the dimension names (NAMES_*) that
 * several programs use. CHECK_STRINGS checks a list of strings one by one.
 *
 * Everything is `static inline`, a constant or a macro, so a program pays
 * nothing for what it does not use. The comment of each check says how many
 * checks it counts; a failure reports the caller's file and line.
 */
#ifndef MTS_TESTS_TEST_HELPERS_H
#define MTS_TESTS_TEST_HELPERS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <metatensor.h>

#include "check.h"
#include "test_array.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* dimension names several programs use */
static const char *const NAMES_A[] = {"a"}, *const NAMES_B[] = {"b"}, *const NAMES_C[] = {"c"},
                         *const NAMES_D[] = {"d"}, *const NAMES_K[] = {"k"},
                         *const NAMES_P[] = {"p"}, *const NAMES_Q[] = {"q"},
                         *const NAMES_S[] = {"s"}, *const NAMES_X[] = {"x"};
static const char *const NAMES_AB[] = {"a", "b"}, *const NAMES_KL[] = {"k", "l"};
static const char *const NAMES_SAMPLE[] = {"sample"}, *const NAMES_SAMPLE_G[] = {"sample", "g"};

#define INVALID "invalid parameter: "
#define INTERNAL_PREFIX "internal metatensor error (this is likely a bug, please report it): "

static const DLDevice CUDA0 = {kDLCUDA, 0};
static const DLDevice CUDA1 = {kDLCUDA, 1};
static const DLDevice META = {kDLExtDev, 0};

/* ------------------------------------------------------------------------ */
/* the error record                                                         */

struct record {
    const char *message;
    const char *origin;
    void *data;
};

static inline struct record last_error(void) {
    struct record r = {NULL, NULL, NULL};
    mts_last_error(&r.message, &r.origin, &r.data);
    return r;
}

static inline const char *last_message(void) {
    return last_error().message;
}

static inline void clear_error(void) {
    mts_set_last_error(NULL, NULL, NULL, NULL);
}

/* make the record recognisable, so a missing error is noticed */
static inline void set_stale_error(void) {
    mts_set_last_error("stale error", "stale origin", NULL, NULL);
}

/* `call` (a status) gives `status` and the library error `message`: 3 checks */
#define CHECK_ERROR(call, status, message)                                           \
    do {                                                                             \
        set_stale_error();                                                           \
        CHECK_STATUS((call), (status));                                              \
        CHECK_STR_EQ(last_message(), (message));                                     \
        CHECK_STR_EQ(last_error().origin, "metatensor-core");                        \
    } while (0)

/* `call` (a pointer) gives NULL and the library error `message`: 3 checks */
#define CHECK_NULL_ERROR(call, message)                                              \
    do {                                                                             \
        set_stale_error();                                                           \
        CHECK((call) == NULL);                                                       \
        CHECK_STR_EQ(last_message(), (message));                                     \
        CHECK_STR_EQ(last_error().origin, "metatensor-core");                        \
    } while (0)

/* The record is the library's error `message`: 2 checks. */
static inline void check_library_error_(const char *message, const char *file, int line) {
    check_str_eq_(last_message(), message, "last_message()", "message", file, line);
    check_str_eq_(last_error().origin, "metatensor-core", "origin", "\"metatensor-core\"", file,
                  line);
}

/* A constructor refused its arguments: `result` is NULL and, unless `message`
 * is NULL, the record is the library's `message`: 1 or 3 checks. */
static inline void check_null_result_(const void *result, const char *message, const char *file,
                                      int line) {
    check_record_(result == NULL, file, line, "result == NULL");
    if (message != NULL) {
        check_library_error_(message, file, line);
    }
}

/* The message of the record is the NULL-argument error for `name`: "got
 * invalid NULL pointer for <name>", then the end or " at <file>:<line>" (not
 * matched). One check. */
static inline void check_null_message_(const char *name, const char *file, int line) {
    char expected[256];
    snprintf(expected, sizeof(expected), INVALID "got invalid NULL pointer for %s", name);
    const char *message = last_message();
    int ok = message != NULL && strncmp(message, expected, strlen(expected)) == 0;
    if (ok) {
        char next = message[strlen(expected)];
        ok = next == '\0' || next == ' ';
    }
    if (!ok) {
        fprintf(stderr, "%s:%d: expected a NULL-argument error for '%s'\n", file, line, name);
    }
    check_record_(ok, file, line, "NULL-argument error");
}
#define CHECK_NULL_MESSAGE(name) check_null_message_((name), __FILE__, __LINE__)

/* the same, and the record's origin is the library's: 2 checks */
static inline void check_null_argument_(const char *name, const char *file, int line) {
    check_null_message_(name, file, line);
    check_str_eq_(last_error().origin, "metatensor-core", "origin", "\"metatensor-core\"", file,
                  line);
}
#define CHECK_NULL_ARGUMENT(name) check_null_argument_((name), __FILE__, __LINE__)

/* `call` (a status) refuses a NULL `name` with status 1: 3 checks */
#define CHECK_NULL_ARG(call, name)                                                   \
    do {                                                                             \
        set_stale_error();                                                           \
        CHECK_STATUS((call), MTS_INVALID_PARAMETER_ERROR);                           \
        CHECK_NULL_ARGUMENT(name);                                                   \
    } while (0)

/* `call` (a pointer) refuses a NULL `name`: 3 checks */
#define CHECK_NULL_ARG_PTR(call, name)                                               \
    do {                                                                             \
        set_stale_error();                                                           \
        CHECK((call) == NULL);                                                       \
        CHECK_NULL_ARGUMENT(name);                                                   \
    } while (0)

/* ------------------------------------------------------------------------ */
/* building and taking apart                                                */

/* one-dimension labels `name` with the entries first .. first+count-1
 * (count <= 64) on `device` */
static inline const mts_labels_t *range_from(const char *const *name, int32_t first,
                                             uintptr_t count, DLDevice device) {
    int32_t values[64];
    for (uintptr_t i = 0; i < count && i < 64; i++) {
        values[i] = first + (int32_t)i;
    }
    return ta_labels_on(name, 1, values, count, device);
}

/* the same with the entries 0 .. count-1 on CPU */
static inline const mts_labels_t *range(const char *const *name, uintptr_t count) {
    return range_from(name, 0, count, TA_CPU);
}

/* the test array holding the values of `labels` */
static inline struct test_array *labels_array(const mts_labels_t *labels) {
    mts_array_t array;
    memset(&array, 0, sizeof(array));
    if (mts_labels_values(labels, &array) != MTS_SUCCESS) {
        return NULL;
    }
    return ta_cast(array.ptr);
}

/* the test array holding the values of `block` */
static inline struct test_array *block_array(mts_block_t *block) {
    mts_array_t array;
    memset(&array, 0, sizeof(array));
    if (mts_block_data(block, &array) != MTS_SUCCESS) {
        return NULL;
    }
    return ta_cast(array.ptr);
}

/* the block `index` of `tensor`, NULL when there is none */
static inline mts_block_t *block_at(mts_tensormap_t *tensor, uintptr_t index) {
    mts_block_t *block = NULL;
    if (mts_tensormap_block_by_id(tensor, &block, index) != MTS_SUCCESS) {
        return NULL;
    }
    return block;
}

/* Reads `tensor` the way most operations start, by making it in our library's Go core: our
 * library answers the reads of a map made in C (its blocks, keys, dtype, device and info) in
 * C until something needs Go, and the info of a key that is not plain ASCII does (Go checks it
 * is UTF-8). The reference gives NULL for this key, as for any key not set. */
static inline int read_in_go_(const mts_tensormap_t *tensor) {
    const char *value = "not read";
    mts_status_t status = mts_tensormap_get_info(tensor, "cl\xc3\xa9", &value);
    return status == MTS_SUCCESS && value == NULL;
}
#define READ_IN_GO(tensor) CHECK(read_in_go_(tensor))

/* `release` on each of the other arguments (pointers to `type`), in order */
#define FREE_ALL(release, type, ...)                            \
    do {                                                        \
        type *const all_[] = {__VA_ARGS__};                     \
        for (size_t i_ = 0; i_ < ARRAY_SIZE(all_); i_++) {      \
            release(all_[i_]);                                  \
        }                                                       \
    } while (0)
#define FREE_LABELS(...) FREE_ALL(mts_labels_free, const mts_labels_t, __VA_ARGS__)
#define FREE_BLOCKS(...) FREE_ALL(mts_block_free, mts_block_t, __VA_ARGS__)
#define FREE_TENSORS(...) FREE_ALL(mts_tensormap_free, mts_tensormap_t, __VA_ARGS__)

/* a second data origin, for arrays claiming to come from elsewhere */
static inline mts_data_origin_t other_origin_id(void) {
    mts_data_origin_t origin = 0;
    mts_register_data_origin("metatensor-go.tests.other", &origin);
    return origin;
}

/* an `origin` member giving other_origin_id() (the call is still counted) */
static inline mts_status_t other_origin(const void *ptr, mts_data_origin_t *origin) {
    mts_status_t status = ta_origin(ptr, origin);
    if (status == MTS_SUCCESS) {
        *origin = other_origin_id();
    }
    return status;
}

static inline int device_eq(DLDevice a, DLDevice b) {
    return a.device_type == b.device_type && a.device_id == b.device_id;
}

/* ------------------------------------------------------------------------ */
/* checks of labels and arrays                                              */

/* `view` is a non-owning view of the test array `array`: its pointer, a NULL
 * destroy, and every other member as ta_mts(array) has it. 13 checks. */
static inline void check_view_of_(mts_array_t view, struct test_array *array, const char *file,
                                  int line) {
    mts_array_t expected = ta_mts(array);
    check_record_(view.ptr == array, file, line, "view.ptr == array");
    check_record_(view.destroy == NULL, file, line, "view.destroy == NULL");
#define CHECK_VIEW_MEMBER_(member) \
    check_record_(view.member == expected.member, file, line, "view." #member " == expected")
    CHECK_VIEW_MEMBER_(origin);
    CHECK_VIEW_MEMBER_(device);
    CHECK_VIEW_MEMBER_(dtype);
    CHECK_VIEW_MEMBER_(as_dlpack);
    CHECK_VIEW_MEMBER_(from_dlpack);
    CHECK_VIEW_MEMBER_(shape);
    CHECK_VIEW_MEMBER_(reshape);
    CHECK_VIEW_MEMBER_(swap_axes);
    CHECK_VIEW_MEMBER_(create);
    CHECK_VIEW_MEMBER_(copy);
    CHECK_VIEW_MEMBER_(move_data);
#undef CHECK_VIEW_MEMBER_
}
#define CHECK_VIEW_OF(view, array) check_view_of_((view), (array), __FILE__, __LINE__)

/* the rest are one check each */


/* whether `labels` has these names and entries, printing what it has when not; no check is
 * counted, so that threads may call it */
static inline int labels_match_(const mts_labels_t *labels, const char *const *names,
                                uintptr_t size, const int32_t *values, uintptr_t count,
                                const char *file, int line) {
    const char *const *got_names = NULL;
    uintptr_t got_size = 0;
    const int32_t *got_values = NULL;
    uintptr_t got_count = 0, got_values_size = 0;
    int ok = labels != NULL &&
             mts_labels_dimensions(labels, &got_names, &got_size) == MTS_SUCCESS &&
             got_size == size &&
             mts_labels_values_cpu(labels, &got_values, &got_count, &got_values_size) ==
                 MTS_SUCCESS &&
             got_count == count && got_values_size == size;
    for (uintptr_t i = 0; ok && i < size; i++) {
        ok = strcmp(got_names[i], names[i]) == 0;
    }
    if (ok && count * size != 0) {
        ok = memcmp(got_values, values, count * size * sizeof(int32_t)) == 0;
    }
    if (!ok && labels != NULL) {
        fprintf(stderr, "%s:%d: labels", file, line);
        for (uintptr_t i = 0; got_names != NULL && i < got_size; i++) {
            fprintf(stderr, " %s", got_names[i]);
        }
        fprintf(stderr, " (%zu entries):", (size_t)got_count);
        for (uintptr_t i = 0; got_values != NULL && i < got_count * got_values_size; i++) {
            fprintf(stderr, " %d", got_values[i]);
        }
        fprintf(stderr, "\n");
    }
    return ok;
}

/* the names and entries of `labels` */
static inline void check_labels_(const mts_labels_t *labels, const char *const *names,
                                 uintptr_t size, const int32_t *values, uintptr_t count,
                                 const char *file, int line) {
    check_record_(labels_match_(labels, names, size, values, count, file, line), file, line,
                  "check_labels");
}

/* the same for the labels of `axis` of `block` */
static inline void check_block_labels_(mts_block_t *block, uintptr_t axis,
                                       const char *const *names, uintptr_t size,
                                       const int32_t *values, uintptr_t count, const char *file,
                                       int line) {
    const mts_labels_t *labels = mts_block_labels(block, axis);
    check_labels_(labels, names, size, values, count, file, line);
    mts_labels_free(labels);
}

/* A list of strings that a call wrote, `got_count` strings at `got`, after
 * returning `status`: MTS_SUCCESS and `expected` (in order); NULL when empty.
 * `what` names the check in the report. */
static inline void check_string_list_(mts_status_t status, const char *const *got,
                                      uintptr_t got_count, const char *const *expected,
                                      uintptr_t count, const char *what, const char *file,
                                      int line) {
    int ok = status == MTS_SUCCESS && got_count == count;
    if (ok && count == 0) {
        ok = got == NULL;
    }
    for (uintptr_t i = 0; ok && i < count; i++) {
        ok = got[i] != NULL && strcmp(got[i], expected[i]) == 0;
    }
    if (!ok) {
        fprintf(stderr, "%s:%d: %s (status %d, count %zu):", file, line, what, (int)status,
                (size_t)got_count);
        for (uintptr_t i = 0; status == MTS_SUCCESS && got != NULL && i < got_count; i++) {
            fprintf(stderr, " '%s'", got[i]);
        }
        fprintf(stderr, "\n");
    }
    check_record_(ok, file, line, what);
}

/* The same list checked string by string: `status` is MTS_SUCCESS, the
 * count is `count` and, when it is, each string equals its `expected`:
 * count + 2 checks. */
static inline void check_strings_(mts_status_t status, const char *const *got,
                                  uintptr_t got_count, const char *const *expected,
                                  uintptr_t count, const char *file, int line) {
    check_int_eq_(status, MTS_SUCCESS, "status", "MTS_SUCCESS", "CHECK_STATUS", file, line);
    check_int_eq_((long long)got_count, (long long)count, "count", "expected count",
                  "CHECK_INT_EQ", file, line);
    for (uintptr_t i = 0; got_count == count && i < count; i++) {
        check_str_eq_(got[i], expected[i], "got[i]", "expected[i]", file, line);
    }
}
#define CHECK_STRINGS(status, got, got_count, expected) \
    check_strings_((status), (got), (got_count), (expected), ARRAY_SIZE(expected), __FILE__, \
                   __LINE__)

/* The strings that `getter(object, &list, &count)` lists, list and count
 * poisoned before the call, are `expected` (see check_string_list_). */
#define CHECK_LISTED_(getter, object, expected, count, what)                            \
    do {                                                                                \
        const char *const *list_ = (const char *const *)&list_;                         \
        uintptr_t got_ = 12345;                                                         \
        mts_status_t status_ = getter((object), &list_, &got_);                         \
        check_string_list_(status_, list_, got_, (expected), (count), (what), __FILE__, \
                           __LINE__);                                                   \
    } while (0)

/* the shape and float64 values of a test array; NaN equals NaN */
static inline void check_array_(const struct test_array *array, const uintptr_t *shape,
                                uintptr_t ndim, const double *values, const char *file,
                                int line) {
    int ok = array != NULL && array->ndim == ndim && ta_dtype_eq(array->dtype, TA_FLOAT64);
    for (uintptr_t d = 0; ok && d < ndim; d++) {
        ok = array->shape[d] == shape[d];
    }
    size_t total = ok ? ta_count(array) : 0;
    for (size_t i = 0; ok && i < total; i++) {
        double got = ta_f64_at(array, i);
        ok = isnan(values[i]) ? isnan(got) : got == values[i];
    }
    if (!ok && array != NULL) {
        fprintf(stderr, "%s:%d: array of shape [", file, line);
        for (uintptr_t d = 0; d < array->ndim; d++) {
            fprintf(stderr, "%s%zu", d == 0 ? "" : ", ", (size_t)array->shape[d]);
        }
        fprintf(stderr, "]:");
        for (size_t i = 0; i < ta_count(array) && i < 64; i++) {
            fprintf(stderr, " %g", ta_f64_at(array, i));
        }
        fprintf(stderr, "\n");
    }
    check_record_(ok, file, line, "check_array");
}
/* `shape` is an array, whose length is the number of dimensions */
#define CHECK_ARRAY(array, shape, values) \
    check_array_((array), (shape), ARRAY_SIZE(shape), (values), __FILE__, __LINE__)


/* ------------------------------------------------------------------------ */
/* the end of a program                                                     */

/* Nothing leaked: no test array is alive, none was destroyed twice, the
 * library zeroed every out-array it wrote, every error data made by a test
 * array was deleted, and ta_finish agrees (it frees the graveyards). Clears
 * the error record first. 5 checks. */
#define CHECK_NOTHING_LEAKED()                                                       \
    do {                                                                             \
        clear_error();                                                               \
        CHECK_INT_EQ(ta_live(), 0);                                                  \
        CHECK_INT_EQ(atomic_load(&ta_stats.double_destroy), 0);                      \
        CHECK_INT_EQ(atomic_load(&ta_stats.out_not_zeroed), 0);                      \
        CHECK_INT_EQ(atomic_load(&ta_stats.error_data_created),                      \
                     atomic_load(&ta_stats.error_data_deleted));                     \
        CHECK_INT_EQ(ta_finish(), 0);                                                \
    } while (0)

#endif
