/*
 * map_cycle_bench.c: what a user pays to build tensor maps and free them, step by step and
 * summed, in the setting of a code that wraps its own arrays (built by `make bench` against
 * both libraries, like the other programs).
 *
 * Usage: map_cycle_bench [--quick] [--list] [PATTERN...]
 *
 * Base setting: every block is 100 x 100 over a caller's mts_array_t that holds only a shape
 * (no data: building and freeing maps never reads values); all blocks share one samples labels
 * ("sample" = 0..99) and one properties labels ("property" = 0..99), both made with
 * mts_labels_assume_unique; the keys "key" = 0..N-1 are made with mts_labels_assume_unique
 * too. N is 1, 10, 100, 10,000 or 100,000. Cases (ids start with "map_"), per map of N blocks:
 *   blocks_N     the N mts_block calls alone
 *   build_N      mts_tensormap + mts_tensormap_free, the blocks made before the timer
 *   pipeline_N   all three: N x mts_block, mts_tensormap, mts_tensormap_free
 *   read_N       the pipeline with one read of the map before its free: a block
 *                (mts_tensormap_block_by_id of the last one), for N = 1, 10 and 10,000 in the
 *                base setting
 *   dtype_N      the same with mts_tensormap_dtype as the read (our library answers it in C
 *                for a map built in C, as it does the reads of blocks)
 *   info_N       the same with mts_tensormap_info_keys as the read (our library answers it in
 *                C too)
 *   set_info_N   the same with one mts_tensormap_set_info as the use (in C too)
 *   read_in_go_N the same with mts_tensormap_get_info of a key that is not ASCII as the read,
 *                which our library answers in Go (it checks the key is UTF-8): it makes the
 *                tensor map in Go then, as for any operation (keys_to_*, copy, save...), which
 *                the others do not need
 *   set_info_read_in_go_N  set_info, then the read in Go: our library copies the info set in C
 *                into Go when it makes the map, the cost set_info_N leaves to a later use.
 *                The six show what a user pays when a map built in C is used
 *   gradient_N   the pipeline of the _gradients setting (below) with the last block's gradient
 *                read (block_by_id, then mts_block_gradient), for N = 10 and 10,000;
 *                read_in_go_gradients_N, the same with the read in Go (Go makes the map, its
 *                blocks and their gradients)
 *   make_N       mts_tensormap alone (the blocks made and the maps freed untimed), for N = 1, 10
 *                and 10,000 in the base setting and N = 10 and 10,000 in every other one;
 *                free_N, mts_tensormap_free alone (blocks and maps made untimed), the same N;
 *                free_used_N, the same for maps given one info entry (set_info) before the
 *                timer: the free of a map a user has named; free_read_in_go_N (N = 1 and 10),
 *                the same for maps read once in Go (as read_in_go_N): the free of a map Go has
 *                made, as the input of an operation is. make_N + free_N should be build_N
 * Other settings, for N = 10 and 10,000 (the id ends with the setting's name):
 *   _loaded      the samples and properties labels are loaded from buffers
 *                (mts_labels_load_buffer): labels whose values the library owns
 *   _distinct    each block has samples of its own ("sample" = 100 b .. 100 b + 99, made with
 *                mts_labels_assume_unique), the properties are shared
 *   _gradients   the base setting, each block with one gradient ("positions": 100 samples x 3
 *                "xyz" x 100 properties, shape-only too) made and added by the blocks step,
 *                over the block's properties labels
 *   _gradients_own_properties  the same, the gradients over properties labels of their own,
 *                equal to the block's (one labels for all gradients, made like the block's)
 * The maps of one timed batch (100 maps at most) have their blocks made up front when those
 * are not timed. blocks_N + build_N should be pipeline_N: the summed case shows that no step
 * moves its cost into another.
 */

#include <stdbool.h>
#include <stdlib.h>

#include <metatensor.h>

#include "bench_array.h"
#include "harness.h"

