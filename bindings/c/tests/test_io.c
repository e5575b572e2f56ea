/*
 * Tests of the serialization part of the C API: mts_labels_load, _load_buffer,
 * _save, _save_buffer and the same four functions for blocks and tensor maps
 * (docs/reference-behaviour.md#mts-layout and the sections after it, with the
 * callback errors and the ownership of arrays on load errors).
 *
 * The objects saved are built over instrumented test arrays (test_array.h) of
 * the four dtypes, and loaded back with a create_array callback that makes
 * test arrays too and records every call, so the tests can check the shape
 * and dtype each call asked for, the order of the calls, the DLPack exports
 * the loader asked for, and that everything made by a failed load was
 * destroyed. The realloc callback of the *_save_buffer functions counts its
 * calls and the sizes asked for. Files go to a mkdtemp directory, removed at
 * the end. At the end no test array may be alive, none may have been
 * destroyed twice and every DLPack tensor they exported must have been deleted
 * exactly once.
 *
 * The load functions return a pointer, so the status of a failed load is not
 * seen; it is told by the message (its kind prefix, "io error: " for 2,
 * "serialization format error: " for 3, ...) or by its origin (a callback's
 * error keeps the callback's origin: 254).
 *
 * Built with MTS_TEST_REFERENCE defined, the tests expect the reference's
 * behaviour (the library in build/reference); otherwise ours. Where they
 * differ:
 *  - the reference's mts_labels_save_buffer does not check `buffer` and
 *    `buffer_count` for NULL (it crashes), and none of its load functions
 *    checks `create_array` (it crashes when it is called); ours refuses them
 *    as NULL arguments, which is only checked against ours.
 *  - an error met reading an entry of an archive ends, in ours, with the
 *    entry's name (": at 'values.npy'", IN_ENTRY); the reference's does not.
 *
 * Reference behaviour worth knowing (0.2.6), asserted on both unless said:
 *  - the bytes written are the same on every save when each block has at
 *    most one gradient per level (CHECK_REFERENCE_BYTES pins their size and
 *    hash); with more, gradients are written in hash-map order, so only the
 *    sizes are compared;
 *  - save asks every array for its DLPack export, also the arrays without
 *    elements; load asks only the arrays with elements that create_array
 *    made, once each;
 *  - a `.npy` file name wins over the content when the path loaders pick
 *    their hint: a tensor map saved as "tensor.npy" and given to
 *    mts_block_load gets the `load_labels` hint;
 *  - garbage shorter than a zip's end record (22 bytes) is "Invalid zip
 *    header", longer "Could not find central directory end"; for the labels
 *    loader, fewer than 6 bytes is an I/O error ("failed to fill whole
 *    buffer") without the "unable to load" prefix;
 *  - `*buffer == NULL` with `*buffer_count != 0` is "`buffer` is NULL but
 *    `buffer_count` is not 0 in mts_<kind>_save_buffer" (status 1), and with
 *    both `buffer` and `buffer_count` NULL the error names `buffer_count`;
 *  - an invalid name in loaded labels is "not a valid label dimension" (not
 *    "name" as for mts_labels);
 *  - create_array is called as soon as an NPY header is read, before the
 *    data is known to be long enough;
 *  - when realloc returns NULL, the reference calls it once more (the zip
 *    writer tries to finish the archive when it is dropped) and prints
 *    "ZipWriter drop failed: ..." to stderr (not asserted);
 *  - some corrupted inputs abort the reference's process or make it panic
 *    (see run_hostile and test_hostile_input).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_helpers.h"

static const char *const NAMES_ST[] = {"s", "t"};
static const char *const NAMES_ABC[] = {"a", "b", "c"};
static const char *const NAMES_XY[] = {"x", "y"};
static const char *const NAMES_ONLY[] = {"only"};
static const char *const NAMES_PQ[] = {"p", "q"};
static const char *const NAMES_XYZ[] = {"xyz"};
static const char *const NAMES_CELL[] = {"abc"};

#define CALLBACK_PREFIX "failed to create a new array: "
#define IO_PREFIX "io error: "
#define SERIALIZATION "serialization format error: "
#ifdef MTS_TEST_REFERENCE
#define IN_ENTRY(name) ""
#else
#define IN_ENTRY(name) ": at '" name "'"
#endif

/* the mkdtemp directory of this run */
static char tmpdir[64];

/* DLPack tensors exported by test arrays and not deleted yet. Not always 0:
 * our labels keep the export of a contiguous CPU labels array while they
 * live (see test_labels.c), so the tests compare it with its value before. */
static long dlpack_pending(void) {
    return atomic_load(&ta_stats.dlpack_exported) - atomic_load(&ta_stats.dlpack_deleted);
}

/* ------------------------------------------------------------------------ */
/* building                                                                 */

/* the number of entries of `labels` */
static uintptr_t labels_count(const mts_labels_t *labels) {
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    if (mts_labels_values_cpu(labels, &values, &count, &size) != MTS_SUCCESS) {
        return 0;
    }
    return count;
}

/* labels `names` (`size` dimensions) with `count` entries: the first
 * dimension is first, first+1, ... (so the entries are unique), the others
 * arbitrary (negative ones included) */
static const mts_labels_t *rows_labels(const char *const *names, uintptr_t size, uintptr_t count,
                                       int32_t first) {
    int32_t *values = calloc(count * size + 1, sizeof(int32_t));
    for (uintptr_t r = 0; r < count; r++) {
        for (uintptr_t c = 0; c < size; c++) {
            values[r * size + c] = c == 0 ? first + (int32_t)r : (int32_t)(r * 7 + c * 3) - 5;
        }
    }
    const mts_labels_t *labels = ta_labels(names, size, values, count);
    free(values);
    CHECK(labels != NULL);
    return labels;
}

/* gradient samples (sample, g): `count` entries, the sample column cycling
 * through 0 .. parent_samples-1 */
static const mts_labels_t *gradient_samples(uintptr_t count, uintptr_t parent_samples) {
    int32_t *values = calloc(2 * count + 1, sizeof(int32_t));
    for (uintptr_t r = 0; r < count; r++) {
        values[2 * r] = (int32_t)(r % (parent_samples == 0 ? 1 : parent_samples));
        values[2 * r + 1] = (int32_t)r;
    }
    const mts_labels_t *labels = ta_labels(NAMES_SAMPLE_G, 2, values, count);
    free(values);
    CHECK(labels != NULL);
    return labels;
}

/* a test array of `dtype` whose element i is base + i (+ 0.5 for floats) */
static struct test_array *counting_array(DLDataType dtype, const uintptr_t *shape,
                                         uintptr_t ndim, int base) {
    struct test_array *array = ta_new(dtype, shape, ndim, NULL);
    size_t total = ta_count(array);
    for (size_t i = 0; i < total; i++) {
        long long value = (long long)base + (long long)i;
        if (ta_dtype_eq(dtype, TA_FLOAT64)) {
            ((double *)array->data)[i] = (double)value + 0.5;
        } else if (ta_dtype_eq(dtype, TA_FLOAT32)) {
            ((float *)array->data)[i] = (float)value + 0.5f;
        } else if (ta_dtype_eq(dtype, TA_INT32)) {
            ((int32_t *)array->data)[i] = (int32_t)(value * (i % 2 == 0 ? 1 : -1));
        } else {
            ((int64_t *)array->data)[i] = (int64_t)value * 4000000000LL;
        }
    }
    return array;
}

/* a block over a new counting array of `dtype` whose shape follows the labels */
static mts_block_t *new_block(DLDataType dtype, const mts_labels_t *samples,
                              const mts_labels_t *const *components, uintptr_t components_count,
                              const mts_labels_t *properties, int base) {
    uintptr_t shape[TA_MAX_NDIM];
    shape[0] = labels_count(samples);
    for (uintptr_t i = 0; i < components_count; i++) {
        shape[i + 1] = labels_count(components[i]);
    }
    shape[components_count + 1] = labels_count(properties);
    struct test_array *array = counting_array(dtype, shape, components_count + 2, base);
    mts_block_t *block = mts_block(ta_mts(array), samples, components, components_count,
                                   properties);
    CHECK(block != NULL);
    return block;
}

/* Adds the gradient `parameter` to `block`: `count` samples, an optional
 * extra component (`extra_name`, `extra_count` entries) before the block's
 * components, the block's properties and dtype. Returns the gradient (owned
 * by `block`), to add nested gradients to. */
static mts_block_t *add_gradient(mts_block_t *block, const char *parameter, uintptr_t count,
                                 const char *const *extra_name, uintptr_t extra_count, int base) {
    struct test_array *values = block_array(block);
    uintptr_t n_components = values->ndim - 2;
    const mts_labels_t *components[TA_MAX_NDIM];
    uintptr_t n = 0;
    if (extra_name != NULL) {
        components[n++] = rows_labels(extra_name, 1, extra_count, 0);
    }
    for (uintptr_t i = 0; i < n_components; i++) {
        components[n++] = mts_block_labels(block, i + 1);
    }
    const mts_labels_t *properties = mts_block_labels(block, n_components + 1);
    const mts_labels_t *samples = gradient_samples(count, values->shape[0]);
    mts_block_t *gradient = new_block(values->dtype, samples, components, n, properties, base);
    CHECK_STATUS(mts_block_add_gradient(block, parameter, gradient), MTS_SUCCESS);
    for (uintptr_t i = 0; i < n; i++) {
        mts_labels_free(components[i]);
    }
    mts_labels_free(properties);
    mts_labels_free(samples);
    mts_block_t *result = NULL;
    CHECK_STATUS(mts_block_gradient(block, parameter, &result), MTS_SUCCESS);
    return result;
}

/* A block of `dtype`: samples (s, t), the components c (n_c entries, none
 * when 0) and d (2 entries, only with c), properties p (n_p entries, starting
 * at first_p), and, when `gradients`, the gradient "positions" (extra
 * component xyz) with its nested gradient "cell" (extra component abc) and,
 * when `alpha`, a second gradient "alpha" without extra component. */
static mts_block_t *rich_block(DLDataType dtype, uintptr_t n_samples, uintptr_t n_c,
                               uintptr_t n_p, int32_t first_p, int gradients, int alpha,
                               int base) {
    const mts_labels_t *samples = rows_labels(NAMES_ST, 2, n_samples, 0);
    const mts_labels_t *components[2] = {NULL, NULL};
    uintptr_t n = 0;
    if (n_c != 0) {
        components[n++] = rows_labels(NAMES_C, 1, n_c, 0);
        components[n++] = rows_labels(NAMES_D, 1, 2, -1);
    }
    const mts_labels_t *properties = rows_labels(NAMES_P, 1, n_p, first_p);
    mts_block_t *block = new_block(dtype, samples, components, n, properties, base);
    for (uintptr_t i = 0; i < n; i++) {
        mts_labels_free(components[i]);
    }
    mts_labels_free(samples);
    mts_labels_free(properties);
    if (gradients) {
        mts_block_t *positions = add_gradient(block, "positions", n_samples + n_samples / 2,
                                              NAMES_XYZ, 3, base + 1000);
        add_gradient(positions, "cell", n_samples / 2, NAMES_CELL, 2, base + 2000);
    }
    if (alpha) {
        add_gradient(block, "alpha", n_samples, NULL, 0, base + 3000);
    }
    return block;
}

/* The rich tensor map (float64): keys (k, l), three blocks with components,
 * the last one with zero samples, each with the gradient "positions" (and
 * its nested "cell") and, when `alpha`, "alpha", and some info. Without
 * "alpha" its bytes are the same on every save (see simple_tensor). */
static mts_tensormap_t *rich_tensor(int alpha) {
    static const int32_t keys_values[] = {0, 1, 1, 0, 2, 5};
    const mts_labels_t *keys = ta_labels(NAMES_KL, 2, keys_values, 3);
    mts_block_t *blocks[3];
    blocks[0] = rich_block(TA_FLOAT64, 4, 3, 3, 0, 1, alpha, 0);
    blocks[1] = rich_block(TA_FLOAT64, 2, 1, 3, 10, 1, alpha, 100);
    blocks[2] = rich_block(TA_FLOAT64, 0, 2, 3, 20, 1, alpha, 200);
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 3);
    CHECK(tensor != NULL);
    mts_labels_free(keys);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "name", "rich tensor"), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "units", "eV"), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "a_quote", "say \"hi\"\n\tback\\slash"),
                 MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "empty", ""), MTS_SUCCESS);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "unicode", "\xc3\xa9nergie \xe2\x9c\x93"),
                 MTS_SUCCESS);
    return tensor;
}

/* A tensor map whose bytes are the same on every save, also on the
 * reference (which writes gradients in hash-map order): keys k, two float64
 * blocks without components, one gradient "g" with one nested gradient "h",
 * and one info entry. */
