/*
 * Tests of mts_tensormap_keys_to_properties and mts_tensormap_keys_to_samples
 * (the reference's behaviour of docs/reference-behaviour.md#keys-to, with its
 * ownership rules and callback errors).
 *
 * The first tensor map is the fixture of the reference's C++ tests (keys
 * (key_1, key_2) = (0, 0), (1, 0), (2, 2), (2, 3), constant values), built
 * here with the instrumented arrays of test_array.h, so that the calls to
 * `create` and `move_data` can be counted and the fill value's destruction
 * checked. Smaller maps with distinct values check where each value lands.
 * At the end no test array may be alive and none may have been destroyed
 * twice.
 *
 * Built with MTS_TEST_REFERENCE defined, the tests expect the reference's
 * behaviour (the library in build/reference); otherwise ours. Where they
 * differ:
 *  - a failing `from_dlpack` while the new labels are built is a panic in
 *    the reference (255, "invalid labels in <place>: CallbackError"), which
 *    loses the callback's message, origin and data; ours reports it as a
 *    callback error (254) keeping them, as for the labels set operations.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_helpers.h"

static const char *const NAMES_KEYS[] = {"key_1", "key_2"};
static const char *const NAMES_KEY_1[] = {"key_1"};
static const char *const NAMES_KEY_2[] = {"key_2"};
static const char *const NAMES_SAMPLES[] = {"samples"};
static const char *const NAMES_COMPONENT[] = {"component"};
static const char *const NAMES_PROPERTIES[] = {"properties"};
static const char *const NAMES_SAMPLE_PARAMETER[] = {"sample", "parameter"};
static const char *const NAMES_SAMPLES_KEY_2[] = {"samples", "key_2"};
static const char *const NAMES_KEY_1_PROPERTIES[] = {"key_1", "properties"};
static const char *const NAMES_S_K[] = {"s", "k"};
static const char *const NAMES_K_P[] = {"k", "p"};
static const char *const NAMES_UNDERSCORE[] = {"_"};
static const char *const NAMES_ZZ[] = {"zz"};

#define N NAN

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

/* the gradient `parameter` of `block`, NULL when there is none */
static mts_block_t *gradient_of(mts_block_t *block, const char *parameter) {
    mts_block_t *gradient = NULL;
    if (mts_block_gradient(block, parameter, &gradient) != MTS_SUCCESS) {
        return NULL;
    }
    return gradient;
}

/* `values` is an array of `size`-wide rows */
#define CHECK_BLOCK_LABELS(block, axis, names, values) \
    check_block_labels_((block), (axis), (names), ARRAY_SIZE(names), (values), \
                        ARRAY_SIZE(values) / ARRAY_SIZE(names), __FILE__, __LINE__)

static void check_keys_(mts_tensormap_t *tensor, const char *const *names, uintptr_t size,
                        const int32_t *values, uintptr_t count, int line) {
    const mts_labels_t *keys = mts_tensormap_keys(tensor);
    check_labels_(keys, names, size, values, count, __FILE__, line);
    mts_labels_free(keys);
}
#define CHECK_KEYS(tensor, names, values) \
    check_keys_((tensor), (names), ARRAY_SIZE(names), (values), \
                ARRAY_SIZE(values) / ARRAY_SIZE(names), __LINE__)

/* a float64 array of the given shape filled with `value` */
static struct test_array *filled(uintptr_t a, uintptr_t b, uintptr_t c, double value) {
    uintptr_t shape[3] = {a, b, c};
    return ta_new_f64_filled(shape, 3, value);
}

/* a block from its labels (one component or none), values made by the
 * caller; the labels are released */
static mts_block_t *block_from(struct test_array *values, const mts_labels_t *samples,
                               const mts_labels_t *component, const mts_labels_t *properties) {
    mts_block_t *block = mts_block(ta_mts(values), samples, component != NULL ? &component : NULL,
                                   component != NULL ? 1 : 0, properties);
    CHECK(block != NULL);
    FREE_LABELS(samples, component, properties);
    return block;
}

/* keys_to_properties or keys_to_samples */
typedef mts_tensormap_t *(*keys_to_fn)(const mts_tensormap_t *, const mts_labels_t *,
                                       mts_array_t, bool);

/* both operations, properties first */
static const keys_to_fn KEYS_TO[2] = {mts_tensormap_keys_to_properties,
                                      mts_tensormap_keys_to_samples};

/* ------------------------------------------------------------------------ */
/* the C++ fixture                                                          */

struct cpp_fixture {
    mts_tensormap_t *tensor;
    struct test_array *keys;
    struct test_array *values[4];
    struct test_array *gradients[4];
    struct test_array *samples[4];
    struct test_array *properties[4];
};

static mts_block_t *cpp_block(struct cpp_fixture *f, int i, const int32_t *samples,
                              uintptr_t samples_count, uintptr_t components,
                              const int32_t *properties, uintptr_t properties_count,
                              double value, const int32_t *gradient_samples,
                              uintptr_t gradient_count, double gradient_value) {
    static const int32_t component_values[] = {0, 1, 2};
    const mts_labels_t *s = ta_labels(NAMES_SAMPLES, 1, samples, samples_count);
    const mts_labels_t *c = ta_labels(NAMES_COMPONENT, 1, component_values, components);
    const mts_labels_t *p = ta_labels(NAMES_PROPERTIES, 1, properties, properties_count);
    f->samples[i] = labels_array(s);
    f->properties[i] = labels_array(p);
    f->values[i] = filled(samples_count, components, properties_count, value);
    const mts_labels_t *gs = ta_labels(NAMES_SAMPLE_PARAMETER, 2, gradient_samples,
                                       gradient_count);
    f->gradients[i] = filled(gradient_count, components, properties_count, gradient_value);
    mts_block_t *gradient = mts_block(ta_mts(f->gradients[i]), gs, &c, 1, p);
    CHECK(gradient != NULL);
    mts_labels_free(gs);
    mts_block_t *block = block_from(f->values[i], s, c, p);
    CHECK_STATUS(mts_block_add_gradient(block, "parameter", gradient), MTS_SUCCESS);
    return block;
}

static struct cpp_fixture cpp_fixture(void) {
    struct cpp_fixture f;
    memset(&f, 0, sizeof(f));
    mts_block_t *blocks[4];

    static const int32_t samples_1[] = {0, 2, 4};
    static const int32_t properties_1[] = {0};
    static const int32_t gradient_1[] = {0, -2, 2, 3};
    blocks[0] = cpp_block(&f, 0, samples_1, 3, 1, properties_1, 1, 1.0, gradient_1, 2, 11.0);

    static const int32_t samples_2[] = {0, 1, 3};
    static const int32_t properties_2[] = {3, 4, 5};
    static const int32_t gradient_2[] = {0, -2, 0, 3, 2, -2};
    blocks[1] = cpp_block(&f, 1, samples_2, 3, 1, properties_2, 3, 2.0, gradient_2, 3, 12.0);

    static const int32_t samples_3[] = {0, 3, 6, 8};
    static const int32_t gradient_3[] = {1, -2};
    blocks[2] = cpp_block(&f, 2, samples_3, 4, 3, properties_1, 1, 3.0, gradient_3, 1, 13.0);

    static const int32_t samples_4[] = {0, 1, 2, 5};
    static const int32_t gradient_4[] = {0, 1, 3, 3};
    blocks[3] = cpp_block(&f, 3, samples_4, 4, 3, properties_1, 1, 4.0, gradient_4, 2, 14.0);

    static const int32_t keys[] = {0, 0, 1, 0, 2, 2, 2, 3};
    const mts_labels_t *labels = ta_labels(NAMES_KEYS, 2, keys, 4);
    f.keys = labels_array(labels);
    f.tensor = mts_tensormap(labels, blocks, 4);
    CHECK(f.tensor != NULL);
    mts_labels_free(labels);
    return f;
}

/* the calls of `member` on each array of the fixture */
struct counts {
    int values[4];
    int gradients[4];
};

static struct counts count_calls(const struct cpp_fixture *f, enum ta_member member) {
    struct counts counts;
    for (int i = 0; i < 4; i++) {
        counts.values[i] = ta_calls(f->values[i], member);
        counts.gradients[i] = ta_calls(f->gradients[i], member);
    }
    return counts;
}

/* the end of a test: frees `move` and `tensor`, then nothing made since
 * `live` is alive: 1 check */
