/*
 * labels_sequence: a seeded random sequence of labels operations, printed as
 * a canonical transcript, for comparing two implementations of the
 * metatensor-core 0.2 C API (the reference library and ours).
 *
 * Usage: labels_sequence SEED COUNT
 *
 * The program uses the public C API only. It keeps a pool of live labels and
 * runs COUNT operations on it, chosen with a splitmix64 generator seeded from
 * SEED and the operation's index (so that one operation behaving differently
 * does not change the random choices of the following ones). Every operation
 * prints exactly one line: what was asked, the status (or NULL for pointer
 * returning functions), the last error message and origin on failure, and
 * the results on success. Nothing address dependent is printed.
 *
 * Labels values are instrumented arrays (bindings/c/tests/test_array.h),
 * with random DLPack layouts (strides, offsets, column-major), most on CPU,
 * some faking CUDA and some on torch's meta device (kDLExtDev, labels
 * without readable values, which checks when the library reads values). At
 * the end every labels is freed, and the program prints the array and DLPack
 * counters and fails (exit code 1) when an array leaked or was destroyed
 * twice, or when a DLPack tensor was not deleted exactly once.
 *
 * With LABELS_SEQUENCE_CALLS=1 in the environment, every line also gets the
 * number of as_dlpack, from_dlpack, copy and destroy calls the operation made
 * on test arrays, to find where two runs' final counters start to differ.
 * A few flags in the transcript (UNEXPECTED-SUCCESS, CHANGED, BAD-values,
 * wrote-past-count, result-not-NULL, "of the result failed") mark results
 * that contradict the API contract; run.sh refuses a reference transcript
 * holding any of them.
 *
 * The sequence stays away from what the reference panics or crashes on, or
 * where we deliberately differ (docs/reference-behaviour.md#differences):
 * values arrays are always 2-D with one column per name, names are valid
 * UTF-8, labels made with mts_labels_assume_unique never hold duplicated
 * rows, positions are never asked of zero-dimension labels, zero-dimension
 * labels always have an empty array, no callback fails, the `result` of set
 * operations is never NULL, and the empty values of mts_labels_values_cpu
 * are never read.
 */
#include "sequence.h"

/* ------------------------------------------------------------------------ */
/* random numbers                                                           */

/* the generator of operation `index` */
static struct rng rng_for(uint64_t seed, uint64_t index) {
    struct rng rng = {seed * UINT64_C(0xd1b54a32d192ed03) ^
                      (index + 1) * UINT64_C(0x8cb92ba72f3d8dd7)};
    rng_next(&rng);
    return rng;
}

/* ------------------------------------------------------------------------ */
/* output                                                                   */

#define NAME_LEN 32
#define POOL_SIZE 12
#define LIST_LIMIT 32 /* values printed in full up to this many integers */

static uint64_t fnv1a(uint64_t hash, const void *data, size_t size) {
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; i++) {
        hash ^= bytes[i];
        hash *= UINT64_C(0x100000001b3);
    }
    return hash;
}

/* hash `value` as `width` little-endian bytes (the same on every machine) */
static uint64_t fnv1a_le(uint64_t hash, uint64_t value, int width) {
    for (int i = 0; i < width; i++) {
        unsigned char byte = (unsigned char)(value >> (8 * i));
        hash = fnv1a(hash, &byte, 1);
    }
    return hash;
}

static uint64_t values_hash(const int32_t *values, size_t count, size_t size) {
    uint64_t hash = UINT64_C(0xcbf29ce484222325);
    hash = fnv1a_le(hash, count, 8);
    hash = fnv1a_le(hash, size, 8);
    for (size_t i = 0; i < count * size; i++) {
        hash = fnv1a_le(hash, (uint32_t)values[i], 4);
    }
    return hash;
}

/* "count=C size=S hash=H [(..),(..)]"; values may be NULL when count*size is 0 */
static void print_values(const int32_t *values, size_t count, size_t size) {
    printf("count=%zu size=%zu hash=%016" PRIx64, count, size,
           count * size == 0 ? values_hash(NULL, count, size) : values_hash(values, count, size));
    if (count * size <= LIST_LIMIT) {
        printf(" [");
        for (size_t i = 0; i < count; i++) {
            if (i > 0) {
                printf(",");
            }
            print_row(values + i * size, size);
        }
        printf("]");
    }
}

static void print_name_list(const char *const *names, uintptr_t n) {
    printf("[");
    for (uintptr_t i = 0; i < n; i++) {
        printf(i == 0 ? "'%s'" : ",'%s'", names[i] != NULL ? names[i] : "<NULL>");
    }
    printf("]");
}

/* `names` points at `n` names (at most MAX_DIMS) of NAME_LEN characters
 * each; returns pointers to them, kept in `storage` */
static const char *const *names_pointers(const void *names, int n, const char **storage) {
    for (int i = 0; i < n; i++) {
        storage[i] = (const char *)names + (size_t)i * NAME_LEN;
    }
    return storage;
}

static void print_names(const void *names, int n) {
    const char *storage[MAX_DIMS];
    print_name_list(names_pointers(names, n, storage), (uintptr_t)n);
}

/* ------------------------------------------------------------------------ */
/* the pool of live labels, with what the program knows about each          */

struct entry {
    const mts_labels_t *labels; /* NULL: empty slot */
    int n_names;
    char names[MAX_DIMS][NAME_LEN];
    size_t count;
    size_t size;
    int32_t *values; /* count * size, row-major; NULL when empty or unknown (meta device) */
    DLDevice device;
    const void *user_ptr; /* the test array given at construction, or NULL */
};