static mts_tensormap_t *simple_tensor(void) {
    const mts_labels_t *keys = rows_labels(NAMES_K, 1, 2, 3);
    mts_block_t *blocks[2];
    for (int i = 0; i < 2; i++) {
        const mts_labels_t *samples = rows_labels(NAMES_S, 1, 3 + (uintptr_t)i, 0);
        const mts_labels_t *properties = rows_labels(NAMES_P, 1, 2, 0);
        blocks[i] = new_block(TA_FLOAT64, samples, NULL, 0, properties, 10 * i);
        mts_block_t *g = add_gradient(blocks[i], "g", 4, NULL, 0, 50 + i);
        add_gradient(g, "h", 2, NAMES_XYZ, 3, 70 + i);
        mts_labels_free(samples);
        mts_labels_free(properties);
    }
    mts_tensormap_t *tensor = mts_tensormap(keys, blocks, 2);
    CHECK(tensor != NULL);
    mts_labels_free(keys);
    CHECK_STATUS(mts_tensormap_set_info(tensor, "only", "one"), MTS_SUCCESS);
    return tensor;
}

/* a tensor map without blocks: keys (k, l) with zero entries, no info */
static mts_tensormap_t *empty_tensor(void) {
    const mts_labels_t *keys = ta_labels(NAMES_KL, 2, NULL, 0);
    mts_tensormap_t *tensor = mts_tensormap(keys, NULL, 0);
    CHECK(tensor != NULL);
    mts_labels_free(keys);
    return tensor;
}

/* ------------------------------------------------------------------------ */
/* the create_array callback                                                */

#define MAX_CREATED 4096

static struct {
    int calls;
    int fail_at;             /* the call (from 0) that fails; -1: none */
    mts_status_t fail_status;
    int not_zeroed;          /* out-arrays not zero-filled by the library */
    int refused;             /* calls refused for an unsupported request */
    DLDataType last_dtype;   /* asked for by the last call */
    struct test_array *arrays[MAX_CREATED]; /* in creation order, NULL when failed */
} created;

static void created_reset(void) {
    created.calls = 0;
    created.fail_at = -1;
    created.fail_status = MTS_CALLBACK_ERROR;
    created.not_zeroed = 0;
    created.refused = 0;
    memset(created.arrays, 0, sizeof(created.arrays));
}

/* more elements than this are refused (hostile inputs can ask for anything) */
#define MAX_ELEMENTS (1u << 22)

static mts_status_t create_array(const uintptr_t *shape, uintptr_t shape_count, DLDataType dtype,
                                 mts_array_t *array) {
    int call = created.calls++;
    created.last_dtype = dtype;
    if (array == NULL) {
        return MTS_CALLBACK_ERROR;
    }
    if (!ta_is_zeroed(array)) {
        created.not_zeroed++;
    }
    if (call == created.fail_at) {
        ta_set_error(NULL, TA_CREATE, "create_array failed on purpose");
        return created.fail_status;
    }
    size_t total = 1;
    int too_big = shape_count > TA_MAX_NDIM;
    for (uintptr_t i = 0; !too_big && i < shape_count; i++) {
        if (shape[i] > MAX_ELEMENTS || (total *= shape[i]) > MAX_ELEMENTS) {
            too_big = 1;
        }
    }
    if (too_big || !ta_supported_dtype(dtype)) {
        created.refused++;
        ta_set_error(NULL, TA_CREATE, "create_array: unsupported shape or dtype");
        return MTS_CALLBACK_ERROR;
    }
    struct test_array *result = ta_new(dtype, shape, shape_count, NULL);
    if (result == NULL) {
        ta_set_error(NULL, TA_CREATE, "create_array: out of memory");
        return MTS_CALLBACK_ERROR;
    }
    if (call < MAX_CREATED) {
        created.arrays[call] = result;
    }
    *array = ta_mts(result);
    return MTS_SUCCESS;
}

static int creation_index(const struct test_array *array) {
    for (int i = 0; i < created.calls && i < MAX_CREATED; i++) {
        if (array != NULL && created.arrays[i] == array) {
            return i;
        }
    }
    return -1;
}

/* ------------------------------------------------------------------------ */
/* the realloc callback                                                     */

#define GROWTH_MAGIC 0x9e0f7a11u
#define MAX_GROWTH 64

struct growth {
    uint32_t magic;
    int calls;
    int fail_from;    /* calls from this one (from 0) on return NULL; -1: never */
    int wrong_ptr;    /* calls whose `ptr` was not the latest buffer */
    uint8_t *current; /* the latest buffer: the caller's, then what we returned */
    uintptr_t sizes[MAX_GROWTH];
};

static int bad_user_data = 0;

static struct growth growth_from(uint8_t *initial) {
    struct growth g;
    memset(&g, 0, sizeof(g));
    g.magic = GROWTH_MAGIC;
    g.fail_from = -1;
    g.current = initial;
    return g;
}

static uint8_t *growth_realloc(void *user_data, uint8_t *ptr, uintptr_t size) {
    struct growth *g = user_data;
    if (g == NULL || g->magic != GROWTH_MAGIC) {
        bad_user_data++;
        return NULL;
    }
    int call = g->calls++;
    if (call < MAX_GROWTH) {
        g->sizes[call] = size;
    }
    if (ptr != g->current) {
        g->wrong_ptr++;
    }
    if (g->fail_from >= 0 && call >= g->fail_from) {
        return NULL;
    }
    uint8_t *result = realloc(ptr, size);
    if (result != NULL) {
        g->current = result;
    }
    return result;
}

/* `to` is `from` doubled k times, k >= k_min */
static int is_doubling_of(uintptr_t from, uintptr_t to, int k_min) {
    if (from == 0) {
        return 0;
    }
    uintptr_t size = from;
    int k = 0;
    while (size < to && k < 62) {
        size *= 2;
        k++;
    }
    return size == to && k >= k_min;
}

/* The growth contract (docs/reference-behaviour.md#save-buffer) after a
 * successful save that started with an allocation of `initial` bytes and wrote
 * `written`: the first request is 1024 (or the caller's allocation) doubled
 * until it fits, each later one a doubling of the previous, every call got the
 * latest buffer, and the last allocation holds the bytes without being twice
 * too big (the doubling that fits). 1 check. */
static void check_growth_(const struct growth *g, uintptr_t initial, uintptr_t written,
                          const char *file, int line) {
    int ok = g->calls >= 1 && g->calls <= MAX_GROWTH && g->wrong_ptr == 0;
    if (ok) {
        ok = is_doubling_of(initial == 0 ? 1024 : initial, g->sizes[0], initial == 0 ? 0 : 1);
    }
    for (int i = 1; ok && i < g->calls; i++) {
        ok = is_doubling_of(g->sizes[i - 1], g->sizes[i], 1);
    }
    if (ok) {
        uintptr_t last = g->sizes[g->calls - 1];
        ok = written <= last;
        if (ok && !(initial == 0 && g->calls == 1 && last == 1024)) {
            ok = written > last / 2;
        }
    }
    if (!ok) {
        fprintf(stderr, "%s:%d: realloc from %zu for %zu bytes, %d calls (%d with a stale "
                        "pointer):", file, line, (size_t)initial, (size_t)written, g->calls,
                g->wrong_ptr);
        for (int i = 0; i < g->calls && i < MAX_GROWTH; i++) {
            fprintf(stderr, " %zu", (size_t)g->sizes[i]);
        }
        fprintf(stderr, "\n");
    }
    check_record_(ok, file, line, "realloc growth contract");
}
#define CHECK_GROWTH(g, initial, written) \
    check_growth_((g), (initial), (written), __FILE__, __LINE__)

/* ------------------------------------------------------------------------ */
/* the three kinds of object                                                */

enum kind { KIND_LABELS = 0, KIND_BLOCK = 1, KIND_TENSOR = 2 };

/* as the messages name them */
static const char *const KIND_NAME[] = {"Labels", "TensorBlock", "TensorMap"};
/* as the function names name them */
static const char *const KIND_FN[] = {"labels", "block", "tensormap"};
/* "unable to load <...> from" */
static const char *const KIND_LOAD[] = {"Labels", "a TensorBlock", "a TensorMap"};

static mts_status_t save_buffer_as(enum kind kind, uint8_t **buffer, uintptr_t *count,
                                   void *user_data, mts_realloc_buffer_t grow,
                                   const void *object) {
    switch (kind) {
    case KIND_LABELS: return mts_labels_save_buffer(buffer, count, user_data, grow, object);
    case KIND_BLOCK: return mts_block_save_buffer(buffer, count, user_data, grow, object);
    case KIND_TENSOR: return mts_tensormap_save_buffer(buffer, count, user_data, grow, object);
    }
    return MTS_INTERNAL_ERROR;
}

static void *load_buffer_as(enum kind kind, const uint8_t *buffer, uintptr_t count) {
    switch (kind) {
    case KIND_LABELS: return (void *)mts_labels_load_buffer(buffer, count);
    case KIND_BLOCK: return mts_block_load_buffer(buffer, count, create_array);
    case KIND_TENSOR: return mts_tensormap_load_buffer(buffer, count, create_array);
    }
    return NULL;
}

static mts_status_t save_path_as(enum kind kind, const char *path, const void *object) {
    switch (kind) {
    case KIND_LABELS: return mts_labels_save(path, object);
    case KIND_BLOCK: return mts_block_save(path, object);
    case KIND_TENSOR: return mts_tensormap_save(path, object);
    }
    return MTS_INTERNAL_ERROR;
}

static void *load_path_as(enum kind kind, const char *path) {
    switch (kind) {
    case KIND_LABELS: return (void *)mts_labels_load(path);
    case KIND_BLOCK: return mts_block_load(path, create_array);
    case KIND_TENSOR: return mts_tensormap_load(path, create_array);
    }
    return NULL;
}

static void free_as(enum kind kind, void *object) {
    switch (kind) {
    case KIND_LABELS: mts_labels_free(object); break;
    case KIND_BLOCK: mts_block_free(object); break;
    case KIND_TENSOR: mts_tensormap_free(object); break;
    }
}

/* save `object` into a new buffer grown by growth_realloc from NULL/0;
 * returns the status, the bytes (to free) and their count */
static mts_status_t save_to_new_buffer(enum kind kind, const void *object, uint8_t **bytes,
                                       uintptr_t *count) {
    struct growth g = growth_from(NULL);
    *bytes = NULL;
    *count = 0;
    return save_buffer_as(kind, bytes, count, &g, growth_realloc, object);
}

/* the path of `name` in the temporary directory (a static buffer per slot) */
static const char *temp_path(const char *name) {
    static char paths[4][256];
    static int slot = 0;
    slot = (slot + 1) % 4;
    snprintf(paths[slot], sizeof(paths[slot]), "%s/%s", tmpdir, name);
    return paths[slot];
}

/* the whole content of a file (to free), NULL when it can not be read */
static uint8_t *read_whole_file(const char *path, uintptr_t *count) {
    *count = 0;
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        return NULL;
    }
    size_t capacity = 4096, size = 0;
    uint8_t *data = malloc(capacity);
    size_t got;
    while ((got = fread(data + size, 1, capacity - size, file)) > 0) {
        size += got;
        if (size == capacity) {
            capacity *= 2;
            data = realloc(data, capacity);
        }
    }
    fclose(file);
    *count = size;
    return data;
}

static void write_whole_file(const char *path, const uint8_t *data, uintptr_t count) {
    FILE *file = fopen(path, "wb");
    CHECK(file != NULL);
    if (file != NULL) {
        CHECK_INT_EQ(fwrite(data, 1, count, file), count);
        fclose(file);
    }
}

/* `needle` (`length` bytes) occurs in `bytes` */
static const uint8_t *find_bytes(const uint8_t *bytes, uintptr_t count, const char *needle) {
    size_t length = strlen(needle);
    for (uintptr_t i = 0; bytes != NULL && length <= count && i <= count - length; i++) {
        if (memcmp(bytes + i, needle, length) == 0) {
            return bytes + i;
        }
    }
    return NULL;
}

static int same_bytes(const uint8_t *a, uintptr_t a_count, const uint8_t *b, uintptr_t b_count) {
    return a != NULL && b != NULL && a_count == b_count && memcmp(a, b, a_count) == 0;
}

/* ------------------------------------------------------------------------ */
/* comparing                                                                */

static int labels_equal(const mts_labels_t *a, const mts_labels_t *b) {
    const char *const *a_names = NULL, *const *b_names = NULL;
    uintptr_t a_size = 0, b_size = 0, a_count = 0, b_count = 0, a_width = 0, b_width = 0;
    const int32_t *a_values = NULL, *b_values = NULL;
    int ok = a != NULL && b != NULL &&
             mts_labels_dimensions(a, &a_names, &a_size) == MTS_SUCCESS &&
             mts_labels_dimensions(b, &b_names, &b_size) == MTS_SUCCESS && a_size == b_size &&
             mts_labels_values_cpu(a, &a_values, &a_count, &a_width) == MTS_SUCCESS &&
             mts_labels_values_cpu(b, &b_values, &b_count, &b_width) == MTS_SUCCESS &&
             a_count == b_count && a_width == b_width;
    for (uintptr_t i = 0; ok && i < a_size; i++) {
        ok = strcmp(a_names[i], b_names[i]) == 0;
    }
    if (ok && a_count * a_width != 0) {
        ok = memcmp(a_values, b_values, a_count * a_width * sizeof(int32_t)) == 0;
    }
    return ok;
}

