/*
 * Tests of mts_disable_panic_printing(): it can be called more than once, and
 * the library keeps working afterwards, including for errors that come from a
 * caught panic in the reference (invalid UTF-8 in a data origin name).
 *
 * RUST_BACKTRACE is removed from the environment before anything else: with
 * it set to something other than "0" the reference still prints panics after
 * mts_disable_panic_printing() (documented behaviour), which would make the
 * "nothing printed to stderr" check depend on the caller's environment.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <metatensor.h>
#include <metatensor/version.h>

#include "check.h"

static const char *INTERNAL_PREFIX =
    "internal metatensor error (this is likely a bug, please report it): ";

/* Everything a caller would normally do, checked once. */
static void check_library_works(const char *name) {
    CHECK_STR_EQ(mts_version(), METATENSOR_VERSION);

    mts_data_origin_t origin = 0, again = 0;
    CHECK_STATUS(mts_register_data_origin(name, &origin), MTS_SUCCESS);
    CHECK_STATUS(mts_register_data_origin(name, &again), MTS_SUCCESS);
    CHECK(origin == again);
    char buffer[128];
    CHECK_STATUS(mts_get_data_origin(origin, buffer, sizeof(buffer)), MTS_SUCCESS);
    CHECK_STR_EQ(buffer, name);

    const char *message = NULL, *error_origin = NULL;
    CHECK_STATUS(mts_register_data_origin(NULL, &origin), MTS_INVALID_PARAMETER_ERROR);
    CHECK_STATUS(mts_last_error(&message, &error_origin, NULL), MTS_SUCCESS);
    CHECK_STR_PREFIX(message, "invalid parameter: got invalid NULL pointer for name");
    CHECK_STR_EQ(error_origin, "metatensor-core");

    CHECK_STATUS(mts_set_last_error("custom", "test_panic_printing", NULL, NULL), MTS_SUCCESS);
    CHECK_STATUS(mts_last_error(&message, &error_origin, NULL), MTS_SUCCESS);
    CHECK_STR_EQ(message, "custom");
    CHECK_STR_EQ(error_origin, "test_panic_printing");
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);
}

/*
 * Register a name that is not valid UTF-8 with stderr redirected to a
 * temporary file. The reference panics inside the library, catches the
 * panic and returns MTS_INTERNAL_ERROR. Returns the number of bytes written
 * to stderr meanwhile (-1 if the redirection could not be set up).
 */
static long invalid_utf8_with_captured_stderr(void) {
    char path[] = "/tmp/mts-test-panic-printing-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        return -1;
    }
    unlink(path);

    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fd, STDERR_FILENO) < 0) {
        close(fd);
        if (saved >= 0) {
            close(saved);
        }
        return -1;
    }

    mts_data_origin_t origin = 1234;
    mts_status_t status = mts_register_data_origin("test_panic_printing.\xff\xfe", &origin);

    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);

    long written = (long)lseek(fd, 0, SEEK_END);
    if (written > 0) {
        char text[512];
        ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
        if (n > 0) {
            text[n] = '\0';
            fprintf(stderr, "unexpected output on stderr:\n%s\n", text);
        }
    }
    close(fd);

    CHECK_STATUS(status, MTS_INTERNAL_ERROR);
    CHECK_CORE_RECORD_PREFIX(INTERNAL_PREFIX);
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);

    return written;
}

static void *thread_main(void *arg) {
    long *written = arg;
    *written = invalid_utf8_with_captured_stderr();
    check_library_works("test_panic_printing.thread");
    return NULL;
}

int main(void) {
    unsetenv("RUST_BACKTRACE");

    mts_disable_panic_printing();
    mts_disable_panic_printing();
    check_library_works("test_panic_printing.after-two-calls");

    /* a caught panic prints nothing and leaves the library usable */
    CHECK_INT_EQ(invalid_utf8_with_captured_stderr(), 0);
    check_library_works("test_panic_printing.after-panic");

    /* the setting is global: the same on another thread */
    long written = -1;
    pthread_t thread;
    CHECK_INT_EQ(pthread_create(&thread, NULL, thread_main, &written), 0);
    CHECK_INT_EQ(pthread_join(thread, NULL), 0);
    CHECK_INT_EQ(written, 0);

    /* and a third call is still fine */
    mts_disable_panic_printing();
    CHECK_INT_EQ(invalid_utf8_with_captured_stderr(), 0);
    check_library_works("test_panic_printing.after-three-calls");

    return check_summary();
}
