/*
 * tensor_bench.c: timings of the block and tensor map functions of the metatensor C API.
 *
 * Like labels_bench.c, it uses only metatensor.h and is built once against our library and
 * once against the reference (`make bench`, bench/run.sh).
 *
 * Usage: tensor_bench [--quick] [--list] [PATTERN...]
 *   --quick   3 samples per case and the shortest warm-up: a smoke test, not a measurement
 *   --list    print the case ids and exit
 *   PATTERN   run only the cases whose id contains one of the patterns ("tensor" takes all)
 *
 * Cases (every id starts with "tensor_"):
 *   block_create        mts_block on 8x3x4 f64 values: arrays share one buffer, blocks are
 *                       freed after the timed region
 *   build_10000         mts_tensormap over 10,000 such blocks, keys 10,000 x 2, then the first
 *                       read of the map (mts_tensormap_block_by_id of its last block), timed
 *                       together. The blocks are made before the timed region, the map freed
 *                       after it
 *   free_10000          mts_tensormap_free of such a map, made and read before the timed region
 *   keys_to_samples     on 50 blocks of 2000 samples x 5 components x 64 properties f64 (keys
 *                       50 x 1, all moved), samples sorted or not
 *   keys_to_properties  the same map, keys_to_move without rows, samples sorted or not
 * For the keys_to_* cases the fill value is made before and the result checked (spot checks
 * of labels and values) and freed after the timed region; the array callbacks the library
 * calls (create and move_data of bench_array.c) run inside it, for both libraries alike.
 *
 * A function that fails gives an error row with its message (see harness.h); the inputs a
 * case shares with others are made on first use, and a failure there is reported by every
 * case that needs them. Prints "#library" and "#version" lines first; progress goes to stderr.
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#include "bench_array.h"
#include "harness.h"

/* Frees the blocks the caller still holds (mts_tensormap sets the slots it took to NULL). */
static void blocks_free(mts_block_t **blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        if (blocks[i] != NULL) {
            mts_block_free(blocks[i]);
            blocks[i] = NULL;
        }
    }
}

/* ------------------------------------------------------------------ small blocks */

#define SMALL_SAMPLES 8
#define SMALL_COMPONENTS 3
#define SMALL_PROPERTIES 4
#define MANY_BLOCKS 10000
#define FEW_BLOCKS 10

/* The inputs of the small blocks, made on first use: labels shared by every block, and one
 * values buffer shared by every block's array. */
static struct {
    bool tried;
    char error[1024];
    const mts_labels_t *keys;     /* 10,000 x 2 */
    const mts_labels_t *few_keys; /* 10 x 2 */
    const mts_labels_t *samples;
    const mts_labels_t *component;
    const mts_labels_t *properties;
    struct bench_array *values;
} small;

static void small_free(void) {
    bench_labels_free(&small.keys);
    bench_labels_free(&small.few_keys);
    bench_labels_free(&small.samples);
    bench_labels_free(&small.component);
    bench_labels_free(&small.properties);
    bench_array_release(small.values);
    small.values = NULL;
}

static int small_get(void) {
    if (!small.tried) {
        small.tried = true;
        const uintptr_t shape[3] = {SMALL_SAMPLES, SMALL_COMPONENTS, SMALL_PROPERTIES};
        small.values = bench_array_new(BENCH_F64, 3, shape);
        int failed = small.values == NULL;
        if (failed) {
            bench_fail("out of memory");
        } else {
            double *data = small.values->data;
            for (uintptr_t i = 0; i < SMALL_SAMPLES * SMALL_COMPONENTS * SMALL_PROPERTIES; i++) {
                data[i] = (double)i;
            }
        }
        failed = failed || (small.keys = bench_pair_labels("center", "neighbor", MANY_BLOCKS, 100)) == NULL;
        failed = failed || (small.few_keys = bench_pair_labels("center", "neighbor", FEW_BLOCKS, 100)) == NULL;
        failed = failed || (small.samples = bench_range_labels("sample", 0, SMALL_SAMPLES)) == NULL;
        failed = failed || (small.component = bench_range_labels("xyz", 0, SMALL_COMPONENTS)) == NULL;
        failed = failed || (small.properties = bench_range_labels("property", 0, SMALL_PROPERTIES)) == NULL;
        if (failed) {
            snprintf(small.error, sizeof small.error, "setup (small blocks): %s", bench_error());
            small_free();
        }
    }
    if (small.values == NULL) {
        bench_fail("%s", small.error);
        return -1;
    }
    return 0;
}