#define SIDE 100
#define MAPS_PER_BATCH 100

/* The settings of the blocks (see the header). */
enum labels_kind { LABELS_SHARED, LABELS_LOADED, LABELS_DISTINCT };

enum gradient_kind { GRADIENT_NONE, GRADIENT_SHARED, GRADIENT_OWN_PROPERTIES };

struct cycle_setting {
    enum labels_kind labels;
    enum gradient_kind gradients;
};

#define MAX_DISTINCT 10000 /* the largest N of the distinct setting */

static struct {
    bool tried;
    char error[1024];
    struct bench_array *shape_only;          /* SIDE x SIDE f64, no data */
    struct bench_array *gradient_shape_only; /* SIDE x 3 x SIDE f64, no data */
    const mts_labels_t *samples;
    const mts_labels_t *properties;
    const mts_labels_t *loaded_samples;
    const mts_labels_t *loaded_properties;
    const mts_labels_t *xyz;
    const mts_labels_t *gradient_properties; /* equal to `properties`, another labels */
    const mts_labels_t *distinct_samples[MAX_DISTINCT]; /* made on first use */
    const mts_labels_t *keys[6];                        /* for N = 1, 10, 100, 1e4, 1e5, made on first use */
} setting;

static const uintptr_t KEY_COUNTS[6] = {1, 10, 100, 10000, 100000, 0};

static void setting_free(void) {
    bench_labels_free(&setting.samples);
    bench_labels_free(&setting.properties);
    bench_labels_free(&setting.loaded_samples);
    bench_labels_free(&setting.loaded_properties);
    bench_labels_free(&setting.xyz);
    bench_labels_free(&setting.gradient_properties);
    for (uintptr_t i = 0; i < MAX_DISTINCT; i++) {
        bench_labels_free(&setting.distinct_samples[i]);
    }
    for (uintptr_t i = 0; i < 6; i++) {
        bench_labels_free(&setting.keys[i]);
    }
    bench_array_release(setting.shape_only);
    bench_array_release(setting.gradient_shape_only);
    setting.shape_only = setting.gradient_shape_only = NULL;
}

static uint8_t *grow_buffer(void *user_data, uint8_t *buffer, uintptr_t size) {
    (void)user_data;
    return realloc(buffer, size);
}

/* A copy of labels through mts_labels_save_buffer and mts_labels_load_buffer, or NULL after
 * bench_fail. */
static const mts_labels_t *reloaded(const mts_labels_t *labels) {
    uint8_t *buffer = NULL;
    uintptr_t size = 0;
    if (bench_status(mts_labels_save_buffer(&buffer, &size, NULL, grow_buffer, labels), "mts_labels_save_buffer") != 0) {
        free(buffer);
        return NULL;
    }
    const mts_labels_t *loaded = mts_labels_load_buffer(buffer, size);
    free(buffer);
    bench_pointer(loaded, "mts_labels_load_buffer");
    return loaded;
}

static int setting_get(void) {
    if (!setting.tried) {
        setting.tried = true;
        const uintptr_t shape[2] = {SIDE, SIDE};
        const uintptr_t gradient_shape[3] = {SIDE, 3, SIDE};
        setting.shape_only = bench_array_new_shape_only(BENCH_F64, 2, shape);
        setting.gradient_shape_only = bench_array_new_shape_only(BENCH_F64, 3, gradient_shape);
        int failed = setting.shape_only == NULL || setting.gradient_shape_only == NULL;
        if (failed) {
            bench_fail("out of memory");
        }
        failed = failed || (setting.samples = bench_unique_range_labels("sample", 0, SIDE)) == NULL;
        failed = failed || (setting.properties = bench_unique_range_labels("property", 0, SIDE)) == NULL;
        failed = failed || (setting.xyz = bench_unique_range_labels("xyz", 0, 3)) == NULL;
        failed = failed || (setting.gradient_properties = bench_unique_range_labels("property", 0, SIDE)) == NULL;
        failed = failed || (setting.loaded_samples = reloaded(setting.samples)) == NULL;
        failed = failed || (setting.loaded_properties = reloaded(setting.properties)) == NULL;
        if (failed) {
            snprintf(setting.error, sizeof setting.error, "setup: %s", bench_error());
            setting_free();
        }
    }
    if (setting.shape_only == NULL) {
        bench_fail("%s", setting.error);
        return -1;
    }
    return 0;
}

