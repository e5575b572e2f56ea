/*
 * io_bench.c: timings of saving and loading a 256 MiB tensor map through the metatensor C
 * API (the .mts format), with a plain memcpy of as many bytes as the baseline.
 *
 * Like labels_bench.c and tensor_bench.c, it uses only metatensor.h and is built once against
 * our library and once against the reference (`make bench`, bench/run.sh).
 *
 * Usage: io_bench [--quick] [--list] [PATTERN...]
 *   --quick   3 samples per case after the two warm-up calls: a smoke test
 *   --list    print the case ids and exit
 *   PATTERN   run only the cases whose id contains one of the patterns ("io_" takes them
 *             all; under `make bench` a bare "io" would also pick the labels_bench cases
 *             whose id contains it, position_present and others)
 *
 * The tensor map: 32 blocks, keys "key" = 0..31; every block has 4096 samples (system, atom) =
 * (i / 32, i % 32), 4 components c = 0..3 and 64 properties n = 0..63, f64 values (8 MiB a
 * block, 256 MiB in all) in bench arrays (bench_array.h), element e of block b being
 * 1 + b * 2^20 + e. No gradients. Made on first use, then saved to a buffer once and loaded
 * back (the check below): a failure there fails every case that needs the map.
 *
 * Cases (every id starts with "io_"):
 *   save_buffer              mts_tensormap_save_buffer, starting from NULL / 0 with the C
 *                            realloc as the callback: the buffer's growth (and its page
 *                            faults) is timed; the buffer is freed after the timed region
 *   save_buffer_preallocated the same into a buffer the caller hands over already big enough
 *                            (and already written once, so mapped): no growth to time
 *   load_buffer              mts_tensormap_load_buffer of the saved bytes; create_array
 *                            (bench_array_create_for_load) makes
 *                            bench arrays (uninitialised CPU memory, exported writable while
 *                            not shared) inside the timed region, the map is checked and
 *                            freed after it
 *   save_file                mts_tensormap_save to a file in a fresh directory under $TMPDIR
 *                            (or /tmp); the previous file is removed before the timed region
 *   load_file                mts_tensormap_load of that file (in the page cache), as load_buffer
 *   memcpy (the last case)   memcpy of 256 MiB between two buffers written once before: the
 *                            baseline, printed as its own row and named by a "#baseline" line
 *                            so that bench/run.sh prints every case's ratio to it
 * The default is 7 samples per save or load case after the two warm-up calls of the harness
 * (one call a sample), so 9 calls of each; the memcpy takes the harness's defaults (at least 11
 * samples and 0.3 s); --quick takes 3 samples of each.
 *
 * Checks, outside the timed regions: every save gives as many bytes as the first one (a file
 * save, a file of that size); every loaded map has 32 keys 0..31 and 32 blocks whose values are
 * the arrays create_array made, 4096 x 4 x 64 f64 with the first and last elements saved. A library call that fails, or a check that does
 * not hold, gives an error row with the message (mts_last_error's for a library call, see
 * harness.h), also printed on stderr, and the program exits with status 1 once every case
 * ran. The temporary directory is removed at the end. Prints "#library", "#version",
 * "#timing" and "#baseline" lines first; progress and notes (the realloc calls of the
 * save_buffer cases) go to stderr.
 */
#define _GNU_SOURCE /* mkdtemp */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <metatensor.h>

#include "bench_array.h"
#include "harness.h"

#define IO_BLOCKS 32
#define IO_SAMPLES 4096
#define IO_ATOMS_PER_SYSTEM 32
#define IO_COMPONENTS 4
#define IO_PROPERTIES 64
#define IO_BLOCK_SIZE ((uintptr_t)IO_SAMPLES * IO_COMPONENTS * IO_PROPERTIES)
#define IO_DATA_BYTES ((size_t)IO_BLOCKS * IO_BLOCK_SIZE * sizeof(double))

/* Samples per case outside --quick (after the two warm-up calls every case gets). */
#define IO_SAMPLES_PER_CASE 7

/* Prints the message of the failure (recorded with bench_fail or a bench_* helper) on stderr
 * and returns -1. */
static int io_failed(void) {
    fprintf(stderr, "io_bench: %s\n", bench_error());
    return -1;
}

/* ------------------------------------------------------------------ the map and its checks */

static double first_value(uintptr_t block) {
    return (double)(1 + block * IO_BLOCK_SIZE);
}

static double last_value(uintptr_t block) {
    return (double)(block * IO_BLOCK_SIZE + IO_BLOCK_SIZE);
}

