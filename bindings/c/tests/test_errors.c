/*
 * Tests of the per-thread error record: mts_last_error / mts_set_last_error,
 * and how library errors replace the record.
 *
 * Deleter calls are counted by `counting_deleter`, which records how many
 * times it ran and the last pointer it got. The data pointers given to
 * mts_set_last_error point to static objects, so nothing leaks whether or not
 * a deleter runs.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <metatensor.h>

#include "check.h"

/* ------------------------------------------------------------------------ */
/* deleters that count their calls                                          */

static atomic_int deleter_calls = 0;
static void *_Atomic deleter_last = NULL;

static void counting_deleter(void *data) {
    atomic_fetch_add(&deleter_calls, 1);
    atomic_store(&deleter_last, data);
}

/* a second deleter, to check that the deleter stored with a record is used */
static atomic_int other_deleter_calls = 0;
static void *_Atomic other_deleter_last = NULL;

static void other_deleter(void *data) {
    atomic_fetch_add(&other_deleter_calls, 1);
    atomic_store(&other_deleter_last, data);
}

static void reset_deleter_counts(void) {
    atomic_store(&deleter_calls, 0);
    atomic_store(&deleter_last, NULL);
    atomic_store(&other_deleter_calls, 0);
    atomic_store(&other_deleter_last, NULL);
}

/* static objects used as custom error data */
static int DATA_A = 1;
static int DATA_B = 2;
static int DATA_C = 3;

/* Read the whole record of the current thread. */
struct record {
    mts_status_t status;
    const char *message;
    const char *origin;
    void *data;
};

static struct record read_record(void) {
    struct record r;
    r.message = NULL;
    r.origin = NULL;
    r.data = (void *)&r; /* something that is not NULL */
    r.status = mts_last_error(&r.message, &r.origin, &r.data);
    return r;
}

/* Check that `message` is "invalid parameter: got invalid NULL pointer for
 * <param>" followed by the end of the string or a space (the reference goes on
 * with " at <file>:<line>", which depends on the build and is not matched). */
static void check_null_pointer_message(const char *message, const char *param, int line) {
    const char *prefix = "invalid parameter: got invalid NULL pointer for ";
    char expected[256];
    snprintf(expected, sizeof(expected), "%s%s", prefix, param);

    int ok = message != NULL && strncmp(message, expected, strlen(expected)) == 0;
    if (ok) {
        char next = message[strlen(expected)];
        ok = (next == '\0' || next == ' ');
    }
    if (!ok) {
        fprintf(stderr, "(called from test_errors.c:%d) expected a NULL pointer message for '%s'\n",
                line, param);
    }
    CHECK(ok);
}

/* ------------------------------------------------------------------------ */
/* initial state                                                            */

static void check_initial_record(void) {
    struct record r = read_record();
    CHECK_STATUS(r.status, MTS_SUCCESS);
    CHECK_STR_EQ(r.message, "");
    CHECK_STR_EQ(r.origin, "");
    CHECK(r.data == NULL);
}

static void *fresh_thread_main(void *arg) {
    (void)arg;
    check_initial_record();
    return NULL;
}

static void test_initial_state_fresh_thread(void) {
    pthread_t thread;
    CHECK_INT_EQ(pthread_create(&thread, NULL, fresh_thread_main, NULL), 0);
    CHECK_INT_EQ(pthread_join(thread, NULL), 0);
}

/* ------------------------------------------------------------------------ */
/* mts_last_error out-pointers                                              */

