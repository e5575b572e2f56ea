/* A tour of the parts of the C API that need no data: the library version, data origins, and
 * how errors are reported (a status code, then mts_last_error for the details). */
#include <stdio.h>

#include <metatensor.h>

int main(void) {
    printf("metatensor %s (headers %s)\n", mts_version(), METATENSOR_VERSION);

    /* Each array framework registers a name once and tags its arrays with the id. */
    mts_data_origin_t origin = 0;
    mts_status_t status = mts_register_data_origin("examples.c", &origin);
    if (status != MTS_SUCCESS) {
        return 1;
    }
    char name[64];
    status = mts_get_data_origin(origin, name, sizeof(name));
    if (status != MTS_SUCCESS) {
        return 1;
    }
    printf("origin %llu is called '%s'\n", (unsigned long long)origin, name);

    /* A buffer that is too small is an error the caller can recover from. */
    char tiny[4];
    status = mts_get_data_origin(origin, tiny, sizeof(tiny));
    const char *message = NULL;
    const char *who = NULL;
    mts_last_error(&message, &who, NULL);
    printf("status %d from %s: %s\n", (int)status, who, message);
    return status == MTS_BUFFER_SIZE_ERROR ? 0 : 1;
}