static mts_block_t *small_block(void) {
    return mts_block(bench_array_share(small.values), small.samples, &small.component, 1, small.properties);
}

/* Makes `count` small blocks; on failure frees them and returns -1. */
static int small_blocks(mts_block_t **blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        blocks[i] = small_block();
        if (blocks[i] == NULL) {
            bench_pointer(NULL, "mts_block");
            blocks_free(blocks, i);
            return -1;
        }
    }
    return 0;
}

/* A map of small blocks: its number of blocks (MANY_BLOCKS or FEW_BLOCKS), and whether the
 * timing holds the mts_block calls making them too. */
struct map_case {
    uintptr_t blocks;
    bool with_blocks;
};

static const mts_labels_t *map_keys(const struct map_case *c) {
    return c->blocks == MANY_BLOCKS ? small.keys : small.few_keys;
}

static mts_tensormap_t *small_blocks_map(const struct map_case *c, mts_block_t **blocks) {
    mts_tensormap_t *map = mts_tensormap(map_keys(c), blocks, c->blocks);
    if (map == NULL) {
        bench_pointer(NULL, "mts_tensormap");
        blocks_free(blocks, c->blocks);
    }
    return map;
}

/* A look at the last block of a map of small blocks, outside the timings. */
static int check_small_blocks_map(const struct map_case *c, mts_tensormap_t *map) {
    mts_block_t *block = NULL;
    if (bench_status(mts_tensormap_block_by_id(map, &block, c->blocks - 1), "mts_tensormap_block_by_id") != 0) {
        return -1;
    }
    return bench_pointer(block, "mts_tensormap_block_by_id");
}

static int run_block_create(void *context, uint64_t n, double *elapsed_ns) {
    (void)context;
    if (small_get() != 0) {
        return -1;
    }
    mts_block_t **blocks = calloc(n, sizeof *blocks);
    if (blocks == NULL) {
        bench_fail("out of memory");
        return -1;
    }
    uint64_t made = 0;
    double start = bench_now_ns();
    while (made < n) {
        mts_block_t *block = small_block();
        if (block == NULL) {
            break;
        }
        blocks[made++] = block;
    }
    *elapsed_ns = bench_now_ns() - start;
    int result = made == n ? 0 : bench_pointer(NULL, "mts_block");
    blocks_free(blocks, made);
    free(blocks);
    return result;
}

static int run_build(void *context, uint64_t n, double *elapsed_ns) {
    const struct map_case *c = context;
    if (small_get() != 0) {
        return -1;
    }
    mts_block_t **blocks = malloc(c->blocks * sizeof *blocks);
    if (blocks == NULL) {
        bench_fail("out of memory");
        return -1;
    }
    int result = 0;
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n && result == 0; i++) {
        double start = bench_now_ns();
        if (small_blocks(blocks, c->blocks) != 0) {
            result = -1;
            break;
        }
        if (!c->with_blocks) {
            start = bench_now_ns();
        }
        mts_tensormap_t *map = small_blocks_map(c, blocks);
        if (map == NULL) {
            result = -1;
            break;
        }
        result = check_small_blocks_map(c, map);
        *elapsed_ns += bench_now_ns() - start;
        mts_tensormap_free(map);
    }
    free(blocks);
    return result;
}

