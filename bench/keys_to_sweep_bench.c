/*
 * keys_to_sweep_bench.c: mts_tensormap_keys_to_samples and mts_tensormap_keys_to_properties
 * over a sweep of shapes (built by `make bench` against both libraries, like the others).
 *
 * Usage: keys_to_sweep_bench [--quick] [--list] [PATTERN...]
 *
 * Each shape changes one factor of a base map at a time, so that a row shows what that factor
 * costs: the base is 10 blocks (keys "key" = 0..9) of 100 samples x one component axis of 3 x
 * 16 properties, f64, moved with sort_samples = true; the factors go to 1 / 100 / 1000 blocks,
 * 10 / 100,000 samples, 0 / 2 / 3 component axes, 1 / 1024 properties, sort_samples = false
 * and f32. Two corners join them: the smallest map (1 block, 10 samples, no component, 1
 * property) and a wide one (100 blocks of 1000 samples x 3 x 128 properties). Every block has
 * the samples (system, atom) = (i / 20, i % 20), in a shuffled order (so that sorting them is
 * work), component axes "c0".. of 3 entries, and the properties "n" = 0..; all keys move.
 * The case id tells the shape: sweep_{samples|properties}_b<blocks>_s<samples>_c<axes>_p<properties>
 * [_unsorted][_f32].
 *
 * The map and the fill value are made before the timed region, the result is checked (its
 * shape) and freed after it; the create and move_data callbacks of bench_array.c run inside it
 * for both libraries alike.
 *
 * The pipeline cases (pipeline_{samples|properties}_..., for the shapes of at most 100 blocks
 * of at most 1000 samples) time what a user pays from nothing to a moved map: the labels, the blocks (their values
 * filled) and the map made, the keys moved, both maps freed; only the check of the result is
 * left out. They show the cost a library defers from making the map to its first use.
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#include "bench_array.h"
#include "harness.h"

#define ATOMS_PER_SYSTEM 20
#define COMPONENT_SIZE 3
#define MAX_AXES 3

struct shape {
    uintptr_t blocks, samples, axes, properties;
    bool sort_samples, f32;
};

struct sweep_case {
    struct shape shape;
    bool to_samples; /* else to properties */
    bool pipeline;   /* the map made and freed inside the timed region too */
    char id[96];
    char description[128];
};

static const struct shape BASE = {10, 100, 1, 16, true, false};

/* The shapes of the sweep: the base, then one factor changed at a time, then the corners. */
static struct shape shapes[32];
static size_t shapes_count;

static void add_shape(struct shape shape) {
    shapes[shapes_count++] = shape;
}

static void make_shapes(void) {
    add_shape(BASE);
    const uintptr_t blocks[] = {1, 100, 1000}, samples[] = {10, 100000}, axes[] = {0, 2, 3}, properties[] = {1, 1024};
    struct shape shape;
    for (size_t i = 0; i < 3; i++) {
        shape = BASE, shape.blocks = blocks[i], add_shape(shape);
    }
    for (size_t i = 0; i < 2; i++) {
        shape = BASE, shape.samples = samples[i], add_shape(shape);
    }
    for (size_t i = 0; i < 3; i++) {
        shape = BASE, shape.axes = axes[i], add_shape(shape);
    }
    for (size_t i = 0; i < 2; i++) {
        shape = BASE, shape.properties = properties[i], add_shape(shape);
    }
    shape = BASE, shape.sort_samples = false, add_shape(shape);
    shape = BASE, shape.f32 = true, add_shape(shape);
    add_shape((struct shape){1, 10, 0, 1, true, false});
    add_shape((struct shape){100, 1000, 1, 128, true, false});
}

static uintptr_t block_size(const struct shape *shape) {
    uintptr_t size = shape->samples * shape->properties;
    for (uintptr_t a = 0; a < shape->axes; a++) {
        size *= COMPONENT_SIZE;
    }
    return size;
}