static struct entry pool[POOL_SIZE];
static long freed_labels = 0;

static void entry_clear(struct entry *entry) {
    free(entry->values);
    memset(entry, 0, sizeof(*entry));
}

/* mts_labels_free, counted in freed_labels */
static mts_status_t labels_free_counted(const mts_labels_t *labels) {
    freed_labels++;
    return mts_labels_free(labels);
}

/* free the labels of a slot; prints a line only when that fails */
static void slot_release(int slot) {
    struct entry *entry = &pool[slot];
    if (entry->labels != NULL) {
        mts_status_t status = labels_free_counted(entry->labels);
        if (status != MTS_SUCCESS) {
            printf("   implicit free slot=%d", slot);
            print_status(status);
            printf("\n");
        }
    }
    entry_clear(entry);
}

/* fill `entry` from the library: names, values and device. Used for labels
 * the library made; what is known stays consistent with the library, so the
 * following operations use the same inputs on both libraries as long as they
 * agree. Returns 0 on success (prints a note otherwise). */
static int entry_from_library(struct entry *entry, const mts_labels_t *labels) {
    memset(entry, 0, sizeof(*entry));
    entry->labels = labels;
    const char *const *names = NULL;
    uintptr_t n_names = 0;
    mts_status_t status = mts_labels_dimensions(labels, &names, &n_names);
    if (status != MTS_SUCCESS || n_names > MAX_DIMS || (n_names != 0 && names == NULL)) {
        printf(" (dimensions of the result failed)");
        return 1;
    }
    entry->n_names = (int)n_names;
    for (uintptr_t i = 0; i < n_names; i++) {
        snprintf(entry->names[i], NAME_LEN, "%s", names[i] != NULL ? names[i] : "<NULL>");
    }
    mts_array_t view;
    entry->device = labels_device(labels, &view);
    if (entry->device.device_type == kDLExtDev) {
        /* no values on the meta device: the count comes from the array's shape */
        const uintptr_t *shape = NULL;
        uintptr_t ndim = 0;
        if (view.shape == NULL || view.shape(view.ptr, &shape, &ndim) != MTS_SUCCESS ||
            ndim != 2 || shape[1] != n_names || shape[0] > (1 << 20)) {
            printf(" (shape of the result failed)");
            entry->n_names = 0;
            return 1;
        }
        entry->count = shape[0];
        entry->size = shape[1];
        return 0;
    }
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    status = mts_labels_values_cpu(labels, &values, &count, &size);
    if (status != MTS_SUCCESS || size != n_names || count > (1 << 20) ||
        (count * size != 0 && values == NULL)) {
        printf(" (values of the result failed)");
        entry->n_names = 0;
        return 1;
    }
    entry->count = count;
    entry->size = size;
    if (count * size != 0) {
        entry->values = malloc(count * size * sizeof(int32_t));
        memcpy(entry->values, values, count * size * sizeof(int32_t));
    }
    return 0;
}

static int slot_random(struct rng *rng) {
    return (int)rng_below(rng, POOL_SIZE);
}

static int slot_is_live(int slot, const void *context) {
    (void)context;
    return pool[slot].labels != NULL;
}

/* a random live slot, or -1 */
static int slot_live(struct rng *rng) {
    return rng_slot(rng, POOL_SIZE, slot_is_live, NULL);
}

static int same_names(const struct entry *a, const struct entry *b) {
    if (a->n_names != b->n_names) {
        return 0;
    }
    for (int i = 0; i < a->n_names; i++) {
        if (strcmp(a->names[i], b->names[i]) != 0) {
            return 0;
        }
    }
    return 1;
}

struct like {
    const struct entry *entry;
    int not;
};

static int slot_is_like(int slot, const void *context) {
    const struct like *like = context;
    return slot != like->not && pool[slot].labels != NULL && same_names(&pool[slot], like->entry);
}

/* a random live slot other than `not` with the same names as `like` when
 * there is one, -1 otherwise */
static int slot_like(struct rng *rng, const struct entry *like, int not) {
    struct like context = {like, not};
    return rng_slot(rng, POOL_SIZE, slot_is_like, &context);
}

/* ------------------------------------------------------------------------ */
/* generating names and values                                              */

static const char *const VALID_NAMES[] = {"a", "b", "c", "d", "_", "_1", "x9", "key", "Ab_2"};
static const char *const INVALID_NAMES[] = {"",  "1a", "a-b", "a b",
                                            "9", "\xc3\xa9t\xc3\xa9" /* "été" */, "a.b", "-"};

struct schema {
    int n;
    const char *names[4];
};

/* most labels use one of these, so that set operations often apply */
static const struct schema SCHEMAS[] = {
    {0, {NULL}},
    {1, {"a"}},
    {1, {"b"}},
    {2, {"a", "b"}},
    {2, {"b", "a"}},
    {3, {"a", "b", "c"}},
    {4, {"a", "b", "c", "d"}},
    {2, {"_", "x9"}},
};

struct names {
    int n;
    char names[MAX_DIMS][NAME_LEN];
};

static void names_set(struct names *names, int i, const char *name) {
    snprintf(names->names[i], NAME_LEN, "%s", name);
}