static int run_free(void *context, uint64_t n, double *elapsed_ns) {
    const struct map_case *c = context;
    if (small_get() != 0) {
        return -1;
    }
    mts_block_t **blocks = malloc(c->blocks * sizeof *blocks);
    if (blocks == NULL) {
        bench_fail("out of memory");
        return -1;
    }
    int result = 0;
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n && result == 0; i++) {
        mts_tensormap_t *map = NULL;
        if (small_blocks(blocks, c->blocks) != 0 || (map = small_blocks_map(c, blocks)) == NULL) {
            result = -1;
            break;
        }
        double start = bench_now_ns();
        mts_status_t status = mts_tensormap_free(map);
        *elapsed_ns += bench_now_ns() - start;
        result = bench_status(status, "mts_tensormap_free");
    }
    free(blocks);
    return result;
}

/* ------------------------------------------------------------------ wide blocks */

#define WIDE_BLOCKS 50
#define WIDE_SAMPLES 2000
#define ATOMS_PER_SYSTEM 20
#define WIDE_COMPONENTS 5
#define WIDE_PROPERTIES 64
#define WIDE_BLOCK_SIZE ((uintptr_t)WIDE_SAMPLES * WIDE_COMPONENTS * WIDE_PROPERTIES)

/* The value of element (sample, component, property) of block `block`: distinct everywhere,
 * never the fill value 0, and exact in a double. */
static double wide_value(uintptr_t block, uintptr_t sample, uintptr_t component, uintptr_t property) {
    return (double)(1 + block * WIDE_BLOCK_SIZE + (sample * WIDE_COMPONENTS + component) * WIDE_PROPERTIES + property);
}

/* The map of 50 wide blocks, keys "key" = 0..49; every block has the samples
 * (system, atom) = (i / 20, i % 20), the component m = -2..2 and the properties n = 0..63.
 * Made on first use. */
static struct {
    bool tried;
    char error[1024];
    mts_tensormap_t *map;
    const mts_labels_t *keys_to_move; /* "key", no rows */
} wide;

static mts_tensormap_t *wide_map_new(void) {
    return bench_dense_map_new(WIDE_BLOCKS, WIDE_SAMPLES, ATOMS_PER_SYSTEM, WIDE_COMPONENTS, -2, WIDE_PROPERTIES);
}

static int wide_get(void) {
    if (!wide.tried) {
        wide.tried = true;
        wide.map = wide_map_new();
        if (wide.map != NULL) {
            struct bench_array *none = bench_array_new_i32(0, 1);
            const char *names[] = {"key"};
            if (none == NULL) {
                bench_fail("out of memory");
            } else {
                wide.keys_to_move = mts_labels(names, 1, bench_array_adopt(none));
                bench_pointer(wide.keys_to_move, "mts_labels");
            }
        }
        if (wide.map == NULL || wide.keys_to_move == NULL) {
            snprintf(wide.error, sizeof wide.error, "setup (50 blocks of 2000x5x64): %s", bench_error());
            mts_tensormap_free(wide.map);
            wide.map = NULL;
        }
    }
    if (wide.map == NULL) {
        bench_fail("%s", wide.error);
        return -1;
    }
    return 0;
}

static void wide_free(void) {
    mts_tensormap_free(wide.map);
    wide.map = NULL;
    bench_labels_free(&wide.keys_to_move);
}

struct keys_to_case {
    bool to_samples; /* else to properties */
    bool sort_samples;
};

static uint64_t rng_state = 0x243f6a8885a308d3u;

/* splitmix64 */
static uint64_t rng_below(uint64_t bound) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (z ^ (z >> 31)) % bound;
}

