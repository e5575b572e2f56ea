/*
 * Tests of the tensor map part of the C API: mts_tensormap, free, copy, keys,
 * block_by_id, the info functions, device, dtype and components_to_properties
 * (the reference's behaviour, with the ownership rules and callback errors of
 * docs/reference-behaviour.md). keys_to_properties and keys_to_samples are
 * in test_keys_to.c; load/save elsewhere.
 *
 * Values and labels values are instrumented arrays from test_array.h. At the
 * end no test array may be alive and none may have been destroyed twice.
 *
 * Built with MTS_TEST_REFERENCE defined, the tests expect the reference's
 * behaviour (the library in build/reference); otherwise ours. Where they
 * differ:
 *  - mts_tensormap asks the device of block 0's values once; the reference
 *    asks it a second time to compare it with the keys' device;
 *  - components_to_properties with no dimension names is an assertion panic
 *    (255) in the reference; ours refuses it as an invalid parameter (status
 *    1, the text is ours).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_helpers.h"


/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

/* the names and entries of labels, and of the labels of `axis` of `block` */
#define CHECK_LABELS(labels, names, size, values, count) \
    check_labels_((labels), (names), (size), (values), (count), __FILE__, __LINE__)
#define CHECK_BLOCK_LABELS(block, axis, names, size, values, count)                     \
    check_block_labels_((block), (axis), (names), (size), (values), (count), __FILE__, \
                        __LINE__)

/* a block with samples s = 0..samples-1, optional components (1-D labels
 * given), properties p = first_property.., values filled with `value` on
 * `device` (labels on the same device) */
static mts_block_t *make_block(uintptr_t samples, const char *const *component_name,
                               uintptr_t components, const char *const *property_name,
                               uintptr_t properties, double value, DLDevice device,
                               struct test_array **values_out) {
    const mts_labels_t *s = range_from(NAMES_S, 0, samples, device);
    const mts_labels_t *c = component_name != NULL
                                ? range_from(component_name, 0, components, device)
                                : NULL;
    const mts_labels_t *p = range_from(property_name, 0, properties, device);
    uintptr_t shape[3] = {samples, components, properties};
    if (c == NULL) {
        shape[1] = properties;
    }
    struct test_array *values = ta_new_f64_filled(shape, c != NULL ? 3 : 2, value);
    values->device = device;
    if (values_out != NULL) {
        *values_out = values;
    }
    mts_block_t *block = mts_block(ta_mts(values), s, c != NULL ? &c : NULL, c != NULL ? 1 : 0,
                                   p);
    CHECK(block != NULL);
    FREE_LABELS(s, c, p);
    return block;
}

static mts_block_t *simple_block(double value, struct test_array **values_out) {
    return make_block(3, NULL, 0, NAMES_P, 2, value, TA_CPU, values_out);
}

/* the gradient `parameter` for a block made by make_block without
 * components: samples (sample, g) = (0, 0), properties p = 0..1, with
 * `sample_names` replacing (sample, g) when given */
static mts_block_t *make_gradient(const char *const *sample_names, uintptr_t sample_size,
                                  const char *const *component_name,
                                  const char *const *property_name, DLDevice device) {
    static const int32_t zeros[] = {0, 0, 0};
    if (sample_names == NULL) {
        sample_names = NAMES_SAMPLE_G;
        sample_size = 2;
    }
    const mts_labels_t *s = ta_labels_on(sample_names, sample_size, zeros, 1, device);
    const mts_labels_t *c = component_name != NULL ? range_from(component_name, 0, 2, device)
                                                   : NULL;
    const mts_labels_t *p = range_from(property_name, 0, 2, device);
    uintptr_t shape[3] = {1, 2, 2};
    if (c == NULL) {
        shape[1] = 2;
    }
    struct test_array *values = ta_new_f64_filled(shape, c != NULL ? 3 : 2, 0.25);
    values->device = device;
    mts_block_t *gradient = mts_block(ta_mts(values), s, c != NULL ? &c : NULL,
                                      c != NULL ? 1 : 0, p);
    CHECK(gradient != NULL);
    FREE_LABELS(s, c, p);
    return gradient;
}

/* make_gradient's usual gradient: samples (sample, g), no components */
static mts_block_t *plain_gradient(void) {
    return make_gradient(NULL, 0, NULL, NAMES_P, TA_CPU);
}

/* `block` takes `gradient` as its gradient `parameter`: 1 check */
#define ADD_GRADIENT(block, parameter, gradient) \
    CHECK_STATUS(mts_block_add_gradient((block), (parameter), (gradient)), MTS_SUCCESS)

/* two new blocks made by simple_block, with the values 0 and 1 */
static void simple_blocks(mts_block_t *blocks[2]) {
    blocks[0] = simple_block(0, NULL);
    blocks[1] = simple_block(1, NULL);
}

/* ------------------------------------------------------------------------ */
/* creation                                                                 */

/* the device of `tensor` is `expected` and its dtype float64: 4 checks */
static void check_device_f64_(mts_tensormap_t *tensor, DLDevice expected, int line) {
    DLDevice device = device_eq(expected, TA_CPU) ? CUDA1 : TA_CPU;
    check_int_eq_(mts_tensormap_device(tensor, &device), MTS_SUCCESS, "mts_tensormap_device",
                  "MTS_SUCCESS", "CHECK_STATUS", __FILE__, line);
    check_record_(device_eq(device, expected), __FILE__, line, "device_eq(device, expected)");
    DLDataType dtype = TA_INT32;
    check_int_eq_(mts_tensormap_dtype(tensor, &dtype), MTS_SUCCESS, "mts_tensormap_dtype",
                  "MTS_SUCCESS", "CHECK_STATUS", __FILE__, line);
    check_record_(ta_dtype_eq(dtype, TA_FLOAT64), __FILE__, line, "dtype is float64");
}
#define CHECK_DEVICE_F64(tensor, expected) check_device_f64_((tensor), (expected), __LINE__)

static void test_create(void) {
    long live = ta_live();
    const mts_labels_t *keys = range_from(NAMES_K, 5, 3, TA_CPU);
    struct test_array *keys_array = labels_array(keys);
    struct test_array *values[3];
    mts_block_t *blocks[3];
    for (int i = 0; i < 3; i++) {
        blocks[i] = simple_block(i, &values[i]);
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 3);
    CHECK(tensor != NULL);
    /* the blocks were taken */
    for (int i = 0; i < 3; i++) {
        CHECK(blocks[i] == NULL);
        CHECK_INT_EQ(ta_calls(values[i], TA_DESTROY), 0);
        CHECK(ta_calls(values[i], TA_ORIGIN) >= 1);
        CHECK(ta_calls(values[i], TA_DEVICE) >= 1);
        CHECK(ta_calls(values[i], TA_DTYPE) >= 1);
        CHECK_INT_EQ(ta_calls(values[i], TA_COPY), 0);
    }

    /* the keys are the labels given, one reference more */
    const mts_labels_t *got = mts_tensormap_keys(tensor);
    CHECK(got == keys);
    mts_labels_free(got);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_calls(keys_array, TA_DESTROY), 0);
    got = mts_tensormap_keys(tensor);
    CHECK(got == keys);
    static const int32_t expected_keys[] = {5, 6, 7};
    CHECK_LABELS(got, NAMES_K, 1, expected_keys, 3);
    mts_labels_free(got);

    /* the blocks, in order, owned by the map; the same pointer each time */
    for (uintptr_t i = 0; i < 3; i++) {
        mts_block_t *block = NULL;
        CHECK_STATUS(mts_tensormap_block_by_id(tensor, &block, i), MTS_SUCCESS);
        CHECK(block != NULL && block_array(block) == values[i]);
        mts_block_t *again = NULL;
        CHECK_STATUS(mts_tensormap_block_by_id(tensor, &again, i), MTS_SUCCESS);
        CHECK(again == block);
    }
    mts_block_t *block = (mts_block_t *)&block;
    CHECK_ERROR(mts_tensormap_block_by_id(tensor, &block, 3), MTS_INVALID_PARAMETER_ERROR,
                INVALID "block index out of bounds: we have 3 blocks but the index is 3");
    CHECK(block == (mts_block_t *)&block);
    CHECK_ERROR(mts_tensormap_block_by_id(tensor, &block, (uintptr_t)-1),
                MTS_INVALID_PARAMETER_ERROR,
                INVALID "block index out of bounds: we have 3 blocks but the index is "
                        "18446744073709551615");
    CHECK_NULL_ARG(mts_tensormap_block_by_id(NULL, &block, 0), "tensor");
    CHECK_NULL_ARG(mts_tensormap_block_by_id(tensor, NULL, 0), "block");

    /* the map frees its blocks and drops the keys */
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    for (int i = 0; i < 3; i++) {
        CHECK_INT_EQ(ta_calls(values[i], TA_DESTROY), 1);
    }
    CHECK_INT_EQ(ta_calls(keys_array, TA_DESTROY), 1);
    CHECK_STATUS(mts_tensormap_free(NULL), MTS_SUCCESS);

    /* blocks may have different component and property values, and
     * gradients in any order with different property names */
    static const int32_t two_keys[] = {0, 0, 0, 1};
    keys = ta_labels(NAMES_KL, 2, two_keys, 2);
    blocks[0] = make_block(3, NAMES_C, 2, NAMES_P, 2, 0, TA_CPU, NULL);
    blocks[1] = make_block(5, NAMES_C, 4, NAMES_P, 1, 0, TA_CPU, NULL);
    const mts_labels_t *c = NULL;
    ADD_GRADIENT(blocks[0], "g", make_gradient(NULL, 0, NAMES_C, NAMES_P, TA_CPU));
    ADD_GRADIENT(blocks[0], "h", make_gradient(NULL, 0, NAMES_C, NAMES_P, TA_CPU));
    /* block 1: h then g, with a one-property gradient labelled differently */
    c = range(NAMES_C, 4);
    const mts_labels_t *p = range(NAMES_P, 1);
    static const int32_t zero_rows[] = {0, 0};
    const mts_labels_t *gs = ta_labels(NAMES_SAMPLE_G, 2, zero_rows, 1);
    for (int i = 0; i < 2; i++) {
        uintptr_t shape[3] = {1, 4, 1};
        mts_block_t *gradient = mts_block(ta_mts(ta_new_f64_filled(shape, 3, 0)), gs, &c, 1, p);
        CHECK_STATUS(mts_block_add_gradient(blocks[1], i == 0 ? "h" : "g", gradient),
                     MTS_SUCCESS);
    }
    tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    mts_tensormap_free(tensor);
    FREE_LABELS(c, p, gs, keys);

    CHECK_INT_EQ(ta_live(), live);
}

/* blocks given to a map right after their creation, and blocks read before:
 * ours finishes the first kind when the map takes them (all at once), the
 * second kind already was */
