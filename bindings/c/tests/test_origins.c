/*
 * Tests of the global data-origin registry: mts_register_data_origin and
 * mts_get_data_origin.
 *
 * The registry is global to the process and never shrinks, so every name used
 * here starts with "test_origins." to stay apart from anything else.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#include "check.h"

static int DATA_MARKER = 42;
static atomic_int marker_deleter_calls = 0;
static void marker_deleter(void *data) {
    (void)data;
    atomic_fetch_add(&marker_deleter_calls, 1);
}

static void test_register_same_name(void) {
    mts_data_origin_t first = 1234, second = 5678;
    CHECK_STATUS(mts_register_data_origin("test_origins.alpha", &first), MTS_SUCCESS);
    CHECK_STATUS(mts_register_data_origin("test_origins.alpha", &second), MTS_SUCCESS);
    CHECK(first == second);
    CHECK(first != 0);

    /* a copy of the name in a different buffer is the same name */
    char copy[] = "test_origins.alpha";
    mts_data_origin_t third = 0;
    CHECK_STATUS(mts_register_data_origin(copy, &third), MTS_SUCCESS);
    CHECK(third == first);
}

static void test_register_different_names(void) {
    mts_data_origin_t alpha = 0, beta = 0, gamma = 0;
    CHECK_STATUS(mts_register_data_origin("test_origins.alpha", &alpha), MTS_SUCCESS);
    CHECK_STATUS(mts_register_data_origin("test_origins.beta", &beta), MTS_SUCCESS);
    CHECK_STATUS(mts_register_data_origin("test_origins.gamma", &gamma), MTS_SUCCESS);
    CHECK(alpha != beta);
    CHECK(beta != gamma);
    CHECK(alpha != gamma);
    CHECK(alpha != 0 && beta != 0 && gamma != 0);

    /* names are compared exactly (case and trailing spaces matter) */
    mts_data_origin_t upper = 0, spaced = 0;
    CHECK_STATUS(mts_register_data_origin("TEST_ORIGINS.ALPHA", &upper), MTS_SUCCESS);
    CHECK_STATUS(mts_register_data_origin("test_origins.alpha ", &spaced), MTS_SUCCESS);
    CHECK(upper != alpha);
    CHECK(spaced != alpha);
    CHECK(upper != spaced);
}

static void test_unregistered_origin(void) {
    mts_data_origin_t origin = 1234;
    CHECK_STATUS(mts_register_data_origin("unregistered origin", &origin), MTS_SUCCESS);
    CHECK_INT_EQ(origin, 0);
    origin = 1234;
    CHECK_STATUS(mts_register_data_origin("unregistered origin", &origin), MTS_SUCCESS);
    CHECK_INT_EQ(origin, 0);

    char buffer[64];
    CHECK_STATUS(mts_get_data_origin(0, buffer, sizeof(buffer)), MTS_SUCCESS);
    CHECK_STR_EQ(buffer, "unregistered origin");
}

static void test_get_registered_name(void) {
    const char *names[] = {
        "test_origins.get",
        "test_origins.with space",
        "test_origins.utf8-\xc3\xa9\xe2\x82\xac", /* "é€" */
        "x",
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        mts_data_origin_t origin = 0;
        CHECK_STATUS(mts_register_data_origin(names[i], &origin), MTS_SUCCESS);
        char buffer[128];
        memset(buffer, 'Z', sizeof(buffer));
        CHECK_STATUS(mts_get_data_origin(origin, buffer, sizeof(buffer)), MTS_SUCCESS);
        CHECK_STR_EQ(buffer, names[i]);
    }
}

static void test_unknown_id(void) {
    /* an unknown id is not an error, and does not touch the error record */
    atomic_store(&marker_deleter_calls, 0);
    CHECK_STATUS(mts_set_last_error("marker", "test_origins", &DATA_MARKER, marker_deleter),
                 MTS_SUCCESS);

    const mts_data_origin_t unknown[] = {UINT64_MAX, UINT64_MAX - 1, (mts_data_origin_t)1 << 40,
                                         1000000};
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
        char buffer[64];
        memset(buffer, 'Z', sizeof(buffer));
        CHECK_STATUS(mts_get_data_origin(unknown[i], buffer, sizeof(buffer)), MTS_SUCCESS);
        CHECK_STR_EQ(buffer, "unregistered origin");
    }

    const char *message = NULL;
    void *data = NULL;
    CHECK_STATUS(mts_last_error(&message, NULL, &data), MTS_SUCCESS);
    CHECK_STR_EQ(message, "marker");
    CHECK(data == &DATA_MARKER);
    CHECK_INT_EQ(atomic_load(&marker_deleter_calls), 0);

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&marker_deleter_calls), 1);
}

