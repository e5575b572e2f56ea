/*
 * map_read_bench.c: what a user pays to read every block of a tensor map through the C API, as
 * a code does with the result of an operation or a map it loaded (built by `make bench`
 * against both libraries, like the other programs).
 *
 * Usage: map_read_bench [--quick] [--list] [PATTERN...]
 *
 * The map has N blocks (N = 10 and 1,000; also 1 and 100 for the sums below) of 10 samples x
 * one component axis of 3 x 4 properties, f64, over the caller's arrays (bench_dense_map_new).
 * One read of the map, the timed operation, is for each block: mts_tensormap_block_by_id,
 * mts_block_labels of its samples and of its properties (each given back with
 * mts_labels_free), and mts_block_data.
 * Cases, by where the map comes from (made before the timer), each reading the same map again
 * and again:
 *   read_all_made_N     the map as mts_tensormap made it from blocks made with mts_block
 *   read_all_used_N     the same map after one operation read it (mts_tensormap_copy, whose
 *                       result is freed at once): the input of an operation
 *   read_all_copy_N     that copy (the result of an operation: a map the library made)
 *   read_all_loaded_N   the map saved to a buffer and loaded back (mts_tensormap_load_buffer,
 *                       the arrays made by the caller's create callback,
 *                       bench_array_create_for_load)
 * and the first read of new maps, each read once (made in batches of up to 100 before the
 * timer, freed after it), which is what a code that reads each result once pays:
 *   read_once_copy_N    copies of the map
 *   read_once_loaded_N  loads of the saved map
 * and what a code that makes such a map, reads it once and frees it pays, all three timed (the
 * sum the two cases above leave out):
 *   copy_read_free_N    mts_tensormap_copy of the map, the read, mts_tensormap_free
 *   load_read_free_N    mts_tensormap_load_buffer of the map saved once, the read, the free
 * and the same without the read (copy_free_N, load_free_N), the rest of those sums.
 * and, for N = 10, the keys of the map taken and given back (mts_tensormap_keys,
 * mts_labels_free), the timed operation of keys_made_10 and keys_copy_10.
 */

#include <stdbool.h>
#include <stdlib.h>

#include <metatensor.h>

#include "bench_array.h"
#include "harness.h"

enum map_source { MADE, USED, COPY, LOADED };

struct read_case {
    uintptr_t blocks;
    enum map_source source;
    mts_tensormap_t *map;   /* made at the first run of the case */
    mts_tensormap_t *input; /* the map the copy and the loaded map come from */
    uint8_t *saved;         /* input saved with mts_tensormap_save_buffer, for loads */
    uintptr_t saved_count;
};

/* The realloc of mts_tensormap_save_buffer. */
static uint8_t *grow_buffer(void *user_data, uint8_t *buffer, uintptr_t size) {
    (void)user_data;
    return realloc(buffer, size);
}

/* Saves the case's input once, for its loads. */
static int save_input(struct read_case *c) {
    if (c->saved != NULL) {
        return 0;
    }
    return bench_status(mts_tensormap_save_buffer(&c->saved, &c->saved_count, NULL, grow_buffer, c->input),
                        "mts_tensormap_save_buffer");
}

/* A map the library made from the case's input, as its source says; NULL after bench_fail. */
static mts_tensormap_t *derived_map(struct read_case *c) {
    if (c->source == COPY) {
        mts_tensormap_t *copy = mts_tensormap_copy(c->input);
        return bench_pointer(copy, "mts_tensormap_copy") == 0 ? copy : NULL;
    }
    if (save_input(c) != 0) {
        return NULL;
    }
    mts_tensormap_t *loaded = mts_tensormap_load_buffer(c->saved, c->saved_count, bench_array_create_for_load);
    return bench_pointer(loaded, "mts_tensormap_load_buffer") == 0 ? loaded : NULL;
}

/* Makes the case's input, once. */
static int case_input(struct read_case *c) {
    if (c->input == NULL) {
        c->input = bench_dense_map_new(c->blocks, 10, 5, 1, 0, 4);
    }
    return c->input == NULL ? -1 : 0;
}