/* The values of labels (a new reference from `labels`, freed here) with their expected size. */
static int labels_rows(const mts_labels_t *labels, const char *what, uintptr_t count, uintptr_t size,
                       const int32_t **rows) {
    if (bench_pointer(labels, what) != 0) {
        return -1;
    }
    uintptr_t got_count = 0, got_size = 0;
    mts_status_t status = mts_labels_values_cpu(labels, rows, &got_count, &got_size);
    mts_labels_free(labels); /* the block or the map keeps the rows alive */
    if (bench_status(status, "mts_labels_values_cpu") != 0) {
        return -1;
    }
    if (got_count != count || got_size != size) {
        bench_fail("%s gave %zu x %zu labels instead of %zu x %zu", what, (size_t)got_count, (size_t)got_size,
                   (size_t)count, (size_t)size);
        return -1;
    }
    return 0;
}

/* Checks the shape of the merged map and, at random points, its labels and values. */
static int check_moved(const void *context, mts_tensormap_t *merged) {
    const struct keys_to_case *c = context;
    const int32_t *keys = NULL, *samples = NULL, *properties = NULL;
    if (labels_rows(mts_tensormap_keys(merged), "mts_tensormap_keys", 1, 1, &keys) != 0) {
        return -1;
    }
    if (keys[0] != 0) {
        bench_fail("the merged map has the key %d instead of 0", (int)keys[0]);
        return -1;
    }
    mts_block_t *block = NULL;
    if (bench_status(mts_tensormap_block_by_id(merged, &block, 0), "mts_tensormap_block_by_id") != 0) {
        return -1;
    }
    uintptr_t sample_count = c->to_samples ? WIDE_BLOCKS * WIDE_SAMPLES : WIDE_SAMPLES;
    uintptr_t property_count = c->to_samples ? WIDE_PROPERTIES : WIDE_BLOCKS * WIDE_PROPERTIES;
    if (labels_rows(mts_block_labels(block, 0), "samples", sample_count, c->to_samples ? 3 : 2, &samples) != 0 ||
        labels_rows(mts_block_labels(block, 2), "properties", property_count, c->to_samples ? 1 : 2, &properties) != 0) {
        return -1;
    }

    mts_array_t data;
    memset(&data, 0, sizeof data);
    if (bench_status(mts_block_data(block, &data), "mts_block_data") != 0) {
        return -1;
    }
    DLManagedTensorVersioned *managed = NULL;
    DLDevice cpu = {kDLCPU, 0};
    DLPackVersion version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    if (data.as_dlpack == NULL || bench_status(data.as_dlpack(data.ptr, &managed, cpu, NULL, version), "as_dlpack") != 0) {
        if (data.as_dlpack == NULL) {
            bench_fail("the merged values have no as_dlpack");
        }
        return -1;
    }
    const DLTensor *tensor = &managed->dl_tensor;
    int result = 0;
    if (tensor->ndim != 3 || tensor->shape[0] != (int64_t)sample_count || tensor->shape[1] != WIDE_COMPONENTS ||
        tensor->shape[2] != (int64_t)property_count || tensor->strides != NULL || tensor->dtype.code != kDLFloat ||
        tensor->dtype.bits != 64) {
        bench_fail("the merged values are not a contiguous f64 array of %zu x %d x %zu", (size_t)sample_count,
                   WIDE_COMPONENTS, (size_t)property_count);
        result = -1;
    }
    const double *values = (const double *)((const char *)tensor->data + tensor->byte_offset);
    for (int check = 0; check < 256 && result == 0; check++) {
        uintptr_t b = rng_below(WIDE_BLOCKS), s = rng_below(WIDE_SAMPLES);
        uintptr_t m = rng_below(WIDE_COMPONENTS), p = rng_below(WIDE_PROPERTIES);
        int32_t system = (int32_t)(s / ATOMS_PER_SYSTEM), atom = (int32_t)(s % ATOMS_PER_SYSTEM);
        uintptr_t row, column;
        bool labels_ok;
        if (c->to_samples) {
            row = c->sort_samples ? s * WIDE_BLOCKS + b : b * WIDE_SAMPLES + s;
            column = p;
            labels_ok = samples[3 * row] == system && samples[3 * row + 1] == atom &&
                        samples[3 * row + 2] == (int32_t)b && properties[column] == (int32_t)p;
        } else {
            row = s;
            column = b * WIDE_PROPERTIES + p;
            labels_ok = samples[2 * row] == system && samples[2 * row + 1] == atom &&
                        properties[2 * column] == (int32_t)b && properties[2 * column + 1] == (int32_t)p;
        }
        double got = values[(row * WIDE_COMPONENTS + m) * property_count + column];
        double expected = wide_value(b, s, m, p);
        if (!labels_ok) {
            bench_fail("unexpected labels at sample %zu, property %zu of the merged block", (size_t)row,
                       (size_t)column);
            result = -1;
        } else if (got != expected) {
            bench_fail("merged value [%zu, %zu, %zu] is %g instead of %g", (size_t)row, (size_t)m, (size_t)column,
                       got, expected);
            result = -1;
        }
    }
    if (managed->deleter != NULL) {
        managed->deleter(managed);
    }
    return result;
}

