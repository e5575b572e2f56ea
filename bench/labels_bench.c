/*
 * labels_bench.c: timings of the labels functions of the metatensor C API.
 *
 * Uses only metatensor.h, so the same source builds against any library with the metatensor
 * 0.2 ABI; `make bench` builds it once against ours and once against the reference and
 * compares the two (bench/run.sh).
 *
 * Usage: labels_bench [--quick] [--list] [--rss] [PATTERN...]
 *   --quick   3 samples per case and the shortest warm-up: a smoke test, not a measurement
 *   --list    print the case ids and exit
 *   --rss     run 1e6 small labels cycles and print the resident memory instead
 *   PATTERN   run only the cases whose id contains one of the patterns
 *
 * Prints one tab-separated line per case (see harness.h) after "#library" and "#version"
 * lines naming the library that was loaded. Progress goes to stderr.
 *
 * The labels values live in i32 bench arrays (bench_array.h). Arrays handed to the creation
 * functions share one read-only buffer of values, reference counted, and are made before the
 * timed region; labels are freed after it. So the creation times hold neither the copy of the
 * values into an array nor the release of the labels.
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

#include "bench_array.h"
#include "harness.h"

/* ------------------------------------------------------------------ values to bench on */

/* The rows of an i32 (count, size) bench array. */
static int32_t *rows_of(struct bench_array *values) {
    return values->data;
}

static const char *const NAMES_ABC[] = {"a", "b", "c"};

static void fatal(const char *what) {
    fprintf(stderr, "labels_bench: %s\n", what);
    exit(2);
}

/* (first + i, j, k) for i < count_i and j, k < 100, in lexicographic order. */
static struct bench_array *grid(int32_t first, int32_t count_i) {
    struct bench_array *values = bench_array_new_i32((uintptr_t)count_i * 10000, 3);
    if (values == NULL) {
        fatal("out of memory");
    }
    int32_t *row = rows_of(values);
    for (int32_t i = 0; i < count_i; i++) {
        for (int32_t j = 0; j < 100; j++) {
            for (int32_t k = 0; k < 100; k++) {
                row[0] = first + i;
                row[1] = j;
                row[2] = k;
                row += 3;
            }
        }
    }
    return values;
}

static uint64_t rng_state = 0x243f6a8885a308d3u;

/* splitmix64 */
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t bound) {
    return rng_next() % bound;
}

/* The rows of `values` in a random order (a new buffer). */
static struct bench_array *shuffled(const struct bench_array *values) {
    uintptr_t count = values->shape[0], size = values->shape[1];
    struct bench_array *result = bench_array_new_i32(count, size);
    if (result == NULL) {
        fatal("out of memory");
    }
    int32_t *data = rows_of(result);
    memcpy(data, values->data, count * size * sizeof(int32_t));
    for (uintptr_t i = count - 1; i > 0; i--) {
        uintptr_t j = (uintptr_t)rng_below(i + 1);
        for (uintptr_t c = 0; c < size; c++) {
            int32_t tmp = data[i * size + c];
            data[i * size + c] = data[j * size + c];
            data[j * size + c] = tmp;
        }
    }
    return result;
}

/* The first `count` rows of `values` (a new buffer). */
static struct bench_array *head(const struct bench_array *values, uintptr_t count) {
    uintptr_t size = values->shape[1];
    struct bench_array *result = bench_array_new_i32(count, size);
    if (result == NULL) {
        fatal("out of memory");
    }
    memcpy(result->data, values->data, count * size * sizeof(int32_t));
    return result;
}

static struct bench_array *from_rows(const int32_t *rows, uintptr_t count, uintptr_t size) {
    struct bench_array *result = bench_array_new_i32(count, size);
    if (result == NULL) {
        fatal("out of memory");
    }
    memcpy(result->data, rows, count * size * sizeof(int32_t));
    return result;
}

/* Shared inputs, made once in main. */
static struct bench_array *grid_sorted;     /* 1e6 x 3, (i, j, k) < 100 */
static struct bench_array *grid_shuffled;   /* the same rows, shuffled */
static struct bench_array *second_sorted;   /* 1e6 x 3, i in 50..149 */
static struct bench_array *second_shuffled; /* the same rows, shuffled */
static struct bench_array *small_values;    /* 5 x 3 */