static void gen_names(struct rng *rng, struct names *names) {
    uint32_t kind = rng_below(rng, 100);
    if (kind < 60) {
        const struct schema *schema = &SCHEMAS[rng_below(rng, COUNT_OF(SCHEMAS))];
        names->n = schema->n;
        for (int i = 0; i < schema->n; i++) {
            names_set(names, i, schema->names[i]);
        }
    } else if (kind < 78) {
        int slot = slot_live(rng);
        if (slot >= 0) {
            names->n = pool[slot].n_names;
            for (int i = 0; i < names->n; i++) {
                names_set(names, i, pool[slot].names[i]);
            }
        } else {
            names->n = 1;
            names_set(names, 0, "a");
        }
    } else if (kind < 92) {
        /* random valid names, sometimes repeated */
        names->n = (int)rng_below(rng, 5);
        for (int i = 0; i < names->n; i++) {
            names_set(names, i, VALID_NAMES[rng_below(rng, 4 + (rng_percent(rng, 30) ? 5 : 0))]);
        }
    } else {
        /* one (or two) invalid names among valid ones */
        names->n = 1 + (int)rng_below(rng, 4);
        for (int i = 0; i < names->n; i++) {
            names_set(names, i, VALID_NAMES[rng_below(rng, COUNT_OF(VALID_NAMES))]);
        }
        names_set(names, (int)rng_below(rng, (uint32_t)names->n),
                  INVALID_NAMES[rng_below(rng, COUNT_OF(INVALID_NAMES))]);
        if (names->n > 1 && rng_percent(rng, 20)) {
            names_set(names, (int)rng_below(rng, (uint32_t)names->n),
                      INVALID_NAMES[rng_below(rng, COUNT_OF(INVALID_NAMES))]);
        }
    }
}

static int names_are_unique(const struct names *names) {
    for (int i = 0; i < names->n; i++) {
        for (int j = i + 1; j < names->n; j++) {
            if (strcmp(names->names[i], names->names[j]) == 0) {
                return 0;
            }
        }
    }
    return 1;
}

/* remove repeated rows, keeping the first of each; returns the new count */
static size_t rows_dedupe(int32_t *values, size_t count, size_t size) {
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        int seen = 0;
        for (size_t k = 0; k < kept && !seen; k++) {
            seen = row_compare(values + k * size, values + i * size, size) == 0;
        }
        if (!seen) {
            if (kept != i) {
                memmove(values + kept * size, values + i * size, size * sizeof(int32_t));
            }
            kept++;
        }
    }
    return kept;
}

/* whether a slot holds live labels with known rows of *context (a size_t) values */
static int slot_has_rows(int slot, const void *context) {
    const struct entry *entry = &pool[slot];
    return entry->labels != NULL && entry->size == *(const size_t *)context && entry->count > 0 &&
           entry->values != NULL;
}

/* random rows: mostly small value ranges (so that labels overlap), some of
 * them copied from a live labels with the same width */
static int32_t *gen_rows(struct rng *rng, size_t size, size_t *count_out) {
    uint32_t kind = rng_below(rng, 100);
    size_t count;
    if (kind < 8) {
        count = 0;
    } else if (kind < 40) {
        count = rng_below(rng, 4);
    } else if (kind < 85) {
        count = rng_below(rng, 9);
    } else {
        count = 8 + rng_below(rng, 33);
    }
    int32_t low = rng_percent(rng, 25) ? -1 : 0;
    int32_t width = 2 + (int32_t)rng_below(rng, 3);
    if (rng_percent(rng, 5)) {
        /* occasionally large and negative values */
        low = -2000000000;
        width = 4;
    }
    /* a live labels of the same width to copy rows from */
    int donor = rng_percent(rng, 50) ? rng_slot(rng, POOL_SIZE, slot_has_rows, &size) : -1;
    if (count * size == 0) {
        *count_out = count;
        return NULL;
    }
    int32_t *values = malloc(count * size * sizeof(int32_t));
    for (size_t i = 0; i < count; i++) {
        if (donor >= 0 && rng_percent(rng, 50)) {
            size_t row = rng_below(rng, (uint32_t)pool[donor].count);
            memcpy(values + i * size, pool[donor].values + row * size, size * sizeof(int32_t));
        } else {
            for (size_t j = 0; j < size; j++) {
                int64_t step = low == -2000000000 ? 1000000000 : 1;
                values[i * size + j] = (int32_t)(low + rng_range(rng, 0, width - 1) * step);
            }
        }
    }
    *count_out = count;
    return values;
}

static const char *layout_name(enum ta_layout layout) {
    switch (layout) {
    case TA_LAYOUT_NULL_STRIDES: return "null-strides";
    case TA_LAYOUT_C_STRIDES: return "c-strides";
    case TA_LAYOUT_NULL_STRIDES_OFFSET: return "offset";
    case TA_LAYOUT_FORTRAN: return "fortran";
    case TA_LAYOUT_STRIDED_OFFSET: return "strided";
    }
    return "?";
}

static enum ta_layout gen_layout(struct rng *rng) {
    static const uint32_t PERCENT[4] = {65, 77, 87, 94};
    return rng_layout(rng, PERCENT);
}

static DLDevice gen_device(struct rng *rng) {
    uint32_t kind = rng_below(rng, 100);
    DLDevice device = TA_CPU;
    if (kind >= 96) {
        /* torch's meta device: labels without values */
        device.device_type = kDLExtDev;
    } else if (kind >= 93) {
        device.device_type = kDLCUDA;
        device.device_id = 1;
    } else if (kind >= 85) {
        device.device_type = kDLCUDA;
    }
    return device;
}

/* ------------------------------------------------------------------------ */
/* operations                                                               */