static mts_tensormap_t *map_new(void) {
    return bench_dense_map_new(IO_BLOCKS, IO_SAMPLES, IO_ATOMS_PER_SYSTEM, IO_COMPONENTS, 0, IO_PROPERTIES);
}

/* Checks one block of a loaded map: values made by create_array (bench_array.h), 4096 x 4 x 64 f64
 * with the saved first and last elements. */
static int check_block(mts_tensormap_t *map, uintptr_t b, const char *what) {
    mts_block_t *block = NULL;
    if (bench_status(mts_tensormap_block_by_id(map, &block, b), "mts_tensormap_block_by_id") != 0 ||
        bench_pointer(block, "mts_tensormap_block_by_id") != 0) {
        return -1;
    }
    mts_array_t data;
    memset(&data, 0, sizeof data);
    if (bench_status(mts_block_data(block, &data), "mts_block_data") != 0) {
        return -1;
    }
    if (!bench_array_made_for_load(&data)) {
        bench_fail("%s: the values of block %zu are not the array create_array made", what, (size_t)b);
        return -1;
    }
    DLManagedTensorVersioned *managed = NULL;
    DLDevice cpu = {kDLCPU, 0};
    DLPackVersion version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    if (bench_status(data.as_dlpack(data.ptr, &managed, cpu, NULL, version), "as_dlpack") != 0) {
        return -1;
    }
    const DLTensor *tensor = &managed->dl_tensor;
    int result = 0;
    if (tensor->ndim != 3 || tensor->shape[0] != IO_SAMPLES || tensor->shape[1] != IO_COMPONENTS ||
        tensor->shape[2] != IO_PROPERTIES || tensor->strides != NULL || tensor->dtype.code != kDLFloat ||
        tensor->dtype.bits != 64 || tensor->dtype.lanes != 1) {
        bench_fail("%s: block %zu is not a contiguous f64 array of %d x %d x %d", what, (size_t)b, IO_SAMPLES,
                   IO_COMPONENTS, IO_PROPERTIES);
        result = -1;
    } else {
        const double *values = (const double *)((const char *)tensor->data + tensor->byte_offset);
        if (values[0] != first_value(b) || values[IO_BLOCK_SIZE - 1] != last_value(b)) {
            bench_fail("%s: block %zu starts with %g and ends with %g instead of %g and %g", what, (size_t)b,
                       values[0], values[IO_BLOCK_SIZE - 1], first_value(b), last_value(b));
            result = -1;
        }
    }
    if (managed->deleter != NULL) {
        managed->deleter(managed);
    }
    return result;
}

/* Checks a loaded map: 32 keys 0..31 and the first and last elements of every block. */
static int check_loaded(mts_tensormap_t *map, const char *what) {
    const mts_labels_t *keys = mts_tensormap_keys(map);
    if (bench_pointer(keys, "mts_tensormap_keys") != 0) {
        return -1;
    }
    const int32_t *rows = NULL;
    uintptr_t count = 0, size = 0;
    mts_status_t status = mts_labels_values_cpu(keys, &rows, &count, &size);
    int result = bench_status(status, "mts_labels_values_cpu");
    if (result == 0 && (count != IO_BLOCKS || size != 1)) {
        bench_fail("%s: the loaded map has %zu x %zu keys instead of %d x 1", what, (size_t)count, (size_t)size,
                   IO_BLOCKS);
        result = -1;
    }
    for (uintptr_t b = 0; b < count && result == 0; b++) {
        if (rows[b] != (int32_t)b) {
            bench_fail("%s: key %zu is %d", what, (size_t)b, (int)rows[b]);
            result = -1;
        }
    }
    mts_labels_free(keys);
    for (uintptr_t b = 0; b < IO_BLOCKS && result == 0; b++) {
        result = check_block(map, b, what);
    }
    return result;
}

/* The realloc callback of the saves: the C realloc, counting its calls. */
struct realloc_count {
    uint64_t calls;
    uintptr_t last_size;
};

static uint8_t *counting_realloc(void *user_data, uint8_t *ptr, uintptr_t new_size) {
    struct realloc_count *count = user_data;
    count->calls++;
    count->last_size = new_size;
    return realloc(ptr, new_size);
}

/* Saves `map` into a new buffer (from NULL / 0); the caller frees *buffer. */
static int save_to_buffer(const mts_tensormap_t *map, uint8_t **buffer, uintptr_t *count,
                          struct realloc_count *reallocs) {
    *buffer = NULL;
    *count = 0;
    mts_status_t status = mts_tensormap_save_buffer(buffer, count, reallocs, counting_realloc, map);
    if (bench_status(status, "mts_tensormap_save_buffer") != 0) {
        free(*buffer);
        *buffer = NULL;
        return -1;
    }
    return 0;
}