static int arrays_equal(const struct test_array *a, const struct test_array *b) {
    if (a == NULL || b == NULL || !ta_dtype_eq(a->dtype, b->dtype) || a->ndim != b->ndim) {
        return 0;
    }
    for (uintptr_t d = 0; d < a->ndim; d++) {
        if (a->shape[d] != b->shape[d]) {
            return 0;
        }
    }
    size_t bytes = ta_count(a) * ta_elsize(a->dtype);
    return bytes == 0 || memcmp(a->data, b->data, bytes) == 0;
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the two lists hold the same strings, in any order */
static int same_string_set(const char *const *a, uintptr_t a_count, const char *const *b,
                           uintptr_t b_count) {
    if (a_count != b_count) {
        return 0;
    }
    if (a_count == 0) {
        return 1;
    }
    const char **sa = malloc(a_count * sizeof(char *));
    const char **sb = malloc(b_count * sizeof(char *));
    memcpy(sa, a, a_count * sizeof(char *));
    memcpy(sb, b, b_count * sizeof(char *));
    qsort(sa, a_count, sizeof(char *), compare_strings);
    qsort(sb, b_count, sizeof(char *), compare_strings);
    int ok = 1;
    for (uintptr_t i = 0; ok && i < a_count; i++) {
        ok = strcmp(sa[i], sb[i]) == 0;
    }
    free(sa);
    free(sb);
    return ok;
}

/* `got` is a copy of `expected`: values (dtype, shape, data; `got`'s made by
 * create_array), the labels of every axis, the gradients, recursively. 4
 * checks per block and gradient. */
static void check_same_block_(mts_block_t *expected, mts_block_t *got, const char *file,
                              int line) {
    struct test_array *e = block_array(expected);
    struct test_array *g = got != NULL ? block_array(got) : NULL;
    check_record_(arrays_equal(e, g), file, line, "same values (a test array, dtype, shape, data)");

    int ok = e != NULL && g != NULL;
    for (uintptr_t axis = 0; ok && axis < e->ndim; axis++) {
        const mts_labels_t *a = mts_block_labels(expected, axis);
        const mts_labels_t *b = mts_block_labels(got, axis);
        ok = labels_equal(a, b);
        if (!ok) {
            fprintf(stderr, "%s:%d: the labels of axis %zu differ\n", file, line, (size_t)axis);
        }
        mts_labels_free(a);
        mts_labels_free(b);
    }
    check_record_(ok, file, line, "same labels on every axis");

    DLDataType a_dtype = {0, 0, 0}, b_dtype = {0, 0, 0};
    ok = got != NULL && mts_block_dtype(expected, &a_dtype) == MTS_SUCCESS &&
         mts_block_dtype(got, &b_dtype) == MTS_SUCCESS && ta_dtype_eq(a_dtype, b_dtype);
    check_record_(ok, file, line, "same block dtype");

    const char *const *a_list = NULL, *const *b_list = NULL;
    uintptr_t a_count = 0, b_count = 0;
    ok = got != NULL && mts_block_gradients_list(expected, &a_list, &a_count) == MTS_SUCCESS &&
         mts_block_gradients_list(got, &b_list, &b_count) == MTS_SUCCESS &&
         same_string_set(a_list, a_count, b_list, b_count);
    check_record_(ok, file, line, "same gradients list (in any order)");
    for (uintptr_t i = 0; ok && i < a_count; i++) {
        mts_block_t *a = NULL, *b = NULL;
        mts_block_gradient(expected, a_list[i], &a);
        mts_block_gradient(got, a_list[i], &b);
        check_same_block_(a, b, file, line);
    }
}
#define CHECK_SAME_BLOCK(expected, got) check_same_block_((expected), (got), __FILE__, __LINE__)

/* the info of `got` is the info of `expected` (keys in any order): 1 check */
static void check_same_info_(const mts_tensormap_t *expected, const mts_tensormap_t *got,
                             const char *file, int line) {
    const char *const *a_keys = NULL, *const *b_keys = NULL;
    uintptr_t a_count = 0, b_count = 0;
    int ok = mts_tensormap_info_keys(expected, &a_keys, &a_count) == MTS_SUCCESS &&
             mts_tensormap_info_keys(got, &b_keys, &b_count) == MTS_SUCCESS &&
             same_string_set(a_keys, a_count, b_keys, b_count);
    for (uintptr_t i = 0; ok && i < a_count; i++) {
        const char *a = NULL, *b = NULL;
        ok = mts_tensormap_get_info(expected, a_keys[i], &a) == MTS_SUCCESS &&
             mts_tensormap_get_info(got, a_keys[i], &b) == MTS_SUCCESS && a != NULL &&
             b != NULL && strcmp(a, b) == 0;
        if (!ok) {
            fprintf(stderr, "%s:%d: info '%s': '%s' != '%s'\n", file, line, a_keys[i],
                    a != NULL ? a : "<NULL>", b != NULL ? b : "<NULL>");
        }
    }
    check_record_(ok, file, line, "same info");
}

/* keys, every block and the info: 2 checks, plus those of the blocks */
static void check_same_tensor_(mts_tensormap_t *expected, mts_tensormap_t *got, const char *file,
                               int line) {
    const mts_labels_t *a = mts_tensormap_keys(expected);
    const mts_labels_t *b = got != NULL ? mts_tensormap_keys(got) : NULL;
    check_record_(labels_equal(a, b), file, line, "same keys");
    uintptr_t count = labels_count(a);
    mts_labels_free(a);
    mts_labels_free(b);
    if (got == NULL) {
        return;
    }
    for (uintptr_t i = 0; i < count; i++) {
        check_same_block_(block_at(expected, i), block_at(got, i), file, line);
    }
    check_same_info_(expected, got, file, line);
}
#define CHECK_SAME_TENSOR(expected, got) check_same_tensor_((expected), (got), __FILE__, __LINE__)

static void check_same_as_(enum kind kind, const void *expected, void *got, const char *file,
                           int line) {
    switch (kind) {
    case KIND_LABELS:
        check_record_(labels_equal(expected, got), file, line, "same labels");
        break;
    case KIND_BLOCK:
        check_same_block_((mts_block_t *)expected, got, file, line);
        break;
    case KIND_TENSOR:
        check_same_tensor_((mts_tensormap_t *)expected, got, file, line);
        break;
    }
}

/* `tensor` saved to a new buffer (`*bytes`, `*count`) and loaded back with
 * create_array, after created_reset: 2 checks */
static mts_tensormap_t *reload_tensor_(mts_tensormap_t *tensor, uint8_t **bytes, uintptr_t *count,
                                       int line) {
    check_int_eq_(save_to_new_buffer(KIND_TENSOR, tensor, bytes, count), MTS_SUCCESS,
                  "save_to_new_buffer", "MTS_SUCCESS", "CHECK_STATUS", __FILE__, line);
    created_reset();
    mts_tensormap_t *loaded = mts_tensormap_load_buffer(*bytes, *count, create_array);
    check_record_(loaded != NULL, __FILE__, line, "loaded != NULL");
    return loaded;
}
#define RELOAD_TENSOR(tensor, bytes, count) reload_tensor_((tensor), (bytes), (count), __LINE__)

/* the gradient `i` of `block` in the order of its list, NULL past the end */
static mts_block_t *nth_gradient(mts_block_t *block, uintptr_t i) {
    const char *const *list = NULL;
    uintptr_t count = 0;
    mts_block_t *gradient = NULL;
    if (mts_block_gradients_list(block, &list, &count) == MTS_SUCCESS && i < count) {
        mts_block_gradient(block, list[i], &gradient);
    }
    return gradient;
}

/* the number of arrays (values and gradients, recursively) of a block, and
 * how many of them have no element */
static void count_arrays(mts_block_t *block, int *arrays, int *empty) {
    struct test_array *values = block_array(block);
    (*arrays)++;
    if (values != NULL && ta_count(values) == 0) {
        (*empty)++;
    }
    mts_block_t *gradient = NULL;
    for (uintptr_t i = 0; (gradient = nth_gradient(block, i)) != NULL; i++) {
        count_arrays(gradient, arrays, empty);
    }
}

static void count_arrays_as(enum kind kind, const void *object, int *arrays, int *empty) {
    *arrays = 0;
    *empty = 0;
    if (kind == KIND_BLOCK) {
        count_arrays((mts_block_t *)object, arrays, empty);
    } else if (kind == KIND_TENSOR) {
        mts_tensormap_t *tensor = (mts_tensormap_t *)object;
        const mts_labels_t *keys = mts_tensormap_keys(tensor);
        uintptr_t count = labels_count(keys);
        mts_labels_free(keys);
        for (uintptr_t i = 0; i < count; i++) {
            count_arrays(block_at(tensor, i), arrays, empty);
        }
    }
}

/* The creation indexes of the arrays of `block` and its gradients,
 * recursively: the values first, then each gradient's arrays, all in one
 * run. Sets *ok to 0 otherwise; gives the run. */
static void creation_run(mts_block_t *block, int *first, int *last, int *count, int *ok) {
    int index = creation_index(block_array(block));
    if (index < 0) {
        *ok = 0;
    }
    int lo = index, hi = index, n = 1;
    mts_block_t *gradient = NULL;
    for (uintptr_t i = 0; (gradient = nth_gradient(block, i)) != NULL; i++) {
        int g_first = 0, g_last = 0, g_count = 0;
        creation_run(gradient, &g_first, &g_last, &g_count, ok);
        if (g_first <= index) {
            *ok = 0; /* a gradient's array made before the values */
        }
        lo = g_first < lo ? g_first : lo;
        hi = g_last > hi ? g_last : hi;
        n += g_count;
    }
    if (hi - lo + 1 != n) {
        *ok = 0;
    }
    *first = lo;
    *last = hi;
    *count = n;
}

/* The create_array calls of the load that made `object` (a block or a
 * tensor map): one call per array, none failed or refused, out-arrays
 * zero-filled, and in order: block after block, in each the values first,
 * then the gradients (recursively). Each array made got `dlpack_calls`
 * calls of as_dlpack (0 for an array without elements), asking for the CPU,
 * and every tensor exported was deleted. 4 checks. */
static void check_created_(enum kind kind, void *object, const char *file, int line) {
    int arrays = 0, empty = 0;
    count_arrays_as(kind, object, &arrays, &empty);
    check_int_eq_(created.calls, arrays, "created.calls", "arrays", "CHECK_INT_EQ", file, line);
    check_record_(created.not_zeroed == 0 && created.refused == 0, file, line,
                  "create_array got zero-filled out-arrays and supported requests");

    int ok = 1, next = 0;
    if (kind == KIND_BLOCK) {
        int first = 0, last = 0, count = 0;
        creation_run(object, &first, &last, &count, &ok);
        ok = ok && first == 0 && count == arrays;
    } else if (kind == KIND_TENSOR) {
        mts_tensormap_t *tensor = object;
        const mts_labels_t *keys = mts_tensormap_keys(tensor);
        uintptr_t blocks = labels_count(keys);
        mts_labels_free(keys);
        for (uintptr_t i = 0; i < blocks; i++) {
            int first = 0, last = 0, count = 0;
            creation_run(block_at(tensor, i), &first, &last, &count, &ok);
            ok = ok && first == next;
            next = last + 1;
        }
        ok = ok && next == arrays;
    }
    check_record_(ok, file, line, "create_array calls in order: per block, values first");

    ok = 1;
    for (int i = 0; i < created.calls && i < MAX_CREATED; i++) {
        struct test_array *array = created.arrays[i];
        if (array == NULL) {
            ok = 0;
            continue;
        }
        int expected = ta_count(array) == 0 ? 0 : 1;
        int calls = ta_calls(array, TA_AS_DLPACK);
        if (calls != expected || atomic_load(&array->dlpack_live) != 0 ||
            (calls != 0 && !device_eq(array->last_dlpack_device, TA_CPU))) {
            fprintf(stderr, "%s:%d: created array %d (%zu elements): %d as_dlpack calls, "
                            "%d tensors not deleted\n", file, line, i, ta_count(array), calls,
                    atomic_load(&array->dlpack_live));
            ok = 0;
        }
    }
    check_record_(ok, file, line, "one CPU as_dlpack per created array with elements, deleted");
}
#define CHECK_CREATED(kind, object) check_created_((kind), (object), __FILE__, __LINE__)

/* ------------------------------------------------------------------------ */
/* round trips                                                              */

/* FNV-1a, 64 bits */
static uint64_t fnv1a(const uint8_t *bytes, uintptr_t count) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (uintptr_t i = 0; i < count; i++) {
        hash ^= bytes[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

/* `object` saves to `size` bytes with the FNV-1a hash `hash`: the values the
 * reference's writer gives (docs/reference-behaviour.md), so our bytes are
 * its bytes. 2 checks. */
static void check_reference_bytes_(enum kind kind, const void *object, uintptr_t size,
                                   uint64_t hash, const char *file, int line) {
    uint8_t *bytes = NULL;
    uintptr_t count = 0;
    mts_status_t status = save_to_new_buffer(kind, object, &bytes, &count);
    check_int_eq_(status, MTS_SUCCESS, "save_buffer", "MTS_SUCCESS", "CHECK_STATUS", file, line);
    uint64_t got = bytes != NULL ? fnv1a(bytes, count) : 0;
    if (count != size || got != hash) {
        fprintf(stderr, "%s:%d: saved %zu bytes with hash 0x%016llx, the reference saves %zu "
                        "bytes with hash 0x%016llx\n", file, line, (size_t)count,
                (unsigned long long)got, (size_t)size, (unsigned long long)hash);
    }
    check_record_(count == size && got == hash, file, line, "the reference's bytes");
    free(bytes);
}
#define CHECK_REFERENCE_BYTES(kind, object, size, hash) \
    check_reference_bytes_((kind), (object), (size), (hash), __FILE__, __LINE__)


/* `got` holds the bytes of `expected` when `deterministic`, else as many:
 * 1 check, reported as `same` or `as_many` */
static void check_bytes_like_(int deterministic, const uint8_t *expected,
                              uintptr_t expected_count, const uint8_t *got, uintptr_t got_count,
                              const char *same, const char *as_many, const char *file,
                              int line) {
    if (deterministic) {
        check_record_(same_bytes(expected, expected_count, got, got_count), file, line, same);
    } else {
        check_record_(got_count == expected_count, file, line, as_many);
    }
}

/* Save `object` to a buffer and to a file, load both back, compare, and
 * save the copies again. When `deterministic`, the second saves give the
 * same bytes as the first (buffer and file). The DLPack exports asked from
 * the object's arrays by one save are counted: one per array, also for the
 * arrays without elements. */
static void roundtrip_(enum kind kind, const void *object, const char *name, int deterministic,
                       const char *file, int line) {
    long live = ta_live();
    int arrays = 0, empty = 0;
    count_arrays_as(kind, object, &arrays, &empty);

    /* to a buffer */
    long dlpack_before = ta_total_calls(TA_AS_DLPACK);
    long exported_before = atomic_load(&ta_stats.dlpack_exported);
    long pending = dlpack_pending();
    struct growth g = growth_from(NULL);
    uint8_t *bytes = NULL;
    uintptr_t count = 0;
    set_stale_error();
    mts_status_t status = save_buffer_as(kind, &bytes, &count, &g, growth_realloc, object);
    check_int_eq_(status, MTS_SUCCESS, "save_buffer", "MTS_SUCCESS", "CHECK_STATUS", file, line);
    check_record_(bytes != NULL && bytes == g.current && count > 0, file, line,
                  "*buffer is the latest realloc result");
    check_growth_(&g, 0, count, file, line);
    check_int_eq_(ta_total_calls(TA_AS_DLPACK) - dlpack_before, arrays,
                  "as_dlpack calls on save", "arrays", "CHECK_INT_EQ", file, line);
    check_int_eq_(atomic_load(&ta_stats.dlpack_exported) - exported_before, arrays,
                  "tensors exported on save", "arrays", "CHECK_INT_EQ", file, line);
    check_record_(dlpack_pending() == pending, file, line,
                  "every tensor exported on save was deleted");

    /* loaded back */
    created_reset();
    void *loaded = load_buffer_as(kind, bytes, count);
    check_record_(loaded != NULL, file, line, "load_buffer");
    if (loaded != NULL) {
        check_same_as_(kind, object, loaded, file, line);
        if (kind != KIND_LABELS) {
            check_created_(kind, loaded, file, line);
        }
        uint8_t *again = NULL;
        uintptr_t again_count = 0;
        status = save_to_new_buffer(kind, loaded, &again, &again_count);
        check_int_eq_(status, MTS_SUCCESS, "save_buffer again", "MTS_SUCCESS", "CHECK_STATUS",
                      file, line);
        check_bytes_like_(deterministic, bytes, count, again, again_count,
                          "save, load, save gives the same bytes (buffer)",
                          "save, load, save gives as many bytes (buffer)", file, line);
        free(again);
        free_as(kind, loaded);
    }

    /* to a file: the same bytes as the buffer */
    char file_name[128], again_name[128];
    snprintf(file_name, sizeof(file_name), "%s.mts", name);
    snprintf(again_name, sizeof(again_name), "%s-again.mts", name);
    const char *path = temp_path(file_name);
    status = save_path_as(kind, path, object);
    check_int_eq_(status, MTS_SUCCESS, "save", "MTS_SUCCESS", "CHECK_STATUS", file, line);
    uintptr_t file_count = 0;
    uint8_t *file_bytes = read_whole_file(path, &file_count);
    check_bytes_like_(deterministic, bytes, count, file_bytes, file_count,
                      "the file holds the bytes of save_buffer",
                      "the file holds as many bytes", file, line);
    created_reset();
    loaded = load_path_as(kind, path);
    check_record_(loaded != NULL, file, line, "load from a file");
    if (loaded != NULL) {
        check_same_as_(kind, object, loaded, file, line);
        if (kind != KIND_LABELS) {
            check_created_(kind, loaded, file, line);
        }
        const char *again_path = temp_path(again_name);
        status = save_path_as(kind, again_path, loaded);
        check_int_eq_(status, MTS_SUCCESS, "save again", "MTS_SUCCESS", "CHECK_STATUS", file,
                      line);
        uintptr_t again_count = 0;
        uint8_t *again = read_whole_file(again_path, &again_count);
        check_bytes_like_(deterministic, file_bytes, file_count, again, again_count,
                          "save, load, save gives the same bytes (file)",
                          "save, load, save gives as many bytes (file)", file, line);
        free(again);
        free_as(kind, loaded);
    }
    free(file_bytes);
    free(bytes);
    check_int_eq_(ta_live(), live, "ta_live()", "live", "CHECK_INT_EQ", file, line);
}
#define ROUNDTRIP(kind, object, name, deterministic) \
    roundtrip_((kind), (object), (name), (deterministic), __FILE__, __LINE__)

static void test_roundtrip_labels(void) {
    long live = ta_live();
    const mts_labels_t *three = rows_labels(NAMES_ABC, 3, 5, -2);
    const mts_labels_t *none = rows_labels(NAMES_XY, 2, 0, 0);
    static const int32_t extreme[] = {INT32_MIN, INT32_MAX, 0};
    const mts_labels_t *one = ta_labels(NAMES_ONLY, 1, extreme, 3);
    const mts_labels_t *big = rows_labels(NAMES_ABC, 3, 300, 0);
    ROUNDTRIP(KIND_LABELS, three, "labels-three", 1);
    CHECK_REFERENCE_BYTES(KIND_LABELS, three, 188, 0xc96dacbb28083abeULL);
    ROUNDTRIP(KIND_LABELS, none, "labels-none", 1);
    CHECK_REFERENCE_BYTES(KIND_LABELS, none, 128, 0x6bb6d0fb0f6ad2f0ULL);
    ROUNDTRIP(KIND_LABELS, one, "labels-one", 1);
    CHECK_REFERENCE_BYTES(KIND_LABELS, one, 140, 0x6aa171bc25174b04ULL);
    ROUNDTRIP(KIND_LABELS, big, "labels-big", 1);
    CHECK_REFERENCE_BYTES(KIND_LABELS, big, 3728, 0xedc04a26e74da8a8ULL);

    /* a bare NPY file: what the header says */
    uint8_t *bytes = NULL;
    uintptr_t count = 0;
    CHECK_STATUS(save_to_new_buffer(KIND_LABELS, three, &bytes, &count), MTS_SUCCESS);
    static const char header[] = "\x93NUMPY\x01\x00";
    CHECK(count > 64 && memcmp(bytes, header, 8) == 0);
    CHECK(count % 64 == 5 * 3 * 4 % 64);
    CHECK(count > 10 && find_bytes(bytes, count, "'descr': [('a', '<i4'), ('b', '<i4'), "
                                             "('c', '<i4'), ]") != NULL);
    free(bytes);

    /* zero dimensions are written as `[]` and can not be read back */
    const mts_labels_t *nothing = mts_labels(NULL, 0, ta_mts(ta_new_i32(NULL, 0, 0)));
    CHECK(nothing != NULL);
    CHECK_STATUS(save_to_new_buffer(KIND_LABELS, nothing, &bytes, &count), MTS_SUCCESS);
    CHECK_NULL_ERROR(mts_labels_load_buffer(bytes, count),
                     SERIALIZATION "unable to load Labels from buffer: invalid header in file: "
                                   "expected '(', got ']'");
    free(bytes);

    FREE_LABELS(three, none, one, big, nothing);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_roundtrip_blocks(void) {
    long live = ta_live();
    /* float32 with two components, a gradient and a nested gradient */
    mts_block_t *f32 = rich_block(TA_FLOAT32, 3, 2, 2, 5, 1, 0, 7);
    ROUNDTRIP(KIND_BLOCK, f32, "block-f32", 1);
    CHECK_REFERENCE_BYTES(KIND_BLOCK, f32, 5492, 0x0d3d4cb9748af9daULL);

    /* int32 without components, two-dimension properties, one gradient */
    const mts_labels_t *samples = rows_labels(NAMES_AB, 2, 5, 0);
    const mts_labels_t *properties = rows_labels(NAMES_PQ, 2, 3, 0);
    mts_block_t *i32 = new_block(TA_INT32, samples, NULL, 0, properties, -3);
    add_gradient(i32, "g", 2, NULL, 0, 11);
    ROUNDTRIP(KIND_BLOCK, i32, "block-i32", 1);
    CHECK_REFERENCE_BYTES(KIND_BLOCK, i32, 1466, 0x6215e51b17f14a09ULL);
    mts_labels_free(samples);
    mts_labels_free(properties);

    /* int64 with zero properties and a gradient */
    samples = rows_labels(NAMES_S, 1, 3, 0);
    properties = rows_labels(NAMES_P, 1, 0, 0);
    mts_block_t *i64 = new_block(TA_INT64, samples, NULL, 0, properties, 1);
    add_gradient(i64, "g", 2, NAMES_XYZ, 3, 0);
    ROUNDTRIP(KIND_BLOCK, i64, "block-i64", 1);
    CHECK_REFERENCE_BYTES(KIND_BLOCK, i64, 1622, 0xa817c6790921f733ULL);
    mts_labels_free(samples);
    mts_labels_free(properties);

    /* float64, zero samples, a gradient and a nested gradient */
    mts_block_t *f64 = rich_block(TA_FLOAT64, 0, 2, 2, 0, 1, 0, 0);
    ROUNDTRIP(KIND_BLOCK, f64, "block-f64-empty", 1);
    CHECK_REFERENCE_BYTES(KIND_BLOCK, f64, 4756, 0x3ac625b310d90190ULL);

    /* two gradients: the reference writes them in hash-map order */
    mts_block_t *two = rich_block(TA_FLOAT64, 4, 1, 2, 0, 1, 1, 3);
    ROUNDTRIP(KIND_BLOCK, two, "block-two-gradients", 0);

    /* one block of a tensor map, and what the loaded one says */
    mts_tensormap_t *tensor = simple_tensor();
    mts_block_t *inside = block_at(tensor, 1);
    ROUNDTRIP(KIND_BLOCK, inside, "block-inside", 1);
    CHECK_REFERENCE_BYTES(KIND_BLOCK, inside, 2500, 0xed8bd36987bf1b71ULL);

    FREE_BLOCKS(f32, i32, i64, f64, two);
    mts_tensormap_free(tensor);
    CHECK_INT_EQ(ta_live(), live);
}

static void test_roundtrip_tensors(void) {
    long live = ta_live();
    mts_tensormap_t *simple = simple_tensor();
    ROUNDTRIP(KIND_TENSOR, simple, "tensor-simple", 1);
    CHECK_REFERENCE_BYTES(KIND_TENSOR, simple, 5627, 0xdb196fb0ef44f469ULL);
    mts_tensormap_t *empty = empty_tensor();
    ROUNDTRIP(KIND_TENSOR, empty, "tensor-empty", 1);
    CHECK_REFERENCE_BYTES(KIND_TENSOR, empty, 262, 0x676af6b166c5d121ULL);
    mts_tensormap_t *rich = rich_tensor(1);
    ROUNDTRIP(KIND_TENSOR, rich, "tensor-rich", 0);
    mts_tensormap_t *rich_one = rich_tensor(0);
    ROUNDTRIP(KIND_TENSOR, rich_one, "tensor-rich-one-gradient", 1);
    CHECK_REFERENCE_BYTES(KIND_TENSOR, rich_one, 21464, 0x8b4a3f1da474e13fULL);
    mts_tensormap_free(rich_one);

    /* the loaded info lists its keys in the file's order: sorted */
    uint8_t *bytes = NULL;
    uintptr_t count = 0;
    mts_tensormap_t *loaded = RELOAD_TENSOR(rich, &bytes, &count);
    const char *const *keys = NULL;
    uintptr_t keys_count = 0;
    static const char *const sorted[] = {"a_quote", "empty", "name", "unicode", "units"};
    mts_status_t status = mts_tensormap_info_keys(loaded, &keys, &keys_count);
    check_string_list_(status, keys, keys_count,
                       sorted, ARRAY_SIZE(sorted), "loaded info keys (sorted)", __FILE__,
                       __LINE__);
    /* the info is pretty-printed JSON with sorted keys */
    CHECK(find_bytes(bytes, count, "{\n  \"a_quote\": \"say \\\"hi\\\"\\n\\tback\\\\slash\",\n  "
                               "\"empty\": \"\",\n  \"name\": \"rich tensor\",\n") != NULL);
    /* block by block: the loaded gradients of the zero-sample block */
    mts_block_t *block = block_at(loaded, 2);
    mts_block_t *gradient = NULL;
    CHECK_STATUS(mts_block_gradient(block, "positions", &gradient), MTS_SUCCESS);
    struct test_array *values = gradient != NULL ? block_array(gradient) : NULL;
    static const uintptr_t shape[] = {0, 3, 2, 2, 3};
    CHECK(values != NULL && values->ndim == 5 && memcmp(values->shape, shape, sizeof(shape)) == 0);
    mts_tensormap_free(loaded);

    /* a map of float32 blocks */
    const mts_labels_t *keys_f32 = rows_labels(NAMES_K, 1, 2, 0);
    mts_block_t *blocks[2] = {rich_block(TA_FLOAT32, 2, 1, 1, 0, 1, 0, 0),
                              rich_block(TA_FLOAT32, 1, 2, 1, 0, 1, 0, 5)};
    mts_tensormap_t *f32 = mts_tensormap(keys_f32, blocks, 2);
    CHECK(f32 != NULL);
    mts_labels_free(keys_f32);
    ROUNDTRIP(KIND_TENSOR, f32, "tensor-f32", 1);
    CHECK_REFERENCE_BYTES(KIND_TENSOR, f32, 10558, 0xbd66916320525fa0ULL);
    /* the info set on an empty map is saved too */
    CHECK_STATUS(mts_tensormap_set_info(empty, "comment", "nothing here"), MTS_SUCCESS);
    ROUNDTRIP(KIND_TENSOR, empty, "tensor-empty-info", 1);
    CHECK_REFERENCE_BYTES(KIND_TENSOR, empty, 407, 0x678b61842be62966ULL);

    free(bytes);
    FREE_TENSORS(simple, empty, rich, f32);
    CHECK_INT_EQ(ta_live(), live);
}

/* the calls of create_array for one tensor map, checked one by one */
static void test_create_array_calls(void) {
    long live = ta_live();
    mts_tensormap_t *tensor = simple_tensor();
    uint8_t *bytes = NULL;
    uintptr_t count = 0;
    mts_tensormap_t *loaded = RELOAD_TENSOR(tensor, &bytes, &count);
    /* block 0: values (3, 2), g (4, 2), h (2, 3, 2); then block 1 */
    static const uintptr_t shapes[6][3] = {{3, 2, 0}, {4, 2, 0}, {2, 3, 2},
                                           {4, 2, 0}, {4, 2, 0}, {2, 3, 2}};
    static const uintptr_t ndims[6] = {2, 2, 3, 2, 2, 3};
    CHECK_INT_EQ(created.calls, 6);
    for (int i = 0; i < 6 && i < created.calls; i++) {
        struct test_array *array = created.arrays[i];
        CHECK(array != NULL && array->ndim == ndims[i] &&
              memcmp(array->shape, shapes[i], ndims[i] * sizeof(uintptr_t)) == 0 &&
              ta_dtype_eq(array->dtype, TA_FLOAT64));
        CHECK(array != NULL && ta_calls(array, TA_AS_DLPACK) == 1 &&
              array->last_dlpack_stream_null && array->last_dlpack_version.major == 1 &&
              device_eq(array->last_dlpack_device, TA_CPU));
        /* only as_dlpack (and nothing after the load but what mts_tensormap asks) */
        CHECK(array != NULL && ta_calls(array, TA_COPY) == 0 && ta_calls(array, TA_CREATE) == 0 &&
              ta_calls(array, TA_DESTROY) == 0);
    }
    CHECK(created.arrays[0] == block_array(block_at(loaded, 0)));
    CHECK(created.arrays[3] == block_array(block_at(loaded, 1)));
    mts_block_t *g = NULL, *h = NULL;
    CHECK_STATUS(mts_block_gradient(block_at(loaded, 1), "g", &g), MTS_SUCCESS);
    CHECK(g != NULL && created.arrays[4] == block_array(g));
    CHECK_STATUS(mts_block_gradient(g, "h", &h), MTS_SUCCESS);
    CHECK(h != NULL && created.arrays[5] == block_array(h));
    CHECK_SAME_TENSOR(tensor, loaded);

    /* freeing the map destroys each created array once */
    mts_tensormap_free(loaded);
    for (int i = 0; i < 6; i++) {
        CHECK(created.arrays[i] != NULL && ta_calls(created.arrays[i], TA_DESTROY) == 1);
    }

    /* the same for a block, all four dtypes */
    const DLDataType dtypes[] = {TA_FLOAT64, TA_FLOAT32, TA_INT32, TA_INT64};
    for (size_t d = 0; d < ARRAY_SIZE(dtypes); d++) {
        mts_block_t *block = rich_block(dtypes[d], 2, 1, 2, 0, 1, 0, 1);
        uint8_t *block_bytes = NULL;
        uintptr_t block_count = 0;
        CHECK_STATUS(save_to_new_buffer(KIND_BLOCK, block, &block_bytes, &block_count),
                     MTS_SUCCESS);
        created_reset();
        mts_block_t *copy = mts_block_load_buffer(block_bytes, block_count, create_array);
        CHECK(copy != NULL);
        CHECK_INT_EQ(created.calls, 3);
        for (int i = 0; i < created.calls && i < 3; i++) {
            CHECK(created.arrays[i] != NULL && ta_dtype_eq(created.arrays[i]->dtype, dtypes[d]));
        }
        CHECK_SAME_BLOCK(block, copy);
        CHECK_CREATED(KIND_BLOCK, copy);
        mts_block_free(copy);
        mts_block_free(block);
        free(block_bytes);
    }

    mts_tensormap_free(tensor);
    free(bytes);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* the realloc contract                                                     */

static void check_realloc_contract(enum kind kind, const void *object) {
    uint8_t *reference = NULL;
    uintptr_t n = 0;
    CHECK_STATUS(save_to_new_buffer(kind, object, &reference, &n), MTS_SUCCESS);
    CHECK(n > 1024); /* needs more than the first allocation */

    /* from NULL/0 */
    struct growth g = growth_from(NULL);
    uint8_t *buffer = NULL;
    uintptr_t count = 0;
    CHECK_STATUS(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, object), MTS_SUCCESS);
    CHECK(buffer == g.current);
    CHECK(same_bytes(buffer, count, reference, n));
    CHECK_GROWTH(&g, 0, count);
    int calls_from_zero = g.calls;
    free(buffer);

    /* a caller's buffer of exactly the right size, or bigger: no realloc */
    uintptr_t sizes[] = {n, n + 100, 4 * n};
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        buffer = malloc(sizes[i]);
        uint8_t *initial = buffer;
        g = growth_from(buffer);
        count = sizes[i];
        CHECK_STATUS(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, object),
                     MTS_SUCCESS);
        CHECK_INT_EQ(g.calls, 0);
        CHECK(buffer == initial);
        CHECK_INT_EQ(count, n);
        CHECK(same_bytes(buffer, count, reference, n));
        free(buffer);
    }

    /* a caller's buffer too small by one byte, or small: grown from its size */
    uintptr_t small[] = {n - 1, 100, 1};
    for (size_t i = 0; i < ARRAY_SIZE(small); i++) {
        buffer = malloc(small[i]);
        g = growth_from(buffer);
        count = small[i];
        CHECK_STATUS(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, object),
                     MTS_SUCCESS);
        CHECK(buffer == g.current);
        CHECK_GROWTH(&g, small[i], count);
        CHECK(same_bytes(buffer, count, reference, n));
        free(buffer);
    }

    /* realloc returning NULL the first time: status 2, nothing allocated */
    char message[256];
    snprintf(message, sizeof(message),
             IO_PREFIX "failed to allocate memory with the realloc callback");
    g = growth_from(NULL);
    g.fail_from = 0;
    buffer = NULL;
    count = 0;
    CHECK_ERROR(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, object), MTS_IO_ERROR,
                message);
    CHECK(g.calls >= 1 && g.sizes[0] == 1024);
    CHECK(buffer == NULL);
    CHECK_INT_EQ(count, 0);

    /* ... or the second time: *buffer is the first allocation, the caller frees it */
    CHECK(calls_from_zero >= 2);
    if (calls_from_zero >= 2) {
        g = growth_from(NULL);
        g.fail_from = 1;
        buffer = NULL;
        count = 0;
        CHECK_ERROR(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, object),
                    MTS_IO_ERROR, message);
        CHECK(g.calls >= 2);
        CHECK(buffer != NULL && buffer == g.current);
        CHECK_INT_EQ(count, 0);
        free(buffer);
    }

    /* a caller's buffer and a failing realloc: the caller's buffer stays */
    buffer = malloc(64);
    uint8_t *initial = buffer;
    g = growth_from(buffer);
    g.fail_from = 0;
    count = 64;
    CHECK_ERROR(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, object), MTS_IO_ERROR,
                message);
    CHECK(buffer == initial);
    CHECK_INT_EQ(count, 64);
    free(buffer);

    /* NULL realloc */
    snprintf(message, sizeof(message),
             INVALID "realloc callback can not be NULL in mts_%s_save_buffer", KIND_FN[kind]);
    buffer = NULL;
    count = 0;
    CHECK_ERROR(save_buffer_as(kind, &buffer, &count, NULL, NULL, object),
                MTS_INVALID_PARAMETER_ERROR, message);
    CHECK(buffer == NULL);

    /* *buffer NULL with a non-zero count */
    snprintf(message, sizeof(message),
             INVALID "`buffer` is NULL but `buffer_count` is not 0 in mts_%s_save_buffer",
             KIND_FN[kind]);
    g = growth_from(NULL);
    buffer = NULL;
    count = 10;
    CHECK_ERROR(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, object),
                MTS_INVALID_PARAMETER_ERROR, message);
    CHECK_INT_EQ(g.calls, 0);
    CHECK(buffer == NULL);
    CHECK_INT_EQ(count, 10);

    /* NULL arguments */
    buffer = NULL;
    count = 0;
    g = growth_from(NULL);
    if (kind != KIND_LABELS) {
        CHECK_NULL_ARG(save_buffer_as(kind, NULL, &count, &g, growth_realloc, object), "buffer");
        CHECK_NULL_ARG(save_buffer_as(kind, &buffer, NULL, &g, growth_realloc, object),
                       "buffer_count");
    } else {
#ifndef MTS_TEST_REFERENCE
        /* the reference does not check these (it crashes) */
        CHECK_NULL_ARG(save_buffer_as(kind, NULL, &count, &g, growth_realloc, object), "buffer");
        CHECK_NULL_ARG(save_buffer_as(kind, &buffer, NULL, &g, growth_realloc, object),
                       "buffer_count");
#endif
    }
    CHECK_NULL_ARG(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, NULL),
                   KIND_FN[kind][0] == 't' ? "tensor" : KIND_FN[kind]);
    /* the object is checked first, then (not for labels) buffer_count and
     * buffer (in that order), then realloc */
    if (kind != KIND_LABELS) {
        CHECK_NULL_ARG(save_buffer_as(kind, NULL, NULL, NULL, NULL, NULL),
                       kind == KIND_TENSOR ? "tensor" : "block");
        /* buffer_count before buffer */
        CHECK_NULL_ARG(save_buffer_as(kind, NULL, NULL, NULL, NULL, object), "buffer_count");
    } else {
        CHECK_NULL_ARG(save_buffer_as(kind, &buffer, &count, NULL, NULL, NULL), "labels");
    }
    CHECK_INT_EQ(g.calls, 0);
    CHECK(buffer == NULL);
    CHECK_INT_EQ(bad_user_data, 0);
    free(reference);
}

