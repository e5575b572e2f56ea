/* The per-thread last error of the C ABI. It lives in C thread-local storage because Go code
 * has no thread identity; cgo runs a C caller's call to Go on the caller's own thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mtsgo.h"

struct last_error {
    char *message;
    char *origin;
    void *data;
    void (*deleter)(void *);
};

static _Thread_local struct last_error current;

/* The strings are freed at thread exit; the data is not (its deleter may need the thread),
 * which is also what the reference does. A key destructor is the only portable exit hook. */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void free_strings_at_exit(void *unused) {
    (void)unused;
    free(current.message);
    free(current.origin);
    current.message = NULL;
    current.origin = NULL;
}

static void create_exit_key(void) {
    pthread_key_create(&exit_key, free_strings_at_exit);
}

static char *copy_string(const char *text, size_t length) {
    char *copy = malloc(length + 1);
    if (copy != NULL) {
        memcpy(copy, text, length);
        copy[length] = '\0';
    }
    return copy;
}

/* Releases the old record and installs a new one; the strings are already copies. */
static void replace(char *message, char *origin, void *data, void (*deleter)(void *)) {
    pthread_once(&exit_key_once, create_exit_key);
    if (pthread_getspecific(exit_key) == NULL) {
        pthread_setspecific(exit_key, &current);
    }
    struct last_error old = current;
    current.message = message;
    current.origin = origin;
    current.data = data;
    current.deleter = deleter;
    if (old.deleter != NULL) {
        old.deleter(old.data);
    }
    free(old.message);
    free(old.origin);
}

mts_status_t mtsgo_c_last_error(const char **message, const char **origin, void **data) {
    if (message != NULL) {
        *message = current.message != NULL ? current.message : "";
    }
    if (origin != NULL) {
        *origin = current.origin != NULL ? current.origin : "";
    }
    if (data != NULL) {
        *data = current.data;
    }
    return MTS_SUCCESS;
}

mts_status_t mtsgo_c_set_last_error(const char *message, const char *origin, void *data, void (*data_deleter)(void *)) {
    if (message == NULL) {
        message = "<no message provided>";
    }
    if (origin == NULL) {
        origin = "<no origin provided>";
    }
    replace(copy_string(message, strlen(message)), copy_string(origin, strlen(origin)), data, data_deleter);
    return MTS_SUCCESS;
}

void mtsgo_record_error(const char *message, size_t length) {
    static const char library[] = "metatensor-core";
    replace(copy_string(message, length), copy_string(library, sizeof(library) - 1), NULL, NULL);
}

mts_status_t mtsgo_fail(mts_status_t status, const char *message) {
    mtsgo_record_error(message, strlen(message));
    return status;
}

void mtsgo_callback_failed(const char *context, size_t length) {
    const char *old = current.message != NULL ? current.message : "";
    size_t old_length = strlen(old);
    char *message = malloc(length + 2 + old_length + 1);
    if (message == NULL) {
        return;
    }
    memcpy(message, context, length);
    memcpy(message + length, ": ", 2);
    memcpy(message + length + 2, old, old_length + 1);
    free(current.message);
    current.message = message;
}