static void end_test_(const mts_labels_t *move, mts_tensormap_t *tensor, long live, int line) {
    mts_labels_free(move);
    mts_tensormap_free(tensor);
    check_int_eq_(ta_live(), live, "ta_live()", "live", "CHECK_INT_EQ", __FILE__, line);
}
#define END_TEST(move, tensor, live) end_test_((move), (tensor), (live), __LINE__)

/* the start of a test that moves "k" of the small map `variant`: declares `live` (for
 * END_TEST), the map `m` and `move` */
#define SMALL_TEST_START(variant)                                                                  \
    long live = ta_live();                                                                         \
    struct small m = small_map(variant);                                                           \
    const mts_labels_t *move = ta_labels(NAMES_K, 1, NULL, 0)

/* `function(tensor, move, fill)` fails with `message` (NULL: do not check
 * it) and destroys the fill value exactly once */
static void check_keys_to_error_(keys_to_fn function, const mts_tensormap_t *tensor,
                                 const mts_labels_t *move, const char *message, int line) {
    long live = ta_live();
    struct test_array *fill = ta_scalar_f64(0.5);
    set_stale_error();
    mts_tensormap_t *result = function(tensor, move, ta_mts(fill), true);
    check_null_result_(result, message, __FILE__, line);
    check_int_eq_(ta_calls(fill, TA_DESTROY), 1, "fill destroyed", "1", "CHECK_INT_EQ",
                  __FILE__, line);
    check_int_eq_(ta_live(), live, "ta_live()", "live", "CHECK_INT_EQ", __FILE__, line);
    mts_tensormap_free(result);
}
#define CHECK_KEYS_TO_ERROR(function, tensor, move, message) \
    check_keys_to_error_((function), (tensor), (move), (message), __LINE__)

/* both functions fail as CHECK_KEYS_TO_ERROR says, with the message `format` where %s is
 * "properties" or "samples", the function's own word */
static void check_both_keys_to_errors_(const mts_tensormap_t *tensor, const mts_labels_t *move,
                                       const char *format, int line) {
    static const char *const words[2] = {"properties", "samples"};
    for (int i = 0; i < 2; i++) {
        char message[512];
        snprintf(message, sizeof(message), format, words[i]);
        check_keys_to_error_(KEYS_TO[i], tensor, move, message, line);
    }
}
#define CHECK_BOTH_KEYS_TO_ERRORS(tensor, move, format) \
    check_both_keys_to_errors_((tensor), (move), (format), __LINE__)

/* `function` moves `move` of `tensor` with `fill`, sorting the samples or
 * not: it succeeds and destroys the fill once (2 checks) */
static mts_tensormap_t *moved_keys_(keys_to_fn function, const mts_tensormap_t *tensor,
                                    const mts_labels_t *move, struct test_array *fill, bool sort,
                                    int line) {
    mts_tensormap_t *result = function(tensor, move, ta_mts(fill), sort);
    check_record_(result != NULL, __FILE__, line, "result != NULL");
    check_int_eq_(ta_calls(fill, TA_DESTROY), 1, "fill destroyed", "1", "CHECK_INT_EQ",
                  __FILE__, line);
    return result;
}
#define MOVED_KEYS(function, tensor, move, fill, sort) \
    moved_keys_((function), (tensor), (move), (fill), (sort), __LINE__)

/* the info keys of `tensor` are `expected`: count + 2 checks */
static void check_info_(const mts_tensormap_t *tensor, const char *const *expected,
                        uintptr_t count, int line) {
    const char *const *info = NULL;
    uintptr_t info_count = 0;
    mts_status_t status = mts_tensormap_info_keys(tensor, &info, &info_count);
    check_strings_(status, info, info_count, expected, count, __FILE__, line);
}
#define CHECK_INFO(tensor, expected) \
    check_info_((tensor), (expected), ARRAY_SIZE(expected), __LINE__)

/* the create calls on the fixture's arrays and the move_data calls so far */
struct calls_before {
    struct counts creates;
    long moves;
};

static struct calls_before calls_before(const struct cpp_fixture *f) {
    struct calls_before before = {count_calls(f, TA_CREATE), ta_total_calls(TA_MOVE_DATA)};
    return before;
}

/* the fixture with two info entries, set in order */
static struct cpp_fixture cpp_fixture_info(const char *first, const char *first_value,
                                           const char *second, const char *second_value) {
    struct cpp_fixture f = cpp_fixture();
    mts_tensormap_set_info(f.tensor, first, first_value);
    mts_tensormap_set_info(f.tensor, second, second_value);
    return f;
}

/* the start of a test of the C++ suite's case: moves `key` of the fixture with the info
 * entries `...` (cpp_fixture_info), a NaN fill; declares live (for END_TEST), f, move, fill
 * and before */
#define CPP_TEST_START(key, ...)                                                                   \
    long live = ta_live();                                                                         \
    struct cpp_fixture f = cpp_fixture_info(__VA_ARGS__);                                          \
    const mts_labels_t *move = ta_labels(key, 1, NULL, 0);                                         \
    struct test_array *fill = ta_scalar_f64(NAN);                                                  \
    struct calls_before before = calls_before(&f)