static void test_realloc(void) {
    long live = ta_live();
    const mts_labels_t *labels = rows_labels(NAMES_ABC, 3, 300, 0);
    mts_block_t *block = rich_block(TA_FLOAT64, 5, 2, 3, 0, 1, 0, 0);
    mts_tensormap_t *tensor = rich_tensor(1);
    check_realloc_contract(KIND_LABELS, labels);
    check_realloc_contract(KIND_BLOCK, block);
    check_realloc_contract(KIND_TENSOR, tensor);

    /* labels smaller than 1024 bytes: one call, for 1024 */
    const mts_labels_t *small = rows_labels(NAMES_AB, 2, 3, 0);
    struct growth g = growth_from(NULL);
    uint8_t *buffer = NULL;
    uintptr_t count = 0;
    CHECK_STATUS(mts_labels_save_buffer(&buffer, &count, &g, growth_realloc, small), MTS_SUCCESS);
    CHECK_INT_EQ(g.calls, 1);
    CHECK_INT_EQ(g.sizes[0], 1024);
    CHECK(count < 1024 && buffer == g.current);
    free(buffer);

    mts_labels_free(small);
    mts_labels_free(labels);
    mts_block_free(block);
    mts_tensormap_free(tensor);
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* load errors                                                              */

/* the kind prefix of a message, as a status: 1, 2, 3, 4, 255, 254 for an
 * error whose origin is not the library's (a callback's), -1 for no error
 * (an empty message, or the stale record still there), -2 for an unknown
 * prefix */
static int status_of_last_error(void) {
    struct record r = last_error();
    if (r.message == NULL || r.origin == NULL || r.message[0] == '\0' ||
        strcmp(r.origin, "stale origin") == 0) {
        return -1;
    }
    if (strcmp(r.origin, "metatensor-core") != 0) {
        return MTS_CALLBACK_ERROR;
    }
    static const struct {
        const char *prefix;
        int status;
    } kinds[] = {
        {INVALID, MTS_INVALID_PARAMETER_ERROR},  {IO_PREFIX, MTS_IO_ERROR},
        {SERIALIZATION, MTS_SERIALIZATION_ERROR}, {"buffer is not big enough: ", 4},
        {INTERNAL_PREFIX, MTS_INTERNAL_ERROR},
    };
    for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
        if (strncmp(r.message, kinds[i].prefix, strlen(kinds[i].prefix)) == 0) {
            return kinds[i].status;
        }
    }
    return -2;
}

