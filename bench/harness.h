/*
 * harness.h: the timing loop of the C benchmarks.
 *
 * A case is a function that runs its operation `n` times and reports the nanoseconds spent
 * in the part it means to time; it may prepare inputs or release outputs outside that part.
 * `bench_measure` warms the case up (two calls at least), picks a batch size `n` so that one
 * sample lasts at least `min_sample_ns`, then takes samples until it has `min_samples` of
 * them and has timed `min_time_ns` in all (or reached `max_samples`). It reports the median,
 * minimum and maximum time of one operation (sample time divided by the batch size).
 *
 * Errors: a case returns -1 after recording a message with `bench_fail` (or through
 * `bench_status` / `bench_pointer`, which add `mts_last_error`'s message); `bench_error`
 * gives it back.
 *
 * Output, one tab-separated line per case (`bench_print_row`):
 *   id  description  unit  median_ns  min_ns  max_ns  samples  batch  status  message
 * where status is "ok" or "error" (the numbers are then "-").
 */
#ifndef MTS_BENCH_HARNESS_H
#define MTS_BENCH_HARNESS_H

#include <stdint.h>
#include <stdio.h>

#include <metatensor.h>

typedef int (*bench_case_fn)(void *context, uint64_t n, double *elapsed_ns);

typedef struct {
    uint32_t min_samples;
    uint32_t max_samples;
    double min_time_ns;
    double min_sample_ns;
    double warmup_ns;
} bench_options;

typedef struct {
    double median_ns;
    double min_ns;
    double max_ns;
    uint32_t samples;
    uint64_t batch;
} bench_result;

/* The defaults: 11 to 101 samples of at least 1 ms, 0.3 s timed, 50 ms of warm-up. */
bench_options bench_default_options(void);
/* A smoke test: 3 samples after the two warm-up calls that every case gets. */
bench_options bench_quick_options(void);

/* A monotonic clock, in nanoseconds. */
double bench_now_ns(void);

/* Records the error message of the running case (printf-style). */
void bench_fail(const char *format, ...);
/* The message recorded by the last failure. */
const char *bench_error(void);

/* Returns 0 when `status` is MTS_SUCCESS; otherwise records "<call>: status N: <last error>"
 * and returns -1. */
int bench_status(mts_status_t status, const char *call);
/* The same for functions returning a pointer, NULL meaning failure. */
int bench_pointer(const void *pointer, const char *call);

/* Measures a case; returns 0, or -1 with the case's message in `bench_error()`. */
int bench_measure(bench_case_fn fn, void *context, const bench_options *options, bench_result *result);

void bench_print_header(FILE *out);
/* Prints one row: the result when `result` is not NULL, otherwise an error row with `error`. */
void bench_print_row(FILE *out, const char *id, const char *description, const char *unit,
                     const bench_result *result, const char *error);

/* One benchmark case of a program. */
typedef struct {
    const char *id;
    const char *description;
    const char *unit;
    bench_case_fn fn;
    void *context;
} bench_case;

/* What a program's command line asked for. */
typedef struct {
    bench_options options;
    const char **patterns; /* run the cases matching one of them (bench_parse_args); all when none */
    int patterns_count;
    int extra; /* set when the program's own flag was given */
} bench_args;

/* Parses `[--quick] [--list] [EXTRA] [PATTERN...]`, EXTRA being the program's own flag (or
 * NULL). A case runs when its id contains a PATTERN, starts with it when the PATTERN starts
 * with '^', ends with it when the PATTERN ends with '$' (both: the id is the PATTERN); none
 * given: every case. --list prints the id and description of each case that would run, and
 * runs none. Returns -1 when the cases should run, otherwise the exit code (after --list, or
 * after a usage message). Free the arguments with bench_args_free. */
int bench_parse_args(int argc, char **argv, const bench_case *cases, size_t count, const char *extra,
                     bench_args *args);
void bench_args_free(bench_args *args);

/* Prints the #library (the file holding `symbol`), #version and #timing lines, then the
 * header. */
void bench_print_preamble(const void *symbol, const char *timing);

/* Runs the wanted cases, printing one row each; returns how many of them failed. */
int bench_run(const bench_case *cases, size_t count, const bench_args *args);

/* The whole main of a program whose cases need nothing but bench arrays: parses the
 * arguments, prints the preamble (see bench_print_preamble), registers `origin` as the bench
 * arrays' origin, runs the cases, then calls `cleanup` (may be NULL) and frees what the
 * harness and the bench arrays kept. Returns the exit code. */
int bench_main(int argc, char **argv, const bench_case *cases, size_t count, const void *symbol,
               const char *timing, const char *origin, void (*cleanup)(void));

#endif
