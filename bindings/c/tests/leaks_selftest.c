/*
 * Self-test of the leak checker that `make c-tests-leaks` runs the C tests under
 * (LeakSanitizer, see leaks.mk): it shows that a leak is reported, and so fails the run,
 * both when the test itself loses memory and when memory the library allocated is lost. Not
 * a test of the library.
 *
 * Usage: leaks_selftest clean|test-leak|library-leak
 *
 *   clean         uses labels built on a test array and an error carrying malloc'd data,
 *                 releasing everything: the leak checker must stay quiet (exit 0).
 *   test-leak     the same, then loses a malloc'd block in `lose_block_in_test`.
 *   library-leak  the same, then loses labels in `lose_labels`: the record and names the
 *                 library allocated for them leak. (Their test array does not show: the DLPack
 *                 export the labels keep is on test_array.h's graveyard, which points at it.)
 *
 * The lost pointers only ever live in the frames of non-inlined functions that have returned
 * before the process exits, so no stale copy on the main stack keeps them reachable.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#include "test_array.h"

static const char *const NAMES[2] = {"structure", "atom"};
static const int32_t VALUES[6] = {0, 1, 0, 2, 1, 0};

static const struct mts_labels_t *make_labels(void) {
    struct test_array *array = ta_new_i32(VALUES, 3, 2);
    if (array == NULL) {
        return NULL;
    }
    return mts_labels(NAMES, 2, ta_mts(array));
}

/* Returns 0 when the library did what it should, printing what went wrong otherwise. */
static int use_and_release_everything(void) {
    const struct mts_labels_t *labels = make_labels();
    if (labels == NULL) {
        const char *message = NULL;
        mts_last_error(&message, NULL, NULL);
        fprintf(stderr, "leaks_selftest: mts_labels failed: %s\n", message != NULL ? message : "?");
        return 1;
    }
    const struct mts_labels_t *clone = mts_labels_clone(labels);
    const int32_t *values = NULL;
    uintptr_t count = 0;
    uintptr_t size = 0;
    int failed = clone == NULL;
    failed |= mts_labels_values_cpu(labels, &values, &count, &size) != MTS_SUCCESS;
    failed |= count != 3 || size != 2 || values == NULL || memcmp(values, VALUES, sizeof(VALUES)) != 0;
    failed |= mts_labels_free(labels) != MTS_SUCCESS;
    failed |= clone != NULL && mts_labels_free(clone) != MTS_SUCCESS;

    /* the library owns the data of an error until the next one replaces it */
    void *data = malloc(32);
    failed |= mts_set_last_error("with data", "leaks_selftest", data, free) != MTS_SUCCESS;
    failed |= mts_set_last_error(NULL, NULL, NULL, NULL) != MTS_SUCCESS;

    /* every test array destroyed exactly once, every DLPack export deleted */
    failed |= ta_finish() != 0;
    if (failed) {
        fprintf(stderr, "leaks_selftest: the library misbehaved before any leak was made\n");
    }
    return failed;
}

__attribute__((noinline)) static void lose_block_in_test(void) {
    char *volatile block = malloc(48);
    if (block != NULL) {
        memset(block, 0x5a, 48);
    }
    block = NULL;
}

__attribute__((noinline)) static int lose_labels(void) {
    const struct mts_labels_t *volatile labels = make_labels();
    int made = labels != NULL;
    labels = NULL;
    return made;
}

int main(int argc, char **argv) {
    const char *mode = argc == 2 ? argv[1] : "";
    if (strcmp(mode, "clean") != 0 && strcmp(mode, "test-leak") != 0 &&
        strcmp(mode, "library-leak") != 0) {
        fprintf(stderr, "usage: %s clean|test-leak|library-leak\n", argv[0]);
        return 2;
    }
    if (use_and_release_everything() != 0) {
        return 1;
    }
    if (strcmp(mode, "test-leak") == 0) {
        lose_block_in_test();
    } else if (strcmp(mode, "library-leak") == 0) {
        if (!lose_labels()) {
            fprintf(stderr, "leaks_selftest: mts_labels failed\n");
            return 1;
        }
    }
    printf("leaks_selftest %s: done\n", mode);
    fflush(stdout);
    return 0;
}
