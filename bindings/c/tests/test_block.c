/*
 * Tests of the block part of the C API: every mts_block_* function except
 * load/save (the reference's behaviour, with the ownership rules and callback
 * errors of docs/reference-behaviour.md).
 *
 * Values and labels values are instrumented arrays from test_array.h: they
 * count the calls the library makes, can fake living on another device, and
 * can fail on purpose. At the end no test array may be alive and none may
 * have been destroyed twice.
 *
 * Built with MTS_TEST_REFERENCE defined, the tests expect the reference's
 * behaviour (the library in build/reference); otherwise ours. Where they
 * differ:
 *  - the reference's mts_block_data destroys an owning array already in
 *    `*data` before writing the view (as its mts_labels_values does); ours
 *    only writes its out-parameter;
 *  - a NULL gradient given to mts_block_add_gradient crashes the reference;
 *    ours refuses it (status 1), and the case only runs against ours;
 *  - mts_block_add_gradient compares the gradient's labels of its own with
 *    the block's asking each labels its device once; the reference asks the
 *    gradient's labels twice, and turns a failing device callback of labels
 *    into an internal error where ours gives the callback's error.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_helpers.h"

static const char *const NAMES_SYSTEM_G[] = {"system", "g"};

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

/* float64 arrays of shape {a, b, c} and {a, b}, filled with `value` */
static struct test_array *values3(uintptr_t a, uintptr_t b, uintptr_t c, double value) {
    uintptr_t shape[3] = {a, b, c};
    return ta_new_f64_filled(shape, 3, value);
}

static struct test_array *values2(uintptr_t a, uintptr_t b, double value) {
    uintptr_t shape[2] = {a, b};
    return ta_new_f64_filled(shape, 2, value);
}

/* the usual block: samples s = 0..2, one component c = 0..3, properties
 * p = 0..1, float64 values of shape [3, 4, 2] on `device` */
struct fixture {
    const mts_labels_t *samples;
    const mts_labels_t *component;
    const mts_labels_t *properties;
    struct test_array *values;
    mts_block_t *block;
};

static struct fixture fixture_on(DLDevice device) {
    struct fixture f;
    f.samples = range_from(NAMES_S, 0, 3, device);
    f.component = range_from(NAMES_C, 0, 4, device);
    f.properties = range_from(NAMES_P, 0, 2, device);
    f.values = values3(3, 4, 2, 1.5);
    f.values->device = device;
    f.block = mts_block(ta_mts(f.values), f.samples, &f.component, 1, f.properties);
    CHECK(f.block != NULL);
    return f;
}

static struct fixture fixture(void) {
    return fixture_on(TA_CPU);
}

static void fixture_free(struct fixture *f) {
    mts_block_free(f->block);
    mts_labels_free(f->samples);
    mts_labels_free(f->component);
    mts_labels_free(f->properties);
}

/* a gradient of the fixture's block: samples (sample, g) with the given
 * rows, components `extra` (may be NULL) then c = 0..3, properties p = 0..1 */
static mts_block_t *gradient_of(const int32_t *rows, uintptr_t count, DLDevice device,
                                struct test_array **values_out) {
    const mts_labels_t *samples = ta_labels_on(NAMES_SAMPLE_G, 2, rows, count, device);
    const mts_labels_t *component = range_from(NAMES_C, 0, 4, device);
    const mts_labels_t *properties = range_from(NAMES_P, 0, 2, device);
    struct test_array *values = values3(count, 4, 2, 2.5);
    values->device = device;
    if (values_out != NULL) {
        *values_out = values;
    }
    mts_block_t *gradient = mts_block(ta_mts(values), samples, &component, 1, properties);
    CHECK(gradient != NULL);
    FREE_LABELS(samples, component, properties);
    return gradient;
}

static const int32_t GRADIENT_ROWS[] = {0, 1, 2, 1, 2, 5};

static mts_block_t *good_gradient(struct test_array **values_out) {
    return gradient_of(GRADIENT_ROWS, 3, TA_CPU, values_out);
}

/* the fixture, its block holding good_gradient as the gradient "g" (whose
 * values go to `*gradient_values` unless it is NULL): 1 check */
static struct fixture fixture_with_g(struct test_array **gradient_values, int line) {
    struct fixture f = fixture();
    check_int_eq_(mts_block_add_gradient(f.block, "g", good_gradient(gradient_values)),
                  MTS_SUCCESS, "mts_block_add_gradient(g)", "MTS_SUCCESS", "CHECK_STATUS",
                  __FILE__, line);
    return f;
}

/* ------------------------------------------------------------------------ */
/* creation                                                                 */

