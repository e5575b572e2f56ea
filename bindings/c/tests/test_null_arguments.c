/*
 * Tests of argument checking: what every entry point does when given a NULL
 * pointer where it needs one, the free functions accepting NULL, and who owns
 * an `mts_array_t` when a call fails on its arguments.
 *
 * Only the checks that run before any real work are asserted, so that this
 * test gives the same result against the reference library and against a
 * library whose functions are not all implemented yet. Every object pointer
 * given here is NULL, except in test_save_buffer_null_realloc, which makes
 * empty labels, block and tensor map when the library can (and skips those
 * checks when it can not).
 *
 * Cases where this library and the reference disagree are left out, each
 * with a comment starting with "DIFFERENCE:".
 *
 * Each checked call first stores a stale error record (origin "stale"), so a
 * call that fails without setting its own error is caught.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <metatensor.h>

#include "check.h"

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

static void set_stale_error(void) {
    mts_set_last_error("stale error", "stale", NULL, NULL);
}

/* Check the current error record against an argument error: origin
 * "metatensor-core", message starting with `expected`, and (when
 * `whole_word`) followed by the end of the string or a space. The reference
 * goes on with " at <file>:<line>" after the parameter name, which depends
 * on the build and is not matched. */
static void check_argument_error_record_(const char *expected, bool whole_word,
                                         const char *call, const char *file, int line) {
    const char *message = NULL;
    const char *origin = NULL;
    void *data = (void *)&message;
    mts_status_t status = mts_last_error(&message, &origin, &data);

    char what[1024];
    snprintf(what, sizeof(what), "%s: mts_last_error status", call);
    check_record_(status == MTS_SUCCESS, file, line, what);

    int ok = message != NULL && strncmp(message, expected, strlen(expected)) == 0;
    if (ok && whole_word) {
        char next = message[strlen(expected)];
        ok = (next == '\0' || next == ' ');
    }
    snprintf(what, sizeof(what), "%s: message \"%s\" should start with \"%s\"%s", call,
             message != NULL ? message : "<NULL>", expected,
             whole_word ? " (as a whole word)" : "");
    check_record_(ok, file, line, what);

    ok = origin != NULL && strcmp(origin, "metatensor-core") == 0;
    snprintf(what, sizeof(what), "%s: origin \"%s\" should be \"metatensor-core\"", call,
             origin != NULL ? origin : "<NULL>");
    check_record_(ok, file, line, what);

    snprintf(what, sizeof(what), "%s: error data should be NULL", call);
    check_record_(data == NULL, file, line, what);
}

static void check_status_error_(mts_status_t status, const char *expected, bool whole_word,
                                const char *call, const char *file, int line) {
    check_int_eq_(status, MTS_INVALID_PARAMETER_ERROR, call, "MTS_INVALID_PARAMETER_ERROR",
                  "CHECK_STATUS", file, line);
    check_argument_error_record_(expected, whole_word, call, file, line);
}

static void check_pointer_error_(const void *result, const char *expected, bool whole_word,
                                 const char *call, const char *file, int line) {
    char what[1024];
    snprintf(what, sizeof(what), "%s should return NULL", call);
    check_record_(result == NULL, file, line, what);
    check_argument_error_record_(expected, whole_word, call, file, line);
}

#define NULL_POINTER_PREFIX "invalid parameter: got invalid NULL pointer for "

/* `call` fails with exactly `message` (prefix included), as `check` (one of
 * the two above) sees it */