/* a failed load: the message starts with `prefix` (the documented part) and
 * is `message`; the origin is the library's. 4 checks. */
static void check_load_error_(void *result, const char *prefix, const char *message,
                              const char *file, int line) {
    check_record_(result == NULL, file, line, "the load failed");
    check_str_prefix_(last_message(), prefix, "last_message()", "prefix", file, line);
    check_library_error_(message, file, line);
}
#define CHECK_LOAD_ERROR(call, prefix, message)                                       \
    do {                                                                              \
        set_stale_error();                                                            \
        void *result_ = (call);                                                       \
        check_load_error_(result_, (prefix), (message), __FILE__, __LINE__);          \
    } while (0)

/* what the wrong loader says about the content of another kind (inner
 * message), as the reference has it; `garbage` is 1 for bytes that are no
 * file of any kind, 2 for such bytes shorter than a zip's end record (22) */
static const char *inner_message(enum kind loader, enum kind content, int garbage) {
    if (loader == KIND_LABELS) {
        return "start does not match magic string";
    }
    if (garbage == 2) {
        return "invalid Zip archive: Invalid zip header: at '<root>'";
    }
    if (garbage || content == KIND_LABELS) {
        return "invalid Zip archive: Could not find central directory end: at '<root>'";
    }
    return loader == KIND_TENSOR ? "specified file not found in archive: at 'keys.npy'"
                                 : "specified file not found in archive: at 'values.npy'";
}