/* The keys of a map of `count` blocks, made on first use; NULL after bench_fail. */
static const mts_labels_t *keys_of(uintptr_t count) {
    for (uintptr_t i = 0; KEY_COUNTS[i] != 0; i++) {
        if (KEY_COUNTS[i] == count) {
            if (setting.keys[i] == NULL) {
                setting.keys[i] = bench_unique_range_labels("key", 0, count);
            }
            return setting.keys[i];
        }
    }
    bench_fail("no keys for %lu blocks", (unsigned long)count);
    return NULL;
}

/* The setting, and the keys of a map of `count` blocks; NULL after bench_fail. */
static const mts_labels_t *setting_keys(uintptr_t count) {
    return setting_get() != 0 ? NULL : keys_of(count);
}

/* How many maps of `count` blocks one timed batch holds: 100,000 blocks at most. */
static uint64_t maps_per_batch(uintptr_t count) {
    return count * MAPS_PER_BATCH <= 100000 ? MAPS_PER_BATCH : 1;
}

/* The samples of block b, made on first use for the distinct setting (run_cycle asks for every
 * block's before its timer starts); NULL after bench_fail. */
static const mts_labels_t *samples_of(const struct cycle_setting *s, uintptr_t b) {
    switch (s->labels) {
    case LABELS_LOADED:
        return setting.loaded_samples;
    case LABELS_DISTINCT:
        if (b >= MAX_DISTINCT) {
            bench_fail("no distinct samples for block %lu", (unsigned long)b);
            return NULL;
        }
        if (setting.distinct_samples[b] == NULL) {
            setting.distinct_samples[b] = bench_unique_range_labels("sample", (int32_t)(b * SIDE), SIDE);
        }
        return setting.distinct_samples[b];
    default:
        return setting.samples;
    }
}

/* Makes the labels of the setting's first `count` blocks that are made on first use, so that
 * no timer includes them; -1 after bench_fail. */
static int setting_labels(const struct cycle_setting *s, uintptr_t count) {
    for (uintptr_t b = 0; b < count; b++) {
        if (samples_of(s, b) == NULL) {
            return -1;
        }
    }
    return 0;
}

static void blocks_free(mts_block_t **blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        if (blocks[i] != NULL) {
            mts_block_free(blocks[i]);
            blocks[i] = NULL;
        }
    }
}

/* Makes one block of the setting (with its gradient); NULL after bench_fail. */
static mts_block_t *block_make(const struct cycle_setting *s, uintptr_t b) {
    const mts_labels_t *samples = samples_of(s, b);
    const mts_labels_t *properties = s->labels == LABELS_LOADED ? setting.loaded_properties : setting.properties;
    if (samples == NULL) {
        return NULL;
    }
    mts_block_t *block = mts_block(bench_array_share(setting.shape_only), samples, NULL, 0, properties);
    if (bench_pointer(block, "mts_block") != 0 || s->gradients == GRADIENT_NONE) {
        return block;
    }
    /* the gradient's samples are the block's (a valid "sample" dimension), with an "xyz" axis */
    const mts_labels_t *gradient_properties =
        s->gradients == GRADIENT_OWN_PROPERTIES ? setting.gradient_properties : properties;
    mts_block_t *gradient = mts_block(bench_array_share(setting.gradient_shape_only), setting.samples,
                                      &setting.xyz, 1, gradient_properties);
    if (bench_pointer(gradient, "mts_block (gradient)") != 0 ||
        bench_status(mts_block_add_gradient(block, "positions", gradient), "mts_block_add_gradient") != 0) {
        if (gradient != NULL) {
            mts_block_free(gradient); /* not taken: add_gradient failed */
        }
        mts_block_free(block);
        return NULL;
    }
    return block;
}

