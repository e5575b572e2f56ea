/* Checks that the installed headers and library agree and can be used together. */
#include <stdio.h>
#include <string.h>

#include <metatensor.h>

int main(void) {
    const char *version = mts_version();
    if (strcmp(version, METATENSOR_VERSION) != 0) {
        fprintf(stderr, "library version %s, headers version %s\n", version, METATENSOR_VERSION);
        return 1;
    }
    mts_data_origin_t origin = 0;
    if (mts_register_data_origin("installed-test", &origin) != MTS_SUCCESS || origin == 0) {
        fprintf(stderr, "could not register a data origin\n");
        return 1;
    }
    printf("installed metatensor %s works\n", version);
    return 0;
}
