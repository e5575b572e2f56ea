/*
 * Tests of the extensions mtsx_tensormap_reduce_over_samples and
 * mtsx_block_reduce_over_samples (docs/reference-behaviour.md#reductions-over-samples)
 * on blocks of the instrumented arrays of test_array.h: the results are made
 * through the values' from_dlpack, and nothing may leak, on success or error.
 *
 * The reference has no such functions: built with MTS_TEST_REFERENCE defined,
 * this program only says it is skipped.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#include "check.h"
#include "test_array.h"
#include "test_helpers.h"

#ifndef MTS_TEST_REFERENCE

static const char *const NAMES_STRUCTURE_ATOM[] = {"structure", "atom"};
static const char *const NAMES_STRUCTURE[] = {"structure"};
static const char *const NAMES_GRADIENT[] = {"sample", "g"};
static const char *const NAMES_KEY[] = {"key"};
static const char *const ATOM[] = {"atom"};
static const char *const EVERYTHING[] = {"structure", "atom"};
static const char *const UNKNOWN[] = {"center"};

/* The example of metatensor-operations' sum_over_samples_block, with a
 * gradient: rows (sample, g) = (0, 0), (1, 0), (3, 1). */
static mts_tensormap_t *example(void) {
    static const int32_t samples[] = {0, 0, 0, 1, 1, 0, 1, 1};
    static const double values[] = {1, 2, 4, 3, 5, 6, 7, 8, 9, 10, 11, 12};
    static const int32_t gradient_samples[] = {0, 0, 1, 0, 3, 1};
    static const double gradient_values[] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    static const int32_t key[] = {0};
    uintptr_t shape[] = {4, 3};
    uintptr_t gradient_shape[] = {3, 3};

    const mts_labels_t *p = range(NAMES_P, 3);
    const mts_labels_t *gs = ta_labels(NAMES_GRADIENT, 2, gradient_samples, 3);
    mts_block_t *gradient = mts_block(ta_mts(ta_new_f64(gradient_values, gradient_shape, 2)), gs,
                                      NULL, 0, p);
    CHECK(gradient != NULL);
    const mts_labels_t *s = ta_labels(NAMES_STRUCTURE_ATOM, 2, samples, 4);
    mts_block_t *block = mts_block(ta_mts(ta_new_f64(values, shape, 2)), s, NULL, 0, p);
    CHECK(block != NULL);
    CHECK_STATUS(mts_block_add_gradient(block, "positions", gradient), MTS_SUCCESS);
    mts_labels_free(gs);
    mts_labels_free(s);
    mts_labels_free(p);

    const mts_labels_t *keys = ta_labels(NAMES_KEY, 1, key, 1);
    mts_tensormap_t *tensor = mts_tensormap(keys, &block, 1);
    CHECK(tensor != NULL);
    mts_labels_free(keys);
    return tensor;
}

/* the gradient with respect to positions of `block` */
static mts_block_t *positions(mts_block_t *block) {
    mts_block_t *gradient = NULL;
    CHECK_STATUS(mts_block_gradient(block, "positions", &gradient), MTS_SUCCESS);
    return gradient;
}

#define CHECK_BLOCK_LABELS(block, axis, names, values)                                       \
    check_block_labels_((block), (axis), (names), ARRAY_SIZE(names), (values),               \
                        ARRAY_SIZE(values) / ARRAY_SIZE(names), __FILE__, __LINE__)

/* every reduction of the example over "atom", through the tensor map and
 * through its block */
static void test_reductions(void) {
    static const int32_t structures[] = {0, 1};
    static const int32_t gradient_rows[] = {0, 0, 1, 1};
    uintptr_t shape[] = {2, 3};
    struct {
        const char *name;
        double values[6];
        double gradient[6];
    } cases[] = {
        {"sum", {4, 7, 10, 17, 19, 21}, {3, 3, 3, 3, 3, 3}},
        {"mean", {2, 3.5, 5, 8.5, 9.5, 10.5}, {1.5, 1.5, 1.5, 3, 3, 3}},
        {"max", {3, 5, 6, 10, 11, 12}, {2, 2, 2, 3, 3, 3}},
        {"min", {1, 2, 4, 7, 8, 9}, {1, 1, 1, 0, 0, 0}},
        {"var", {1, 2.25, 1, 2.25, 2.25, 2.25}, {1, 1.5, 1, 9, 9, 9}},
    };
    mts_tensormap_t *tensor = example();
    for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
        mts_tensormap_t *reduced = mtsx_tensormap_reduce_over_samples(tensor, ATOM, 1,
                                                                      cases[c].name, false);
        CHECK(reduced != NULL);
        mts_block_t *block = block_at(reduced, 0);
        CHECK_BLOCK_LABELS(block, 0, NAMES_STRUCTURE, structures);
        CHECK_ARRAY(block_array(block), shape, cases[c].values);
        CHECK_BLOCK_LABELS(positions(block), 0, NAMES_GRADIENT, gradient_rows);
        CHECK_ARRAY(block_array(positions(block)), shape, cases[c].gradient);
        mts_tensormap_free(reduced);

        mts_block_t *alone = mtsx_block_reduce_over_samples(block_at(tensor, 0), ATOM, 1,
                                                            cases[c].name, false);
        CHECK(alone != NULL);
        CHECK_ARRAY(block_array(alone), shape, cases[c].values);
        CHECK_ARRAY(block_array(positions(alone)), shape, cases[c].gradient);
        mts_block_free(alone);
    }
    mts_tensormap_free(tensor);
}

