/*
 * Loaders given a create_array callback that reports success but fills nothing: the
 * caller's mistake, reported as an invalid parameter. Ours only: the reference is not run on
 * it, it has no such check.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "test_helpers.h"

#define EMPTY_CREATED INVALID "create_array returned success but left the mts_array_t empty (every member NULL)"

static int create_nothing_calls = 0;

static mts_status_t create_nothing(const uintptr_t *shape, uintptr_t shape_count, DLDataType dtype,
                                   mts_array_t *array) {
    (void)shape;
    (void)shape_count;
    (void)dtype;
    (void)array;
    create_nothing_calls++;
    return MTS_SUCCESS;
}

static uint8_t *grow(void *user_data, uint8_t *ptr, uintptr_t new_size) {
    (void)user_data;
    return realloc(ptr, new_size);
}

static void test_empty_created_array(void) {
    static const char *const SAMPLE[] = {"sample"};
    static const char *const PROPERTY[] = {"property"};
    /* with values and without: an empty array is refused before anything is read into it */
    for (uintptr_t samples_count = 0; samples_count < 3; samples_count += 2) {
        const uintptr_t shape[] = {samples_count, 1};
        const mts_labels_t *samples = range(SAMPLE, samples_count);
        const mts_labels_t *properties = range(PROPERTY, 1);
        mts_block_t *block = mts_block(ta_mts(ta_new_f64_filled(shape, 2, 1.0)), samples, NULL, 0, properties);
        CHECK(block != NULL);
        mts_labels_free(samples);
        mts_labels_free(properties);

        uint8_t *buffer = NULL;
        uintptr_t count = 0;
        CHECK_STATUS(mts_block_save_buffer(&buffer, &count, NULL, grow, block), MTS_SUCCESS);
        mts_block_free(block);

        create_nothing_calls = 0;
#ifndef MTS_TEST_REFERENCE
        CHECK_NULL_ERROR(mts_block_load_buffer(buffer, count, create_nothing), EMPTY_CREATED);
        CHECK_INT_EQ(create_nothing_calls, 1);
#else
        (void)create_nothing;
#endif
        free(buffer);
    }
}

int main(void) {
    test_empty_created_array();
    CHECK_NOTHING_LEAKED();
    return check_summary();
}