/* Labels made from shared inputs, on first use. A failure is kept and reported by every
 * case that needs them. */
struct fixture {
    const char *what;
    struct bench_array **values;
    const char *const *names;
    uintptr_t names_count;
    const mts_labels_t *labels;
    bool tried;
    char error[1024];
};

static const mts_labels_t *fixture_get(struct fixture *fixture) {
    if (!fixture->tried) {
        fixture->tried = true;
        fixture->labels = mts_labels(fixture->names, fixture->names_count, bench_array_share(*fixture->values));
        if (bench_pointer(fixture->labels, "mts_labels") != 0) {
            snprintf(fixture->error, sizeof fixture->error, "setup (%s): %s", fixture->what, bench_error());
        }
    }
    if (fixture->labels == NULL) {
        bench_fail("%s", fixture->error);
    }
    return fixture->labels;
}

static void fixture_free(struct fixture *fixture) {
    if (fixture->labels != NULL) {
        mts_labels_free(fixture->labels);
        fixture->labels = NULL;
    }
}

static struct bench_array *selection_one_dimension;  /* "b": 300 rows, 34 of them present */
static struct bench_array *selection_two_dimensions; /* "b", "c": 1000 rows, all present */
static struct bench_array *selection_same_names;     /* "a", "b", "c": 1e5 present rows */

static const char *const NAMES_B[] = {"b"};
static const char *const NAMES_BC[] = {"b", "c"};

#define FIXTURE(what, values, names) {what, &values, names, sizeof names / sizeof names[0], NULL, false, {0}}

static struct fixture grid_labels = FIXTURE("1e6x3 sorted labels", grid_sorted, NAMES_ABC);
static struct fixture second_sorted_labels = FIXTURE("second 1e6x3 labels, sorted", second_sorted, NAMES_ABC);
static struct fixture second_shuffled_labels = FIXTURE("second 1e6x3 labels, shuffled", second_shuffled, NAMES_ABC);
static struct fixture one_dimension_selection = FIXTURE("selection [b]", selection_one_dimension, NAMES_B);
static struct fixture two_dimensions_selection = FIXTURE("selection [b,c]", selection_two_dimensions, NAMES_BC);
static struct fixture same_names_selection = FIXTURE("selection [a,b,c]", selection_same_names, NAMES_ABC);

/* ------------------------------------------------------------------ cases */

typedef const mts_labels_t *(*create_fn)(const char *const *names, uintptr_t count, mts_array_t array);

struct create_case {
    create_fn create;
    const char *call;
    struct bench_array **values;
    bool then_position; /* also look one row up, which builds a lazy index */
};

/* Times `n` creations from arrays made beforehand; frees the labels afterwards. */
static int run_create(void *context, uint64_t n, double *elapsed_ns) {
    const struct create_case *c = context;
    struct bench_array *values = *c->values;
    mts_array_t *arrays = malloc(n * sizeof *arrays);
    const mts_labels_t **labels = calloc(n, sizeof *labels);
    if (arrays == NULL || labels == NULL) {
        free(arrays);
        free(labels);
        bench_fail("out of memory");
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        arrays[i] = bench_array_share(values);
    }
    /* the last row, whose position is the last index */
    const int32_t *last_row = rows_of(values) + 3 * (values->shape[0] - 1);
    int64_t last = (int64_t)values->shape[0] - 1, position = -2;

    enum { NONE, CREATION, POSITION_STATUS, POSITION_VALUE } failure = NONE;
    mts_status_t status = MTS_SUCCESS;
    uint64_t used = 0, made = 0;
    double start = bench_now_ns();
    while (used < n) {
        const mts_labels_t *created = c->create(NAMES_ABC, 3, arrays[used++]);
        if (created == NULL) {
            failure = CREATION;
            break;
        }
        labels[made++] = created;
        if (c->then_position) {
            status = mts_labels_position(created, last_row, 3, &position);
            if (status != MTS_SUCCESS) {
                failure = POSITION_STATUS;
                break;
            }
            if (position != last) {
                failure = POSITION_VALUE;
                break;
            }
        }
    }
    *elapsed_ns = bench_now_ns() - start;

    switch (failure) {
    case CREATION:
        bench_pointer(NULL, c->call);
        break;
    case POSITION_STATUS:
        bench_status(status, "mts_labels_position");
        break;
    case POSITION_VALUE:
        bench_fail("mts_labels_position gave %lld instead of %lld", (long long)position, (long long)last);
        break;
    case NONE:
        break;
    }
    for (uint64_t i = used; i < n; i++) {
        arrays[i].destroy(arrays[i].ptr);
    }
    for (uint64_t i = 0; i < made; i++) {
        mts_labels_free(labels[i]);
    }
    free(arrays);
    free(labels);
    return failure == NONE ? 0 : -1;
}