static void test_cpp_keys_to_samples(void) {
    CPP_TEST_START(NAMES_KEY_2, "zeta", "z", "alpha", "a");
    int keys_from_dlpack = ta_calls(f.keys, TA_FROM_DLPACK);

    mts_tensormap_t *tensor = MOVED_KEYS(mts_tensormap_keys_to_samples, f.tensor, move, fill, true);

    static const int32_t keys[] = {0, 1, 2};
    CHECK_KEYS(tensor, NAMES_KEY_1, keys);
    /* the new keys were made "like" the old ones */
    const mts_labels_t *new_keys = mts_tensormap_keys(tensor);
    struct test_array *new_keys_array = labels_array(new_keys);
    CHECK(new_keys_array != NULL && new_keys_array->created_by == TA_FROM_DLPACK &&
          new_keys_array->created_from == f.keys);
    CHECK(ta_calls(f.keys, TA_FROM_DLPACK) > keys_from_dlpack);
    mts_labels_free(new_keys);

    /* the info, in alphabetical order */
    static const char *const info_keys[] = {"alpha", "zeta"};
    CHECK_INFO(tensor, info_keys);

    /* blocks 0 and 1 are the old blocks 0 and 1 */
    mts_block_t *block = block_at(tensor, 0);
    static const int32_t samples_0[] = {0, 0, 2, 0, 4, 0};
    CHECK_BLOCK_LABELS(block, 0, NAMES_SAMPLES_KEY_2, samples_0);
    static const int32_t zero[] = {0};
    CHECK_BLOCK_LABELS(block, 1, NAMES_COMPONENT, zero);
    CHECK_BLOCK_LABELS(block, 2, NAMES_PROPERTIES, zero);
    static const uintptr_t shape_0[] = {3, 1, 1};
    static const double values_0[] = {1, 1, 1};
    struct test_array *array = block_array(block);
    CHECK_ARRAY(array, shape_0, values_0);
    CHECK(array != NULL && array->created_by == TA_CREATE && array->created_from == f.values[0]);
    mts_block_t *gradient = gradient_of(block, "parameter");
    static const int32_t gradient_samples_0[] = {0, -2, 2, 3};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_PARAMETER, gradient_samples_0);
    static const uintptr_t gradient_shape_0[] = {2, 1, 1};
    static const double gradient_0[] = {11, 11};
    array = block_array(gradient);
    CHECK_ARRAY(array, gradient_shape_0, gradient_0);
    /* keys_to_samples makes the gradient arrays from the gradient's */
    CHECK(array != NULL && array->created_by == TA_CREATE &&
          array->created_from == f.gradients[0]);

    block = block_at(tensor, 1);
    static const int32_t samples_1[] = {0, 0, 1, 0, 3, 0};
    CHECK_BLOCK_LABELS(block, 0, NAMES_SAMPLES_KEY_2, samples_1);
    static const int32_t properties_1[] = {3, 4, 5};
    CHECK_BLOCK_LABELS(block, 2, NAMES_PROPERTIES, properties_1);
    static const uintptr_t shape_1[] = {3, 1, 3};
    static const double values_1[] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
    CHECK_ARRAY(block_array(block), shape_1, values_1);

    /* block 2 merges the old blocks 2 and 3 */
    block = block_at(tensor, 2);
    static const int32_t samples_2[] = {0, 2, 0, 3, 1, 3, 2, 3, 3, 2, 5, 3, 6, 2, 8, 2};
    CHECK_BLOCK_LABELS(block, 0, NAMES_SAMPLES_KEY_2, samples_2);
    static const int32_t three[] = {0, 1, 2};
    CHECK_BLOCK_LABELS(block, 1, NAMES_COMPONENT, three);
    CHECK_BLOCK_LABELS(block, 2, NAMES_PROPERTIES, zero);
    static const uintptr_t shape_2[] = {8, 3, 1};
    static const double values_2[] = {3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4,
                                      3, 3, 3, 4, 4, 4, 3, 3, 3, 3, 3, 3};
    array = block_array(block);
    CHECK_ARRAY(array, shape_2, values_2);
    /* made by the first block of the group, one move_data per block */
    CHECK(array != NULL && array->created_from == f.values[2]);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 2);
    gradient = gradient_of(block, "parameter");
    static const int32_t gradient_samples_2[] = {1, 1, 4, -2, 5, 3};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_PARAMETER, gradient_samples_2);
    static const uintptr_t gradient_shape_2[] = {3, 3, 1};
    static const double gradient_2[] = {14, 14, 14, 13, 13, 13, 14, 14, 14};
    array = block_array(gradient);
    CHECK_ARRAY(array, gradient_shape_2, gradient_2);
    CHECK(array != NULL && array->created_from == f.gradients[2]);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 2);

    /* one create per new array, on the group's first block */
    struct counts after = count_calls(&f, TA_CREATE);
    static const int expected_values[] = {1, 1, 1, 0};
    for (int i = 0; i < 4; i++) {
        CHECK_INT_EQ(after.values[i] - before.creates.values[i], expected_values[i]);
        CHECK_INT_EQ(after.gradients[i] - before.creates.gradients[i], expected_values[i]);
    }
    /* one move_data per old block and per gradient */
    CHECK_INT_EQ(ta_total_calls(TA_MOVE_DATA), before.moves + 8);
    mts_tensormap_free(tensor);

    /* unsorted samples: first-seen order; the gradient samples are still
     * sorted */
    fill = ta_scalar_f64(NAN);
    tensor = MOVED_KEYS(mts_tensormap_keys_to_samples, f.tensor, move, fill, false);
    block = block_at(tensor, 2);
    static const int32_t unsorted[] = {0, 2, 3, 2, 6, 2, 8, 2, 0, 3, 1, 3, 2, 3, 5, 3};
    CHECK_BLOCK_LABELS(block, 0, NAMES_SAMPLES_KEY_2, unsorted);
    static const double unsorted_values[] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
                                             4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    CHECK_ARRAY(block_array(block), shape_2, unsorted_values);
    gradient = gradient_of(block, "parameter");
    static const int32_t unsorted_gradient_samples[] = {1, -2, 4, 1, 7, 3};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_PARAMETER, unsorted_gradient_samples);
    static const double unsorted_gradient[] = {13, 13, 13, 14, 14, 14, 14, 14, 14};
    CHECK_ARRAY(block_array(gradient), gradient_shape_2, unsorted_gradient);
    mts_tensormap_free(tensor);

    /* the input is unchanged */
    for (int i = 0; i < 4; i++) {
        CHECK(block_array(block_at(f.tensor, (uintptr_t)i)) == f.values[i]);
        CHECK_INT_EQ(ta_calls(f.values[i], TA_DESTROY), 0);
    }
    static const int32_t old_keys[] = {0, 0, 1, 0, 2, 2, 2, 3};
    CHECK_KEYS(f.tensor, NAMES_KEYS, old_keys);

    END_TEST(move, f.tensor, live);
}

static void test_cpp_keys_to_properties(void) {
    CPP_TEST_START(NAMES_KEY_1, "b", "2", "a", "1");

    mts_tensormap_t *tensor =
        MOVED_KEYS(mts_tensormap_keys_to_properties, f.tensor, move, fill, true);
    /* its shape was checked, then create got a view of it */
    CHECK(ta_calls(fill, TA_SHAPE) >= 1);

    static const int32_t keys[] = {0, 2, 3};
    CHECK_KEYS(tensor, NAMES_KEY_2, keys);
    static const char *const info_keys[] = {"a", "b"};
    CHECK_INFO(tensor, info_keys);

    /* block 0 merges the old blocks 0 and 1 */
    mts_block_t *block = block_at(tensor, 0);
    static const int32_t samples_0[] = {0, 1, 2, 3, 4};
    CHECK_BLOCK_LABELS(block, 0, NAMES_SAMPLES, samples_0);
    static const int32_t zero[] = {0};
    CHECK_BLOCK_LABELS(block, 1, NAMES_COMPONENT, zero);
    static const int32_t properties_0[] = {0, 0, 1, 3, 1, 4, 1, 5};
    CHECK_BLOCK_LABELS(block, 2, NAMES_KEY_1_PROPERTIES, properties_0);
    /* the merged labels were made like block 0's */
    const mts_labels_t *labels = mts_block_labels(block, 0);
    struct test_array *array = labels_array(labels);
    CHECK(array != NULL && array->created_by == TA_FROM_DLPACK &&
          array->created_from == f.samples[0]);
    mts_labels_free(labels);
    labels = mts_block_labels(block, 2);
    array = labels_array(labels);
    CHECK(array != NULL && array->created_by == TA_FROM_DLPACK &&
          array->created_from == f.properties[0]);
    mts_labels_free(labels);

    static const uintptr_t shape_0[] = {5, 1, 4};
    static const double values_0[] = {1, 2, 2, 2, N, 2, 2, 2, 1, N, N, N,
                                      N, 2, 2, 2, 1, N, N, N};
    array = block_array(block);
    CHECK_ARRAY(array, shape_0, values_0);
    CHECK(array != NULL && array->created_by == TA_CREATE && array->created_from == f.values[0]);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 2);

    mts_block_t *gradient = gradient_of(block, "parameter");
    static const int32_t gradient_samples_0[] = {0, -2, 0, 3, 3, -2, 4, 3};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_PARAMETER, gradient_samples_0);
    CHECK_BLOCK_LABELS(gradient, 2, NAMES_KEY_1_PROPERTIES, properties_0);
    static const uintptr_t gradient_shape_0[] = {4, 1, 4};
    static const double gradient_0[] = {11, 12, 12, 12, N, 12, 12, 12,
                                        N, 12, 12, 12, 11, N, N, N};
    array = block_array(gradient);
    CHECK_ARRAY(array, gradient_shape_0, gradient_0);
    /* keys_to_properties makes the gradient arrays from the values' */
    CHECK(array != NULL && array->created_by == TA_CREATE && array->created_from == f.values[0]);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 2);

    /* blocks 1 and 2 are the old blocks 2 and 3 */
    block = block_at(tensor, 1);
    static const int32_t samples_1[] = {0, 3, 6, 8};
    CHECK_BLOCK_LABELS(block, 0, NAMES_SAMPLES, samples_1);
    static const int32_t properties_1[] = {2, 0};
    CHECK_BLOCK_LABELS(block, 2, NAMES_KEY_1_PROPERTIES, properties_1);
    static const uintptr_t shape_1[] = {4, 3, 1};
    static const double threes[] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    CHECK_ARRAY(block_array(block), shape_1, threes);
    block = block_at(tensor, 2);
    static const int32_t samples_2[] = {0, 1, 2, 5};
    CHECK_BLOCK_LABELS(block, 0, NAMES_SAMPLES, samples_2);
    CHECK_BLOCK_LABELS(block, 2, NAMES_KEY_1_PROPERTIES, properties_1);
    static const double fours[] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    CHECK_ARRAY(block_array(block), shape_1, fours);
    gradient = gradient_of(block, "parameter");
    static const int32_t gradient_samples_2[] = {0, 1, 3, 3};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_PARAMETER, gradient_samples_2);

    /* two creates (values, gradient) on the first block of each group */
    struct counts after = count_calls(&f, TA_CREATE);
    static const int expected_values[] = {2, 0, 2, 2};
    for (int i = 0; i < 4; i++) {
        CHECK_INT_EQ(after.values[i] - before.creates.values[i], expected_values[i]);
        CHECK_INT_EQ(after.gradients[i] - before.creates.gradients[i], 0);
    }
    CHECK_INT_EQ(ta_total_calls(TA_MOVE_DATA), before.moves + 8);
    mts_tensormap_free(tensor);

    /* unsorted samples; the gradient samples are sorted whatever happens */
    fill = ta_scalar_f64(-1.0);
    tensor = MOVED_KEYS(mts_tensormap_keys_to_properties, f.tensor, move, fill, false);
    block = block_at(tensor, 0);
    static const int32_t unsorted[] = {0, 2, 4, 1, 3};
    CHECK_BLOCK_LABELS(block, 0, NAMES_SAMPLES, unsorted);
    static const double unsorted_values[] = {1, 2, 2, 2, 1, -1, -1, -1, 1, -1, -1, -1,
                                             -1, 2, 2, 2, -1, 2, 2, 2};
    CHECK_ARRAY(block_array(block), shape_0, unsorted_values);
    gradient = gradient_of(block, "parameter");
    static const int32_t unsorted_gradient_samples[] = {0, -2, 0, 3, 2, 3, 4, -2};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_PARAMETER, unsorted_gradient_samples);
    static const double unsorted_gradient[] = {11, 12, 12, 12, -1, 12, 12, 12,
                                               11, -1, -1, -1, -1, 12, 12, 12};
    CHECK_ARRAY(block_array(gradient), gradient_shape_0, unsorted_gradient);
    mts_tensormap_free(tensor);

    /* moving both keys: the blocks have different components */
    const mts_labels_t *both = ta_labels(NAMES_KEYS, 2, NULL, 0);
    CHECK_BOTH_KEYS_TO_ERRORS(f.tensor, both,
                              INVALID "can not move keys to %s if the blocks have different "
                                      "components labels, call components_to_properties first");
    mts_labels_free(both);

    END_TEST(move, f.tensor, live);
}