/* the hint the loader of `loader` gives for content of `content` */
static const char *hint(enum kind loader, enum kind content, int buffer) {
    static const char *const to_tensor[2][3] = {
        /* path: loader labels, block, tensor */
        {"use `load` to load TensorMap", "use `load` to load TensorMap", ""},
        {"use `load_buffer` to load TensorMap", "use `load` to load TensorMap", ""},
    };
    static const char *const to_block[2][3] = {
        {"use `load_block` to load TensorBlock", "", "use `load_block` to load TensorBlock"},
        {"use `load_block_buffer` to load TensorBlock", "",
         "use `load_block_buffer` to load TensorBlock"},
    };
    static const char *const to_labels[2][3] = {
        {"", "use `load_labels` to load Labels", "use `load_labels` to load Labels"},
        {"", "use `load_labels` to load Labels", "use `load_labels_buffer` to load Labels"},
    };
    switch (content) {
    case KIND_TENSOR: return to_tensor[buffer][loader];
    case KIND_BLOCK: return to_block[buffer][loader];
    case KIND_LABELS: return to_labels[buffer][loader];
    }
    return "";
}

static void test_load_errors(void) {
    long live = ta_live();
    mts_tensormap_t *tensor = simple_tensor();
    mts_block_t *block = block_at(tensor, 0);
    const mts_labels_t *labels = rows_labels(NAMES_ABC, 3, 4, 0);
    const void *objects[3] = {labels, block, tensor};
    uint8_t *bytes[3] = {NULL, NULL, NULL};
    uintptr_t counts[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        CHECK_STATUS(save_to_new_buffer((enum kind)k, objects[k], &bytes[k], &counts[k]),
                     MTS_SUCCESS);
    }
    created_reset();
    char prefix[512], message[1024];

    for (int k = 0; k < 3; k++) {
        enum kind kind = (enum kind)k;
        /* empty buffers, with or without a pointer; a NULL buffer */
        snprintf(message, sizeof(message), SERIALIZATION "unable to load %s from empty buffer",
                 KIND_NAME[kind]);
        CHECK_LOAD_ERROR(load_buffer_as(kind, bytes[k], 0), message, message);
        CHECK_LOAD_ERROR(load_buffer_as(kind, NULL, 0), message, message);
        CHECK_NULL_ARG_PTR(load_buffer_as(kind, NULL, 5), "buffer");

        /* garbage, long enough to hold a zip's end record or not */
        static const uint8_t garbage[] = "this is not a metatensor file";
        snprintf(prefix, sizeof(prefix), SERIALIZATION "unable to load %s from buffer: ",
                 KIND_LOAD[kind]);
        snprintf(message, sizeof(message), "%s%s", prefix, inner_message(kind, kind, 1));
        CHECK_LOAD_ERROR(load_buffer_as(kind, garbage, sizeof(garbage)), prefix, message);
        snprintf(message, sizeof(message), "%s%s", prefix, inner_message(kind, kind, 2));
        CHECK_LOAD_ERROR(load_buffer_as(kind, garbage, 21), prefix, message);
        if (kind == KIND_LABELS) {
            /* shorter than the NPY magic string: an I/O error, without the
             * "unable to load" prefix */
            for (uintptr_t length = 1; length < 6; length++) {
                CHECK_LOAD_ERROR(load_buffer_as(kind, garbage, length), IO_PREFIX,
                                 IO_PREFIX "failed to fill whole buffer");
            }
            CHECK_LOAD_ERROR(load_buffer_as(kind, garbage, 6), prefix, message);
        } else {
            CHECK_LOAD_ERROR(load_buffer_as(kind, garbage, 1), prefix, message);
        }

        /* the other kinds, with a hint */
        for (int c = 0; c < 3; c++) {
            if (c == k) {
                continue;
            }
            snprintf(prefix, sizeof(prefix), SERIALIZATION "unable to load %s from buffer, %s: ",
                     KIND_LOAD[kind], hint(kind, (enum kind)c, 1));
            snprintf(message, sizeof(message), "%s%s", prefix,
                     inner_message(kind, (enum kind)c, 0));
            CHECK_LOAD_ERROR(load_buffer_as(kind, bytes[c], counts[c]), prefix, message);
        }

        /* missing files, NULL paths */
        const char *missing = temp_path("missing.mts");
        CHECK_LOAD_ERROR(load_path_as(kind, missing), IO_PREFIX,
                         IO_PREFIX "No such file or directory (os error 2)");
        CHECK_NULL_ARG_PTR(load_path_as(kind, NULL), "path");
        /* saving into a missing directory, NULL arguments */
        CHECK_ERROR(save_path_as(kind, temp_path("missing/file.mts"), objects[k]), MTS_IO_ERROR,
                    IO_PREFIX "No such file or directory (os error 2)");
        CHECK_NULL_ARG(save_path_as(kind, NULL, objects[k]), "path");
        CHECK_NULL_ARG(save_path_as(kind, temp_path("null.mts"), NULL),
                       kind == KIND_TENSOR ? "tensor" : KIND_FN[kind]);
        /* a directory is not a file */
        set_stale_error();
        CHECK(load_path_as(kind, tmpdir) == NULL);
        CHECK_INT_EQ(status_of_last_error(), MTS_IO_ERROR);
    }
    CHECK_INT_EQ(created.calls, 0);

#ifndef MTS_TEST_REFERENCE
    /* the reference does not check create_array (it crashes when it calls it) */
    CHECK_NULL_ARG_PTR(mts_block_load_buffer(bytes[KIND_BLOCK], counts[KIND_BLOCK], NULL),
                       "create_array");
    CHECK_NULL_ARG_PTR(mts_tensormap_load_buffer(bytes[KIND_TENSOR], counts[KIND_TENSOR], NULL),
                       "create_array");
    CHECK_STATUS(mts_tensormap_save(temp_path("tensor.mts"), tensor), MTS_SUCCESS);
    CHECK_STATUS(mts_block_save(temp_path("block.mts"), block), MTS_SUCCESS);
    CHECK_NULL_ARG_PTR(mts_block_load(temp_path("block.mts"), NULL), "create_array");
    CHECK_NULL_ARG_PTR(mts_tensormap_load(temp_path("tensor.mts"), NULL), "create_array");
#endif

    /* files: each kind saved under a .mts name, labels and tensor map under a
     * .npy name too (the extension wins over the content), garbage */
    static const struct {
        const char *name;
        enum kind content;
        int garbage;
    } files[] = {
        {"tensor.mts", KIND_TENSOR, 0}, {"block.mts", KIND_BLOCK, 0},
        {"labels.mts", KIND_LABELS, 0}, {"labels.npy", KIND_LABELS, 0},
        {"tensor.npy", KIND_TENSOR, 0}, {"garbage.bin", KIND_TENSOR, 1},
        {"short.bin", KIND_TENSOR, 2},
    };
    for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
        const char *path = temp_path(files[f].name);
        if (files[f].garbage) {
            static const uint8_t garbage[] = "this is not a metatensor file";
            write_whole_file(path, garbage, files[f].garbage == 2 ? 21 : sizeof(garbage));
        } else {
            CHECK_STATUS(save_path_as(files[f].content, path, objects[files[f].content]),
                         MTS_SUCCESS);
        }
        int npy = strstr(files[f].name, ".npy") != NULL;
        for (int k = 0; k < 3; k++) {
            enum kind kind = (enum kind)k;
            if (kind == files[f].content && !files[f].garbage) {
                created_reset();
                void *loaded = load_path_as(kind, path);
                CHECK(loaded != NULL);
                free_as(kind, loaded);
                continue;
            }
            if (files[f].garbage) {
                snprintf(prefix, sizeof(prefix), SERIALIZATION "unable to load %s from '%s': ",
                         KIND_LOAD[kind], path);
            } else {
                /* a .npy name gives the labels hint, whatever the content */
                enum kind hinted = npy && kind != KIND_LABELS ? KIND_LABELS : files[f].content;
                snprintf(prefix, sizeof(prefix), SERIALIZATION "unable to load %s from '%s', %s: ",
                         KIND_LOAD[kind], path, hint(kind, hinted, 0));
            }
            snprintf(message, sizeof(message), "%s%s", prefix,
                     inner_message(kind, files[f].content, files[f].garbage));
            CHECK_LOAD_ERROR(load_path_as(kind, path), prefix, message);
        }
    }

    for (int k = 0; k < 3; k++) {
        free(bytes[k]);
    }
    mts_labels_free(labels);
    mts_tensormap_free(tensor);
    CHECK_INT_EQ(ta_live(), live);
}

/* a copy of `bytes` where the first `old` is replaced by `replacement` (as
 * long): 1 check (that `old` is there) */
static uint8_t *patched_(const uint8_t *bytes, uintptr_t count, const char *old,
                         const char *replacement, const char *file, int line) {
    uint8_t *copy = malloc(count);
    memcpy(copy, bytes, count);
    size_t length = strlen(old);
    uint8_t *at = (uint8_t *)find_bytes(copy, count, old);
    check_record_(at != NULL && strlen(replacement) == length, file, line, "the bytes to patch");
    if (at != NULL && strlen(replacement) == length) {
        memcpy(at, replacement, length);
    }
    return copy;
}
#define PATCHED(bytes, count, old, replacement) \
    patched_((bytes), (count), (old), (replacement), __FILE__, __LINE__)