static int run_clone_free(void *context, uint64_t n, double *elapsed_ns) {
    const mts_labels_t *labels = fixture_get(context);
    if (labels == NULL) {
        return -1;
    }
    double start = bench_now_ns();
    for (uint64_t i = 0; i < n; i++) {
        const mts_labels_t *clone = mts_labels_clone(labels);
        if (bench_pointer(clone, "mts_labels_clone") != 0) {
            return -1;
        }
        if (bench_status(mts_labels_free(clone), "mts_labels_free") != 0) {
            return -1;
        }
    }
    *elapsed_ns = bench_now_ns() - start;
    return 0;
}

static int run_values_cpu(void *context, uint64_t n, double *elapsed_ns) {
    const mts_labels_t *labels = fixture_get(context);
    if (labels == NULL) {
        return -1;
    }
    double start = bench_now_ns();
    for (uint64_t i = 0; i < n; i++) {
        const int32_t *values = NULL;
        uintptr_t count = 0, size = 0;
        if (bench_status(mts_labels_values_cpu(labels, &values, &count, &size), "mts_labels_values_cpu") != 0) {
            return -1;
        }
        if (values == NULL || count != 1000000 || size != 3) {
            bench_fail("mts_labels_values_cpu gave %p, %zu x %zu", (const void *)values, (size_t)count, (size_t)size);
            return -1;
        }
    }
    *elapsed_ns = bench_now_ns() - start;
    return 0;
}

#define QUERIES 4096

struct position_case {
    bool present;
    bool ready;
    int32_t rows[3 * QUERIES];
    int64_t expected[QUERIES];
};

/* Times `n` lookups of rows spread over the labels (present) or absent rows. */
static int run_position(void *context, uint64_t n, double *elapsed_ns) {
    struct position_case *c = context;
    const mts_labels_t *labels = fixture_get(&grid_labels);
    if (labels == NULL) {
        return -1;
    }
    if (!c->ready) {
        for (int q = 0; q < QUERIES; q++) {
            int32_t i = (int32_t)rng_below(100), j = (int32_t)rng_below(100), k = (int32_t)rng_below(100);
            if (!c->present) {
                /* one column out of range, chosen at random, so no row is present */
                int32_t out = 100 + (int32_t)rng_below(1000);
                switch (rng_below(3)) {
                case 0: i = out; break;
                case 1: j = out; break;
                default: k = out; break;
                }
            }
            c->rows[3 * q] = i;
            c->rows[3 * q + 1] = j;
            c->rows[3 * q + 2] = k;
            c->expected[q] = c->present ? (int64_t)i * 10000 + j * 100 + k : -1;
        }
        c->ready = true;
    }
    double start = bench_now_ns();
    for (uint64_t i = 0; i < n; i++) {
        uint64_t q = i % QUERIES;
        int64_t position = -2;
        if (bench_status(mts_labels_position(labels, &c->rows[3 * q], 3, &position), "mts_labels_position") != 0) {
            return -1;
        }
        if (position != c->expected[q]) {
            bench_fail("mts_labels_position gave %lld instead of %lld", (long long)position, (long long)c->expected[q]);
            return -1;
        }
    }
    *elapsed_ns = bench_now_ns() - start;
    return 0;
}

enum set_operation { UNION, INTERSECTION, DIFFERENCE };