/* ------------------------------------------------------------------------ */
/* a map with distinct values                                               */

/* keys k = 0, 1, 2; samples s; properties p = (0, 1); no components; a
 * gradient "g" with samples (sample, g):
 *   k=0: s = 0, 1   values [[1, 2], [3, 4]]   gradient (1, 0): [[11, 12]]
 *   k=1: s = 1, 2   values [[5, 6], [7, 8]]   gradient (0, 5): [[13, 14]]
 *   k=2: s = 0      values [[9, 10]]          gradient (0, 0): [[15, 16]]
 * With `other_properties`, block 1 has properties (1, 2) instead. */
struct small {
    mts_tensormap_t *tensor;
    struct test_array *values[3];
    struct test_array *gradients[3];
};

static struct small small_map(int other_properties) {
    static const int32_t samples[3][2] = {{0, 1}, {1, 2}, {0, 0}};
    static const uintptr_t counts[3] = {2, 2, 1};
    static const double values[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 0, 0}};
    static const int32_t gradient_rows[3][2] = {{1, 0}, {0, 5}, {0, 0}};
    static const double gradients[3][2] = {{11, 12}, {13, 14}, {15, 16}};
    static const int32_t properties[] = {0, 1};
    static const int32_t shifted[] = {1, 2};
    struct small m;
    mts_block_t *blocks[3];
    for (int i = 0; i < 3; i++) {
        const int32_t *p = other_properties && i == 1 ? shifted : properties;
        uintptr_t shape[2] = {counts[i], 2};
        m.values[i] = ta_new_f64(values[i], shape, 2);
        blocks[i] = block_from(m.values[i], ta_labels(NAMES_S, 1, samples[i], counts[i]), NULL,
                               ta_labels(NAMES_P, 1, p, 2));
        uintptr_t gradient_shape[2] = {1, 2};
        m.gradients[i] = ta_new_f64(gradients[i], gradient_shape, 2);
        mts_block_t *gradient = block_from(
            m.gradients[i], ta_labels(NAMES_SAMPLE_G, 2, gradient_rows[i], 1), NULL,
            ta_labels(NAMES_P, 1, p, 2));
        CHECK_STATUS(mts_block_add_gradient(blocks[i], "g", gradient), MTS_SUCCESS);
    }
    static const int32_t keys[] = {0, 1, 2};
    const mts_labels_t *labels = ta_labels(NAMES_K, 1, keys, 3);
    m.tensor = mts_tensormap(labels, blocks, 3);
    CHECK(m.tensor != NULL);
    mts_labels_free(labels);
    return m;
}

static void test_small_keys_to_properties(void) {
    long live = ta_live();
    struct small m = small_map(0);
    static const int32_t underscore[] = {0};

    /* case A, no entries in keys_to_move: the properties the blocks have */
    const mts_labels_t *move = ta_labels(NAMES_K, 1, NULL, 0);
    struct test_array *fill = ta_scalar_f64(-1);
    mts_tensormap_t *tensor =
        MOVED_KEYS(mts_tensormap_keys_to_properties, m.tensor, move, fill, true);
    /* every key moved: a single "_" key */
    CHECK_KEYS(tensor, NAMES_UNDERSCORE, underscore);
    mts_block_t *block = block_at(tensor, 0);
    static const int32_t samples[] = {0, 1, 2};
    CHECK_BLOCK_LABELS(block, 0, NAMES_S, samples);
    static const int32_t properties_a[] = {0, 0, 0, 1, 1, 0, 1, 1, 2, 0, 2, 1};
    CHECK_BLOCK_LABELS(block, 1, NAMES_K_P, properties_a);
    static const uintptr_t shape[] = {3, 6};
    static const double values_a[] = {1, 2, -1, -1, 9, 10, 3, 4, 5, 6, -1, -1,
                                      -1, -1, 7, 8, -1, -1};
    struct test_array *array = block_array(block);
    CHECK_ARRAY(array, shape, values_a);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 3);
    mts_block_t *gradient = gradient_of(block, "g");
    static const int32_t gradient_samples[] = {0, 0, 1, 0, 1, 5};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_G, gradient_samples);
    static const uintptr_t gradient_shape[] = {3, 6};
    static const double gradient_a[] = {-1, -1, -1, -1, 15, 16, 11, 12, -1, -1, -1, -1,
                                        -1, -1, 13, 14, -1, -1};
    CHECK_ARRAY(block_array(gradient), gradient_shape, gradient_a);
    mts_tensormap_free(tensor);
    mts_labels_free(move);

    /* case B, entries in keys_to_move: each entry times each property; the
     * block whose key is not there (k=1) is dropped */
    static const int32_t rows[] = {2, 0, 7};
    move = ta_labels(NAMES_K, 1, rows, 3);
    fill = ta_scalar_f64(-1);
    long moves = ta_total_calls(TA_MOVE_DATA);
    tensor = MOVED_KEYS(mts_tensormap_keys_to_properties, m.tensor, move, fill, true);
    CHECK_KEYS(tensor, NAMES_UNDERSCORE, underscore);
    block = block_at(tensor, 0);
    CHECK_BLOCK_LABELS(block, 0, NAMES_S, samples);
    static const int32_t properties_b[] = {2, 0, 2, 1, 0, 0, 0, 1, 7, 0, 7, 1};
    CHECK_BLOCK_LABELS(block, 1, NAMES_K_P, properties_b);
    static const double values_b[] = {9, 10, 1, 2, -1, -1, -1, -1, 3, 4, -1, -1,
                                      -1, -1, -1, -1, -1, -1};
    array = block_array(block);
    CHECK_ARRAY(array, shape, values_b);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 2);
    gradient = gradient_of(block, "g");
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_G, gradient_samples);
    CHECK_BLOCK_LABELS(gradient, 1, NAMES_K_P, properties_b);
    static const double gradient_b[] = {15, 16, -1, -1, -1, -1, -1, -1, 11, 12, -1, -1,
                                        -1, -1, -1, -1, -1, -1};
    array = block_array(gradient);
    CHECK_ARRAY(array, gradient_shape, gradient_b);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 2);
    CHECK_INT_EQ(ta_total_calls(TA_MOVE_DATA), moves + 4);
    mts_tensormap_free(tensor);

    /* sort_samples false keeps the first-seen order (the same here) */
    fill = ta_scalar_f64(-1);
    tensor = mts_tensormap_keys_to_properties(m.tensor, move, ta_mts(fill), false);
    CHECK(tensor != NULL);
    CHECK_BLOCK_LABELS(block_at(tensor, 0), 0, NAMES_S, samples);
    mts_tensormap_free(tensor);
    mts_labels_free(move);
    mts_tensormap_free(m.tensor);

    /* case B needs the same properties everywhere */
    m = small_map(1);
    move = ta_labels(NAMES_K, 1, rows, 3);
    fill = ta_scalar_f64(-1);
    set_stale_error();
    CHECK(mts_tensormap_keys_to_properties(m.tensor, move, ta_mts(fill), true) == NULL);
    CHECK_STR_EQ(last_message(), INVALID "can not provide values for the keys to move to "
                                         "properties if the blocks have different property "
                                         "labels");
    CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
    mts_labels_free(move);

    /* case A does not: properties (1, 2) for k=1 */
    move = ta_labels(NAMES_K, 1, NULL, 0);
    fill = ta_scalar_f64(-1);
    tensor = mts_tensormap_keys_to_properties(m.tensor, move, ta_mts(fill), true);
    CHECK(tensor != NULL);
    block = block_at(tensor, 0);
    static const int32_t properties_shifted[] = {0, 0, 0, 1, 1, 1, 1, 2, 2, 0, 2, 1};
    CHECK_BLOCK_LABELS(block, 1, NAMES_K_P, properties_shifted);
    CHECK_ARRAY(block_array(block), shape, values_a);
    mts_tensormap_free(tensor);
    END_TEST(move, m.tensor, live);
}