/* saved bytes patched (PATCHED: `old` replaced by `replacement`) that a load
 * refuses with `message` */
struct bytes_edit {
    const char *old;
    const char *replacement;
    const char *message;
};

/* NPY content that is not what the writer makes
 * (docs/reference-behaviour.md#npy-writing) */
static void test_malformed_npy(void) {
    long live = ta_live();
    const mts_labels_t *labels = rows_labels(NAMES_ABC, 3, 4, 0);
    uint8_t *bytes = NULL;
    uintptr_t n = 0;
    CHECK_STATUS(save_to_new_buffer(KIND_LABELS, labels, &bytes, &n), MTS_SUCCESS);
#define LABELS_ERROR SERIALIZATION "unable to load Labels from buffer: "
    static const struct bytes_edit cases[] = {
        {"\x93NUMPY", "\x93NUMPZ", LABELS_ERROR "start does not match magic string"},
        {"NUMPY\x01", "NUMPY\x04", LABELS_ERROR "unknown version number: 4.0"},
        /* a 2.0 header has a 4-byte length: this one is far too long */
        {"NUMPY\x01", "NUMPY\x02", IO_PREFIX "failed to fill whole buffer"},
        {"('c', '<i4')", "('c', '<i8')", LABELS_ERROR "invalid dtype for labels"},
        {"('c', '<i4')", "('c', '>i4')", LABELS_ERROR "invalid dtype for labels"},
        {"False", "True ", LABELS_ERROR "Labels can not be loaded from fortran-order arrays"},
        {"(4, )", "(2,2)", LABELS_ERROR "Expected a 1-D array when loading Labels"},
        {"(4, )", "(3, )", LABELS_ERROR "found 12 extra bytes after the expected end of data"},
        {"(4, )", "(0, )", LABELS_ERROR "found 48 extra bytes after the expected end of data"},
        {"(4, )", "(5, )", IO_PREFIX "failed to fill whole buffer"},
        /* names and entries are checked as by mts_labels (status 1), but an
         * invalid name is a "dimension" here, not a "name" as in mts_labels */
        {"('b', '<i4')", "('a', '<i4')",
         INVALID "label dimensions must be unique, got 'a' multiple times"},
        {"('a', '<i4')", "('!', '<i4')", INVALID "'!' is not a valid label dimension"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        uint8_t *copy = PATCHED(bytes, n, cases[i].old, cases[i].replacement);
        const char *message = cases[i].message;
        CHECK_NULL_ERROR(mts_labels_load_buffer(copy, n), message);
        free(copy);
    }

    /* the same entry twice */
    uint8_t *copy = malloc(n);
    memcpy(copy, bytes, n);
    memcpy(copy + n - 3 * 12, copy + n - 4 * 12, 12);
    CHECK_NULL_ERROR(mts_labels_load_buffer(copy, n),
                     INVALID "can not have the same label entry multiple times: [0, -2, 1] is "
                             "already present");
    free(copy);

    /* big-endian fields are read with byte swapping */
    copy = PATCHED(bytes, n, "('a', '<i4'), ('b', '<i4'), ('c', '<i4')",
                   "('a', '>i4'), ('b', '>i4'), ('c', '>i4')");
    const mts_labels_t *swapped = mts_labels_load_buffer(copy, n);
    CHECK(swapped != NULL);
    const int32_t *values = NULL, *original = NULL;
    uintptr_t count = 0, size = 0;
    CHECK_STATUS(mts_labels_values_cpu(labels, &original, &count, &size), MTS_SUCCESS);
    int ok = swapped != NULL &&
             mts_labels_values_cpu(swapped, &values, &count, &size) == MTS_SUCCESS &&
             count == 4 && size == 3;
    for (uintptr_t i = 0; ok && i < count * size; i++) {
        uint32_t u = (uint32_t)original[i];
        uint32_t expected = (u >> 24) | ((u >> 8) & 0xff00u) | ((u << 8) & 0xff0000u) | (u << 24);
        ok = (uint32_t)values[i] == expected;
    }
    CHECK(ok);
    mts_labels_free(swapped);
    free(copy);
    free(bytes);
#undef LABELS_ERROR

    /* a block's values: the descr gives create_array its dtype */
    const mts_labels_t *samples = rows_labels(NAMES_S, 1, 2, 0);
    const mts_labels_t *properties = rows_labels(NAMES_P, 1, 3, 0);
    mts_block_t *block = new_block(TA_FLOAT64, samples, NULL, 0, properties, 0);
    CHECK_STATUS(save_to_new_buffer(KIND_BLOCK, block, &bytes, &n), MTS_SUCCESS);
#define BLOCK_ERROR SERIALIZATION "unable to load a TensorBlock from buffer: "
    static const struct {
        const char *descr;
        DLDataType dtype;
    } dtypes[] = {
        {"'<f2'", {kDLFloat, 16, 1}},  {"'<i1'", {kDLInt, 8, 1}},
        {"'<i2'", {kDLInt, 16, 1}},    {"'<u1'", {kDLUInt, 8, 1}},
        {"'<u2'", {kDLUInt, 16, 1}},   {"'<u4'", {kDLUInt, 32, 1}},
        {"'<u8'", {kDLUInt, 64, 1}},   {"'<b1'", {kDLBool, 8, 1}},
        {"'<c8'", {kDLComplex, 64, 1}}, {"'<c16", {kDLComplex, 128, 1}},
    };
    for (size_t i = 0; i < ARRAY_SIZE(dtypes); i++) {
        /* "'<c16" replaces "'<f8'": the closing quote moves into the padding */
        copy = PATCHED(bytes, n, dtypes[i].descr[4] == '6' ? "'<f8', " : "'<f8'",
                       dtypes[i].descr[4] == '6' ? "'<c16'," : dtypes[i].descr);
        created_reset();
        set_stale_error();
        CHECK(mts_block_load_buffer(copy, n, create_array) == NULL);
#ifndef MTS_TEST_REFERENCE
        if (dtypes[i].dtype.bits == 128) {
            /* 2x3 complex128 needs 96 bytes where the entry holds 48: ours checks the size
             * before asking for an array (no allocation out of proportion to the input),
             * the reference only notices once it reads ("io error: failed to fill whole
             * buffer"); ours reports the malformed entry, with the sizes */
            CHECK_INT_EQ(created.calls, 0);
            CHECK_STR_EQ(last_message(),
                         SERIALIZATION "unable to load a TensorBlock from buffer: the NPY header declares 96 "
                                       "bytes of data (shape (2, 3), 16-byte elements) where the entry "
                                       "holds 48: at 'values.npy'");
            free(copy);
            continue;
        }
#endif
        CHECK_INT_EQ(created.calls, 1);
        CHECK(ta_dtype_eq(created.last_dtype, dtypes[i].dtype));
        /* our create_array refuses these dtypes */
        CHECK_STR_EQ(last_message(), CALLBACK_PREFIX "create_array: unsupported shape or dtype");
        free(copy);
    }
    static const struct bytes_edit block_cases[] = {
        {"'<f8'", "'<x8'", BLOCK_ERROR "unsupported type descriptor: <x8" IN_ENTRY("values.npy")},
        {"'<f8'", "'|f8'",
         BLOCK_ERROR "endianness '|' (not applicable) is not supported in type descriptor: |f8" IN_ENTRY("values.npy")},
        {"'descr': '<f8', 'fortran_order': False", "'descr': '<f8', 'fortran_order': True ",
         BLOCK_ERROR "data can not be loaded from fortran-order arrays" IN_ENTRY("values.npy")},
    };
    for (size_t i = 0; i < ARRAY_SIZE(block_cases); i++) {
        copy = PATCHED(bytes, n, block_cases[i].old, block_cases[i].replacement);
        created_reset();
        CHECK_NULL_ERROR(mts_block_load_buffer(copy, n, create_array), block_cases[i].message);
        CHECK_INT_EQ(created.calls, 0);
        free(copy);
    }
#undef BLOCK_ERROR
    free(bytes);
    mts_block_free(block);
    FREE_LABELS(samples, properties, labels);
    CHECK_INT_EQ(ta_live(), live);
}

/* create_array failing at each of its calls */
static void test_create_array_failure(void) {
    long live = ta_live();
    mts_tensormap_t *tensor = rich_tensor(1);
    mts_block_t *block = rich_block(TA_FLOAT32, 3, 2, 2, 0, 1, 1, 0);
    long pending = dlpack_pending();
    const void *objects[3] = {NULL, block, tensor};
    for (int k = KIND_BLOCK; k <= KIND_TENSOR; k++) {
        enum kind kind = (enum kind)k;
        uint8_t *bytes = NULL;
        uintptr_t count = 0;
        CHECK_STATUS(save_to_new_buffer(kind, objects[k], &bytes, &count), MTS_SUCCESS);
        const char *path = temp_path("failing.mts");
        CHECK_STATUS(save_path_as(kind, path, objects[k]), MTS_SUCCESS);
        int arrays = 0, empty = 0;
        count_arrays_as(kind, objects[k], &arrays, &empty);

        for (int use_path = 0; use_path < 2; use_path++) {
            for (int fail = 0; fail < arrays; fail++) {
                long before = ta_live();
                long data_created = atomic_load(&ta_stats.error_data_created);
                created_reset();
                created.fail_at = fail;
                /* whatever the status, it is reported as a callback error */
                created.fail_status = fail % 2 == 0 ? MTS_CALLBACK_ERROR : 7;
                set_stale_error();
                void *result = use_path ? load_path_as(kind, path)
                                        : load_buffer_as(kind, bytes, count);
                CHECK(result == NULL);
                CHECK_INT_EQ(created.calls, fail + 1);
                struct record r = last_error();
                CHECK_STR_EQ(r.message, CALLBACK_PREFIX "create_array failed on purpose");
                CHECK_STR_EQ(r.origin, TA_ERROR_ORIGIN);
                /* the data of the callback's error is kept */
                struct ta_error_data *data = r.data;
                CHECK(data != NULL && data->magic == TA_ERROR_MAGIC && data->member == TA_CREATE);
                CHECK_INT_EQ(atomic_load(&ta_stats.error_data_created), data_created + 1);
                CHECK_INT_EQ(status_of_last_error(), MTS_CALLBACK_ERROR);
                /* the arrays made before are destroyed, once */
                CHECK_INT_EQ(ta_live(), before);
                int destroyed_once = 1;
                for (int i = 0; i < fail; i++) {
                    destroyed_once = destroyed_once && created.arrays[i] != NULL &&
                                     ta_calls(created.arrays[i], TA_DESTROY) == 1 &&
                                     atomic_load(&created.arrays[i]->dlpack_live) == 0;
                }
                CHECK(destroyed_once);
                if (result != NULL) {
                    free_as(kind, result);
                }
            }
        }
        free(bytes);
    }
    CHECK_INT_EQ(dlpack_pending(), pending);
    mts_tensormap_free(tensor);
    mts_block_free(block);
    clear_error();
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */
/* hostile input                                                            */

/* outcome slots: success, then the statuses 1, 2, 3, 4, 254, 255, then
 * "no error set", "unknown message", and (on the reference only, see
 * run_hostile) "the process died" */
enum {
    OUT_OK,
    OUT_1,
    OUT_2,
    OUT_3,
    OUT_4,
    OUT_254,
    OUT_255,
    OUT_NONE,
    OUT_UNKNOWN,
    OUT_CRASH,
    OUT_COUNT
};
static const char *const OUTCOME_NAMES[OUT_COUNT] = {
    "ok", "1", "2", "3", "4", "254", "255", "no error", "unknown message", "crash",
};

static int outcome_slot(int status) {
    switch (status) {
    case MTS_INVALID_PARAMETER_ERROR: return OUT_1;
    case MTS_IO_ERROR: return OUT_2;
    case MTS_SERIALIZATION_ERROR: return OUT_3;
    case 4: return OUT_4;
    case MTS_CALLBACK_ERROR: return OUT_254;
    case MTS_INTERNAL_ERROR: return OUT_255;
    case -1: return OUT_NONE;
    default: return OUT_UNKNOWN;
    }
}

#define BIT_FLIPS 3000
#define HOSTILE_EDGE 512

/* the inputs of a hostile run, made from the valid bytes of a saved object */
struct hostile_inputs {
    enum kind kind;
    const uint8_t *bytes;
    uintptr_t count;
    int flips;          /* 0: truncations, 1: bit flips */
    uintptr_t *lengths; /* the truncation lengths */
    long inputs;
};

/* the same 64 random bits for the same index on every run (splitmix64) */
static uint64_t random_bits(uint64_t index) {
    uint64_t z = 0x5eed5eed12345678ULL + (index + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Load the input `index` of `in`: a valid object (freed) or NULL with an
 * error. Returns the outcome slot; prints the first few unacceptable ones
 * (no error set, or a status other than 1, 2, 3, 254 and 255). */
static int hostile_one(const struct hostile_inputs *in, long index) {
    static int printed = 0;
    uintptr_t length = in->count;
    long detail = 0;
    uint8_t *input = NULL;
    if (in->flips) {
        uint64_t random = random_bits((uint64_t)index);
        uintptr_t position = (uintptr_t)(random % in->count);
        int bit = (int)((random >> 40) % 8);
        input = malloc(length);
        memcpy(input, in->bytes, length);
        input[position] ^= (uint8_t)(1u << bit);
        detail = (long)position * 8 + bit;
    } else {
        /* a copy of exactly `length` bytes, so reading past it is noticed */
        length = in->lengths[index];
        input = length == 0 ? NULL : malloc(length);
        if (length != 0) {
            memcpy(input, in->bytes, length);
        }
        detail = (long)length;
    }

    created_reset();
    set_stale_error();
    void *result = load_buffer_as(in->kind, input, length);
    int slot = OUT_OK;
    if (result != NULL) {
        free_as(in->kind, result);
    } else {
        slot = outcome_slot(status_of_last_error());
    }
    free(input);
    int ok = slot == OUT_OK || slot == OUT_1 || slot == OUT_2 || slot == OUT_3 ||
             slot == OUT_254 || slot == OUT_255;
    if (!ok && printed++ < 10) {
        fprintf(stderr, "hostile %s (%s %ld): outcome %s, message [%s]\n", KIND_NAME[in->kind],
                in->flips ? "bit flip" : "length", detail, OUTCOME_NAMES[slot],
                last_message() != NULL ? last_message() : "<NULL>");
    }
    return slot;
}

/* Count the outcomes of every input of `in`. Returns the number of runs that
 * leaked (test arrays alive or DLPack tensors not deleted after the loads).
 *
 * Against ours, everything runs in this process: a crash fails the test, and
 * leaks are also seen by LeakSanitizer. The reference aborts the process on
 * some inputs (a bit flip making an NPY header error message that contains a
 * NUL byte panics while the error is stored, in a function that can not
 * unwind: "error message contains a null byte", then "panic in a function
 * that cannot unwind"), so there the inputs run in child processes: a child
 * reports the outcome of each input through a pipe, and when it dies the
 * input it was loading counts as a crash and a new child goes on with the
 * next one. */
static long run_hostile(const struct hostile_inputs *in, long outcomes[OUT_COUNT]) {
    memset(outcomes, 0, OUT_COUNT * sizeof(long));
#ifndef MTS_TEST_REFERENCE
    long live = ta_live();
    long pending = dlpack_pending();
    for (long i = 0; i < in->inputs; i++) {
        outcomes[hostile_one(in, i)]++;
    }
    int leaked = ta_live() != live ||
                 dlpack_pending() != pending;
    return leaked;
#else
    long leaked = 0;
    long next = 0;
    while (next < in->inputs) {
        int fds[2];
        if (pipe(fds) != 0) {
            perror("pipe");
            return 1;
        }
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            long live = ta_live();
            long pending = dlpack_pending();
            for (long i = next; i < in->inputs; i++) {
                unsigned char slot = (unsigned char)hostile_one(in, i);
                if (write(fds[1], &slot, 1) != 1) {
                    _exit(2);
                }
            }
            int child_leaked = ta_live() != live || dlpack_pending() != pending;
            _exit(child_leaked ? 3 : 0);
        }
        close(fds[1]);
        unsigned char slot = 0;
        while (read(fds[0], &slot, 1) == 1) {
            if (slot < OUT_COUNT) {
                outcomes[slot]++;
            }
            next++;
        }
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
            leaked++;
        } else if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            fprintf(stderr, "hostile %s (%s): the process died on input %ld\n",
                    KIND_NAME[in->kind], in->flips ? "bit flip" : "truncation", next);
            outcomes[OUT_CRASH]++;
            next++;
        }
    }
    return leaked;
#endif
}

static void print_outcomes(const char *name, const char *what, const long outcomes[OUT_COUNT]) {
    printf("%s, %s:", name, what);
    for (int i = 0; i < OUT_COUNT; i++) {
        if (outcomes[i] != 0) {
            printf(" %s: %ld", OUTCOME_NAMES[i], outcomes[i]);
        }
    }
    printf("\n");
    fflush(stdout);
}

/* Every truncation and a few thousand bit flips of the bytes of `object`:
 * each load gives a valid object or an error with status 1, 2, 3, 254 or
 * 255, without crashing or leaking. No truncation loads. */
static void hostile(enum kind kind, const void *object, const char *name) {
    long live = ta_live();
    long pending = dlpack_pending();
    struct hostile_inputs in;
    memset(&in, 0, sizeof(in));
    in.kind = kind;
    uint8_t *bytes = NULL;
    CHECK_STATUS(save_to_new_buffer(kind, object, &bytes, &in.count), MTS_SUCCESS);
    in.bytes = bytes;
    uintptr_t n = in.count;

    /* every length in the first and last 512 bytes, every third in between */
    in.lengths = malloc(n * sizeof(uintptr_t));
    for (uintptr_t length = 0; length < n; length++) {
        if (length < HOSTILE_EDGE || length + HOSTILE_EDGE >= n || length % 3 == 0) {
            in.lengths[in.inputs++] = length;
        }
    }
    long outcomes[OUT_COUNT];
    CHECK_INT_EQ(run_hostile(&in, outcomes), 0);
    CHECK_INT_EQ(outcomes[OUT_OK], 0);
    CHECK_INT_EQ(outcomes[OUT_4] + outcomes[OUT_NONE] + outcomes[OUT_UNKNOWN], 0);
#ifndef MTS_TEST_REFERENCE
    CHECK_INT_EQ(outcomes[OUT_CRASH], 0);
#endif
    char what[64];
    snprintf(what, sizeof(what), "%ld truncations of %zu bytes", in.inputs, (size_t)n);
    print_outcomes(name, what, outcomes);

    in.flips = 1;
    in.inputs = BIT_FLIPS;
    CHECK_INT_EQ(run_hostile(&in, outcomes), 0);
    CHECK_INT_EQ(outcomes[OUT_4] + outcomes[OUT_NONE] + outcomes[OUT_UNKNOWN], 0);
#ifndef MTS_TEST_REFERENCE
    CHECK_INT_EQ(outcomes[OUT_CRASH], 0);
#endif
    snprintf(what, sizeof(what), "%d single-bit flips", BIT_FLIPS);
    print_outcomes(name, what, outcomes);

    free(in.lengths);
    free(bytes);
    CHECK_INT_EQ(ta_live(), live);
    CHECK_INT_EQ(dlpack_pending(), pending);
}

/*
 * Truncations and bit flips of a tensor map (gradients, a nested gradient,
 * a zero-sample block, info), a block and labels. Only "no crash, no leak,
 * status 1, 2, 3, 254 or 255" is asserted; the outcomes per status are
 * printed. The inputs are the same bytes for both libraries (one gradient
 * per level), and they were compared input by input:
 *  - the reference aborts on the flips that turn a space of an NPY header
 *    into a NUL (16, 16 and 9 of the 3000 flips of the tensor map, block and
 *    labels), see run_hostile; ours gives status 3;
 *  - the reference panics (255, "index out of bounds: the len is 117 but
 *    the index is 117", npy_header.rs) on headers whose quoted string runs
 *    to the end of the header; ours gives status 3 ("expected '\"', got the
 *    end of the header");
 *  - when a flip changes the sizes of a stored entry in the central
 *    directory, the reference still loads the entry (or reports
 *    "io error: Invalid checksum"); ours refuses it ("invalid Zip archive:
 *    stored entry with different compressed (N bytes) and uncompressed (N
 *    bytes) sizes", status 3);
 *  - a corrupted NPY header of an entry without elements (the zero-sample
 *    block) is a header error (3) on the reference and "io error: Invalid
 *    checksum" (2) on ours;
 *  - where the reference says "io error: Invalid checksum" for a truncated
 *    read, ours can say "io error: failed to fill whole buffer".
 */
static void test_hostile_input(void) {
    /* one gradient per level: the same bytes from both libraries, so the
     * outcomes printed can be compared */
    mts_tensormap_t *tensor = rich_tensor(0);
    mts_block_t *block = rich_block(TA_FLOAT32, 3, 2, 2, 0, 1, 0, 0);
    const mts_labels_t *labels = rows_labels(NAMES_ABC, 3, 20, 0);
    hostile(KIND_TENSOR, tensor, "tensor map");
    hostile(KIND_BLOCK, block, "block");
    hostile(KIND_LABELS, labels, "labels");
    mts_tensormap_free(tensor);
    mts_block_free(block);
    mts_labels_free(labels);
    clear_error();
}

/* ------------------------------------------------------------------------ */
/* save errors                                                              */

static void test_save_errors(void) {
    long live = ta_live();
    mts_tensormap_t *tensor = simple_tensor();
    long pending = dlpack_pending();
    mts_block_t *block = block_at(tensor, 1);
    mts_block_t *gradient = NULL;
    CHECK_STATUS(mts_block_gradient(block, "g", &gradient), MTS_SUCCESS);
    mts_block_t *nested = NULL;
    CHECK_STATUS(mts_block_gradient(gradient, "h", &nested), MTS_SUCCESS);
    struct test_array *failing[3] = {block_array(block), block_array(gradient),
                                     block_array(nested)};
    const void *objects[3] = {NULL, block, tensor};

    for (int f = 0; f < 3; f++) {
        ta_set_fail(failing[f], TA_AS_DLPACK, MTS_CALLBACK_ERROR, "as_dlpack failed on purpose");
        for (int k = KIND_BLOCK; k <= KIND_TENSOR; k++) {
            enum kind kind = (enum kind)k;
            long data_created = atomic_load(&ta_stats.error_data_created);
            struct growth g = growth_from(NULL);
            uint8_t *buffer = NULL;
            uintptr_t count = 0;
            set_stale_error();
            CHECK_STATUS(save_buffer_as(kind, &buffer, &count, &g, growth_realloc, objects[k]),
                         MTS_CALLBACK_ERROR);
            struct record r = last_error();
            CHECK_STR_EQ(r.message, "calling mts_array_t.as_dlpack failed: as_dlpack failed on "
                                    "purpose");
            CHECK_STR_EQ(r.origin, TA_ERROR_ORIGIN);
            CHECK(r.data != NULL &&
                  atomic_load(&ta_stats.error_data_created) == data_created + 1);
            CHECK_INT_EQ(count, 0);
            CHECK(buffer == g.current);
            free(buffer);

            set_stale_error();
            CHECK_STATUS(save_path_as(kind, temp_path("failed-save.mts"), objects[k]),
                         MTS_CALLBACK_ERROR);
            CHECK_STR_EQ(last_message(), "calling mts_array_t.as_dlpack failed: as_dlpack "
                                         "failed on purpose");
            CHECK_STR_EQ(last_error().origin, TA_ERROR_ORIGIN);
        }
        failing[f]->fail_member = TA_NONE;
    }
    /* everything exported before the failure was deleted */
    CHECK_INT_EQ(dlpack_pending(), pending);
    /* and the map still saves */
    uint8_t *bytes = NULL;
    uintptr_t count = 0;
    CHECK_STATUS(save_to_new_buffer(KIND_TENSOR, tensor, &bytes, &count), MTS_SUCCESS);
    free(bytes);

    mts_tensormap_free(tensor);
    clear_error();
    CHECK_INT_EQ(ta_live(), live);
}

/* ------------------------------------------------------------------------ */

static void remove_temporary_directory(void) {
    DIR *dir = opendir(tmpdir);
    CHECK(dir != NULL);
    if (dir == NULL) {
        return;
    }
    struct dirent *entry;
    char path[512];
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", tmpdir, entry->d_name);
        CHECK_INT_EQ(unlink(path), 0);
    }
    closedir(dir);
    CHECK_INT_EQ(rmdir(tmpdir), 0);
}

int main(void) {
    mts_disable_panic_printing();

    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof(tmpdir), "%s/mts-test-io-XXXXXX",
             base != NULL && base[0] != '\0' && strlen(base) < 32 ? base : "/tmp");
    if (mkdtemp(tmpdir) == NULL) {
        perror("mkdtemp");
        return 1;
    }

    test_roundtrip_labels();
    test_roundtrip_blocks();
    test_roundtrip_tensors();
    test_create_array_calls();
    test_realloc();
    test_load_errors();
    test_malformed_npy();
    test_create_array_failure();
    test_save_errors();
    test_hostile_input();

    remove_temporary_directory();
    CHECK_NOTHING_LEAKED();
    return check_summary();
}