/* mts_labels / mts_labels_assume_unique into a random slot */
static void op_create(struct rng *rng, int assume_unique) {
    struct names names;
    gen_names(rng, &names);
    size_t size = (size_t)names.n;
    size_t count = 0;
    int32_t *values = NULL;
    int f64 = 0;
    if (size == 0) {
        /* zero names: the array must be empty */
        uint32_t kind = rng_below(rng, 10);
        count = kind < 6 ? 0 : (kind < 9 ? 1 : 3);
    } else {
        values = gen_rows(rng, size, &count);
        int dedupe = assume_unique || rng_percent(rng, 65);
        if (dedupe && values != NULL) {
            count = rows_dedupe(values, count, size);
        }
        if (values != NULL && rng_percent(rng, 35)) {
            rows_sort(values, count, size);
        }
        if (!assume_unique && count > 0 && rng_percent(rng, 3)) {
            f64 = 1;
        }
    }
    enum ta_layout layout = gen_layout(rng);
    DLDevice device = gen_device(rng);
    int slot = slot_random(rng);

    struct test_array *array;
    uintptr_t shape[2] = {count, size};
    if (f64) {
        double *data = malloc(count * size * sizeof(double));
        for (size_t i = 0; i < count * size; i++) {
            data[i] = (double)values[i];
        }
        array = ta_new(TA_FLOAT64, shape, 2, data);
        free(data);
    } else {
        array = ta_new(TA_INT32, shape, 2, values);
    }
    array->layout = layout;
    array->device = device;

    printf("%s slot=%d names=", assume_unique ? "labels_assume_unique" : "labels", slot);
    print_names(names.names, names.n);
    printf(" %s", f64 ? "f64" : "i32");
    printf(" ");
    print_device(device);
    printf(" %s ", layout_name(layout));
    print_values(values, count, size);
    printf(" ->");

    const char *storage[MAX_DIMS];
    const char *const *names_ptr = names_pointers(names.names, names.n, storage);
    if (names.n == 0 && rng_percent(rng, 50)) {
        names_ptr = NULL; /* never read with a zero count */
    }
    const mts_labels_t *labels = assume_unique
                                     ? mts_labels_assume_unique(names_ptr, size, ta_mts(array))
                                     : mts_labels(names_ptr, size, ta_mts(array));
    if (labels == NULL) {
        print_null();
        free(values);
        return;
    }
    printf(" ok");
    if (!names_are_unique(&names)) {
        printf(" UNEXPECTED-SUCCESS");
    }
    slot_release(slot);
    struct entry *entry = &pool[slot];
    entry->labels = labels;
    entry->n_names = names.n;
    memcpy(entry->names, names.names, sizeof(entry->names));
    entry->count = size == 0 ? 0 : count;
    entry->size = size;
    entry->values = entry->count * size == 0 ? NULL : values;
    if (entry->values == NULL) {
        free(values);
    }
    entry->device = size == 0 ? TA_CPU : device;
    entry->user_ptr = array;
}

static void op_dimensions(struct rng *rng) {
    int slot = skip_when_none(slot_live(rng), "dimensions");
    if (slot < 0) {
        return;
    }
    printf("dimensions slot=%d ->", slot);
    const char *const *names = NULL;
    uintptr_t count = 99;
    if (print_status(mts_labels_dimensions(pool[slot].labels, &names, &count)) == MTS_SUCCESS) {
        printf(" count=%zu names=", (size_t)count);
        if (count == 0 || names == NULL || count > MAX_DIMS) {
            printf("%s", names == NULL ? "NULL" : "non-NULL");
        } else {
            print_name_list(names, count);
        }
    }
}

static void op_values_cpu(struct rng *rng) {
    int slot = skip_when_none(slot_live(rng), "values_cpu");
    if (slot < 0) {
        return;
    }
    printf("values_cpu slot=%d ->", slot);
    const int32_t *values = NULL;
    uintptr_t count = 99, size = 99;
    if (print_status(mts_labels_values_cpu(pool[slot].labels, &values, &count, &size)) ==
        MTS_SUCCESS) {
        printf(" ");
        if ((count * size != 0 && values == NULL) || count > (1 << 20) || size > MAX_DIMS) {
            printf("BAD-values %s count=%zu size=%zu", values == NULL ? "NULL" : "non-NULL",
                   (size_t)count, (size_t)size);
            return;
        }
        print_values(values, count, size);
        const struct entry *entry = &pool[slot];
        if (count != entry->count || size != entry->size ||
            (count * size != 0 && entry->values != NULL &&
             memcmp(values, entry->values, count * size * sizeof(int32_t)) != 0)) {
            printf(" CHANGED");
        }
    }
}

static void print_origin_name(mts_data_origin_t origin) {
    char buffer[256];
    mts_status_t status = mts_get_data_origin(origin, buffer, sizeof(buffer));
    if (status == MTS_SUCCESS) {
        printf("'%s'", buffer);
    } else {
        printf("<status %d>", (int)status);
    }
}

static void op_values(struct rng *rng) {
    int slot = skip_when_none(slot_live(rng), "values");
    if (slot < 0) {
        return;
    }
    printf("values slot=%d ->", slot);
    mts_array_t view;
    memset(&view, 0, sizeof(view));
    if (print_status(mts_labels_values(pool[slot].labels, &view)) != MTS_SUCCESS) {
        return;
    }
    printf(" destroy=%s ptr=%s", view.destroy == NULL ? "NULL" : "set",
           pool[slot].user_ptr != NULL && view.ptr == pool[slot].user_ptr ? "user" : "other");
    const uintptr_t *shape = NULL;
    uintptr_t ndim = 0;
    print_view_shape(&view, &shape, &ndim);
    print_view_device(&view);
    DLDataType dtype = {0, 0, 0};
    if (view.dtype == NULL || view.dtype(view.ptr, &dtype) != MTS_SUCCESS) {
        printf(" dtype=<failed>");
    } else {
        printf(" dtype=%d/%d/%d", (int)dtype.code, (int)dtype.bits, (int)dtype.lanes);
    }
    mts_data_origin_t origin = 0;
    if (view.origin == NULL || view.origin(view.ptr, &origin) != MTS_SUCCESS) {
        printf(" origin=<failed>");
    } else {
        printf(" origin=");
        print_origin_name(origin);
    }
}