/* The map and its saved bytes, made on first use and checked once: the bytes load back into a
 * map of the same blocks with the same first and last values. */
static struct {
    bool tried;
    char error[1024];
    mts_tensormap_t *map;
    uint8_t *bytes; /* what mts_tensormap_save_buffer gave, from realloc */
    uintptr_t bytes_count;
    uint8_t *spare; /* a buffer of at least spare_size bytes, already written */
    uintptr_t spare_size;
} io;

static int io_setup(void) {
    io.map = map_new();
    if (io.map == NULL) {
        return -1;
    }
    struct realloc_count reallocs = {0, 0};
    if (save_to_buffer(io.map, &io.bytes, &io.bytes_count, &reallocs) != 0) {
        return -1;
    }
    fprintf(stderr, "io_bench: the map saves to %zu bytes (%zu of data), %llu realloc calls\n",
            (size_t)io.bytes_count, IO_DATA_BYTES, (unsigned long long)reallocs.calls);
    if (io.bytes_count < IO_DATA_BYTES) {
        bench_fail("the saved map takes %zu bytes, less than its %zu bytes of data", (size_t)io.bytes_count,
                   IO_DATA_BYTES);
        return -1;
    }
    mts_tensormap_t *loaded = mts_tensormap_load_buffer(io.bytes, io.bytes_count, bench_array_create_for_load);
    if (bench_pointer(loaded, "mts_tensormap_load_buffer") != 0) {
        return -1;
    }
    int checked = check_loaded(loaded, "load of the saved bytes");
    mts_tensormap_free(loaded);
    if (checked != 0) {
        return -1;
    }
    io.spare_size = io.bytes_count;
    io.spare = malloc(io.spare_size);
    if (io.spare == NULL) {
        bench_fail("out of memory");
        return -1;
    }
    memset(io.spare, 0, io.spare_size);
    return 0;
}

static void io_free(void) {
    mts_tensormap_free(io.map);
    io.map = NULL;
    free(io.bytes);
    io.bytes = NULL;
    free(io.spare);
    io.spare = NULL;
}

static int io_get(void) {
    if (!io.tried) {
        io.tried = true;
        if (io_setup() != 0) {
            snprintf(io.error, sizeof io.error, "setup (32 blocks of 4096x4x64 f64, saved and loaded back): %s",
                     bench_error());
            io_free();
        }
    }
    if (io.map == NULL) {
        bench_fail("%s", io.error);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the temporary file */

static struct {
    bool tried;
    char error[1024];
    char directory[4096]; /* empty until made */
    char path[4200];
    bool ready; /* the file holds the saved map, checked */
} file;

/* The size of the file at file.path, or -1. */
static long long file_size(void) {
    struct stat info;
    if (stat(file.path, &info) != 0) {
        return -1;
    }
    return (long long)info.st_size;
}

static int file_setup(void) {
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0') {
        tmp = "/tmp";
    }
    char directory[4096];
    snprintf(directory, sizeof directory, "%s/mts-io-bench-XXXXXX", tmp);
    if (mkdtemp(directory) == NULL) {
        bench_fail("can not make a temporary directory in %s", tmp);
        return -1;
    }
    snprintf(file.directory, sizeof file.directory, "%s", directory);
    snprintf(file.path, sizeof file.path, "%s/tensor.mts", file.directory);
    if (bench_status(mts_tensormap_save(file.path, io.map), "mts_tensormap_save") != 0) {
        return -1;
    }
    if (file_size() != (long long)io.bytes_count) {
        bench_fail("mts_tensormap_save wrote %lld bytes instead of the %zu of mts_tensormap_save_buffer",
                   file_size(), (size_t)io.bytes_count);
        return -1;
    }
    mts_tensormap_t *loaded = mts_tensormap_load(file.path, bench_array_create_for_load);
    if (bench_pointer(loaded, "mts_tensormap_load") != 0) {
        return -1;
    }
    int checked = check_loaded(loaded, "load of the saved file");
    mts_tensormap_free(loaded);
    return checked;
}

static int file_get(void) {
    if (io_get() != 0) {
        return -1;
    }
    if (!file.tried) {
        file.tried = true;
        file.ready = file_setup() == 0;
        if (!file.ready) {
            snprintf(file.error, sizeof file.error, "setup (the map saved to a file and loaded back): %s",
                     bench_error());
        }
    }
    if (!file.ready) {
        bench_fail("%s", file.error);
        return -1;
    }
    return 0;
}

static void file_remove(void) {
    if (file.directory[0] != '\0') {
        unlink(file.path);
        if (rmdir(file.directory) != 0) {
            fprintf(stderr, "io_bench: could not remove %s\n", file.directory);
        }
        file.directory[0] = '\0';
    }
}

/* ------------------------------------------------------------------ the cases */

/* What the save_buffer cases saw, for the notes at the end. */
struct save_buffer_case {
    bool preallocated;
    uint64_t saves;
    uint64_t realloc_calls;
};

static int check_saved_count(uintptr_t count, const char *call) {
    if (count != io.bytes_count) {
        bench_fail("%s wrote %zu bytes instead of %zu the first time", call, (size_t)count, (size_t)io.bytes_count);
        return -1;
    }
    return 0;
}

static int run_save_buffer(void *context, uint64_t n, double *elapsed_ns) {
    struct save_buffer_case *c = context;
    if (io_get() != 0) {
        return io_failed();
    }
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        struct realloc_count reallocs = {0, 0};
        uint8_t *buffer = c->preallocated ? io.spare : NULL;
        uintptr_t count = c->preallocated ? io.spare_size : 0;
        double start = bench_now_ns();
        mts_status_t status = mts_tensormap_save_buffer(&buffer, &count, &reallocs, counting_realloc, io.map);
        *elapsed_ns += bench_now_ns() - start;
        c->saves++;
        c->realloc_calls += reallocs.calls;
        if (c->preallocated) {
            /* the library may have grown (and moved) the spare buffer all the same */
            io.spare = buffer;
            if (reallocs.calls > 0) {
                io.spare_size = reallocs.last_size;
            }
        }
        int result = bench_status(status, "mts_tensormap_save_buffer");
        if (result == 0) {
            result = check_saved_count(count, "mts_tensormap_save_buffer");
        }
        if (!c->preallocated) {
            free(buffer);
        }
        if (result != 0) {
            return io_failed();
        }
    }
    return 0;
}