static void test_null_out_pointers(void) {
    CHECK_STATUS(mts_set_last_error("the message", "the origin", &DATA_A, NULL), MTS_SUCCESS);

    /* every combination of NULL / non-NULL out pointers */
    for (int mask = 0; mask < 8; mask++) {
        const char *message = "untouched";
        const char *origin = "untouched";
        void *data = &DATA_C;

        CHECK_STATUS(mts_last_error((mask & 1) ? &message : NULL, (mask & 2) ? &origin : NULL,
                                    (mask & 4) ? &data : NULL),
                     MTS_SUCCESS);

        CHECK_STR_EQ(message, (mask & 1) ? "the message" : "untouched");
        CHECK_STR_EQ(origin, (mask & 2) ? "the origin" : "untouched");
        CHECK(data == ((mask & 4) ? (void *)&DATA_A : (void *)&DATA_C));
    }

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* mts_set_last_error                                                       */

static void test_set_last_error_copies(void) {
    char message[] = "a message set by the test";
    char origin[] = "test-origin";

    CHECK_STATUS(mts_set_last_error(message, origin, &DATA_A, NULL), MTS_SUCCESS);

    /* change the caller's buffers: the stored record must not change */
    memset(message, 'X', sizeof(message) - 1);
    memset(origin, 'Y', sizeof(origin) - 1);

    struct record r = read_record();
    CHECK_STATUS(r.status, MTS_SUCCESS);
    CHECK_STR_EQ(r.message, "a message set by the test");
    CHECK_STR_EQ(r.origin, "test-origin");
    CHECK(r.message != message);
    CHECK(r.origin != origin);
    CHECK(r.data == &DATA_A);

    /* the strings are stable while the record is not replaced */
    struct record again = read_record();
    CHECK(again.message == r.message);
    CHECK(again.origin == r.origin);
    CHECK(again.data == r.data);

    /* empty strings are kept as empty strings */
    CHECK_STATUS(mts_set_last_error("", "", NULL, NULL), MTS_SUCCESS);
    r = read_record();
    CHECK_STR_EQ(r.message, "");
    CHECK_STR_EQ(r.origin, "");
    CHECK(r.data == NULL);

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

static void test_set_last_error_defaults(void) {
    CHECK_STATUS(mts_set_last_error(NULL, "some origin", NULL, NULL), MTS_SUCCESS);
    struct record r = read_record();
    CHECK_STR_EQ(r.message, "<no message provided>");
    CHECK_STR_EQ(r.origin, "some origin");
    CHECK(r.data == NULL);

    CHECK_STATUS(mts_set_last_error("some message", NULL, NULL, NULL), MTS_SUCCESS);
    r = read_record();
    CHECK_STR_EQ(r.message, "some message");
    CHECK_STR_EQ(r.origin, "<no origin provided>");
    CHECK(r.data == NULL);

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    r = read_record();
    CHECK_STR_EQ(r.message, "<no message provided>");
    CHECK_STR_EQ(r.origin, "<no origin provided>");
    CHECK(r.data == NULL);
}

static void test_deleter_called_on_replace(void) {
    reset_deleter_counts();

    CHECK_STATUS(mts_set_last_error("first", "test", &DATA_A, counting_deleter), MTS_SUCCESS);
    /* storing does not call the deleter */
    CHECK_INT_EQ(atomic_load(&deleter_calls), 0);

    /* reading does not call the deleter */
    struct record r = read_record();
    CHECK(r.data == &DATA_A);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 0);

    /* replacing calls the old deleter once, with the old data */
    CHECK_STATUS(mts_set_last_error("second", "test", &DATA_B, counting_deleter), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);
    CHECK(atomic_load(&deleter_last) == &DATA_A);
    r = read_record();
    CHECK_STR_EQ(r.message, "second");
    CHECK(r.data == &DATA_B);

    /* mts_set_last_error(NULL, NULL, NULL, NULL) releases the stored data */
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 2);
    CHECK(atomic_load(&deleter_last) == &DATA_B);
    r = read_record();
    CHECK(r.data == NULL);

    /* the record now has no deleter: replacing it again calls nothing */
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_STATUS(mts_set_last_error("third", "test", &DATA_C, NULL), MTS_SUCCESS);
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 2);
}

static void test_deleter_belongs_to_record(void) {
    reset_deleter_counts();

    /* the deleter given with a record is the one used for that record's data */
    CHECK_STATUS(mts_set_last_error("a", "test", &DATA_A, other_deleter), MTS_SUCCESS);
    CHECK_STATUS(mts_set_last_error("b", "test", &DATA_B, counting_deleter), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&other_deleter_calls), 1);
    CHECK(atomic_load(&other_deleter_last) == &DATA_A);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 0);

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&other_deleter_calls), 1);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);
    CHECK(atomic_load(&deleter_last) == &DATA_B);

    /* re-setting the same pointer still runs the deleter on the old record */
    reset_deleter_counts();
    CHECK_STATUS(mts_set_last_error("same", "test", &DATA_C, counting_deleter), MTS_SUCCESS);
    CHECK_STATUS(mts_set_last_error("same again", "test", &DATA_C, counting_deleter),
                 MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);
    CHECK(atomic_load(&deleter_last) == &DATA_C);
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 2);

    /* a deleter given with NULL data is still called (with NULL) on replace */
    reset_deleter_counts();
    atomic_store(&deleter_last, (void *)&DATA_A);
    CHECK_STATUS(mts_set_last_error("null data", "test", NULL, counting_deleter), MTS_SUCCESS);
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);
    CHECK(atomic_load(&deleter_last) == NULL);
}

/* ------------------------------------------------------------------------ */
/* successful calls do not clear the error                                  */