static void op_position(struct rng *rng) {
    int slot = skip_when_none(slot_live(rng), "position");
    if (slot < 0) {
        return;
    }
    const struct entry *entry = &pool[slot];
    if (entry->size == 0) {
        /* the reference panics on zero-dimension labels */
        printf("position slot=%d skip-zero-dimensions", slot);
        return;
    }
    int32_t row[MAX_DIMS + 1];
    size_t n = entry->size;
    uint32_t kind = rng_below(rng, 100);
    const char *what;
    if (kind < 50 && entry->count > 0 && entry->values != NULL) {
        what = "existing";
        size_t index = rng_below(rng, (uint32_t)entry->count);
        memcpy(row, entry->values + index * n, n * sizeof(int32_t));
    } else if (kind < 85) {
        what = "random";
        for (size_t j = 0; j < n; j++) {
            row[j] = rng_range(rng, -1, 3);
        }
    } else {
        what = "wrong-size";
        n = rng_percent(rng, 50) ? n + 1 : n - 1;
        for (size_t j = 0; j < n; j++) {
            row[j] = rng_range(rng, 0, 2);
        }
    }
    printf("position slot=%d %s ", slot, what);
    print_row(row, n);
    printf(" ->");
    int64_t result = -99;
    if (print_status(mts_labels_position(entry->labels, row, n, &result)) == MTS_SUCCESS) {
        printf(" position=%" PRId64, result);
    }
}

/* how a mapping argument is passed */
enum mapping_mode {
    MAPPING_NULL,
    MAPPING_RIGHT,
    MAPPING_WRONG,
};

struct mapping {
    enum mapping_mode mode;
    int64_t *data;
    uintptr_t count;
};

static void mapping_gen(struct rng *rng, struct mapping *mapping, size_t expected) {
    uint32_t kind = rng_below(rng, 100);
    mapping->mode = kind < 30 ? MAPPING_NULL : (kind < 90 ? MAPPING_RIGHT : MAPPING_WRONG);
    size_t capacity = expected + 2;
    mapping->data = malloc(capacity * sizeof(int64_t));
    for (size_t i = 0; i < capacity; i++) {
        mapping->data[i] = -77;
    }
    switch (mapping->mode) {
    case MAPPING_NULL:
        free(mapping->data);
        mapping->data = NULL;
        mapping->count = rng_below(rng, 6); /* ignored */
        break;
    case MAPPING_RIGHT:
        mapping->count = expected;
        break;
    case MAPPING_WRONG:
        mapping->count = (expected == 0 || rng_percent(rng, 50)) ? expected + 1 : expected - 1;
        break;
    }
}

static void mapping_describe(const char *name, const struct mapping *mapping) {
    switch (mapping->mode) {
    case MAPPING_NULL: printf(" %s=NULL/%zu", name, (size_t)mapping->count); break;
    case MAPPING_RIGHT: printf(" %s=%zu", name, (size_t)mapping->count); break;
    case MAPPING_WRONG: printf(" %s=wrong/%zu", name, (size_t)mapping->count); break;
    }
}

static void mapping_print(const char *name, const struct mapping *mapping) {
    if (mapping->data == NULL) {
        return;
    }
    printf(" %s=[", name);
    for (uintptr_t i = 0; i < mapping->count + 2; i++) {
        if (i >= mapping->count && mapping->data[i] == -77) {
            continue; /* untouched slack */
        }
        printf(i == 0 ? "%" PRId64 : ",%" PRId64, mapping->data[i]);
    }
    printf("]");
}

/* `what` then the names and device of labels made, and a space */
static void print_made(const char *what, const void *names, int n, DLDevice device) {
    printf("%s", what);
    print_names(names, n);
    printf(" ");
    print_device(device);
    printf(" ");
}

/* print the result labels of a set operation, then keep it in a slot or free it */
static void keep_or_free(struct rng *rng, const mts_labels_t *result) {
    if (result == NULL) {
        printf(" result=NULL");
        return;
    }
    struct entry entry;
    if (entry_from_library(&entry, result) != 0) {
        labels_free_counted(result);
        entry_clear(&entry);
        return;
    }
    print_made(" result=", entry.names, entry.n_names, entry.device);
    if (entry.values == NULL && entry.count * entry.size != 0) {
        printf("count=%zu size=%zu values-unknown", entry.count, entry.size);
    } else {
        print_values(entry.values, entry.count, entry.size);
    }
    if (rng_percent(rng, 50)) {
        int slot = slot_random(rng);
        printf(" kept slot=%d", slot);
        slot_release(slot);
        pool[slot] = entry;
    } else {
        report_failure(labels_free_counted(result), " free");
        entry_clear(&entry);
    }
}

enum set_op {
    SET_UNION,
    SET_INTERSECTION,
    SET_DIFFERENCE,
};