static void test_create(void) {
    long live = ta_live();
    struct fixture f = fixture();
    /* the library asks the values for their shape and device, nothing else */
    CHECK_INT_EQ(ta_calls(f.values, TA_DESTROY), 0);
    CHECK(ta_calls(f.values, TA_SHAPE) >= 1);
    CHECK(ta_calls(f.values, TA_DEVICE) >= 1);
    CHECK_INT_EQ(ta_calls(f.values, TA_DTYPE), 0);
    CHECK_INT_EQ(ta_calls(f.values, TA_AS_DLPACK), 0);
    CHECK_INT_EQ(ta_calls(f.values, TA_COPY), 0);
    CHECK_INT_EQ(ta_calls(f.values, TA_CREATE), 0);
    CHECK(block_array(f.block) == f.values);

    /* the labels are the very objects given, one reference more each */
    struct test_array *samples_array = labels_array(f.samples);
    struct test_array *component_array = labels_array(f.component);
    struct test_array *properties_array = labels_array(f.properties);
    const mts_labels_t *samples = mts_block_labels(f.block, 0);
    const mts_labels_t *component = mts_block_labels(f.block, 1);
    const mts_labels_t *properties = mts_block_labels(f.block, 2);
    CHECK(samples == f.samples);
    CHECK(component == f.component);
    CHECK(properties == f.properties);
    FREE_LABELS(samples, component, properties);

    /* the block keeps its labels alive when the caller lets go */
    mts_labels_free(f.samples);
    mts_labels_free(f.component);
    mts_labels_free(f.properties);
    CHECK_INT_EQ(ta_calls(samples_array, TA_DESTROY), 0);
    CHECK_INT_EQ(ta_calls(component_array, TA_DESTROY), 0);
    CHECK_INT_EQ(ta_calls(properties_array, TA_DESTROY), 0);
    samples = mts_block_labels(f.block, 0);
    CHECK(samples == f.samples);
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    CHECK_STATUS(mts_labels_values_cpu(samples, &values, &count, &size), MTS_SUCCESS);
    CHECK_INT_EQ(count, 3);
    CHECK_INT_EQ(size, 1);
    if (count == 3 && size == 1) {
        CHECK(values[0] == 0 && values[1] == 1 && values[2] == 2);
    }
    const char *const *names = NULL;
    CHECK_STATUS(mts_labels_dimensions(samples, &names, &count), MTS_SUCCESS);
    CHECK_INT_EQ(count, 1);
    if (count == 1) {
        CHECK_STR_EQ(names[0], "s");
    }

    /* freeing the block destroys the values once and drops its references */
    CHECK_STATUS(mts_block_free(f.block), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(f.values, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_calls(samples_array, TA_DESTROY), 0);
    CHECK_INT_EQ(ta_calls(component_array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_calls(properties_array, TA_DESTROY), 1);
    mts_labels_free(samples);
    CHECK_INT_EQ(ta_calls(samples_array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);

    /* no components: a 2-D array; the components pointer is not read */
    const mts_labels_t *s = range(NAMES_S, 3);
    const mts_labels_t *p = range(NAMES_P, 2);
    struct test_array *array = values2(3, 2, 0.0);
    mts_block_t *block = mts_block(ta_mts(array), s, NULL, 0, p);
    CHECK(block != NULL);
    const mts_labels_t *last = mts_block_labels(block, 1);
    CHECK(last == p);
    mts_labels_free(last);
    mts_block_free(block);

    /* the same labels on several axes, and twice as components with
     * different names is fine */
    const mts_labels_t *c = range(NAMES_C, 3);
    const mts_labels_t *d = range(NAMES_D, 2);
    const mts_labels_t *components[] = {c, d};
    uintptr_t shape[4] = {3, 3, 2, 3};
    array = ta_new_f64_filled(shape, 4, 0.0);
    block = mts_block(ta_mts(array), s, components, 2, c);
    CHECK(block != NULL);
    for (uintptr_t axis = 0; axis < 4; axis++) {
        const mts_labels_t *expected[] = {s, c, d, c};
        const mts_labels_t *got = mts_block_labels(block, axis);
        CHECK(got == expected[axis]);
        mts_labels_free(got);
    }
    mts_block_free(block);

    /* samples and properties with no entries, or no dimension at all */
    const mts_labels_t *no_samples = range(NAMES_S, 0);
    const mts_labels_t *no_dimension = ta_labels(NULL, 0, NULL, 0);
    array = values3(0, 3, 0, 0.0);
    block = mts_block(ta_mts(array), no_samples, &c, 1, no_dimension);
    CHECK(block != NULL);
    mts_block_free(block);
    array = values3(0, 3, 2, 0.0);
    block = mts_block(ta_mts(array), no_dimension, &c, 1, p);
    CHECK(block != NULL);
    mts_block_free(block);

    /* no dtype check: an int32 values array is fine */
    int32_t ints[6] = {1, 2, 3, 4, 5, 6};
    array = ta_new_i32(ints, 3, 2);
    block = mts_block(ta_mts(array), s, NULL, 0, p);
    CHECK(block != NULL);
    DLDataType dtype = {0, 0, 0};
    CHECK_STATUS(mts_block_dtype(block, &dtype), MTS_SUCCESS);
    CHECK(ta_dtype_eq(dtype, TA_INT32));
    mts_block_free(block);

    /* a values array without destroy: nothing to call when freeing */
    array = values2(3, 2, 0.0);
    mts_array_t no_destroy = ta_mts(array);
    no_destroy.destroy = NULL;
    block = mts_block(no_destroy, s, NULL, 0, p);
    CHECK(block != NULL);
    CHECK_STATUS(mts_block_free(block), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 0);
    ta_destroy(array);

    FREE_LABELS(s, p, c, d, no_samples, no_dimension);

    /* freeing NULL is fine */
    CHECK_STATUS(mts_block_free(NULL), MTS_SUCCESS);
    CHECK_INT_EQ(ta_live(), live);
}

/* mts_block refuses its arguments with `message`: the values are destroyed
 * once and the labels gain no reference */
static void check_invalid_block_(struct test_array *values, const mts_labels_t *samples,
                                 const mts_labels_t *const *components, uintptr_t count,
                                 const mts_labels_t *properties, const char *message, int line) {
    set_stale_error();
    mts_block_t *block = mts_block(ta_mts(values), samples, components, count, properties);
    check_null_result_(block, message, __FILE__, line);
    check_int_eq_(ta_calls(values, TA_DESTROY), 1, "destroy calls", "1", "CHECK_INT_EQ",
                  __FILE__, line);
    mts_block_free(block);
}
#define CHECK_INVALID_BLOCK(values, samples, components, count, properties, message) \
    check_invalid_block_((values), (samples), (components), (count), (properties), (message), \
                         __LINE__)

/* mts_block's errors: values of rank `ndim` for `labels` labels, `components`
 * of them components */
#define RANK_MESSAGE(ndim, labels, components)                                           \
    INVALID "invalid block: the values have " ndim " dimensions, but we have " labels     \
            " separate labels (1 for samples, " components " for components and 1 for " \
            "properties)"
/* the values' `size` along `axis` against `entries` (a count and what) */
#define AXIS_MESSAGE(axis, size, entries) \
    INVALID "invalid block: the values shape along axis " axis " is " size " but we have " entries
#define COMPONENT_ENTRIES(count) count " entries for the corresponding component"
/* the values on `got`, the labels `what` on `expected` */
#define DEVICES_MESSAGE(what, got, expected)                                          \
    INVALID "invalid block: values and " what " must be on the same device, got '" got \
            "' and '" expected "'"

static void test_create_errors(void) {
    long live = ta_live();
    const mts_labels_t *s = range(NAMES_S, 3);
    const mts_labels_t *c = range(NAMES_C, 4);
    const mts_labels_t *c_again = range(NAMES_C, 4);
    const mts_labels_t *d = range(NAMES_D, 2);
    const mts_labels_t *p = range(NAMES_P, 2);
    const mts_labels_t *s_cuda = range_from(NAMES_S, 0, 3, CUDA0);
    const mts_labels_t *c_cuda = range_from(NAMES_C, 0, 4, CUDA0);
    const mts_labels_t *p_cuda = range_from(NAMES_P, 0, 2, CUDA0);
    const mts_labels_t *c_cuda1 = range_from(NAMES_C, 0, 4, CUDA1);
    static const int32_t rows_ab[] = {0, 0, 0, 1, 1, 0, 1, 1};
    const mts_labels_t *c_2d = ta_labels(NAMES_AB, 2, rows_ab, 4);
    const mts_labels_t *c_empty = range(NAMES_C, 0);
    const mts_labels_t *cd[] = {c, d};
    const mts_labels_t *cc[] = {c, c_again};
    const mts_labels_t *c_null[] = {c, NULL};
    const mts_labels_t *all_labels[] = {s, c, c_again, d, p, s_cuda, c_cuda, p_cuda, c_cuda1,
                                        c_2d, c_empty};
    struct test_array *arrays[ARRAY_SIZE(all_labels)];
    for (size_t i = 0; i < ARRAY_SIZE(all_labels); i++) {
        arrays[i] = labels_array(all_labels[i]);
    }

    /* values of shape `shape` (on the CPU) refused with `message`, or as the
     * NULL argument `null_name` */
    const struct {
        uintptr_t ndim, shape[4];
        const mts_labels_t *samples;
        const mts_labels_t *const *components;
        uintptr_t count;
        const mts_labels_t *properties;
        const char *message, *null_name;
        int line;
    } invalid[] = {
        /* 1. NULL arguments: samples, then properties, then the components
         * array, then each component; the values are consumed every time */
        {3, {3, 4, 2}, NULL, NULL, 1, NULL, NULL, "samples", __LINE__},
        {3, {3, 4, 2}, NULL, &c, 1, p, NULL, "samples", __LINE__},
        {3, {3, 4, 2}, s, NULL, 1, NULL, NULL, "properties", __LINE__},
        {3, {3, 4, 2}, s, c_null, 2, NULL, NULL, "properties", __LINE__},
        {3, {3, 4, 2}, s, NULL, 1, p, NULL, "components", __LINE__},
        {3, {3, 4, 2}, s, c_null, 2, p, NULL, "component", __LINE__},
        {3, {3, 4, 2}, s, c_null + 1, 1, p, NULL, "component", __LINE__},
        /* 2. the rank, before anything else about the shape */
        {2, {3, 2}, s, &c, 1, p, RANK_MESSAGE("2", "3", "1"), NULL, __LINE__},
        {3, {9, 9, 9}, s, NULL, 0, p, RANK_MESSAGE("3", "2", "0"), NULL, __LINE__},
        {3, {3, 4, 2}, s, cd, 2, p_cuda, RANK_MESSAGE("3", "4", "2"), NULL, __LINE__},
        /* 3. samples, before the components are compared */
        {3, {4, 4, 2}, s, cc, 1, p, AXIS_MESSAGE("0", "4", "3 sample label entries"),
         NULL, __LINE__},
        {4, {2, 4, 4, 9}, s, cc, 2, p, AXIS_MESSAGE("0", "2", "3 sample label entries"),
         NULL, __LINE__},
        /* 4. the same component names twice, before the counts are compared */
        {4, {3, 5, 5, 9}, s, cc, 2, p,
         INVALID "invalid block: some of the component dimensions appear more than once in "
                 "component labels",
         NULL, __LINE__},
        /* 5. each component count, in order */
        {4, {3, 5, 2, 9}, s, cd, 2, p, AXIS_MESSAGE("1", "5", COMPONENT_ENTRIES("4")),
         NULL, __LINE__},
        {4, {3, 4, 3, 9}, s, cd, 2, p, AXIS_MESSAGE("2", "3", COMPONENT_ENTRIES("2")),
         NULL, __LINE__},
        /* 6. properties, before the devices */
        {3, {3, 4, 5}, s_cuda, &c, 1, p, AXIS_MESSAGE("2", "5", "2 property label entries"),
         NULL, __LINE__},
        {2, {3, 1}, s, NULL, 0, p, AXIS_MESSAGE("1", "1", "2 property label entries"),
         NULL, __LINE__},
    };
    for (size_t i = 0; i < ARRAY_SIZE(invalid); i++) {
        check_invalid_block_(ta_new_f64_filled(invalid[i].shape, invalid[i].ndim, 0),
                             invalid[i].samples, invalid[i].components, invalid[i].count,
                             invalid[i].properties, invalid[i].message, invalid[i].line);
        if (invalid[i].null_name != NULL) {
            check_null_argument_(invalid[i].null_name, __FILE__, invalid[i].line);
        }
    }

    /* 7. devices: samples, then components, then properties (exact device,
     * id included), before the component checks; values of shape {3, 4, 2}
     * on `device` */
    const struct {
        DLDevice device;
        const mts_labels_t *samples, *component, *properties;
        const char *message;
        int line;
    } on_devices[] = {
        {CUDA0, s, c_cuda, p, DEVICES_MESSAGE("samples", "CUDA:0", "CPU:0"), __LINE__},
        {TA_CPU, s, c_cuda, p_cuda, DEVICES_MESSAGE("components", "CPU:0", "CUDA:0"), __LINE__},
        {TA_CPU, s, c, p_cuda, DEVICES_MESSAGE("properties", "CPU:0", "CUDA:0"), __LINE__},
        {CUDA0, s_cuda, c_cuda1, p_cuda, DEVICES_MESSAGE("components", "CUDA:0", "CUDA:1"),
         __LINE__},
        {CUDA1, s, c_2d, p, DEVICES_MESSAGE("samples", "CUDA:1", "CPU:0"), __LINE__},
    };
    for (size_t i = 0; i < ARRAY_SIZE(on_devices); i++) {
        struct test_array *values = values3(3, 4, 2, 0);
        values->device = on_devices[i].device;
        check_invalid_block_(values, on_devices[i].samples, &on_devices[i].component, 1,
                             on_devices[i].properties, on_devices[i].message, on_devices[i].line);
    }

    /* 8. component labels with one dimension and at least one entry */
    CHECK_INVALID_BLOCK(values3(3, 4, 2, 0), s, &c_2d, 1, p,
                        INVALID "component labels must have a single dimension, got 2: [a, b] "
                                "for component 0");
    const mts_labels_t *c_then_2d[] = {d, c_2d};
    uintptr_t shape_d2d[4] = {3, 2, 4, 2};
    CHECK_INVALID_BLOCK(ta_new_f64_filled(shape_d2d, 4, 0), s, c_then_2d, 2, p,
                        INVALID "component labels must have a single dimension, got 2: [a, b] "
                                "for component 1");
    CHECK_INVALID_BLOCK(values3(3, 0, 2, 0), s, &c_empty, 1, p,
                        INVALID "component 'c' must contain at least one entry, got 0");

    /* the labels gained no reference: dropping ours frees them */
    for (size_t i = 0; i < ARRAY_SIZE(all_labels); i++) {
        mts_labels_free(all_labels[i]);
        CHECK_INT_EQ(ta_calls(arrays[i], TA_DESTROY), 1);
    }
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* accessors                                                                */

/* Blocks read, freed or shared right after their creation, with the labels
 * the caller gave already released, with many components and with labels the
 * library made: ours checks common blocks in C and builds the rest of the
 * block on first use, which must not show. */
static void test_create_then_use(void) {
    long live = ta_live();

    /* freed right away: values destroyed once, labels released */
    const mts_labels_t *s = range(NAMES_S, 3);
    const mts_labels_t *p = range(NAMES_P, 2);
    struct test_array *s_array = labels_array(s);
    struct test_array *array = values2(3, 2, 0.0);
    mts_block_t *block = mts_block(ta_mts(array), s, NULL, 0, p);
    CHECK(block != NULL);
    CHECK_STATUS(mts_block_free(block), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_calls(s_array, TA_DESTROY), 0);

    /* the caller's labels released before the block is first read: the block
     * holds them, and they go with it */
    array = values2(3, 2, 0.5);
    block = mts_block(ta_mts(array), s, NULL, 0, p);
    CHECK(block != NULL);
    mts_labels_free(s);
    mts_labels_free(p);
    CHECK_INT_EQ(ta_calls(s_array, TA_DESTROY), 0);
    const mts_labels_t *samples = mts_block_labels(block, 0);
    CHECK(samples == s);
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    CHECK_STATUS(mts_labels_values_cpu(samples, &values, &count, &size), MTS_SUCCESS);
    CHECK(count == 3 && size == 1 && values != NULL && values[2] == 2);
    mts_labels_free(samples);
    CHECK(block_array(block) == array);
    CHECK_STATUS(mts_block_free(block), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_calls(s_array, TA_DESTROY), 1);

    /* four and five components */
    static const char *const component_names[5][1] = {{"c0"}, {"c1"}, {"c2"}, {"c3"}, {"c4"}};
    const mts_labels_t *components[5];
    for (int i = 0; i < 5; i++) {
        components[i] = range(component_names[i], (uintptr_t)i + 1);
    }
    s = range(NAMES_S, 2);
    p = range(NAMES_P, 3);
    for (uintptr_t n = 4; n <= 5; n++) {
        uintptr_t shape[7] = {2, 1, 2, 3, 4, 5, 0};
        shape[n + 1] = 3;
        array = ta_new_f64_filled(shape, n + 2, 1.0);
        block = mts_block(ta_mts(array), s, components, n, p);
        CHECK(block != NULL);
        for (uintptr_t axis = 0; axis < n + 2; axis++) {
            const mts_labels_t *expected = axis == 0 ? s : axis == n + 1 ? p : components[axis - 1];
            const mts_labels_t *got = mts_block_labels(block, axis);
            CHECK(got == expected);
            mts_labels_free(got);
        }
        CHECK_STATUS(mts_block_free(block), MTS_SUCCESS);
        CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    }
    /* one component too many for the shape is still refused */
    uintptr_t shape5[7] = {2, 1, 2, 3, 4, 4, 3};
    CHECK_INVALID_BLOCK(ta_new_f64_filled(shape5, 7, 1.0), s, components, 5, p,
                        INVALID "invalid block: the values shape along axis 5 is 4 but we have 5 "
                                "entries for the corresponding component");
    for (int i = 0; i < 5; i++) {
        mts_labels_free(components[i]);
    }

    /* samples made by the library (a union) */
    static const int32_t rows_a[] = {0, 1};
    static const int32_t rows_b[] = {1, 2};
    const mts_labels_t *a = ta_labels(NAMES_S, 1, rows_a, 2);
    const mts_labels_t *b = ta_labels(NAMES_S, 1, rows_b, 2);
    const mts_labels_t *both = NULL;
    CHECK_STATUS(mts_labels_union(a, b, &both, NULL, 0, NULL, 0), MTS_SUCCESS);
    array = values2(3, 3, 2.0);
    block = mts_block(ta_mts(array), both, NULL, 0, p);
    CHECK(block != NULL);
    samples = mts_block_labels(block, 0);
    CHECK(samples == both);
    mts_labels_free(samples);
    mts_block_free(block);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);

    /* samples and properties made by the library: a block of them goes into a
     * tensor map and reads back; values on another device are refused, naming
     * the samples (the library's labels live on the CPU) */
    const mts_labels_t *both_properties = NULL;
    CHECK_STATUS(mts_labels_union(b, a, &both_properties, NULL, 0, NULL, 0), MTS_SUCCESS);
    array = values2(3, 3, 4.0);
    block = mts_block(ta_mts(array), both, NULL, 0, both_properties);
    CHECK(block != NULL);
    CHECK_INT_EQ(ta_calls(array, TA_DEVICE), 1);
    const mts_labels_t *single = range(NAMES_S, 1);
    mts_tensormap_t *map = mts_tensormap(single, &block, 1);
    CHECK(map != NULL);
    mts_block_t *inside = NULL;
    CHECK_STATUS(mts_tensormap_block_by_id(map, &inside, 0), MTS_SUCCESS);
    static const int32_t union_rows[] = {0, 1, 2};
    static const int32_t reversed_rows[] = {1, 2, 0};
    for (uintptr_t axis = 0; axis < 2; axis++) {
        const mts_labels_t *got = mts_block_labels(inside, axis);
        CHECK(got == (axis == 0 ? both : both_properties));
        CHECK_STATUS(mts_labels_values_cpu(got, &values, &count, &size), MTS_SUCCESS);
        CHECK(count == 3 && size == 1 &&
              memcmp(values, axis == 0 ? union_rows : reversed_rows, sizeof union_rows) == 0);
        mts_labels_free(got);
    }
    CHECK(block_array(inside) == array);
    CHECK_STATUS(mts_tensormap_free(map), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(array, TA_DESTROY), 1);
    struct test_array *on_gpu = values2(3, 3, 0.0);
    on_gpu->device = CUDA0;
    CHECK_INVALID_BLOCK(on_gpu, both, NULL, 0, both_properties,
                        DEVICES_MESSAGE("samples", "CUDA:0", "CPU:0"));
    FREE_LABELS(both, both_properties, single, a, b, s, p);

    CHECK_INT_EQ(ta_live(), live);
}

/* several threads read a new block at once */
#define READERS 4
static pthread_barrier_t readers_barrier;

struct reader {
    const mts_block_t *block;
    const mts_labels_t *samples;
    DLDevice device;
    mts_status_t status;
};

static void *read_block(void *argument) {
    struct reader *reader = argument;
    pthread_barrier_wait(&readers_barrier);
    reader->samples = mts_block_labels(reader->block, 0);
    reader->status = mts_block_device(reader->block, &reader->device);
    return NULL;
}

static void test_concurrent_first_reads(void) {
    long live = ta_live();
    for (int round = 0; round < 20; round++) {
        struct fixture f = fixture();
        CHECK_INT_EQ(pthread_barrier_init(&readers_barrier, NULL, READERS), 0);
        pthread_t threads[READERS];
        struct reader readers[READERS];
        for (int i = 0; i < READERS; i++) {
            readers[i] = (struct reader){f.block, NULL, {0, 0}, -1};
            CHECK_INT_EQ(pthread_create(&threads[i], NULL, read_block, &readers[i]), 0);
        }
        for (int i = 0; i < READERS; i++) {
            CHECK_INT_EQ(pthread_join(threads[i], NULL), 0);
            CHECK(readers[i].samples == f.samples);
            CHECK_STATUS(readers[i].status, MTS_SUCCESS);
            CHECK(readers[i].device.device_type == kDLCPU);
            mts_labels_free(readers[i].samples);
        }
        pthread_barrier_destroy(&readers_barrier);
        fixture_free(&f);
        CHECK_INT_EQ(ta_calls(f.values, TA_DESTROY), 1);
    }
    CHECK_INT_EQ(ta_live(), live);
}

static void test_labels_accessor(void) {
    long live = ta_live();
    struct fixture f = fixture();
    CHECK_NULL_ERROR(mts_block_labels(f.block, 3),
                     INVALID "tried to get the labels for axis 3, but we only have 3 axes for "
                             "this block");
    CHECK_NULL_ERROR(mts_block_labels(f.block, 100),
                     INVALID "tried to get the labels for axis 100, but we only have 3 axes "
                             "for this block");
    CHECK_NULL_ARG_PTR(mts_block_labels(NULL, 0), "block");
    /* every call gives one more reference to the same labels */
    const mts_labels_t *got[4];
    for (int i = 0; i < 4; i++) {
        got[i] = mts_block_labels(f.block, 2);
        CHECK(got[i] == f.properties);
    }
    struct test_array *properties_array = labels_array(f.properties);
    fixture_free(&f);
    for (int i = 0; i < 4; i++) {
        CHECK_INT_EQ(ta_calls(properties_array, TA_DESTROY), 0);
        mts_labels_free(got[i]);
    }
    CHECK_INT_EQ(ta_calls(properties_array, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_data(void) {
    long live = ta_live();
    struct fixture f = fixture();
    mts_array_t data;
    memset(&data, 0, sizeof(data));
    int calls_before[TA_MEMBER_COUNT];
    for (int m = 0; m < TA_MEMBER_COUNT; m++) {
        calls_before[m] = ta_calls(f.values, (enum ta_member)m);
    }
    CHECK_STATUS(mts_block_data(f.block, &data), MTS_SUCCESS);
    /* the stored array with destroy NULL: every other member as given */
    CHECK_VIEW_OF(data, f.values);
    /* no member was called */
    for (int m = 0; m < TA_MEMBER_COUNT; m++) {
        CHECK_INT_EQ(ta_calls(f.values, (enum ta_member)m), calls_before[m]);
    }
    /* the same view again */
    mts_array_t again;
    memset(&again, 0, sizeof(again));
    CHECK_STATUS(mts_block_data(f.block, &again), MTS_SUCCESS);
    CHECK(again.ptr == f.values && again.destroy == NULL);

    /* the data may be changed through the view */
    ((double *)f.values->data)[0] = 42.0;
    CHECK(ta_f64_at(block_array(f.block), 0) == 42.0);

    /* an owning array already in the out-parameter */
    struct test_array *previous = values2(1, 1, 0);
    mts_array_t out = ta_mts(previous);
    CHECK_STATUS(mts_block_data(f.block, &out), MTS_SUCCESS);
    CHECK(out.ptr == f.values && out.destroy == NULL);
#ifdef MTS_TEST_REFERENCE
    CHECK_INT_EQ(ta_calls(previous, TA_DESTROY), 1);
#else
    CHECK_INT_EQ(ta_calls(previous, TA_DESTROY), 0);
    ta_destroy(previous);
#endif

    CHECK_NULL_ARG(mts_block_data(NULL, &data), "block");
    CHECK_NULL_ARG(mts_block_data(f.block, NULL), "data");

    fixture_free(&f);
    CHECK_INT_EQ(ta_calls(f.values, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_device_and_dtype(void) {
    long live = ta_live();
    struct fixture f = fixture_on(CUDA1);
    DLDevice device = {kDLCPU, 7};
    int device_calls = ta_calls(f.values, TA_DEVICE);
    CHECK_STATUS(mts_block_device(f.block, &device), MTS_SUCCESS);
    CHECK(device_eq(device, CUDA1));
    CHECK_INT_EQ(ta_calls(f.values, TA_DEVICE), device_calls + 1);

    DLDataType dtype = {0, 0, 0};
    CHECK_STATUS(mts_block_dtype(f.block, &dtype), MTS_SUCCESS);
    CHECK(ta_dtype_eq(dtype, TA_FLOAT64));
    CHECK_INT_EQ(ta_calls(f.values, TA_DTYPE), 1);

    /* the device and dtype the array reports now */
    f.values->device = META;
    CHECK_STATUS(mts_block_device(f.block, &device), MTS_SUCCESS);
    CHECK(device_eq(device, META));
    f.values->dtype.bits = 32;
    f.values->dtype.lanes = 4;
    CHECK_STATUS(mts_block_dtype(f.block, &dtype), MTS_SUCCESS);
    CHECK_INT_EQ(dtype.code, kDLFloat);
    CHECK_INT_EQ(dtype.bits, 32);
    CHECK_INT_EQ(dtype.lanes, 4);
    f.values->dtype = TA_FLOAT64;
    f.values->device = CUDA1;

    /* failing callbacks: 254 with the callback's own record, prefixed */
    ta_set_fail(f.values, TA_DEVICE, 17, "no device today");
    device = CUDA0;
    clear_error();
    CHECK_STATUS(mts_block_device(f.block, &device), MTS_CALLBACK_ERROR);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.device failed: no device today");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    struct ta_error_data *data = last_error().data;
    CHECK(data != NULL && data->magic == TA_ERROR_MAGIC && data->member == TA_DEVICE);
    CHECK(device_eq(device, CUDA0));
    ta_set_fail(f.values, TA_DTYPE, MTS_CALLBACK_ERROR, NULL);
    CHECK_STATUS(mts_block_dtype(f.block, &dtype), MTS_CALLBACK_ERROR);
    CHECK_STR_EQ(last_message(),
                 "calling mts_array_t.dtype failed: test array: dtype failed on purpose");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    ta_set_fail(f.values, TA_NONE, MTS_SUCCESS, NULL);
    clear_error();

    CHECK_NULL_ARG(mts_block_device(NULL, &device), "block");
    CHECK_NULL_ARG(mts_block_device(f.block, NULL), "device");
    CHECK_NULL_ARG(mts_block_dtype(NULL, &dtype), "block");
    CHECK_NULL_ARG(mts_block_dtype(f.block, NULL), "dtype");

    fixture_free(&f);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* gradients                                                                */

/* the parameters of `block`'s gradients are `expected` (in order) */
#define CHECK_GRADIENTS_LIST(block, expected, count) \
    CHECK_LISTED_(mts_block_gradients_list, block, expected, count, "check_gradients_list")

static void test_add_gradient(void) {
    long live = ta_live();
    struct fixture f = fixture();
    CHECK_GRADIENTS_LIST(f.block, NULL, 0);

    struct test_array *gradient_values = NULL;
    mts_block_t *gradient = good_gradient(&gradient_values);
    int origin_calls = ta_calls(gradient_values, TA_ORIGIN);
    CHECK_STATUS(mts_block_add_gradient(f.block, "g", gradient), MTS_SUCCESS);
    CHECK_INT_EQ(ta_calls(gradient_values, TA_ORIGIN), origin_calls + 1);
    CHECK(ta_calls(f.values, TA_ORIGIN) >= 1);
    CHECK_INT_EQ(ta_calls(gradient_values, TA_DESTROY), 0);

    /* the gradient holds the values given, but the block is moved into its
     * parent: the pointer given is not the one found later */
    mts_block_t *got = NULL;
    CHECK_STATUS(mts_block_gradient(f.block, "g", &got), MTS_SUCCESS);
    CHECK(got != NULL);
    CHECK(block_array(got) == gradient_values);
    mts_block_t *inner = got;
    mts_block_t *again = NULL;
    CHECK_STATUS(mts_block_gradient(f.block, "g", &again), MTS_SUCCESS);
    CHECK(again == got);

    /* the parameter is any text, it is not a label name */
    const char *parameters[] = {"g", "not a name!", "\xc3\xa9t\xc3\xa9", "", "a"};
    for (size_t i = 1; i < ARRAY_SIZE(parameters); i++) {
        CHECK_STATUS(mts_block_add_gradient(f.block, parameters[i], good_gradient(NULL)),
                     MTS_SUCCESS);
    }
    /* listed in insertion order */
    CHECK_GRADIENTS_LIST(f.block, parameters, ARRAY_SIZE(parameters));
    /* adding gradients may move the others: look "g" up again */
    CHECK_STATUS(mts_block_gradient(f.block, "g", &inner), MTS_SUCCESS);
    CHECK(block_array(inner) == gradient_values);
    got = NULL;
    CHECK_STATUS(mts_block_gradient(f.block, "", &got), MTS_SUCCESS);
    CHECK(got != NULL && got != inner);

    /* missing parameters */
    got = (mts_block_t *)&got;
    CHECK_ERROR(mts_block_gradient(f.block, "G", &got), MTS_INVALID_PARAMETER_ERROR,
                INVALID "can not find gradients with respect to 'G' in this block");
    CHECK(got == (mts_block_t *)&got);
    CHECK_ERROR(mts_block_gradient(inner, "g", &got), MTS_INVALID_PARAMETER_ERROR,
                INVALID "can not find gradients with respect to 'g' in this block");

    /* NULL arguments */
    CHECK_NULL_ARG(mts_block_gradient(NULL, "g", &got), "block");
    CHECK_NULL_ARG(mts_block_gradient(f.block, NULL, &got), "parameter");
    const char *const *list = NULL;
    uintptr_t count = 0;
    CHECK_NULL_ARG(mts_block_gradients_list(NULL, &list, &count), "block");
    CHECK_NULL_ARG(mts_block_gradients_list(f.block, NULL, &count), "parameters");
    CHECK_NULL_ARG(mts_block_gradients_list(f.block, &list, NULL), "parameters_count");

    /* a NULL block or parameter: the caller keeps the gradient */
    struct test_array *kept_values = NULL;
    mts_block_t *kept = good_gradient(&kept_values);
    CHECK_NULL_ARG(mts_block_add_gradient(NULL, "h", kept), "block");
    CHECK_NULL_ARG(mts_block_add_gradient(f.block, NULL, kept), "parameter");
    CHECK_INT_EQ(ta_calls(kept_values, TA_DESTROY), 0);
    CHECK_INT_EQ(ta_calls(kept_values, TA_ORIGIN), 0);
    CHECK_STATUS(mts_block_add_gradient(f.block, "h", kept), MTS_SUCCESS);
#ifndef MTS_TEST_REFERENCE
    /* a NULL gradient (this crashes the reference) */
    CHECK_NULL_ARG(mts_block_add_gradient(f.block, "i", NULL), "gradient");
#endif

    fixture_free(&f);
    CHECK_INT_EQ(ta_calls(gradient_values, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_calls(kept_values, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);
}

/* add_gradient(block, parameter, gradient) fails with `message` (status 1)
 * and consumes the gradient: its values are destroyed. With `alone` (the
 * gradient holds the only references to its labels), its labels are freed
 * too. */
static void check_rejected_(mts_block_t *block, const char *parameter, mts_block_t *gradient,
                            int alone, const char *message, int line) {
    struct test_array *values = block_array(gradient);
    struct test_array *labels[TA_MAX_NDIM];
    uintptr_t axes = 0;
    if (alone) {
        for (; axes < TA_MAX_NDIM; axes++) {
            const mts_labels_t *axis = mts_block_labels(gradient, axes);
            if (axis == NULL) {
                break;
            }
            labels[axes] = labels_array(axis);
            mts_labels_free(axis);
        }
    }
    set_stale_error();
    mts_status_t status = mts_block_add_gradient(block, parameter, gradient);
    check_int_eq_(status, MTS_INVALID_PARAMETER_ERROR, "status", "1", "CHECK_STATUS", __FILE__,
                  line);
    check_library_error_(message, __FILE__, line);
    check_record_(values != NULL, __FILE__, line, "the gradient has test values");
    if (values != NULL) {
        check_int_eq_(ta_calls(values, TA_DESTROY), 1, "gradient values destroyed", "1",
                      "CHECK_INT_EQ", __FILE__, line);
    }
    for (uintptr_t i = 0; i < axes; i++) {
        if (labels[i] != NULL) {
            check_int_eq_(ta_calls(labels[i], TA_DESTROY), 1, "gradient labels destroyed", "1",
                          "CHECK_INT_EQ", __FILE__, line);
        }
    }
}
#define CHECK_REJECTED(block, parameter, gradient, message) \
    check_rejected_((block), (parameter), (gradient), 0, (message), __LINE__)
#define CHECK_REJECTED_ALONE(block, parameter, gradient, message) \
    check_rejected_((block), (parameter), (gradient), 1, (message), __LINE__)

/* a gradient block with the given samples, components and properties
 * labels, and values of the matching shape (values on `device`) */
static mts_block_t *gradient_with(const mts_labels_t *samples, const mts_labels_t *const *components,
                                  uintptr_t components_count, const mts_labels_t *properties,
                                  DLDevice device) {
    uintptr_t shape[TA_MAX_NDIM];
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    mts_labels_values_cpu(samples, &values, &count, &size);
    shape[0] = count;
    for (uintptr_t i = 0; i < components_count; i++) {
        mts_labels_values_cpu(components[i], &values, &count, &size);
        shape[i + 1] = count;
    }
    mts_labels_values_cpu(properties, &values, &count, &size);
    shape[components_count + 1] = count;
    struct test_array *array = ta_new_f64_filled(shape, components_count + 2, 0.5);
    array->device = device;
    mts_block_t *gradient = mts_block(ta_mts(array), samples, components, components_count,
                                      properties);
    CHECK(gradient != NULL);
    return gradient;
}

/* the gradient "h" with the samples (sample, g) = `rows`, no components and
 * `properties` is refused with `message` */
static void check_samples_rejected_(mts_block_t *block, const int32_t *rows, uintptr_t count,
                                    const mts_labels_t *properties, const char *message,
                                    int line) {
    const mts_labels_t *samples = ta_labels(NAMES_SAMPLE_G, 2, rows, count);
    mts_block_t *gradient = gradient_with(samples, NULL, 0, properties, TA_CPU);
    check_rejected_(block, "h", gradient, 0, message, line);
    mts_labels_free(samples);
}
/* `rows` is an array of (sample, g) pairs */
#define CHECK_SAMPLES_REJECTED(block, rows, properties, message)                            \
    check_samples_rejected_((block), (rows), ARRAY_SIZE(rows) / 2, (properties), (message), \
                            __LINE__)

/* a gradient over float32 values of shape {rows, 4, 2} on `device`, whose
 * `origin` member is `origin`: 1 check */
static mts_block_t *f32_gradient_(uintptr_t rows, DLDevice device,
                                  mts_status_t (*origin)(const void *, mts_data_origin_t *),
                                  const mts_labels_t *samples, const mts_labels_t *component,
                                  const mts_labels_t *properties, int line) {
    struct test_array *values = values3(rows, 4, 2, 0);
    values->device = device;
    values->dtype.bits = 32;
    mts_array_t array = ta_mts(values);
    array.origin = origin;
    mts_block_t *gradient = mts_block(array, samples, &component, 1, properties);
    check_record_(gradient != NULL, __FILE__, line, "gradient != NULL");
    return gradient;
}

#define SAMPLE_VALUE INVALID "invalid value for the 'sample' dimension in gradient samples: "

static void test_add_gradient_errors(void) {
    long live = ta_live();
    struct fixture f = fixture_with_g(NULL, __LINE__);

    const mts_labels_t *c = f.component;
    const mts_labels_t *p = f.properties;
    const mts_labels_t *good_samples = ta_labels(NAMES_SAMPLE_G, 2, GRADIENT_ROWS, 3);

    /* 1. an existing parameter comes first (the gradient is also invalid in
     * every other way) */
    mts_block_t *gradient = gradient_with(good_samples, NULL, 0, good_samples, TA_CPU);
    CHECK_REJECTED(f.block, "g", gradient,
                   INVALID "gradient with respect to 'g' already exists for this block");
    CHECK_REJECTED_ALONE(f.block, "g", good_gradient(NULL),
                   INVALID "gradient with respect to 'g' already exists for this block");

    /* 2. origin, before the device */
    const mts_labels_t *cuda_samples = ta_labels_on(NAMES_SAMPLE_G, 2, GRADIENT_ROWS, 3, CUDA0);
    const mts_labels_t *cuda_c = range_from(NAMES_C, 0, 4, CUDA0);
    const mts_labels_t *cuda_p = range_from(NAMES_P, 0, 2, CUDA0);
    const mts_labels_t *q = range(NAMES_Q, 2);
    gradient = f32_gradient_(3, CUDA0, other_origin, cuda_samples, cuda_c, cuda_p, __LINE__);
    CHECK_REJECTED(f.block, "h", gradient,
                   INVALID "the gradient data has a different origin "
                           "('metatensor-go.tests.other') than the value data "
                           "('metatensor-go.tests')");

    /* 3. device, before the dtype */
    gradient = f32_gradient_(3, CUDA0, ta_origin, cuda_samples, cuda_c, cuda_p, __LINE__);
    CHECK_REJECTED(f.block, "h", gradient,
                   INVALID "the gradient values are on device 'CUDA:0' but the block values "
                           "are on device 'CPU:0'");

    /* 4. dtype, before the samples */
    const mts_labels_t *no_dimension = ta_labels(NULL, 0, NULL, 0);
    gradient = f32_gradient_(0, TA_CPU, ta_origin, no_dimension, c, p, __LINE__);
    CHECK_REJECTED(f.block, "h", gradient,
                   INVALID "the gradient values have dtype 'f32' but the block values have "
                           "dtype 'f64'");
    int32_t ints[8] = {0};
    uintptr_t int_shape[3] = {1, 4, 2};
    struct test_array *int_values = ta_new(TA_INT32, int_shape, 3, ints);
    static const int32_t one_row[] = {0, 0};
    const mts_labels_t *one_sample = ta_labels(NAMES_SAMPLE_G, 2, one_row, 1);
    gradient = mts_block(ta_mts(int_values), one_sample, &c, 1, p);
    CHECK_REJECTED(f.block, "h", gradient,
                   INVALID "the gradient values have dtype 'i32' but the block values have "
                           "dtype 'f64'");

    /* 5. samples with no dimension */
    gradient = gradient_with(no_dimension, &c, 1, q, TA_CPU);
    CHECK_REJECTED(f.block, "h", gradient,
                   INVALID "gradients samples must have at least one dimension, named "
                           "'sample', we got none");

    /* 6. the first sample dimension must be "sample" */
    static const int32_t system_rows[] = {9, 0};
    const mts_labels_t *system_samples = ta_labels(NAMES_SYSTEM_G, 2, system_rows, 1);
    gradient = gradient_with(system_samples, NULL, 0, q, TA_CPU);
    CHECK_REJECTED(f.block, "h", gradient,
                   INVALID "'system' is not valid for the first dimension in the gradients "
                           "samples labels, it should be 'sample'");
    static const char *const names_g_sample[] = {"g", "sample"};
    const mts_labels_t *swapped = ta_labels(names_g_sample, 2, one_row, 1);
    gradient = gradient_with(swapped, &c, 1, p, TA_CPU);
    CHECK_REJECTED(f.block, "h", gradient,
                   INVALID "'g' is not valid for the first dimension in the gradients samples "
                           "labels, it should be 'sample'");

    /* 7. the range of the 'sample' column, before the components: the
     * whole column of unsorted samples, the ends of sorted ones */
    static const int32_t unsorted_negative[] = {1, 0, -4, 0, 0, 1, -2, 3};
    CHECK_SAMPLES_REJECTED(f.block, unsorted_negative, q,
                           SAMPLE_VALUE "all values should be positive, but we got -4");
    static const int32_t sorted_negative[] = {-2, 0, -1, 0, 0, 1, 2, 3};
    CHECK_SAMPLES_REJECTED(f.block, sorted_negative, q,
                           SAMPLE_VALUE "all values should be positive, but we got -2");
    static const int32_t unsorted_large[] = {1, 0, 7, 0, 0, 1, 3, 3};
    CHECK_SAMPLES_REJECTED(f.block, unsorted_large, q,
                           SAMPLE_VALUE "we got 7, but the values contain 3 samples");
    static const int32_t sorted_large[] = {0, 0, 1, 0, 2, 1, 3, 3};
    CHECK_SAMPLES_REJECTED(f.block, sorted_large, q,
                           SAMPLE_VALUE "we got 3, but the values contain 3 samples");
    /* both wrong: the minimum is checked first */
    static const int32_t both[] = {5, 0, -1, 0};
    CHECK_SAMPLES_REJECTED(f.block, both, q,
                           SAMPLE_VALUE "all values should be positive, but we got -1");

    /* 9. at least as many components as the values */
    gradient = gradient_with(good_samples, NULL, 0, q, TA_CPU);
    CHECK_REJECTED(f.block, "h", gradient,
                   INVALID "gradients components should contain at least as many labels as "
                           "the values components");

    /* 10. properties equal to the values' (names, then entries); 11. the last
     * components equal to the values' */
    const mts_labels_t *x = range(NAMES_X, 5);
    const mts_labels_t *x_c[] = {x, c};
    static const int32_t reversed[] = {1, 0};
    const mts_labels_t *p_reversed = ta_labels(NAMES_P, 1, reversed, 2);
    const mts_labels_t *p_short = range(NAMES_P, 1);
    const mts_labels_t *d4 = range(NAMES_D, 4);
    static const int32_t shifted[] = {1, 2, 3, 4};
    const mts_labels_t *c_shifted = ta_labels(NAMES_C, 1, shifted, 4);
    const mts_labels_t *c_x[] = {c, x};
    const char *properties_differ = INVALID "gradient properties must be the same as values "
                                            "properties";
    const char *components_mismatch =
        INVALID "gradients and values components mismatch for values component 0 (dimension "
                "name is 'c'). Components which are specific to the gradients must come first, "
                "and be followed by the exact same components as the values.";
    const struct {
        const mts_labels_t *const *components;
        uintptr_t count;
        const mts_labels_t *properties;
        const char *message;
        int line;
    } mismatched[] = {
        {x_c, 2, q, properties_differ, __LINE__},
        {&c, 1, p_reversed, properties_differ, __LINE__},
        {&c, 1, p_short, properties_differ, __LINE__},
        {&d4, 1, p, components_mismatch, __LINE__},
        {&c_shifted, 1, p, components_mismatch, __LINE__},
        {c_x, 2, p, components_mismatch, __LINE__},
    };
    for (size_t i = 0; i < ARRAY_SIZE(mismatched); i++) {
        gradient = gradient_with(good_samples, mismatched[i].components, mismatched[i].count,
                                 mismatched[i].properties, TA_CPU);
        check_rejected_(f.block, "h", gradient, 0, mismatched[i].message, mismatched[i].line);
    }

    /* the failures added nothing */
    static const char *const only_g[] = {"g"};
    CHECK_GRADIENTS_LIST(f.block, only_g, 1);

    /* extra gradient components come first; empty and unsorted samples are
     * fine, only the first column is looked at */
    gradient = gradient_with(good_samples, x_c, 2, p, TA_CPU);
    CHECK_STATUS(mts_block_add_gradient(f.block, "with extra", gradient), MTS_SUCCESS);
    const mts_labels_t *no_rows = ta_labels(NAMES_SAMPLE_G, 2, NULL, 0);
    gradient = gradient_with(no_rows, &c, 1, p, TA_CPU);
    CHECK_STATUS(mts_block_add_gradient(f.block, "empty", gradient), MTS_SUCCESS);
    static const int32_t unsorted_ok[] = {2, -7, 0, 100, 1, 3, 0, -100};
    const mts_labels_t *samples = ta_labels(NAMES_SAMPLE_G, 2, unsorted_ok, 4);
    gradient = gradient_with(samples, &c, 1, p, TA_CPU);
    CHECK_STATUS(mts_block_add_gradient(f.block, "unsorted", gradient), MTS_SUCCESS);
    mts_labels_free(samples);
    static const char *const all[] = {"g", "with extra", "empty", "unsorted"};
    CHECK_GRADIENTS_LIST(f.block, all, 4);

    FREE_LABELS(good_samples, cuda_samples, cuda_c, cuda_p, q, no_dimension, one_sample,
                system_samples, swapped, x, p_reversed, p_short, d4, c_shifted, no_rows);
    fixture_free(&f);
    CHECK_INT_EQ(ta_live(), live);
}

/* gradients on the meta device: the sample range is not checked */
/* What adding a gradient over `samples` (an array `samples_array` of (sample, g) rows) and the
 * block's own component and properties labels asks, nothing having read the gradient since
 * mts_block: each values array its origin, device and dtype once, the samples their device
 * (twice, and their values, when nothing read them before). On success the gradient is the
 * block's "positions"; a failure gives `message` and consumes the gradient. */
static void check_gradient_asked_(struct fixture *f, const mts_labels_t *samples,
                                  struct test_array *samples_array, int read_before,
                                  struct test_array *values, struct test_array *failing,
                                  enum ta_member member, const mts_labels_t *component,
                                  const mts_labels_t *properties, const char *message, int line) {
    component = component != NULL ? component : f->component;
    properties = properties != NULL ? properties : f->properties;
    mts_block_t *gradient = mts_block(ta_mts(values), samples, &component, 1, properties);
    check_record_(gradient != NULL, __FILE__, line, "gradient != NULL");
    /* labels compared with the block's are asked their device once each */
    struct test_array *compared[4] = {labels_array(properties), labels_array(f->properties),
                                      labels_array(component), labels_array(f->component)};
    int compared_devices[4];
    for (int i = 0; i < 4; i++) {
        compared_devices[i] = ta_calls(compared[i], TA_DEVICE);
    }
    /* a member failing from now on (set after mts_block, which asks devices too) */
    if (failing != NULL) {
        ta_set_fail(failing, member, MTS_CALLBACK_ERROR, NULL);
    }
    int before[2][3], after[2][3];
    ta_description_calls(f->values, before[0]);
    ta_description_calls(values, before[1]);
    int devices = ta_calls(samples_array, TA_DEVICE);
    int exports = ta_calls(samples_array, TA_AS_DLPACK);
    set_stale_error();
    mts_status_t status = mts_block_add_gradient(f->block, "positions", gradient);
    if (failing != NULL) {
        ta_set_fail(failing, TA_NONE, MTS_SUCCESS, NULL);
    }
    ta_description_calls(f->values, after[0]);
    ta_description_calls(values, after[1]);
    if (message == NULL) {
        check_int_eq_(status, MTS_SUCCESS, "status", "MTS_SUCCESS", "CHECK_STATUS", __FILE__, line);
        for (int k = 0; k < 3; k++) {
            check_int_eq_(after[0][k] - before[0][k], 1, "block values asked", "1", "CHECK_INT_EQ", __FILE__, line);
            check_int_eq_(after[1][k] - before[1][k], 1, "gradient values asked", "1", "CHECK_INT_EQ", __FILE__, line);
        }
        check_int_eq_(ta_calls(samples_array, TA_DEVICE) - devices, read_before ? 1 : 2, "samples devices",
                      "1 or 2", "CHECK_INT_EQ", __FILE__, line);
        check_int_eq_(ta_calls(samples_array, TA_AS_DLPACK) - exports, read_before ? 0 : 1, "samples exports",
                      "0 or 1", "CHECK_INT_EQ", __FILE__, line);
        for (int i = 0; i < 4; i++) {
            int asked = i < 2 ? properties != f->properties : component != f->component;
#ifdef MTS_TEST_REFERENCE
            asked *= i % 2 == 0 ? 2 : 1; /* the gradient's labels twice */
#endif
            check_int_eq_(ta_calls(compared[i], TA_DEVICE) - compared_devices[i], asked,
                          "compared labels devices", "0, 1 or 2", "CHECK_INT_EQ", __FILE__, line);
        }
        mts_block_t *got = NULL;
        check_int_eq_(mts_block_gradient(f->block, "positions", &got), MTS_SUCCESS, "mts_block_gradient",
                      "MTS_SUCCESS", "CHECK_STATUS", __FILE__, line);
        check_record_(got != NULL && block_array(got) == values, __FILE__, line, "the gradient's values");
        check_int_eq_(ta_calls(values, TA_DESTROY), 0, "gradient values destroyed", "0", "CHECK_INT_EQ",
                      __FILE__, line);
        return;
    }
    check_int_eq_(status == MTS_SUCCESS, 0, "status", "an error", "CHECK_STATUS", __FILE__, line);
    check_str_eq_(last_message(), message, "last_message()", "message", __FILE__, line);
    check_int_eq_(ta_calls(values, TA_DESTROY), 1, "gradient values destroyed", "1", "CHECK_INT_EQ", __FILE__,
                  line);
}
#define CHECK_GRADIENT_ASKED(f, samples, samples_array, read_before, values, message)                       \
    check_gradient_asked_((f), (samples), (samples_array), (read_before), (values), NULL, TA_NONE, NULL, NULL, \
                          (message), __LINE__)
/* `member` of the array `failing` fails during the call */
#define CHECK_GRADIENT_FAILING(f, samples, samples_array, read_before, failing, member, component, properties, \
                               message)                                                                      \
    check_gradient_asked_((f), (samples), (samples_array), (read_before), values3(3, 4, 2, 0), (failing),     \
                          (member), (component), (properties), (message), __LINE__)
/* the gradient over its own component and properties labels */
#define CHECK_GRADIENT_LABELS(f, samples, samples_array, component, properties, message)                        \
    check_gradient_asked_((f), (samples), (samples_array), 1, values3(3, 4, 2, 2.5), NULL, TA_NONE, (component), \
                          (properties), (message), __LINE__)

static void test_add_gradient_asks_once(void) {
    long live = ta_live();
    static const int32_t rows[] = {0, 1, 2, 1, 2, 5};
    static const int32_t too_high[] = {0, 0, 3, 0};
    static const int32_t negative[] = {1, 0, -1, 0};
    const mts_labels_t *samples = ta_labels(NAMES_SAMPLE_G, 2, rows, 3);
    struct test_array *samples_array = labels_array(samples);
    const char *const positions[] = {"positions"};

    /* added, then read back */
    struct fixture f = fixture();
    CHECK_GRADIENT_ASKED(&f, samples, samples_array, 1, values3(3, 4, 2, 2.5), NULL);
    CHECK_GRADIENTS_LIST(f.block, positions, 1);
    fixture_free(&f);

    /* samples whose values nothing read yet (assumed unique) are read once */
    struct test_array *unread_array = ta_new_i32(rows, 3, 2);
    const mts_labels_t *unread = mts_labels_assume_unique(NAMES_SAMPLE_G, 2, ta_mts(unread_array));
    CHECK(unread != NULL);
    f = fixture();
    CHECK_GRADIENT_ASKED(&f, unread, unread_array, 0, values3(3, 4, 2, 2.5), NULL);
    fixture_free(&f);
    mts_labels_free(unread);

    /* errors found by asking: the block keeps no gradient */
    f = fixture();
    struct test_array *odd = values3(3, 4, 2, 0);
    odd->dtype.bits = 32;
    CHECK_GRADIENT_ASKED(&f, samples, samples_array, 1, odd,
                         INVALID "the gradient values have dtype 'f32' but the block values have dtype 'f64'");
    odd = values3(3, 4, 2, 0);
    ta_set_fail(odd, TA_ORIGIN, MTS_CALLBACK_ERROR, NULL);
    CHECK_GRADIENT_ASKED(&f, samples, samples_array, 1, odd,
                         "calling mts_array_t.origin failed: test array: origin failed on purpose");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    const mts_labels_t *high = ta_labels(NAMES_SAMPLE_G, 2, too_high, 2);
    CHECK_GRADIENT_ASKED(&f, high, labels_array(high), 1, values3(2, 4, 2, 0),
                         SAMPLE_VALUE "we got 3, but the values contain 3 samples");
    const mts_labels_t *low = ta_labels(NAMES_SAMPLE_G, 2, negative, 2);
    CHECK_GRADIENT_ASKED(&f, low, labels_array(low), 1, values3(2, 4, 2, 0),
                         SAMPLE_VALUE "all values should be positive, but we got -1");
    CHECK_GRADIENT_FAILING(&f, samples, samples_array, 1, samples_array, TA_DEVICE, NULL, NULL,
                           "calling mts_array_t.device failed: test array: device failed on purpose");
    unread_array = ta_new_i32(rows, 3, 2);
    unread = mts_labels_assume_unique(NAMES_SAMPLE_G, 2, ta_mts(unread_array));
    CHECK_GRADIENT_FAILING(&f, unread, unread_array, 0, unread_array, TA_AS_DLPACK, NULL, NULL,
                           "calling mts_array_t.as_dlpack failed: test array: as_dlpack failed on purpose");
    CHECK_GRADIENTS_LIST(f.block, NULL, 0);
    /* the parameter taken by a gradient added now is refused for the next one */
    CHECK_GRADIENT_ASKED(&f, samples, samples_array, 1, values3(3, 4, 2, 2.5), NULL);
    CHECK_GRADIENT_ASKED(&f, samples, samples_array, 1, values3(3, 4, 2, 2.5),
                         INVALID "gradient with respect to 'positions' already exists for this block");
    CHECK_GRADIENTS_LIST(f.block, positions, 1);
    fixture_free(&f);

    /* labels of the gradient's own, compared with the block's: equal ones are accepted */
    const mts_labels_t *p_again = range(NAMES_P, 2);
    const mts_labels_t *c_again = range(NAMES_C, 4);
    const mts_labels_t *p_other = range_from(NAMES_P, 1, 2, TA_CPU);
    const mts_labels_t *c_other = range_from(NAMES_C, 1, 4, TA_CPU);
    f = fixture();
    CHECK_GRADIENT_LABELS(&f, samples, samples_array, c_again, p_again, NULL);
    fixture_free(&f);
    f = fixture();
    CHECK_GRADIENT_LABELS(&f, samples, samples_array, c_again, p_other,
                          INVALID "gradient properties must be the same as values properties");
    CHECK_GRADIENT_LABELS(&f, samples, samples_array, c_other, p_again,
                          INVALID "gradients and values components mismatch for values component 0 "
                                  "(dimension name is 'c'). Components which are specific to the "
                                  "gradients must come first, and be followed by the exact same "
                                  "components as the values.");
    /* a failing device, and values that can not be read */
    CHECK_GRADIENT_FAILING(&f, samples, samples_array, 1, labels_array(p_again), TA_DEVICE, c_again, p_again,
#ifdef MTS_TEST_REFERENCE
                           "internal metatensor error (this is likely a bug, please report it): failed to get "
                           "the device for Labels values: CallbackError"
#else
                           "calling mts_array_t.device failed: test array: device failed on purpose"
#endif
    );
    struct test_array *unread_properties = ta_new_i32((const int32_t[]){0, 1}, 2, 1);
    const mts_labels_t *p_unread = mts_labels_assume_unique(NAMES_P, 1, ta_mts(unread_properties));
    CHECK_GRADIENT_FAILING(&f, samples, samples_array, 1, unread_properties, TA_AS_DLPACK, c_again, p_unread,
                           "calling mts_array_t.as_dlpack failed: test array: as_dlpack failed on purpose");
    CHECK_GRADIENTS_LIST(f.block, NULL, 0);
    fixture_free(&f);
    FREE_LABELS(samples, high, low, unread, p_again, c_again, p_other, c_other, p_unread);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_meta_gradients(void) {
    long live = ta_live();
    static const int32_t rows[] = {0, 1, 2};
    static const int32_t gradient_rows[] = {99, 0, -5, 1};
    struct test_array *arrays[4];
    arrays[0] = ta_new_i32(rows, 3, 1);
    arrays[1] = ta_new_i32(rows, 2, 1);
    arrays[2] = ta_new_i32(gradient_rows, 2, 2);
    arrays[3] = ta_new_i32(rows, 2, 1);
    for (int i = 0; i < 4; i++) {
        arrays[i]->device = META;
    }
    const mts_labels_t *s = mts_labels_assume_unique(NAMES_S, 1, ta_mts(arrays[0]));
    const mts_labels_t *p = mts_labels_assume_unique(NAMES_P, 1, ta_mts(arrays[1]));
    const mts_labels_t *g = mts_labels_assume_unique(NAMES_SAMPLE_G, 2, ta_mts(arrays[2]));
    const mts_labels_t *p2 = mts_labels_assume_unique(NAMES_P, 1, ta_mts(arrays[3]));
    CHECK(s != NULL && p != NULL && g != NULL && p2 != NULL);

    struct test_array *values = values2(3, 2, 0);
    values->device = META;
    mts_block_t *block = mts_block(ta_mts(values), s, NULL, 0, p);
    CHECK(block != NULL);
    struct test_array *gradient_values = values2(2, 2, 0);
    gradient_values->device = META;
    mts_block_t *gradient = mts_block(ta_mts(gradient_values), g, NULL, 0, p2);
    CHECK(gradient != NULL);
    CHECK_STATUS(mts_block_add_gradient(block, "g", gradient), MTS_SUCCESS);
    /* nothing needed the values of the labels */
    for (int i = 0; i < 4; i++) {
        CHECK_INT_EQ(ta_calls(arrays[i], TA_AS_DLPACK), 0);
    }

    mts_block_free(block);
    FREE_LABELS(s, p, g, p2);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_nested_gradients(void) {
    long live = ta_live();
    struct test_array *gradient_values = NULL;
    struct fixture f = fixture_with_g(&gradient_values, __LINE__);
    mts_block_t *gradient = NULL;
    CHECK_STATUS(mts_block_gradient(f.block, "g", &gradient), MTS_SUCCESS);

    /* a gradient of the gradient: its samples point into the gradient's */
    static const int32_t rows[] = {0, 7, 2, 8};
    const mts_labels_t *samples = ta_labels(NAMES_SAMPLE_G, 2, rows, 2);
    mts_block_t *nested = gradient_with(samples, &f.component, 1, f.properties, TA_CPU);
    struct test_array *nested_values = block_array(nested);
    CHECK_STATUS(mts_block_add_gradient(gradient, "second", nested), MTS_SUCCESS);
    static const char *const second[] = {"second"};
    CHECK_GRADIENTS_LIST(gradient, second, 1);
    static const char *const first[] = {"g"};
    CHECK_GRADIENTS_LIST(f.block, first, 1);
    mts_block_t *got = NULL;
    CHECK_STATUS(mts_block_gradient(gradient, "second", &got), MTS_SUCCESS);
    CHECK(got != NULL && block_array(got) == nested_values);
    nested = got;

    /* checked against the gradient's samples (3 entries), not the block's */
    static const int32_t out_of_range[] = {3, 0};
    const mts_labels_t *bad = ta_labels(NAMES_SAMPLE_G, 2, out_of_range, 1);
    CHECK_REJECTED(gradient, "third", gradient_with(bad, &f.component, 1, f.properties, TA_CPU),
                   INVALID "invalid value for the 'sample' dimension in gradient samples: we "
                           "got 3, but the values contain 3 samples");
    mts_labels_free(bad);

    /* and deeper */
    const mts_labels_t *one = ta_labels(NAMES_SAMPLE_G, 2, rows, 1);
    CHECK_STATUS(mts_block_add_gradient(nested, "third",
                                        gradient_with(one, &f.component, 1, f.properties,
                                                      TA_CPU)),
                 MTS_SUCCESS);
    mts_labels_free(one);

    mts_labels_free(samples);
    fixture_free(&f);
    CHECK_INT_EQ(ta_calls(gradient_values, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_calls(nested_values, TA_DESTROY), 1);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* copies                                                                   */

static void test_copy(void) {
    long live = ta_live();
    struct fixture f = fixture_on(CUDA1);
    const char *const parameters[] = {"zeta", "alpha", "mid"};
    struct test_array *gradient_values[3];
    for (int i = 0; i < 3; i++) {
        mts_block_t *gradient = gradient_of(GRADIENT_ROWS, 3, CUDA1, &gradient_values[i]);
        ((double *)gradient_values[i]->data)[0] = 10.0 + i;
        CHECK_STATUS(mts_block_add_gradient(f.block, parameters[i], gradient), MTS_SUCCESS);
    }
    mts_block_t *alpha = NULL;
    CHECK_STATUS(mts_block_gradient(f.block, "alpha", &alpha), MTS_SUCCESS);
    static const int32_t nested_rows[] = {1, 1};
    const mts_labels_t *nested_samples = ta_labels_on(NAMES_SAMPLE_G, 2, nested_rows, 1, CUDA1);
    mts_labels_t const *alpha_c = mts_block_labels(alpha, 1);
    mts_labels_t const *alpha_p = mts_block_labels(alpha, 2);
    mts_block_t *nested = gradient_with(nested_samples, &alpha_c, 1, alpha_p, CUDA1);
    struct test_array *nested_values = block_array(nested);
    CHECK_STATUS(mts_block_add_gradient(alpha, "nested", nested), MTS_SUCCESS);
    ((double *)f.values->data)[5] = -3.0;

    long copies = ta_total_calls(TA_COPY);
    mts_block_t *copy = mts_block_copy(f.block);
    CHECK(copy != NULL);
    CHECK(copy != f.block);
    /* one copy per array, to the device the array is on */
    CHECK_INT_EQ(ta_total_calls(TA_COPY), copies + 5);
    CHECK_INT_EQ(ta_calls(f.values, TA_COPY), 1);
    CHECK(device_eq(f.values->last_copy_device, CUDA1));
    CHECK_INT_EQ(ta_calls(nested_values, TA_COPY), 1);
    for (int i = 0; i < 3; i++) {
        CHECK_INT_EQ(ta_calls(gradient_values[i], TA_COPY), 1);
        CHECK(device_eq(gradient_values[i]->last_copy_device, CUDA1));
    }

    struct test_array *copied = block_array(copy);
    CHECK(copied != NULL && copied != f.values);
    if (copied != NULL) {
        CHECK(copied->created_by == TA_COPY && copied->created_from == f.values);
        CHECK(device_eq(copied->device, CUDA1));
        CHECK(ta_f64_at(copied, 5) == -3.0);
        CHECK(ta_f64_at(copied, 0) == 1.5);
    }
    /* the labels are shared */
    for (uintptr_t axis = 0; axis < 3; axis++) {
        const mts_labels_t *a = mts_block_labels(f.block, axis);
        const mts_labels_t *b = mts_block_labels(copy, axis);
        CHECK(a == b);
        mts_labels_free(a);
        mts_labels_free(b);
    }
    /* the gradients, in the same order, copied too */
    CHECK_GRADIENTS_LIST(copy, parameters, 3);
    for (int i = 0; i < 3; i++) {
        mts_block_t *original = NULL, *gradient = NULL;
        CHECK_STATUS(mts_block_gradient(f.block, parameters[i], &original), MTS_SUCCESS);
        CHECK_STATUS(mts_block_gradient(copy, parameters[i], &gradient), MTS_SUCCESS);
        CHECK(gradient != NULL && gradient != original);
        struct test_array *array = block_array(gradient);
        CHECK(array != NULL && array->created_from == gradient_values[i]);
        if (array != NULL) {
            CHECK(ta_f64_at(array, 0) == 10.0 + i);
        }
        const mts_labels_t *a = mts_block_labels(original, 0);
        const mts_labels_t *b = mts_block_labels(gradient, 0);
        CHECK(a == b);
        mts_labels_free(a);
        mts_labels_free(b);
    }
    mts_block_t *copied_alpha = NULL, *copied_nested = NULL;
    CHECK_STATUS(mts_block_gradient(copy, "alpha", &copied_alpha), MTS_SUCCESS);
    CHECK_STATUS(mts_block_gradient(copied_alpha, "nested", &copied_nested), MTS_SUCCESS);
    CHECK(copied_nested != NULL);
    struct test_array *array = block_array(copied_nested);
    CHECK(array != NULL && array->created_from == nested_values);

    /* the copy lives on after the original */
    FREE_LABELS(nested_samples, alpha_c, alpha_p);
    fixture_free(&f);
    CHECK_INT_EQ(ta_calls(f.values, TA_DESTROY), 1);
    const mts_labels_t *samples = mts_block_labels(copy, 0);
    CHECK(samples == f.samples);
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    CHECK_STATUS(mts_labels_values_cpu(samples, &values, &count, &size), MTS_SUCCESS);
    CHECK_INT_EQ(count, 3);
    mts_labels_free(samples);
    mts_block_t *copy_of_copy = mts_block_copy(copy);
    CHECK(copy_of_copy != NULL);
    mts_block_free(copy);
    mts_block_free(copy_of_copy);
    CHECK_INT_EQ(ta_live(), live);

    CHECK_NULL_ARG_PTR(mts_block_copy(NULL), "block");
}

static void test_copy_errors(void) {
    long live = ta_live();
    struct test_array *gradient_values = NULL;
    struct fixture f = fixture_with_g(&gradient_values, __LINE__);

    /* the values can not be copied: NULL, the callback's record prefixed */
    ta_set_fail(f.values, TA_COPY, 3, "no copy today");
    long data_deleted = atomic_load(&ta_stats.error_data_deleted);
    clear_error();
    CHECK(mts_block_copy(f.block) == NULL);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.copy failed: no copy today");
    CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
    struct ta_error_data *data = last_error().data;
    CHECK(data != NULL && data->magic == TA_ERROR_MAGIC && data->member == TA_COPY &&
          data->array == f.values);
    CHECK_INT_EQ(atomic_load(&ta_stats.error_data_deleted), data_deleted);
    CHECK_INT_EQ(ta_calls(gradient_values, TA_COPY), 0);
    ta_set_fail(f.values, TA_NONE, MTS_SUCCESS, NULL);

    /* a gradient can not be copied: the values copy already made is
     * destroyed */
    long before = ta_live();
    ta_set_fail(gradient_values, TA_COPY, MTS_CALLBACK_ERROR, NULL);
    CHECK(mts_block_copy(f.block) == NULL);
    CHECK_STR_EQ(last_message(),
                 "calling mts_array_t.copy failed: test array: copy failed on purpose");
    CHECK_INT_EQ(ta_calls(f.values, TA_COPY), 2);
    CHECK_INT_EQ(ta_live(), before);
    ta_set_fail(gradient_values, TA_NONE, MTS_SUCCESS, NULL);

    /* a copy callback that sets no error: the stale record gets the prefix */
    ta_set_fail(f.values, TA_COPY, MTS_CALLBACK_ERROR, NULL);
    f.values->fail_sets_error = 0;
    mts_set_last_error("an old message", "an old origin", NULL, NULL);
    CHECK(mts_block_copy(f.block) == NULL);
    CHECK_STR_EQ(last_message(), "calling mts_array_t.copy failed: an old message");
    CHECK_STR_EQ(last_error().origin, "an old origin");
    ta_set_fail(f.values, TA_NONE, MTS_SUCCESS, NULL);

    /* a NULL copy member */
    struct test_array *array = values3(3, 4, 2, 0);
    mts_array_t no_copy = ta_mts(array);
    no_copy.copy = NULL;
    mts_block_t *block = mts_block(no_copy, f.samples, &f.component, 1, f.properties);
    CHECK(block != NULL);
    set_stale_error();
    CHECK(mts_block_copy(block) == NULL);
    CHECK_STR_EQ(last_message(), "internal metatensor error (this is likely a bug, please "
                                 "report it): mts_array_t.copy function is NULL");
    mts_block_free(block);

    clear_error();
    fixture_free(&f);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */

int main(void) {
    mts_disable_panic_printing();

    test_create();
    test_create_errors();
    test_create_then_use();
    test_concurrent_first_reads();
    test_labels_accessor();
    test_data();
    test_device_and_dtype();
    test_add_gradient();
    test_add_gradient_errors();
    test_add_gradient_asks_once();
    test_meta_gradients();
    test_nested_gradients();
    test_copy();
    test_copy_errors();

    CHECK_NOTHING_LEAKED();

    return check_summary();
}