static void test_success_keeps_error(void) {
    reset_deleter_counts();
    CHECK_STATUS(mts_set_last_error("keep me", "test_errors", &DATA_A, counting_deleter),
                 MTS_SUCCESS);

    mts_data_origin_t origin = 0;
    CHECK_STATUS(mts_register_data_origin("test_errors.success", &origin), MTS_SUCCESS);
    char buffer[64];
    CHECK_STATUS(mts_get_data_origin(origin, buffer, sizeof(buffer)), MTS_SUCCESS);
    CHECK_STR_EQ(buffer, "test_errors.success");
    CHECK(mts_version() != NULL);
    CHECK_STATUS(mts_last_error(NULL, NULL, NULL), MTS_SUCCESS);

    struct record r = read_record();
    CHECK_STR_EQ(r.message, "keep me");
    CHECK_STR_EQ(r.origin, "test_errors");
    CHECK(r.data == &DATA_A);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 0);

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);
}

/* ------------------------------------------------------------------------ */
/* errors are per thread                                                    */

static pthread_barrier_t per_thread_barrier;

struct per_thread_args {
    const char *message;
    const char *origin;
    void *data;
    /* results, checked by the main thread */
    mts_status_t set_status;
    struct record seen;
    char seen_message[64];
    char seen_origin[64];
};

static void *per_thread_main(void *ptr) {
    struct per_thread_args *args = ptr;
    args->set_status = mts_set_last_error(args->message, args->origin, args->data, NULL);
    /* wait until both threads have set their error before reading */
    pthread_barrier_wait(&per_thread_barrier);
    args->seen = read_record();
    snprintf(args->seen_message, sizeof(args->seen_message), "%s",
             args->seen.message ? args->seen.message : "<NULL>");
    snprintf(args->seen_origin, sizeof(args->seen_origin), "%s",
             args->seen.origin ? args->seen.origin : "<NULL>");
    /* leave both threads' records alive until both have read */
    pthread_barrier_wait(&per_thread_barrier);
    return NULL;
}

static void test_errors_are_per_thread(void) {
    CHECK_STATUS(mts_set_last_error("main", "main-origin", &DATA_C, NULL), MTS_SUCCESS);

    CHECK_INT_EQ(pthread_barrier_init(&per_thread_barrier, NULL, 2), 0);
    struct per_thread_args a = {.message = "a", .origin = "origin-a", .data = &DATA_A};
    struct per_thread_args b = {.message = "b", .origin = "origin-b", .data = &DATA_B};

    pthread_t ta, tb;
    CHECK_INT_EQ(pthread_create(&ta, NULL, per_thread_main, &a), 0);
    CHECK_INT_EQ(pthread_create(&tb, NULL, per_thread_main, &b), 0);
    CHECK_INT_EQ(pthread_join(ta, NULL), 0);
    CHECK_INT_EQ(pthread_join(tb, NULL), 0);
    pthread_barrier_destroy(&per_thread_barrier);

    CHECK_STATUS(a.set_status, MTS_SUCCESS);
    CHECK_STATUS(a.seen.status, MTS_SUCCESS);
    CHECK_STR_EQ(a.seen_message, "a");
    CHECK_STR_EQ(a.seen_origin, "origin-a");
    CHECK(a.seen.data == &DATA_A);

    CHECK_STATUS(b.set_status, MTS_SUCCESS);
    CHECK_STATUS(b.seen.status, MTS_SUCCESS);
    CHECK_STR_EQ(b.seen_message, "b");
    CHECK_STR_EQ(b.seen_origin, "origin-b");
    CHECK(b.seen.data == &DATA_B);

    /* a new thread sees an empty record */
    test_initial_state_fresh_thread();

    /* the main thread's record was not touched by the other threads */
    struct record r = read_record();
    CHECK_STR_EQ(r.message, "main");
    CHECK_STR_EQ(r.origin, "main-origin");
    CHECK(r.data == &DATA_C);

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* the deleter is not called at thread exit                                 */

/*
 * How this is checked: a thread stores an error whose data has
 * `counting_deleter`, then returns without replacing it. pthread_join only
 * returns once the thread has fully terminated, i.e. after its thread-local
 * destructors (where a deleter call at thread exit would happen) have run.
 * The counter must still be 0 after the join. The data is a static object,
 * so not calling the deleter leaks nothing.
 */
static void *thread_exit_main(void *arg) {
    (void)arg;
    mts_status_t *status = malloc(sizeof(mts_status_t));
    if (status != NULL) {
        *status = mts_set_last_error("left behind", "test", &DATA_B, counting_deleter);
    }
    return status;
}

/* `main` runs on a new thread and gives an allocated status, `expected`:
 * 4 checks */
static void check_thread_status_(void *(*main)(void *), mts_status_t expected, int line) {
    pthread_t thread;
    void *result = NULL;
    check_int_eq_(pthread_create(&thread, NULL, main, NULL), 0, "pthread_create", "0",
                  "CHECK_INT_EQ", __FILE__, line);
    check_int_eq_(pthread_join(thread, &result), 0, "pthread_join", "0", "CHECK_INT_EQ",
                  __FILE__, line);
    check_record_(result != NULL, __FILE__, line, "result != NULL");
    if (result != NULL) {
        check_int_eq_(*(mts_status_t *)result, expected, "the thread's status", "expected",
                      "CHECK_STATUS", __FILE__, line);
        free(result);
    }
}
#define CHECK_THREAD_STATUS(main, expected) check_thread_status_((main), (expected), __LINE__)

static void test_no_deleter_at_thread_exit(void) {
    reset_deleter_counts();

    CHECK_THREAD_STATUS(thread_exit_main, MTS_SUCCESS);

    CHECK_INT_EQ(atomic_load(&deleter_calls), 0);
    CHECK(atomic_load(&deleter_last) == NULL);

    /* the main thread's record is unaffected */
    struct record r = read_record();
    CHECK(r.data == NULL);
}

/* ------------------------------------------------------------------------ */
/* library errors                                                           */

static void test_library_null_pointer_error(void) {
    reset_deleter_counts();
    CHECK_STATUS(mts_set_last_error("old", "test", &DATA_A, counting_deleter), MTS_SUCCESS);

    mts_data_origin_t origin = 0;
    CHECK_STATUS(mts_register_data_origin(NULL, &origin), MTS_INVALID_PARAMETER_ERROR);

    /* the old deleter ran exactly once, with the old data */
    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);
    CHECK(atomic_load(&deleter_last) == &DATA_A);

    struct record r = read_record();
    CHECK_STATUS(r.status, MTS_SUCCESS);
    CHECK_STR_EQ(r.origin, "metatensor-core");
    CHECK(r.data == NULL);
    CHECK_STR_PREFIX(r.message, "invalid parameter: ");
    check_null_pointer_message(r.message, "name", __LINE__);

    /* a library error has no deleter: replacing it calls nothing */
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);

    /* other NULL parameters name themselves */
    CHECK_STATUS(mts_register_data_origin("test_errors.null-out", NULL),
                 MTS_INVALID_PARAMETER_ERROR);
    r = read_record();
    CHECK_STR_EQ(r.origin, "metatensor-core");
    CHECK(r.data == NULL);
    check_null_pointer_message(r.message, "origin", __LINE__);

    CHECK_STATUS(mts_get_data_origin(0, NULL, 64), MTS_INVALID_PARAMETER_ERROR);
    r = read_record();
    CHECK_STR_EQ(r.origin, "metatensor-core");
    CHECK(r.data == NULL);
    check_null_pointer_message(r.message, "buffer", __LINE__);

    /* a library error replaces another library error */
    CHECK_STATUS(mts_register_data_origin(NULL, &origin), MTS_INVALID_PARAMETER_ERROR);
    r = read_record();
    check_null_pointer_message(r.message, "name", __LINE__);

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