/* The map of a shape, or NULL after bench_fail. */
static mts_tensormap_t *map_new(const struct shape *shape) {
    const mts_labels_t *keys = bench_range_labels("key", 0, shape->blocks);
    const mts_labels_t *samples = keys == NULL ? NULL : bench_shuffled_pair_labels("system", "atom", shape->samples, ATOMS_PER_SYSTEM, 42);
    const mts_labels_t *properties = samples == NULL ? NULL : bench_range_labels("n", 0, shape->properties);
    const mts_labels_t *components[MAX_AXES] = {NULL};
    static const char *axis_names[MAX_AXES] = {"c0", "c1", "c2"};
    bool failed = properties == NULL;
    for (uintptr_t a = 0; a < shape->axes && !failed; a++) {
        failed = (components[a] = bench_range_labels(axis_names[a], 0, COMPONENT_SIZE)) == NULL;
    }
    uintptr_t dims[MAX_AXES + 2] = {shape->samples};
    for (uintptr_t a = 0; a < shape->axes; a++) {
        dims[a + 1] = COMPONENT_SIZE;
    }
    dims[shape->axes + 1] = shape->properties;
    uintptr_t size = block_size(shape);
    mts_block_t **blocks = failed ? NULL : calloc(shape->blocks, sizeof *blocks);
    failed = failed || blocks == NULL;
    for (uintptr_t b = 0; b < shape->blocks && !failed; b++) {
        struct bench_array *values = bench_array_new(shape->f32 ? BENCH_F32 : BENCH_F64, shape->axes + 2, dims);
        if (values == NULL) {
            bench_fail("out of memory");
            failed = true;
            break;
        }
        for (uintptr_t e = 0; e < size; e++) {
            if (shape->f32) {
                ((float *)values->data)[e] = (float)(1 + b + e % 1000);
            } else {
                ((double *)values->data)[e] = (double)(1 + b * size + e);
            }
        }
        blocks[b] = mts_block(bench_array_adopt(values), samples, components, shape->axes, properties);
        failed = bench_pointer(blocks[b], "mts_block") != 0;
    }
    mts_tensormap_t *map = NULL;
    if (!failed) {
        map = mts_tensormap(keys, blocks, shape->blocks);
        bench_pointer(map, "mts_tensormap");
    }
    for (uintptr_t b = 0; blocks != NULL && b < shape->blocks; b++) {
        if (blocks[b] != NULL) {
            mts_block_free(blocks[b]);
        }
    }
    free(blocks);
    for (uintptr_t a = 0; a < MAX_AXES; a++) {
        bench_labels_free(&components[a]);
    }
    bench_labels_free(&keys);
    bench_labels_free(&samples);
    bench_labels_free(&properties);
    return map;
}

/* Checks the number of samples and properties of the single block of the result. */
static int check_moved(const void *context, mts_tensormap_t *moved) {
    const struct sweep_case *c = context;
    mts_block_t *block = NULL;
    if (bench_status(mts_tensormap_block_by_id(moved, &block, 0), "mts_tensormap_block_by_id") != 0) {
        return -1;
    }
    mts_array_t data;
    memset(&data, 0, sizeof data);
    const uintptr_t *dims = NULL;
    uintptr_t count = 0;
    if (bench_status(mts_block_data(block, &data), "mts_block_data") != 0 ||
        bench_status(data.shape(data.ptr, &dims, &count), "mts_array_t.shape") != 0) {
        return -1;
    }
    const struct shape *s = &c->shape;
    uintptr_t samples = c->to_samples ? s->blocks * s->samples : s->samples;
    uintptr_t properties = c->to_samples ? s->properties : s->blocks * s->properties;
    if (count != s->axes + 2 || dims[0] != samples || dims[count - 1] != properties) {
        bench_fail("the moved block is not %zu samples x %zu properties", (size_t)samples, (size_t)properties);
        return -1;
    }
    return 0;
}

/* The map of the last case run, kept while the next case has the same shape. */
static struct {
    const struct shape *shape;
    mts_tensormap_t *map;
    const mts_labels_t *keys_to_move; /* "key", no rows */
} current;

static void current_free(void) {
    mts_tensormap_free(current.map);
    current.map = NULL;
    current.shape = NULL;
    bench_labels_free(&current.keys_to_move);
}

static int current_get(const struct shape *shape) {
    if (current.shape == shape && current.map != NULL) {
        return 0;
    }
    mts_tensormap_free(current.map);
    current.shape = shape;
    current.map = map_new(shape);
    if (current.keys_to_move == NULL) {
        struct bench_array *none = bench_array_new_i32(0, 1);
        const char *names[] = {"key"};
        if (none == NULL) {
            bench_fail("out of memory");
            return -1;
        }
        current.keys_to_move = mts_labels(names, 1, bench_array_adopt(none));
        if (bench_pointer(current.keys_to_move, "mts_labels") != 0) {
            return -1;
        }
    }
    return current.map == NULL ? -1 : 0;
}

/* The entry of shapes equal to a case's shape, which current_get keeps its map for. */
static const struct shape *shape_of(const struct sweep_case *c) {
    for (size_t i = 0; i < shapes_count; i++) {
        if (memcmp(&shapes[i], &c->shape, sizeof c->shape) == 0) {
            return &shapes[i];
        }
    }
    return &c->shape;
}