static int run_load_buffer(void *context, uint64_t n, double *elapsed_ns) {
    (void)context;
    if (io_get() != 0) {
        return io_failed();
    }
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        double start = bench_now_ns();
        mts_tensormap_t *loaded = mts_tensormap_load_buffer(io.bytes, io.bytes_count, bench_array_create_for_load);
        *elapsed_ns += bench_now_ns() - start;
        if (bench_pointer(loaded, "mts_tensormap_load_buffer") != 0) {
            return io_failed();
        }
        int checked = check_loaded(loaded, "mts_tensormap_load_buffer");
        mts_tensormap_free(loaded);
        if (checked != 0) {
            return io_failed();
        }
    }
    return 0;
}

static int run_save_file(void *context, uint64_t n, double *elapsed_ns) {
    (void)context;
    if (file_get() != 0) {
        return io_failed();
    }
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        unlink(file.path); /* every save makes a new file */
        double start = bench_now_ns();
        mts_status_t status = mts_tensormap_save(file.path, io.map);
        *elapsed_ns += bench_now_ns() - start;
        if (bench_status(status, "mts_tensormap_save") != 0) {
            file.ready = false; /* the file may be gone: the load_file case must not use it */
            snprintf(file.error, sizeof file.error, "the file is gone after %s", bench_error());
            return io_failed();
        }
        if (file_size() != (long long)io.bytes_count) {
            bench_fail("mts_tensormap_save wrote %lld bytes instead of %zu", file_size(), (size_t)io.bytes_count);
            return io_failed();
        }
    }
    return 0;
}

static int run_load_file(void *context, uint64_t n, double *elapsed_ns) {
    (void)context;
    if (file_get() != 0) {
        return io_failed();
    }
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        double start = bench_now_ns();
        mts_tensormap_t *loaded = mts_tensormap_load(file.path, bench_array_create_for_load);
        *elapsed_ns += bench_now_ns() - start;
        if (bench_pointer(loaded, "mts_tensormap_load") != 0) {
            return io_failed();
        }
        int checked = check_loaded(loaded, "mts_tensormap_load");
        mts_tensormap_free(loaded);
        if (checked != 0) {
            return io_failed();
        }
    }
    return 0;
}

/* Two buffers of IO_DATA_BYTES, written once (so mapped) on first use. */
static struct {
    uint8_t *source;
    uint8_t *destination;
} copy;