static int run_keys_to(void *context, uint64_t n, double *elapsed_ns) {
    const struct keys_to_case *c = context;
    if (wide_get() != 0) {
        return -1;
    }
    return bench_keys_to_loop(wide.map, wide.keys_to_move, c->to_samples, c->sort_samples, BENCH_F64, n, false, elapsed_ns,
                              check_moved, c);
}

/* ------------------------------------------------------------------ the list */

static struct map_case few_blocks = {FEW_BLOCKS, false};
static struct map_case many_blocks = {MANY_BLOCKS, false};
static struct map_case many_blocks_made = {MANY_BLOCKS, true};
static struct keys_to_case to_samples_sorted = {true, true};
static struct keys_to_case to_samples_unsorted = {true, false};
static struct keys_to_case to_properties_sorted = {false, true};
static struct keys_to_case to_properties_unsorted = {false, false};

static const bench_case CASES[] = {
    {"tensor_block_create", "mts_block, 8x3x4 f64", "call", run_block_create, NULL},
    {"tensor_build_10", "mts_tensormap + first read, 10 blocks", "call", run_build, &few_blocks},
    {"tensor_build_10000", "mts_tensormap + first read, 10,000 blocks", "call", run_build, &many_blocks},
    {"tensor_blocks_build_10000", "10,000 x mts_block + mts_tensormap + first read", "call", run_build, &many_blocks_made},
    {"tensor_free_10000", "mts_tensormap_free, 10,000 blocks", "call", run_free, &many_blocks},
    {"tensor_keys_to_samples", "keys_to_samples 50x(2000x5x64), sorted", "call", run_keys_to, &to_samples_sorted},
    {"tensor_keys_to_samples_unsorted", "keys_to_samples 50x(2000x5x64), unsorted", "call", run_keys_to,
     &to_samples_unsorted},
    {"tensor_keys_to_properties", "keys_to_properties 50x(2000x5x64), sorted", "call", run_keys_to,
     &to_properties_sorted},
    {"tensor_keys_to_properties_unsorted", "keys_to_properties 50x(2000x5x64), unsorted", "call", run_keys_to,
     &to_properties_unsorted},
};

#define CASES_COUNT (sizeof CASES / sizeof CASES[0])

/* ------------------------------------------------------------------ main */

static void tensor_bench_free(void) {
    wide_free();
    small_free();
}

int main(int argc, char **argv) {
    return bench_main(argc, argv, CASES, CASES_COUNT, (const void *)mts_tensormap,
                      "tensor maps: blocks made before, maps freed after mts_tensormap; keys_to_*: fill value "
                      "made before, result checked and freed after the timed region, create/move_data callbacks inside it",
                      "metatensor-go.bench.tensor", tensor_bench_free);
}