/* Makes `count` blocks; on failure frees those made and returns -1. */
static int blocks_make(const struct cycle_setting *s, mts_block_t **blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        blocks[i] = block_make(s, i);
        if (blocks[i] == NULL) {
            blocks_free(blocks, i);
            return -1;
        }
    }
    return 0;
}

/* What a case times of the cycle blocks -> map (-> read) -> free, and the read. */
enum timed {
    TIME_BLOCKS,
    TIME_MAP,
    TIME_ALL,
    TIME_ALL_READ,
    TIME_ALL_DTYPE,
    TIME_ALL_INFO,
    TIME_ALL_SET_INFO,
    TIME_ALL_READ_IN_GO,
    TIME_ALL_SET_INFO_READ_IN_GO,
    TIME_ALL_GRADIENT
};

/* The use of set_info_N and free_used_N: one info entry set. */
static int set_one_info(mts_tensormap_t *map) {
    return bench_status(mts_tensormap_set_info(map, "source", "map_cycle_bench"), "mts_tensormap_set_info");
}

/* The read of read_in_go_N and free_read_in_go_N: the info of a key that is not ASCII, which
 * our library answers in Go, making the map there. */
static int read_in_go(const mts_tensormap_t *map) {
    const char *value = NULL;
    return bench_status(mts_tensormap_get_info(map, "\xc3\xa9nergie", &value), "mts_tensormap_get_info");
}

/* Builds a map of `count` blocks, reads it as `timed` says, and frees it; the blocks are taken
 * by the map. */
static int map_cycle(const mts_labels_t *keys, mts_block_t **blocks, uintptr_t count, enum timed timed) {
    mts_tensormap_t *map = mts_tensormap(keys, blocks, count);
    if (map == NULL) {
        bench_pointer(NULL, "mts_tensormap");
        blocks_free(blocks, count);
        return -1;
    }
    int result = 0;
    if (timed == TIME_ALL_READ || timed == TIME_ALL_GRADIENT) {
        mts_block_t *block = NULL;
        result = bench_status(mts_tensormap_block_by_id(map, &block, count - 1), "mts_tensormap_block_by_id");
        if (result == 0 && timed == TIME_ALL_GRADIENT) {
            mts_block_t *gradient = NULL;
            result = bench_status(mts_block_gradient(block, "positions", &gradient), "mts_block_gradient");
        }
    } else if (timed == TIME_ALL_DTYPE) {
        DLDataType dtype;
        result = bench_status(mts_tensormap_dtype(map, &dtype), "mts_tensormap_dtype");
    } else if (timed == TIME_ALL_INFO) {
        const char *const *info_keys = NULL;
        uintptr_t info_count = 0;
        result = bench_status(mts_tensormap_info_keys(map, &info_keys, &info_count), "mts_tensormap_info_keys");
    } else if (timed == TIME_ALL_SET_INFO || timed == TIME_ALL_SET_INFO_READ_IN_GO) {
        result = set_one_info(map);
    }
    if (result == 0 && (timed == TIME_ALL_READ_IN_GO || timed == TIME_ALL_SET_INFO_READ_IN_GO)) {
        result = read_in_go(map);
    }
    int freed = bench_status(mts_tensormap_free(map), "mts_tensormap_free");
    return result != 0 ? result : freed;
}

struct cycle_case {
    uintptr_t blocks;
    enum timed timed;
    struct cycle_setting setting;
};