struct set_case {
    enum set_operation operation;
    struct fixture *second;
    uintptr_t expected_count;
};

static int64_t *first_mapping, *second_mapping; /* 1e6 each */

/* Times `n` operations, mappings requested; each result is freed outside the timing. */
static int run_set_operation(void *context, uint64_t n, double *elapsed_ns) {
    const struct set_case *c = context;
    const mts_labels_t *first = fixture_get(&grid_labels);
    if (first == NULL) {
        return -1;
    }
    const mts_labels_t *second = fixture_get(c->second);
    if (second == NULL) {
        return -1;
    }
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        const mts_labels_t *result = NULL;
        mts_status_t status;
        const char *call;
        double start = bench_now_ns();
        switch (c->operation) {
        case UNION:
            call = "mts_labels_union";
            status = mts_labels_union(first, second, &result, first_mapping, 1000000, second_mapping, 1000000);
            break;
        case INTERSECTION:
            call = "mts_labels_intersection";
            status = mts_labels_intersection(first, second, &result, first_mapping, 1000000, second_mapping, 1000000);
            break;
        default:
            call = "mts_labels_difference";
            status = mts_labels_difference(first, second, &result, first_mapping, 1000000);
            break;
        }
        *elapsed_ns += bench_now_ns() - start;
        if (bench_status(status, call) != 0) {
            return -1;
        }
        const int32_t *values = NULL;
        uintptr_t count = 0, size = 0;
        if (bench_status(mts_labels_values_cpu(result, &values, &count, &size), "mts_labels_values_cpu") != 0) {
            mts_labels_free(result);
            return -1;
        }
        mts_labels_free(result);
        if (count != c->expected_count || size != 3) {
            bench_fail("%s gave %zu x %zu labels instead of %zu x 3", call, (size_t)count, (size_t)size,
                       (size_t)c->expected_count);
            return -1;
        }
        /* row (50, 0, 0) is entry 500000 of first and entry 0 of the sorted second; the
         * intersection follows first's order (the smaller input, first on ties) */
        bool sorted = c->second == &second_sorted_labels;
        bool mappings_ok = true;
        switch (c->operation) {
        case UNION:
            mappings_ok = first_mapping[999999] == 999999 && (!sorted || second_mapping[0] == 500000);
            break;
        case INTERSECTION:
            mappings_ok = first_mapping[0] == -1 && first_mapping[500000] == 0 && (!sorted || second_mapping[0] == 0);
            break;
        case DIFFERENCE:
            mappings_ok = first_mapping[0] == 0 && first_mapping[500000] == -1;
            break;
        }
        if (!mappings_ok) {
            bench_fail("%s gave unexpected mappings", call);
            return -1;
        }
    }
    return 0;
}

struct select_case {
    struct fixture *selection;
    uintptr_t expected_count;
};

static uint64_t *selected; /* 1e6 */