#define CHECK_FAILS_(check, call, message)                                    \
    do {                                                                      \
        set_stale_error();                                                    \
        check((call), (message), true, #call, __FILE__, __LINE__);            \
    } while (0)

/* `call` returns a status, or a pointer, and fails with exactly `message` */
#define CHECK_STATUS_MESSAGE(call, message) CHECK_FAILS_(check_status_error_, call, message)
#define CHECK_POINTER_MESSAGE(call, message) CHECK_FAILS_(check_pointer_error_, call, message)

/* `call` returns a status, or a pointer, and complains about the NULL
 * parameter `param` */
#define CHECK_NULL_STATUS(call, param) CHECK_STATUS_MESSAGE(call, NULL_POINTER_PREFIX param)
#define CHECK_NULL_POINTER(call, param) CHECK_POINTER_MESSAGE(call, NULL_POINTER_PREFIX param)

/* An mts_array_t whose only member is `destroy`, counting its calls in the
 * int that `ptr` points to. Any other member is NULL: the library must not
 * call them before the argument checks fail. */
static void counting_destroy(void *array) {
    int *counter = array;
    *counter += 1;
}

static mts_array_t counting_array(int *counter) {
    mts_array_t array;
    memset(&array, 0, sizeof(array));
    array.ptr = counter;
    array.destroy = counting_destroy;
    return array;
}

/* an array with no members at all, for calls where it is never used */
static mts_array_t empty_array(void) {
    mts_array_t array;
    memset(&array, 0, sizeof(array));
    return array;
}

static uint8_t *test_realloc(void *user_data, uint8_t *ptr, uintptr_t new_size) {
    (void)user_data;
    (void)ptr;
    (void)new_size;
    /* never called: every call here fails before writing anything */
    return NULL;
}

static mts_status_t test_create_array(const uintptr_t *shape, uintptr_t shape_count,
                                      DLDataType dtype, mts_array_t *array) {
    (void)shape;
    (void)shape_count;
    (void)dtype;
    (void)array;
    /* never called: every call here fails before reading anything */
    return -1;
}

/* ------------------------------------------------------------------------ */
/* 1. NULL for the first checked pointer of every function                   */

static void test_labels_functions(void) {
    const char *const *names_out = NULL;
    uintptr_t count = 0;
    uintptr_t size = 0;
    mts_array_t array_out = empty_array();
    const int32_t *values_out = NULL;
    const int32_t values[] = {1, 2};
    int64_t position = 0;
    const mts_labels_t *result = NULL;
    int64_t first_mapping[2] = {0, 0};
    int64_t second_mapping[2] = {0, 0};
    uint64_t selected[2] = {0, 0};
    uintptr_t selected_count = 2;

    /* a NULL names array with a non-zero count (with a zero count the names
     * are never read). The array has no `destroy` (which is allowed); the
     * arrays' ownership is checked in test_ownership_on_argument_errors */
    CHECK_POINTER_MESSAGE(mts_labels(NULL, 2, empty_array()),
                          "invalid parameter: names can not be NULL");
    CHECK_POINTER_MESSAGE(mts_labels_assume_unique(NULL, 2, empty_array()),
                          "invalid parameter: names can not be NULL");

    CHECK_NULL_STATUS(mts_labels_dimensions(NULL, &names_out, &count), "labels");
    CHECK_NULL_STATUS(mts_labels_values(NULL, &array_out), "labels");
    CHECK_NULL_STATUS(mts_labels_values_cpu(NULL, &values_out, &count, &size), "labels");
    CHECK_NULL_STATUS(mts_labels_position(NULL, values, 2, &position), "labels");
    CHECK_NULL_POINTER(mts_labels_clone(NULL), "labels");

    CHECK_NULL_STATUS(mts_labels_union(NULL, NULL, &result, first_mapping, 2, second_mapping, 2),
                      "first");
    CHECK_NULL_STATUS(
        mts_labels_intersection(NULL, NULL, &result, first_mapping, 2, second_mapping, 2),
        "first");
    CHECK_NULL_STATUS(mts_labels_difference(NULL, NULL, &result, first_mapping, 2), "first");
    CHECK_NULL_STATUS(mts_labels_select(NULL, NULL, selected, &selected_count), "labels");

    /* nothing was written to the out-parameters */
    CHECK(names_out == NULL);
    CHECK(values_out == NULL);
    CHECK(result == NULL);
    CHECK_INT_EQ(count, 0);
    CHECK_INT_EQ(size, 0);
    CHECK_INT_EQ(position, 0);
    CHECK_INT_EQ(selected_count, 2);
}

static void test_data_origin_functions(void) {
    mts_data_origin_t origin = 0;
    char buffer[64] = "untouched";

    CHECK_NULL_STATUS(mts_register_data_origin(NULL, &origin), "name");
    CHECK_NULL_STATUS(mts_get_data_origin(0, NULL, 64), "buffer");

    CHECK_INT_EQ(origin, 0);
    CHECK_STR_EQ(buffer, "untouched");
}

static void test_block_functions(void) {
    mts_block_t *gradient = NULL;
    mts_array_t data = empty_array();
    const char *const *parameters = NULL;
    uintptr_t parameters_count = 0;
    DLDevice device = {kDLCPU, 0};
    DLDataType dtype = {kDLFloat, 64, 1};

    CHECK_NULL_POINTER(mts_block(empty_array(), NULL, NULL, 0, NULL), "samples");

    CHECK_NULL_POINTER(mts_block_copy(NULL), "block");
    CHECK_NULL_POINTER(mts_block_labels(NULL, 0), "block");
    CHECK_NULL_STATUS(mts_block_gradient(NULL, "positions", &gradient), "block");
    CHECK_NULL_STATUS(mts_block_data(NULL, &data), "block");
    CHECK_NULL_STATUS(mts_block_add_gradient(NULL, "positions", NULL), "block");
    CHECK_NULL_STATUS(mts_block_gradients_list(NULL, &parameters, &parameters_count), "block");
    CHECK_NULL_STATUS(mts_block_device(NULL, &device), "block");
    CHECK_NULL_STATUS(mts_block_dtype(NULL, &dtype), "block");

    CHECK(gradient == NULL);
    CHECK(data.ptr == NULL);
    CHECK(parameters == NULL);
    CHECK_INT_EQ(parameters_count, 0);
    CHECK_INT_EQ(device.device_type, kDLCPU);
    CHECK_INT_EQ(dtype.bits, 64);
}

static void test_tensormap_functions(void) {
    mts_block_t *block = NULL;
    const char *dimensions[] = {"component"};
    const char *value = NULL;
    const char *const *keys = NULL;
    uintptr_t keys_count = 0;
    DLDevice device = {kDLCPU, 0};
    DLDataType dtype = {kDLFloat, 64, 1};

    CHECK_NULL_POINTER(mts_tensormap(NULL, NULL, 0), "keys");
    CHECK_NULL_POINTER(mts_tensormap_copy(NULL), "tensor");
    CHECK_NULL_POINTER(mts_tensormap_keys(NULL), "tensor");
    CHECK_NULL_STATUS(mts_tensormap_block_by_id(NULL, &block, 0), "tensor");

    CHECK_NULL_POINTER(mts_tensormap_keys_to_properties(NULL, NULL, empty_array(), true),
                       "tensor");
    CHECK_NULL_POINTER(mts_tensormap_components_to_properties(NULL, dimensions, 1), "tensor");
    CHECK_NULL_POINTER(mts_tensormap_keys_to_samples(NULL, NULL, empty_array(), true), "tensor");

    CHECK_NULL_STATUS(mts_tensormap_set_info(NULL, "key", "value"), "tensor");
    CHECK_NULL_STATUS(mts_tensormap_get_info(NULL, "key", &value), "tensor");
    CHECK_NULL_STATUS(mts_tensormap_info_keys(NULL, &keys, &keys_count), "tensor");
    CHECK_NULL_STATUS(mts_tensormap_device(NULL, &device), "tensor");
    CHECK_NULL_STATUS(mts_tensormap_dtype(NULL, &dtype), "tensor");

    CHECK(block == NULL);
    CHECK(value == NULL);
    CHECK(keys == NULL);
    CHECK_INT_EQ(keys_count, 0);
}

static void test_io_functions(void) {
    uint8_t *buffer = NULL;
    uintptr_t buffer_count = 0;
    int realloc_data = 0;

    CHECK_NULL_POINTER(mts_labels_load(NULL), "path");
    CHECK_NULL_POINTER(mts_block_load(NULL, test_create_array), "path");
    CHECK_NULL_POINTER(mts_tensormap_load(NULL, test_create_array), "path");

    /* a NULL buffer with a non-zero count (a zero count is reported as an
     * empty buffer, before the NULL check) */
    CHECK_NULL_POINTER(mts_labels_load_buffer(NULL, 16), "buffer");
    CHECK_NULL_POINTER(mts_block_load_buffer(NULL, 16, test_create_array), "buffer");
    CHECK_NULL_POINTER(mts_tensormap_load_buffer(NULL, 16, test_create_array), "buffer");

    CHECK_NULL_STATUS(mts_labels_save(NULL, NULL), "path");
    CHECK_NULL_STATUS(mts_block_save(NULL, NULL), "path");
    CHECK_NULL_STATUS(mts_tensormap_save(NULL, NULL), "path");

    /* The save_buffer functions check their object first in the reference
     * (then `buffer` and `buffer_count` for blocks and tensor maps, which the
     * labels version does not check, then `realloc`), so the object is the
     * NULL pointer here, and everything else is valid.
     */
    CHECK_NULL_STATUS(
        mts_labels_save_buffer(&buffer, &buffer_count, &realloc_data, test_realloc, NULL),
        "labels");
    CHECK_NULL_STATUS(
        mts_block_save_buffer(&buffer, &buffer_count, &realloc_data, test_realloc, NULL), "block");
    CHECK_NULL_STATUS(
        mts_tensormap_save_buffer(&buffer, &buffer_count, &realloc_data, test_realloc, NULL),
        "tensor");
    CHECK_NULL_STATUS(mts_labels_save_buffer(NULL, &buffer_count, &realloc_data, test_realloc, NULL), "labels");
    CHECK_NULL_STATUS(mts_block_save_buffer(NULL, &buffer_count, &realloc_data, test_realloc, NULL), "block");
    CHECK_NULL_STATUS(mts_tensormap_save_buffer(NULL, &buffer_count, &realloc_data, test_realloc, NULL), "tensor");
    CHECK_NULL_STATUS(mts_labels_save_buffer(&buffer, &buffer_count, NULL, NULL, NULL), "labels");
    CHECK_NULL_STATUS(mts_block_save_buffer(&buffer, &buffer_count, NULL, NULL, NULL), "block");
    CHECK_NULL_STATUS(mts_tensormap_save_buffer(&buffer, &buffer_count, NULL, NULL, NULL), "tensor");

    CHECK(buffer == NULL);
    CHECK_INT_EQ(buffer_count, 0);
}

/* ------------------------------------------------------------------------ */
/* 2. the free functions accept NULL                                         */

static void test_free_null(void) {
    CHECK_STATUS(mts_labels_free(NULL), MTS_SUCCESS);
    CHECK_STATUS(mts_block_free(NULL), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_free(NULL), MTS_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* 3. arrays given by value are destroyed exactly once on argument errors    */

static void test_ownership_on_argument_errors(void) {
    int destroyed = 0;
    CHECK(mts_labels(NULL, 2, counting_array(&destroyed)) == NULL);
    CHECK_INT_EQ(destroyed, 1);

    destroyed = 0;
    CHECK(mts_labels_assume_unique(NULL, 2, counting_array(&destroyed)) == NULL);
    CHECK_INT_EQ(destroyed, 1);

    destroyed = 0;
    CHECK(mts_block(counting_array(&destroyed), NULL, NULL, 0, NULL) == NULL);
    CHECK_INT_EQ(destroyed, 1);

    destroyed = 0;
    CHECK(mts_tensormap_keys_to_properties(NULL, NULL, counting_array(&destroyed), true) == NULL);
    CHECK_INT_EQ(destroyed, 1);

    destroyed = 0;
    CHECK(mts_tensormap_keys_to_samples(NULL, NULL, counting_array(&destroyed), false) == NULL);
    CHECK_INT_EQ(destroyed, 1);
}

/* ------------------------------------------------------------------------ */
/* 4. the save_buffer functions with a NULL realloc callback                 */

/* An array of shape [0, 0] on CPU: enough to make labels with no dimensions
 * (the library only reads the shape, then destroys it) and an empty block. */
static const uintptr_t EMPTY_SHAPE[2] = {0, 0};

static mts_status_t empty_shape(const void *array, const uintptr_t **shape,
                                uintptr_t *shape_count) {
    (void)array;
    *shape = EMPTY_SHAPE;
    *shape_count = 2;
    return MTS_SUCCESS;
}

static mts_status_t cpu_device(const void *array, DLDevice *device) {
    (void)array;
    device->device_type = kDLCPU;
    device->device_id = 0;
    return MTS_SUCCESS;
}

static mts_array_t empty_2d_array(int *counter) {
    mts_array_t array = counting_array(counter);
    array.shape = empty_shape;
    array.device = cpu_device;
    return array;
}

/*
 * With a valid object and valid buffer pointers, a NULL realloc callback is
 * reported as "realloc callback can not be NULL in mts_<kind>_save_buffer".
 *
 * The objects can only be made where mts_labels, mts_block and mts_tensormap
 * work; where they do not (yet), the checks needing them are skipped, and
 * nothing about the creation itself is asserted.
 */
static void test_save_buffer_null_realloc(void) {
    uint8_t *buffer = NULL;
    uintptr_t buffer_count = 0;
    int destroyed = 0;

    const mts_labels_t *labels = mts_labels(NULL, 0, empty_2d_array(&destroyed));
    const mts_labels_t *properties = mts_labels(NULL, 0, empty_2d_array(&destroyed));
    mts_block_t *block = NULL;
    mts_tensormap_t *tensor = NULL;
    if (labels != NULL && properties != NULL) {
        block = mts_block(empty_2d_array(&destroyed), labels, NULL, 0, properties);
        tensor = mts_tensormap(labels, NULL, 0);
    }

    /* the labels, the block, then the tensor map */
    const struct {
        const void *object;
        const char *function, *message, *missing;
    } kinds[] = {
        {labels, "mts_labels_save_buffer",
         "invalid parameter: realloc callback can not be NULL in mts_labels_save_buffer",
         "mts_labels failed"},
        {block, "mts_block_save_buffer",
         "invalid parameter: realloc callback can not be NULL in mts_block_save_buffer",
         "no block"},
        {tensor, "mts_tensormap_save_buffer",
         "invalid parameter: realloc callback can not be NULL in mts_tensormap_save_buffer",
         "no tensor map"},
    };
    for (int kind = 0; kind < 3; kind++) {
        if (kinds[kind].object == NULL) {
            printf("skipped %s with a NULL realloc: %s\n", kinds[kind].function,
                   kinds[kind].missing);
            continue;
        }
        CHECK_STATUS_MESSAGE(
            kind == 0   ? mts_labels_save_buffer(&buffer, &buffer_count, NULL, NULL, labels)
            : kind == 1 ? mts_block_save_buffer(&buffer, &buffer_count, NULL, NULL, block)
                        : mts_tensormap_save_buffer(&buffer, &buffer_count, NULL, NULL, tensor),
            kinds[kind].message);
    }

    CHECK(buffer == NULL);
    CHECK_INT_EQ(buffer_count, 0);

    mts_tensormap_free(tensor);
    mts_block_free(block);
    mts_labels_free(properties);
    mts_labels_free(labels);
}

int main(void) {
    mts_disable_panic_printing();

    test_labels_functions();
    test_data_origin_functions();
    test_block_functions();
    test_tensormap_functions();
    test_io_functions();
    test_free_null();
    test_ownership_on_argument_errors();
    test_save_buffer_null_realloc();

    mts_set_last_error(NULL, NULL, NULL, NULL);
    return check_summary();
}