static int run_cycle(void *context, uint64_t n, double *elapsed_ns) {
    const struct cycle_case *c = context;
    const mts_labels_t *keys = setting_keys(c->blocks);
    if (keys == NULL) {
        return -1;
    }
    if (setting_labels(&c->setting, c->blocks) != 0) {
        return -1;
    }
    uint64_t per_batch = maps_per_batch(c->blocks);
    mts_block_t **blocks = calloc(per_batch * c->blocks, sizeof *blocks);
    if (blocks == NULL) {
        bench_fail("out of memory");
        return -1;
    }
    int result = 0;
    *elapsed_ns = 0;
    for (uint64_t done = 0; done < n && result == 0; done += per_batch) {
        uint64_t maps = n - done < per_batch ? n - done : per_batch;
        double start = bench_now_ns();
        for (uint64_t m = 0; m < maps && result == 0; m++) {
            result = blocks_make(&c->setting, blocks + m * c->blocks, c->blocks);
        }
        double made = bench_now_ns();
        for (uint64_t m = 0; m < maps && result == 0; m++) {
            result = map_cycle(keys, blocks + m * c->blocks, c->blocks, c->timed);
        }
        double freed = bench_now_ns();
        *elapsed_ns += c->timed == TIME_BLOCKS ? made - start : c->timed == TIME_MAP ? freed - made : freed - start;
    }
    blocks_free(blocks, per_batch * c->blocks);
    free(blocks);
    return result;
}

/* A make_N, free_N or free_used_N case: one step of the cycle timed alone, over maps of N
 * blocks made (and used once for free_used_N) in batches. */
enum alone_step { ALONE_MAKE, ALONE_FREE, ALONE_FREE_USED, ALONE_FREE_READ_IN_GO };

struct alone_case {
    uintptr_t blocks;
    enum alone_step step;
    struct cycle_setting setting;
};

/* Makes the blocks of a map (untimed), then the map, using it once for free_used_N; NULL
 * after bench_fail (the blocks freed). `made_ns` gets the time mts_tensormap took. */
static mts_tensormap_t *alone_case_map(const struct alone_case *c, const mts_labels_t *keys, mts_block_t **blocks,
                                       double *made_ns) {
    if (blocks_make(&c->setting, blocks, c->blocks) != 0) {
        return NULL;
    }
    double start = bench_now_ns();
    mts_tensormap_t *map = mts_tensormap(keys, blocks, c->blocks);
    *made_ns += bench_now_ns() - start;
    if (bench_pointer(map, "mts_tensormap") != 0) {
        blocks_free(blocks, c->blocks);
        return NULL;
    }
    if ((c->step == ALONE_FREE_USED && set_one_info(map) != 0) ||
        (c->step == ALONE_FREE_READ_IN_GO && read_in_go(map) != 0)) {
        mts_tensormap_free(map);
        return NULL;
    }
    return map;
}

static int run_alone(void *context, uint64_t n, double *elapsed_ns) {
    const struct alone_case *c = context;
    const mts_labels_t *keys = setting_keys(c->blocks);
    if (keys == NULL || setting_labels(&c->setting, c->blocks) != 0) {
        return -1;
    }
    uint64_t per_batch = maps_per_batch(c->blocks);
    mts_block_t **blocks = calloc(c->blocks, sizeof *blocks);
    mts_tensormap_t **maps = calloc(per_batch, sizeof *maps);
    int result = 0;
    if (blocks == NULL || maps == NULL) {
        bench_fail("out of memory");
        result = -1;
    }
    double made_ns = 0, freed_ns = 0;
    for (uint64_t done = 0; done < n && result == 0; done += per_batch) {
        uint64_t count = n - done < per_batch ? n - done : per_batch;
        for (uint64_t m = 0; m < count && result == 0; m++) {
            maps[m] = alone_case_map(c, keys, blocks, &made_ns);
            result = maps[m] == NULL ? -1 : 0;
        }
        double start = bench_now_ns();
        for (uint64_t m = 0; m < count && maps[m] != NULL; m++) {
            int freed = bench_status(mts_tensormap_free(maps[m]), "mts_tensormap_free");
            maps[m] = NULL;
            result = result != 0 ? result : freed;
        }
        freed_ns += bench_now_ns() - start;
    }
    *elapsed_ns = c->step == ALONE_MAKE ? made_ns : freed_ns;
    free(maps);
    free(blocks);
    return result;
}