static void test_create_from_new_blocks(void) {
    long live = ta_live();
    enum { COUNT = 6 };
    const mts_labels_t *keys = range(NAMES_K, COUNT);
    struct test_array *values[COUNT];
    mts_block_t *blocks[COUNT];
    for (int i = 0; i < COUNT; i++) {
        blocks[i] = simple_block(i, &values[i]);
        if (i % 2 == 0) {
            DLDevice device = {0, 0};
            CHECK_STATUS(mts_block_device(blocks[i], &device), MTS_SUCCESS);
        }
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, COUNT);
    CHECK(tensor != NULL);
    static const int32_t samples[] = {0, 1, 2};
    for (uintptr_t i = 0; i < COUNT; i++) {
        CHECK(blocks[i] == NULL);
        mts_block_t *block = NULL;
        CHECK_STATUS(mts_tensormap_block_by_id(tensor, &block, i), MTS_SUCCESS);
        CHECK(block != NULL && block_array(block) == values[i]);
        CHECK_BLOCK_LABELS(block, 0, NAMES_S, 1, samples, 3);
    }
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    for (int i = 0; i < COUNT; i++) {
        CHECK_INT_EQ(ta_calls(values[i], TA_DESTROY), 1);
    }

    /* refused after the blocks were taken: new and read blocks are freed */
    const mts_labels_t *two = range(NAMES_K, 2);
    struct test_array *refused[2];
    mts_block_t *mixed[2] = {make_block(3, NAMES_C, 2, NAMES_P, 2, 0, TA_CPU, &refused[0]),
                             simple_block(1, &refused[1])};
    const mts_labels_t *labels = mts_block_labels(mixed[1], 0);
    mts_labels_free(labels);
    CHECK_NULL_ERROR(mts_tensormap(two, mixed, 2),
                     INVALID "all blocks must contains the same set of components, the current "
                             "block has 0 components while the first block has 1");
    CHECK_INT_EQ(ta_calls(refused[0], TA_DESTROY), 1);
    CHECK_INT_EQ(ta_calls(refused[1], TA_DESTROY), 1);

    mts_labels_free(two);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

/* A tensor map freed with the last references to its labels, which its blocks share in runs
 * and out of turn (samples a a a b c c a, one components labels but for block 4, one
 * properties labels but for block 5), after Go made it (READ_IN_GO) when in_go is set: every
 * array goes once */
static void free_drops_labels_shared_in_runs(int in_go) {
    long live = ta_live();
    enum { COUNT = 7 };
    static const int samples_of[COUNT] = {0, 0, 0, 1, 2, 2, 0};
    const mts_labels_t *keys = range(NAMES_K, COUNT);
    const mts_labels_t *samples[3] = {range_from(NAMES_S, 0, 3, TA_CPU), range_from(NAMES_S, 3, 3, TA_CPU),
                                      range_from(NAMES_S, 6, 3, TA_CPU)};
    const mts_labels_t *components[2] = {range(NAMES_C, 2), range(NAMES_C, 2)};
    const mts_labels_t *properties[2] = {range_from(NAMES_P, 0, 2, TA_CPU), range_from(NAMES_P, 2, 2, TA_CPU)};
    struct test_array *values[COUNT];
    mts_block_t *blocks[COUNT];
    for (int i = 0; i < COUNT; i++) {
        uintptr_t shape[3] = {3, 2, 2};
        values[i] = ta_new_f64_filled(shape, 3, (double)i);
        blocks[i] = mts_block(ta_mts(values[i]), samples[samples_of[i]], &components[i == 4], 1,
                              properties[i == 5]);
        CHECK(blocks[i] != NULL);
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, COUNT);
    CHECK(tensor != NULL);
    FREE_LABELS(keys, samples[0], samples[1], samples[2], components[0], components[1], properties[0],
                properties[1]);
    if (in_go) {
        READ_IN_GO(tensor);
    }
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    for (int i = 0; i < COUNT; i++) {
        CHECK_INT_EQ(ta_calls(values[i], TA_DESTROY), 1);
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* free_drops_labels_shared_in_runs for a tensor map that Go never saw, then for one Go made
 * (whose free drops its blocks' labels references in Go) */
static void test_free_drops_labels_shared_in_runs(void) {
    for (int in_go = 0; in_go <= 1; in_go++) {
        free_drops_labels_shared_in_runs(in_go);
    }
}

/* A tensor map of `count` blocks over the same samples (3) and properties (2), block i's
 * values filled with i (in values[i]), which Go made (READ_IN_GO) and which holds the last
 * references to its labels; when gradient_values is not NULL, each block has a plain_gradient
 * "g" (its values in gradient_values[i]), added before the map was made */
static mts_tensormap_t *used_shared_map(uintptr_t count, struct test_array **values,
                                        struct test_array **gradient_values) {
    const mts_labels_t *keys = range(NAMES_K, count);
    const mts_labels_t *samples = range(NAMES_S, 3);
    const mts_labels_t *properties = range(NAMES_P, 2);
    mts_block_t *blocks[64];
    CHECK(count <= 64);
    for (uintptr_t i = 0; i < count; i++) {
        uintptr_t shape[2] = {3, 2};
        values[i] = ta_new_f64_filled(shape, 2, (double)i);
        blocks[i] = mts_block(ta_mts(values[i]), samples, NULL, 0, properties);
        CHECK(blocks[i] != NULL);
        if (gradient_values != NULL) {
            mts_block_t *gradient = plain_gradient();
            gradient_values[i] = block_array(gradient);
            ADD_GRADIENT(blocks[i], "g", gradient);
        }
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, count);
    CHECK(tensor != NULL);
    FREE_LABELS(keys, samples, properties);
    READ_IN_GO(tensor);
    const char *const *info = NULL;
    uintptr_t info_count = 1;
    CHECK_STATUS(mts_tensormap_info_keys(tensor, &info, &info_count), MTS_SUCCESS);
    CHECK_INT_EQ(info_count, 0);
    return tensor;
}

/* A tensor map that Go made (READ_IN_GO), freed with the last references to its labels: every
 * array goes once, for maps of 1 to 6 blocks, each with labels of its own (more labels than the
 * free's fast path keeps in C, from 3 blocks on), and of 31 to 33 blocks sharing their labels */
static void test_free_releases_what_go_made(void) {
    long live = ta_live();
    for (uintptr_t count = 1; count <= 6; count++) {
        const mts_labels_t *keys = range(NAMES_K, count);
        struct test_array *values[6];
        mts_block_t *blocks[6];
        for (uintptr_t i = 0; i < count; i++) {
            blocks[i] = make_block(3, NAMES_C, 2, NAMES_P, 2, (double)i, TA_CPU, &values[i]);
        }
        mts_tensormap_t *tensor = mts_tensormap(keys, blocks, count);
        CHECK(tensor != NULL);
        mts_labels_free(keys);
        READ_IN_GO(tensor);
        const char *const *info = NULL;
        uintptr_t info_count = 1;
        CHECK_STATUS(mts_tensormap_info_keys(tensor, &info, &info_count), MTS_SUCCESS);
        CHECK_INT_EQ(info_count, 0);
        CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
        for (uintptr_t i = 0; i < count; i++) {
            CHECK_INT_EQ(ta_calls(values[i], TA_DESTROY), 1);
        }
        CHECK_INT_EQ(ta_live(), live);
    }
    /* around the most blocks whose release the free's fast path keeps in C, all blocks over the
     * same labels */
    for (uintptr_t count = 31; count <= 33; count++) {
        struct test_array *values[33];
        mts_tensormap_t *tensor = used_shared_map(count, values, NULL);
        CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
        for (uintptr_t i = 0; i < count; i++) {
            CHECK_INT_EQ(ta_calls(values[i], TA_DESTROY), 1);
        }
        CHECK_INT_EQ(ta_live(), live);
    }
}

/* A block of a tensor map that Go made (READ_IN_GO), given a gradient, then freed with the
 * map, which holds the last references to its labels: the gradient reads back, and every array
 * goes once, for a gradient added to the first, a middle or the last block */
static void test_gradient_added_after_go_made_the_map(void) {
    long live = ta_live();
    enum { COUNT = 3 };
    for (uintptr_t changed = 0; changed < COUNT; changed++) {
        struct test_array *values[COUNT];
        mts_tensormap_t *tensor = used_shared_map(COUNT, values, NULL);
        mts_block_t *block = block_at(tensor, changed);
        mts_block_t *gradient = plain_gradient();
        mts_array_t gradient_array = {0};
        CHECK_STATUS(mts_block_data(gradient, &gradient_array), MTS_SUCCESS);
        struct test_array *gradient_values = ta_cast(gradient_array.ptr);
        ADD_GRADIENT(block, "g", gradient);
        const char *const *parameters = NULL;
        uintptr_t parameters_count = 0;
        CHECK_STATUS(mts_block_gradients_list(block, &parameters, &parameters_count), MTS_SUCCESS);
        CHECK_INT_EQ(parameters_count, 1);
        CHECK(parameters_count == 1 && strcmp(parameters[0], "g") == 0);
        mts_block_t *read = NULL;
        CHECK_STATUS(mts_block_gradient(block, "g", &read), MTS_SUCCESS);
        CHECK(read != NULL && block_array(read) == gradient_values);
        static const int32_t samples[] = {0, 1, 2};
        for (uintptr_t i = 0; i < COUNT; i++) {
            CHECK(block_array(block_at(tensor, i)) == values[i]);
            CHECK_BLOCK_LABELS(block_at(tensor, i), 0, NAMES_S, 1, samples, 3);
        }

        CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
        for (uintptr_t i = 0; i < COUNT; i++) {
            CHECK_INT_EQ(ta_calls(values[i], TA_DESTROY), 1);
        }
        CHECK_INT_EQ(ta_live(), live);
    }
}

/* A tensor map whose blocks have gradients added in C, made in Go (READ_IN_GO), then: freed;
 * one block given a second gradient first; or copied, the copy freed before or after it. The
 * gradients read back, and every array goes once. */
static void test_gradients_of_a_map_go_made(void) {
    long live = ta_live();
    enum { COUNT = 3, SECOND_GRADIENT = 1, COPY_FREED_FIRST = 2, COPY_FREED_LAST = 3 };
    for (int variant = 0; variant <= COPY_FREED_LAST; variant++) {
        struct test_array *values[COUNT], *gradient_values[COUNT];
        mts_tensormap_t *tensor = used_shared_map(COUNT, values, gradient_values);
        struct test_array *added_values = NULL;
        if (variant == SECOND_GRADIENT) {
            mts_block_t *added = plain_gradient();
            added_values = block_array(added);
            ADD_GRADIENT(block_at(tensor, 1), "h", added);
        }
        mts_tensormap_t *copy = NULL;
        if (variant == COPY_FREED_FIRST || variant == COPY_FREED_LAST) {
            copy = mts_tensormap_copy(tensor);
            CHECK(copy != NULL);
        }
        for (uintptr_t i = 0; i < COUNT; i++) {
            mts_block_t *gradient = NULL;
            CHECK_STATUS(mts_block_gradient(block_at(tensor, i), "g", &gradient), MTS_SUCCESS);
            CHECK(gradient != NULL && block_array(gradient) == gradient_values[i]);
        }
        if (variant == SECOND_GRADIENT) {
            mts_block_t *gradient = NULL;
            CHECK_STATUS(mts_block_gradient(block_at(tensor, 1), "h", &gradient), MTS_SUCCESS);
            CHECK(gradient != NULL && block_array(gradient) == added_values);
        }
        if (variant == COPY_FREED_FIRST) {
            CHECK_STATUS(mts_tensormap_free(copy), MTS_SUCCESS);
        }
        CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
        for (uintptr_t i = 0; i < COUNT; i++) {
            CHECK_INT_EQ(ta_calls(values[i], TA_DESTROY), 1);
            CHECK_INT_EQ(ta_calls(gradient_values[i], TA_DESTROY), 1);
        }
        if (added_values != NULL) {
            CHECK_INT_EQ(ta_calls(added_values, TA_DESTROY), 1);
        }
        if (variant == COPY_FREED_LAST) {
            for (uintptr_t i = 0; i < COUNT; i++) {
                mts_block_t *gradient = NULL;
                CHECK_STATUS(mts_block_gradient(block_at(copy, i), "g", &gradient), MTS_SUCCESS);
                struct test_array *array = gradient != NULL ? block_array(gradient) : NULL;
                CHECK(array != NULL && array->created_from == gradient_values[i]);
            }
            CHECK_STATUS(mts_tensormap_free(copy), MTS_SUCCESS);
        }
        CHECK_INT_EQ(ta_live(), live);
    }
}

static void test_empty(void) {
    long live = ta_live();
    /* no entries, any names; blocks may be NULL */
    const mts_labels_t *keys = ta_labels(NAMES_KL, 2, NULL, 0);
    mts_tensormap_t *tensor = mts_tensormap(keys, NULL, 0);
    CHECK(tensor != NULL);
    CHECK_DEVICE_F64(tensor, TA_CPU);
    mts_block_t *block = NULL;
    CHECK_ERROR(mts_tensormap_block_by_id(tensor, &block, 0), MTS_INVALID_PARAMETER_ERROR,
                INVALID "block index out of bounds: we have 0 blocks but the index is 0");
    mts_tensormap_t *copy = mts_tensormap_copy(tensor);
    CHECK(copy != NULL);
    const mts_labels_t *got = mts_tensormap_keys(copy);
    CHECK(got == keys);
    mts_labels_free(got);
    mts_tensormap_free(copy);
    mts_tensormap_free(tensor);
    mts_labels_free(keys);

    /* keys on another device are fine without blocks */
    keys = ta_labels_on(NAMES_K, 1, NULL, 0, CUDA0);
    mts_block_t *none[1] = {NULL};
    tensor = mts_tensormap(keys, none, 0);
    CHECK(tensor != NULL);
    DLDevice device = TA_CPU;
    CHECK_STATUS(mts_tensormap_device(tensor, &device), MTS_SUCCESS);
    CHECK(device_eq(device, TA_CPU));
    mts_tensormap_free(tensor);
    mts_labels_free(keys);

    /* keys with no dimension at all */
    keys = ta_labels(NULL, 0, NULL, 0);
    tensor = mts_tensormap(keys, NULL, 0);
    CHECK(tensor != NULL);
    got = mts_tensormap_keys(tensor);
    CHECK(got == keys);
    mts_labels_free(got);
    mts_tensormap_free(tensor);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

/* mts_tensormap(keys, blocks, count) refuses the blocks after taking them:
 * every slot is NULL and every block freed */
static void check_invalid_map_(const mts_labels_t *keys, mts_block_t **blocks, uintptr_t count,
                               const char *message, int line) {
    struct test_array *values[8];
    for (uintptr_t i = 0; i < count; i++) {
        values[i] = block_array(blocks[i]);
    }
    set_stale_error();
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, count);
    check_null_result_(tensor, message, __FILE__, line);
    for (uintptr_t i = 0; i < count; i++) {
        check_record_(blocks[i] == NULL, __FILE__, line, "the slot was set to NULL");
        check_int_eq_(ta_calls(values[i], TA_DESTROY), 1, "block values destroyed", "1",
                      "CHECK_INT_EQ", __FILE__, line);
    }
    mts_tensormap_free(tensor);
}
#define CHECK_INVALID_MAP(keys, blocks, message) \
    check_invalid_map_((keys), (blocks), ARRAY_SIZE(blocks), (message), __LINE__)

static void test_create_errors(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 2);
    const mts_labels_t *keys1 = range(NAMES_K, 1);
    const mts_labels_t *keys3 = range(NAMES_K, 3);
    struct test_array *keys_array = labels_array(keys);

    /* NULL keys, NULL blocks, the same block twice: the caller keeps the
     * blocks, untouched */
    struct test_array *values[2];
    mts_block_t *blocks[2];
    blocks[0] = simple_block(0, &values[0]);
    blocks[1] = simple_block(1, &values[1]);
    mts_block_t *given[2] = {blocks[0], blocks[1]};
    CHECK_NULL_ARG_PTR(mts_tensormap(NULL, blocks, 2), "keys");
    CHECK_NULL_ARG_PTR(mts_tensormap(NULL, NULL, 2), "keys");
    CHECK_NULL_ARG_PTR(mts_tensormap(keys, NULL, 2), "blocks");
    mts_block_t *twice[2] = {blocks[0], blocks[0]};
    CHECK_NULL_ERROR(mts_tensormap(keys, twice, 2),
                     INVALID "got the same block more than once when constructing a tensor map");
    CHECK(twice[0] == blocks[0] && twice[1] == blocks[0]);
    /* even with a count mismatch */
    mts_block_t *three[3] = {blocks[1], blocks[0], blocks[1]};
    CHECK_NULL_ERROR(mts_tensormap(keys, three, 3),
                     INVALID "got the same block more than once when constructing a tensor map");
    CHECK(blocks[0] == given[0] && blocks[1] == given[1]);
    CHECK_INT_EQ(ta_calls(values[0], TA_DESTROY), 0);
    CHECK_INT_EQ(ta_calls(values[1], TA_DESTROY), 0);

    /* 1. the block count must match the keys: the blocks are taken (these
     * are the ones kept above) and freed, before anything else is checked */
    CHECK_INVALID_MAP(keys3, blocks,
                      INVALID "expected the same number of blocks as the number of entries in "
                              "the keys (3) when creating a `TensorMap`, got 2");
    mts_block_t *one[1] = {simple_block(0, NULL)};
    CHECK_INVALID_MAP(keys, one,
                      INVALID "expected the same number of blocks as the number of entries in "
                              "the keys (2) when creating a `TensorMap`, got 1");

    /* 2. origins, then devices, then dtypes, compared with block 0 */
    struct test_array *odd = NULL;
    blocks[0] = simple_block(0, NULL);
    {
        /* block 1 differs in everything: origin, device, dtype, names */
        const mts_labels_t *s = range_from(NAMES_S, 0, 3, CUDA0);
        const mts_labels_t *q = range_from(NAMES_Q, 0, 2, CUDA0);
        uintptr_t shape[2] = {3, 2};
        odd = ta_new_f64_filled(shape, 2, 0);
        odd->device = CUDA0;
        odd->dtype.bits = 32;
        mts_array_t array = ta_mts(odd);
        array.origin = other_origin;
        blocks[1] = mts_block(array, s, NULL, 0, q);
        CHECK(blocks[1] != NULL);
        mts_labels_free(s);
        mts_labels_free(q);
    }
    CHECK_INVALID_MAP(keys, blocks,
                      INVALID "invalid tensor map: got blocks with different origins, at least "
                              "('metatensor-go.tests') and ('metatensor-go.tests.other') were "
                              "detected");
    /* block 1 (`samples` samples, properties `property`) on another device,
     * f32 where asked; block 0 is simple_block(0) on `first_device` */
    const struct {
        DLDevice first_device, device;
        uintptr_t samples;
        const char *const *property;
        int f32;
        const char *message;
    } mixed[] = {
        {TA_CPU, CUDA0, 3, NAMES_Q, 1,
         INVALID "invalid tensor map: got blocks on different devices, at least 'CPU:0' and "
                 "'CUDA:0' were detected"},
        {CUDA1, CUDA0, 3, NAMES_P, 0,
         INVALID "invalid tensor map: got blocks on different devices, at least 'CUDA:1' and "
                 "'CUDA:0' were detected"},
        {TA_CPU, TA_CPU, 4, NAMES_Q, 1,
         INVALID "invalid tensor map: got blocks with different dtypes, at least 'f64' and "
                 "'f32' were detected"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(mixed); i++) {
        blocks[0] = make_block(3, NULL, 0, NAMES_P, 2, 0, mixed[i].first_device, NULL);
        blocks[1] = make_block(mixed[i].samples, NULL, 0, mixed[i].property, 2, 0,
                               mixed[i].device, &odd);
        if (mixed[i].f32) {
            odd->dtype.bits = 32;
        }
        CHECK_INVALID_MAP(keys, blocks, mixed[i].message);
    }

    /* 3. the keys device, before the names */
    const mts_labels_t *cuda_keys = range_from(NAMES_K, 0, 2, CUDA0);
    blocks[0] = simple_block(0, NULL);
    blocks[1] = make_block(4, NULL, 0, NAMES_Q, 2, 0, TA_CPU, NULL);
    CHECK_INVALID_MAP(cuda_keys, blocks,
                      INVALID "tried to build a TensorMap from keys and blocks on different "
                              "devices: the keys are on 'CUDA:0' while the blocks are on "
                              "'CPU:0'");

    /* 4. names, per block, the current block printed first */
    const mts_labels_t *x = range(NAMES_X, 3);
    const mts_labels_t *p = range(NAMES_P, 2);
    const mts_labels_t *c = range(NAMES_C, 2);
    const mts_labels_t *d = range(NAMES_D, 2);
    const mts_labels_t *cd[] = {c, d};
    blocks[0] = simple_block(0, NULL);
    blocks[1] = mts_block(ta_mts(ta_new_f64_filled((const uintptr_t[]){3, 2, 2, 3}, 4, 0)), x,
                          cd, 2, x);
    CHECK(blocks[1] != NULL);
    CHECK_INVALID_MAP(keys, blocks,
                      INVALID "all blocks must have the same sample dimensions, got [x] and [s]");
    static const int32_t two_d[] = {0, 0, 1, 1};
    const mts_labels_t *sg = ta_labels(NAMES_SAMPLE_G, 2, two_d, 2);
    mts_block_t *three_blocks[3];
    three_blocks[0] = simple_block(0, NULL);
    three_blocks[1] = simple_block(1, NULL);
    three_blocks[2] = mts_block(ta_mts(ta_new_f64_filled((const uintptr_t[]){2, 2}, 2, 0)), sg,
                                NULL, 0, p);
    CHECK_INVALID_MAP(keys3, three_blocks,
                      INVALID "all blocks must have the same sample dimensions, got [sample, g] "
                              "and [s]");
    blocks[0] = make_block(3, NAMES_C, 2, NAMES_P, 2, 0, TA_CPU, NULL);
    const mts_labels_t *s3 = range(NAMES_S, 3);
    blocks[1] = mts_block(ta_mts(ta_new_f64_filled((const uintptr_t[]){3, 2, 2, 3}, 4, 0)),
                          s3, cd, 2, x);
    mts_labels_free(s3);
    CHECK_INVALID_MAP(keys, blocks,
                      INVALID "all blocks must contains the same set of components, the current "
                              "block has 2 components while the first block has 1");
    /* the second block's components (d) differ, then only its properties (q) */
    const struct {
        const char *const *component;
        uintptr_t components;
        const char *message;
    } other_dimensions[] = {
        {NAMES_D, 2, INVALID "all blocks must have the same component dimensions, got [d] and [c]"},
        {NAMES_C, 5, INVALID "all blocks must have the same property dimensions, got [q] and [p]"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(other_dimensions); i++) {
        blocks[0] = make_block(3, NAMES_C, 2, NAMES_P, 2, 0, TA_CPU, NULL);
        blocks[1] = make_block(3, other_dimensions[i].component, other_dimensions[i].components,
                               NAMES_Q, 2, 0, TA_CPU, NULL);
        CHECK_INVALID_MAP(keys, blocks, other_dimensions[i].message);
    }

    /* gradients: the same parameters, sample names, component names and
     * nested gradients */
#define GRADIENTS_MESSAGE                                                                     \
    INVALID "all blocks must have the same set of gradients, with the same sample, property " \
            "and component dimensions, and the same must be true for gradients of gradients"
    simple_blocks(blocks);
    ADD_GRADIENT(blocks[1], "g", plain_gradient());
    CHECK_INVALID_MAP(keys, blocks, GRADIENTS_MESSAGE);
    simple_blocks(blocks);
    ADD_GRADIENT(blocks[0], "g", plain_gradient());
    CHECK_INVALID_MAP(keys, blocks, GRADIENTS_MESSAGE);
    simple_blocks(blocks);
    ADD_GRADIENT(blocks[0], "g", plain_gradient());
    ADD_GRADIENT(blocks[1], "h", plain_gradient());
    CHECK_INVALID_MAP(keys, blocks, GRADIENTS_MESSAGE);
    /* other sample names */
    simple_blocks(blocks);
    ADD_GRADIENT(blocks[0], "g", plain_gradient());
    ADD_GRADIENT(blocks[1], "g", make_gradient(NAMES_SAMPLE, 1, NULL, NAMES_P, TA_CPU));
    CHECK_INVALID_MAP(keys, blocks, GRADIENTS_MESSAGE);
    /* other component names */
    simple_blocks(blocks);
    ADD_GRADIENT(blocks[0], "g", make_gradient(NULL, 0, NAMES_C, NAMES_P, TA_CPU));
    ADD_GRADIENT(blocks[1], "g", make_gradient(NULL, 0, NAMES_D, NAMES_P, TA_CPU));
    CHECK_INVALID_MAP(keys, blocks, GRADIENTS_MESSAGE);
    /* nested gradients differ */
    simple_blocks(blocks);
    for (int i = 0; i < 2; i++) {
        ADD_GRADIENT(blocks[i], "g", plain_gradient());
    }
    mts_block_t *gradient = NULL;
    CHECK_STATUS(mts_block_gradient(blocks[1], "g", &gradient), MTS_SUCCESS);
    ADD_GRADIENT(gradient, "n", plain_gradient());
    CHECK_INVALID_MAP(keys, blocks, GRADIENTS_MESSAGE);
    /* the same nested gradients are fine */
    simple_blocks(blocks);
    for (int i = 0; i < 2; i++) {
        ADD_GRADIENT(blocks[i], "g", plain_gradient());
        CHECK_STATUS(mts_block_gradient(blocks[i], "g", &gradient), MTS_SUCCESS);
        ADD_GRADIENT(gradient, "n", plain_gradient());
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    mts_tensormap_free(tensor);

    /* the keys gained no reference from the failures */
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_calls(keys_array, TA_DESTROY), 1);
    FREE_LABELS(keys1, keys3, cuda_keys, x, p, c, d, sg);
    CHECK_INT_EQ(ta_live(), live);
}

/* two new blocks made by simple_block (values 0 and 1), their arrays in values[] */
static void counted_blocks(mts_block_t *blocks[2], struct test_array *values[2]) {
    blocks[0] = simple_block(0, &values[0]);
    blocks[1] = simple_block(1, &values[1]);
}

/* both arrays were destroyed exactly once: 2 checks */
#define CHECK_BOTH_DESTROYED(values)                       \
    do {                                                   \
        CHECK_INT_EQ(ta_calls((values)[0], TA_DESTROY), 1); \
        CHECK_INT_EQ(ta_calls((values)[1], TA_DESTROY), 1); \
    } while (0)

/* Blocks that nothing read since mts_block: mts_tensormap asks each array its
 * origin, device and dtype once, in block order, then the keys their device
 * once, and nothing more when the tensor map is used; a failing callback
 * fails the call with its own error and the blocks go. */
static void test_create_asks_once(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 2);
    struct test_array *keys_array = labels_array(keys);
    static const enum ta_member members[] = {TA_NONE, TA_ORIGIN, TA_DEVICE, TA_DTYPE};
    static const char *const messages[] = {
        NULL,
        "calling mts_array_t.origin failed: test array: origin failed on purpose",
        "calling mts_array_t.device failed: test array: device failed on purpose",
        "calling mts_array_t.dtype failed: test array: dtype failed on purpose",
    };
    for (size_t m = 0; m < ARRAY_SIZE(members); m++) {
        struct test_array *values[2];
        mts_block_t *blocks[2];
        counted_blocks(blocks, values);
        int before[2][3], after[2][3];
        ta_description_calls(values[0], before[0]);
        ta_description_calls(values[1], before[1]);
        int keys_devices = ta_calls(keys_array, TA_DEVICE);
        ta_set_fail(values[1], members[m], MTS_CALLBACK_ERROR, NULL);
        set_stale_error();
        mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
        ta_description_calls(values[0], after[0]);
        ta_description_calls(values[1], after[1]);
        for (int k = 0; k < 3; k++) {
            int asked_first = 1;
#ifdef MTS_TEST_REFERENCE
            /* the reference asks block 0's device again, to compare it with the keys' */
            asked_first += members[m] == TA_NONE && k == 1;
#endif
            CHECK_INT_EQ(after[0][k], before[0][k] + asked_first);
            /* block 1 is asked up to the failing member */
            int asked = members[m] == TA_NONE || (int)members[m] >= TA_ORIGIN + k;
            CHECK_INT_EQ(after[1][k], before[1][k] + asked);
        }
        CHECK_INT_EQ(ta_calls(keys_array, TA_DEVICE), keys_devices + (members[m] == TA_NONE));
        CHECK(blocks[0] == NULL && blocks[1] == NULL);
        if (members[m] == TA_NONE) {
            CHECK(tensor != NULL);
            CHECK(block_at(tensor, 1) != NULL && block_array(block_at(tensor, 1)) == values[1]);
            const mts_labels_t *got = mts_tensormap_keys(tensor);
            CHECK(got == keys);
            mts_labels_free(got);
            ta_description_calls(values[0], before[0]);
            ta_description_calls(values[1], before[1]);
            CHECK(memcmp(before, after, sizeof(before)) == 0);
            CHECK_INT_EQ(ta_calls(keys_array, TA_DEVICE), keys_devices + 1);
            CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
        } else {
            CHECK(tensor == NULL);
            CHECK_STR_EQ(last_message(), messages[m]);
            CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
        }
        CHECK_BOTH_DESTROYED(values);
    }

    /* the keys' device failing */
    struct test_array *values[2];
    mts_block_t *blocks[2];
    counted_blocks(blocks, values);
    ta_set_fail(keys_array, TA_DEVICE, MTS_CALLBACK_ERROR, NULL);
    set_stale_error();
    CHECK(mts_tensormap(keys, blocks, 2) == NULL);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.device failed: test array: device failed on purpose");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    ta_set_fail(keys_array, TA_NONE, MTS_SUCCESS, NULL);
    CHECK(blocks[0] == NULL && blocks[1] == NULL);
    CHECK_BOTH_DESTROYED(values);

    /* a block read from the tensor map and used (Go makes that block alone), then the
     * tensor map freed: every block goes */
    counted_blocks(blocks, values);
    mts_tensormap_t *read = mts_tensormap(keys, blocks, 2);
    CHECK(read != NULL);
    const mts_labels_t *samples = mts_block_labels(block_at(read, 0), 0);
    CHECK(samples != NULL);
    mts_labels_free(samples);
    mts_block_t *copy = mts_block_copy(block_at(read, 0)); /* a use of the block by Go */
    CHECK(copy != NULL);
    mts_block_free(copy);
    CHECK_STATUS(mts_tensormap_free(read), MTS_SUCCESS);
    CHECK_BOTH_DESTROYED(values);

    /* a tensor map freed without any other use releases everything */
    counted_blocks(blocks, values);
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_calls(keys_array, TA_DESTROY), 0);
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    CHECK_BOTH_DESTROYED(values);
    CHECK_INT_EQ(ta_calls(keys_array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);
}

/* A block of 3 samples s and 2 properties p, with the gradient `parameter`
 * of `rows` (sample, g) over the same properties labels; the gradient's
 * values go to *gradient_values. */
static mts_block_t *block_with_gradient(const mts_labels_t *s, const mts_labels_t *p, const char *parameter,
                                        const mts_labels_t *gradient_samples, struct test_array **gradient_values) {
    mts_block_t *block = mts_block(ta_mts(ta_new_f64_filled((const uintptr_t[]){3, 2}, 2, 1)), s, NULL, 0, p);
    uintptr_t rows = 0, size = 0;
    const int32_t *values = NULL;
    mts_labels_values_cpu(gradient_samples, &values, &rows, &size);
    *gradient_values = ta_new_f64_filled((const uintptr_t[]){rows, 2}, 2, 2);
    mts_block_t *gradient = mts_block(ta_mts(*gradient_values), gradient_samples, NULL, 0, p);
    CHECK(block != NULL && gradient != NULL);
    CHECK_STATUS(mts_block_add_gradient(block, parameter, gradient), MTS_SUCCESS);
    return block;
}

/* Blocks with gradients, nothing read since they were made: the tensor map
 * holds them, its blocks give their gradients back, and blocks whose
 * gradients differ are refused. */
static void test_create_with_gradients(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 2);
    const mts_labels_t *s = range(NAMES_S, 3);
    const mts_labels_t *p = range(NAMES_P, 2);
    static const int32_t rows[] = {0, 0, 2, 1};
    const mts_labels_t *gradient_samples = ta_labels(NAMES_SAMPLE_G, 2, rows, 2);
    struct test_array *gradient_values[2];
    mts_block_t *blocks[2];
    for (int i = 0; i < 2; i++) {
        blocks[i] = block_with_gradient(s, p, "g", gradient_samples, &gradient_values[i]);
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    static const char *const parameters[] = {"g"};
    for (uintptr_t i = 0; i < 2; i++) {
        mts_block_t *gradient = NULL;
        CHECK_STATUS(mts_block_gradient(block_at(tensor, i), "g", &gradient), MTS_SUCCESS);
        CHECK(gradient != NULL && block_array(gradient) == gradient_values[i]);
        CHECK_LISTED_(mts_block_gradients_list, block_at(tensor, i), parameters, 1, "check_gradients_list");
        CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_G, 2, rows, 2);
        CHECK_STATUS(mts_block_gradient(gradient, "g", &gradient), MTS_INVALID_PARAMETER_ERROR);
        CHECK_STR_EQ(last_message(), "invalid parameter: can not find gradients with respect to 'g' in this block");
    }
    /* a gradient read, then used by Go: its block is made with it */
    mts_block_t *gradient = NULL;
    CHECK_STATUS(mts_block_gradient(block_at(tensor, 1), "g", &gradient), MTS_SUCCESS);
    mts_block_t *copy = mts_block_copy(gradient);
    CHECK(copy != NULL);
    CHECK_STATUS(mts_block_free(copy), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    CHECK_BOTH_DESTROYED(gradient_values);

    /* other parameters: refused once the arrays are asked, the blocks go */
    blocks[0] = block_with_gradient(s, p, "g", gradient_samples, &gradient_values[0]);
    blocks[1] = block_with_gradient(s, p, "h", gradient_samples, &gradient_values[1]);
    set_stale_error();
    CHECK(mts_tensormap(keys, blocks, 2) == NULL);
    CHECK_STR_EQ(last_message(), GRADIENTS_MESSAGE);
    CHECK(blocks[0] == NULL && blocks[1] == NULL);
    CHECK_BOTH_DESTROYED(gradient_values);

    /* a block freed alone frees its gradient */
    blocks[0] = block_with_gradient(s, p, "g", gradient_samples, &gradient_values[0]);
    CHECK_STATUS(mts_block_free(blocks[0]), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(gradient_values[0], TA_DESTROY), 1);
    FREE_LABELS(keys, s, p, gradient_samples);
    CHECK_INT_EQ(ta_live(), live);
}

/* The blocks of a new tensor map are read as the reference reads them: their labels and
 * values without asking the values anything, their device and dtype with one call each, a
 * failing call giving the callback's error and leaving the values to the block. */
static void test_block_reads(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 2);
    struct test_array *values[2];
    mts_block_t *blocks[2];
    counted_blocks(blocks, values);
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    mts_block_t *block = block_at(tensor, 1);
    int before[3], after[3];
    ta_description_calls(values[1], before);

    static const int32_t samples[] = {0, 1, 2}, properties[] = {0, 1};
    CHECK_BLOCK_LABELS(block, 0, NAMES_S, 1, samples, 3);
    CHECK_BLOCK_LABELS(block, 1, NAMES_P, 1, properties, 2);
    set_stale_error();
    CHECK(mts_block_labels(block, 2) == NULL);
    CHECK_STR_EQ(last_message(), "invalid parameter: tried to get the labels for axis 2, but we "
                                 "only have 2 axes for this block");
    mts_array_t data = {0}; /* the reference releases what the output held */
    CHECK_STATUS(mts_block_data(block, &data), MTS_SUCCESS);
    CHECK(ta_cast(data.ptr) == values[1] && data.destroy == NULL);
    const char *const *parameters = (const char *const *)&parameters;
    uintptr_t count = 1;
    CHECK_STATUS(mts_block_gradients_list(block, &parameters, &count), MTS_SUCCESS);
    CHECK_INT_EQ(count, 0);
    ta_description_calls(values[1], after);
    CHECK(memcmp(before, after, sizeof(before)) == 0);

    DLDevice device = CUDA1;
    DLDataType dtype = TA_INT32;
    CHECK_STATUS(mts_block_device(block, &device), MTS_SUCCESS);
    CHECK(device.device_type == kDLCPU && device.device_id == 0);
    CHECK_STATUS(mts_block_dtype(block, &dtype), MTS_SUCCESS);
    CHECK(ta_dtype_eq(dtype, TA_FLOAT64));
    ta_description_calls(values[1], after);
    CHECK_INT_EQ(after[0], before[0]);
    CHECK_INT_EQ(after[1], before[1] + 1);
    CHECK_INT_EQ(after[2], before[2] + 1);

    ta_set_fail(values[1], TA_DEVICE, MTS_CALLBACK_ERROR, NULL);
    CHECK_STATUS(mts_block_device(block, &device), MTS_CALLBACK_ERROR);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.device failed: test array: device failed on purpose");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    ta_set_fail(values[1], TA_DTYPE, MTS_CALLBACK_ERROR, NULL);
    CHECK_STATUS(mts_block_dtype(block, &dtype), MTS_CALLBACK_ERROR);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.dtype failed: test array: dtype failed on purpose");
    ta_set_fail(values[1], TA_NONE, MTS_SUCCESS, NULL);
    clear_error();
    CHECK_INT_EQ(ta_calls(values[1], TA_DESTROY), 0);

    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    CHECK_BOTH_DESTROYED(values);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

/* Threads reading one new tensor map at once (Go makes it for the first read in Go,
 * read_in_go_) all see the same info, dtype, keys and block. */
#define READERS 4
static pthread_barrier_t readers_barrier;

struct reader {
    mts_tensormap_t *tensor;
    mts_status_t status;
    DLDataType dtype;
    mts_block_t *block;
    const mts_labels_t *keys;
    int read_in_go;
    uintptr_t info_keys;
};

static void *read_tensor(void *argument) {
    struct reader *reader = argument;
    pthread_barrier_wait(&readers_barrier);
    reader->read_in_go = read_in_go_(reader->tensor);
    const char *const *info_keys = NULL;
    reader->status = mts_tensormap_info_keys(reader->tensor, &info_keys, &reader->info_keys);
    if (reader->status == MTS_SUCCESS) {
        reader->status = mts_tensormap_dtype(reader->tensor, &reader->dtype);
    }
    reader->keys = mts_tensormap_keys(reader->tensor);
    reader->block = block_at(reader->tensor, 1);
    return NULL;
}

static void test_concurrent_first_reads(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 2);
    for (int round = 0; round < 20; round++) {
        struct test_array *second;
        mts_block_t *blocks[2] = {simple_block(0, NULL), simple_block(1, &second)};
        mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
        CHECK(tensor != NULL);
        CHECK_INT_EQ(pthread_barrier_init(&readers_barrier, NULL, READERS), 0);
        pthread_t threads[READERS];
        struct reader readers[READERS];
        for (int i = 0; i < READERS; i++) {
            readers[i] = (struct reader){tensor, -1, {0, 0, 0}, NULL, NULL, 0, 1};
            CHECK_INT_EQ(pthread_create(&threads[i], NULL, read_tensor, &readers[i]), 0);
        }
        for (int i = 0; i < READERS; i++) {
            CHECK_INT_EQ(pthread_join(threads[i], NULL), 0);
            CHECK_STATUS(readers[i].status, MTS_SUCCESS);
            CHECK(readers[i].read_in_go);
            CHECK_INT_EQ(readers[i].dtype.bits, 64);
            CHECK_INT_EQ(readers[i].info_keys, 0);
            CHECK(readers[i].keys == keys);
            CHECK(readers[i].block == readers[0].block && block_array(readers[i].block) == second);
            mts_labels_free(readers[i].keys);
        }
        pthread_barrier_destroy(&readers_barrier);
        CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    }
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

/* Threads freeing tensor maps Go made at once (each free borrows the release's scratch memory
 * the last one left, or makes its own): every array is destroyed once and every free
 * succeeds. */
#define FREERS 4
#define FREES_PER_THREAD 200

struct freer {
    const mts_labels_t *keys;
    int failures;
};

static void *free_tensors(void *argument) {
    struct freer *freer = argument;
    pthread_barrier_wait(&readers_barrier);
    for (int i = 0; i < FREES_PER_THREAD; i++) {
        mts_block_t *blocks[2] = {simple_block(0, NULL), simple_block(1, NULL)};
        mts_tensormap_t *tensor = mts_tensormap(freer->keys, blocks, 2);
        const char *const *info_keys = NULL;
        uintptr_t count = 0;
        if (tensor == NULL || !read_in_go_(tensor) ||
            mts_tensormap_info_keys(tensor, &info_keys, &count) != MTS_SUCCESS ||
            mts_tensormap_free(tensor) != MTS_SUCCESS) {
            freer->failures++;
        }
    }
    return NULL;
}

static void test_concurrent_frees(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 2);
    CHECK_INT_EQ(pthread_barrier_init(&readers_barrier, NULL, FREERS), 0);
    pthread_t threads[FREERS];
    struct freer freers[FREERS];
    for (int i = 0; i < FREERS; i++) {
        freers[i] = (struct freer){keys, 0};
        CHECK_INT_EQ(pthread_create(&threads[i], NULL, free_tensors, &freers[i]), 0);
    }
    for (int i = 0; i < FREERS; i++) {
        CHECK_INT_EQ(pthread_join(threads[i], NULL), 0);
        CHECK_INT_EQ(freers[i].failures, 0);
    }
    pthread_barrier_destroy(&readers_barrier);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* info                                                                     */

/* the info keys of `tensor` are `expected` (in order) */
#define CHECK_INFO_KEYS(tensor, expected, count) \
    CHECK_LISTED_(mts_tensormap_info_keys, tensor, expected, count, "check_info_keys")

static const char *get_info(const mts_tensormap_t *tensor, const char *key) {
    const char *value = (const char *)&value;
    if (mts_tensormap_get_info(tensor, key, &value) != MTS_SUCCESS) {
        return "<error>";
    }
    return value;
}

static mts_tensormap_t *simple_tensor(struct test_array **values_out) {
    const mts_labels_t *keys = range(NAMES_K, 2);
    mts_block_t *blocks[2] = {simple_block(1.0, values_out != NULL ? &values_out[0] : NULL),
                              simple_block(2.0, values_out != NULL ? &values_out[1] : NULL)};
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    mts_labels_free(keys);
    return tensor;
}

/* The blocks of a tensor map Go made (a copy) and of a map made in C that Go read (the
 * copy's input, whose blocks Go made lending their records) read as any other: block_by_id
 * gives the same block every time, its labels are the block's, labels the caller keeps
 * outlive the map, and its values are the block's array as a view, none of whose callbacks
 * runs; so do a gradient's, and the copy's keys. */
static void test_reads_of_blocks_go_holds(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 2);
    struct test_array *values[2];
    mts_block_t *blocks[2] = {simple_block(1.0, &values[0]), simple_block(2.0, &values[1])};
    ADD_GRADIENT(blocks[0], "g", plain_gradient());
    ADD_GRADIENT(blocks[1], "g", plain_gradient());
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    mts_tensormap_t *copy = mts_tensormap_copy(tensor);
    CHECK(copy != NULL);
    static const int32_t samples[] = {0, 1, 2}, properties[] = {0, 1}, gradient_samples[] = {0, 0};
    const mts_labels_t *kept = NULL;
    mts_tensormap_t *maps[2] = {copy, tensor};
    for (int m = 0; m < 2; m++) {
        for (uintptr_t i = 0; i < 2; i++) {
            mts_block_t *block = block_at(maps[m], i);
            struct test_array *array = block_array(block);
            CHECK(array != NULL && (m == 0 ? array->created_from == values[i] : array == values[i]));
            int before[3], after[3];
            ta_description_calls(array, before);
            for (int round = 0; round < 3; round++) {
                CHECK(block_at(maps[m], i) == block);
                CHECK_BLOCK_LABELS(block, 0, NAMES_S, 1, samples, 3);
                CHECK_BLOCK_LABELS(block, 1, NAMES_P, 1, properties, 2);
                mts_array_t data = {0};
                CHECK_STATUS(mts_block_data(block, &data), MTS_SUCCESS);
                CHECK(ta_cast(data.ptr) == array && data.destroy == NULL);
            }
            ta_description_calls(array, after);
            CHECK(memcmp(before, after, sizeof(before)) == 0);
            if (m == 0 && i == 0) {
                kept = mts_block_labels(block, 0);
                CHECK(kept != NULL);
            }
        }
        mts_block_t *gradient = NULL;
        CHECK_STATUS(mts_block_gradient(block_at(maps[m], 1), "g", &gradient), MTS_SUCCESS);
        for (int round = 0; round < 2; round++) {
            CHECK_BLOCK_LABELS(gradient, 0, NAMES_SAMPLE_G, 2, gradient_samples, 1);
            CHECK_BLOCK_LABELS(gradient, 1, NAMES_P, 1, properties, 2);
            mts_array_t data = {0};
            CHECK_STATUS(mts_block_data(gradient, &data), MTS_SUCCESS);
            CHECK(ta_cast(data.ptr) == block_array(gradient) && data.destroy == NULL);
        }
    }
    static const int32_t key_values[] = {0, 1};
    const mts_labels_t *kept_keys = NULL;
    for (int round = 0; round < 3; round++) {
        const mts_labels_t *got = mts_tensormap_keys(copy);
        CHECK_LABELS(got, NAMES_K, 1, key_values, 2);
        if (kept_keys == NULL) {
            kept_keys = got;
        } else {
            mts_labels_free(got);
        }
    }
    CHECK_STATUS(mts_tensormap_free(copy), MTS_SUCCESS);
    CHECK_LABELS(kept, NAMES_S, 1, samples, 3);
    CHECK_LABELS(kept_keys, NAMES_K, 1, key_values, 2);
    FREE_LABELS(kept, kept_keys);
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    CHECK_BOTH_DESTROYED(values);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

/* A block with more component axes than the record of a block made in C holds (4) reads the
 * same, in a map Go made. */
static void test_reads_of_many_components(void) {
    long live = ta_live();
    static const char *const names[6][1] = {{"c0"}, {"c1"}, {"c2"}, {"c3"}, {"c4"}, {"c5"}};
    const mts_labels_t *components[6];
    uintptr_t shape[8] = {3, 1, 1, 1, 1, 1, 1, 2};
    for (int c = 0; c < 6; c++) {
        components[c] = range(names[c], 1);
    }
    const mts_labels_t *s = range(NAMES_S, 3), *p = range(NAMES_P, 2), *keys = range(NAMES_K, 1);
    mts_block_t *block = mts_block(ta_mts(ta_new_f64_filled(shape, 8, 1.5)), s, components, 6, p);
    CHECK(block != NULL);
    mts_tensormap_t *tensor = mts_tensormap(keys, &block, 1);
    CHECK(tensor != NULL);
    mts_tensormap_t *copy = mts_tensormap_copy(tensor);
    CHECK(copy != NULL);
    static const int32_t zero[] = {0}, samples[] = {0, 1, 2}, properties[] = {0, 1};
    for (int round = 0; round < 2; round++) {
        mts_block_t *read = block_at(copy, 0);
        CHECK_BLOCK_LABELS(read, 0, NAMES_S, 1, samples, 3);
        for (uintptr_t c = 0; c < 6; c++) {
            CHECK_BLOCK_LABELS(read, 1 + c, names[c], 1, zero, 1);
        }
        CHECK_BLOCK_LABELS(read, 7, NAMES_P, 1, properties, 2);
        mts_array_t data = {0};
        CHECK_STATUS(mts_block_data(read, &data), MTS_SUCCESS);
        CHECK(ta_cast(data.ptr) == block_array(read) && data.destroy == NULL);
    }
    FREE_TENSORS(copy, tensor);
    FREE_LABELS(s, p, keys, components[0], components[1], components[2], components[3], components[4],
                components[5]);
    CHECK_INT_EQ(ta_live(), live);
}

/* Threads reading the blocks of a new copy at once (the first reads of each block give Go's
 * records to C) all see the same blocks, labels and values. */
struct copy_reader {
    mts_tensormap_t *copy;
    mts_block_t *blocks[2];
    void *data[2];
    int failures;
};

static void *read_copy(void *argument) {
    struct copy_reader *reader = argument;
    static const int32_t samples[] = {0, 1, 2};
    pthread_barrier_wait(&readers_barrier);
    for (uintptr_t i = 0; i < 2; i++) {
        mts_block_t *block = NULL;
        mts_array_t data = {0};
        if (mts_tensormap_block_by_id(reader->copy, &block, i) != MTS_SUCCESS ||
            mts_block_data(block, &data) != MTS_SUCCESS) {
            reader->failures++;
            continue;
        }
        const mts_labels_t *labels = mts_block_labels(block, 0);
        if (labels == NULL || !labels_match_(labels, NAMES_S, 1, samples, 3, __FILE__, __LINE__)) {
            reader->failures++;
        }
        mts_labels_free(labels);
        reader->blocks[i] = block;
        reader->data[i] = data.ptr;
    }
    return NULL;
}

static void test_concurrent_reads_of_a_copy(void) {
    long live = ta_live();
    for (int round = 0; round < 20; round++) {
        mts_tensormap_t *tensor = simple_tensor(NULL);
        mts_tensormap_t *copy = mts_tensormap_copy(tensor);
        CHECK(copy != NULL);
        CHECK_INT_EQ(pthread_barrier_init(&readers_barrier, NULL, READERS), 0);
        pthread_t threads[READERS];
        struct copy_reader readers[READERS];
        for (int i = 0; i < READERS; i++) {
            readers[i] = (struct copy_reader){copy, {NULL, NULL}, {NULL, NULL}, 0};
            CHECK_INT_EQ(pthread_create(&threads[i], NULL, read_copy, &readers[i]), 0);
        }
        for (int i = 0; i < READERS; i++) {
            CHECK_INT_EQ(pthread_join(threads[i], NULL), 0);
            CHECK_INT_EQ(readers[i].failures, 0);
            for (int b = 0; b < 2; b++) {
                CHECK(readers[i].blocks[b] == readers[0].blocks[b] && readers[i].data[b] == readers[0].data[b]);
            }
        }
        pthread_barrier_destroy(&readers_barrier);
        FREE_TENSORS(copy, tensor);
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* The first read of a block of a map Go made publishes the blocks after it too, some at a
 * time: a map of many blocks of different sizes, read from anywhere, in any order, and by
 * threads starting at different blocks at once, gives each block with its own labels and
 * values, the same every time. */
#define MANY_BLOCKS 100

struct many_reader {
    mts_tensormap_t *map;
    uintptr_t first;
    int step; /* 1 or -1 */
    mts_block_t *blocks[MANY_BLOCKS];
    int failures;
    int wait; /* at readers_barrier first */
};

static int read_many_block(mts_tensormap_t *map, uintptr_t b, mts_block_t **out) {
    mts_block_t *block = NULL;
    mts_array_t data = {0};
    if (mts_tensormap_block_by_id(map, &block, b) != MTS_SUCCESS || mts_block_data(block, &data) != MTS_SUCCESS) {
        return 0;
    }
    struct test_array *values = ta_cast(data.ptr);
    int ok = values != NULL && values->data != NULL && ((double *)values->data)[0] == (double)b;
    const mts_labels_t *samples = mts_block_labels(block, 0);
    const int32_t *entries = NULL;
    uintptr_t count = 0, size = 0;
    ok = ok && samples != NULL && mts_labels_values_cpu(samples, &entries, &count, &size) == MTS_SUCCESS &&
         count == 1 + b % 5 && size == 1 && entries[count - 1] == (int32_t)(count - 1);
    mts_labels_free(samples);
    *out = block;
    return ok;
}

static void *read_many(void *argument) {
    struct many_reader *reader = argument;
    if (reader->wait) {
        pthread_barrier_wait(&readers_barrier);
    }
    for (uintptr_t i = 0; i < MANY_BLOCKS; i++) {
        uintptr_t b = (reader->first + MANY_BLOCKS + (uintptr_t)reader->step * i) % MANY_BLOCKS;
        if (!read_many_block(reader->map, b, &reader->blocks[b])) {
            reader->failures++;
        }
    }
    return NULL;
}

static mts_tensormap_t *many_blocks_tensor(void) {
    int32_t keys_values[2 * MANY_BLOCKS];
    mts_block_t *blocks[MANY_BLOCKS];
    for (int b = 0; b < MANY_BLOCKS; b++) {
        keys_values[2 * b] = b / 10;
        keys_values[2 * b + 1] = b % 10;
        blocks[b] = make_block(1 + (uintptr_t)b % 5, NULL, 0, NAMES_P, 2, (double)b, TA_CPU, NULL);
    }
    const mts_labels_t *keys = ta_labels_on(NAMES_KL, 2, keys_values, MANY_BLOCKS, TA_CPU);
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, MANY_BLOCKS);
    CHECK(tensor != NULL);
    mts_labels_free(keys);
    return tensor;
}

static void test_reads_of_many_blocks(void) {
    long live = ta_live();
    mts_tensormap_t *tensor = many_blocks_tensor();
    /* one reader: from the middle forwards, then backwards from the end, then again */
    mts_tensormap_t *copy = mts_tensormap_copy(tensor);
    CHECK(copy != NULL);
    struct many_reader first = {copy, 50, 1, {NULL}, 0, 0};
    struct many_reader second = {copy, MANY_BLOCKS - 1, -1, {NULL}, 0, 0};
    read_many(&first);
    read_many(&second);
    CHECK_INT_EQ(first.failures, 0);
    CHECK_INT_EQ(second.failures, 0);
    for (int b = 0; b < MANY_BLOCKS; b++) {
        CHECK(first.blocks[b] != NULL && first.blocks[b] == second.blocks[b]);
    }
    mts_tensormap_free(copy);

    /* threads starting at different blocks, in both directions, on new copies */
    for (int round = 0; round < 10; round++) {
        copy = mts_tensormap_copy(tensor);
        CHECK(copy != NULL);
        CHECK_INT_EQ(pthread_barrier_init(&readers_barrier, NULL, READERS), 0);
        pthread_t threads[READERS];
        struct many_reader readers[READERS];
        for (int i = 0; i < READERS; i++) {
            readers[i] = (struct many_reader){copy, (uintptr_t)(i * 37) % MANY_BLOCKS, i % 2 == 0 ? 1 : -1,
                                              {NULL}, 0, 1};
            CHECK_INT_EQ(pthread_create(&threads[i], NULL, read_many, &readers[i]), 0);
        }
        for (int i = 0; i < READERS; i++) {
            CHECK_INT_EQ(pthread_join(threads[i], NULL), 0);
            CHECK_INT_EQ(readers[i].failures, 0);
        }
        for (int i = 1; i < READERS; i++) {
            for (int b = 0; b < MANY_BLOCKS; b++) {
                CHECK(readers[i].blocks[b] == readers[0].blocks[b]);
            }
        }
        pthread_barrier_destroy(&readers_barrier);
        mts_tensormap_free(copy);
    }
    mts_tensormap_free(tensor);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_info(void) {
    long live = ta_live();
    mts_tensormap_t *tensor = simple_tensor(NULL);
    CHECK_INFO_KEYS(tensor, NULL, 0);
    const char *value = (const char *)&value;
    CHECK_STATUS(mts_tensormap_get_info(tensor, "missing", &value), MTS_SUCCESS);
    CHECK(value == NULL);

    CHECK_STATUS(mts_tensormap_set_info(tensor, "zeta", "last letter"), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "alpha", "first letter"), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "", "empty key"), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "not a name!", ""), MTS_SUCCESS);
    static const char *const order[] = {"zeta", "alpha", "", "not a name!"};
    CHECK_INFO_KEYS(tensor, order, 4);
    CHECK_STR_EQ(get_info(tensor, "zeta"), "last letter");
    CHECK_STR_EQ(get_info(tensor, "alpha"), "first letter");
    CHECK_STR_EQ(get_info(tensor, ""), "empty key");
    CHECK_STR_EQ(get_info(tensor, "not a name!"), "");
    value = (const char *)&value;
    CHECK_STATUS(mts_tensormap_get_info(tensor, "Zeta", &value), MTS_SUCCESS);
    CHECK(value == NULL);

    /* the value pointer is stable while its key is not set again */
    const char *alpha = get_info(tensor, "alpha");
    CHECK(get_info(tensor, "alpha") == alpha);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "beta", "second"), MTS_SUCCESS);
    CHECK_STR_EQ(alpha, "first letter");

    /* the keys list is valid until a new key is added; overwriting keeps
     * the position */
    const char *const *keys = NULL;
    uintptr_t count = 0;
    CHECK_STATUS(mts_tensormap_info_keys(tensor, &keys, &count), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "zeta", "overwritten"), MTS_SUCCESS);
    CHECK_INT_EQ(count, 5);
    if (count == 5) {
        CHECK_STR_EQ(keys[0], "zeta");
        CHECK_STR_EQ(keys[4], "beta");
    }
    static const char *const order2[] = {"zeta", "alpha", "", "not a name!", "beta"};
    CHECK_INFO_KEYS(tensor, order2, 5);
    CHECK_STR_EQ(get_info(tensor, "zeta"), "overwritten");
    CHECK_STR_EQ(alpha, "first letter");

    /* the strings are copied */
    char key[8] = "mine";
    char text[8] = "value";
    CHECK_STATUS(mts_tensormap_set_info(tensor, key, text), MTS_SUCCESS);
    key[0] = 'M';
    text[0] = 'V';
    CHECK_STR_EQ(get_info(tensor, "mine"), "value");

    /* keys must be UTF-8, values are raw bytes */
    CHECK_ERROR(mts_tensormap_set_info(tensor, "\xff", "v"), MTS_INVALID_PARAMETER_ERROR,
                INVALID "Invalid UTF-8 in key: invalid utf-8 sequence of 1 bytes from index 0");
    CHECK_ERROR(mts_tensormap_set_info(tensor, "ab\xc3", "v"), MTS_INVALID_PARAMETER_ERROR,
                INVALID "Invalid UTF-8 in key: incomplete utf-8 byte sequence from index 2");
    CHECK_ERROR(mts_tensormap_get_info(tensor, "\xff", &value), MTS_INVALID_PARAMETER_ERROR,
                INVALID "Invalid UTF-8 in key: invalid utf-8 sequence of 1 bytes from index 0");
    CHECK_STATUS(mts_tensormap_set_info(tensor, "bytes", "\xff\xfe"), MTS_SUCCESS);
    CHECK_STR_EQ(get_info(tensor, "bytes"), "\xff\xfe");
    CHECK_STATUS(mts_tensormap_set_info(tensor, "\xc3\xa9t\xc3\xa9", "summer"), MTS_SUCCESS);
    CHECK_STR_EQ(get_info(tensor, "\xc3\xa9t\xc3\xa9"), "summer");
    static const char *const order3[] = {"zeta", "alpha", "", "not a name!", "beta", "mine",
                                         "bytes", "\xc3\xa9t\xc3\xa9"};
    CHECK_INFO_KEYS(tensor, order3, 8);

    /* NULL arguments */
    CHECK_NULL_ARG(mts_tensormap_set_info(NULL, "k", "v"), "tensor");
    CHECK_NULL_ARG(mts_tensormap_set_info(tensor, NULL, "v"), "key");
    CHECK_NULL_ARG(mts_tensormap_set_info(tensor, "k", NULL), "value");
    CHECK_NULL_ARG(mts_tensormap_get_info(NULL, "k", &value), "tensor");
    CHECK_NULL_ARG(mts_tensormap_get_info(tensor, NULL, &value), "key");
    CHECK_NULL_ARG(mts_tensormap_get_info(tensor, "k", NULL), "value");
    CHECK_NULL_ARG(mts_tensormap_info_keys(NULL, &keys, &count), "tensor");
    CHECK_NULL_ARG(mts_tensormap_info_keys(tensor, NULL, &count), "keys");
    CHECK_NULL_ARG(mts_tensormap_info_keys(tensor, &keys, NULL), "keys_count");
    CHECK_INFO_KEYS(tensor, order3, 8);

    /* a copy keeps the order and has its own strings */
    mts_tensormap_t *copy = mts_tensormap_copy(tensor);
    CHECK(copy != NULL);
    CHECK_INFO_KEYS(copy, order3, 8);
    CHECK(get_info(copy, "alpha") != alpha);
    CHECK_STR_EQ(get_info(copy, "alpha"), "first letter");
    CHECK_STATUS(mts_tensormap_set_info(copy, "alpha", "changed"), MTS_SUCCESS);
    CHECK_STR_EQ(get_info(tensor, "alpha"), "first letter");
    mts_tensormap_free(tensor);
    CHECK_STR_EQ(get_info(copy, "zeta"), "overwritten");
    mts_tensormap_free(copy);
    CHECK_INT_EQ(ta_live(), live);
}