static void op_set(struct rng *rng, enum set_op op) {
    static const char *const op_names[] = {"union", "intersection", "difference"};
    int first = skip_when_none(slot_live(rng), op_names[op]);
    if (first < 0) {
        return;
    }
    int second = -1;
    if (rng_percent(rng, 80)) {
        second = slot_like(rng, &pool[first], first);
    }
    if (second < 0) {
        second = rng_percent(rng, 10) ? first : slot_live(rng);
    }
    struct mapping m1, m2;
    mapping_gen(rng, &m1, pool[first].count);
    mapping_gen(rng, &m2, pool[second].count);
    printf("%s first=%d second=%d", op_names[op], first, second);
    mapping_describe("m1", &m1);
    if (op != SET_DIFFERENCE) {
        mapping_describe("m2", &m2);
    }
    printf(" ->");
    const mts_labels_t *result = NULL;
    mts_status_t status;
    switch (op) {
    case SET_UNION:
        status = mts_labels_union(pool[first].labels, pool[second].labels, &result, m1.data,
                                  m1.count, m2.data, m2.count);
        break;
    case SET_INTERSECTION:
        status = mts_labels_intersection(pool[first].labels, pool[second].labels, &result,
                                         m1.data, m1.count, m2.data, m2.count);
        break;
    default:
        status = mts_labels_difference(pool[first].labels, pool[second].labels, &result,
                                       m1.data, m1.count);
        break;
    }
    if (print_status(status) == MTS_SUCCESS) {
        mapping_print("m1", &m1);
        if (op != SET_DIFFERENCE) {
            mapping_print("m2", &m2);
        }
        keep_or_free(rng, result);
    } else if (result != NULL) {
        printf(" result-not-NULL");
    }
    free(m1.data);
    free(m2.data);
}

/* a fresh selection with the given names: rows projected from the labels
 * (when the names are among the labels' ones) or random */
static const mts_labels_t *make_selection(struct rng *rng, const struct entry *labels,
                                          const struct names *names, DLDevice device) {
    size_t size = (size_t)names->n;
    size_t count = rng_below(rng, 6);
    if (size == 0) {
        count = 0;
    }
    const char *storage[MAX_DIMS], *labels_storage[MAX_DIMS];
    const char *const *names_ptr = names_pointers(names->names, names->n, storage);
    int projection[MAX_DIMS];
    int projectable = names_projection(
        names_ptr, names->n, names_pointers(labels->names, labels->n_names, labels_storage),
        labels->n_names, projection);
    int32_t *values = count * size == 0 ? NULL : malloc(count * size * sizeof(int32_t));
    for (size_t r = 0; r < count; r++) {
        if (projectable && labels->count > 0 && labels->values != NULL && rng_percent(rng, 60)) {
            size_t row = rng_below(rng, (uint32_t)labels->count);
            for (size_t j = 0; j < size; j++) {
                values[r * size + j] = labels->values[row * labels->size + (size_t)projection[j]];
            }
        } else {
            for (size_t j = 0; j < size; j++) {
                values[r * size + j] = rng_range(rng, -1, 3);
            }
        }
    }
    if (values != NULL) {
        count = rows_dedupe(values, count, size);
    }
    uintptr_t shape[2] = {count, size};
    struct test_array *array = ta_new_i32(values, shape[0], shape[1]);
    array->device = device;
    /* mts_labels can not read values on the meta device; these rows are unique */
    const mts_labels_t *selection =
        device.device_type == kDLExtDev
            ? mts_labels_assume_unique(names_ptr, size, ta_mts(array))
            : mts_labels(names_ptr, size, ta_mts(array));
    print_made(" selection=", names->names, names->n, device);
    print_values(values, count, size);
    if (selection == NULL) {
        printf(" selection-failed");
        print_error();
    }
    free(values);
    return selection;
}

static void op_select(struct rng *rng) {
    int slot = skip_when_none(slot_live(rng), "select");
    if (slot < 0) {
        return;
    }
    const struct entry *entry = &pool[slot];
    struct names names;
    names.n = 0;
    uint32_t kind = rng_below(rng, 100);
    const char *what;
    int from_pool = -1;
    if (kind < 35) {
        what = "same-names";
        names.n = entry->n_names;
        for (int i = 0; i < names.n; i++) {
            names_set(&names, i, entry->names[i]);
        }
    } else if (kind < 65 && entry->n_names > 0) {
        what = "subset";
        /* a random non-empty subset in random order */
        int order[MAX_DIMS];
        rng_order(rng, order, entry->n_names);
        names.n = 1 + (int)rng_below(rng, (uint32_t)entry->n_names);
        for (int i = 0; i < names.n; i++) {
            names_set(&names, i, entry->names[order[i]]);
        }
    } else if (kind < 78) {
        what = "missing-name";
        names.n = (int)rng_below(rng, (uint32_t)entry->n_names + 1);
        for (int i = 0; i < names.n; i++) {
            names_set(&names, i, entry->names[i]);
        }
        int at = (int)rng_below(rng, (uint32_t)names.n + 1);
        for (int i = names.n; i > at; i--) {
            names_set(&names, i, names.names[i - 1]);
        }
        names_set(&names, at, rng_percent(rng, 50) ? "zz" : "e");
        names.n++;
    } else if (kind < 88) {
        what = "zero-dimensions";
        names.n = 0;
    } else {
        what = "pool";
        from_pool = slot_live(rng);
    }
    DLDevice device = entry->device;
    if (rng_percent(rng, 8)) {
        device = device.device_type == kDLCPU ? (DLDevice){kDLCUDA, 0} : TA_CPU;
    }
    uint32_t count_kind = rng_below(rng, 100);
    uintptr_t selected_count = entry->count;
    const char *count_what = "right";
    if (count_kind >= 90) {
        count_what = "wrong";
        selected_count = (entry->count == 0 || rng_percent(rng, 50)) ? entry->count + 1
                                                                     : entry->count - 1;
    }

    printf("select slot=%d %s count=%s/%zu", slot, what, count_what, (size_t)selected_count);
    const mts_labels_t *selection = NULL;
    int owned = 0;
    if (from_pool >= 0) {
        printf(" selection=slot%d", from_pool);
        selection = pool[from_pool].labels;
    } else {
        selection = make_selection(rng, entry, &names, device);
        owned = 1;
        if (selection == NULL) {
            return;
        }
    }
    printf(" ->");
    size_t capacity = entry->count + 2;
    uint64_t *selected = malloc(capacity * sizeof(uint64_t));
    for (size_t i = 0; i < capacity; i++) {
        selected[i] = 777;
    }
    uintptr_t in_out = selected_count;
    if (print_status(mts_labels_select(entry->labels, selection, selected, &in_out)) ==
        MTS_SUCCESS) {
        printf(" selected=%zu [", (size_t)in_out);
        for (uintptr_t i = 0; i < in_out && i < capacity; i++) {
            printf(i == 0 ? "%" PRIu64 : ",%" PRIu64, selected[i]);
        }
        printf("]");
        for (uintptr_t i = in_out; i < capacity; i++) {
            if (selected[i] != 777) {
                printf(" wrote-past-count");
                break;
            }
        }
    }
    free(selected);
    if (owned) {
        report_failure(mts_labels_free(selection), " selection-free");
    }
}

