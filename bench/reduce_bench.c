/*
 * reduce_bench.c: the values pass of the reductions over samples (mtsx_ extensions, so built
 * against our library only) next to a plain read of the same values.
 *
 * Usage: reduce_bench [--quick] [--list] [PATTERN...]   (as the other programs, harness.h)
 *
 * The tensor map: 1,000 structures of 10 to 100 atoms (structure s has 10 + (37 s) % 91), the
 * atom a of every structure in block a % 4 (keys "center" = 0..3); samples (structure, atom),
 * sorted; one component "c" of 3 and 128 properties "p"; f64 values in bench arrays, no
 * gradients (169 MB in all).
 *
 * Cases:
 *   reduce_sum, reduce_mean, reduce_max  mtsx_tensormap_reduce_over_samples over "atom", the
 *                                       result (one sample per structure) freed inside the
 *                                       timed region: what a caller pays
 *   reduce_plain_read (the baseline)   every value of the four blocks read once and summed in
 *                                       four independent sums, the memory a reduction must at
 *                                       least read
 * Prints the rows of harness.h, then a table of every case next to the plain read with their
 * ratio (the acceptance of the values pass being 2x at most).
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#include "bench_array.h"
#include "harness.h"

#define REDUCE_STRUCTURES 1000
#define REDUCE_BLOCKS 4
#define REDUCE_COMPONENTS 3
#define REDUCE_PROPERTIES 128
#define REDUCE_ROW (REDUCE_COMPONENTS * REDUCE_PROPERTIES)
/* Rounds of measurements of every case (1 with --quick). */
#define REDUCE_ROUNDS 5

static uintptr_t atoms_of(uintptr_t structure) { return 10 + (37 * structure) % 91; }

/* The map and a view of its values, made on first use. */
static struct {
    bool tried;
    mts_tensormap_t *map;
    const double *values[REDUCE_BLOCKS];
    uintptr_t samples[REDUCE_BLOCKS];
} shared;

/* The samples of block b: (structure, atom) for the atoms a % 4 == b. */
static const mts_labels_t *block_samples(uintptr_t b, uintptr_t *count) {
    uintptr_t n = 0;
    for (uintptr_t s = 0; s < REDUCE_STRUCTURES; s++) {
        n += (atoms_of(s) + REDUCE_BLOCKS - 1 - b) / REDUCE_BLOCKS;
    }
    struct bench_array *rows = bench_array_new_i32(n, 2);
    if (rows == NULL) {
        bench_fail("out of memory");
        return NULL;
    }
    int32_t *row = rows->data;
    for (uintptr_t s = 0; s < REDUCE_STRUCTURES; s++) {
        for (uintptr_t a = b; a < atoms_of(s); a += REDUCE_BLOCKS) {
            *row++ = (int32_t)s;
            *row++ = (int32_t)a;
        }
    }
    const char *names[] = {"structure", "atom"};
    const mts_labels_t *labels = mts_labels(names, 2, bench_array_adopt(rows));
    bench_pointer(labels, "mts_labels");
    *count = n;
    return labels;
}

static mts_block_t *make_block(uintptr_t b, const mts_labels_t *component, const mts_labels_t *properties) {
    uintptr_t n = 0;
    const mts_labels_t *samples = block_samples(b, &n);
    if (samples == NULL) {
        return NULL;
    }
    const uintptr_t shape[3] = {n, REDUCE_COMPONENTS, REDUCE_PROPERTIES};
    struct bench_array *values = bench_array_new(BENCH_F64, 3, shape);
    mts_block_t *block = NULL;
    if (values == NULL) {
        bench_fail("out of memory");
    } else {
        double *data = values->data;
        for (uintptr_t e = 0; e < n * REDUCE_ROW; e++) {
            data[e] = (double)(e % 101) - 50;
        }
        shared.values[b] = data;
        shared.samples[b] = n;
        block = mts_block(bench_array_adopt(values), samples, &component, 1, properties);
        bench_pointer(block, "mts_block");
    }
    bench_labels_free(&samples);
    return block;
}

static mts_tensormap_t *reduce_map(void) {
    if (shared.tried) {
        if (shared.map == NULL) {
            bench_fail("the benchmark's tensor map could not be made");
        }
        return shared.map;
    }
    shared.tried = true;
    mts_block_t *blocks[REDUCE_BLOCKS] = {NULL};
    const mts_labels_t *keys = bench_range_labels("center", 0, REDUCE_BLOCKS);
    const mts_labels_t *component = bench_range_labels("c", 0, REDUCE_COMPONENTS);
    const mts_labels_t *properties = bench_range_labels("p", 0, REDUCE_PROPERTIES);
    bool failed = keys == NULL || component == NULL || properties == NULL;
    for (uintptr_t b = 0; b < REDUCE_BLOCKS && !failed; b++) {
        blocks[b] = make_block(b, component, properties);
        failed = blocks[b] == NULL;
    }
    if (!failed) {
        shared.map = mts_tensormap(keys, blocks, REDUCE_BLOCKS);
        bench_pointer(shared.map, "mts_tensormap");
    }
    for (uintptr_t b = 0; b < REDUCE_BLOCKS; b++) {
        if (blocks[b] != NULL) { /* the ones mts_tensormap did not take */
            mts_block_free(blocks[b]);
        }
    }
    bench_labels_free(&keys);
    bench_labels_free(&component);
    bench_labels_free(&properties);
    return shared.map;
}