static int run_memcpy(void *context, uint64_t n, double *elapsed_ns) {
    (void)context;
    if (copy.source == NULL) {
        copy.source = malloc(IO_DATA_BYTES);
        copy.destination = malloc(IO_DATA_BYTES);
        if (copy.source == NULL || copy.destination == NULL) {
            bench_fail("out of memory");
            return io_failed();
        }
        for (size_t i = 0; i < IO_DATA_BYTES; i++) {
            copy.source[i] = (uint8_t)(i * 131 + 7);
        }
        memset(copy.destination, 0, IO_DATA_BYTES);
    }
    *elapsed_ns = 0;
    for (uint64_t i = 0; i < n; i++) {
        copy.source[(i * 4099) % IO_DATA_BYTES] ^= 1; /* a different copy each time */
        double start = bench_now_ns();
        memcpy(copy.destination, copy.source, IO_DATA_BYTES);
        *elapsed_ns += bench_now_ns() - start;
        /* one look at the copy, which also keeps the compiler from dropping it */
        size_t at = (i * 4099) % IO_DATA_BYTES;
        if (copy.destination[at] != copy.source[at] ||
            copy.destination[IO_DATA_BYTES - 1] != copy.source[IO_DATA_BYTES - 1]) {
            bench_fail("memcpy gave a different buffer");
            return io_failed();
        }
    }
    return 0;
}

static void copy_free(void) {
    free(copy.source);
    free(copy.destination);
    copy.source = copy.destination = NULL;
}

/* ------------------------------------------------------------------ the list */

static struct save_buffer_case save_grow = {false, 0, 0};
static struct save_buffer_case save_preallocated = {true, 0, 0};

#define IO_MEMCPY_ID "io_memcpy"

static const bench_case CASES[] = {
    {"io_save_buffer", "save_buffer 256 MiB, realloc from NULL", "call", run_save_buffer, &save_grow},
    {"io_save_buffer_preallocated", "save_buffer 256 MiB, buffer big enough", "call", run_save_buffer,
     &save_preallocated},
    {"io_load_buffer", "load_buffer 256 MiB", "call", run_load_buffer, NULL},
    {"io_save_file", "save 256 MiB to a file", "call", run_save_file, NULL},
    {"io_load_file", "load 256 MiB from a file", "call", run_load_file, NULL},
    {IO_MEMCPY_ID, "memcpy 256 MiB (baseline)", "call", run_memcpy, NULL},
};

#define CASES_COUNT (sizeof CASES / sizeof CASES[0])

/* ------------------------------------------------------------------ main */

static void note_reallocs(const char *id, const struct save_buffer_case *c) {
    if (c->saves > 0) {
        fprintf(stderr, "io_bench: %s: %llu realloc calls in %llu saves\n", id, (unsigned long long)c->realloc_calls,
                (unsigned long long)c->saves);
    }
}

int main(int argc, char **argv) {
    bench_args args;
    int code = bench_parse_args(argc, argv, CASES, CASES_COUNT, NULL, &args);
    if (code >= 0) {
        return code;
    }
    /* the save and load cases take IO_SAMPLES_PER_CASE samples; the memcpy, the last case,
     * the harness's usual number (at least 11 and 0.3 s), being short and the baseline */
    bench_args heavy = args;
    if (heavy.options.max_samples > IO_SAMPLES_PER_CASE) { /* not --quick */
        heavy.options.min_samples = IO_SAMPLES_PER_CASE;
        heavy.options.max_samples = IO_SAMPLES_PER_CASE;
        heavy.options.min_time_ns = 0;
        heavy.options.warmup_ns = 0;
    }
    bench_print_preamble((const void *)mts_tensormap_save_buffer,
                         "io: one call a sample, 2 warm-up calls then 7 samples (memcpy: 11 and 0.3 s at least; "
                         "3 with --quick); the map is made and saved bytes checked before; results checked and "
                         "freed after the timed region, the create_array and realloc callbacks inside it");
    printf("#baseline\t%s\n", IO_MEMCPY_ID);
    fflush(stdout);

    mts_disable_panic_printing();
    bench_array_init("metatensor-go.bench.io");

    int failed = bench_run(CASES, CASES_COUNT - 1, &heavy);
    failed += bench_run(CASES + CASES_COUNT - 1, 1, &args);

    note_reallocs("io_save_buffer", &save_grow);
    note_reallocs("io_save_buffer_preallocated", &save_preallocated);
    file_remove();
    io_free();
    copy_free();
    bench_array_finish();
    bench_args_free(&args);
    if (failed > 0) {
        fprintf(stderr, "io_bench: %d case%s failed\n", failed, failed == 1 ? "" : "s");
        return 1;
    }
    return 0;
}