static int run_select(void *context, uint64_t n, double *elapsed_ns) {
    const struct select_case *c = context;
    const mts_labels_t *labels = fixture_get(&grid_labels);
    if (labels == NULL) {
        return -1;
    }
    const mts_labels_t *selection = fixture_get(c->selection);
    if (selection == NULL) {
        return -1;
    }
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        uintptr_t count = 1000000;
        double start = bench_now_ns();
        mts_status_t status = mts_labels_select(labels, selection, selected, &count);
        *elapsed_ns += bench_now_ns() - start;
        if (bench_status(status, "mts_labels_select") != 0) {
            return -1;
        }
        if (count != c->expected_count) {
            bench_fail("mts_labels_select selected %zu entries instead of %zu", (size_t)count,
                       (size_t)c->expected_count);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ the list */

static struct create_case create_small = {mts_labels, "mts_labels", &small_values, false};
static struct create_case create_small_unique = {mts_labels_assume_unique, "mts_labels_assume_unique", &small_values, false};
static struct create_case create_large = {mts_labels, "mts_labels", &grid_sorted, false};
static struct create_case create_large_shuffled = {mts_labels, "mts_labels", &grid_shuffled, false};
static struct create_case create_large_unique = {mts_labels_assume_unique, "mts_labels_assume_unique", &grid_sorted, false};
static struct create_case create_large_position = {mts_labels, "mts_labels", &grid_sorted, true};
static struct create_case create_large_unique_position = {mts_labels_assume_unique, "mts_labels_assume_unique", &grid_sorted, true};

static struct position_case position_present = {.present = true};
static struct position_case position_missing = {.present = false};

static struct set_case union_sorted = {UNION, &second_sorted_labels, 1500000};
static struct set_case union_shuffled = {UNION, &second_shuffled_labels, 1500000};
static struct set_case intersection_sorted = {INTERSECTION, &second_sorted_labels, 500000};
static struct set_case intersection_shuffled = {INTERSECTION, &second_shuffled_labels, 500000};
static struct set_case difference_sorted = {DIFFERENCE, &second_sorted_labels, 500000};
static struct set_case difference_shuffled = {DIFFERENCE, &second_shuffled_labels, 500000};

static struct select_case select_one = {&one_dimension_selection, 340000};
static struct select_case select_two = {&two_dimensions_selection, 100000};
static struct select_case select_same = {&same_names_selection, 100000};

static const bench_case CASES[] = {
    {"create_5x3", "mts_labels, 5x3", "call", run_create, &create_small},
    {"create_unique_5x3", "mts_labels_assume_unique, 5x3", "call", run_create, &create_small_unique},
    {"create_1e6x3", "mts_labels, 1e6x3 sorted", "call", run_create, &create_large},
    {"create_1e6x3_shuffled", "mts_labels, 1e6x3 shuffled", "call", run_create, &create_large_shuffled},
    {"create_unique_1e6x3", "mts_labels_assume_unique, 1e6x3", "call", run_create, &create_large_unique},
    {"create_1e6x3_position", "mts_labels 1e6x3 + first position", "call", run_create, &create_large_position},
    {"create_unique_1e6x3_position", "assume_unique 1e6x3 + first position", "call", run_create,
     &create_large_unique_position},
    {"clone_free", "mts_labels_clone + free", "call", run_clone_free, &grid_labels},
    {"values_cpu", "mts_labels_values_cpu", "call", run_values_cpu, &grid_labels},
    {"position_present", "mts_labels_position, present rows", "lookup", run_position, &position_present},
    {"position_missing", "mts_labels_position, missing rows", "lookup", run_position, &position_missing},
    {"union_sorted", "union 1e6 | 1e6 sorted (1.5e6)", "call", run_set_operation, &union_sorted},
    {"union_shuffled", "union 1e6 | 1e6 shuffled (1.5e6)", "call", run_set_operation, &union_shuffled},
    {"intersection_sorted", "intersection, sorted (5e5)", "call", run_set_operation, &intersection_sorted},
    {"intersection_shuffled", "intersection, shuffled (5e5)", "call", run_set_operation, &intersection_shuffled},
    {"difference_sorted", "difference, sorted (5e5)", "call", run_set_operation, &difference_sorted},
    {"difference_shuffled", "difference, shuffled (5e5)", "call", run_set_operation, &difference_shuffled},
    {"select_one_dimension", "select [b] 300 rows in 1e6 (3.4e5)", "call", run_select, &select_one},
    {"select_two_dimensions", "select [b,c] 1000 rows in 1e6 (1e5)", "call", run_select, &select_two},
    {"select_same_names", "select [a,b,c] 1e5 rows in 1e6 (1e5)", "call", run_select, &select_same},
};

#define CASES_COUNT (sizeof CASES / sizeof CASES[0])

/* ------------------------------------------------------------------ main */

static void make_inputs(void) {
    grid_sorted = grid(0, 100);
    grid_shuffled = shuffled(grid_sorted);
    second_sorted = grid(50, 100);
    second_shuffled = shuffled(second_sorted);

    static const int32_t small[] = {0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6};
    small_values = from_rows(small, 5, 3);

    /* b = 0, 3, 6, ..., 897: the 34 multiples of 3 below 100 are present */
    int32_t one[300];
    for (int32_t r = 0; r < 300; r++) {
        one[r] = 3 * r;
    }
    selection_one_dimension = from_rows(one, 300, 1);

    /* (b, c) = (10 j, k) for j < 10, k < 100 */
    int32_t two[2000];
    for (int32_t j = 0; j < 10; j++) {
        for (int32_t k = 0; k < 100; k++) {
            two[2 * (100 * j + k)] = 10 * j;
            two[2 * (100 * j + k) + 1] = k;
        }
    }
    selection_two_dimensions = from_rows(two, 1000, 2);

    selection_same_names = head(grid_shuffled, 100000);

    first_mapping = malloc(1000000 * sizeof *first_mapping);
    second_mapping = malloc(1000000 * sizeof *second_mapping);
    selected = malloc(1000000 * sizeof *selected);
    if (first_mapping == NULL || second_mapping == NULL || selected == NULL) {
        fatal("out of memory");
    }
}

static void free_inputs(void) {
    struct fixture *fixtures[] = {&grid_labels, &second_sorted_labels, &second_shuffled_labels,
                                  &one_dimension_selection, &two_dimensions_selection, &same_names_selection};
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        fixture_free(fixtures[i]);
    }
    struct bench_array *inputs[] = {grid_sorted, grid_shuffled, second_sorted, second_shuffled, small_values,
                               selection_one_dimension, selection_two_dimensions, selection_same_names};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        bench_array_release(inputs[i]);
    }
    free(first_mapping);
    free(second_mapping);
    free(selected);
    bench_array_finish();
}