static void test_small_keys_to_samples(void) {
    SMALL_TEST_START(1);
    struct test_array *fill = ta_scalar_f64(-1);
    mts_tensormap_t *tensor = MOVED_KEYS(mts_tensormap_keys_to_samples, m.tensor, move, fill, true);
    static const int32_t underscore[] = {0};
    CHECK_KEYS(tensor, NAMES_UNDERSCORE, underscore);
    mts_block_t *block = block_at(tensor, 0);
    static const int32_t samples[] = {0, 0, 0, 2, 1, 0, 1, 1, 2, 1};
    CHECK_BLOCK_LABELS(block, 0, NAMES_S_K, samples);
    /* the union of the properties: block 0's, then the new ones */
    static const int32_t properties[] = {0, 1, 2};
    CHECK_BLOCK_LABELS(block, 1, NAMES_P, properties);
    static const uintptr_t shape[] = {5, 3};
    /* k=1 has properties (1, 2) */
    static const double values[] = {1, 2, -1, 9, 10, -1, 3, 4, -1, -1, 5, 6, -1, 7, 8};
    struct test_array *array = block_array(block);
    CHECK_ARRAY(array, shape, values);
    CHECK(array != NULL && array->created_from == m.values[0]);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 3);
    mts_block_t *gradient = gradient_of(block, "g");
    static const int32_t gradient_samples[] = {1, 0, 2, 0, 3, 5};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_G, gradient_samples);
    static const uintptr_t gradient_shape[] = {3, 3};
    static const double gradient_values[] = {15, 16, -1, 11, 12, -1, -1, 13, 14};
    array = block_array(gradient);
    CHECK_ARRAY(array, gradient_shape, gradient_values);
    CHECK(array != NULL && array->created_from == m.gradients[0]);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 3);
    mts_tensormap_free(tensor);

    /* unsorted */
    fill = ta_scalar_f64(-1);
    tensor = mts_tensormap_keys_to_samples(m.tensor, move, ta_mts(fill), false);
    CHECK(tensor != NULL);
    block = block_at(tensor, 0);
    static const int32_t unsorted[] = {0, 0, 1, 0, 1, 1, 2, 1, 0, 2};
    CHECK_BLOCK_LABELS(block, 0, NAMES_S_K, unsorted);
    static const double unsorted_values[] = {1, 2, -1, 3, 4, -1, -1, 5, 6, -1, 7, 8,
                                             9, 10, -1};
    CHECK_ARRAY(block_array(block), shape, unsorted_values);
    gradient = gradient_of(block, "g");
    static const int32_t unsorted_gradient_samples[] = {1, 0, 2, 5, 4, 0};
    CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_G, unsorted_gradient_samples);
    static const double unsorted_gradient[] = {11, 12, -1, -1, 13, 14, 15, 16, -1};
    CHECK_ARRAY(block_array(gradient), gradient_shape, unsorted_gradient);
    mts_tensormap_free(tensor);
    END_TEST(move, m.tensor, live);
}

/* properties merged in runs: block 1's properties (2, 5, 0) land at
 * (2, 3) and 0 of the union (0, 1, 2, 5) */
static void test_property_runs(void) {
    long live = ta_live();
    static const int32_t p0[] = {0, 1, 2};
    static const int32_t p1[] = {2, 5, 0};
    static const int32_t s0[] = {0, 1};
    static const int32_t s1[] = {0};
    static const double v0[] = {1, 2, 3, 4, 5, 6};
    static const double v1[] = {7, 8, 9};
    uintptr_t shape0[2] = {2, 3}, shape1[2] = {1, 3};
    struct test_array *values0 = ta_new_f64(v0, shape0, 2);
    struct test_array *values1 = ta_new_f64(v1, shape1, 2);
    mts_block_t *blocks[2] = {
        block_from(values0, ta_labels(NAMES_S, 1, s0, 2), NULL, ta_labels(NAMES_P, 1, p0, 3)),
        block_from(values1, ta_labels(NAMES_S, 1, s1, 1), NULL, ta_labels(NAMES_P, 1, p1, 3)),
    };
    static const int32_t keys[] = {0, 1};
    const mts_labels_t *labels = ta_labels(NAMES_K, 1, keys, 2);
    mts_tensormap_t *tensor = mts_tensormap(labels, blocks, 2);
    CHECK(tensor != NULL);
    mts_labels_free(labels);
    const mts_labels_t *move = ta_labels(NAMES_K, 1, NULL, 0);

    struct test_array *fill = ta_scalar_f64(-1);
    mts_tensormap_t *result = mts_tensormap_keys_to_samples(tensor, move, ta_mts(fill), true);
    CHECK(result != NULL);
    mts_block_t *block = block_at(result, 0);
    static const int32_t samples[] = {0, 0, 0, 1, 1, 0};
    CHECK_BLOCK_LABELS(block, 0, NAMES_S_K, samples);
    static const int32_t properties[] = {0, 1, 2, 5};
    CHECK_BLOCK_LABELS(block, 1, NAMES_P, properties);
    static const uintptr_t shape[] = {3, 4};
    static const double values[] = {1, 2, 3, -1, 9, -1, 7, 8, 4, 5, 6, -1};
    struct test_array *array = block_array(block);
    CHECK_ARRAY(array, shape, values);
    CHECK_INT_EQ(ta_calls(array, TA_MOVE_DATA), 2);
    mts_tensormap_free(result);

    fill = ta_scalar_f64(-1);
    result = mts_tensormap_keys_to_properties(tensor, move, ta_mts(fill), true);
    CHECK(result != NULL);
    block = block_at(result, 0);
    static const int32_t merged_samples[] = {0, 1};
    CHECK_BLOCK_LABELS(block, 0, NAMES_S, merged_samples);
    static const int32_t merged_properties[] = {0, 0, 0, 1, 0, 2, 1, 2, 1, 5, 1, 0};
    CHECK_BLOCK_LABELS(block, 1, NAMES_K_P, merged_properties);
    static const uintptr_t merged_shape[] = {2, 6};
    static const double merged[] = {1, 2, 3, 7, 8, 9, 4, 5, 6, -1, -1, -1};
    CHECK_ARRAY(block_array(block), merged_shape, merged);
    mts_tensormap_free(result);

    mts_labels_free(move);
    mts_tensormap_free(tensor);
    CHECK_INT_EQ(ta_live(), live);
}

/* keys_to_move without dimensions: nothing moves, every block is remade */
static void test_nothing_to_move(void) {
    long live = ta_live();
    struct small m = small_map(1);
    const mts_labels_t *nothing = ta_labels(NULL, 0, NULL, 0);
    for (int i = 0; i < 2; i++) {
        struct test_array *fill = ta_scalar_f64(-1);
        mts_tensormap_t *tensor = KEYS_TO[i](m.tensor, nothing, ta_mts(fill), true);
        CHECK(tensor != NULL);
        CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
        static const int32_t keys[] = {0, 1, 2};
        CHECK_KEYS(tensor, NAMES_K, keys);
        mts_block_t *block = block_at(tensor, 1);
        static const int32_t samples[] = {1, 2};
        CHECK_BLOCK_LABELS(block, 0, NAMES_S, samples);
        static const int32_t properties[] = {1, 2};
        CHECK_BLOCK_LABELS(block, 1, NAMES_P, properties);
        static const uintptr_t shape[] = {2, 2};
        static const double values[] = {5, 6, 7, 8};
        struct test_array *array = block_array(block);
        CHECK_ARRAY(array, shape, values);
        CHECK(array != NULL && array != m.values[1] && array->created_by == TA_CREATE &&
              array->created_from == m.values[1]);
        mts_tensormap_free(tensor);
    }
    END_TEST(nothing, m.tensor, live);
}