/* The info of new tensor maps: empty for every valid key, an error for a key that is not
 * UTF-8, as the first call on the map or after reads of its info; the map then takes info and
 * lists it. */
/* get_info reads the key in the caller's buffer, and copies it only to keep it: once the
 * buffer holds another key (of the same length), the first key still finds its value, the
 * same pointer as before. */
static void test_info_key_buffer_reused(void) {
    long live = ta_live();
    mts_tensormap_t *tensor = simple_tensor(NULL);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "\xc3\xa9t\xc3\xa9", "summer"), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "hiver", "winter"), MTS_SUCCESS);
    char key[16];
    strcpy(key, "\xc3\xa9t\xc3\xa9");
    const char *summer = get_info(tensor, key);
    CHECK_STR_EQ(summer, "summer");
    strcpy(key, "hiver");
    CHECK_STR_EQ(get_info(tensor, key), "winter");
    CHECK(get_info(tensor, "\xc3\xa9t\xc3\xa9") == summer);
    CHECK_STR_EQ(summer, "summer");
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    CHECK(ta_live() == live);
}

static void test_info_of_new_maps(void) {
    long live = ta_live();
    static const char *const keys_read[] = {"missing", "", "cl\xc3\xa9", "k"};
    for (int bad_first = 0; bad_first <= 1; bad_first++) {
        mts_tensormap_t *tensor = simple_tensor(NULL);
        const char *value = (const char *)&value;
        if (!bad_first) {
            CHECK_INFO_KEYS(tensor, NULL, 0);
            for (size_t i = 0; i < ARRAY_SIZE(keys_read); i++) {
                CHECK(get_info(tensor, keys_read[i]) == NULL);
            }
        }
        CHECK_ERROR(mts_tensormap_get_info(tensor, "a\xff", &value), MTS_INVALID_PARAMETER_ERROR,
                    INVALID "Invalid UTF-8 in key: invalid utf-8 sequence of 1 bytes from index 1");
        CHECK_INFO_KEYS(tensor, NULL, 0);
        CHECK(get_info(tensor, "k") == NULL);
        CHECK_STATUS(mts_tensormap_set_info(tensor, "k", "v"), MTS_SUCCESS);
        static const char *const set[] = {"k"};
        CHECK_INFO_KEYS(tensor, set, 1);
        CHECK_STR_EQ(get_info(tensor, "k"), "v");
        CHECK(get_info(tensor, "missing") == NULL);
        mts_tensormap_free(tensor);
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* Info set on new tensor maps, which are then freed (stage 0), made in Go by a read (1), or
 * given a key that is not ASCII (2): the entries keep their order and values, what was handed
 * out stays valid (the value is handed out again), and the map takes more info, copies it,
 * and frees it all. */
static void test_info_set_on_new_maps(void) {
    long live = ta_live();
    for (int stage = 0; stage <= 2; stage++) {
        mts_tensormap_t *tensor = simple_tensor(NULL);
        CHECK_STATUS(mts_tensormap_set_info(tensor, "b", "first"), MTS_SUCCESS);
        CHECK_STATUS(mts_tensormap_set_info(tensor, "a", "\xff\xfe"), MTS_SUCCESS);
        CHECK_STATUS(mts_tensormap_set_info(tensor, "b", "second"), MTS_SUCCESS);
        static const char *const order[] = {"b", "a"};
        CHECK_INFO_KEYS(tensor, order, 2);
        const char *const *listed = NULL;
        uintptr_t count = 0;
        CHECK_STATUS(mts_tensormap_info_keys(tensor, &listed, &count), MTS_SUCCESS);
        const char *b = get_info(tensor, "b");
        CHECK_STR_EQ(b, "second");
        CHECK_STR_EQ(get_info(tensor, "a"), "\xff\xfe");
        CHECK(get_info(tensor, "c") == NULL);
        if (stage == 0) {
            mts_tensormap_free(tensor);
            continue;
        }
        if (stage == 1) {
            READ_IN_GO(tensor);
            CHECK_INT_EQ(count, 2);
            CHECK(count == 2 && strcmp(listed[0], "b") == 0 && strcmp(listed[1], "a") == 0);
            CHECK_INFO_KEYS(tensor, order, 2);
        } else {
            CHECK_STATUS(mts_tensormap_set_info(tensor, "\xc3\xa9t\xc3\xa9", "summer"), MTS_SUCCESS);
            static const char *const more[] = {"b", "a", "\xc3\xa9t\xc3\xa9"};
            CHECK_INFO_KEYS(tensor, more, 3);
            CHECK_STR_EQ(get_info(tensor, "\xc3\xa9t\xc3\xa9"), "summer");
        }
        CHECK_STR_EQ(b, "second");
        CHECK(get_info(tensor, "b") == b);
        CHECK_STR_EQ(get_info(tensor, "a"), "\xff\xfe");
        CHECK_STATUS(mts_tensormap_set_info(tensor, "b", "third"), MTS_SUCCESS);
        CHECK_STATUS(mts_tensormap_set_info(tensor, "c", "new"), MTS_SUCCESS);
        CHECK_STR_EQ(get_info(tensor, "b"), "third");
        mts_tensormap_t *copy = mts_tensormap_copy(tensor);
        CHECK(copy != NULL);
        mts_tensormap_free(tensor);
        CHECK_STR_EQ(get_info(copy, "b"), "third");
        CHECK_STR_EQ(get_info(copy, "c"), "new");
        CHECK_STR_EQ(get_info(copy, "a"), "\xff\xfe");
        mts_tensormap_free(copy);
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* Tensor maps of 1 to 6 blocks made right after others of as many blocks were freed (ours may
 * make them in the freed ones' memory): each has its own keys, blocks and info, none of the
 * freed one's, whether Go made the freed one or not. */
static void test_maps_made_after_frees(void) {
    long live = ta_live();
    for (uintptr_t count = 1; count <= 6; count++) {
        for (int round = 0; round < 4; round++) {
            const mts_labels_t *keys = range_from(NAMES_K, (int32_t)round, count, TA_CPU);
            struct test_array *values[6];
            mts_block_t *blocks[6];
            for (uintptr_t i = 0; i < count; i++) {
                blocks[i] = simple_block((double)i, &values[i]);
            }
            mts_tensormap_t *tensor = mts_tensormap(keys, blocks, count);
            CHECK(tensor != NULL);
            mts_labels_free(keys);
            CHECK_INFO_KEYS(tensor, NULL, 0);
            CHECK(get_info(tensor, "round") == NULL);
            const mts_labels_t *own_keys = mts_tensormap_keys(tensor);
            int32_t expected[6];
            for (uintptr_t i = 0; i < count; i++) {
                expected[i] = round + (int32_t)i;
            }
            CHECK_LABELS(own_keys, NAMES_K, 1, expected, count);
            mts_labels_free(own_keys);
            for (uintptr_t i = 0; i < count; i++) {
                mts_array_t data = {0};
                CHECK_STATUS(mts_block_data(block_at(tensor, i), &data), MTS_SUCCESS);
                CHECK(ta_cast(data.ptr) == values[i]);
            }
            mts_block_t *past = NULL;
            CHECK_STATUS(mts_tensormap_block_by_id(tensor, &past, count), MTS_INVALID_PARAMETER_ERROR);
            /* the next round's map follows a map with info, read in Go every other round */
            CHECK_STATUS(mts_tensormap_set_info(tensor, "round", round % 2 == 0 ? "even" : "odd"),
                         MTS_SUCCESS);
            if (round % 2 == 1) {
                READ_IN_GO(tensor);
            }
            static const char *const listed[] = {"round"};
            CHECK_INFO_KEYS(tensor, listed, 1);
            CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
        }
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* Threads reading the info of one new tensor map at once, one of them making it in Go
 * first: all read the same value, at the same address. */
struct info_reader {
    mts_tensormap_t *tensor;
    int in_go;
    const char *value;
    int ok;
};

static void *read_info(void *argument) {
    struct info_reader *reader = argument;
    pthread_barrier_wait(&readers_barrier);
    reader->ok = !reader->in_go || read_in_go_(reader->tensor);
    reader->value = get_info(reader->tensor, "k");
    return NULL;
}

static void test_concurrent_reads_of_new_info(void) {
    long live = ta_live();
    for (int round = 0; round < 20; round++) {
        mts_tensormap_t *tensor = simple_tensor(NULL);
        CHECK_STATUS(mts_tensormap_set_info(tensor, "k", "v"), MTS_SUCCESS);
        CHECK_INT_EQ(pthread_barrier_init(&readers_barrier, NULL, READERS), 0);
        pthread_t threads[READERS];
        struct info_reader readers[READERS];
        for (int i = 0; i < READERS; i++) {
            readers[i] = (struct info_reader){tensor, i == round % READERS, NULL, 0};
            CHECK_INT_EQ(pthread_create(&threads[i], NULL, read_info, &readers[i]), 0);
        }
        for (int i = 0; i < READERS; i++) {
            CHECK_INT_EQ(pthread_join(threads[i], NULL), 0);
            CHECK(readers[i].ok);
            CHECK_STR_EQ(readers[i].value, "v");
            CHECK(readers[i].value == readers[0].value);
        }
        pthread_barrier_destroy(&readers_barrier);
        mts_tensormap_free(tensor);
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* accessors and copies                                                     */

static void test_device_and_dtype(void) {
    long live = ta_live();
    struct test_array *values[2];
    const mts_labels_t *keys = range_from(NAMES_K, 0, 2, CUDA1);
    mts_block_t *blocks[2] = {make_block(3, NULL, 0, NAMES_P, 2, 0, CUDA1, &values[0]),
                              make_block(3, NULL, 0, NAMES_P, 2, 0, CUDA1, &values[1])};
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    int device_calls[2] = {ta_calls(values[0], TA_DEVICE), ta_calls(values[1], TA_DEVICE)};
    int dtype_calls[2] = {ta_calls(values[0], TA_DTYPE), ta_calls(values[1], TA_DTYPE)};
    CHECK_DEVICE_F64(tensor, CUDA1);
    /* taken from block 0 */
    CHECK_INT_EQ(ta_calls(values[0], TA_DEVICE), device_calls[0] + 1);
    CHECK_INT_EQ(ta_calls(values[1], TA_DEVICE), device_calls[1]);
    CHECK_INT_EQ(ta_calls(values[0], TA_DTYPE), dtype_calls[0] + 1);
    CHECK_INT_EQ(ta_calls(values[1], TA_DTYPE), dtype_calls[1]);
    values[0]->dtype.bits = 32;
    DLDataType dtype = TA_FLOAT64;
    CHECK_STATUS(mts_tensormap_dtype(tensor, &dtype), MTS_SUCCESS);
    CHECK_INT_EQ(dtype.bits, 32);
    values[0]->dtype = TA_FLOAT64;

    ta_set_fail(values[0], TA_DEVICE, 8, NULL);
    DLDevice device = CUDA1;
    CHECK_STATUS(mts_tensormap_device(tensor, &device), MTS_CALLBACK_ERROR);
    CHECK_STR_EQ(last_message(),
                 "calling mts_array_t.device failed: test array: device failed on purpose");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    ta_set_fail(values[0], TA_DTYPE, 8, NULL);
    CHECK_STATUS(mts_tensormap_dtype(tensor, &dtype), MTS_CALLBACK_ERROR);
    CHECK_STR_EQ(last_message(),
                 "calling mts_array_t.dtype failed: test array: dtype failed on purpose");
    ta_set_fail(values[0], TA_NONE, MTS_SUCCESS, NULL);
    clear_error();

    CHECK_NULL_ARG(mts_tensormap_device(NULL, &device), "tensor");
    CHECK_NULL_ARG(mts_tensormap_device(tensor, NULL), "device");
    CHECK_NULL_ARG(mts_tensormap_dtype(NULL, &dtype), "tensor");
    CHECK_NULL_ARG(mts_tensormap_dtype(tensor, NULL), "dtype");
    CHECK_NULL_ARG_PTR(mts_tensormap_keys(NULL), "tensor");

    mts_tensormap_free(tensor);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_copy(void) {
    long live = ta_live();
    const mts_labels_t *keys = range_from(NAMES_K, 0, 2, CUDA0);
    struct test_array *values[2];
    mts_block_t *blocks[2] = {make_block(3, NULL, 0, NAMES_P, 2, 1.0, CUDA0, &values[0]),
                              make_block(3, NULL, 0, NAMES_P, 2, 2.0, CUDA0, &values[1])};
    struct test_array *gradient_values[2];
    for (int i = 0; i < 2; i++) {
        mts_block_t *gradient = make_gradient(NULL, 0, NULL, NAMES_P, CUDA0);
        gradient_values[i] = block_array(gradient);
        CHECK_STATUS(mts_block_add_gradient(blocks[i], "g", gradient), MTS_SUCCESS);
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    mts_tensormap_set_info(tensor, "b", "1");
    mts_tensormap_set_info(tensor, "a", "2");

    long copies = ta_total_calls(TA_COPY);
    mts_tensormap_t *copy = mts_tensormap_copy(tensor);
    CHECK(copy != NULL && copy != tensor);
    CHECK_INT_EQ(ta_total_calls(TA_COPY), copies + 4);
    const mts_labels_t *got = mts_tensormap_keys(copy);
    CHECK(got == keys);
    mts_labels_free(got);
    static const char *const order[] = {"b", "a"};
    CHECK_INFO_KEYS(copy, order, 2);
    for (uintptr_t i = 0; i < 2; i++) {
        mts_block_t *block = block_at(copy, i);
        CHECK(block != NULL && block != block_at(tensor, i));
        struct test_array *array = block_array(block);
        CHECK(array != NULL && array->created_by == TA_COPY && array->created_from == values[i]);
        CHECK(device_eq(values[i]->last_copy_device, CUDA0));
        if (array != NULL) {
            CHECK(device_eq(array->device, CUDA0));
            CHECK(ta_f64_at(array, 0) == 1.0 + (double)i);
        }
        mts_block_t *gradient = NULL;
        CHECK_STATUS(mts_block_gradient(block, "g", &gradient), MTS_SUCCESS);
        array = block_array(gradient);
        CHECK(array != NULL && array->created_from == gradient_values[i]);
        /* the labels are shared */
        const mts_labels_t *a = mts_block_labels(block, 0);
        const mts_labels_t *b = mts_block_labels(block_at(tensor, i), 0);
        CHECK(a == b);
        mts_labels_free(a);
        mts_labels_free(b);
    }

    /* a failing copy: NULL, the copies already made are destroyed */
    long before = ta_live();
    ta_set_fail(gradient_values[1], TA_COPY, MTS_CALLBACK_ERROR, "no copy today");
    clear_error();
    CHECK(mts_tensormap_copy(tensor) == NULL);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.copy failed: no copy today");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    struct ta_error_data *data = last_error().data;
    CHECK(data != NULL && data->magic == TA_ERROR_MAGIC && data->array == gradient_values[1]);
    CHECK_INT_EQ(ta_live(), before);
    ta_set_fail(gradient_values[1], TA_NONE, MTS_SUCCESS, NULL);
    clear_error();

    CHECK_NULL_ARG_PTR(mts_tensormap_copy(NULL), "tensor");

    mts_tensormap_free(tensor);
    mts_labels_free(keys);
    /* the copy lives on */
    got = mts_tensormap_keys(copy);
    CHECK(got == keys);
    static const int32_t expected_keys[] = {0, 1};
    CHECK_LABELS(got, NAMES_K, 1, expected_keys, 2);
    mts_labels_free(got);
    mts_tensormap_free(copy);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* components_to_properties                                                 */

/* a block with samples s = (0, 1), components a = (0, 1) and b = (5, 6, 7),
 * properties p = (10, 20) and values old[s][a][b][p] = 1000 s + 100 a + 10 b
 * + p / 10, with a gradient "g" whose components are x = (0, 1), a, b */
static mts_block_t *components_block(struct test_array **values_out,
                                     struct test_array **gradient_out) {
    static const int32_t a_values[] = {0, 1};
    static const int32_t b_values[] = {5, 6, 7};
    static const int32_t p_values[] = {10, 20};
    const mts_labels_t *s = range(NAMES_S, 2);
    const mts_labels_t *a = ta_labels(NAMES_A, 1, a_values, 2);
    const mts_labels_t *b = ta_labels(NAMES_B, 1, b_values, 3);
    const mts_labels_t *x = range(NAMES_X, 2);
    const mts_labels_t *p = ta_labels(NAMES_P, 1, p_values, 2);
    uintptr_t shape[4] = {2, 2, 3, 2};
    struct test_array *values = ta_new_f64(NULL, shape, 4);
    for (int i = 0; i < 24; i++) {
        int ps = i % 2, bs = (i / 2) % 3, as = (i / 6) % 2, ss = i / 12;
        ((double *)values->data)[i] = 1000 * ss + 100 * as + 10 * (5 + bs) + p_values[ps] / 10;
    }
    const mts_labels_t *components[2] = {a, b};
    mts_block_t *block = mts_block(ta_mts(values), s, components, 2, p);
    CHECK(block != NULL);

    static const int32_t gradient_rows[] = {1, 3};
    const mts_labels_t *gs = ta_labels(NAMES_SAMPLE_G, 2, gradient_rows, 1);
    uintptr_t gradient_shape[5] = {1, 2, 2, 3, 2};
    struct test_array *gradient_values = ta_new_f64(NULL, gradient_shape, 5);
    for (int i = 0; i < 24; i++) {
        ((double *)gradient_values->data)[i] = i;
    }
    const mts_labels_t *gradient_components[3] = {x, a, b};
    mts_block_t *gradient = mts_block(ta_mts(gradient_values), gs, gradient_components, 3, p);
    CHECK(gradient != NULL);
    CHECK_STATUS(mts_block_add_gradient(block, "g", gradient), MTS_SUCCESS);
    if (values_out != NULL) {
        *values_out = values;
    }
    if (gradient_out != NULL) {
        *gradient_out = gradient_values;
    }
    FREE_LABELS(s, a, b, x, p, gs);
    return block;
}

/* the first block of the checked components_to_properties of `dimensions`;
 * `*result` gets the new tensor map: 1 check */
static mts_block_t *moved_block_(mts_tensormap_t *tensor, const char **dimensions,
                                 uintptr_t count, mts_tensormap_t **result, int line) {
    *result = mts_tensormap_components_to_properties(tensor, dimensions, count);
    check_record_(*result != NULL, __FILE__, line, "result != NULL");
    return block_at(*result, 0);
}
#define MOVED_BLOCK(tensor, dimensions, result) \
    moved_block_((tensor), (dimensions), ARRAY_SIZE(dimensions), (result), __LINE__)

static void test_components_to_properties(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 1);
    struct test_array *values = NULL, *gradient_values = NULL;
    mts_block_t *blocks[1] = {components_block(&values, &gradient_values)};
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 1);
    CHECK(tensor != NULL);
    mts_tensormap_set_info(tensor, "z", "1");
    mts_tensormap_set_info(tensor, "y", "2");

    /* move "a": properties (a, p), component b left */
    const char *move_a[] = {"a"};
    long copies = ta_total_calls(TA_COPY);
    mts_tensormap_t *result = mts_tensormap_components_to_properties(tensor, move_a, 1);
    CHECK(result != NULL);
    /* the values and the gradient were copied, then changed */
    CHECK_INT_EQ(ta_total_calls(TA_COPY), copies + 2);
    CHECK_INT_EQ(ta_calls(values, TA_SWAP_AXES), 0);
    CHECK_INT_EQ(ta_calls(values, TA_RESHAPE), 0);
    static const char *const order[] = {"z", "y"};
    CHECK_INFO_KEYS(result, order, 2);
    const mts_labels_t *got = mts_tensormap_keys(result);
    CHECK(got == keys);
    mts_labels_free(got);
    mts_block_t *block = block_at(result, 0);
    static const int32_t samples[] = {0, 1};
    static const int32_t b_values[] = {5, 6, 7};
    static const char *const names_a_p[] = {"a", "p"};
    static const int32_t a_p[] = {0, 10, 0, 20, 1, 10, 1, 20};
    CHECK_BLOCK_LABELS(block, 0, NAMES_S, 1, samples, 2);
    CHECK_BLOCK_LABELS(block, 1, NAMES_B, 1, b_values, 3);
    CHECK_BLOCK_LABELS(block, 2, names_a_p, 2, a_p, 4);
    CHECK(mts_block_labels(block, 3) == NULL);
    struct test_array *array = block_array(block);
    CHECK(array != NULL && array->created_by == TA_COPY && array->created_from == values);
    if (array != NULL) {
        CHECK_INT_EQ(ta_calls(array, TA_SWAP_AXES), 1);
        CHECK_INT_EQ(ta_calls(array, TA_RESHAPE), 1);
    }
    /* new[s][b][a * 2 + p] = old[s][a][b][p] */
    double expected[24];
    for (int s = 0; s < 2; s++) {
        for (int b = 0; b < 3; b++) {
            for (int a = 0; a < 2; a++) {
                for (int p = 0; p < 2; p++) {
                    expected[((s * 3) + b) * 4 + a * 2 + p] =
                        1000 * s + 100 * a + 10 * (5 + b) + (p == 0 ? 1 : 2);
                }
            }
        }
    }
    static const uintptr_t shape_a[] = {2, 3, 4};
    CHECK_ARRAY(array, shape_a, expected);
    /* the gradient too: components x, b, properties (a, p) */
    mts_block_t *gradient = NULL;
    CHECK_STATUS(mts_block_gradient(block, "g", &gradient), MTS_SUCCESS);
    static const int32_t x_values[] = {0, 1};
    CHECK_BLOCK_LABELS(gradient, 1, NAMES_X, 1, x_values, 2);
    CHECK_BLOCK_LABELS(gradient, 2, NAMES_B, 1, b_values, 3);
    CHECK_BLOCK_LABELS(gradient, 3, names_a_p, 2, a_p, 4);
    array = block_array(gradient);
    CHECK(array != NULL && array->created_from == gradient_values);
    /* new[0][x][b][a * 2 + p] = old[0][x][a][b][p] = x*12 + a*6 + b*2 + p */
    double expected_gradient[24];
    for (int x = 0; x < 2; x++) {
        for (int b = 0; b < 3; b++) {
            for (int a = 0; a < 2; a++) {
                for (int p = 0; p < 2; p++) {
                    expected_gradient[(x * 3 + b) * 4 + a * 2 + p] = x * 12 + a * 6 + b * 2 + p;
                }
            }
        }
    }
    static const uintptr_t gradient_shape_a[] = {1, 2, 3, 4};
    CHECK_ARRAY(array, gradient_shape_a, expected_gradient);
    mts_tensormap_free(result);

    /* the properties after moving "a" then "b" (b, a, p) and "b" then "a"
     * (a, b, p); a_p[2 * i] is a = i / 2 */
    static const char *const names_b_a_p[] = {"b", "a", "p"};
    static const char *const names_a_b_p[] = {"a", "b", "p"};
    int32_t b_a_p[36], a_b_p[36];
    for (int b = 0; b < 3; b++) {
        for (int i = 0; i < 4; i++) {
            int32_t *ba = b_a_p + (b * 4 + i) * 3;
            int32_t *ab = a_b_p + ((i / 2 * 3 + b) * 2 + i % 2) * 3;
            ba[0] = ab[1] = 5 + b;
            ba[1] = ab[0] = a_p[2 * i];
            ba[2] = ab[2] = a_p[2 * i + 1];
        }
    }

    /* move "a" then "b": each is put first, so the properties are (b, a, p) */
    const char *move_ab[] = {"a", "b"};
    block = MOVED_BLOCK(tensor, move_ab, &result);
    CHECK_BLOCK_LABELS(block, 1, names_b_a_p, 3, b_a_p, 12);
    CHECK(mts_block_labels(block, 2) == NULL);
    /* new[s][b * 4 + a * 2 + p] = old[s][a][b][p] */
    static const uintptr_t shape_ab[] = {2, 12};
    CHECK_ARRAY(block_array(block), shape_ab, expected);
    CHECK_STATUS(mts_block_gradient(block, "g", &gradient), MTS_SUCCESS);
    CHECK_BLOCK_LABELS(gradient, 2, names_b_a_p, 3, b_a_p, 12);
    mts_tensormap_free(result);

    /* move "b" then "a": properties (a, b, p) */
    const char *move_ba[] = {"b", "a"};
    block = MOVED_BLOCK(tensor, move_ba, &result);
    CHECK_BLOCK_LABELS(block, 1, names_a_b_p, 3, a_b_p, 12);
    /* the same order as the original values */
    double original[24];
    for (int i = 0; i < 24; i++) {
        original[i] = ta_f64_at(values, (size_t)i);
    }
    CHECK_ARRAY(block_array(block), shape_ab, original);
    mts_tensormap_free(result);

    /* errors: the copy made is dropped */
    long before = ta_live();
    const char *missing[] = {"a", "zz"};
    CHECK_NULL_ERROR(mts_tensormap_components_to_properties(tensor, missing, 2),
                     INVALID "unable to find 'zz' in the components ");
    const char *twice[] = {"a", "a"};
    CHECK_NULL_ERROR(mts_tensormap_components_to_properties(tensor, twice, 2),
                     INVALID "unable to find 'a' in the components ");
    const char *sample[] = {"s"};
    CHECK_NULL_ERROR(mts_tensormap_components_to_properties(tensor, sample, 1),
                     INVALID "unable to find 's' in the components ");
    CHECK_INT_EQ(ta_live(), before);

    CHECK_NULL_ARG_PTR(mts_tensormap_components_to_properties(NULL, move_a, 1), "tensor");
    CHECK_NULL_ARG_PTR(mts_tensormap_components_to_properties(tensor, NULL, 1), "dimensions");
    CHECK_NULL_ARG_PTR(mts_tensormap_components_to_properties(tensor, NULL, 0), "dimensions");
    const char *null_entry[] = {"a", NULL};
    CHECK_NULL_ARG_PTR(mts_tensormap_components_to_properties(tensor, null_entry, 2),
                       "dimension");
    set_stale_error();
    CHECK(mts_tensormap_components_to_properties(tensor, move_a, 0) == NULL);
#ifdef MTS_TEST_REFERENCE
    CHECK_STR_EQ(last_message(), INTERNAL_PREFIX "assertion failed: dimensions_count != 0");
#else
    CHECK_STR_PREFIX(last_message(), INVALID);
#endif
    CHECK_INT_EQ(ta_live(), before);

    /* failing callbacks on the copies: the callback's record, prefixed */
    values->children_fail_member = TA_SWAP_AXES;
    values->fail_status = MTS_CALLBACK_ERROR;
    values->fail_sets_error = 1;
    snprintf(values->fail_message, sizeof(values->fail_message), "no swap today");
    clear_error();
    CHECK(mts_tensormap_components_to_properties(tensor, move_a, 1) == NULL);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.swap_axes failed: no swap today");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    CHECK_INT_EQ(ta_live(), before);
    values->children_fail_member = TA_RESHAPE;
    CHECK(mts_tensormap_components_to_properties(tensor, move_a, 1) == NULL);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.reshape failed: no swap today");
    CHECK_INT_EQ(ta_live(), before);
    values->children_fail_member = TA_NONE;
    ta_set_fail(gradient_values, TA_COPY, MTS_CALLBACK_ERROR, NULL);
    CHECK(mts_tensormap_components_to_properties(tensor, move_a, 1) == NULL);
    CHECK_STR_EQ(last_message(),
                 "calling mts_array_t.copy failed: test array: copy failed on purpose");
    CHECK_INT_EQ(ta_live(), before);
    ta_set_fail(gradient_values, TA_NONE, MTS_SUCCESS, NULL);
    clear_error();

    /* the input is unchanged */
    block = block_at(tensor, 0);
    CHECK(block_array(block) == values);
    static const int32_t p_values[] = {10, 20};
    CHECK_BLOCK_LABELS(block, 3, NAMES_P, 1, p_values, 2);
    CHECK_INT_EQ(values->ndim, 4);

    mts_tensormap_free(tensor);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

/* nested gradients are transformed too, and every block of the map */
static void test_components_to_properties_nested(void) {
    long live = ta_live();
    const mts_labels_t *keys = range(NAMES_K, 2);
    mts_block_t *blocks[2];
    struct test_array *nested_values[2];
    for (int i = 0; i < 2; i++) {
        blocks[i] = make_block(2, NAMES_C, 3, NAMES_P, 2, 1.0 + i, TA_CPU, NULL);
        static const int32_t rows[] = {0, 0};
        const mts_labels_t *gs = ta_labels(NAMES_SAMPLE_G, 2, rows, 1);
        const mts_labels_t *c = range(NAMES_C, 3);
        const mts_labels_t *p = range(NAMES_P, 2);
        uintptr_t shape[3] = {1, 3, 2};
        mts_block_t *gradient = mts_block(ta_mts(ta_new_f64_filled(shape, 3, 5.0)), gs, &c, 1, p);
        mts_block_t *nested = mts_block(ta_mts(ta_new_f64_filled(shape, 3, 7.0)), gs, &c, 1, p);
        nested_values[i] = block_array(nested);
        CHECK_STATUS(mts_block_add_gradient(gradient, "n", nested), MTS_SUCCESS);
        CHECK_STATUS(mts_block_add_gradient(blocks[i], "g", gradient), MTS_SUCCESS);
        FREE_LABELS(gs, c, p);
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);

    const char *move_c[] = {"c"};
    mts_tensormap_t *result = mts_tensormap_components_to_properties(tensor, move_c, 1);
    CHECK(result != NULL);
    static const char *const names_c_p[] = {"c", "p"};
    static const int32_t c_p[] = {0, 0, 0, 1, 1, 0, 1, 1, 2, 0, 2, 1};
    for (uintptr_t i = 0; i < 2; i++) {
        mts_block_t *block = block_at(result, i);
        CHECK_BLOCK_LABELS(block, 1, names_c_p, 2, c_p, 6);
        mts_block_t *gradient = NULL, *nested = NULL;
        CHECK_STATUS(mts_block_gradient(block, "g", &gradient), MTS_SUCCESS);
        CHECK_BLOCK_LABELS(gradient, 1, names_c_p, 2, c_p, 6);
        CHECK_STATUS(mts_block_gradient(gradient, "n", &nested), MTS_SUCCESS);
        CHECK_BLOCK_LABELS(nested, 1, names_c_p, 2, c_p, 6);
        struct test_array *array = block_array(nested);
        CHECK(array != NULL && array->created_from == nested_values[i]);
        static const uintptr_t shape[] = {1, 6};
        static const double sevens[] = {7, 7, 7, 7, 7, 7};
        CHECK_ARRAY(array, shape, sevens);
        static const uintptr_t values_shape[] = {2, 6};
        double filled[12];
        for (int k = 0; k < 12; k++) {
            filled[k] = 1.0 + (double)i;
        }
        CHECK_ARRAY(block_array(block), values_shape, filled);
    }
    mts_tensormap_free(result);
    mts_tensormap_free(tensor);
    mts_labels_free(keys);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */

int main(void) {
    mts_disable_panic_printing();

    test_create();
    test_create_from_new_blocks();
    test_free_drops_labels_shared_in_runs();
    test_free_releases_what_go_made();
    test_gradient_added_after_go_made_the_map();
    test_gradients_of_a_map_go_made();
    test_empty();
    test_create_errors();
    test_create_asks_once();
    test_create_with_gradients();
    test_block_reads();
    test_concurrent_first_reads();
    test_concurrent_frees();
    test_reads_of_blocks_go_holds();
    test_reads_of_many_components();
    test_concurrent_reads_of_a_copy();
    test_reads_of_many_blocks();
    test_info();
    test_info_key_buffer_reused();
    test_info_of_new_maps();
    test_info_set_on_new_maps();
    test_maps_made_after_frees();
    test_concurrent_reads_of_new_info();
    test_device_and_dtype();
    test_copy();
    test_components_to_properties();
    test_components_to_properties_nested();

    CHECK_NOTHING_LEAKED();

    return check_summary();
}
