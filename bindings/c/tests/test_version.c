/*
 * Tests of mts_version() and the macros of metatensor/version.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <metatensor.h>
#include <metatensor/version.h>

#include "check.h"

/* The three macros must be integers usable by the preprocessor. */
#if !defined(METATENSOR_VERSION) || !defined(METATENSOR_VERSION_MAJOR) || \
    !defined(METATENSOR_VERSION_MINOR) || !defined(METATENSOR_VERSION_PATCH)
#error "metatensor/version.h must define METATENSOR_VERSION{,_MAJOR,_MINOR,_PATCH}"
#endif
#if METATENSOR_VERSION_MAJOR < 0 || METATENSOR_VERSION_MINOR < 0 || METATENSOR_VERSION_PATCH < 0
#error "version numbers must be non-negative integers"
#endif

/*
 * What the Python package does (metatensor/_c_lib.py):
 *     re.match(r"(\d+)\.(\d+)\.(\d+).*", version)
 * re.match is anchored at the start; `.*` accepts any suffix. Returns 1 and
 * fills the three numbers on a match, 0 otherwise.
 */
static int python_version_match(const char *version, long *major, long *minor, long *patch) {
    long numbers[3] = {0, 0, 0};
    const char *p = version;
    for (int i = 0; i < 3; i++) {
        if (!isdigit((unsigned char)*p)) {
            return 0;
        }
        long value = 0;
        while (isdigit((unsigned char)*p)) {
            value = value * 10 + (*p - '0');
            p++;
        }
        numbers[i] = value;
        if (i < 2) {
            if (*p != '.') {
                return 0;
            }
            p++;
        }
    }
    /* `.*` does not match a newline, but re.match does not need to reach the end */
    *major = numbers[0];
    *minor = numbers[1];
    *patch = numbers[2];
    return 1;
}

static void test_python_matcher_itself(void) {
    long major = -1, minor = -1, patch = -1;
    CHECK(python_version_match("0.2.4", &major, &minor, &patch));
    CHECK(major == 0 && minor == 2 && patch == 4);
    CHECK(python_version_match("0.3.0-dev12+abcdef", &major, &minor, &patch));
    CHECK(major == 0 && minor == 3 && patch == 0);
    CHECK(python_version_match("10.20.30+rust", &major, &minor, &patch));
    CHECK(major == 10 && minor == 20 && patch == 30);
    CHECK(!python_version_match("0.2", &major, &minor, &patch));
    CHECK(!python_version_match("v0.2.4", &major, &minor, &patch));
    CHECK(!python_version_match("0.2.x", &major, &minor, &patch));
    CHECK(!python_version_match("", &major, &minor, &patch));
}

static void test_version_matches_header(void) {
    const char *version = mts_version();
    CHECK(version != NULL);
    CHECK_STR_EQ(version, METATENSOR_VERSION);
}

static void test_macros(void) {
    CHECK_INT_EQ(METATENSOR_VERSION_MAJOR, 0);
    CHECK_INT_EQ(METATENSOR_VERSION_MINOR, 2);

    /* METATENSOR_VERSION starts with MAJOR.MINOR.PATCH, and the patch
     * number is complete (not followed by another digit) */
    char expected[64];
    snprintf(expected, sizeof(expected), "%d.%d.%d", (int)METATENSOR_VERSION_MAJOR,
             (int)METATENSOR_VERSION_MINOR, (int)METATENSOR_VERSION_PATCH);
    CHECK_STR_PREFIX(METATENSOR_VERSION, expected);
    if (strlen(METATENSOR_VERSION) >= strlen(expected)) {
        CHECK(!isdigit((unsigned char)METATENSOR_VERSION[strlen(expected)]));
    }
}

static void test_python_check(void) {
    const char *version = mts_version();
    long major = -1, minor = -1, patch = -1;
    int matched = version != NULL && python_version_match(version, &major, &minor, &patch);
    CHECK(matched);
    CHECK_INT_EQ(major, 0);
    /* with major 0, the Python package also requires the minor to match */
    CHECK_INT_EQ(minor, 2);
    CHECK_INT_EQ(major, METATENSOR_VERSION_MAJOR);
    CHECK_INT_EQ(minor, METATENSOR_VERSION_MINOR);
    CHECK_INT_EQ(patch, METATENSOR_VERSION_PATCH);
}

static void *version_thread_main(void *arg) {
    (void)arg;
    return (void *)mts_version();
}

static void test_pointer_is_stable(void) {
    const char *first = mts_version();
    for (int i = 0; i < 100; i++) {
        if (mts_version() != first) {
            CHECK(mts_version() == first);
            break;
        }
    }
    CHECK(mts_version() == first);

    /* an error in between changes nothing */
    mts_data_origin_t origin;
    CHECK_STATUS(mts_register_data_origin(NULL, &origin), MTS_INVALID_PARAMETER_ERROR);
    CHECK(mts_version() == first);
    CHECK_STR_EQ(first, METATENSOR_VERSION);
    CHECK_STATUS(mts_set_last_error(NULL, NULL, NULL, NULL), MTS_SUCCESS);

    /* the same pointer from another thread */
    pthread_t thread;
    void *result = NULL;
    CHECK_INT_EQ(pthread_create(&thread, NULL, version_thread_main, NULL), 0);
    CHECK_INT_EQ(pthread_join(thread, &result), 0);
    CHECK(result == (const void *)first);
}

int main(void) {
    test_python_matcher_itself();
    test_version_matches_header();
    test_macros();
    test_python_check();
    test_pointer_is_stable();
    return check_summary();
}