/* ------------------------------------------------------------------------ */
/* errors                                                                   */

static void test_preconditions(void) {
    SMALL_TEST_START(0);
    static const int32_t rows[] = {0};
    const mts_labels_t *move_rows = ta_labels(NAMES_K, 1, rows, 1);
    const mts_labels_t *zz = ta_labels(NAMES_ZZ, 1, NULL, 0);
    const mts_labels_t *zz_rows = ta_labels(NAMES_ZZ, 1, rows, 1);

    for (int i = 0; i < 2; i++) {
        keys_to_fn function = KEYS_TO[i];
        /* 1. NULL arguments: the tensor first; the fill value is destroyed */
        CHECK_KEYS_TO_ERROR(function, NULL, move, NULL);
        CHECK_NULL_MESSAGE("tensor");
        CHECK_KEYS_TO_ERROR(function, NULL, NULL, NULL);
        CHECK_NULL_MESSAGE("tensor");
        CHECK_KEYS_TO_ERROR(function, m.tensor, NULL, NULL);
        CHECK_NULL_MESSAGE("keys_to_move");

        /* 2. an empty map, before anything about keys_to_move */
        const mts_labels_t *no_keys = ta_labels(NAMES_K, 1, NULL, 0);
        mts_tensormap_t *empty = mts_tensormap(no_keys, NULL, 0);
        CHECK(empty != NULL);
        CHECK_KEYS_TO_ERROR(function, empty, zz_rows,
                            INVALID "there are no keys to move in an empty TensorMap");
        CHECK_KEYS_TO_ERROR(function, empty, move,
                            INVALID "there are no keys to move in an empty TensorMap");
        mts_tensormap_free(empty);
        mts_labels_free(no_keys);
    }

    /* 3. keys_to_samples refuses entries, before looking at the names */
    CHECK_KEYS_TO_ERROR(mts_tensormap_keys_to_samples, m.tensor, zz_rows,
                        INVALID "user provided values for the keys to move is not yet "
                                "implemented, `keys_to_move` should not contain any entry when "
                                "calling keys_to_samples");
    CHECK_KEYS_TO_ERROR(mts_tensormap_keys_to_samples, m.tensor, move_rows,
                        INVALID "user provided values for the keys to move is not yet "
                                "implemented, `keys_to_move` should not contain any entry when "
                                "calling keys_to_samples");

    /* 4. every name must be a key */
    CHECK_KEYS_TO_ERROR(mts_tensormap_keys_to_samples, m.tensor, zz,
                        INVALID "'zz' is not part of the keys for this tensor map");
    CHECK_KEYS_TO_ERROR(mts_tensormap_keys_to_properties, m.tensor, zz,
                        INVALID "'zz' is not part of the keys for this tensor map");
    CHECK_KEYS_TO_ERROR(mts_tensormap_keys_to_properties, m.tensor, zz_rows,
                        INVALID "'zz' is not part of the keys for this tensor map");
    static const char *const k_zz[] = {"k", "zz"};
    const mts_labels_t *k_then_zz = ta_labels(k_zz, 2, NULL, 0);
    CHECK_KEYS_TO_ERROR(mts_tensormap_keys_to_properties, m.tensor, k_then_zz,
                        INVALID "'zz' is not part of the keys for this tensor map");
    mts_labels_free(k_then_zz);
    /* the sample names of a block are not keys */
    const mts_labels_t *s = ta_labels(NAMES_S, 1, NULL, 0);
    CHECK_KEYS_TO_ERROR(mts_tensormap_keys_to_samples, m.tensor, s,
                        INVALID "'s' is not part of the keys for this tensor map");
    mts_labels_free(s);

    FREE_LABELS(move, move_rows, zz, zz_rows);
    mts_tensormap_free(m.tensor);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_nested_gradients(void) {
    long live = ta_live();
    struct small m = small_map(0);
    /* a gradient of gradient added to block 0 after the map was made */
    mts_block_t *gradient = gradient_of(block_at(m.tensor, 0), "g");
    static const int32_t row[] = {0, 0};
    static const int32_t properties[] = {0, 1};
    uintptr_t shape[2] = {1, 2};
    mts_block_t *nested = block_from(ta_new_f64_filled(shape, 2, 0),
                                     ta_labels(NAMES_SAMPLE_G, 2, row, 1), NULL,
                                     ta_labels(NAMES_P, 1, properties, 2));
    CHECK_STATUS(mts_block_add_gradient(gradient, "n", nested), MTS_SUCCESS);
    const mts_labels_t *move = ta_labels(NAMES_K, 1, NULL, 0);
    CHECK_BOTH_KEYS_TO_ERRORS(m.tensor, move,
                              INVALID "gradient of gradients are not supported yet in keys_to_%s");
    mts_tensormap_free(m.tensor);

    /* only the first block of a group is looked at */
    m = small_map(0);
    gradient = gradient_of(block_at(m.tensor, 1), "g");
    nested = block_from(ta_new_f64_filled(shape, 2, 0), ta_labels(NAMES_SAMPLE_G, 2, row, 1),
                        NULL, ta_labels(NAMES_P, 1, properties, 2));
    CHECK_STATUS(mts_block_add_gradient(gradient, "n", nested), MTS_SUCCESS);
    struct test_array *fill = ta_scalar_f64(0);
    mts_tensormap_t *result = mts_tensormap_keys_to_properties(m.tensor, move, ta_mts(fill),
                                                               true);
    CHECK(result != NULL);
    if (result != NULL) {
        /* the nested gradient is not carried over */
        const char *const *list = NULL;
        uintptr_t count = 12345;
        CHECK_STATUS(mts_block_gradients_list(gradient_of(block_at(result, 0), "g"), &list,
                                              &count),
                     MTS_SUCCESS);
        CHECK_INT_EQ(count, 0);
    }
    mts_tensormap_free(result);
    END_TEST(move, m.tensor, live);
}

/* `function` refuses the fill value `new_fill` (an expression making a test
 * array) with `message`, and destroys it: 3 checks */
#define CHECK_FILL_REFUSED(function, tensor, move, new_fill, message)         \
    do {                                                                      \
        struct test_array *fill_ = (new_fill);                                \
        set_stale_error();                                                    \
        CHECK((function)((tensor), (move), ta_mts(fill_), true) == NULL);     \
        CHECK_STR_EQ(last_message(), (message));                              \
        CHECK_INT_EQ(ta_calls(fill_, TA_DESTROY), 1);                         \
    } while (0)

static void test_fill_value(void) {
    SMALL_TEST_START(0);

    for (int i = 0; i < 2; i++) {
        /* the dtype must be the values' */
        CHECK_FILL_REFUSED(KEYS_TO[i], m.tensor, move, ta_new(TA_INT32, NULL, 0, NULL),
                           INVALID "fill_value dtype (code=0, bits=32, lanes=1) does not match "
                                   "array dtype (code=2, bits=64, lanes=1)");
        /* one scalar, no dimension */
        uintptr_t one[1] = {1};
        CHECK_FILL_REFUSED(KEYS_TO[i], m.tensor, move, ta_new_f64(NULL, one, 1),
                           INVALID "fill_value must be a single scalar, got a shape [1]");
        uintptr_t two[2] = {2, 3};
        CHECK_FILL_REFUSED(KEYS_TO[i], m.tensor, move, ta_new_f64(NULL, two, 2),
                           INVALID "fill_value must be a single scalar, got a shape [2, 3]");
        /* on CPU */
        struct test_array *fill = ta_scalar_f64(0);
        fill->device = CUDA0;
        CHECK_FILL_REFUSED(KEYS_TO[i], m.tensor, move, fill,
                           INVALID "fill_value must be on CPU");
        /* a fill value without destroy is fine */
        fill = ta_scalar_f64(0);
        mts_array_t no_destroy = ta_mts(fill);
        no_destroy.destroy = NULL;
        mts_tensormap_t *result = KEYS_TO[i](m.tensor, move, no_destroy, true);
        CHECK(result != NULL);
        CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 0);
        ta_destroy(fill);
        mts_tensormap_free(result);
    }

    END_TEST(move, m.tensor, live);
}