/* Makes the map of a case, once. */
static int case_map(struct read_case *c) {
    if (c->map != NULL) {
        return 0;
    }
    if (case_input(c) != 0) {
        return -1;
    }
    if (c->source == MADE || c->source == USED) {
        if (c->source == USED) {
            mts_tensormap_t *copy = mts_tensormap_copy(c->input);
            if (bench_pointer(copy, "mts_tensormap_copy") != 0) {
                return -1;
            }
            mts_tensormap_free(copy);
        }
        c->map = c->input; /* the input is the map read */
        c->input = NULL;
        return 0;
    }
    c->map = derived_map(c);
    return c->map == NULL ? -1 : 0;
}

/* Reads every block of the map once. */
static int read_all(const mts_tensormap_t *map, uintptr_t blocks) {
    for (uintptr_t b = 0; b < blocks; b++) {
        mts_block_t *block = NULL;
        if (bench_status(mts_tensormap_block_by_id((mts_tensormap_t *)map, &block, b), "mts_tensormap_block_by_id") !=
            0) {
            return -1;
        }
        const mts_labels_t *samples = mts_block_labels(block, 0);
        const mts_labels_t *properties = mts_block_labels(block, 2);
        if (bench_pointer(samples, "mts_block_labels") != 0 || bench_pointer(properties, "mts_block_labels") != 0) {
            mts_labels_free(samples);
            mts_labels_free(properties);
            return -1;
        }
        mts_labels_free(samples);
        mts_labels_free(properties);
        mts_array_t data = {0}; /* the reference drops what the output held before */
        if (bench_status(mts_block_data(block, &data), "mts_block_data") != 0) {
            return -1;
        }
    }
    return 0;
}

/* Takes the keys of the map and gives them back. */
static int read_keys(const mts_tensormap_t *map, uintptr_t blocks) {
    (void)blocks;
    const mts_labels_t *keys = mts_tensormap_keys(map);
    if (bench_pointer(keys, "mts_tensormap_keys") != 0) {
        return -1;
    }
    mts_labels_free(keys);
    return 0;
}

/* How a case reads a map: read_all or read_keys. */
typedef int (*read_map)(const mts_tensormap_t *map, uintptr_t blocks);

/* Times n rounds of a case. Each reads the case's map by `read`; or, with make_each, makes a
 * new copy or load of the case's input, reads it by `read` (when not NULL) and frees it. */
static int time_rounds(struct read_case *c, uint64_t n, double *elapsed_ns, bool make_each, read_map read) {
    if (make_each ? case_input(c) != 0 || (c->source == LOADED && save_input(c) != 0) : case_map(c) != 0) {
        return -1;
    }
    double start = bench_now_ns();
    for (uint64_t i = 0; i < n; i++) {
        mts_tensormap_t *map = make_each ? derived_map(c) : c->map;
        int result = map == NULL ? -1 : read == NULL ? 0 : read(map, c->blocks);
        if (make_each) {
            mts_tensormap_free(map);
        }
        if (result != 0) {
            return -1;
        }
    }
    *elapsed_ns = bench_now_ns() - start;
    return 0;
}

static int run_read(void *context, uint64_t n, double *elapsed_ns) {
    return time_rounds(context, n, elapsed_ns, false, read_all);
}

static int run_keys(void *context, uint64_t n, double *elapsed_ns) {
    return time_rounds(context, n, elapsed_ns, false, read_keys);
}

#define MAPS_PER_BATCH 100

/* Reads new maps once each: the copies or loads of a case's input, made in batches. */
static int run_read_once(void *context, uint64_t n, double *elapsed_ns) {
    struct read_case *c = context;
    if (case_input(c) != 0) {
        return -1;
    }
    mts_tensormap_t *maps[MAPS_PER_BATCH];
    int result = 0;
    *elapsed_ns = 0;
    for (uint64_t done = 0; done < n && result == 0; done += MAPS_PER_BATCH) {
        uint64_t count = n - done < MAPS_PER_BATCH ? n - done : MAPS_PER_BATCH;
        uint64_t made = 0;
        while (made < count && (maps[made] = derived_map(c)) != NULL) {
            made++;
        }
        result = made == count ? 0 : -1;
        double start = bench_now_ns();
        for (uint64_t m = 0; m < made && result == 0; m++) {
            result = read_all(maps[m], c->blocks);
        }
        *elapsed_ns += bench_now_ns() - start;
        for (uint64_t m = 0; m < made; m++) {
            mts_tensormap_free(maps[m]);
        }
    }
    return result;
}