static void op_clone(struct rng *rng) {
    int slot = skip_when_none(slot_live(rng), "clone");
    if (slot < 0) {
        return;
    }
    int target = slot_random(rng);
    printf("clone slot=%d into=%d ->", slot, target);
    const mts_labels_t *clone = mts_labels_clone(pool[slot].labels);
    if (clone == NULL) {
        print_null();
        return;
    }
    printf(" ok same_ptr=%d", clone == pool[slot].labels);
    if (target == slot) {
        /* drop the extra reference right away */
        print_status(mts_labels_free(clone));
        return;
    }
    slot_release(target);
    struct entry *entry = &pool[target];
    *entry = pool[slot];
    entry->labels = clone;
    if (entry->values != NULL) {
        entry->values = malloc(entry->count * entry->size * sizeof(int32_t));
        memcpy(entry->values, pool[slot].values, entry->count * entry->size * sizeof(int32_t));
    }
}

static void op_free(struct rng *rng) {
    int slot = skip_when_none(slot_live(rng), "free");
    if (slot < 0) {
        return;
    }
    printf("free slot=%d ->", slot);
    print_status(labels_free_counted(pool[slot].labels));
    entry_clear(&pool[slot]);
}

/* mts_labels (or mts_labels_assume_unique) with names=NULL and `size`
 * dimensions: an error, but for no dimension (where it may be accepted) */
static void null_names(int assume_unique, uintptr_t size) {
    struct test_array *array =
        size == 0 ? ta_new_i32(NULL, 0, 0) : ta_new_i32((const int32_t[]){1, 2}, 1, 2);
    printf("null %s(names=NULL, %zu) ->", assume_unique ? "mts_labels_assume_unique" : "mts_labels",
           (size_t)size);
    const mts_labels_t *made = assume_unique ? mts_labels_assume_unique(NULL, size, ta_mts(array))
                                             : mts_labels(NULL, size, ta_mts(array));
    if (size == 0 && made != NULL) {
        printf(" ok");
        print_status(mts_labels_free(made));
    } else if (expect_null(made)) {
        mts_labels_free(made);
    }
}

/* one call with one NULL argument */
static void op_null(struct rng *rng) {
    int slot = slot_live(rng);
    const mts_labels_t *labels = slot >= 0 ? pool[slot].labels : NULL;
    uint32_t kind = rng_below(rng, 24);
    const char *const *out_names = NULL;
    uintptr_t count = 0, size = 0;
    const int32_t *values = NULL;
    int32_t row[MAX_DIMS] = {0};
    int64_t position = 0;
    int64_t mapping[64];
    uint64_t selected[64];
    const mts_labels_t *result = NULL;
    mts_array_t view;
    memset(&view, 0, sizeof(view));
    /* the calls needing live labels */
    if (labels == NULL && kind >= 4) {
        kind = kind % 4;
    }
    /* no position on zero-dimension labels (the reference panics), and the
     * mapping and selected buffers hold 64 entries */
    if (((kind == 12 || kind == 13) && pool[slot].size == 0) ||
        ((kind == 15 || kind >= 17) && kind <= 19 && pool[slot].count > 64)) {
        kind = 20 + kind % 4;
    }
    size_t n = labels != NULL ? pool[slot].count : 0;
    switch (kind) {
    case 0: null_names(0, 2); return;
    case 1: null_names(1, 0); return;
    case 2:
        printf("null clone(NULL) ->");
        expect_null(mts_labels_clone(NULL));
        return;
    case 3:
        printf("null free(NULL) ->");
        print_status(mts_labels_free(NULL));
        return;
    case 4:
        printf("null dimensions(NULL, names, count) ->");
        print_status(mts_labels_dimensions(NULL, &out_names, &count));
        return;
    case 5:
        printf("null dimensions(slot%d, NULL, count) ->", slot);
        print_status(mts_labels_dimensions(labels, NULL, &count));
        return;
    case 6:
        printf("null dimensions(slot%d, names, NULL) ->", slot);
        print_status(mts_labels_dimensions(labels, &out_names, NULL));
        return;
    case 7:
        printf("null values_cpu(NULL, ...) ->");
        print_status(mts_labels_values_cpu(NULL, &values, &count, &size));
        return;
    case 8:
        printf("null values_cpu(slot%d, NULL, count, size) ->", slot);
        print_status(mts_labels_values_cpu(labels, NULL, &count, &size));
        return;
    case 9:
        printf("null values_cpu(slot%d, values, NULL, size) ->", slot);
        print_status(mts_labels_values_cpu(labels, &values, NULL, &size));
        return;
    case 10:
        printf("null values_cpu(slot%d, values, count, NULL) ->", slot);
        print_status(mts_labels_values_cpu(labels, &values, &count, NULL));
        return;
    case 11:
        printf("null values(slot%d, NULL) ->", slot);
        print_status(mts_labels_values(labels, NULL));
        return;
    case 12:
        printf("null position(slot%d, NULL values) ->", slot);
        print_status(mts_labels_position(labels, NULL, pool[slot].size, &position));
        return;
    case 13:
        printf("null position(slot%d, result NULL) ->", slot);
        print_status(mts_labels_position(labels, row, pool[slot].size, NULL));
        return;
    case 14:
        printf("null union(NULL, slot%d) ->", slot);
        print_status(mts_labels_union(NULL, labels, &result, NULL, 0, NULL, 0));
        return;
    case 15:
        printf("null intersection(slot%d, NULL) ->", slot);
        print_status(mts_labels_intersection(labels, NULL, &result, mapping, n, NULL, 0));
        return;
    case 16:
        printf("null difference(NULL, slot%d) ->", slot);
        print_status(mts_labels_difference(NULL, labels, &result, NULL, 0));
        return;
    case 17:
        printf("null select(NULL, slot%d) ->", slot);
        count = n;
        print_status(mts_labels_select(NULL, labels, selected, &count));
        return;
    case 18:
        printf("null select(slot%d, NULL) ->", slot);
        count = n;
        print_status(mts_labels_select(labels, NULL, selected, &count));
        return;
    case 19:
        printf("null select(slot%d, slot%d, NULL, count) ->", slot, slot);
        count = n;
        print_status(mts_labels_select(labels, labels, NULL, &count));
        return;
    case 20:
        printf("null select(slot%d, slot%d, selected, NULL) ->", slot, slot);
        print_status(mts_labels_select(labels, labels, selected, NULL));
        return;
    case 21:
        printf("null values(NULL, array) ->");
        print_status(mts_labels_values(NULL, &view));
        return;
    case 22:
        printf("null position(NULL, ...) ->");
        print_status(mts_labels_position(NULL, row, 2, &position));
        return;
    default: null_names(1, 2); return;
    }
}