#define SHARED {LABELS_SHARED, GRADIENT_NONE}
#define LOADED {LABELS_LOADED, GRADIENT_NONE}
#define DISTINCT {LABELS_DISTINCT, GRADIENT_NONE}
#define GRADIENTS {LABELS_SHARED, GRADIENT_SHARED}
#define GRADIENTS_OWN_PROPERTIES {LABELS_SHARED, GRADIENT_OWN_PROPERTIES}

/* The three cases of one N and setting: ID_SUFFIX is "_N[_setting]", TEXT says the setting. */
#define CYCLE_CASES(N, SETTING, ID_SUFFIX, TEXT)                                                          \
    {"map_blocks" ID_SUFFIX, #N " x mts_block, 100x100 shape-only arrays" TEXT, "map", run_cycle,          \
     &(struct cycle_case){N, TIME_BLOCKS, SETTING}},                                                        \
    {"map_build" ID_SUFFIX, "mts_tensormap + free, " #N " blocks" TEXT, "map", run_cycle,                  \
     &(struct cycle_case){N, TIME_MAP, SETTING}},                                                           \
    {"map_pipeline" ID_SUFFIX, #N " x mts_block + mts_tensormap + free" TEXT, "map", run_cycle,            \
     &(struct cycle_case){N, TIME_ALL, SETTING}}

/* The pipeline of N blocks in the base setting with one read of the map before it is freed
 * (a block, the dtype, the info keys, or a read in Go), or one use (set_info), or set_info and
 * the read in Go. */
#define READ_CASES(N)                                                                                      \
    {"map_read_" #N, #N " x mts_block + mts_tensormap + block_by_id + free", "map", run_cycle,            \
     &(struct cycle_case){N, TIME_ALL_READ, SHARED}},                                                       \
    {"map_dtype_" #N, #N " x mts_block + mts_tensormap + dtype + free", "map", run_cycle,                 \
     &(struct cycle_case){N, TIME_ALL_DTYPE, SHARED}},                                                      \
    {"map_info_" #N, #N " x mts_block + mts_tensormap + info_keys + free", "map", run_cycle,              \
     &(struct cycle_case){N, TIME_ALL_INFO, SHARED}},                                                       \
    {"map_set_info_" #N, #N " x mts_block + mts_tensormap + set_info + free", "map", run_cycle,           \
     &(struct cycle_case){N, TIME_ALL_SET_INFO, SHARED}},                                                   \
    {"map_read_in_go_" #N, #N " x mts_block + mts_tensormap + get_info (in Go) + free", "map", run_cycle, \
     &(struct cycle_case){N, TIME_ALL_READ_IN_GO, SHARED}},                                                 \
    {"map_set_info_read_in_go_" #N, #N " x mts_block + mts_tensormap + set_info + get_info (in Go) + free", \
     "map", run_cycle, &(struct cycle_case){N, TIME_ALL_SET_INFO_READ_IN_GO, SHARED}}

/* mts_tensormap alone, and mts_tensormap_free alone of maps never used and of maps used once,
 * for N blocks of one setting (ID_SUFFIX and TEXT as in CYCLE_CASES). */
#define ALONE_CASES(N, SETTING, ID_SUFFIX, TEXT)                                                          \
    {"map_make" ID_SUFFIX, "mts_tensormap alone, " #N " blocks" TEXT, "map", run_alone,                    \
     &(struct alone_case){N, ALONE_MAKE, SETTING}},                                                         \
    {"map_free" ID_SUFFIX, "mts_tensormap_free alone, " #N " blocks" TEXT, "map", run_alone,               \
     &(struct alone_case){N, ALONE_FREE, SETTING}},                                                         \
    {"map_free_used" ID_SUFFIX, "mts_tensormap_free alone, " #N " blocks" TEXT ", map used once (set_info)", \
     "map", run_alone, &(struct alone_case){N, ALONE_FREE_USED, SETTING}}

