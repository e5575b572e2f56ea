/*
 * Tiny assertion helper for the metatensor C API tests.
 *
 * Every CHECK* macro counts one passed or one failed check. A failure prints
 * `file:line: <what failed>` and the current thread's last metatensor error
 * message to stderr, then carries on (the program does not abort). At the end
 * of `main`, `return check_summary();` prints exactly one closing line
 * `N passed, N failed` to stdout and gives the exit code (0 when nothing
 * failed, 1 otherwise).
 *
 * The counters are atomic, so checks may run on any thread.
 *
 * Include this once per test program (everything here is `static`).
 */
#ifndef MTS_TESTS_CHECK_H
#define MTS_TESTS_CHECK_H

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <metatensor.h>

static atomic_int check_passed_count = 0;
static atomic_int check_failed_count = 0;

static inline void check_report_failure_(const char *file, int line, const char *what) {
    const char *message = NULL;
    const char *origin = NULL;
    mts_last_error(&message, &origin, NULL);
    fprintf(stderr, "%s:%d: CHECK FAILED: %s\n", file, line, what);
    fprintf(stderr, "    last error: [%s] (origin: [%s])\n",
            message != NULL ? message : "<NULL>",
            origin != NULL ? origin : "<NULL>");
    fflush(stderr);
}

static inline void check_record_(int ok, const char *file, int line, const char *what) {
    if (ok) {
        atomic_fetch_add(&check_passed_count, 1);
    } else {
        atomic_fetch_add(&check_failed_count, 1);
        check_report_failure_(file, line, what);
    }
}

static inline void check_str_eq_(const char *a, const char *b, const char *a_expr,
                                 const char *b_expr, const char *file, int line) {
    int ok = (a != NULL && b != NULL && strcmp(a, b) == 0);
    if (!ok) {
        char what[1024];
        snprintf(what, sizeof(what), "CHECK_STR_EQ(%s, %s): \"%s\" != \"%s\"", a_expr, b_expr,
                 a != NULL ? a : "<NULL>", b != NULL ? b : "<NULL>");
        check_record_(0, file, line, what);
    } else {
        check_record_(1, file, line, "");
    }
}

static inline void check_str_prefix_(const char *str, const char *prefix, const char *str_expr,
                                     const char *prefix_expr, const char *file, int line) {
    int ok = (str != NULL && prefix != NULL && strncmp(str, prefix, strlen(prefix)) == 0);
    if (!ok) {
        char what[1024];
        snprintf(what, sizeof(what), "CHECK_STR_PREFIX(%s, %s): \"%s\" does not start with \"%s\"",
                 str_expr, prefix_expr, str != NULL ? str : "<NULL>",
                 prefix != NULL ? prefix : "<NULL>");
        check_record_(0, file, line, what);
    } else {
        check_record_(1, file, line, "");
    }
}

static inline void check_int_eq_(long long a, long long b, const char *a_expr,
                                 const char *b_expr, const char *macro, const char *file,
                                 int line) {
    if (a != b) {
        char what[1024];
        snprintf(what, sizeof(what), "%s(%s, %s): got %lld, expected %lld", macro, a_expr,
                 b_expr, a, b);
        check_record_(0, file, line, what);
    } else {
        check_record_(1, file, line, "");
    }
}

/* Check that `cond` is true. */
#define CHECK(cond) check_record_(!!(cond), __FILE__, __LINE__, "CHECK(" #cond ")")

/* Check that two C strings are equal (NULL never equals anything). */
#define CHECK_STR_EQ(a, b) check_str_eq_((a), (b), #a, #b, __FILE__, __LINE__)

/* Check that the C string `str` starts with `prefix`. */
#define CHECK_STR_PREFIX(str, prefix) \
    check_str_prefix_((str), (prefix), #str, #prefix, __FILE__, __LINE__)

/* Check that two integers are equal, printing both on failure. */
#define CHECK_INT_EQ(a, b) \
    check_int_eq_((long long)(a), (long long)(b), #a, #b, "CHECK_INT_EQ", __FILE__, __LINE__)

/* Evaluate `call` once and check that it returned the status `expected`. */
#define CHECK_STATUS(call, expected) \
    check_int_eq_((long long)(call), (long long)(expected), #call, #expected, "CHECK_STATUS", \
                  __FILE__, __LINE__)

/* The record mts_last_error gives is the library's (origin
 * "metatensor-core"), with no data, and its message is `expected` (or starts
 * with it, when `prefix`): 4 checks. */
static inline void check_core_record_(const char *expected, int prefix, const char *file,
                                      int line) {
    static int marker;
    const char *message = NULL;
    const char *origin = NULL;
    void *data = &marker;
    check_int_eq_(mts_last_error(&message, &origin, &data), MTS_SUCCESS, "mts_last_error(...)",
                  "MTS_SUCCESS", "CHECK_STATUS", file, line);
    if (prefix) {
        check_str_prefix_(message, expected, "message", "expected", file, line);
    } else {
        check_str_eq_(message, expected, "message", "expected", file, line);
    }
    check_str_eq_(origin, "metatensor-core", "origin", "\"metatensor-core\"", file, line);
    check_record_(data == NULL, file, line, "data == NULL");
}
#define CHECK_CORE_RECORD(expected) check_core_record_((expected), 0, __FILE__, __LINE__)
#define CHECK_CORE_RECORD_PREFIX(expected) check_core_record_((expected), 1, __FILE__, __LINE__)

/* Print the closing `N passed, N failed` line; returns the exit code. */
static inline int check_summary(void) {
    int passed = atomic_load(&check_passed_count);
    int failed = atomic_load(&check_failed_count);
    fflush(stderr);
    printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return failed == 0 ? 0 : 1;
}

#endif
