/* The two functions of the ABI that need nothing from Go. */
#include "mtsgo.h"

static int print_panics = 1;

int mtsgo_panic_printing_enabled(void) {
    return __atomic_load_n(&print_panics, __ATOMIC_RELAXED);
}

const char *mtsgo_c_version(void) {
    return METATENSOR_VERSION;
}

void mtsgo_c_disable_panic_printing(void) {
    __atomic_store_n(&print_panics, 0, __ATOMIC_RELAXED);
}
