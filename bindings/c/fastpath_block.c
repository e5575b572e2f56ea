/* The fast path of mts_block and mts_block_free (fastpath.h): a block is checked and made in
 * C, asking the values array and the labels what Go would ask, in the same order, and Go makes
 * its block the first time a Go function is given the record (blockOf, fastpath_block.go), for
 * a tensor map many at once. A block that Go never saw is freed in C. Every other case, errors
 * included, goes on in Go (mtsgo_block_asked) from what was already asked. The generated
 * wrappers (wrappers_gen.c) have already rejected NULL arguments. */
#include <stdlib.h>
#include <string.h>

#include "_cgo_export.h"
#include "fastpath.h"

/* Tells whether every argument is one the C path handles, before anything is asked. */
static int plain_arguments(const struct mts_array_t *data, const struct mts_labels_t *samples,
                           const struct mts_labels_t *const *components, uintptr_t count,
                           const struct mts_labels_t *properties) {
    if (!(mtsgo_fastpaths & MTSGO_FASTPATH_BLOCK) || count > MTSGO_FASTPATH_BLOCK_COMPONENTS ||
        data->shape == NULL || data->device == NULL ||
        data->origin == mtsgo_go_array_origin() || !mtsgo_plain_labels(samples) ||
        !mtsgo_plain_labels(properties)) {
        return 0;
    }
    for (uintptr_t i = 0; i < count; i++) {
        if (!mtsgo_plain_labels(components[i])) {
            return 0;
        }
    }
    return 1;
}

/* Tells whether the shape passes the shape checks of core.NewBlockAsked. */
static int shape_matches(const uintptr_t *shape, uintptr_t dimensions,
                         const struct mts_labels_t *samples,
                         const struct mts_labels_t *const *components, uintptr_t count,
                         const struct mts_labels_t *properties) {
    if (shape == NULL || dimensions != count + 2 || shape[0] != samples->count ||
        shape[count + 1] != properties->count) {
        return 0;
    }
    for (uintptr_t i = 0; i < count; i++) {
        if (shape[i + 1] != components[i]->count) {
            return 0;
        }
        for (uintptr_t j = 0; j < i; j++) {
            if (mtsgo_same_names(components[i], components[j])) {
                return 0;
            }
        }
    }
    return 1;
}

/* Tells whether the components pass the component checks of core.NewBlockAsked. */
static int components_valid(const struct mts_labels_t *const *components, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        if (components[i]->size != 1 || components[i]->count == 0) {
            return 0;
        }
    }
    return 1;
}

/* Asks the devices of the values, then of the labels in the order Go checks them (samples,
 * components, properties) into asked, stopping at the first one differing from the values';
 * returns whether all agree, or -1 when a callback failed (the error is recorded). */
static int same_devices(struct mts_array_t *data, const struct mts_labels_t *samples,
                        const struct mts_labels_t *const *components, uintptr_t count,
                        const struct mts_labels_t *properties, struct mtsgo_asked *asked) {
    if (mtsgo_array_device(data, &asked->devices[0]) != MTS_SUCCESS) {
        mtsgo_array_callback_failed(data, "calling mts_array_t.device failed");
        return -1;
    }
    asked->devices_count = 1;
    for (uintptr_t i = 0; i < count + 2; i++) {
        const struct mts_labels_t *labels = i == 0           ? samples
                                            : i == count + 1 ? properties
                                                             : components[i - 1];
        DLDevice *device = &asked->devices[asked->devices_count];
        if (!mtsgo_labels_device(labels, device)) {
            mtsgo_array_callback_failed(data, "calling mts_array_t.device failed");
            return -1;
        }
        asked->devices_count++;
        if (device->device_type != asked->devices[0].device_type ||
            device->device_id != asked->devices[0].device_id) {
            return 0;
        }
    }
    return 1;
}

/* Takes a reference to each labels of a block. */
static void hold_labels(struct mts_labels_t *samples, struct mts_labels_t *const *components, uintptr_t count,
                        struct mts_labels_t *properties) {
    mtsgo_labels_hold(samples);
    for (uintptr_t i = 0; i < count; i++) {
        mtsgo_labels_hold(components[i]);
    }
    mtsgo_labels_hold(properties);
}

/* Gives back the references of hold_labels, which the caller's own references outlive. */
static void unhold_labels(struct mts_labels_t *samples, struct mts_labels_t *const *components, uintptr_t count,
                          struct mts_labels_t *properties) {
    mtsgo_labels_unhold(samples, 1);
    for (uintptr_t i = 0; i < count; i++) {
        mtsgo_labels_unhold(components[i], 1);
    }
    mtsgo_labels_unhold(properties, 1);
}