/* A failing callback among those asked before each create (the values' dtype, then the fill's
 * dtype, shape and device) stops the operation with the callback's error, asks nothing after
 * it, and destroys the fill once. */
static void test_fill_callbacks_fail(void) {
    SMALL_TEST_START(0);

    static const enum ta_member members[] = {TA_DTYPE, TA_SHAPE, TA_DEVICE};
    for (int i = 0; i < 2; i++) {
        long before = ta_live();
        /* the values' dtype */
        ta_set_fail(m.values[0], TA_DTYPE, MTS_CALLBACK_ERROR, "no dtype today");
        struct test_array *fill = ta_scalar_f64(0);
        clear_error();
        CHECK(KEYS_TO[i](m.tensor, move, ta_mts(fill), true) == NULL);
        CHECK_STR_EQ(last_message(), "calling mts_array_t.dtype failed: no dtype today");
        CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
        CHECK_INT_EQ(ta_calls(fill, TA_DTYPE) + ta_calls(fill, TA_SHAPE) + ta_calls(fill, TA_DEVICE), 0);
        CHECK_INT_EQ(ta_calls(m.values[0], TA_CREATE), 0);
        CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
        CHECK_INT_EQ(ta_live(), before);
        ta_set_fail(m.values[0], TA_NONE, MTS_SUCCESS, NULL);

        /* the fill's dtype, shape, device */
        for (int k = 0; k < 3; k++) {
            fill = ta_scalar_f64(0);
            ta_set_fail(fill, members[k], MTS_CALLBACK_ERROR, "the fill says no");
            int creates = ta_calls(m.values[0], TA_CREATE);
            clear_error();
            CHECK(KEYS_TO[i](m.tensor, move, ta_mts(fill), true) == NULL);
            char expected[128];
            snprintf(expected, sizeof expected, "calling mts_array_t.%s failed: the fill says no",
                     ta_member_name(members[k]));
            CHECK_STR_EQ(last_message(), expected);
            CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
            for (int later = k + 1; later < 3; later++) {
                CHECK_INT_EQ(ta_calls(fill, members[later]), 0);
            }
            CHECK_INT_EQ(ta_calls(m.values[0], TA_CREATE), creates);
            CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
            CHECK_INT_EQ(ta_live(), before);
        }
    }
    clear_error();
    END_TEST(move, m.tensor, live);
}

/* The error of a failing callback of the keys' array while the new keys are made: the
 * callback's own here, an invalid labels error of the reference's. */
static void check_new_keys_error(const char *message) {
#ifdef MTS_TEST_REFERENCE
    (void)message;
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "invalid labels in remove_dimensions_from_keys: CallbackError");
    CHECK_STR_EQ(last_error().origin, "metatensor-core");
#else
    CHECK_STR_EQ(last_message(), message);
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
#endif
}

static void test_callback_errors(void) {
    SMALL_TEST_START(0);

    for (int i = 0; i < 2; i++) {
        /* create fails: NULL, the callback's record prefixed */
        long before = ta_live();
        ta_set_fail(m.values[0], TA_CREATE, 5, "no create today");
        struct test_array *fill = ta_scalar_f64(0);
        clear_error();
        CHECK(KEYS_TO[i](m.tensor, move, ta_mts(fill), true) == NULL);
        CHECK_STR_EQ(last_message(), "calling mts_array_t.create failed: no create today");
        CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
        struct ta_error_data *data = last_error().data;
        CHECK(data != NULL && data->magic == TA_ERROR_MAGIC && data->member == TA_CREATE);
        CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
        CHECK_INT_EQ(ta_live(), before);
        ta_set_fail(m.values[0], TA_NONE, MTS_SUCCESS, NULL);

        /* move_data fails on the new array: it is destroyed */
        m.values[0]->children_fail_member = TA_MOVE_DATA;
        m.values[0]->fail_status = MTS_CALLBACK_ERROR;
        m.values[0]->fail_sets_error = 1;
        snprintf(m.values[0]->fail_message, sizeof(m.values[0]->fail_message), "no move today");
        fill = ta_scalar_f64(0);
        CHECK(KEYS_TO[i](m.tensor, move, ta_mts(fill), true) == NULL);
        CHECK_STR_EQ(last_message(), "calling mts_array_t.move_data failed: no move today");
        CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
        CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
        CHECK_INT_EQ(ta_live(), before);
        m.values[0]->children_fail_member = TA_NONE;

        /* from_dlpack fails while the new keys are made */
        const mts_labels_t *keys = mts_tensormap_keys(m.tensor);
        struct test_array *keys_array = labels_array(keys);
        ta_set_fail(keys_array, TA_FROM_DLPACK, MTS_CALLBACK_ERROR, "no import today");
        fill = ta_scalar_f64(0);
        CHECK(KEYS_TO[i](m.tensor, move, ta_mts(fill), true) == NULL);
        check_new_keys_error("calling mts_array_t.from_dlpack failed: no import today");
        CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
        CHECK_INT_EQ(ta_live(), before);

        /* the keys' device fails once the new keys' array is made (the device is asked after
         * from_dlpack, to place the new keys where the old ones are): that array goes */
        ta_set_fail(keys_array, TA_DEVICE, MTS_CALLBACK_ERROR, "no device today");
        int imports = ta_calls(keys_array, TA_FROM_DLPACK);
        fill = ta_scalar_f64(0);
        CHECK(KEYS_TO[i](m.tensor, move, ta_mts(fill), true) == NULL);
        CHECK_INT_EQ(ta_calls(keys_array, TA_FROM_DLPACK), imports + 1);
        check_new_keys_error("calling mts_array_t.device failed: no device today");
        CHECK_INT_EQ(ta_calls(fill, TA_DESTROY), 1);
        CHECK_INT_EQ(ta_live(), before);
        ta_set_fail(keys_array, TA_NONE, MTS_SUCCESS, NULL);
        mts_labels_free(keys);
    }
    clear_error();
    END_TEST(move, m.tensor, live);
}

/* ------------------------------------------------------------------------ */
/* the results outlive the input                                            */

/* The input tensor map freed first: what the result shares with it (the
 * properties of keys_to_samples, every block having the same) stays the
 * result's. The keys are moved from a fresh map (stage 0), from a map one of
 * whose blocks was copied first (1), read in Go first (2: READ_IN_GO), or whose
 * keys were moved to the properties first (3: that result outlives the input
 * too). */
static void test_results_outlive_input(void) {
    long live = ta_live();
    for (int stage = 0; stage < 4; stage++) {
        struct small m = small_map(0);
        const mts_labels_t *move = ta_labels(NAMES_K, 1, NULL, 0);
        mts_tensormap_t *first = NULL;
        if (stage == 1) {
            mts_block_t *copy = mts_block_copy(block_at(m.tensor, 1));
            CHECK(copy != NULL);
            mts_block_free(copy);
        } else if (stage == 2) {
            READ_IN_GO(m.tensor);
            const char *const *keys = NULL;
            uintptr_t count = 1;
            CHECK_STATUS(mts_tensormap_info_keys(m.tensor, &keys, &count), MTS_SUCCESS);
            CHECK_INT_EQ(count, 0);
        } else if (stage == 3) {
            struct test_array *fill = ta_scalar_f64(-1);
            first = MOVED_KEYS(mts_tensormap_keys_to_properties, m.tensor, move, fill, true);
        }
        struct test_array *fill = ta_scalar_f64(-1);
        mts_tensormap_t *samples =
            MOVED_KEYS(mts_tensormap_keys_to_samples, m.tensor, move, fill, true);
        mts_labels_free(move);
        CHECK_STATUS(mts_tensormap_free(m.tensor), MTS_SUCCESS);

        mts_block_t *block = block_at(samples, 0);
        static const int32_t merged_samples[] = {0, 0, 0, 2, 1, 0, 1, 1, 2, 1};
        CHECK_BLOCK_LABELS(block, 0, NAMES_S_K, merged_samples);
        static const int32_t shared_properties[] = {0, 1};
        CHECK_BLOCK_LABELS(block, 1, NAMES_P, shared_properties);
        static const uintptr_t shape[] = {5, 2};
        static const double values[] = {1, 2, 9, 10, 3, 4, 5, 6, 7, 8};
        CHECK_ARRAY(block_array(block), shape, values);
        mts_block_t *gradient = gradient_of(block, "g");
        static const int32_t gradient_samples[] = {1, 0, 2, 0, 3, 5};
        CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_G, gradient_samples);
        static const uintptr_t gradient_shape[] = {3, 2};
        static const double gradient_values[] = {15, 16, 11, 12, 13, 14};
        CHECK_ARRAY(block_array(gradient), gradient_shape, gradient_values);
        CHECK_STATUS(mts_tensormap_free(samples), MTS_SUCCESS);

        if (first != NULL) {
            block = block_at(first, 0);
            static const int32_t union_samples[] = {0, 1, 2};
            CHECK_BLOCK_LABELS(block, 0, NAMES_S, union_samples);
            static const int32_t properties[] = {0, 0, 0, 1, 1, 0, 1, 1, 2, 0, 2, 1};
            CHECK_BLOCK_LABELS(block, 1, NAMES_K_P, properties);
            CHECK_STATUS(mts_tensormap_free(first), MTS_SUCCESS);
        }
        CHECK_INT_EQ(ta_live(), live);
    }
}

