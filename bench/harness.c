/* harness.c: see harness.h. */
#define _GNU_SOURCE /* dladdr */

#include "harness.h"

#include "bench_array.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* No batch grows past this many operations per sample. */
#define BENCH_MAX_BATCH ((uint64_t)1 << 24)

static char bench_message[4096];

bench_options bench_default_options(void) {
    bench_options options = {
        .min_samples = 11,
        .max_samples = 101,
        .min_time_ns = 300e6,
        .min_sample_ns = 1e6,
        .warmup_ns = 50e6,
    };
    return options;
}

bench_options bench_quick_options(void) {
    bench_options options = {
        .min_samples = 3,
        .max_samples = 3,
        .min_time_ns = 0,
        .min_sample_ns = 1e6,
        .warmup_ns = 0,
    };
    return options;
}

double bench_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

void bench_fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(bench_message, sizeof bench_message, format, args);
    va_end(args);
}

const char *bench_error(void) {
    return bench_message;
}

int bench_status(mts_status_t status, const char *call) {
    if (status == MTS_SUCCESS) {
        return 0;
    }
    const char *message = NULL;
    if (mts_last_error(&message, NULL, NULL) != MTS_SUCCESS || message == NULL) {
        message = "(mts_last_error gave no message)";
    }
    bench_fail("%s: status %d: %s", call, (int)status, message);
    return -1;
}

int bench_pointer(const void *pointer, const char *call) {
    if (pointer != NULL) {
        return 0;
    }
    const char *message = NULL;
    mts_status_t status = mts_last_error(&message, NULL, NULL);
    if (status != MTS_SUCCESS || message == NULL) {
        message = "(mts_last_error gave no message)";
    }
    bench_fail("%s: NULL: %s", call, message);
    return -1;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int bench_measure(bench_case_fn fn, void *context, const bench_options *options, bench_result *result) {
    bench_message[0] = '\0';
    double elapsed = 0;

    /* Warm-up: at least two calls (the first may build lazy state, the last one is the
     * probe for the batch size), then more until warmup_ns of wall time went by. */
    double start = bench_now_ns();
    uint32_t calls = 0;
    do {
        if (fn(context, 1, &elapsed) != 0) {
            return -1;
        }
        calls++;
    } while (calls < 2 || bench_now_ns() - start < options->warmup_ns);

    /* Batch size: grow from the last single-call time until one sample is long enough. */
    uint64_t batch = 1;
    while (elapsed < options->min_sample_ns && batch < BENCH_MAX_BATCH) {
        double per_call = elapsed / (double)batch;
        double wanted = per_call > 0 ? 1.2 * options->min_sample_ns / per_call : 2.0 * (double)batch;
        uint64_t next = wanted > (double)BENCH_MAX_BATCH ? BENCH_MAX_BATCH : (uint64_t)wanted + 1;
        batch = next > 2 * batch ? next : 2 * batch;
        if (batch > BENCH_MAX_BATCH) {
            batch = BENCH_MAX_BATCH;
        }
        if (fn(context, batch, &elapsed) != 0) {
            return -1;
        }
    }

    double *samples = malloc(sizeof(double) * options->max_samples);
    if (samples == NULL) {
        bench_fail("out of memory");
        return -1;
    }
    uint32_t count = 0;
    double total = 0;
    while (count < options->max_samples && (count < options->min_samples || total < options->min_time_ns)) {
        if (fn(context, batch, &elapsed) != 0) {
            free(samples);
            return -1;
        }
        total += elapsed;
        samples[count++] = elapsed / (double)batch;
    }

    qsort(samples, count, sizeof(double), compare_doubles);
    result->median_ns = count % 2 == 1 ? samples[count / 2] : 0.5 * (samples[count / 2 - 1] + samples[count / 2]);
    result->min_ns = samples[0];
    result->max_ns = samples[count - 1];
    result->samples = count;
    result->batch = batch;
    free(samples);
    return 0;
}

void bench_print_header(FILE *out) {
    fprintf(out, "#id\tdescription\tunit\tmedian_ns\tmin_ns\tmax_ns\tsamples\tbatch\tstatus\tmessage\n");
}

/* Prints `text` with tabs and line breaks turned into spaces, so a row stays one TSV line. */
static void print_field(FILE *out, const char *text) {
    for (const char *c = text; *c != '\0'; c++) {
        fputc(*c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c, out);
    }
}

void bench_print_row(FILE *out, const char *id, const char *description, const char *unit,
                     const bench_result *result, const char *error) {
    fprintf(out, "%s\t%s\t%s\t", id, description, unit);
    if (result != NULL) {
        fprintf(out, "%.1f\t%.1f\t%.1f\t%u\t%llu\tok\t\n", result->median_ns, result->min_ns,
                result->max_ns, result->samples, (unsigned long long)result->batch);
    } else {
        fprintf(out, "-\t-\t-\t-\t-\terror\t");
        print_field(out, error != NULL && error[0] != '\0' ? error : "unknown error");
        fputc('\n', out);
    }
    fflush(out);
}

/* Whether id contains pattern; a pattern starting with '^' must start the id, one ending with
 * '$' must end it (so that "map_build_10$" picks that case alone, not map_build_10000 too, and
 * "^map_build_10$" names one case whatever other ids end with it). */
static int bench_matches(const char *id, const char *pattern) {
    size_t length = strlen(pattern);
    int at_start = length > 0 && pattern[0] == '^';
    int at_end = length > (size_t)at_start && pattern[length - 1] == '$';
    pattern += at_start;
    length -= (size_t)(at_start + at_end);
    size_t id_length = strlen(id);
    if (at_start) {
        return strncmp(id, pattern, length) == 0 && (!at_end || id_length == length);
    }
    if (at_end) {
        return id_length >= length && strncmp(id + id_length - length, pattern, length) == 0;
    }
    return strstr(id, pattern) != NULL;
}

static int bench_wanted(const char *id, const bench_args *args) {
    if (args->patterns_count == 0) {
        return 1;
    }
    for (int i = 0; i < args->patterns_count; i++) {
        if (bench_matches(id, args->patterns[i])) {
            return 1;
        }
    }
    return 0;
}

int bench_parse_args(int argc, char **argv, const bench_case *cases, size_t count, const char *extra,
                     bench_args *args) {
    args->options = bench_default_options();
    args->patterns = calloc((size_t)argc, sizeof *args->patterns);
    args->patterns_count = 0;
    args->extra = 0;
    int list = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            args->options = bench_quick_options();
        } else if (extra != NULL && strcmp(argv[i], extra) == 0) {
            args->extra = 1;
        } else if (strcmp(argv[i], "--list") == 0) {
            list = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--quick] [--list]%s%s%s [PATTERN...]\n", argv[0],
                    extra != NULL ? " [" : "", extra != NULL ? extra : "", extra != NULL ? "]" : "");
            bench_args_free(args);
            return 2;
        } else {
            args->patterns[args->patterns_count++] = argv[i];
        }
    }
    if (list) {
        for (size_t c = 0; c < count; c++) {
            if (bench_wanted(cases[c].id, args)) {
                printf("%s\t%s\n", cases[c].id, cases[c].description);
            }
        }
        bench_args_free(args);
        return 0;
    }
    return -1;
}