/* What a code that makes a map, reads it once and frees it pays. */
static int run_make_read_free(void *context, uint64_t n, double *elapsed_ns) {
    return time_rounds(context, n, elapsed_ns, true, read_all);
}

/* The same without the read: the part of that sum that is not reading. */
static int run_make_free(void *context, uint64_t n, double *elapsed_ns) {
    return time_rounds(context, n, elapsed_ns, true, NULL);
}

#define READ_CASES(N)                                                                                         \
    {"read_all_made_" #N, "read every block of a map of " #N " made with mts_tensormap", "map", run_read,      \
     &(struct read_case){.blocks = N, .source = MADE}},                                                              \
    {"read_all_used_" #N, "read every block of the same after mts_tensormap_copy read it", "map", run_read, \
     &(struct read_case){.blocks = N, .source = USED}},                                                              \
    {"read_all_copy_" #N, "read every block of its copy (made by the library)", "map", run_read,            \
     &(struct read_case){.blocks = N, .source = COPY}},                                                              \
    {"read_all_loaded_" #N, "read every block of it saved and loaded", "map", run_read,                     \
     &(struct read_case){.blocks = N, .source = LOADED}},                                                            \
    {"read_once_copy_" #N, "the first read of every block of new copies of it", "map", run_read_once,       \
     &(struct read_case){.blocks = N, .source = COPY}},                                                              \
    {"read_once_loaded_" #N, "the first read of every block of new loads of it", "map", run_read_once,      \
     &(struct read_case){.blocks = N, .source = LOADED}},                                                            \
    MAKE_CASES(N)

/* The copy or load + (read +) free sums, also run over a sweep of sizes. */
#define MAKE_CASES(N)                                                                                         \
    {"copy_read_free_" #N, "mts_tensormap_copy + read every block + free", "map", run_make_read_free,     \
     &(struct read_case){.blocks = N, .source = COPY}},                                                              \
    {"load_read_free_" #N, "mts_tensormap_load_buffer + read every block + free", "map",                  \
     run_make_read_free, &(struct read_case){.blocks = N, .source = LOADED}},                                \
    {"copy_free_" #N, "mts_tensormap_copy + free (no read)", "map", run_make_free,                         \
     &(struct read_case){.blocks = N, .source = COPY}},                                                      \
    {"load_free_" #N, "mts_tensormap_load_buffer + free (no read)", "map", run_make_free,                  \
     &(struct read_case){.blocks = N, .source = LOADED}}

static const bench_case CASES[] = {
    MAKE_CASES(1),
    READ_CASES(10),
    MAKE_CASES(100),
    READ_CASES(1000),
    {"keys_made_10", "mts_tensormap_keys + mts_labels_free, a map of 10 made with mts_tensormap", "call", run_keys,
     &(struct read_case){.blocks = 10, .source = MADE}},
    {"keys_copy_10", "mts_tensormap_keys + mts_labels_free, its copy", "call", run_keys,
     &(struct read_case){.blocks = 10, .source = COPY}},
};

#define CASES_COUNT (sizeof CASES / sizeof CASES[0])

static void map_read_bench_free(void) {
    for (size_t i = 0; i < CASES_COUNT; i++) {
        struct read_case *c = CASES[i].context;
        mts_tensormap_free(c->map);
        mts_tensormap_free(c->input);
        free(c->saved);
        c->map = c->input = NULL;
        c->saved = NULL;
    }
}

int main(int argc, char **argv) {
    return bench_main(argc, argv, CASES, CASES_COUNT, (const void *)mts_tensormap,
                      "maps made before the timer; per map: every block read (block_by_id, samples and properties "
                      "labels taken and given back, values view)",
                      "metatensor-go.bench.map_read", map_read_bench_free);
}