/* ------------------------------------------------------------------ cases */

static int reduce_case(void *context, uint64_t n, double *elapsed_ns) {
    const char *reduction = context;
    mts_tensormap_t *map = reduce_map();
    if (map == NULL) {
        return -1;
    }
    const char *names[] = {"atom"};
    double start = bench_now_ns();
    for (uint64_t i = 0; i < n; i++) {
        mts_tensormap_t *reduced = mtsx_tensormap_reduce_over_samples(map, names, 1, reduction, false);
        if (bench_pointer(reduced, "mtsx_tensormap_reduce_over_samples") != 0) {
            return -1;
        }
        mts_tensormap_free(reduced);
    }
    *elapsed_ns = bench_now_ns() - start;
    return 0;
}

/* Keeps the plain read's sums from being optimised away. */
static volatile double plain_read_sink;

static int plain_read_case(void *context, uint64_t n, double *elapsed_ns) {
    (void)context;
    if (reduce_map() == NULL) {
        return -1;
    }
    double start = bench_now_ns();
    for (uint64_t i = 0; i < n; i++) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (uintptr_t b = 0; b < REDUCE_BLOCKS; b++) {
            const double *v = shared.values[b];
            /* REDUCE_ROW is a multiple of 4 */
            for (uintptr_t e = 0; e < shared.samples[b] * REDUCE_ROW; e += 4) {
                s0 += v[e];
                s1 += v[e + 1];
                s2 += v[e + 2];
                s3 += v[e + 3];
            }
        }
        plain_read_sink = s0 + s1 + s2 + s3;
    }
    *elapsed_ns = bench_now_ns() - start;
    return 0;
}

#define PLAIN_READ_ID "reduce_plain_read"

static const bench_case CASES[] = {
    {"reduce_sum", "sum over atom, values only", "call", reduce_case, "sum"},
    {"reduce_mean", "mean over atom, values only", "call", reduce_case, "mean"},
    {"reduce_max", "max over atom, values only", "call", reduce_case, "max"},
    {PLAIN_READ_ID, "plain read of the same values", "call", plain_read_case, NULL},
};
#define CASES_COUNT (sizeof(CASES) / sizeof(CASES[0]))

/* Whether the command line asks for a case; the plain read, the baseline, always runs. */
static bool wanted(const bench_case *bench, const bench_args *args) {
    if (args->patterns_count == 0 || strcmp(bench->id, PLAIN_READ_ID) == 0) {
        return true;
    }
    for (int p = 0; p < args->patterns_count; p++) {
        if (strstr(bench->id, args->patterns[p]) != NULL) {
            return true;
        }
    }
    return false;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of count values, sorted in place. */
static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof(double), compare_doubles);
    return count % 2 == 1 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

int main(int argc, char **argv) {
    bench_args args;
    int code = bench_parse_args(argc, argv, CASES, CASES_COUNT, NULL, &args);
    if (code >= 0) {
        return code;
    }
    bench_print_preamble((const void *)mtsx_tensormap_reduce_over_samples,
                         "reduce: results freed inside the timed region; the map is made before");
    printf("#baseline\t%s\n", PLAIN_READ_ID);
    fflush(stdout);
    mts_disable_panic_printing();
    bench_array_init("metatensor-go.bench.reduce");

    /* Rounds, every case measured once in each, so that a drift of the machine's speed
     * touches the cases and the plain read alike; a case's time is its median over the
     * rounds. Measured here rather than through bench_run, to print the table after. */
    const int rounds = args.options.max_samples > 3 ? REDUCE_ROUNDS : 1; /* one with --quick */
    double medians[CASES_COUNT][REDUCE_ROUNDS];
    bool ok[CASES_COUNT];
    int failed = 0;
    for (size_t c = 0; c < CASES_COUNT; c++) {
        ok[c] = wanted(&CASES[c], &args);
    }
    for (int round = 0; round < rounds; round++) {
        for (size_t c = 0; c < CASES_COUNT; c++) {
            const bench_case *bench = &CASES[c];
            if (!ok[c]) {
                continue;
            }
            fprintf(stderr, "round %d: %s...\n", round + 1, bench->id);
            bench_result result;
            ok[c] = bench_measure(bench->fn, bench->context, &args.options, &result) == 0;
            bench_print_row(stdout, bench->id, bench->description, bench->unit, ok[c] ? &result : NULL, bench_error());
            medians[c][round] = result.median_ns;
            failed += !ok[c];
        }
    }

    const size_t plain = CASES_COUNT - 1;
    printf("\nthe median of %d rounds\n", rounds);
    printf("%-30s | %12s | %12s | %11s\n", "values pass", "time", "plain read", "ratio");
    printf("-------------------------------|--------------|--------------|------------\n");
    for (size_t c = 0; c < plain; c++) {
        if (ok[c] && ok[plain] && wanted(&CASES[c], &args)) {
            double time = median(medians[c], rounds), read = median(medians[plain], rounds);
            printf("%-30s | %9.2f ms | %9.2f ms | %10.2fx\n", CASES[c].description, time / 1e6, read / 1e6, time / read);
        }
    }

    if (shared.map != NULL) {
        mts_tensormap_free(shared.map);
    }
    bench_array_finish();
    bench_args_free(&args);
    if (failed > 0) {
        fprintf(stderr, "reduce_bench: %d case%s failed\n", failed, failed == 1 ? "" : "s");
        return 1;
    }
    return 0;
}
