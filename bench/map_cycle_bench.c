/*
 * map_cycle_bench.c: what a user pays to build tensor maps and free them, step by step and
 * summed, in the setting of a code that wraps its own arrays (built by `make bench` against
 * both libraries, like the other programs).
 *
 * Usage: map_cycle_bench [--quick] [--list] [PATTERN...]
 *
 * Setting: every block is 100 x 100 over a caller's mts_array_t that holds only a shape (no
 * data: building and freeing maps never reads values); all blocks share one samples labels
 * ("sample" = 0..99) and one properties labels ("property" = 0..99), both made with
 * mts_labels_assume_unique; the keys "key" = 0..N-1 are made with mts_labels_assume_unique
 * too. N is 10 or 10,000. Cases (ids start with "map_"), per map of N blocks:
 *   blocks_N     the N mts_block calls alone
 *   build_N      mts_tensormap + mts_tensormap_free, the blocks made before the timer
 *   pipeline_N   all three: N x mts_block, mts_tensormap, mts_tensormap_free
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

static struct {
    bool tried;
    char error[1024];
    struct bench_array *shape_only; /* SIDE x SIDE f64, no data */
    const mts_labels_t *samples;
    const mts_labels_t *properties;
    const mts_labels_t *keys_10;
    const mts_labels_t *keys_10000;
} setting;

static void setting_free(void) {
    bench_labels_free(&setting.samples);
    bench_labels_free(&setting.properties);
    bench_labels_free(&setting.keys_10);
    bench_labels_free(&setting.keys_10000);
    bench_array_release(setting.shape_only);
    setting.shape_only = NULL;
}

static int setting_get(void) {
    if (!setting.tried) {
        setting.tried = true;
        const uintptr_t shape[2] = {SIDE, SIDE};
        setting.shape_only = bench_array_new_shape_only(BENCH_F64, 2, shape);
        int failed = setting.shape_only == NULL;
        if (failed) {
            bench_fail("out of memory");
        }
        failed = failed || (setting.samples = bench_unique_range_labels("sample", 0, SIDE)) == NULL;
        failed = failed || (setting.properties = bench_unique_range_labels("property", 0, SIDE)) == NULL;
        failed = failed || (setting.keys_10 = bench_unique_range_labels("key", 0, 10)) == NULL;
        failed = failed || (setting.keys_10000 = bench_unique_range_labels("key", 0, 10000)) == NULL;
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

static void blocks_free(mts_block_t **blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        if (blocks[i] != NULL) {
            mts_block_free(blocks[i]);
            blocks[i] = NULL;
        }
    }
}

/* Makes `count` blocks; on failure frees those made and returns -1. */
static int blocks_make(mts_block_t **blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        blocks[i] = mts_block(bench_array_share(setting.shape_only), setting.samples, NULL, 0, setting.properties);
        if (blocks[i] == NULL) {
            bench_pointer(NULL, "mts_block");
            blocks_free(blocks, i);
            return -1;
        }
    }
    return 0;
}

/* Builds a map of `count` blocks and frees it; the blocks are taken by the map. */
static int map_cycle(const mts_labels_t *keys, mts_block_t **blocks, uintptr_t count) {
    mts_tensormap_t *map = mts_tensormap(keys, blocks, count);
    if (map == NULL) {
        bench_pointer(NULL, "mts_tensormap");
        blocks_free(blocks, count);
        return -1;
    }
    return bench_status(mts_tensormap_free(map), "mts_tensormap_free");
}

/* What a case times of the cycle blocks -> map -> free. */
enum timed { TIME_BLOCKS, TIME_MAP, TIME_ALL };

struct cycle_case {
    uintptr_t blocks;
    enum timed timed;
};

static int run_cycle(void *context, uint64_t n, double *elapsed_ns) {
    const struct cycle_case *c = context;
    if (setting_get() != 0) {
        return -1;
    }
    const mts_labels_t *keys = c->blocks == 10 ? setting.keys_10 : setting.keys_10000;
    uint64_t per_batch = c->blocks * MAPS_PER_BATCH <= 100000 ? MAPS_PER_BATCH : 1;
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
            result = blocks_make(blocks + m * c->blocks, c->blocks);
        }
        double made = bench_now_ns();
        for (uint64_t m = 0; m < maps && result == 0; m++) {
            result = map_cycle(keys, blocks + m * c->blocks, c->blocks);
        }
        double freed = bench_now_ns();
        *elapsed_ns += c->timed == TIME_BLOCKS ? made - start : c->timed == TIME_MAP ? freed - made : freed - start;
    }
    blocks_free(blocks, per_batch * c->blocks);
    free(blocks);
    return result;
}

static struct cycle_case blocks_10 = {10, TIME_BLOCKS};
static struct cycle_case build_10 = {10, TIME_MAP};
static struct cycle_case pipeline_10 = {10, TIME_ALL};
static struct cycle_case blocks_10000 = {10000, TIME_BLOCKS};
static struct cycle_case build_10000 = {10000, TIME_MAP};
static struct cycle_case pipeline_10000 = {10000, TIME_ALL};

static const bench_case CASES[] = {
    {"map_blocks_10", "10 x mts_block, 100x100 shape-only arrays", "map", run_cycle, &blocks_10},
    {"map_build_10", "mts_tensormap + free, 10 blocks", "map", run_cycle, &build_10},
    {"map_pipeline_10", "10 x mts_block + mts_tensormap + free", "map", run_cycle, &pipeline_10},
    {"map_blocks_10000", "10,000 x mts_block, 100x100 shape-only arrays", "map", run_cycle, &blocks_10000},
    {"map_build_10000", "mts_tensormap + free, 10,000 blocks", "map", run_cycle, &build_10000},
    {"map_pipeline_10000", "10,000 x mts_block + mts_tensormap + free", "map", run_cycle, &pipeline_10000},
};

#define CASES_COUNT (sizeof CASES / sizeof CASES[0])

int main(int argc, char **argv) {
    return bench_main(argc, argv, CASES, CASES_COUNT, (const void *)mts_tensormap,
                      "per map: blocks_N times the mts_block calls only, build_N mts_tensormap + "
                      "mts_tensormap_free only (blocks made before), pipeline_N all three",
                      "metatensor-go.bench.map-cycle", setting_free);
}