/* ------------------------------------------------------------------ memory over many cycles */

static long resident_kb(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (status == NULL) {
        return -1;
    }
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = atol(line + 6);
        }
    }
    fclose(status);
    return kb;
}

/* 1e6 cycles of small labels (create, clone, position, union, free), printing the resident
 * memory along the way: it must stay flat once the allocators are warm. */
static int run_rss(void) {
    static const int32_t rows[] = {0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6};
    const long cycles = 1000000;
    long first = -1;
    for (long i = 1; i <= cycles; i++) {
        struct bench_array *values = bench_array_new_i32(5, 3);
        if (values == NULL) {
            fatal("out of memory");
        }
        memcpy(values->data, rows, sizeof rows);
        const mts_labels_t *labels = (i % 2 == 0) ? mts_labels(NAMES_ABC, 3, bench_array_adopt(values))
                                                  : mts_labels_assume_unique(NAMES_ABC, 3, bench_array_adopt(values));
        const mts_labels_t *clone = mts_labels_clone(labels);
        const mts_labels_t *merged = NULL;
        int64_t position = -1;
        if (labels == NULL || clone == NULL || mts_labels_position(clone, rows + 3, 3, &position) != MTS_SUCCESS ||
            position != 1 || mts_labels_union(labels, clone, &merged, NULL, 0, NULL, 0) != MTS_SUCCESS) {
            fatal("labels cycle");
        }
        mts_labels_free(merged);
        mts_labels_free(clone);
        mts_labels_free(labels);
        if (i == cycles / 10) {
            first = resident_kb();
            printf("#rss	%ld cycles	%ld kB\n", i, first);
        }
    }
    long last = resident_kb();
    printf("#rss	%ld cycles	%ld kB\n", cycles, last);
    printf("#rss	growth over the last %ld cycles	%ld kB\n", cycles - cycles / 10, last - first);
    return 0;
}

int main(int argc, char **argv) {
    bench_args args;
    int code = bench_parse_args(argc, argv, CASES, CASES_COUNT, "--rss", &args);
    if (code >= 0) {
        return code;
    }
    if (args.extra) {
        bench_args_free(&args);
        mts_disable_panic_printing();
        return run_rss();
    }
    bench_print_preamble((const void *)mts_labels,
                         "labels creation: arrays sharing one values buffer are made before, and labels freed after, "
                         "the timed region; set operations and select: results freed outside it");

    mts_disable_panic_printing();
    bench_array_init("metatensor-go.bench.labels"); /* else the origin reads "unregistered origin" */
    make_inputs();

    bench_run(CASES, CASES_COUNT, &args);

    free_inputs();
    bench_args_free(&args);
    return 0;
}
