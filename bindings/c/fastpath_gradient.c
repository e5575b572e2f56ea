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

/* The pairs of labels the core compares (LabelsEqual), in its order: the gradient's properties
 * and the block's, then for each component of the block the gradient's matching one and it.
 * Returns the number of pairs. */
static uintptr_t compared_labels(const struct mts_block_t *block, const struct mts_block_t *gradient,
                                 struct mts_labels_t *pairs[][2]) {
    pairs[0][0] = gradient->properties;
    pairs[0][1] = block->properties;
    uintptr_t extra = gradient->components_count - block->components_count;
    for (uintptr_t i = 0; i < block->components_count; i++) {
        pairs[1 + i][0] = gradient->components[extra + i];
        pairs[1 + i][1] = block->components[i];
    }
    return 1 + block->components_count;
}

/* Tells whether the gradient's labels pass the checks of the core that read no values: its
 * samples start with "sample", its components end with labels like the block's and its
 * properties are like the block's (the same labels, or labels of the same names and count,
 * whose devices C can ask: their values are compared once the arrays are asked). */
static int plain_labels_of(const struct mts_block_t *block, const struct mts_block_t *gradient) {
    const struct mts_labels_t *samples = gradient->samples;
    if (samples->size == 0 || strcmp(samples->names[0], "sample") != 0 ||
        gradient->components_count < block->components_count) {
        return 0;
    }
    struct mts_labels_t *pairs[MTSGO_FASTPATH_BLOCK_COMPONENTS + 1][2];
    uintptr_t count = compared_labels(block, gradient, pairs);
    for (uintptr_t i = 0; i < count; i++) {
        struct mts_labels_t *a = pairs[i][0], *b = pairs[i][1];
        if (a != b && (a->count != b->count || !mtsgo_same_names(a, b) || !mtsgo_plain_labels(a) ||
                       !mtsgo_plain_labels(b))) {
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
           !gradient->held && gradient->c_gradients == NULL && mtsgo_plain_text(parameter) &&
           mtsgo_find_c_gradient(block, parameter) == NULL && plain_labels_of(block, gradient);
}

/* What asking found: everything agrees, an error for Go to word from what was asked, or a
 * failure whose error is recorded already. */
enum answer { AGREED, REFUSED, FAILED };

/* Checks the gradient's samples as the core does: their device, then (unless on the meta
 * device) the range of their "sample" values. */
static enum answer check_samples(const struct mts_block_t *block, struct mts_labels_t *samples,
                                 struct mtsgo_gradient_asked *asked, mts_status_t *failure) {
    DLDevice device;
    if (samples->count == 0) {
        return AGREED;
    }
    if (!mtsgo_labels_device(samples, &device)) {
        asked->device_failed = 1;
        return REFUSED;
    }
    if (device.device_type == kDLExtDev) {
        return AGREED; /* nothing can be read there */
    }
    const int32_t *values = mtsgo_labels_cpu_values(samples, failure);
    if (values == NULL) {
        return FAILED;
    }
    asked->lowest = asked->highest = values[0];
    for (uintptr_t i = 1; i < samples->count; i++) {
        int32_t value = values[i * samples->size];
        asked->lowest = value < asked->lowest ? value : asked->lowest;
        asked->highest = value > asked->highest ? value : asked->highest;
    }
    asked->samples = block->samples->count;
    asked->samples_read = 1;
    return asked->lowest < 0 || (uintptr_t)asked->highest >= asked->samples ? REFUSED : AGREED;
}

/* Compares two labels of the same names and count as the core's LabelsEqual does: the devices
 * of both, then (unless on the meta device, or without entries) the values of both. */
static enum answer equal_labels(struct mts_labels_t *a, struct mts_labels_t *b, int *equal,
                                struct mtsgo_gradient_asked *asked, mts_status_t *failure) {
    DLDevice device_a, device_b;
    *equal = 1;
    if (a == b) {
        return AGREED;
    }
    if (!mtsgo_labels_device(a, &device_a) || !mtsgo_labels_device(b, &device_b)) {
        asked->device_failed = 1;
        return REFUSED;
    }
    if (device_a.device_type != device_b.device_type || device_a.device_id != device_b.device_id) {
        *equal = 0;
        return AGREED;
    }
    if (device_a.device_type == kDLExtDev || a->count == 0 || a->size == 0) {
        return AGREED;
    }
    const int32_t *values_a = mtsgo_labels_cpu_values(a, failure);
    const int32_t *values_b = values_a != NULL ? mtsgo_labels_cpu_values(b, failure) : NULL;
    if (values_b == NULL) {
        return FAILED;
    }
    *equal = memcmp(values_a, values_b, a->count * a->size * sizeof(int32_t)) == 0;
    return AGREED;
}

/* Asks what AddGradient asks after its first check: both arrays (compareArrays), the
 * gradient's samples, then the labels it compares with the block's; *failure is the status of
 * a FAILED answer. */
static enum answer ask(struct mts_block_t *block, struct mts_block_t *gradient, struct mtsgo_gradient_asked *asked,
                       mts_status_t *failure) {
    struct mts_block_t *both[2] = {block, gradient};
    if (mtsgo_compare_blocks(both, 2, &asked->comparison) >= 0) {
        return REFUSED;
    }
    enum answer answer = check_samples(block, gradient->samples, asked, failure);
    if (answer != AGREED) {
        return answer;
    }
    struct mts_labels_t *pairs[MTSGO_FASTPATH_BLOCK_COMPONENTS + 1][2];
    uintptr_t count = compared_labels(block, gradient, pairs);
    for (uintptr_t i = 0; i < count; i++) {
        int equal = 1;
        answer = equal_labels(pairs[i][0], pairs[i][1], &equal, asked, failure);
        if (answer != AGREED || !equal) {
            asked->labels_differ = (int)i;
            asked->component_name = i > 0 ? pairs[i][1]->names[0] : NULL;
            return answer != AGREED ? answer : REFUSED;
        }
    }
    return AGREED;
}

mts_status_t mtsgo_c_block_add_gradient(struct mts_block_t *block, const char *parameter,
                                        struct mts_block_t *gradient) {
    if (!plain_call(block, parameter, gradient)) {
        return mtsgo_block_add_gradient(block, (char *)parameter, gradient);
    }
    struct mtsgo_gradient_asked asked = {0};
    asked.labels_differ = -1;
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
    gradient->parent = block;
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
        const struct mtsgo_c_gradient *other = mtsgo_find_c_gradient(b, g->parameter);
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
