/* What the fast paths share (fastpath.h): their switch, read once when the library is loaded,
 * and the error of a failed callback. */
#include <stdlib.h>
#include <string.h>

#include "fastpath.h"

unsigned mtsgo_fastpaths = ~0u;

/* The bit of a fast path's name of `length` bytes; 0 for an unknown name. */
static unsigned fastpath_bit(const char *name, size_t length) {
    static const struct {
        const char *name;
        unsigned bit;
    } known[] = {
        {"labels", MTSGO_FASTPATH_LABELS}, {"unique", MTSGO_FASTPATH_UNIQUE},
        {"block", MTSGO_FASTPATH_BLOCK},   {"release", MTSGO_FASTPATH_RELEASE},
        {"tensormap", MTSGO_FASTPATH_TENSORMAP}, {"gradient", MTSGO_FASTPATH_GRADIENT},
        {"reads", MTSGO_FASTPATH_READS}, {"info", MTSGO_FASTPATH_INFO},
        {"recycle", MTSGO_FASTPATH_RECYCLE}, {"position", MTSGO_FASTPATH_POSITION},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strlen(known[i].name) == length && strncmp(known[i].name, name, length) == 0) {
            return known[i].bit;
        }
    }
    return 0;
}

__attribute__((constructor)) static void read_fastpaths(void) {
    const char *value = getenv("MTSGO_FASTPATHS");
    if (value == NULL) {
        return;
    }
    unsigned on = ~0u;
    while (*value != '\0') {
        size_t length = strcspn(value, ",");
        if (length == 3 && strncmp(value, "off", 3) == 0) {
            on = 0;
        } else if (value[0] == '-') {
            on &= ~fastpath_bit(value + 1, length - 1);
        } else {
            on |= fastpath_bit(value, length);
        }
        value += length;
        value += *value == ',';
    }
    mtsgo_fastpaths = on;
}

void mtsgo_array_callback_failed(struct mts_array_t *array, const char *context) {
    mtsgo_callback_error(context);
    mtsgo_array_destroy(array);
}
