/* The fast path of mts_block_add_gradient (fastpath.h): a gradient made in C is added in C to
 * a block made in C, asking the arrays and the gradient's samples what Go would ask, in the
 * same order, and the block keeps its C gradients in a list until Go makes it
 * (materializeBlocks, fastpath_block.go), together with them. Every case whose checks need
 * more than names and pointers goes to the Go body before anything is asked; the errors found
 * after asking are worded by Go (mtsgo_gradient_refused) from what C asked. */
#include <stdlib.h>
#include <string.h>

#include "_cgo_export.h"
#include "fastpath.h"

/* Tells whether the parameter is plain ASCII text (Go checks other text is UTF-8). */
static int plain_parameter(const char *parameter) {
    for (const unsigned char *c = (const unsigned char *)parameter; *c != '\0'; c++) {
        if (*c >= 0x80) {
            return 0;
        }
    }
    return 1;
}

/* The C gradient of block for parameter, or NULL. */
static struct mtsgo_c_gradient *find_gradient(const struct mts_block_t *block, const char *parameter) {
    for (struct mtsgo_c_gradient *g = block->c_gradients; g != NULL; g = g->next) {
        if (strcmp(g->parameter, parameter) == 0) {
            return g;
        }
    }
    return NULL;
}

/* Tells whether the gradient's labels pass the checks of the core that read no values: its
 * samples start with "sample", its components end with the block's (the same labels) and its
 * properties are the block's (the same labels, so equal without asking anything). */
static int plain_labels_of(const struct mts_block_t *block, const struct mts_block_t *gradient) {
    const struct mts_labels_t *samples = gradient->samples;
    if (samples->size == 0 || strcmp(samples->names[0], "sample") != 0 ||
        gradient->properties != block->properties || gradient->components_count < block->components_count) {
        return 0;
    }
    uintptr_t extra = gradient->components_count - block->components_count;
    for (uintptr_t i = 0; i < block->components_count; i++) {
        if (gradient->components[extra + i] != block->components[i]) {
            return 0;
        }
    }
    /* Go asks the device of other Go arrays. */
    return samples->count == 0 || mtsgo_plain_labels(samples);
}

/* Tells whether the call is one this path takes, before anything is asked. */
static int plain_call(const struct mts_block_t *block, const char *parameter, const struct mts_block_t *gradient) {
    return (mtsgo_fastpaths & MTSGO_FASTPATH_GRADIENT) && block != gradient &&
           __atomic_load_n(&block->record.handle, __ATOMIC_ACQUIRE) == 0 &&
           __atomic_load_n(&gradient->record.handle, __ATOMIC_ACQUIRE) == 0 && !block->held &&
           !gradient->held && gradient->c_gradients == NULL && plain_parameter(parameter) &&
           find_gradient(block, parameter) == NULL && plain_labels_of(block, gradient);
}

/* What asking found: everything agrees, an error for Go to word from what was asked, or a
 * failure whose error is recorded already. */
enum answer { AGREED, REFUSED, FAILED };

/* Asks what AddGradient asks after its first check: both arrays (compareArrays), then the
 * device of the gradient's samples and their values (read by Go, which publishes them, the
 * first time); *failure is the status of a FAILED answer. */
static enum answer ask(struct mts_block_t *block, struct mts_block_t *gradient, struct mtsgo_gradient_asked *asked,
                       mts_status_t *failure) {
    uintptr_t arrays[2] = {(uintptr_t)&block->values, (uintptr_t)&gradient->values};
    if (mtsgo_compare_arrays(arrays, 2, &asked->comparison) >= 0) {
        return REFUSED;
    }
    struct mts_labels_t *samples = gradient->samples;
    if (samples->count == 0) {
        return AGREED;
    }
    DLDevice device = {kDLCPU, 0};
    if (!samples->cpu_values && mtsgo_array_device(&samples->array, &device) != MTS_SUCCESS) {
        asked->samples_failed = 1;
        return REFUSED;
    }
    if (device.device_type == kDLExtDev) {
        return AGREED; /* nothing can be read there */
    }
    const int32_t *values = __atomic_load_n(&samples->values, __ATOMIC_ACQUIRE);
    if (values == NULL) {
        *failure = mtsgo_labels_read_values(samples);
        if (*failure != MTS_SUCCESS) {
            return FAILED;
        }
        values = __atomic_load_n(&samples->values, __ATOMIC_ACQUIRE);
    }
    asked->lowest = asked->highest = values[0];
    for (uintptr_t i = 1; i < samples->count; i++) {
        int32_t value = values[i * samples->size];
        asked->lowest = value < asked->lowest ? value : asked->lowest;
        asked->highest = value > asked->highest ? value : asked->highest;
    }
    asked->samples = block->samples->count;
    return asked->lowest < 0 || (uintptr_t)asked->highest >= asked->samples ? REFUSED : AGREED;
}

mts_status_t mtsgo_c_block_add_gradient(struct mts_block_t *block, const char *parameter,
                                        struct mts_block_t *gradient) {
    if (!plain_call(block, parameter, gradient)) {
        return mtsgo_block_add_gradient(block, (char *)parameter, gradient);
    }
    struct mtsgo_gradient_asked asked = {0};
    mts_status_t status = MTS_SUCCESS;
    enum answer answer = ask(block, gradient, &asked, &status);
    size_t length = strlen(parameter);
    struct mtsgo_c_gradient *added = NULL;
    if (answer == AGREED) {
        added = malloc(sizeof(struct mtsgo_c_gradient) + length + 1);
    }
    /* From here the gradient is the block's, or is freed; the list handed out so far ends. */
    mtsgo_blocks_given(&gradient, 1);
    free((void *)block->gradients);
    block->gradients = NULL;
    block->gradients_count = 0;
    if (added == NULL) {
        /* Go words the error (or the lack of memory, when everything agreed). */
        if (answer != FAILED) {
            status = mtsgo_gradient_refused(&asked);
        }
        mtsgo_c_block_release(gradient, NULL);
        return status;
    }
    char *copy = (char *)(added + 1);
    memcpy(copy, parameter, length + 1);
    added->parameter = copy;
    added->block = gradient;
    added->next = NULL;
    struct mtsgo_c_gradient **last = &block->c_gradients;
    while (*last != NULL) {
        last = &(*last)->next;
    }
    *last = added;
    return MTS_SUCCESS;
}

int mtsgo_same_c_gradients(const struct mts_block_t *a, const struct mts_block_t *b) {
    uintptr_t count = 0;
    for (const struct mtsgo_c_gradient *g = a->c_gradients; g != NULL; g = g->next, count++) {
        const struct mtsgo_c_gradient *other = find_gradient(b, g->parameter);
        if (other == NULL || !mtsgo_same_names(g->block->samples, other->block->samples) ||
            g->block->components_count != other->block->components_count) {
            return 0;
        }
        for (uintptr_t i = 0; i < g->block->components_count; i++) {
            if (!mtsgo_same_names(g->block->components[i], other->block->components[i])) {
                return 0;
            }
        }
    }
    for (const struct mtsgo_c_gradient *g = b->c_gradients; g != NULL; g = g->next) {
        count--;
    }
    return count == 0;
}

void mtsgo_c_gradients_forget(struct mts_block_t *block) {
    struct mtsgo_c_gradient *g = block->c_gradients;
    while (g != NULL) {
        struct mtsgo_c_gradient *next = g->next;
        free(g);
        g = next;
    }
    block->c_gradients = NULL;
}
