/*
 * Misuse of object pointers: used after free, freed twice, given where another
 * kind is expected, given away and used again, borrowed from a tensor map and
 * freed. The reference leaves all of these undefined (most crash it), so this
 * program runs against our library only: each is an invalid-parameter error
 * naming the argument, and nothing else is disturbed. Our pointers are handles
 * checked against a table (bindings/c/caller_handles.c), so these calls read
 * no freed memory: `make c-tests-valgrind` runs this program under valgrind.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test_helpers.h"


#define NOT_VALID(argument, kind) \
    INVALID "`" argument "` is not a valid " kind ": it was freed or given away, or points to something else"
#define HELD(argument) \
    INVALID "`" argument "` belongs to a tensor map or a block: it can not be freed or given away by itself"


/* a 2x1 block over fresh samples (named `samples_name`, entries 0 and 1) and properties, which
 * it holds alone */
static mts_block_t *new_block_named(const char *const *samples_name) {
    const mts_labels_t *samples = range(samples_name, 2);
    const mts_labels_t *properties = range(NAMES_P, 1);
    uintptr_t shape[] = {2, 1};
    mts_block_t *block = mts_block(ta_mts(ta_new(TA_FLOAT64, shape, 2, NULL)), samples, NULL, 0,
                                   properties);
    mts_labels_free(samples);
    mts_labels_free(properties);
    return block;
}

static mts_block_t *new_block(void) {
    return new_block_named(NAMES_S);
}

/* a tensor map of `count` (at most 4) blocks */
static mts_tensormap_t *new_tensor(uintptr_t count) {
    mts_block_t *blocks[4];
    for (uintptr_t i = 0; i < count; i++) {
        blocks[i] = new_block();
    }
    const mts_labels_t *keys = range(NAMES_K, count);
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, count);
    mts_labels_free(keys);
    return tensor;
}

static void test_used_after_free(void) {
    const mts_labels_t *labels = range(NAMES_S, 3);
    CHECK_STATUS(mts_labels_free(labels), MTS_SUCCESS);
    const char *const *names = NULL;
    uintptr_t count = 0;
    CHECK_ERROR(mts_labels_dimensions(labels, &names, &count), MTS_INVALID_PARAMETER_ERROR,
                NOT_VALID("labels", "labels"));
    CHECK_NULL_ERROR(mts_labels_clone(labels), NOT_VALID("labels", "labels"));

    mts_block_t *block = new_block();
    CHECK_STATUS(mts_block_free(block), MTS_SUCCESS);
    CHECK_NULL_ERROR(mts_block_labels(block, 0), NOT_VALID("block", "block"));

    mts_tensormap_t *tensor = new_tensor(2);
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    CHECK_NULL_ERROR(mts_tensormap_keys(tensor), NOT_VALID("tensor", "tensor map"));
}

static void test_freed_twice(void) {
    const mts_labels_t *labels = range(NAMES_S, 3);
    CHECK_STATUS(mts_labels_free(labels), MTS_SUCCESS);
    CHECK_ERROR(mts_labels_free(labels), MTS_INVALID_PARAMETER_ERROR, NOT_VALID("labels", "labels"));

    mts_block_t *block = new_block();
    CHECK_STATUS(mts_block_free(block), MTS_SUCCESS);
    CHECK_ERROR(mts_block_free(block), MTS_INVALID_PARAMETER_ERROR, NOT_VALID("block", "block"));

    mts_tensormap_t *tensor = new_tensor(1);
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    CHECK_ERROR(mts_tensormap_free(tensor), MTS_INVALID_PARAMETER_ERROR,
                NOT_VALID("tensor", "tensor map"));

    /* labels a block holds outlive the caller's reference, with the same
     * pointer: one free more than the references is refused */
    const mts_labels_t *samples = range(NAMES_S, 2);
    const mts_labels_t *properties = range(NAMES_P, 1);
    uintptr_t shape[] = {2, 1};
    block = mts_block(ta_mts(ta_new(TA_FLOAT64, shape, 2, NULL)), samples, NULL, 0, properties);
    CHECK(block != NULL);
    CHECK_STATUS(mts_labels_free(samples), MTS_SUCCESS);
    CHECK_ERROR(mts_labels_free(samples), MTS_INVALID_PARAMETER_ERROR,
                INVALID "`labels` was freed already");
    const mts_labels_t *again = mts_block_labels(block, 0);
    CHECK(again == samples);
    CHECK_STATUS(mts_labels_free(again), MTS_SUCCESS);
    CHECK_STATUS(mts_labels_free(properties), MTS_SUCCESS);
    CHECK_STATUS(mts_block_free(block), MTS_SUCCESS);

    /* the same for labels of a block Go holds, read in C once the block was read (its record
     * then holds a reference of its own, which no free of the caller's may drop), and for the
     * keys of a tensor map Go made */
    mts_tensormap_t *made = new_tensor(1);
    mts_tensormap_t *copy = mts_tensormap_copy(made);
    CHECK(copy != NULL);
    mts_block_t *held = NULL;
    CHECK_STATUS(mts_tensormap_block_by_id(copy, &held, 0), MTS_SUCCESS);
    for (int round = 0; round < 3; round++) {
        const mts_labels_t *read = mts_block_labels(held, 0);
        CHECK(read != NULL);
        CHECK_STATUS(mts_labels_free(read), MTS_SUCCESS);
        CHECK_ERROR(mts_labels_free(read), MTS_INVALID_PARAMETER_ERROR, INVALID "`labels` was freed already");
        const mts_labels_t *keys = mts_tensormap_keys(copy);
        CHECK(keys != NULL);
        CHECK_STATUS(mts_labels_free(keys), MTS_SUCCESS);
        CHECK_ERROR(mts_labels_free(keys), MTS_INVALID_PARAMETER_ERROR, INVALID "`labels` was freed already");
    }
    FREE_TENSORS(copy, made);
}