/* mts_tensormap_free alone of maps of N blocks in the base setting that Go made for a read
 * without setting info. */
#define FREE_READ_IN_GO_CASE(N)                                                                            \
    {"map_free_read_in_go_" #N, "mts_tensormap_free alone, " #N " blocks, map read once in Go (get_info)",  \
     "map", run_alone, &(struct alone_case){N, ALONE_FREE_READ_IN_GO, SHARED}}

/* The pipeline with gradients, with the last block's gradient read, or with a read in Go (Go
 * makes the map, its blocks and their gradients). */
#define GRADIENT_READ_CASES(N)                                                                             \
    {"map_gradient_" #N, #N " x mts_block + gradient + mts_tensormap + block_by_id + gradient + free",     \
     "map", run_cycle, &(struct cycle_case){N, TIME_ALL_GRADIENT, GRADIENTS}},                              \
    {"map_read_in_go_gradients_" #N, #N " x mts_block + gradient + mts_tensormap + get_info (in Go) + free", \
     "map", run_cycle, &(struct cycle_case){N, TIME_ALL_READ_IN_GO, GRADIENTS}}

/* The cases of CASES (CYCLE_CASES or ALONE_CASES) for N = 10 and 10,000 in every setting but the
 * base one. */
#define OTHER_SETTINGS(CASES)                                                                              \
    CASES(10, LOADED, "_10_loaded", ", loaded labels"),                                                     \
    CASES(10000, LOADED, "_10000_loaded", ", loaded labels"),                                               \
    CASES(10, DISTINCT, "_10_distinct", ", own samples"),                                                   \
    CASES(10000, DISTINCT, "_10000_distinct", ", own samples"),                                             \
    CASES(10, GRADIENTS, "_10_gradients", ", with a gradient"),                                             \
    CASES(10000, GRADIENTS, "_10000_gradients", ", with a gradient"),                                       \
    CASES(10, GRADIENTS_OWN_PROPERTIES, "_10_gradients_own_properties", ", gradient properties of their own"), \
    CASES(10000, GRADIENTS_OWN_PROPERTIES, "_10000_gradients_own_properties", ", gradient properties of their own")

static const bench_case CASES[] = {
    CYCLE_CASES(10, SHARED, "_10", ""),
    CYCLE_CASES(10000, SHARED, "_10000", ""),
    READ_CASES(10),
    READ_CASES(10000),
    CYCLE_CASES(1, SHARED, "_1", ""),
    READ_CASES(1),
    CYCLE_CASES(100, SHARED, "_100", ""),
    CYCLE_CASES(100000, SHARED, "_100000", ""),
    OTHER_SETTINGS(CYCLE_CASES),
    GRADIENT_READ_CASES(10),
    GRADIENT_READ_CASES(10000),
    ALONE_CASES(1, SHARED, "_1", ""),
    ALONE_CASES(10, SHARED, "_10", ""),
    FREE_READ_IN_GO_CASE(1),
    FREE_READ_IN_GO_CASE(10),
    ALONE_CASES(10000, SHARED, "_10000", ""),
    OTHER_SETTINGS(ALONE_CASES),
};

#define CASES_COUNT (sizeof CASES / sizeof CASES[0])

int main(int argc, char **argv) {
    return bench_main(argc, argv, CASES, CASES_COUNT, (const void *)mts_tensormap,
                      "per map: blocks_N times the mts_block calls only, build_N mts_tensormap + "
                      "mts_tensormap_free only (blocks made before), pipeline_N all three, the "
                      "other pipelines (read_N, dtype_N, info_N, set_info_N, read_in_go_N...) all "
                      "three and the uses of the map their name says",
                      "metatensor-go.bench.map-cycle", setting_free);
}