/* ------------------------------------------------------------------------ */

/* with LABELS_SEQUENCE_CALLS set, each line ends with the calls the
 * library made to these members of the test arrays during the operation
 * (used by run.sh to find where the array counters of two runs part) */
static const enum ta_member TRACED_MEMBERS[] = {TA_AS_DLPACK, TA_FROM_DLPACK, TA_COPY, TA_DESTROY};
#define N_TRACED COUNT_OF(TRACED_MEMBERS)
static int trace_calls = 0;

static void run_one(uint64_t seed, long index) {
    struct rng rng = rng_for(seed, (uint64_t)index);
    struct calls_snapshot before;
    calls_snapshot_take(&before);
    printf("#%ld ", index);
    uint32_t kind = rng_below(&rng, 100);
    if (kind < 14) {
        op_create(&rng, 0);
    } else if (kind < 22) {
        op_create(&rng, 1);
    } else if (kind < 27) {
        op_dimensions(&rng);
    } else if (kind < 30) {
        op_values(&rng);
    } else if (kind < 36) {
        op_values_cpu(&rng);
    } else if (kind < 46) {
        op_position(&rng);
    } else if (kind < 54) {
        op_set(&rng, SET_UNION);
    } else if (kind < 62) {
        op_set(&rng, SET_INTERSECTION);
    } else if (kind < 70) {
        op_set(&rng, SET_DIFFERENCE);
    } else if (kind < 82) {
        op_select(&rng);
    } else if (kind < 87) {
        op_clone(&rng);
    } else if (kind < 93) {
        op_free(&rng);
    } else {
        op_null(&rng);
    }
    if (trace_calls) {
        printf(" calls{");
        int first = 1;
        for (size_t m = 0; m < N_TRACED; m++) {
            long delta = calls_since(&before, TRACED_MEMBERS[m]);
            if (delta != 0) {
                printf("%s%s=%ld", first ? "" : ",", ta_member_name(TRACED_MEMBERS[m]), delta);
                first = 0;
            }
        }
        printf("}");
    }
    printf("\n");
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s SEED COUNT\n", argv[0]);
        return 2;
    }
    char *end = NULL;
    uint64_t seed = strtoull(argv[1], &end, 0);
    if (end == argv[1] || *end != '\0') {
        fprintf(stderr, "invalid seed '%s'\n", argv[1]);
        return 2;
    }
    long count = strtol(argv[2], &end, 0);
    if (end == argv[2] || *end != '\0' || count < 0) {
        fprintf(stderr, "invalid count '%s'\n", argv[2]);
        return 2;
    }
    const char *trace = getenv("LABELS_SEQUENCE_CALLS");
    trace_calls = trace != NULL && trace[0] != '\0' && strcmp(trace, "0") != 0;
    printf("labels_sequence seed=%" PRIu64 " count=%ld\n", seed, count);
    /* the reference reports some errors (e.g. reading the values of labels on
     * the meta device) through panics it catches; keep them off stderr */
    mts_disable_panic_printing();
    run_sequence(seed, count, run_one);

    long live = 0;
    for (int slot = 0; slot < POOL_SIZE; slot++) {
        if (pool[slot].labels != NULL) {
            live++;
        }
        slot_release(slot);
    }
    printf("end: freed %ld labels at the end, %ld in all\n", live, freed_labels);
    return finish_arrays("", 0, 0);
}