static void test_library_buffer_size_error(void) {
    reset_deleter_counts();
    CHECK_STATUS(mts_set_last_error("old", "test", &DATA_B, counting_deleter), MTS_SUCCESS);

    /* origin 0 is "unregistered origin" (19 characters) */
    char buffer[5];
    CHECK_STATUS(mts_get_data_origin(0, buffer, sizeof(buffer)), MTS_BUFFER_SIZE_ERROR);

    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);
    CHECK(atomic_load(&deleter_last) == &DATA_B);

    struct record r = read_record();
    CHECK_STR_EQ(r.origin, "metatensor-core");
    CHECK(r.data == NULL);
    CHECK_STR_PREFIX(r.message, "buffer is not big enough: ");

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
    CHECK_INT_EQ(atomic_load(&deleter_calls), 1);
}

static void *library_error_thread_main(void *arg) {
    (void)arg;
    mts_data_origin_t origin = 0;
    mts_status_t *status = malloc(sizeof(mts_status_t));
    if (status != NULL) {
        *status = mts_register_data_origin(NULL, &origin);
    }
    return status;
}

static void test_library_error_is_per_thread(void) {
    CHECK_STATUS(mts_set_last_error("main thread", "test", NULL, NULL), MTS_SUCCESS);

    CHECK_THREAD_STATUS(library_error_thread_main, MTS_INVALID_PARAMETER_ERROR);

    struct record r = read_record();
    CHECK_STR_EQ(r.message, "main thread");
    CHECK_STR_EQ(r.origin, "test");

    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

int main(void) {
    /* must come first: nothing has touched this thread's record yet */
    check_initial_record();
    test_initial_state_fresh_thread();

    test_null_out_pointers();
    test_set_last_error_copies();
    test_set_last_error_defaults();
    test_deleter_called_on_replace();
    test_deleter_belongs_to_record();
    test_success_keeps_error();
    test_errors_are_per_thread();
    test_no_deleter_at_thread_exit();
    test_library_null_pointer_error();
    test_library_buffer_size_error();
    test_library_error_is_per_thread();

    return check_summary();
}