static void test_errors(void) {
    mts_tensormap_t *tensor = example();
    CHECK_NULL_ERROR(mtsx_tensormap_reduce_over_samples(tensor, UNKNOWN, 1, "sum", false),
                     INVALID "'center' is not one of the sample dimensions (structure, atom)");
    CHECK_NULL_ERROR(mtsx_tensormap_reduce_over_samples(tensor, EVERYTHING, 2, "sum", false),
                     INVALID "can not remove every sample dimension (structure, atom): at least "
                             "one must remain");
    CHECK_NULL_ERROR(mtsx_tensormap_reduce_over_samples(tensor, ATOM, 1, "median", false),
                     INVALID "unknown reduction 'median': expected sum, mean, var, std, max or "
                             "min");
    CHECK_NULL_ERROR(mtsx_tensormap_reduce_over_samples(tensor, ATOM, 1, NULL, false),
                     INVALID "got invalid NULL pointer for reduction");
    CHECK_NULL_ERROR(mtsx_tensormap_reduce_over_samples(NULL, ATOM, 1, "sum", false),
                     INVALID "got invalid NULL pointer for tensor");
    CHECK_NULL_ERROR(mtsx_block_reduce_over_samples(block_at(tensor, 0), UNKNOWN, 1, "max", false),
                     INVALID "'center' is not one of the sample dimensions (structure, atom)");
    CHECK_NULL_ERROR(mtsx_block_reduce_over_samples(NULL, ATOM, 1, "max", false),
                     INVALID "got invalid NULL pointer for block");
    CHECK_NULL_ERROR(mtsx_tensormap_reduce_over_samples(tensor, ATOM, 1, "mean", true),
                     INVALID "ignore_nan only applies to max and min, not to mean");
    mts_tensormap_free(tensor);
}

/* max and min of two structures whose samples hold NaN: propagated by default,
 * skipped with ignore_nan, a column of NaN only staying NaN. Rows (structure,
 * atom) = (0, 0): [NaN, 1], (0, 1): [2, 3], (1, 0): [4, NaN], (1, 1): [NaN, NaN]. */
static void test_ignore_nan(void) {
    static const int32_t samples[] = {0, 0, 0, 1, 1, 0, 1, 1};
    const double values[] = {NAN, 1, 2, 3, 4, NAN, NAN, NAN};
    uintptr_t shape[] = {4, 2};
    uintptr_t reduced_shape[] = {2, 2};
    struct {
        const char *name;
        bool ignore_nan;
        double values[4];
    } cases[] = {
        {"max", false, {NAN, 3, NAN, NAN}},
        {"max", true, {2, 3, 4, NAN}},
        {"min", false, {NAN, 1, NAN, NAN}},
        {"min", true, {2, 1, 4, NAN}},
    };
    const mts_labels_t *p = range(NAMES_P, 2);
    const mts_labels_t *s = ta_labels(NAMES_STRUCTURE_ATOM, 2, samples, 4);
    mts_block_t *block = mts_block(ta_mts(ta_new_f64(values, shape, 2)), s, NULL, 0, p);
    CHECK(block != NULL);
    mts_labels_free(s);
    mts_labels_free(p);
    for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
        mts_block_t *reduced = mtsx_block_reduce_over_samples(block, ATOM, 1, cases[c].name,
                                                              cases[c].ignore_nan);
        CHECK(reduced != NULL);
        CHECK_ARRAY(block_array(reduced), reduced_shape, cases[c].values);
        mts_block_free(reduced);
    }
    mts_block_free(block);
}

int main(void) {
    mts_disable_panic_printing();
    test_reductions();
    test_errors();
    test_ignore_nan();
    CHECK_NOTHING_LEAKED();
    return check_summary();
}

#else

int main(void) {
    printf("skipped: the reference has no mtsx_ extensions\n");
    return 0;
}

#endif