static void test_another_kind(void) {
    mts_block_t *block = new_block();
    const char *const *names = NULL;
    uintptr_t count = 0;
    CHECK_ERROR(mts_labels_dimensions((const mts_labels_t *)block, &names, &count),
                MTS_INVALID_PARAMETER_ERROR, NOT_VALID("labels", "labels"));
    CHECK_ERROR(mts_tensormap_free((mts_tensormap_t *)block), MTS_INVALID_PARAMETER_ERROR,
                NOT_VALID("tensor", "tensor map"));

    /* something that was never ours: a pointer to the stack, or a misaligned one */
    int64_t local[8] = {0};
    CHECK_NULL_ERROR(mts_block_labels((mts_block_t *)local, 0), NOT_VALID("block", "block"));
    CHECK_NULL_ERROR(mts_block_labels((mts_block_t *)((uintptr_t)block + 1), 0),
                     NOT_VALID("block", "block"));

    /* the block itself is untouched */
    const mts_labels_t *samples = mts_block_labels(block, 0);
    CHECK(samples != NULL);
    mts_labels_free(samples);
    CHECK_STATUS(mts_block_free(block), MTS_SUCCESS);
}

static void test_given_away(void) {
    mts_block_t *blocks[2] = {new_block(), new_block()};
    mts_block_t *first = blocks[0];
    const mts_labels_t *keys = range(NAMES_K, 2);
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    CHECK(blocks[0] == NULL && blocks[1] == NULL);
    /* the map owns the block now: the caller's pointer is no longer a block */
    CHECK_ERROR(mts_block_free(first), MTS_INVALID_PARAMETER_ERROR, NOT_VALID("block", "block"));
    CHECK_NULL_ERROR(mts_block_labels(first, 0), NOT_VALID("block", "block"));

    /* a stale entry of the blocks array is named by its index; nothing is taken */
    mts_block_t *fresh = new_block();
    mts_block_t *again[2] = {fresh, first};
    CHECK_NULL_ERROR(mts_tensormap(keys, again, 2), NOT_VALID("blocks[1]", "block"));
    CHECK(again[0] == fresh);

    /* a gradient given to a block belongs to it: only mts_block_gradient lends it */
    mts_block_t *gradient = new_block_named(NAMES_SAMPLE);
    mts_block_t *parent = new_block();
    CHECK_STATUS(mts_block_add_gradient(parent, "g", gradient), MTS_SUCCESS);
    CHECK_ERROR(mts_block_free(gradient), MTS_INVALID_PARAMETER_ERROR, NOT_VALID("block", "block"));
    mts_block_t *lent = NULL;
    CHECK_STATUS(mts_block_gradient(parent, "g", &lent), MTS_SUCCESS);
    CHECK(lent != NULL && lent != gradient);
    CHECK_ERROR(mts_block_free(lent), MTS_INVALID_PARAMETER_ERROR, HELD("block"));

    CHECK_STATUS(mts_block_free(parent), MTS_SUCCESS);
    CHECK_STATUS(mts_block_free(fresh), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    mts_labels_free(keys);
}

static void test_borrowed_block(void) {
    mts_tensormap_t *tensor = new_tensor(2);
    mts_block_t *borrowed = block_at(tensor, 1);
    CHECK(borrowed != NULL);
    CHECK_ERROR(mts_block_free(borrowed), MTS_INVALID_PARAMETER_ERROR, HELD("block"));

    /* nor can it be given to another map or block */
    const mts_labels_t *keys = range(NAMES_K, 1);
    mts_block_t *blocks[1] = {borrowed};
    CHECK_NULL_ERROR(mts_tensormap(keys, blocks, 1), HELD("blocks[0]"));
    CHECK(blocks[0] == borrowed);
    mts_block_t *parent = new_block();
    CHECK_ERROR(mts_block_add_gradient(parent, "g", borrowed), MTS_INVALID_PARAMETER_ERROR,
                HELD("gradient"));
    CHECK_STATUS(mts_block_free(parent), MTS_SUCCESS);
    mts_labels_free(keys);

    /* the map is intact, and its blocks go with it */
    CHECK(block_at(tensor, 1) == borrowed);
    const mts_labels_t *samples = mts_block_labels(borrowed, 0);
    CHECK(samples != NULL);
    mts_labels_free(samples);
    CHECK_STATUS(mts_tensormap_free(tensor), MTS_SUCCESS);
    CHECK_NULL_ERROR(mts_block_labels(borrowed, 0), NOT_VALID("block", "block"));
}

int main(void) {
    test_used_after_free();
    test_freed_twice();
    test_another_kind();
    test_given_away();
    test_borrowed_block();
    CHECK_NOTHING_LEAKED();
    return check_summary();
}