static int run_sweep(void *context, uint64_t n, double *elapsed_ns) {
    const struct sweep_case *c = context;
    const struct shape *shape = shape_of(c);
    if (current_get(shape) != 0) {
        return -1;
    }
    return bench_keys_to_loop(current.map, current.keys_to_move, c->to_samples, shape->sort_samples,
                              shape->f32 ? BENCH_F32 : BENCH_F64, n, false, elapsed_ns, check_moved, c);
}

/* Makes the map of the case's shape, moves its keys, frees both, n times; the time of all
 * but the check of the result. */
static int run_pipeline(void *context, uint64_t n, double *elapsed_ns) {
    const struct sweep_case *c = context;
    const struct shape *shape = shape_of(c);
    if (current_get(shape) != 0) { /* the keys to move */
        return -1;
    }
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        double start = bench_now_ns();
        mts_tensormap_t *map = map_new(shape);
        double made = bench_now_ns();
        double moving = 0;
        int moved = map == NULL ? -1
                                : bench_keys_to_loop(map, current.keys_to_move, c->to_samples, shape->sort_samples,
                                                     shape->f32 ? BENCH_F32 : BENCH_F64, 1, true, &moving, check_moved, c);
        double freeing = bench_now_ns();
        mts_tensormap_free(map);
        *elapsed_ns += made - start + moving + bench_now_ns() - freeing;
        if (moved != 0) {
            return -1;
        }
    }
    return 0;
}

static struct sweep_case sweep[4 * sizeof shapes / sizeof shapes[0]];
static bench_case cases[4 * sizeof shapes / sizeof shapes[0]];

/* One case per shape and direction, the shapes in the order of make_shapes. */
static size_t make_cases(void) {
    make_shapes();
    size_t count = 0;
    for (size_t i = 0; i < shapes_count; i++) {
        for (int to_samples = 1; to_samples >= 0; to_samples--) {
            struct sweep_case *c = &sweep[count];
            const struct shape *s = &shapes[i];
            c->shape = *s;
            c->to_samples = to_samples;
            const char *direction = to_samples ? "samples" : "properties";
            snprintf(c->id, sizeof c->id, "sweep_%s_b%zu_s%zu_c%zu_p%zu%s%s", direction, (size_t)s->blocks,
                     (size_t)s->samples, (size_t)s->axes, (size_t)s->properties, s->sort_samples ? "" : "_unsorted",
                     s->f32 ? "_f32" : "");
            snprintf(c->description, sizeof c->description, "keys_to_%s %zux(%zu x 3^%zu x %zu)%s%s", direction,
                     (size_t)s->blocks, (size_t)s->samples, (size_t)s->axes, (size_t)s->properties,
                     s->sort_samples ? "" : ", unsorted", s->f32 ? ", f32" : "");
            cases[count] = (bench_case){c->id, c->description, "call", run_sweep, c};
            count++;
        }
    }
    /* The pipelines of the shapes of at most 100 blocks of at most 1000 samples, where what
     * is paid besides the call weighs most. */
    for (size_t i = 0; i < shapes_count; i++) {
        const struct shape *s = &shapes[i];
        if (s->blocks > 100 || s->samples > 1000) {
            continue;
        }
        for (int to_samples = 1; to_samples >= 0; to_samples--) {
            struct sweep_case *c = &sweep[count];
            c->shape = *s;
            c->to_samples = to_samples;
            c->pipeline = true;
            const char *direction = to_samples ? "samples" : "properties";
            snprintf(c->id, sizeof c->id, "pipeline_%s_b%zu_s%zu_c%zu_p%zu%s%s", direction, (size_t)s->blocks,
                     (size_t)s->samples, (size_t)s->axes, (size_t)s->properties, s->sort_samples ? "" : "_unsorted",
                     s->f32 ? "_f32" : "");
            snprintf(c->description, sizeof c->description, "labels + map + keys_to_%s + free %zux(%zu x 3^%zu x %zu)%s%s",
                     direction, (size_t)s->blocks, (size_t)s->samples, (size_t)s->axes, (size_t)s->properties,
                     s->sort_samples ? "" : ", unsorted", s->f32 ? ", f32" : "");
            cases[count] = (bench_case){c->id, c->description, "call", run_pipeline, c};
            count++;
        }
    }
    return count;
}

int main(int argc, char **argv) {
    size_t count = make_cases();
    return bench_main(argc, argv, cases, count, (const void *)mts_tensormap_keys_to_properties,
                      "one call: map and fill value made before, result checked and freed after the timed region, "
                      "create/move_data callbacks inside it",
                      "metatensor-go.bench.keys-to-sweep", current_free);
}