static void check_buffer_sizes(const char *name) {
    mts_data_origin_t origin = 0;
    CHECK_STATUS(mts_register_data_origin(name, &origin), MTS_SUCCESS);
    size_t len = strlen(name); /* in bytes */

    char buffer[256];
    char expected[256];

    /* too small by one */
    memset(buffer, 'Z', sizeof(buffer));
    CHECK_STATUS(mts_get_data_origin(origin, buffer, len), MTS_BUFFER_SIZE_ERROR);
    snprintf(expected, sizeof(expected),
             "buffer is not big enough: got space for %zu characters, but we need to write %zu",
             len - 1, len);
    CHECK_CORE_RECORD(expected);
    /* nothing written past the given size */
    CHECK(buffer[len] == 'Z');

    /* far too small */
    CHECK_STATUS(mts_get_data_origin(origin, buffer, 1), MTS_BUFFER_SIZE_ERROR);
    snprintf(expected, sizeof(expected),
             "buffer is not big enough: got space for 0 characters, but we need to write %zu",
             len);
    const char *message = NULL;
    CHECK_STATUS(mts_last_error(&message, NULL, NULL), MTS_SUCCESS);
    CHECK_STR_EQ(message, expected);

    /* exactly len + 1 works, and writes nothing past the NUL terminator */
    memset(buffer, 'Z', sizeof(buffer));
    CHECK_STATUS(mts_get_data_origin(origin, buffer, len + 1), MTS_SUCCESS);
    CHECK_STR_EQ(buffer, name);
    CHECK(buffer[len] == '\0');
    CHECK(buffer[len + 1] == 'Z');

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

static void test_buffer_size(void) {
    check_buffer_sizes("test_origins.buffer-size");
    check_buffer_sizes("unregistered origin");
    /* the sizes are counted in bytes, not in characters */
    check_buffer_sizes("test_origins.\xc3\xa9t\xc3\xa9"); /* "été" */

    /* a single character name: too small by one is a buffer of size 1 */
    mts_data_origin_t origin = 0;
    CHECK_STATUS(mts_register_data_origin("y", &origin), MTS_SUCCESS);
    char buffer[4];
    CHECK_STATUS(mts_get_data_origin(origin, buffer, 1), MTS_BUFFER_SIZE_ERROR);
    const char *message = NULL;
    CHECK_STATUS(mts_last_error(&message, NULL, NULL), MTS_SUCCESS);
    CHECK_STR_EQ(message,
                 "buffer is not big enough: got space for 0 characters, but we need to write 1");
    CHECK_STATUS(mts_get_data_origin(origin, buffer, 2), MTS_SUCCESS);
    CHECK_STR_EQ(buffer, "y");

    /*
     * buffer_size == 0 with a non-NULL buffer is NOT tested: the reference
     * computes `buffer_size - 1` with wrapping arithmetic, believes it has
     * unlimited space, returns MTS_SUCCESS and writes the whole name plus a
     * NUL terminator past the end of the (zero-sized) buffer. That is a
     * buffer overflow, i.e. undefined behaviour, so there is nothing to
     * compare with (we return status 4: docs/reference-behaviour.md#differences).
     */

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

static void test_null_pointers(void) {
    const char *prefix = "invalid parameter: got invalid NULL pointer for ";
    char expected[128];
    const char *message = NULL, *error_origin = NULL;

    /* NULL buffer, with a non-zero and a zero size: the NULL check comes first */
    CHECK_STATUS(mts_get_data_origin(0, NULL, 64), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STATUS(mts_last_error(&message, &error_origin, NULL), MTS_SUCCESS);
    snprintf(expected, sizeof(expected), "%sbuffer", prefix);
    CHECK_STR_PREFIX(message, expected);
    CHECK_STR_EQ(error_origin, "metatensor-core");

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_STATUS(mts_get_data_origin(0, NULL, 0), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STATUS(mts_last_error(&message, NULL, NULL), MTS_SUCCESS);
    CHECK_STR_PREFIX(message, expected);

    /* NULL name */
    mts_data_origin_t origin = 1234;
    CHECK_STATUS(mts_register_data_origin(NULL, &origin), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STATUS(mts_last_error(&message, &error_origin, NULL), MTS_SUCCESS);
    snprintf(expected, sizeof(expected), "%sname", prefix);
    CHECK_STR_PREFIX(message, expected);
    CHECK_STR_EQ(error_origin, "metatensor-core");

    /* NULL origin out-pointer */
    CHECK_STATUS(mts_register_data_origin("test_origins.null-out", NULL),
                 MTS_INVALID_PARAMETER_ERROR);
    CHECK_STATUS(mts_last_error(&message, &error_origin, NULL), MTS_SUCCESS);
    snprintf(expected, sizeof(expected), "%sorigin", prefix);
    CHECK_STR_PREFIX(message, expected);
    CHECK_STR_EQ(error_origin, "metatensor-core");

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* concurrent registration                                                  */

#define N_THREADS 8
#define N_NAMES 50

static char concurrent_names[N_NAMES][64];
static pthread_barrier_t concurrent_barrier;

struct concurrent_args {
    int thread;
    mts_data_origin_t ids[N_NAMES];
    mts_status_t register_status[N_NAMES];
    mts_status_t get_status[N_NAMES];
    int name_matches[N_NAMES];
};

static void *concurrent_main(void *ptr) {
    struct concurrent_args *args = ptr;
    pthread_barrier_wait(&concurrent_barrier);

    /* each thread starts at a different name, and half go backwards */
    for (int k = 0; k < N_NAMES; k++) {
        int i = (args->thread * 7 + k) % N_NAMES;
        if (args->thread % 2 == 1) {
            i = N_NAMES - 1 - i;
        }
        args->register_status[i] = mts_register_data_origin(concurrent_names[i], &args->ids[i]);
    }

    /* read back while the other threads may still be registering */
    for (int i = 0; i < N_NAMES; i++) {
        char buffer[64];
        args->get_status[i] = mts_get_data_origin(args->ids[i], buffer, sizeof(buffer));
        args->name_matches[i] = args->get_status[i] == MTS_SUCCESS &&
                                strcmp(buffer, concurrent_names[i]) == 0;
    }
    return NULL;
}

static void test_concurrent_registration(void) {
    for (int i = 0; i < N_NAMES; i++) {
        snprintf(concurrent_names[i], sizeof(concurrent_names[i]), "test_origins.concurrent.%d",
                 i);
    }

    static struct concurrent_args args[N_THREADS];
    pthread_t threads[N_THREADS];
    CHECK_INT_EQ(pthread_barrier_init(&concurrent_barrier, NULL, N_THREADS), 0);
    for (int t = 0; t < N_THREADS; t++) {
        memset(&args[t], 0, sizeof(args[t]));
        args[t].thread = t;
        CHECK_INT_EQ(pthread_create(&threads[t], NULL, concurrent_main, &args[t]), 0);
    }
    for (int t = 0; t < N_THREADS; t++) {
        CHECK_INT_EQ(pthread_join(threads[t], NULL), 0);
    }
    pthread_barrier_destroy(&concurrent_barrier);

    int all_ok = 1;
    for (int t = 0; t < N_THREADS; t++) {
        for (int i = 0; i < N_NAMES; i++) {
            if (args[t].register_status[i] != MTS_SUCCESS || args[t].get_status[i] != MTS_SUCCESS ||
                !args[t].name_matches[i] || args[t].ids[i] != args[0].ids[i] ||
                args[t].ids[i] == 0) {
                fprintf(stderr, "thread %d, name %d: status %d/%d, id %llu vs %llu\n", t, i,
                        (int)args[t].register_status[i], (int)args[t].get_status[i],
                        (unsigned long long)args[t].ids[i], (unsigned long long)args[0].ids[i]);
                all_ok = 0;
            }
        }
    }
    CHECK(all_ok);

    /* every name got its own id */
    int distinct = 1;
    for (int i = 0; i < N_NAMES; i++) {
        for (int j = i + 1; j < N_NAMES; j++) {
            if (args[0].ids[i] == args[0].ids[j]) {
                distinct = 0;
            }
        }
    }
    CHECK(distinct);

    /* and registering again from this thread gives the same ids */
    int same_again = 1;
    for (int i = 0; i < N_NAMES; i++) {
        mts_data_origin_t id = 0;
        if (mts_register_data_origin(concurrent_names[i], &id) != MTS_SUCCESS ||
            id != args[0].ids[i]) {
            same_again = 0;
        }
    }
    CHECK(same_again);
}

int main(void) {
    test_register_same_name();
    test_register_different_names();
    test_unregistered_origin();
    test_get_registered_name();
    test_unknown_id();
    test_buffer_size();
    test_null_pointers();
    test_concurrent_registration();
    return check_summary();
}