struct mts_block_t *mtsgo_c_block(struct mts_array_t data, const struct mts_labels_t *samples,
                                  const struct mts_labels_t *const *components, uintptr_t count,
                                  const struct mts_labels_t *properties) {
    struct mts_labels_t *const *go_components = (struct mts_labels_t *const *)components;
    struct mts_labels_t *go_samples = (struct mts_labels_t *)samples;
    struct mts_labels_t *go_properties = (struct mts_labels_t *)properties;
    if (!plain_arguments(&data, samples, components, count, properties)) {
        return mtsgo_block_asked(data, go_samples, (struct mts_labels_t **)go_components, count,
                                 go_properties, NULL);
    }
    struct mtsgo_asked asked;
    mtsgo_asked_start(&asked);
    asked.has_shape = 1;
    if (mtsgo_array_shape(&data, &asked.shape, &asked.dimensions) != MTS_SUCCESS) {
        mtsgo_array_callback_failed(&data, "calling mts_array_t.shape failed");
        return NULL;
    }
    int plain = shape_matches(asked.shape, asked.dimensions, samples, components, count, properties);
    if (plain) {
        plain = same_devices(&data, samples, components, count, properties, &asked);
        if (plain < 0) {
            return NULL;
        }
        plain = plain && components_valid(components, count);
    }
    if (!plain) {
        /* An error to report: Go goes on from what was asked. */
        return mtsgo_block_asked(data, go_samples, (struct mts_labels_t **)go_components, count,
                                 go_properties, &asked);
    }
    /* The labels are held before the record is written: a locked instruction waits for every
     * store before it, and those filling a record recycled long ago miss the caches. Held
     * after them, the holds and the handle's exchange waited for those misses (two thirds of
     * this function's own time in map_blocks_10000); now the misses resolve after the return. */
    hold_labels(go_samples, go_components, count, go_properties);
    struct mts_block_t *block = mtsgo_block_record_new();
    if (block == NULL) {
        /* No memory: Go goes on from what was asked, without these references. */
        unhold_labels(go_samples, go_components, count, go_properties);
        return mtsgo_block_asked(data, go_samples, (struct mts_labels_t **)go_components, count,
                                 go_properties, &asked);
    }
    block->values = data;
    block->samples = go_samples;
    for (uintptr_t i = 0; i < count; i++) {
        block->components[i] = go_components[i];
    }
    block->components_count = count;
    block->properties = go_properties;
    block->record.magic = MTSGO_BLOCK_MAGIC;
    if (mtsgo_handle_new_unshared(&block->record) == NULL) {
        /* No room for a handle (the error is recorded): the block goes, its labels with it. */
        mtsgo_c_block_release(block, NULL);
        return NULL;
    }
    return block;
}

mts_status_t mtsgo_c_block_free(struct mts_block_t *block) {
    if (block->held) {
        return mtsgo_fail(MTS_INVALID_PARAMETER_ERROR,
                          "invalid parameter: `block` belongs to a tensor map or a block: it can "
                          "not be freed or given away by itself");
    }
    if (block->record.magic != MTSGO_BLOCK_MAGIC ||
        __atomic_load_n(&block->record.handle, __ATOMIC_ACQUIRE) != 0) {
        return mtsgo_block_release(block);
    }
    return mtsgo_c_block_release(block, NULL);
}

/* runs_end for runs with a `dying` list: labels Go made whose last reference goes are left
 * there while it has room. Out of line: only the free of a map Go made has one. */
static __attribute__((noinline)) mts_status_t runs_end_dying(struct mtsgo_labels_runs *runs, uintptr_t position) {
    struct mts_labels_t *labels = runs->labels[position];
    if (MTSGO_REFERENCES(__atomic_sub_fetch(&labels->references, runs->count[position], __ATOMIC_ACQ_REL)) != 0) {
        return MTS_SUCCESS;
    }
    struct mtsgo_dying_labels *dying = runs->dying;
    if (__atomic_load_n(&labels->record.handle, __ATOMIC_ACQUIRE) != 0 && dying->count < MTSGO_DYING_LABELS) {
        dying->labels[dying->count++] = labels;
        return MTS_SUCCESS;
    }
    return mtsgo_labels_release_unheld(labels);
}

/* Drops the references of the run at `position`. */
static void runs_end(struct mtsgo_labels_runs *runs, uintptr_t position) {
    mts_status_t status = __builtin_expect(runs->dying != NULL, 0)
                              ? runs_end_dying(runs, position)
                              : mtsgo_labels_unhold(runs->labels[position], runs->count[position]);
    runs->status = runs->status != MTS_SUCCESS ? runs->status : status;
}