/* Threads each make maps over new labels of their own in C, move their keys to the samples in
 * Go and free the input before reading the result, again and again: the Go memory of the labels
 * and maps that went is recycled for the next ones any thread makes, and no result may see
 * another's names or entries. No CHECK in the threads: they count their own failures. */
#define MAKERS 4
#define MAPS_PER_MAKER 300

struct maker {
    int id;
    int failures;
};

static int make_move_and_check(int id, int round) {
    char sample_name[16], property_name[16];
    snprintf(sample_name, sizeof(sample_name), "s%d", id);
    snprintf(property_name, sizeof(property_name), "p%d", id);
    const char *const samples_names[] = {sample_name};
    const char *const properties_names[] = {property_name};
    const char *const merged_names[] = {sample_name, "k"};
    /* two blocks with other properties, merged: the result's properties are new labels */
    int32_t samples[3] = {id, 1000 + round, 2000 + id + round}; /* distinct and sorted */
    int32_t properties[2] = {round, round + 1};
    int32_t keys[2] = {id * 1000 + round, id * 1000 + round + 1};
    mts_block_t *blocks[2];
    for (int b = 0; b < 2; b++) {
        uintptr_t shape[2] = {b == 0 ? 2 : 1, 1};
        double values[2] = {1, 2};
        struct test_array *array = ta_new_f64(values, shape, 2);
        const mts_labels_t *s = ta_labels(samples_names, 1, samples + 2 * b, shape[0]);
        const mts_labels_t *p = ta_labels(properties_names, 1, properties + b, 1);
        blocks[b] = mts_block(ta_mts(array), s, NULL, 0, p);
        mts_labels_free(s);
        mts_labels_free(p);
    }
    const mts_labels_t *k = ta_labels(NAMES_K, 1, keys, 2);
    mts_tensormap_t *tensor = NULL;
    if (blocks[0] != NULL && blocks[1] != NULL) {
        tensor = mts_tensormap(k, blocks, 2);
    }
    mts_labels_free(k);
    const mts_labels_t *move = ta_labels(NAMES_K, 1, NULL, 0);
    struct test_array *fill = ta_scalar_f64(0);
    mts_tensormap_t *moved =
        tensor != NULL ? mts_tensormap_keys_to_samples(tensor, move, ta_mts(fill), true) : NULL;
    mts_labels_free(move);
    int ok = moved != NULL && mts_tensormap_free(tensor) == MTS_SUCCESS;
    if (ok) {
        mts_block_t *block = NULL;
        int32_t merged[6] = {samples[0], keys[0], samples[1], keys[0], samples[2], keys[1]};
        ok = mts_tensormap_block_by_id(moved, &block, 0) == MTS_SUCCESS;
        const mts_labels_t *got_samples = ok ? mts_block_labels(block, 0) : NULL;
        const mts_labels_t *got_properties = ok ? mts_block_labels(block, 1) : NULL;
        ok = labels_match_(got_samples, merged_names, 2, merged, 3, __FILE__, __LINE__) &&
             labels_match_(got_properties, properties_names, 1, properties, 2, __FILE__, __LINE__);
        mts_labels_free(got_samples);
        mts_labels_free(got_properties);
        ok = mts_tensormap_free(moved) == MTS_SUCCESS && ok;
    }
    return ok;
}

static void *make_maps(void *argument) {
    struct maker *maker = argument;
    for (int round = 0; round < MAPS_PER_MAKER; round++) {
        maker->failures += !make_move_and_check(maker->id, round);
    }
    return NULL;
}

static void test_recycled_memory_across_threads(void) {
    long live = ta_live();
    pthread_t threads[MAKERS];
    struct maker makers[MAKERS];
    for (int i = 0; i < MAKERS; i++) {
        makers[i] = (struct maker){i + 1, 0};
        CHECK_INT_EQ(pthread_create(&threads[i], NULL, make_maps, &makers[i]), 0);
    }
    for (int i = 0; i < MAKERS; i++) {
        CHECK_INT_EQ(pthread_join(threads[i], NULL), 0);
        CHECK_INT_EQ(makers[i].failures, 0);
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* Maps of more blocks than a recycled map keeps with itself: the first one freed leaves the
 * memory of its blocks to the next (recycled.go); two maps read in Go at once must not share
 * it, and the blocks Go makes in it must be their map's. */
#define LARGE_BLOCKS 300

struct large {
    mts_tensormap_t *tensor;
    int32_t merged[2 * LARGE_BLOCKS];
    double values[LARGE_BLOCKS];
};

static void large_map(struct large *m, int round) {
    mts_block_t *blocks[LARGE_BLOCKS];
    int32_t keys[LARGE_BLOCKS];
    static const int32_t property[] = {0};
    for (int i = 0; i < LARGE_BLOCKS; i++) {
        int32_t sample[1] = {1000 * round + i};
        double value[1] = {100 * round + i};
        uintptr_t shape[2] = {1, 1};
        blocks[i] = block_from(ta_new_f64(value, shape, 2), ta_labels(NAMES_S, 1, sample, 1), NULL,
                               ta_labels(NAMES_P, 1, property, 1));
        keys[i] = i;
        m->merged[2 * i] = sample[0];
        m->merged[2 * i + 1] = i;
        m->values[i] = value[0];
    }
    const mts_labels_t *labels = ta_labels(NAMES_K, 1, keys, LARGE_BLOCKS);
    m->tensor = mts_tensormap(labels, blocks, LARGE_BLOCKS);
    CHECK(m->tensor != NULL);
    mts_labels_free(labels);
}

/* moves the keys of m's map to the samples, frees the map and checks the result */
static void check_large_moved(struct large *m) {
    const mts_labels_t *move = ta_labels(NAMES_K, 1, NULL, 0);
    struct test_array *fill = ta_scalar_f64(-1);
    mts_tensormap_t *moved = MOVED_KEYS(mts_tensormap_keys_to_samples, m->tensor, move, fill, true);
    mts_labels_free(move);
    CHECK_STATUS(mts_tensormap_free(m->tensor), MTS_SUCCESS);
    mts_block_t *block = block_at(moved, 0);
    CHECK_BLOCK_LABELS(block, 0, NAMES_S_K, m->merged);
    static const uintptr_t shape[] = {LARGE_BLOCKS, 1};
    CHECK_ARRAY(block_array(block), shape, m->values);
    CHECK_STATUS(mts_tensormap_free(moved), MTS_SUCCESS);
}

static void test_large_maps_one_after_another(void) {
    long live = ta_live();
    static struct large first, second;
    large_map(&first, 0);
    check_large_moved(&first);
    for (int round = 1; round < 3; round++) {
        large_map(&first, 2 * round);
        large_map(&second, 2 * round + 1);
        READ_IN_GO(first.tensor);
        READ_IN_GO(second.tensor);
        check_large_moved(&first);
        check_large_moved(&second);
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */

int main(void) {
    mts_disable_panic_printing();

    test_cpp_keys_to_samples();
    test_cpp_keys_to_properties();
    test_small_keys_to_properties();
    test_small_keys_to_samples();
    test_property_runs();
    test_nothing_to_move();
    test_preconditions();
    test_nested_gradients();
    test_fill_value();
    test_fill_callbacks_fail();
    test_callback_errors();
    test_results_outlive_input();
    test_recycled_memory_across_threads();
    test_large_maps_one_after_another();

    CHECK_NOTHING_LEAKED();

    return check_summary();
}