void bench_args_free(bench_args *args) {
    free(args->patterns);
    args->patterns = NULL;
    args->patterns_count = 0;
}

void bench_print_preamble(const void *symbol, const char *timing) {
    Dl_info library;
    if (dladdr(symbol, &library) != 0 && library.dli_fname != NULL) {
        printf("#library\t%s\n", library.dli_fname);
    }
    printf("#version\t%s\n", mts_version());
    printf("#timing\t%s\n", timing);
    bench_print_header(stdout);
    fflush(stdout);
}

int bench_run(const bench_case *cases, size_t count, const bench_args *args) {
    int failed = 0;
    for (size_t c = 0; c < count; c++) {
        const bench_case *bench = &cases[c];
        if (!bench_wanted(bench->id, args)) {
            continue;
        }
        fprintf(stderr, "running %s...\n", bench->id);
        bench_result result;
        if (bench_measure(bench->fn, bench->context, &args->options, &result) == 0) {
            bench_print_row(stdout, bench->id, bench->description, bench->unit, &result, NULL);
        } else {
            bench_print_row(stdout, bench->id, bench->description, bench->unit, NULL, bench_error());
            failed++;
        }
    }
    return failed;
}

int bench_main(int argc, char **argv, const bench_case *cases, size_t count, const void *symbol,
               const char *timing, const char *origin, void (*cleanup)(void)) {
    bench_args args;
    int code = bench_parse_args(argc, argv, cases, count, NULL, &args);
    if (code >= 0) {
        return code;
    }
    bench_print_preamble(symbol, timing);
    mts_disable_panic_printing();
    bench_array_init(origin); /* else the origin reads "unregistered origin" */
    bench_run(cases, count, &args);
    if (cleanup != NULL) {
        cleanup();
    }
    bench_array_finish();
    bench_args_free(&args);
    return 0;
}