/* Starts the run of labels at `position`, ending the run of other labels there. Out of line:
 * most blocks of a tensor map extend their runs (runs_add). The labels' count is fetched now
 * for the drop at the run's end, at least one block later: blocks with labels of their own
 * then do not wait for each labels' memory in turn. */
static __attribute__((noinline)) void runs_switch(struct mtsgo_labels_runs *runs, uintptr_t position,
                                                  struct mts_labels_t *labels) {
    __builtin_prefetch(&labels->references, 1);
    if (runs->active & (1u << position)) {
        runs_end(runs, position);
    }
    runs->active |= 1u << position;
    runs->labels[position] = labels;
    runs->count[position] = 1;
}

/* Adds one reference to labels at `position` to the runs. */
static inline void runs_add(struct mtsgo_labels_runs *runs, uintptr_t position, struct mts_labels_t *labels) {
    if ((runs->active & (1u << position)) && runs->labels[position] == labels) {
        runs->count[position]++;
        return;
    }
    runs_switch(runs, position, labels);
}

mts_status_t mtsgo_labels_runs_flush(struct mtsgo_labels_runs *runs) {
    for (uint32_t active = runs->active; active != 0; active &= active - 1) {
        runs_end(runs, (uintptr_t)__builtin_ctz(active));
    }
    runs->active = 0;
    return runs->status;
}

/* Adds a record's labels references to the runs. Inline: the free of a small map built in C
 * pays a call otherwise (map_free_1, 3 ns of 48). */
static inline __attribute__((always_inline)) void runs_add_labels(struct mtsgo_labels_runs *runs, const struct mts_block_t *block) {
    runs_add(runs, 0, block->samples);
    for (uintptr_t i = 0; i < block->components_count; i++) {
        runs_add(runs, 1 + i, block->components[i]);
    }
    runs_add(runs, MTSGO_LABELS_POSITIONS - 1, block->properties);
}

/* mtsgo_c_block_release with runs: the block's labels references go to them; or, when runs
 * is NULL, they were dropped already (mtsgo_lent_block_release), and its gradients' too.
 * Inline in both, where runs is known: a call per block costs the free of thousands. */
static inline __attribute__((always_inline)) mts_status_t release_into_runs(struct mts_block_t *block,
                                                                          struct mtsgo_labels_runs *runs) {
    /* Go never saw it: release what it holds in the order Go's Block.Free does (gradients,
     * values, labels). */
    block->record.magic = MTSGO_FREED_MAGIC;
    mts_status_t status = MTS_SUCCESS;
    for (struct mtsgo_c_gradient *g = block->c_gradients; g != NULL; g = g->next) {
        mts_status_t released = MTS_SUCCESS;
        if (runs != NULL) {
            released = mtsgo_c_block_release(g->block, NULL);
        } else {
            mtsgo_lent_block_release(g->block);
        }
        status = status != MTS_SUCCESS ? status : released;
    }
    mtsgo_array_destroy(&block->values);
    if (runs != NULL) {
        runs_add_labels(runs, block);
    }
    mtsgo_block_record_free(block);
    return status;
}

void mtsgo_lent_block_release(struct mts_block_t *block) {
    release_into_runs(block, NULL);
}

mts_status_t mtsgo_lent_labels_drop(struct mts_tensormap_t *tensor, struct mtsgo_dying_labels *dying) {
    /* the gradients in runs of their own: their samples are theirs */
    struct mtsgo_labels_runs blocks, gradients;
    mtsgo_labels_runs_start(&blocks);
    mtsgo_labels_runs_start(&gradients);
    blocks.dying = gradients.dying = dying;
    for (uintptr_t i = 0; i < tensor->blocks_count; i++) {
        const struct mts_block_t *block = tensor->blocks[i];
        for (const struct mtsgo_c_gradient *g = block->c_gradients; g != NULL; g = g->next) {
            runs_add_labels(&gradients, g->block);
        }
        runs_add_labels(&blocks, block);
    }
    mts_status_t status = mtsgo_labels_runs_flush(&gradients);
    mts_status_t dropped = mtsgo_labels_runs_flush(&blocks);
    tensor->labels_dropped = 1;
    return status != MTS_SUCCESS ? status : dropped;
}

mts_status_t mtsgo_c_block_release(struct mts_block_t *block, struct mtsgo_labels_runs *runs) {
    if (runs != NULL) {
        return release_into_runs(block, runs);
    }
    struct mtsgo_labels_runs own;
    mtsgo_labels_runs_start(&own);
    mts_status_t status = release_into_runs(block, &own);
    mts_status_t released = mtsgo_labels_runs_flush(&own);
    return status != MTS_SUCCESS ? status : released;
}
