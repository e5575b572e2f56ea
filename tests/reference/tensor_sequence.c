/*
 * tensor_sequence: a seeded random sequence of block and tensor map
 * operations, printed as a canonical transcript, for comparing two
 * implementations of the metatensor-core 0.2 C API (the reference library and
 * ours).
 *
 * Usage: tensor_sequence SEED COUNT
 *        (or TENSOR_SEQUENCE_SEED and TENSOR_SEQUENCE_COUNT in the environment)
 *
 * The program uses the public C API only. It keeps a pool of free-standing
 * blocks and a pool of tensor maps and runs COUNT operations on them, each
 * chosen with a splitmix64 generator seeded from SEED and the operation's
 * index, so that one operation behaving differently does not change the
 * random choices of the following ones. Everything the program later builds
 * on (names, counts, key values) is read back from the library.
 *
 * What is generated: values of dtype f64, f32, i32 or i64 (mostly on CPU,
 * some faking CUDA), samples with zero to six entries in random (often
 * unsorted) order, zero to two components, zero to four properties,
 * gradients with and without their own components, rarely gradients of
 * gradients, tensor maps of zero to five blocks with random keys, and maps
 * of copies of one block under keys that repeat (assumed unique).
 *
 * What is run: mts_block (valid and with every construction error),
 * mts_block_add_gradient (valid and with every validation error),
 * mts_block_copy, mts_block_labels, mts_block_gradient,
 * mts_block_gradients_list, mts_block_data, mts_block_device,
 * mts_block_dtype, mts_tensormap (valid and with every validation error,
 * including the ownership of the blocks on failure), mts_tensormap_copy,
 * mts_tensormap_keys, mts_tensormap_block_by_id, the info functions,
 * mts_tensormap_keys_to_properties (with and without rows in keys_to_move),
 * mts_tensormap_keys_to_samples (sorting or not), components_to_properties,
 * mts_tensormap_device and mts_tensormap_dtype, NULL arguments, and array
 * callbacks failing on purpose (copy, create, move_data, swap_axes,
 * reshape).
 *
 * What is printed: statuses, error messages and origins (without the source
 * location of NULL pointer messages), every labels' names, device and values,
 * every data value (read through mts_block_data and the array's as_dlpack),
 * data shape, dtype, device and which array member made it, gradient
 * parameter lists, info keys and values, and after each operation the number
 * of calls the library (and the printing) made to the create, move_data,
 * copy, reshape, swap_axes, as_dlpack, from_dlpack and destroy members of the
 * test arrays (bindings/c/tests/test_array.h). Nothing address dependent is
 * printed. Each operation starts with a line "#<index> ..."; the lines of
 * its results are indented.
 *
 * The gradients of maps made by keys_to_properties and keys_to_samples come
 * in the reference's hash-map order: their parameter lists are printed
 * sorted (marked "sorted"), and so are those of everything made from them.
 *
 * A few flags in the transcript (UNEXPECTED-SUCCESS, UNEXPECTED-FAILURE,
 * BAD-...) mark results that contradict the API contract or what this
 * program meant to build; run.sh refuses a reference transcript holding any
 * of them. The sequence stays away from what the reference panics on or
 * leaves undefined: invalid UTF-8 names, components_to_properties with no
 * dimension, NULL gradients, NULL blocks inside the array given to
 * mts_tensormap, NULL out-pointers of mts_block_gradient, torch's meta
 * device, a failing from_dlpack or copy while the library makes labels "like"
 * others (the reference panics: "created invalid labels in ...:
 * CallbackError"), and keys_to_properties, keys_to_samples and
 * components_to_properties calls that would give labels a repeated dimension
 * (the reference panics: "invalid labels in ...: InvalidParameter(...)");
 * those calls are printed with "skip-reference-panic" instead.
 *
 * At the end every block and map is freed and the program prints the array
 * and DLPack counters, failing (exit code 1) when an array leaked or was
 * destroyed twice, or when a DLPack tensor was not deleted exactly once.
 */
#include "sequence.h"

#include <math.h>

/* ------------------------------------------------------------------------ */
/* random numbers                                                           */

/* the generator of operation `index` */
static struct rng rng_for(uint64_t seed, uint64_t index) {
    struct rng rng = {(seed + 1) * UINT64_C(0xa0761d6478bd642f) ^
                      (index + 7) * UINT64_C(0xe7037ed1a0b428db)};
    rng_next(&rng);
    rng_next(&rng);
    return rng;
}

/* ------------------------------------------------------------------------ */
/* output                                                                   */

#define MAX_ROWS 1024
#define MAX_BLOCKS 6
#define BLOCK_SLOTS 8
#define TENSOR_SLOTS 6

static const DLDevice CUDA0 = {kDLCUDA, 0};

static void indent(int depth) {
    printf("\n%*s", 2 + 2 * depth, "");
}

static const char *dtype_name(DLDataType dtype) {
    if (ta_dtype_eq(dtype, TA_FLOAT64)) {
        return "f64";
    } else if (ta_dtype_eq(dtype, TA_FLOAT32)) {
        return "f32";
    } else if (ta_dtype_eq(dtype, TA_INT32)) {
        return "i32";
    } else if (ta_dtype_eq(dtype, TA_INT64)) {
        return "i64";
    }
    return "other";
}

static void print_dtype(DLDataType dtype) {
    if (strcmp(dtype_name(dtype), "other") == 0) {
        printf("code%d/bits%d/lanes%d", (int)dtype.code, (int)dtype.bits, (int)dtype.lanes);
    } else {
        printf("%s", dtype_name(dtype));
    }
}

/* a C string in single quotes, bytes outside printable ASCII as \xNN */
static void print_quoted(const char *text) {
    if (text == NULL) {
        printf("<NULL>");
        return;
    }
    printf("'");
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
        if (*c < 0x20 || *c >= 0x7f || *c == '\'' || *c == '\\') {
            printf("\\x%02x", (unsigned)*c);
        } else {
            printf("%c", *c);
        }
    }
    printf("'");
}

/* "a,b,c" */
static void print_list(const char *const *items, size_t n) {
    for (size_t i = 0; i < n; i++) {
        printf(i == 0 ? "%s" : ",%s", items[i]);
    }
}

/* " ok", or " NULL err=..." when `result` is NULL; returns whether it is not NULL */
static int print_ok_or_null(const void *result) {
    if (result == NULL) {
        print_null();
        return 0;
    }
    printf(" ok");
    return 1;
}

static void print_scalar(DLDataType dtype, const void *ptr) {
    if (ta_dtype_eq(dtype, TA_FLOAT64)) {
        double value;
        memcpy(&value, ptr, sizeof(value));
        printf("%.17g", value);
    } else if (ta_dtype_eq(dtype, TA_FLOAT32)) {
        float value;
        memcpy(&value, ptr, sizeof(value));
        printf("%.9g", (double)value);
    } else if (ta_dtype_eq(dtype, TA_INT32)) {
        int32_t value;
        memcpy(&value, ptr, sizeof(value));
        printf("%" PRId32, value);
    } else if (ta_dtype_eq(dtype, TA_INT64)) {
        int64_t value;
        memcpy(&value, ptr, sizeof(value));
        printf("%" PRId64, value);
    } else {
        printf("?");
    }
}

/* ------------------------------------------------------------------------ */
/* labels                                                                   */

/* what a labels is made from */
struct labels_spec {
    int n;
    const char *names[MAX_DIMS];
    size_t count;
    int32_t values[MAX_ROWS * MAX_DIMS];
    DLDevice device;
    int assume_unique;
    enum ta_layout layout;
};

static void spec_init(struct labels_spec *spec, int n, const char *const *names, DLDevice device) {
    memset(spec, 0, sizeof(*spec));
    spec->n = n;
    for (int i = 0; i < n; i++) {
        spec->names[i] = names[i];
    }
    spec->device = device;
    spec->layout = TA_LAYOUT_NULL_STRIDES;
}

static int spec_find(const struct labels_spec *spec, const int32_t *row) {
    for (size_t i = 0; i < spec->count; i++) {
        if (row_compare(spec->values + i * (size_t)spec->n, row, (size_t)spec->n) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* adds `row` when it is new and there is room; returns 1 when added */
static int spec_add(struct labels_spec *spec, const int32_t *row) {
    if (spec->n == 0 || spec->count >= MAX_ROWS || spec_find(spec, row) >= 0) {
        return 0;
    }
    memcpy(spec->values + spec->count * (size_t)spec->n, row, (size_t)spec->n * sizeof(int32_t));
    spec->count++;
    return 1;
}

static void spec_sort(struct labels_spec *spec) {
    rows_sort(spec->values, spec->count, (size_t)spec->n);
}

/* up to `wanted` distinct random rows, column j in [low[j], high[j]] */
static void spec_random_rows(struct rng *rng, struct labels_spec *spec, size_t wanted,
                             const int32_t *low, const int32_t *high) {
    int32_t row[MAX_DIMS];
    for (size_t attempt = 0; attempt < 4 * wanted + 4 && spec->count < wanted; attempt++) {
        for (int j = 0; j < spec->n; j++) {
            row[j] = rng_range(rng, low[j], high[j]);
        }
        spec_add(spec, row);
    }
}

static enum ta_layout gen_layout(struct rng *rng) {
    static const uint32_t PERCENT[4] = {80, 88, 94, 97};
    return rng_layout(rng, PERCENT);
}

/* the labels described by `spec`, or NULL (error printed) */
static const mts_labels_t *spec_make(const struct labels_spec *spec, const char *what) {
    struct test_array *array =
        ta_new_i32(spec->count * (size_t)spec->n != 0 ? spec->values : NULL, spec->count,
                   (uintptr_t)spec->n);
    array->device = spec->device;
    array->layout = spec->layout;
    const char *names[MAX_DIMS];
    for (int i = 0; i < spec->n; i++) {
        names[i] = spec->names[i];
    }
    const mts_labels_t *labels =
        spec->assume_unique ? mts_labels_assume_unique(names, (uintptr_t)spec->n, ta_mts(array))
                            : mts_labels(names, (uintptr_t)spec->n, ta_mts(array));
    if (labels == NULL) {
        printf(" %s-labels-failed UNEXPECTED-FAILURE", what);
        print_error();
    }
    return labels;
}

/* labels with one dimension, `name`, and the rows 0 to count - 1 */
static const mts_labels_t *range_labels(const char *name, int count, DLDevice device,
                                        const char *what) {
    struct labels_spec spec;
    spec_init(&spec, 1, &name, device);
    for (int32_t i = 0; i < count; i++) {
        spec_add(&spec, &i);
    }
    return spec_make(&spec, what);
}

static void labels_release(const mts_labels_t *labels) {
    if (labels != NULL) {
        report_failure(mts_labels_free(labels), " labels-free");
    }
}

/* names, count and (CPU) values of `labels` as the library reports them;
 * returns 0 on success. The names point into the library. */
static int labels_read(const mts_labels_t *labels, struct labels_spec *spec) {
    memset(spec, 0, sizeof(*spec));
    const char *const *names = NULL;
    uintptr_t n = 0;
    if (mts_labels_dimensions(labels, &names, &n) != MTS_SUCCESS || n > MAX_DIMS) {
        return 1;
    }
    spec->n = (int)n;
    for (uintptr_t i = 0; i < n; i++) {
        spec->names[i] = names[i];
    }
    mts_array_t view;
    spec->device = labels_device(labels, &view);
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    if (mts_labels_values_cpu(labels, &values, &count, &size) != MTS_SUCCESS || size != n) {
        return 1;
    }
    if (count > MAX_ROWS) {
        count = MAX_ROWS; /* only used to generate inputs */
    }
    spec->count = count;
    if (count * size != 0) {
        memcpy(spec->values, values, count * size * sizeof(int32_t));
    }
    spec->layout = TA_LAYOUT_NULL_STRIDES;
    return 0;
}

/* "names=[..] device=D count=N (..) (..)" read through the library */
static void print_labels(const mts_labels_t *labels) {
    const char *const *names = NULL;
    uintptr_t n = 0;
    mts_status_t status = mts_labels_dimensions(labels, &names, &n);
    if (status != MTS_SUCCESS) {
        printf("dimensions");
        print_status(status);
        return;
    }
    printf("names=[");
    print_list(names, n);
    printf("]");
    mts_array_t view;
    memset(&view, 0, sizeof(view));
    status = mts_labels_values(labels, &view);
    if (status != MTS_SUCCESS) {
        printf(" values");
        print_status(status);
        return;
    }
    print_view_device(&view);
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    status = mts_labels_values_cpu(labels, &values, &count, &size);
    if (status != MTS_SUCCESS) {
        printf(" values_cpu");
        print_status(status);
        return;
    }
    printf(" count=%zu", (size_t)count);
    if (size != n || (count * size != 0 && values == NULL)) {
        printf(" BAD-values size=%zu", (size_t)size);
        return;
    }
    if (size == 0) {
        return;
    }
    for (uintptr_t i = 0; i < count; i++) {
        printf(" ");
        print_row(values + i * size, size);
    }
}

/* ------------------------------------------------------------------------ */
/* values                                                                   */

/* arrays made during an operation are numbered from the operation's index,
 * so that one operation going differently does not change later values */
static long serial_base = 0;
static long serial_next = 0;

static long new_serial(void) {
    return serial_base + serial_next++;
}

static mts_data_origin_t other_origin_id = 0;

/* an origin other than the test arrays' one, for the origin checks */
static mts_status_t other_origin(const void *array, mts_data_origin_t *origin) {
    (void)array;
    *origin = other_origin_id;
    return MTS_SUCCESS;
}

/* a new array of `dtype` with distinct, exactly representable values */
static struct test_array *make_values(DLDataType dtype, const uintptr_t *shape, size_t ndim,
                                      DLDevice device) {
    size_t total = 1;
    for (size_t d = 0; d < ndim; d++) {
        total *= shape[d];
    }
    long serial = new_serial() % 3000;
    size_t elsize = ta_elsize(dtype);
    char *data = total == 0 ? NULL : malloc(total * elsize);
    for (size_t k = 0; k < total; k++) {
        long base = serial * 1000 + (long)(k % 1000);
        if (ta_dtype_eq(dtype, TA_FLOAT64)) {
            double value = (double)base * 0.25 - 100000.0;
            memcpy(data + k * elsize, &value, elsize);
        } else if (ta_dtype_eq(dtype, TA_FLOAT32)) {
            float value = (float)((double)base * 0.25 - 100000.0);
            memcpy(data + k * elsize, &value, elsize);
        } else if (ta_dtype_eq(dtype, TA_INT32)) {
            int32_t value = (int32_t)(base - 100000);
            memcpy(data + k * elsize, &value, elsize);
        } else {
            int64_t value = (int64_t)base * INT64_C(10000000019) - 5;
            memcpy(data + k * elsize, &value, elsize);
        }
    }
    struct test_array *array = ta_new(dtype, shape, ndim, data);
    free(data);
    array->device = device;
    return array;
}

/* a 0-D array holding `value` converted to `dtype` */
static struct test_array *make_scalar(DLDataType dtype, double value) {
    char data[8];
    if (ta_dtype_eq(dtype, TA_FLOAT64)) {
        memcpy(data, &value, 8);
    } else if (ta_dtype_eq(dtype, TA_FLOAT32)) {
        float v = (float)value;
        memcpy(data, &v, 4);
    } else if (ta_dtype_eq(dtype, TA_INT32)) {
        int32_t v = (int32_t)value;
        memcpy(data, &v, 4);
    } else {
        int64_t v = (int64_t)value;
        memcpy(data, &v, 8);
    }
    return ta_new(dtype, NULL, 0, data);
}

static DLDataType gen_dtype(struct rng *rng) {
    switch (rng_below(rng, 4)) {
    case 0: return TA_FLOAT64;
    case 1: return TA_FLOAT32;
    case 2: return TA_INT32;
    default: return TA_INT64;
    }
}

static DLDataType other_dtype(struct rng *rng, DLDataType dtype) {
    DLDataType other = dtype;
    while (ta_dtype_eq(other, dtype)) {
        other = gen_dtype(rng);
    }
    return other;
}

static DLDevice other_device(DLDevice device) {
    return device.device_type == kDLCPU ? CUDA0 : TA_CPU;
}

/* ------------------------------------------------------------------------ */
/* printing blocks and tensor maps                                          */

/* destroy calls on `array`, -1 when it is not a test array */
static int destroyed(const struct test_array *array) {
    return array == NULL ? -1 : ta_calls(array, TA_DESTROY);
}

/* the test array behind the values of `block` */
static struct test_array *block_values(mts_block_t *block) {
    mts_array_t view;
    memset(&view, 0, sizeof(view));
    if (mts_block_data(block, &view) != MTS_SUCCESS) {
        return NULL;
    }
    return ta_cast(view.ptr);
}

static const char *made_by(const void *ptr) {
    struct test_array *array = ta_cast(ptr);
    if (array == NULL) {
        return "not-a-test-array";
    }
    return array->created_by == TA_NONE ? "user" : ta_member_name(array->created_by);
}

/* the shape of the values of `block`; returns 0 on success (`ndim` is 0 otherwise) */
static int block_shape(mts_block_t *block, const uintptr_t **shape, uintptr_t *ndim) {
    mts_array_t view;
    memset(&view, 0, sizeof(view));
    *shape = NULL;
    *ndim = 0;
    if (mts_block_data(block, &view) != MTS_SUCCESS || view.shape == NULL ||
        view.shape(view.ptr, shape, ndim) != MTS_SUCCESS) {
        *ndim = 0;
        return 1;
    }
    return 0;
}

/* the data of `block`: view, then every value through as_dlpack, one line per sample */
static void print_data(int depth, mts_block_t *block) {
    mts_array_t view;
    memset(&view, 0, sizeof(view));
    indent(depth);
    printf("data");
    if (print_status(mts_block_data(block, &view)) != MTS_SUCCESS) {
        return;
    }
    printf(" destroy=%s made_by=%s", view.destroy == NULL ? "NULL" : "set", made_by(view.ptr));
    DLDataType dtype = {0, 0, 0};
    if (view.dtype == NULL || view.dtype(view.ptr, &dtype) != MTS_SUCCESS) {
        printf(" dtype=<failed>");
    } else {
        printf(" dtype=");
        print_dtype(dtype);
    }
    print_view_device(&view);
    const uintptr_t *shape = NULL;
    uintptr_t ndim = 0;
    if (print_view_shape(&view, &shape, &ndim) != 0) {
        return;
    }

    DLManagedTensorVersioned *tensor = NULL;
    DLPackVersion version = {1, 3};
    mts_status_t status = view.as_dlpack(view.ptr, &tensor, TA_CPU, NULL, version);
    if (status != MTS_SUCCESS || tensor == NULL) {
        printf(" as_dlpack");
        print_status(status);
        return;
    }
    const DLTensor *dl = &tensor->dl_tensor;
    size_t total = 1;
    for (int d = 0; d < dl->ndim; d++) {
        total *= (size_t)dl->shape[d];
    }
    if ((uintptr_t)dl->ndim != ndim || !ta_dtype_eq(dl->dtype, dtype)) {
        printf(" BAD-dlpack");
    } else if (total == 0) {
        printf(" (no values)");
    } else {
        size_t per_sample = total / (size_t)dl->shape[0];
        size_t elsize = ta_elsize(dl->dtype);
        for (size_t k = 0; k < total; k++) {
            if (k % per_sample == 0) {
                indent(depth + 1);
                printf("[%zu]", k / per_sample);
            }
            size_t rest = k;
            int64_t position = 0;
            for (int d = dl->ndim - 1; d >= 0; d--) {
                size_t index = rest % (size_t)dl->shape[d];
                rest /= (size_t)dl->shape[d];
                int64_t stride = 1;
                if (dl->strides != NULL) {
                    stride = dl->strides[d];
                } else {
                    for (int e = d + 1; e < dl->ndim; e++) {
                        stride *= dl->shape[e];
                    }
                }
                position += (int64_t)index * stride;
            }
            printf(" ");
            print_scalar(dl->dtype, (const char *)dl->data + dl->byte_offset +
                                        (size_t)position * elsize);
        }
    }
    if (tensor->deleter != NULL) {
        tensor->deleter(tensor);
    }
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the gradient parameters of `block` (pointers into the library), sorted when
 * `sorted`; returns the count, -1 on error (printed) */
static int gradient_list(mts_block_t *block, int sorted, const char **out, int capacity) {
    const char *const *parameters = NULL;
    uintptr_t count = 99;
    mts_status_t status = mts_block_gradients_list(block, &parameters, &count);
    if (status != MTS_SUCCESS) {
        printf(" gradients_list");
        print_status(status);
        return -1;
    }
    if (count > (uintptr_t)capacity || (count != 0 && parameters == NULL)) {
        printf(" BAD-gradients_list count=%zu", (size_t)count);
        return -1;
    }
    for (uintptr_t i = 0; i < count; i++) {
        out[i] = parameters[i];
    }
    if (sorted) {
        qsort(out, count, sizeof(*out), compare_strings);
    }
    return (int)count;
}

static void print_block(int depth, mts_block_t *block, int sorted) {
    DLDevice device = {kDLCPU, -1};
    DLDataType dtype = {0, 0, 0};
    indent(depth);
    printf("block device");
    if (print_status(mts_block_device(block, &device)) == MTS_SUCCESS) {
        printf(" ");
        print_device(device);
    }
    printf(" dtype");
    if (print_status(mts_block_dtype(block, &dtype)) == MTS_SUCCESS) {
        printf(" ");
        print_dtype(dtype);
    }
    print_data(depth, block);

    /* the axes: from the data's rank */
    const uintptr_t *shape = NULL;
    uintptr_t ndim = 0;
    block_shape(block, &shape, &ndim);
    for (uintptr_t axis = 0; axis < ndim; axis++) {
        indent(depth);
        printf("%s ", axis == 0 ? "samples" : (axis + 1 == ndim ? "properties" : "component"));
        const mts_labels_t *labels = mts_block_labels(block, axis);
        if (labels == NULL) {
            print_null();
            continue;
        }
        print_labels(labels);
        labels_release(labels);
    }

    const char *parameters[16];
    indent(depth);
    printf("gradients%s=[", sorted ? "(sorted)" : "");
    int count = gradient_list(block, sorted, parameters, 16);
    print_list(parameters, count < 0 ? 0 : (size_t)count);
    printf("]");
    for (int i = 0; i < count; i++) {
        mts_block_t *gradient = NULL;
        indent(depth);
        printf("gradient '%s'", parameters[i]);
        if (print_status(mts_block_gradient(block, parameters[i], &gradient)) == MTS_SUCCESS) {
            print_block(depth + 1, gradient, sorted);
        }
    }
}

/* the number of blocks of `tensor` (from its keys), -1 on error */
static long tensor_count(const mts_tensormap_t *tensor) {
    const mts_labels_t *keys = mts_tensormap_keys(tensor);
    if (keys == NULL) {
        return -1;
    }
    const int32_t *values = NULL;
    uintptr_t count = 0, size = 0;
    long result = -1;
    if (mts_labels_values_cpu(keys, &values, &count, &size) == MTS_SUCCESS) {
        result = (long)count;
    }
    labels_release(keys);
    return result;
}

static void print_info(int depth, mts_tensormap_t *tensor) {
    const char *const *keys = NULL;
    uintptr_t count = 99;
    indent(depth);
    printf("info");
    if (print_status(mts_tensormap_info_keys(tensor, &keys, &count)) != MTS_SUCCESS) {
        return;
    }
    if (count > 64 || (count != 0 && keys == NULL)) {
        printf(" BAD-info_keys count=%zu", (size_t)count);
        return;
    }
    printf(" count=%zu", (size_t)count);
    for (uintptr_t i = 0; i < count; i++) {
        const char *value = NULL;
        printf(" ");
        print_quoted(keys[i]);
        printf("=");
        mts_status_t status = mts_tensormap_get_info(tensor, keys[i], &value);
        if (status != MTS_SUCCESS) {
            print_status(status);
        } else {
            print_quoted(value);
        }
    }
}

static void print_tensor(int depth, mts_tensormap_t *tensor, int sorted) {
    indent(depth);
    printf("keys ");
    const mts_labels_t *keys = mts_tensormap_keys(tensor);
    if (keys == NULL) {
        print_null();
        return;
    }
    print_labels(keys);
    labels_release(keys);
    print_info(depth, tensor);
    DLDevice device = {kDLCPU, -1};
    DLDataType dtype = {0, 0, 0};
    indent(depth);
    printf("tensor device");
    if (print_status(mts_tensormap_device(tensor, &device)) == MTS_SUCCESS) {
        printf(" ");
        print_device(device);
    }
    printf(" dtype");
    if (print_status(mts_tensormap_dtype(tensor, &dtype)) == MTS_SUCCESS) {
        printf(" ");
        print_dtype(dtype);
    }
    long count = tensor_count(tensor);
    for (long i = 0; i < count; i++) {
        mts_block_t *block = NULL;
        indent(depth);
        printf("block_by_id %ld", i);
        if (print_status(mts_tensormap_block_by_id(tensor, &block, (uintptr_t)i)) ==
            MTS_SUCCESS) {
            print_block(depth + 1, block, sorted);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* the pools                                                                */

struct block_slot {
    mts_block_t *block; /* NULL: empty */
    int sorted;         /* gradients in hash-map order somewhere inside */
};

struct tensor_slot {
    mts_tensormap_t *tensor; /* NULL: empty */
    int sorted;
};

static struct block_slot blocks[BLOCK_SLOTS];
static struct tensor_slot tensors[TENSOR_SLOTS];

/* puts `block` (NULL: none) in a slot, freeing the block there */
static void block_slot_put(int slot, mts_block_t *block, int sorted) {
    if (blocks[slot].block != NULL) {
        report_failure(mts_block_free(blocks[slot].block), " implicit-block-free");
    }
    blocks[slot].block = block;
    blocks[slot].sorted = sorted;
}

/* puts `tensor` (NULL: none) in a slot, freeing the map there */
static void tensor_slot_put(int slot, mts_tensormap_t *tensor, int sorted) {
    if (tensors[slot].tensor != NULL) {
        report_failure(mts_tensormap_free(tensors[slot].tensor), " implicit-tensor-free");
    }
    tensors[slot].tensor = tensor;
    tensors[slot].sorted = sorted;
}

/* frees the distinct blocks among `n` (NULL: taken by a map) */
static void free_blocks(mts_block_t *const *given, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int repeated = 0;
        for (size_t k = 0; k < i; k++) {
            repeated |= given[k] == given[i];
        }
        if (given[i] != NULL && !repeated) {
            mts_block_free(given[i]);
        }
    }
}

static int block_is_live(int slot, const void *context) {
    (void)context;
    return blocks[slot].block != NULL;
}

static int tensor_is_live(int slot, const void *context) {
    (void)context;
    return tensors[slot].tensor != NULL;
}

/* a random slot holding a block (a map), -1 when there is none */
static int live_block(struct rng *rng) {
    return rng_slot(rng, BLOCK_SLOTS, block_is_live, NULL);
}

static int live_tensor(struct rng *rng) {
    return rng_slot(rng, TENSOR_SLOTS, tensor_is_live, NULL);
}

/* a block to read from for `op`: a pool block, or a block of a pool tensor;
 * prints `op` and where the block comes from, or " skip" and returns NULL
 * when there is none */
static mts_block_t *any_block(struct rng *rng, const char *op, int *sorted) {
    printf("%s", op);
    if (rng_percent(rng, 50)) {
        int slot = live_tensor(rng);
        if (slot >= 0) {
            long count = tensor_count(tensors[slot].tensor);
            if (count > 0) {
                uintptr_t index = rng_below(rng, (uint32_t)count);
                mts_block_t *block = NULL;
                if (mts_tensormap_block_by_id(tensors[slot].tensor, &block, index) ==
                    MTS_SUCCESS) {
                    printf(" tensor%d.block%zu", slot, (size_t)index);
                    *sorted = tensors[slot].sorted;
                    return block;
                }
            }
        }
    }
    int slot = live_block(rng);
    if (slot < 0) {
        printf(" skip");
        return NULL;
    }
    printf(" block%d", slot);
    *sorted = blocks[slot].sorted;
    return blocks[slot].block;
}

/* ------------------------------------------------------------------------ */
/* schemas: the names shared by the blocks of a map                         */

struct name_set {
    int n;
    const char *names[3];
};

static const struct name_set SAMPLE_NAMES[] = {
    {1, {"s"}}, {2, {"system", "atom"}}, {3, {"s", "t", "u"}}, {1, {"sample"}}};
static const struct name_set PROPERTY_NAMES[] = {{1, {"p"}}, {2, {"p", "q"}}, {1, {"n"}}};
static const struct name_set GRADIENT_SAMPLE_NAMES[] = {
    {1, {"sample"}}, {2, {"sample", "atom"}}, {3, {"sample", "s2", "s3"}}};
/* the last two share a name with some samples or properties */
static const struct name_set KEY_NAMES[] = {{1, {"k"}},         {2, {"k1", "k2"}},
                                            {3, {"a", "b", "c"}}, {1, {"key"}},
                                            {2, {"key", "s"}},    {2, {"k", "p"}}};
static const char *const COMPONENT_NAMES[] = {"x", "y", "c", "m"};
static const char *const EXTRA_COMPONENT_NAMES[] = {"xyz", "dir"};
static const char *const PARAMETERS[] = {"g", "positions", "cell", "strain"};

struct component_spec {
    const char *name;
    size_t count;
    int32_t values[4];
};

struct gradient_schema {
    const char *parameter;
    struct name_set samples;
    int n_extra;
    struct component_spec extra[2];
    int nested; /* with a gradient of its own, 'h' */
};

struct schema {
    DLDataType dtype;
    DLDevice device;
    struct name_set samples;
    int n_components;
    struct component_spec components[2];
    struct name_set properties;
    int n_gradients;
    struct gradient_schema gradients[2];
    struct name_set keys;
    int shared_components; /* the same component labels in every block */
    int shared_properties; /* the same property labels in every block */
};

static void gen_component(struct rng *rng, struct component_spec *component, const char *name) {
    component->name = name;
    component->count = 1 + rng_below(rng, 3);
    if (rng_percent(rng, 70)) {
        for (size_t i = 0; i < component->count; i++) {
            component->values[i] = (int32_t)i;
        }
    } else {
        /* distinct values in [-2, 5] */
        size_t made = 0;
        while (made < component->count) {
            int32_t value = rng_range(rng, -2, 5);
            int seen = 0;
            for (size_t i = 0; i < made; i++) {
                seen |= component->values[i] == value;
            }
            if (!seen) {
                component->values[made++] = value;
            }
        }
    }
}

/* `count` distinct names out of `pool` */
static void pick_names(struct rng *rng, const char *const *pool, int pool_size, int count,
                       const char **out) {
    int order[8];
    rng_order(rng, order, pool_size);
    for (int i = 0; i < count; i++) {
        out[i] = pool[order[i]];
    }
}

static void gen_schema(struct rng *rng, struct schema *schema) {
    memset(schema, 0, sizeof(*schema));
    schema->dtype = gen_dtype(rng);
    schema->device = rng_percent(rng, 8) ? CUDA0 : TA_CPU;
    schema->samples = SAMPLE_NAMES[rng_below(rng, COUNT_OF(SAMPLE_NAMES))];
    uint32_t kind = rng_below(rng, 100);
    schema->n_components = kind < 45 ? 0 : (kind < 80 ? 1 : 2);
    const char *names[4];
    pick_names(rng, COMPONENT_NAMES, 4, schema->n_components, names);
    for (int i = 0; i < schema->n_components; i++) {
        gen_component(rng, &schema->components[i], names[i]);
    }
    schema->properties = PROPERTY_NAMES[rng_below(rng, COUNT_OF(PROPERTY_NAMES))];
    kind = rng_below(rng, 100);
    schema->n_gradients = kind < 35 ? 0 : (kind < 80 ? 1 : 2);
    pick_names(rng, PARAMETERS, 4, schema->n_gradients, names);
    for (int g = 0; g < schema->n_gradients; g++) {
        struct gradient_schema *gradient = &schema->gradients[g];
        gradient->parameter = names[g];
        gradient->samples = GRADIENT_SAMPLE_NAMES[rng_below(rng, COUNT_OF(GRADIENT_SAMPLE_NAMES))];
        kind = rng_below(rng, 100);
        gradient->n_extra = kind < 60 ? 0 : (kind < 95 ? 1 : 2);
        const char *extra[2];
        pick_names(rng, EXTRA_COMPONENT_NAMES, 2, gradient->n_extra, extra);
        for (int e = 0; e < gradient->n_extra; e++) {
            gen_component(rng, &gradient->extra[e], extra[e]);
        }
        gradient->nested = rng_percent(rng, 4);
    }
    schema->keys = KEY_NAMES[rng_below(rng, COUNT_OF(KEY_NAMES))];
    schema->shared_components = rng_percent(rng, 80);
    schema->shared_properties = rng_percent(rng, 50);
}

static void print_schema(const struct schema *schema) {
    printf(" %s ", dtype_name(schema->dtype));
    print_device(schema->device);
    printf(" comps=%d grads=%d", schema->n_components, schema->n_gradients);
}

static const mts_labels_t *component_make(const struct component_spec *component,
                                          DLDevice device) {
    struct labels_spec spec;
    spec_init(&spec, 1, &component->name, device);
    for (size_t i = 0; i < component->count; i++) {
        spec_add(&spec, &component->values[i]);
    }
    return spec_make(&spec, "component");
}

/* random samples for a block (`first_below` > 0: gradient samples, whose
 * first column is in [0, first_below)) */
static void gen_samples(struct rng *rng, struct labels_spec *spec, const struct name_set *names,
                        DLDevice device, int gradient, size_t values_samples) {
    spec_init(spec, names->n, names->names, device);
    size_t wanted;
    if (gradient) {
        wanted = values_samples == 0 ? 0 : rng_below(rng, 6);
    } else {
        wanted = rng_percent(rng, 12) ? 0 : 1 + rng_below(rng, 6);
    }
    int32_t low[MAX_DIMS] = {0, 0, 0, 0};
    int32_t high[MAX_DIMS] = {7, 2, 2, 2};
    if (gradient) {
        high[0] = (int32_t)values_samples - 1;
        low[1] = -1;
    } else if (rng_percent(rng, 20)) {
        low[0] = -3;
    }
    spec_random_rows(rng, spec, wanted, low, high);
    if (rng_percent(rng, 45)) {
        spec_sort(spec);
    }
    spec->layout = gen_layout(rng);
    spec->assume_unique = rng_percent(rng, 10);
}

static void gen_properties(struct rng *rng, struct labels_spec *spec, const struct name_set *names,
                           DLDevice device) {
    spec_init(spec, names->n, names->names, device);
    size_t wanted = rng_percent(rng, 10) ? 0 : 1 + rng_below(rng, 4);
    int32_t low[MAX_DIMS] = {0, 0, 0, 0};
    int32_t high[MAX_DIMS] = {4, 1, 1, 1};
    spec_random_rows(rng, spec, wanted, low, high);
    if (rng_percent(rng, 60)) {
        spec_sort(spec);
    }
    spec->layout = gen_layout(rng);
}

/* the errors mts_block can be asked to report */
enum block_error {
    BE_NONE = 0,
    BE_RANK,
    BE_SAMPLES,
    BE_DUPLICATE_COMPONENTS,
    BE_COMPONENT_COUNT,
    BE_PROPERTIES,
    BE_SAMPLES_DEVICE,
    BE_COMPONENT_DEVICE,
    BE_PROPERTIES_DEVICE,
    BE_COMPONENT_2D,
    BE_COMPONENT_EMPTY,
    BE_NULL_SAMPLES,
    BE_NULL_PROPERTIES,
    BE_NULL_COMPONENTS,
    BE_NULL_COMPONENT,
    BE_COUNT,
};

static const char *const BLOCK_ERROR_NAMES[] = {
    "none",         "rank",         "samples",          "duplicate-components",
    "component-count", "properties", "samples-device",  "component-device",
    "properties-device", "component-2d", "component-empty", "null-samples",
    "null-properties", "null-components", "null-component",
};

/* labels shared by the blocks of a map (NULL: made for each block) */
struct shared_labels {
    const mts_labels_t *components[2];
    const mts_labels_t *properties;
};

/* whether all the labels of a block to make were made */
static int labels_made(const mts_labels_t *samples, const mts_labels_t *const *components,
                       size_t n_components, const mts_labels_t *properties) {
    int made = samples != NULL && properties != NULL;
    for (size_t c = 0; c < n_components; c++) {
        made &= components[c] != NULL;
    }
    return made;
}

/* frees our references to the labels of a block */
static void labels_release_all(const mts_labels_t *samples, const mts_labels_t *const *components,
                               size_t n_components, const mts_labels_t *properties) {
    labels_release(samples);
    for (size_t c = 0; c < n_components; c++) {
        labels_release(components[c]);
    }
    labels_release(properties);
}

/* new values for a block, with an origin other than the test arrays' one on request */
static mts_array_t new_data(DLDataType dtype, const uintptr_t *shape, size_t ndim, DLDevice device,
                            int with_other_origin) {
    mts_array_t data = ta_mts(make_values(dtype, shape, ndim, device));
    if (with_other_origin) {
        data.origin = other_origin;
    }
    return data;
}

/* a gradient for `parent` following `gradient`: samples pointing at the
 * parent's samples, the extra components then the parent's components, the
 * parent's properties (the same labels or equal ones). Prints failures. */
static void add_schema_gradient(struct rng *rng, mts_block_t *parent, DLDataType dtype,
                                DLDevice device, const struct gradient_schema *gradient,
                                int other_origin_values, int depth) {
    const uintptr_t *parent_shape = NULL;
    uintptr_t parent_ndim = 0;
    if (block_shape(parent, &parent_shape, &parent_ndim) != 0 || parent_ndim < 2) {
        printf(" gradient-parent UNEXPECTED-FAILURE");
        return;
    }
    uintptr_t shape[TA_MAX_NDIM];
    size_t ndim = 0;
    const mts_labels_t *components[TA_MAX_NDIM];
    size_t n_components = 0;

    struct labels_spec samples_spec;
    gen_samples(rng, &samples_spec, &gradient->samples, device, 1, parent_shape[0]);
    const mts_labels_t *samples = spec_make(&samples_spec, "gradient-samples");
    shape[ndim++] = samples_spec.count;
    for (int e = 0; e < gradient->n_extra; e++) {
        components[n_components++] = component_make(&gradient->extra[e], device);
        shape[ndim++] = gradient->extra[e].count;
    }
    for (uintptr_t axis = 1; axis + 1 < parent_ndim; axis++) {
        components[n_components++] = mts_block_labels(parent, axis);
        shape[ndim++] = parent_shape[axis];
    }
    const mts_labels_t *properties = mts_block_labels(parent, parent_ndim - 1);
    shape[ndim++] = parent_shape[parent_ndim - 1];
    if (properties != NULL && rng_percent(rng, 30)) {
        /* equal labels instead of the same */
        struct labels_spec spec;
        if (labels_read(properties, &spec) == 0) {
            spec.device = device;
            const mts_labels_t *equal = spec_make(&spec, "gradient-properties");
            labels_release(properties);
            properties = equal;
        }
    }
    mts_block_t *block = NULL;
    if (labels_made(samples, components, n_components, properties)) {
        block = mts_block(new_data(dtype, shape, ndim, device, other_origin_values), samples,
                          components, n_components, properties);
        if (block == NULL) {
            printf(" gradient-block UNEXPECTED-FAILURE");
            print_error();
        }
    }
    labels_release_all(samples, components, n_components, properties);
    if (block == NULL) {
        return;
    }
    mts_status_t status = mts_block_add_gradient(parent, gradient->parameter, block);
    if (status != MTS_SUCCESS) {
        printf(" add_gradient '%s'", gradient->parameter);
        print_status(status);
        if (!other_origin_values) {
            printf(" UNEXPECTED-FAILURE");
        }
        return;
    }
    if (gradient->nested && depth == 0) {
        mts_block_t *inner = NULL;
        if (mts_block_gradient(parent, gradient->parameter, &inner) == MTS_SUCCESS) {
            struct gradient_schema nested;
            memset(&nested, 0, sizeof(nested));
            nested.parameter = "h";
            nested.samples = GRADIENT_SAMPLE_NAMES[0];
            add_schema_gradient(rng, inner, dtype, device, &nested, other_origin_values,
                                depth + 1);
        }
    }
}

/* a block following `schema`, with one construction error on request, and
 * its gradients when there is no error. Prints " -> ok" or the error, and
 * whether the block's labels are the ones given. */
static mts_block_t *schema_block(struct rng *rng, const struct schema *schema,
                                 const struct shared_labels *shared, enum block_error error,
                                 int other_origin_values) {
    DLDevice device = schema->device;
    struct labels_spec samples_spec, properties_spec;
    gen_samples(rng, &samples_spec, &schema->samples, device, 0, 0);
    gen_properties(rng, &properties_spec, &schema->properties, device);
    if (error == BE_SAMPLES_DEVICE) {
        samples_spec.device = other_device(device);
    } else if (error == BE_PROPERTIES_DEVICE) {
        properties_spec.device = other_device(device);
    }

    const mts_labels_t *components[3] = {NULL, NULL, NULL};
    uintptr_t component_counts[3] = {0, 0, 0};
    int n_components = schema->n_components;
    for (int c = 0; c < n_components; c++) {
        struct component_spec component = schema->components[c];
        if (shared != NULL && shared->components[c] != NULL) {
            components[c] = mts_labels_clone(shared->components[c]);
        } else {
            if (shared != NULL && rng_percent(rng, 50)) {
                /* other values for this block */
                gen_component(rng, &component, component.name);
            }
            components[c] = component_make(&component, device);
        }
        component_counts[c] = component.count;
    }
    int needs_component = error == BE_DUPLICATE_COMPONENTS || error == BE_COMPONENT_COUNT ||
                          error == BE_COMPONENT_DEVICE || error == BE_COMPONENT_2D ||
                          error == BE_COMPONENT_EMPTY || error == BE_NULL_COMPONENT ||
                          error == BE_NULL_COMPONENTS;
    if (needs_component && n_components == 0) {
        struct component_spec component;
        gen_component(rng, &component, "x");
        components[0] = component_make(&component, device);
        component_counts[0] = component.count;
        n_components = 1;
    }
    if (error == BE_DUPLICATE_COMPONENTS) {
        /* a last component with the same name as the first */
        struct component_spec component;
        struct labels_spec first;
        labels_read(components[0], &first);
        gen_component(rng, &component, first.names[0]);
        components[n_components] = component_make(&component, device);
        component_counts[n_components] = component.count;
        n_components++;
    }
    int target = (int)rng_below(rng, (uint32_t)n_components);
    if (error == BE_COMPONENT_DEVICE || error == BE_COMPONENT_2D || error == BE_COMPONENT_EMPTY) {
        struct labels_spec spec;
        labels_read(components[target], &spec);
        spec.device = error == BE_COMPONENT_DEVICE ? other_device(device) : device;
        if (error == BE_COMPONENT_2D) {
            static const char *const two[] = {"x", "y"};
            struct labels_spec wide;
            spec_init(&wide, 2, two, device);
            int32_t low[2] = {0, 0}, high[2] = {1, 2};
            spec_random_rows(rng, &wide, 1 + rng_below(rng, 3), low, high);
            spec = wide;
        } else if (error == BE_COMPONENT_EMPTY) {
            spec.count = 0;
        }
        const mts_labels_t *replaced = spec_make(&spec, "component");
        labels_release(components[target]);
        components[target] = replaced;
        component_counts[target] = spec.count;
    }

    const mts_labels_t *samples = spec_make(&samples_spec, "samples");
    const mts_labels_t *properties = shared != NULL && shared->properties != NULL
                                         ? mts_labels_clone(shared->properties)
                                         : spec_make(&properties_spec, "properties");
    size_t properties_count = properties_spec.count;
    if (shared != NULL && shared->properties != NULL) {
        struct labels_spec spec;
        labels_read(shared->properties, &spec);
        properties_count = spec.count;
    }

    uintptr_t shape[TA_MAX_NDIM];
    size_t ndim = 0;
    shape[ndim++] = samples_spec.count;
    for (int c = 0; c < n_components; c++) {
        shape[ndim++] = component_counts[c];
    }
    shape[ndim++] = properties_count;
    switch (error) {
    case BE_RANK:
        if (rng_percent(rng, 50)) {
            shape[ndim++] = 1;
        } else {
            ndim--;
        }
        break;
    case BE_SAMPLES: shape[0] += 1 + rng_below(rng, 2); break;
    case BE_COMPONENT_COUNT: shape[1 + target] += 1; break;
    case BE_PROPERTIES: shape[ndim - 1] += 1; break;
    default: break;
    }

    mts_block_t *block = NULL;
    if (labels_made(samples, components, (size_t)n_components, properties)) {
        mts_array_t data = new_data(schema->dtype, shape, ndim, device, other_origin_values);
        const mts_labels_t *const *components_arg = components;
        const mts_labels_t *with_null[3];
        if (error == BE_NULL_COMPONENTS) {
            components_arg = NULL;
        } else if (error == BE_NULL_COMPONENT) {
            memcpy(with_null, components, sizeof(with_null));
            with_null[target] = NULL;
            components_arg = with_null;
        }
        struct test_array *values = ta_cast(data.ptr);
        block = mts_block(data, error == BE_NULL_SAMPLES ? NULL : samples, components_arg,
                          (uintptr_t)n_components, error == BE_NULL_PROPERTIES ? NULL : properties);
        printf(" ->");
        if (block == NULL) {
            print_null();
            printf(" data-destroyed=%d", ta_calls(values, TA_DESTROY));
            if (error == BE_NONE) {
                printf(" UNEXPECTED-FAILURE");
            }
        } else {
            printf(" ok");
            if (error != BE_NONE) {
                printf(" UNEXPECTED-SUCCESS");
            }
            /* the block keeps the given labels */
            int same = 1;
            for (uintptr_t axis = 0; axis < ndim; axis++) {
                const mts_labels_t *given = axis == 0 ? samples
                                            : axis + 1 == ndim
                                                ? properties
                                                : components[axis - 1];
                const mts_labels_t *stored = mts_block_labels(block, axis);
                same &= stored == given;
                labels_release(stored);
            }
            printf(" labels-same=%d", same);
        }
    }
    labels_release_all(samples, components, (size_t)n_components, properties);

    if (block != NULL) {
        for (int g = 0; g < schema->n_gradients; g++) {
            add_schema_gradient(rng, block, schema->dtype, device, &schema->gradients[g],
                                other_origin_values, 0);
        }
    }
    return block;
}

/* ------------------------------------------------------------------------ */
/* block operations                                                         */

static void op_block_new(struct rng *rng) {
    struct schema schema;
    gen_schema(rng, &schema);
    enum block_error error = BE_NONE;
    if (rng_percent(rng, 30)) {
        error = (enum block_error)(1 + rng_below(rng, BE_COUNT - 1));
    }
    int slot = (int)rng_below(rng, BLOCK_SLOTS);
    printf("block_new slot=%d", slot);
    print_schema(&schema);
    printf(" error=%s", BLOCK_ERROR_NAMES[error]);
    mts_block_t *block = schema_block(rng, &schema, NULL, error, 0);
    if (block != NULL) {
        block_slot_put(slot, block, 0);
        print_block(0, block, 0);
    }
}

/* the errors mts_block_add_gradient can be asked to report */
enum gradient_error {
    GE_NONE = 0,
    GE_ORIGIN,
    GE_DEVICE,
    GE_DTYPE,
    GE_NO_SAMPLE_DIMENSION,
    GE_FIRST_NOT_SAMPLE,
    GE_NEGATIVE_SAMPLE,
    GE_SAMPLE_TOO_LARGE,
    GE_FEWER_COMPONENTS,
    GE_PROPERTIES_VALUES,
    GE_PROPERTIES_NAMES,
    GE_COMPONENTS_VALUES,
    GE_COUNT,
};

static const char *const GRADIENT_ERROR_NAMES[] = {
    "none",           "origin",         "device",         "dtype",
    "no-sample-dimension", "first-not-sample", "negative-sample", "sample-too-large",
    "fewer-components", "properties-values",
    "properties-names", "components-values",
};

static void op_add_gradient(struct rng *rng) {
    int slot = skip_when_none(live_block(rng), "add_gradient");
    if (slot < 0) {
        return;
    }
    mts_block_t *parent = blocks[slot].block;
    int sorted = blocks[slot].sorted;
    const char *parameters[16];
    int n_parameters = gradient_list(parent, sorted, parameters, 16);
    const char *on = "block";
    if (n_parameters > 0 && rng_percent(rng, 12)) {
        /* a gradient of a gradient */
        const char *parameter = parameters[rng_below(rng, (uint32_t)n_parameters)];
        mts_block_t *inner = NULL;
        if (mts_block_gradient(parent, parameter, &inner) == MTS_SUCCESS) {
            parent = inner;
            on = parameter;
            n_parameters = gradient_list(parent, sorted, parameters, 16);
        }
    }
    static const char *const NAMES[] = {"g", "positions", "cell", "strain", "h"};
    const char *parameter = NAMES[rng_below(rng, COUNT_OF(NAMES))];
    int exists = 0;
    for (int i = 0; i < n_parameters; i++) {
        exists |= strcmp(parameters[i], parameter) == 0;
    }
    enum gradient_error error = GE_NONE;
    if (rng_percent(rng, 45)) {
        error = (enum gradient_error)(1 + rng_below(rng, GE_COUNT - 1));
    }

    /* what the library says about the parent */
    const uintptr_t *parent_shape = NULL;
    uintptr_t parent_ndim = 0;
    DLDataType dtype = TA_FLOAT64;
    DLDevice device = TA_CPU;
    if (block_shape(parent, &parent_shape, &parent_ndim) != 0 || parent_ndim < 2 ||
        mts_block_dtype(parent, &dtype) != MTS_SUCCESS ||
        mts_block_device(parent, &device) != MTS_SUCCESS) {
        printf("add_gradient block%d UNEXPECTED-FAILURE", slot);
        return;
    }
    size_t n_samples = parent_shape[0];
    printf("add_gradient block%d on=%s parameter=%s error=%s", slot, on, parameter,
           GRADIENT_ERROR_NAMES[error]);

    DLDevice gradient_device = error == GE_DEVICE ? other_device(device) : device;
    DLDataType gradient_dtype = error == GE_DTYPE ? other_dtype(rng, dtype) : dtype;

    /* samples */
    struct labels_spec samples_spec;
    struct name_set samples_names = GRADIENT_SAMPLE_NAMES[rng_below(rng, 3)];
    if (error == GE_NO_SAMPLE_DIMENSION) {
        samples_names.n = 0;
    } else if (error == GE_FIRST_NOT_SAMPLE) {
        static const struct name_set wrong = {2, {"atom", "sample"}};
        samples_names = wrong;
    }
    gen_samples(rng, &samples_spec, &samples_names, gradient_device, 1, n_samples);
    if (error == GE_NEGATIVE_SAMPLE || error == GE_SAMPLE_TOO_LARGE) {
        int32_t row[MAX_DIMS] = {0, 0, 0, 0};
        row[0] = error == GE_NEGATIVE_SAMPLE ? -1 - (int32_t)rng_below(rng, 3)
                                              : (int32_t)(n_samples + rng_below(rng, 2));
        for (int j = 1; j < samples_spec.n; j++) {
            row[j] = 5;
        }
        spec_add(&samples_spec, row);
        if (rng_percent(rng, 50)) {
            spec_sort(&samples_spec);
        }
    }

    /* components: extra ones, then the parent's */
    const mts_labels_t *components[TA_MAX_NDIM];
    uintptr_t shape[TA_MAX_NDIM];
    size_t n_components = 0;
    size_t ndim = 0;
    shape[ndim++] = samples_spec.count;
    /* (components with two dimensions or no entry are refused by mts_block
     * already, see block_new) */
    int n_extra = rng_percent(rng, 35) ? 1 : 0;
    /* a name the parent's components do not use */
    const char *extra_name = "xyz";
    for (uintptr_t axis = 1; axis + 1 < parent_ndim; axis++) {
        const mts_labels_t *labels = mts_block_labels(parent, axis);
        const char *const *names = NULL;
        uintptr_t count = 0;
        if (labels != NULL && mts_labels_dimensions(labels, &names, &count) == MTS_SUCCESS &&
            count == 1 && strcmp(names[0], extra_name) == 0) {
            extra_name = "abc";
        }
        labels_release(labels);
    }
    for (int e = 0; e < n_extra; e++) {
        struct component_spec component;
        gen_component(rng, &component, extra_name);
        components[n_components++] = component_make(&component, gradient_device);
        shape[ndim++] = component.count;
    }
    size_t parent_components = parent_ndim - 2;
    size_t skip = 0;
    if (error == GE_FEWER_COMPONENTS && parent_components > 0) {
        skip = 1;
    }
    int changed = error == GE_COMPONENTS_VALUES && parent_components > 0
                      ? (int)(1 + skip + rng_below(rng, (uint32_t)(parent_components - skip)))
                      : -1;
    for (uintptr_t axis = 1 + skip; axis + 1 < parent_ndim; axis++) {
        const mts_labels_t *labels = mts_block_labels(parent, axis);
        struct labels_spec spec;
        int equal_copy = gradient_device.device_type != device.device_type ||
                         (int)axis == changed || rng_percent(rng, 30);
        if (labels != NULL && equal_copy && labels_read(labels, &spec) == 0) {
            spec.device = gradient_device;
            if ((int)axis == changed) {
                /* same count, other values */
                for (size_t i = 0; i < spec.count; i++) {
                    spec.values[i] += 10;
                }
            }
            labels_release(labels);
            labels = spec_make(&spec, "component");
        }
        components[n_components++] = labels;
        shape[ndim++] = parent_shape[axis];
    }

    /* properties */
    const mts_labels_t *properties = mts_block_labels(parent, parent_ndim - 1);
    size_t properties_count = parent_shape[parent_ndim - 1];
    int properties_copy = gradient_device.device_type != device.device_type ||
                          error == GE_PROPERTIES_VALUES || error == GE_PROPERTIES_NAMES ||
                          rng_percent(rng, 30);
    struct labels_spec spec;
    if (properties != NULL && properties_copy && labels_read(properties, &spec) == 0) {
        spec.device = gradient_device;
        if (error == GE_PROPERTIES_VALUES) {
            if (spec.count > 0 && rng_percent(rng, 70)) {
                spec.values[0] += 100;
            } else {
                int32_t row[MAX_DIMS];
                for (int j = 0; j < MAX_DIMS; j++) {
                    row[j] = 99;
                }
                spec_add(&spec, row);
                properties_count = spec.count;
            }
        } else if (error == GE_PROPERTIES_NAMES) {
            static const char *const renamed[MAX_DIMS] = {"other", "o2", "o3", "o4",
                                                          "o5",    "o6", "o7", "o8"};
            for (int j = 0; j < spec.n; j++) {
                spec.names[j] = renamed[j];
            }
        }
        labels_release(properties);
        properties = spec_make(&spec, "properties");
    }
    shape[ndim++] = properties_count;

    const mts_labels_t *samples = spec_make(&samples_spec, "samples");
    mts_block_t *gradient = NULL;
    if (labels_made(samples, components, n_components, properties)) {
        gradient = mts_block(new_data(gradient_dtype, shape, ndim, gradient_device,
                                      error == GE_ORIGIN),
                             samples, components, n_components, properties);
        if (gradient == NULL) {
            printf(" gradient-block");
            print_null();
            /* labels with no dimension are always on CPU */
            if (error != GE_NO_SAMPLE_DIMENSION || gradient_device.device_type == kDLCPU) {
                printf(" UNEXPECTED-FAILURE");
            }
        }
    }
    labels_release_all(samples, components, n_components, properties);
    if (gradient == NULL) {
        return;
    }
    struct test_array *gradient_values = block_values(gradient);
    printf(" exists=%d ->", exists);
    mts_status_t status = print_status(mts_block_add_gradient(parent, parameter, gradient));
    printf(" gradient-data-destroyed=%d", destroyed(gradient_values));
    /* errors that can not happen with these inputs */
    int expected_error = exists || error == GE_ORIGIN || error == GE_DEVICE || error == GE_DTYPE ||
                         error == GE_NO_SAMPLE_DIMENSION || error == GE_FIRST_NOT_SAMPLE ||
                         error == GE_NEGATIVE_SAMPLE || error == GE_SAMPLE_TOO_LARGE ||
                         error == GE_PROPERTIES_VALUES || error == GE_PROPERTIES_NAMES ||
                         (error == GE_FEWER_COMPONENTS && parent_components > 0) ||
                         (error == GE_COMPONENTS_VALUES && parent_components > 0);
    if (status == MTS_SUCCESS && expected_error) {
        printf(" UNEXPECTED-SUCCESS");
    } else if (status != MTS_SUCCESS && !expected_error) {
        printf(" UNEXPECTED-FAILURE");
    }
    print_block(0, blocks[slot].block, blocks[slot].sorted);
}

static void op_block_copy(struct rng *rng) {
    int sorted = 0;
    mts_block_t *block = any_block(rng, "block_copy", &sorted);
    if (block == NULL) {
        return;
    }
    int slot = (int)rng_below(rng, BLOCK_SLOTS);
    printf(" into=%d ->", slot);
    mts_block_t *copy = mts_block_copy(block);
    if (!print_ok_or_null(copy)) {
        printf(" UNEXPECTED-FAILURE");
        return;
    }
    /* labels are shared, data is not */
    mts_array_t original_view, copy_view;
    memset(&original_view, 0, sizeof(original_view));
    memset(&copy_view, 0, sizeof(copy_view));
    mts_block_data(block, &original_view);
    mts_block_data(copy, &copy_view);
    printf(" data-shared=%d labels-shared=", original_view.ptr == copy_view.ptr);
    const uintptr_t *shape = NULL;
    uintptr_t ndim = 0;
    if (copy_view.shape == NULL || copy_view.shape(copy_view.ptr, &shape, &ndim) != MTS_SUCCESS) {
        ndim = 0;
    }
    for (uintptr_t axis = 0; axis < ndim; axis++) {
        const mts_labels_t *a = mts_block_labels(block, axis);
        const mts_labels_t *b = mts_block_labels(copy, axis);
        printf("%d", a != NULL && a == b);
        labels_release(a);
        labels_release(b);
    }
    struct test_array *copied = ta_cast(copy_view.ptr);
    if (copied != NULL) {
        printf(" copy-device=");
        print_device(copied->created_from != NULL ? copied->created_from->last_copy_device
                                                  : copied->device);
    }
    if (copy == block) {
        printf(" BAD-same-block");
        return;
    }
    /* the copy replaces the slot's block (which may be the original) */
    block_slot_put(slot, copy, sorted);
    print_block(0, copy, sorted);
}

/* labels of a random axis (sometimes past the last one), a gradient (maybe
 * missing), then the whole block */
static void op_block_inspect(struct rng *rng) {
    int sorted = 0;
    mts_block_t *block = any_block(rng, "block_inspect", &sorted);
    if (block == NULL) {
        return;
    }
    const uintptr_t *shape = NULL;
    uintptr_t ndim = 0;
    block_shape(block, &shape, &ndim);
    uintptr_t axis = rng_below(rng, (uint32_t)ndim + 3);
    printf(" labels(axis=%zu) ->", (size_t)axis);
    const mts_labels_t *labels = mts_block_labels(block, axis);
    if (labels == NULL) {
        print_null();
    } else {
        printf(" ");
        print_labels(labels);
        labels_release(labels);
    }
    static const char *const NAMES[] = {"g", "positions", "cell", "strain", "h", "missing", ""};
    const char *parameter = NAMES[rng_below(rng, COUNT_OF(NAMES))];
    mts_block_t *gradient = NULL;
    printf(" gradient('%s') ->", parameter);
    if (print_status(mts_block_gradient(block, parameter, &gradient)) == MTS_SUCCESS) {
        printf(" found=%d", gradient != NULL);
    }
    print_block(0, block, sorted);
}

static void op_block_free(struct rng *rng) {
    int slot = skip_when_none(live_block(rng), "block_free");
    if (slot < 0) {
        return;
    }
    printf("block_free block%d ->", slot);
    print_status(mts_block_free(blocks[slot].block));
    blocks[slot].block = NULL;
    blocks[slot].sorted = 0;
}

/* ------------------------------------------------------------------------ */
/* tensor map operations                                                    */

enum tensor_error {
    TE_NONE = 0,
    TE_COUNT,
    TE_DTYPE,
    TE_DEVICE,
    TE_ORIGIN,
    TE_KEYS_DEVICE,
    TE_SAMPLE_NAMES,
    TE_COMPONENT_COUNT,
    TE_COMPONENT_NAMES,
    TE_PROPERTY_NAMES,
    TE_GRADIENT_MISSING,
    TE_GRADIENT_EXTRA,
    TE_GRADIENT_SAMPLE_NAMES,
    TE_GRADIENT_COMPONENTS,
    TE_SAME_BLOCK,
    TE_NULL_KEYS,
    TE_NULL_BLOCKS,
    TE_ERROR_COUNT,
};

static const char *const TENSOR_ERROR_NAMES[] = {
    "none",           "count",           "dtype",           "device",
    "origin",         "keys-device",     "sample-names",    "component-count",
    "component-names", "property-names", "gradient-missing", "gradient-extra",
    "gradient-sample-names", "gradient-components", "same-block", "null-keys",
    "null-blocks",
};

/* random distinct keys for `schema`, about `wanted` of them */
static void gen_keys(struct rng *rng, struct labels_spec *spec, const struct schema *schema,
                     size_t wanted) {
    spec_init(spec, schema->keys.n, schema->keys.names, schema->device);
    int32_t low[MAX_DIMS] = {0, 0, 0, 0};
    int32_t high[MAX_DIMS] = {2, 2, 2, 2};
    if (schema->keys.n == 1) {
        high[0] = (int32_t)(2 * wanted + 1);
        low[0] = rng_percent(rng, 20) ? -2 : 0;
    }
    spec_random_rows(rng, spec, wanted, low, high);
    if (rng_percent(rng, 40)) {
        spec_sort(spec);
    }
    spec->layout = gen_layout(rng);
}

/* the schema of the block that carries the error */
static void mutate_schema(struct rng *rng, struct schema *schema, enum tensor_error error) {
    switch (error) {
    case TE_DTYPE: schema->dtype = other_dtype(rng, schema->dtype); break;
    case TE_DEVICE: schema->device = other_device(schema->device); break;
    case TE_SAMPLE_NAMES: {
        static const struct name_set renamed = {2, {"system", "other"}};
        schema->samples = renamed;
        break;
    }
    case TE_COMPONENT_COUNT:
        if (schema->n_components > 0 && rng_percent(rng, 50)) {
            schema->n_components--;
        } else if (schema->n_components < 2) {
            gen_component(rng, &schema->components[schema->n_components], "m2");
            schema->n_components++;
        } else {
            schema->n_components--;
        }
        break;
    case TE_COMPONENT_NAMES:
        if (schema->n_components == 0) {
            /* no component to rename: one block has one more instead */
            gen_component(rng, &schema->components[0], "m2");
            schema->n_components = 1;
        } else {
            schema->components[rng_below(rng, (uint32_t)schema->n_components)].name = "renamed";
        }
        break;
    case TE_PROPERTY_NAMES: {
        static const struct name_set renamed = {1, {"renamed"}};
        schema->properties = renamed;
        break;
    }
    case TE_GRADIENT_MISSING:
        if (schema->n_gradients > 0) {
            schema->n_gradients--;
        } else {
            schema->gradients[0].parameter = "g";
            schema->gradients[0].samples = GRADIENT_SAMPLE_NAMES[0];
            schema->gradients[0].n_extra = 0;
            schema->gradients[0].nested = 0;
            schema->n_gradients = 1;
        }
        break;
    case TE_GRADIENT_EXTRA:
        if (schema->n_gradients < 2) {
            struct gradient_schema *gradient = &schema->gradients[schema->n_gradients];
            memset(gradient, 0, sizeof(*gradient));
            gradient->parameter = schema->n_gradients == 0 ||
                                          strcmp(schema->gradients[0].parameter, "extra") != 0
                                      ? "extra"
                                      : "extra2";
            gradient->samples = GRADIENT_SAMPLE_NAMES[0];
            schema->n_gradients++;
        } else {
            schema->gradients[1].parameter = "renamed";
        }
        break;
    case TE_GRADIENT_SAMPLE_NAMES:
        if (schema->n_gradients > 0) {
            static const struct name_set renamed = {2, {"sample", "other"}};
            schema->gradients[0].samples = renamed;
        }
        break;
    case TE_GRADIENT_COMPONENTS:
        if (schema->n_gradients > 0) {
            struct gradient_schema *gradient = &schema->gradients[0];
            if (gradient->n_extra > 0 && rng_percent(rng, 50)) {
                gradient->n_extra--;
            } else if (gradient->n_extra < 2) {
                gen_component(rng, &gradient->extra[gradient->n_extra], "other");
                gradient->n_extra++;
            } else {
                gradient->extra[0].name = "other";
            }
        }
        break;
    default: break;
    }
}

/* builds a map from a schema into a random slot, with one error on request */
static void op_tensor_new(struct rng *rng) {
    struct schema schema;
    gen_schema(rng, &schema);
    enum tensor_error error = TE_NONE;
    if (rng_percent(rng, 30)) {
        error = (enum tensor_error)(1 + rng_below(rng, TE_ERROR_COUNT - 1));
    }
    size_t wanted = rng_percent(rng, 8) ? 0 : 1 + rng_below(rng, MAX_BLOCKS - 1);
    if (error == TE_SAME_BLOCK && wanted < 2) {
        wanted = 2;
    }
    struct labels_spec keys_spec;
    gen_keys(rng, &keys_spec, &schema, wanted);
    if (error == TE_KEYS_DEVICE) {
        keys_spec.device = other_device(schema.device);
    }
    size_t n = keys_spec.count;
    if (error == TE_SAME_BLOCK && n < 2) {
        error = TE_NONE;
    }
    int slot = (int)rng_below(rng, TENSOR_SLOTS);
    printf("tensor_new slot=%d", slot);
    print_schema(&schema);
    printf(" blocks=%zu error=%s", n, TENSOR_ERROR_NAMES[error]);

    /* the labels shared by the blocks */
    struct shared_labels shared;
    memset(&shared, 0, sizeof(shared));
    for (int c = 0; c < schema.n_components; c++) {
        if (schema.shared_components) {
            shared.components[c] = component_make(&schema.components[c], schema.device);
        }
    }
    if (schema.shared_properties) {
        struct labels_spec spec;
        gen_properties(rng, &spec, &schema.properties, schema.device);
        shared.properties = spec_make(&spec, "properties");
    }

    mts_block_t *made[MAX_BLOCKS + 1];
    size_t n_made = 0;
    int bad_block = n == 0 ? -1 : (int)rng_below(rng, (uint32_t)n);
    if (error == TE_SAME_BLOCK) {
        bad_block = 1 + (int)rng_below(rng, (uint32_t)n - 1);
    }
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        indent(0);
        printf("block %zu", i);
        if (error == TE_SAME_BLOCK && (int)i == bad_block) {
            printf(" same as block 0");
            made[n_made++] = made[0];
            continue;
        }
        struct schema block_schema = schema;
        int is_bad = (int)i == bad_block;
        if (is_bad) {
            mutate_schema(rng, &block_schema, error);
        }
        const struct shared_labels *block_shared = &shared;
        struct shared_labels none;
        memset(&none, 0, sizeof(none));
        if (is_bad && (error == TE_DEVICE || error == TE_COMPONENT_COUNT ||
                       error == TE_COMPONENT_NAMES || error == TE_PROPERTY_NAMES)) {
            block_shared = &none;
        }
        mts_block_t *block = schema_block(rng, &block_schema, block_shared, BE_NONE,
                                          is_bad && error == TE_ORIGIN);
        if (block == NULL) {
            failed = 1;
            break;
        }
        made[n_made++] = block;
    }
    const mts_labels_t *keys = failed ? NULL : spec_make(&keys_spec, "keys");
    for (int c = 0; c < 2; c++) {
        labels_release(shared.components[c]);
    }
    labels_release(shared.properties);
    if (failed || keys == NULL) {
        free_blocks(made, n_made);
        labels_release(keys);
        return;
    }

    uintptr_t count = n_made;
    if (error == TE_COUNT) {
        count = n_made == 0 || rng_percent(rng, 50) ? n_made + 1 : n_made - 1;
        if (count > n_made) {
            /* a real extra block, so that the array holds `count` of them */
            struct schema extra = schema;
            indent(0);
            printf("extra block");
            mts_block_t *block = schema_block(rng, &extra, NULL, BE_NONE, 0);
            if (block == NULL) {
                count = n_made;
            } else {
                made[n_made++] = block;
            }
        }
    }
    mts_block_t *given[MAX_BLOCKS + 1];
    memcpy(given, made, sizeof(given));
    indent(0);
    printf("mts_tensormap(count=%zu) ->", (size_t)count);
    mts_tensormap_t *tensor = mts_tensormap(error == TE_NULL_KEYS ? NULL : keys,
                                            error == TE_NULL_BLOCKS ? NULL : given, count);
    print_ok_or_null(tensor);
    /* the errors that must be reported with these inputs */
    int expected_error = 0;
    switch (error) {
    case TE_COUNT:
    case TE_SAME_BLOCK:
    case TE_NULL_KEYS: expected_error = 1; break;
    case TE_NULL_BLOCKS: expected_error = count > 0; break;
    case TE_KEYS_DEVICE: expected_error = n > 0; break;
    case TE_DTYPE:
    case TE_DEVICE:
    case TE_ORIGIN:
    case TE_SAMPLE_NAMES:
    case TE_COMPONENT_COUNT:
    case TE_COMPONENT_NAMES:
    case TE_PROPERTY_NAMES:
    case TE_GRADIENT_MISSING:
    case TE_GRADIENT_EXTRA: expected_error = n > 1; break;
    case TE_GRADIENT_SAMPLE_NAMES:
    case TE_GRADIENT_COMPONENTS: expected_error = n > 1 && schema.n_gradients > 0; break;
    default: break;
    }
    if (tensor != NULL && expected_error) {
        printf(" UNEXPECTED-SUCCESS");
    } else if (tensor == NULL && error == TE_NONE) {
        printf(" UNEXPECTED-FAILURE");
    }
    /* who owns the blocks now */
    printf(" taken=");
    for (size_t i = 0; i < n_made; i++) {
        printf("%d", given[i] == NULL);
    }
    free_blocks(given, n_made);
    labels_release(keys);
    if (tensor != NULL) {
        tensor_slot_put(slot, tensor, 0);
        print_tensor(0, tensor, 0);
    }
}

/* keys "k" that all equal 0, assumed unique: a map whose keys repeat */
static const mts_labels_t *repeated_labels(int count, DLDevice device) {
    const char *name = "k";
    struct labels_spec spec;
    spec_init(&spec, 1, &name, device);
    for (int i = 0; i < count; i++) {
        spec.values[i] = 0; /* not spec_add, which keeps rows distinct */
    }
    spec.count = (size_t)count;
    spec.assume_unique = 1;
    return spec_make(&spec, "keys");
}

/* a map from blocks of the block pool (which it takes) and keys "k" = 0..n-1; or, now and
 * then, from the first of them and copies of it, under keys that repeat (assumed unique): the
 * keys_to operations then merge blocks of the same key. Copies share their properties, so
 * that each block's merged properties stay one range (otherwise the reference moves a block's
 * data into other properties' columns, or past the last one). */
static void op_tensor_from_pool(struct rng *rng) {
    int chosen[3];
    int n = 0;
    int wanted = 1 + (int)rng_below(rng, 3);
    int start = (int)rng_below(rng, BLOCK_SLOTS);
    for (int i = 0; i < BLOCK_SLOTS && n < wanted; i++) {
        int slot = (start + i) % BLOCK_SLOTS;
        if (blocks[slot].block != NULL) {
            chosen[n++] = slot;
        }
    }
    int slot = (int)rng_below(rng, TENSOR_SLOTS);
    if (n == 0) {
        printf("tensor_from_pool skip");
        return;
    }
    printf("tensor_from_pool slot=%d blocks=[", slot);
    mts_block_t *given[3];
    int sorted = 0;
    for (int i = 0; i < n; i++) {
        printf(i == 0 ? "%d" : ",%d", chosen[i]);
        given[i] = blocks[chosen[i]].block;
        sorted |= blocks[chosen[i]].sorted;
    }
    printf("]");
    int key_count = rng_percent(rng, 85) ? n : n + 1;
    int repeated = rng_percent(rng, 25);
    /* the keys on the blocks' device */
    DLDevice device = TA_CPU;
    mts_block_device(given[0], &device);
    if (repeated) {
        sorted = blocks[chosen[0]].sorted;
        key_count = 1 + (int)rng_below(rng, 3);
        n = 1;
        while (n < key_count) {
            given[n] = mts_block_copy(given[0]);
            if (given[n] == NULL) {
                printf(" copy-failed UNEXPECTED-FAILURE");
                print_error();
                free_blocks(given + 1, (size_t)n - 1);
                return;
            }
            n++;
        }
    }
    const mts_labels_t *keys = repeated ? repeated_labels(key_count, device)
                                        : range_labels("k", key_count, device, "keys");
    if (keys == NULL) {
        free_blocks(given + 1, repeated ? (size_t)n - 1 : 0);
        return;
    }
    printf(repeated ? " repeated-keys=%d ->" : " keys=%d ->", key_count);
    mts_tensormap_t *tensor = mts_tensormap(keys, given, (uintptr_t)n);
    labels_release(keys);
    print_ok_or_null(tensor);
    printf(" taken=");
    for (int i = 0; i < n; i++) {
        printf("%d", given[i] == NULL);
        if (given[i] == NULL && (i == 0 || !repeated)) {
            blocks[chosen[i]].block = NULL;
            blocks[chosen[i]].sorted = 0;
        }
    }
    if (repeated) {
        free_blocks(given + 1, (size_t)n - 1); /* the copies the map did not take */
    }
    if (tensor != NULL) {
        tensor_slot_put(slot, tensor, sorted);
        print_tensor(0, tensor, sorted);
    }
}

static void op_tensor_copy(struct rng *rng) {
    int source = skip_when_none(live_tensor(rng), "tensor_copy");
    if (source < 0) {
        return;
    }
    int slot = (int)rng_below(rng, TENSOR_SLOTS);
    printf("tensor_copy tensor%d into=%d ->", source, slot);
    mts_tensormap_t *copy = mts_tensormap_copy(tensors[source].tensor);
    if (!print_ok_or_null(copy)) {
        printf(" UNEXPECTED-FAILURE");
        return;
    }
    const mts_labels_t *a = mts_tensormap_keys(tensors[source].tensor);
    const mts_labels_t *b = mts_tensormap_keys(copy);
    printf(" keys-shared=%d", a != NULL && a == b);
    labels_release(a);
    labels_release(b);
    int sorted = tensors[source].sorted;
    tensor_slot_put(slot, copy, sorted);
    print_tensor(0, copy, sorted);
}

static void op_tensor_inspect(struct rng *rng) {
    int slot = skip_when_none(live_tensor(rng), "tensor_inspect");
    if (slot < 0) {
        return;
    }
    long count = tensor_count(tensors[slot].tensor);
    uintptr_t index = rng_below(rng, (uint32_t)(count < 0 ? 0 : count) + 2);
    printf("tensor_inspect tensor%d block_by_id(%zu) ->", slot, (size_t)index);
    mts_block_t *block = NULL;
    if (print_status(mts_tensormap_block_by_id(tensors[slot].tensor, &block, index)) ==
        MTS_SUCCESS) {
        mts_block_t *again = NULL;
        mts_tensormap_block_by_id(tensors[slot].tensor, &again, index);
        printf(" stable=%d", block == again);
    }
    print_tensor(0, tensors[slot].tensor, tensors[slot].sorted);
}

static void op_info(struct rng *rng) {
    int slot = skip_when_none(live_tensor(rng), "info");
    if (slot < 0) {
        return;
    }
    static const char *const KEYS[] = {"name", "b", "a", "zz", "units", "",
                                       "A", "name2", "\xe2\x82\xac" /* euro sign */};
    static const char *const VALUES[] = {"value", "", "eV", "x y z", "\xff\xfe", "0",
                                         "\xe2\x82\xac", "a\nb"};
    mts_tensormap_t *tensor = tensors[slot].tensor;
    int n = 1 + (int)rng_below(rng, 3);
    printf("info tensor%d", slot);
    for (int i = 0; i < n; i++) {
        const char *key = KEYS[rng_below(rng, COUNT_OF(KEYS))];
        if (rng_percent(rng, 60)) {
            const char *value = VALUES[rng_below(rng, COUNT_OF(VALUES))];
            printf(" set(");
            print_quoted(key);
            printf(",");
            print_quoted(value);
            printf(") ->");
            print_status(mts_tensormap_set_info(tensor, key, value));
        } else {
            const char *value = (const char *)"untouched";
            printf(" get(");
            print_quoted(key);
            printf(") ->");
            if (print_status(mts_tensormap_get_info(tensor, key, &value)) == MTS_SUCCESS) {
                printf(" ");
                print_quoted(value);
            }
        }
    }
    print_info(0, tensor);
}

/* the key names of `tensor`, and its keys as a spec; returns 0 on success */
static int tensor_keys(const mts_tensormap_t *tensor, struct labels_spec *keys) {
    const mts_labels_t *labels = mts_tensormap_keys(tensor);
    if (labels == NULL) {
        return 1;
    }
    int result = labels_read(labels, keys);
    labels_release(labels);
    return result;
}

static void tensor_result(struct rng *rng, mts_tensormap_t *result, int sorted) {
    if (!print_ok_or_null(result)) {
        return;
    }
    int slot = (int)rng_below(rng, TENSOR_SLOTS);
    printf(" into=%d", slot);
    tensor_slot_put(slot, result, sorted);
    print_tensor(0, result, sorted);
}

/* the first block of `tensor`, NULL when it has none */
static mts_block_t *block0(mts_tensormap_t *tensor) {
    mts_block_t *block = NULL;
    if (tensor_count(tensor) <= 0 || mts_tensormap_block_by_id(tensor, &block, 0) != MTS_SUCCESS) {
        return NULL;
    }
    return block;
}

/* the names of the components of `block` (pointers into the library, alive
 * as long as the block); returns the count */
static int component_names(mts_block_t *block, const char **out, int capacity) {
    const uintptr_t *shape = NULL;
    uintptr_t ndim = 0;
    if (block_shape(block, &shape, &ndim) != 0) {
        return 0;
    }
    int n = 0;
    for (uintptr_t axis = 1; axis + 1 < ndim && n < capacity; axis++) {
        const mts_labels_t *labels = mts_block_labels(block, axis);
        const char *const *names = NULL;
        uintptr_t count = 0;
        if (labels != NULL && mts_labels_dimensions(labels, &names, &count) == MTS_SUCCESS &&
            count >= 1) {
            out[n++] = names[0];
        }
        labels_release(labels);
    }
    return n;
}

/* whether one of `names` is a dimension of the samples (`samples` = 1) or of
 * the properties (0) of block 0 of `tensor` */
static int block0_has_name(mts_tensormap_t *tensor, const char *const *names, int n,
                           int samples) {
    mts_block_t *block = block0(tensor);
    const uintptr_t *shape = NULL;
    uintptr_t ndim = 0;
    if (block == NULL || block_shape(block, &shape, &ndim) != 0 || ndim < 2) {
        return 0;
    }
    const mts_labels_t *labels = mts_block_labels(block, samples ? 0 : ndim - 1);
    const char *const *dimensions = NULL;
    uintptr_t count = 0;
    int found = 0;
    if (labels != NULL && mts_labels_dimensions(labels, &dimensions, &count) == MTS_SUCCESS) {
        for (uintptr_t i = 0; i < count; i++) {
            for (int j = 0; j < n; j++) {
                found |= strcmp(dimensions[i], names[j]) == 0;
            }
        }
    }
    labels_release(labels);
    return found;
}

/* The reference panics (an internal error, 255) when the labels it makes
 * would have a repeated dimension: keys moved to properties (samples) that
 * are already property (sample) dimensions, components moved to properties
 * that are already property dimensions. These calls are skipped, printing
 * " skip-reference-panic". */
static int names_collide(mts_tensormap_t *tensor, const char *const *names, int n, int samples) {
    if (block0_has_name(tensor, names, n, samples)) {
        printf(" skip-reference-panic");
        return 1;
    }
    return 0;
}

static int moved_names_collide(mts_tensormap_t *tensor, const mts_labels_t *move, int samples) {
    const char *const *names = NULL;
    uintptr_t n = 0;
    if (mts_labels_dimensions(move, &names, &n) != MTS_SUCCESS) {
        return 0;
    }
    return names_collide(tensor, names, (int)n, samples);
}

/* which keys_to_move, for keys_to_properties / keys_to_samples */
static const mts_labels_t *gen_keys_to_move(struct rng *rng, const struct labels_spec *keys,
                                            int with_rows, DLDevice device) {
    struct labels_spec move;
    const char *names[MAX_DIMS + 1];
    int n = 0;
    uint32_t kind = rng_below(rng, 100);
    if (kind < 6 || keys->n == 0) {
        n = 0;
    } else {
        n = 1 + (int)rng_below(rng, (uint32_t)keys->n);
        pick_names(rng, keys->names, keys->n, n, names);
        if (kind < 14) {
            /* a name that is not a key (or is, when the keys have an "s") */
            const char *other = "s";
            for (int j = 0; j < n; j++) {
                if (strcmp(names[j], "s") == 0) {
                    other = "zz";
                }
            }
            names[rng_below(rng, (uint32_t)n)] = rng_percent(rng, 50) ? "zz" : other;
        }
    }
    spec_init(&move, n, names, device);
    if (with_rows && n > 0) {
        /* rows taken from the keys (projected on the names), and some others */
        int projection[MAX_DIMS];
        int projectable = names_projection(names, n, keys->names, keys->n, projection);
        int32_t row[MAX_DIMS];
        for (size_t i = 0; projectable && i < keys->count; i++) {
            if (rng_percent(rng, 70)) {
                for (int j = 0; j < n; j++) {
                    row[j] = keys->values[i * (size_t)keys->n + (size_t)projection[j]];
                }
                spec_add(&move, row);
            }
        }
        int extra = rng_percent(rng, 30) ? 1 + (int)rng_below(rng, 2) : 0;
        for (int e = 0; e < extra; e++) {
            for (int j = 0; j < n; j++) {
                row[j] = rng_range(rng, -1, 4);
            }
            spec_add(&move, row);
        }
        if (move.count > 1 && rng_percent(rng, 50)) {
            spec_sort(&move);
        }
    }
    printf(" keys_to_move=[");
    print_list(names, (size_t)n);
    printf("] rows=%zu", move.count);
    const mts_labels_t *labels = spec_make(&move, "keys_to_move");
    return labels;
}

/* a fill value for `dtype`, sometimes a wrong one */
static struct test_array *gen_fill(struct rng *rng, DLDataType dtype) {
    uint32_t kind = rng_below(rng, 100);
    static const double VALUES[] = {0.0, -1.0, 7.0, 0.5};
    double value = VALUES[rng_below(rng, 4)];
    int floating = ta_dtype_eq(dtype, TA_FLOAT64) || ta_dtype_eq(dtype, TA_FLOAT32);
    if (floating && rng_percent(rng, 25)) {
        value = NAN;
    }
    struct test_array *fill;
    if (kind < 5) {
        fill = make_scalar(other_dtype(rng, dtype), value);
        printf(" fill=wrong-dtype");
    } else if (kind < 9) {
        uintptr_t shape[1] = {1};
        fill = make_values(dtype, shape, 1, TA_CPU);
        printf(" fill=shape[1]");
    } else if (kind < 13) {
        fill = make_scalar(dtype, value);
        fill->device = CUDA0;
        printf(" fill=on-cuda");
    } else {
        fill = make_scalar(dtype, value);
        printf(" fill=%g", value);
    }
    return fill;
}

/* Set by operations whose count of internally made labels arrays is an implementation
 * detail: the reference makes one per group of blocks where we make fewer. Each is made by
 * from_dlpack (then copy, off the CPU) and later destroyed. Their calls line prints destroy
 * minus those calls, which both must agree on, and a separate "labels-made" line that run.sh
 * only requires to be no larger in ours. keys_to_* make no other copy. */
static int labels_made_bounded = 0;
static long bounded_made = 0;     /* arrays made by from_dlpack and copy in those operations */
static long bounded_received = 0; /* tensors given to from_dlpack in those operations */

static const char *keys_to_name(int to_samples) {
    return to_samples ? "keys_to_samples" : "keys_to_properties";
}

/* mts_tensormap_keys_to_samples or mts_tensormap_keys_to_properties */
static mts_tensormap_t *keys_to(int to_samples, const mts_tensormap_t *tensor,
                                const mts_labels_t *move, struct test_array *fill, bool sort) {
    return to_samples ? mts_tensormap_keys_to_samples(tensor, move, ta_mts(fill), sort)
                      : mts_tensormap_keys_to_properties(tensor, move, ta_mts(fill), sort);
}

static void op_keys_to(struct rng *rng, int to_samples) {
    labels_made_bounded = 1;
    const char *name = keys_to_name(to_samples);
    int slot = skip_when_none(live_tensor(rng), name);
    if (slot < 0) {
        return;
    }
    mts_tensormap_t *tensor = tensors[slot].tensor;
    struct labels_spec keys;
    if (tensor_keys(tensor, &keys) != 0) {
        printf("%s tensor%d UNEXPECTED-FAILURE", name, slot);
        return;
    }
    DLDataType dtype = TA_FLOAT64;
    DLDevice device = TA_CPU;
    mts_tensormap_dtype(tensor, &dtype);
    mts_tensormap_device(tensor, &device);
    int with_rows = to_samples ? rng_percent(rng, 8) : rng_percent(rng, 50);
    printf("%s tensor%d", name, slot);
    const mts_labels_t *move = gen_keys_to_move(rng, &keys, with_rows, device);
    if (move == NULL) {
        return;
    }
    if (moved_names_collide(tensor, move, to_samples)) {
        labels_release(move);
        return;
    }
    struct test_array *fill = gen_fill(rng, dtype);
    int sort = rng_percent(rng, 50);
    printf(" sort=%d ->", sort);
    mts_tensormap_t *result = keys_to(to_samples, tensor, move, fill, sort);
    printf(" fill-destroyed=%d", ta_calls(fill, TA_DESTROY));
    labels_release(move);
    tensor_result(rng, result, 1);
}

static void op_components_to_properties(struct rng *rng) {
    int slot = skip_when_none(live_tensor(rng), "components_to_properties");
    if (slot < 0) {
        return;
    }
    mts_tensormap_t *tensor = tensors[slot].tensor;
    /* the component names of block 0 */
    const char *components[8];
    int n_components = 0;
    mts_block_t *block = block0(tensor);
    if (block != NULL) {
        n_components = component_names(block, components, 8);
    }
    const char *dimensions[4];
    int n = 0;
    if (n_components > 0) {
        n = 1 + (int)rng_below(rng, (uint32_t)n_components);
        pick_names(rng, components, n_components, n, dimensions);
    }
    if (n == 0 || rng_percent(rng, 10)) {
        dimensions[n++] = rng_percent(rng, 50) ? "zz" : "xyz";
    } else if (rng_percent(rng, 5)) {
        dimensions[n] = dimensions[0];
        n++;
    }
    printf("components_to_properties tensor%d dimensions=[", slot);
    print_list(dimensions, (size_t)n);
    printf("]");
    if (names_collide(tensor, dimensions, n, 0)) {
        return;
    }
    printf(" ->");
    mts_tensormap_t *result =
        mts_tensormap_components_to_properties(tensor, dimensions, (uintptr_t)n);
    tensor_result(rng, result, tensors[slot].sorted);
}

static void op_tensor_free(struct rng *rng) {
    int slot = skip_when_none(live_tensor(rng), "tensor_free");
    if (slot < 0) {
        return;
    }
    printf("tensor_free tensor%d ->", slot);
    print_status(mts_tensormap_free(tensors[slot].tensor));
    tensors[slot].tensor = NULL;
    tensors[slot].sorted = 0;
}

/* ------------------------------------------------------------------------ */
/* callbacks failing on purpose                                             */

/* make `member` fail on `array` itself (children 0) or on the arrays made
 * from it (children 1) */
static void set_failure(struct test_array *array, enum ta_member member, int children) {
    if (array == NULL) {
        return;
    }
    ta_set_fail(array, member, MTS_CALLBACK_ERROR, NULL);
    if (children) {
        array->fail_member = TA_NONE;
        array->children_fail_member = member;
    }
}

static void clear_failure(struct test_array *array) {
    if (array != NULL) {
        array->fail_member = TA_NONE;
        array->children_fail_member = TA_NONE;
    }
}

/* the result of an operation that was meant to fail */
static void fail_result(mts_tensormap_t *result) {
    /* fine when the failing array was never used */
    if (print_ok_or_null(result)) {
        print_tensor(0, result, 1);
        mts_tensormap_free(result);
    }
}

/* a gradient of `block` when it has exactly one (so that nothing depends on
 * the order the library visits gradients in), NULL otherwise */
static mts_block_t *single_gradient(mts_block_t *block) {
    const char *parameters[16];
    mts_block_t *gradient = NULL;
    if (gradient_list(block, 1, parameters, 16) == 1 &&
        mts_block_gradient(block, parameters[0], &gradient) == MTS_SUCCESS) {
        return gradient;
    }
    return NULL;
}

/* keys_to_properties / keys_to_samples with an array callback failing: the
 * create or move_data of the arrays made from block 0's values, or (samples,
 * single gradient) the create of block 0's gradient values */
static void fail_keys_to(struct rng *rng, int slot, enum ta_member member, int gradient) {
    mts_tensormap_t *tensor = tensors[slot].tensor;
    int to_samples = gradient || rng_percent(rng, 50);
    printf("fail %s tensor%d %s%s", keys_to_name(to_samples), slot, ta_member_name(member),
           gradient ? "(gradient)" : "");
    struct labels_spec keys;
    if (tensor_keys(tensor, &keys) != 0) {
        printf(" UNEXPECTED-FAILURE");
        return;
    }
    struct test_array *target = NULL;
    mts_block_t *block = NULL;
    if (keys.count > 0 && mts_tensormap_block_by_id(tensor, &block, 0) == MTS_SUCCESS) {
        if (gradient) {
            block = single_gradient(block);
        }
        target = block != NULL ? block_values(block) : NULL;
    }
    DLDataType dtype = TA_FLOAT64;
    DLDevice device = TA_CPU;
    mts_tensormap_dtype(tensor, &dtype);
    mts_tensormap_device(tensor, &device);
    const mts_labels_t *move = gen_keys_to_move(rng, &keys, 0, device);
    if (move == NULL) {
        return;
    }
    if (moved_names_collide(tensor, move, to_samples)) {
        labels_release(move);
        return;
    }
    struct test_array *fill = make_scalar(dtype, 0.0);
    printf(" target=%s ->", target != NULL ? "yes" : "none");
    set_failure(target, member, member == TA_MOVE_DATA);
    labels_made_bounded = 1;
    mts_tensormap_t *result = keys_to(to_samples, tensor, move, fill, true);
    clear_failure(target);
    printf(" fill-destroyed=%d", ta_calls(fill, TA_DESTROY));
    labels_release(move);
    fail_result(result);
}

static void op_fail(struct rng *rng) {
    uint32_t kind = rng_below(rng, 8);
    if (kind == 0 || kind == 1) {
        /* block_copy, the values' copy or a (single) gradient's copy failing */
        int slot = skip_when_none(live_block(rng), "fail");
        if (slot < 0) {
            return;
        }
        mts_block_t *target = kind == 0 ? blocks[slot].block : single_gradient(blocks[slot].block);
        printf("fail block_copy block%d copy%s", slot, kind == 0 ? "" : "(gradient)");
        if (target == NULL) {
            printf(" skip");
            return;
        }
        struct test_array *values = block_values(target);
        printf(" ->");
        set_failure(values, TA_COPY, 0);
        mts_block_t *copy = mts_block_copy(blocks[slot].block);
        clear_failure(values);
        if (expect_null(copy)) {
            mts_block_free(copy);
        }
        return;
    }
    int slot = skip_when_none(live_tensor(rng), "fail");
    if (slot < 0) {
        return;
    }
    mts_tensormap_t *tensor = tensors[slot].tensor;
    long count = tensor_count(tensor);
    switch (kind) {
    case 2: {
        /* the copy of some block's values, or of its only gradient */
        printf("fail tensormap_copy tensor%d copy", slot);
        struct test_array *target = NULL;
        if (count > 0) {
            uintptr_t index = rng_below(rng, (uint32_t)count);
            mts_block_t *block = NULL;
            mts_tensormap_block_by_id(tensor, &block, index);
            mts_block_t *gradient = rng_percent(rng, 40) ? single_gradient(block) : NULL;
            printf(" block=%zu%s", (size_t)index, gradient != NULL ? "(gradient)" : "");
            target = block_values(gradient != NULL ? gradient : block);
        }
        printf(" ->");
        set_failure(target, TA_COPY, 0);
        mts_tensormap_t *result = mts_tensormap_copy(tensor);
        clear_failure(target);
        fail_result(result);
        return;
    }
    case 3: fail_keys_to(rng, slot, TA_CREATE, 0); return;
    case 4: fail_keys_to(rng, slot, TA_MOVE_DATA, 0); return;
    case 5: fail_keys_to(rng, slot, TA_CREATE, 1); return;
    default: {
        /* components_to_properties: swap_axes or reshape of the copy of
         * block 0's values */
        enum ta_member member = kind == 6 ? TA_SWAP_AXES : TA_RESHAPE;
        const char *dimension = "x";
        mts_block_t *block = NULL;
        struct test_array *target = NULL;
        if (count > 0 && mts_tensormap_block_by_id(tensor, &block, 0) == MTS_SUCCESS) {
            target = block_values(block);
            const char *components[8];
            int n = component_names(block, components, 8);
            if (n > 0) {
                dimension = components[rng_below(rng, (uint32_t)n)];
            }
        }
        printf("fail components_to_properties tensor%d %s dimension=%s", slot,
               ta_member_name(member), dimension);
        const char *dimensions[1] = {dimension};
        if (names_collide(tensor, dimensions, 1, 0)) {
            return;
        }
        printf(" ->");
        set_failure(target, member, 1);
        mts_tensormap_t *result = mts_tensormap_components_to_properties(tensor, dimensions, 1);
        clear_failure(target);
        fail_result(result);
        return;
    }
    }
}

/* ------------------------------------------------------------------------ */
/* NULL arguments                                                           */

/* "null NAME(NULL) ->" when `object_null`, "null NAME(<object><slot>, NULL) ->" otherwise */
static void print_null_call(const char *name, int object_null, const char *object, int slot) {
    if (object_null) {
        printf("null %s(NULL) ->", name);
    } else {
        printf("null %s(%s%d, NULL) ->", name, object, slot);
    }
}

/* keys_to_*(NULL, ...) when `tensor` is NULL (the fill value is still
 * destroyed), keys_to_*(tensor, NULL) otherwise */
static void null_keys_to(int to_samples, mts_tensormap_t *tensor, int tslot) {
    const mts_labels_t *move =
        tensor == NULL ? range_labels("k", 0, TA_CPU, "keys_to_move") : NULL;
    struct test_array *fill = make_scalar(TA_FLOAT64, 0.0);
    if (tensor == NULL) {
        printf("null %s(NULL, ...) ->", keys_to_name(to_samples));
    } else {
        printf("null %s(tensor%d, NULL) ->", keys_to_name(to_samples), tslot);
    }
    expect_null(keys_to(to_samples, tensor, move, fill, tensor == NULL));
    printf(" fill-destroyed=%d", ta_calls(fill, TA_DESTROY));
    labels_release(move);
}

/* set_info (call 0), get_info (1) or info_keys (2) with `tensor` (which 0),
 * the key(s) (1) or the value / count (2) NULL */
static void null_info(uint32_t call, uint32_t which, mts_tensormap_t *tensor) {
    static const char *const NAMES[3] = {"set_info", "get_info", "info_keys"};
    static const char *const WHAT[3][3] = {{"NULL", "key=NULL", "value=NULL"},
                                           {"NULL", "key=NULL", "value=NULL"},
                                           {"NULL", "keys=NULL", "count=NULL"}};
    printf("null %s(%s) ->", NAMES[call], WHAT[call][which]);
    mts_tensormap_t *target = which == 0 ? NULL : tensor;
    const char *value = NULL;
    const char *const *keys = NULL;
    uintptr_t count = 0;
    mts_status_t status;
    switch (call) {
    case 0:
        status = mts_tensormap_set_info(target, which == 1 ? NULL : "k", which == 2 ? NULL : "v");
        break;
    case 1:
        status =
            mts_tensormap_get_info(target, which == 1 ? NULL : "k", which == 2 ? NULL : &value);
        break;
    default:
        status = mts_tensormap_info_keys(target, which == 1 ? NULL : &keys,
                                         which == 2 ? NULL : &count);
        break;
    }
    print_status(status);
}

static void op_null(struct rng *rng) {
    uint32_t kind = rng_below(rng, 40);
    int bslot = live_block(rng);
    int tslot = live_tensor(rng);
    mts_block_t *block = bslot >= 0 ? blocks[bslot].block : NULL;
    mts_tensormap_t *tensor = tslot >= 0 ? tensors[tslot].tensor : NULL;
    if ((kind >= 8 && kind < 20 && block == NULL) || (kind >= 24 && tensor == NULL)) {
        kind = kind % 8;
    }
    mts_array_t array;
    memset(&array, 0, sizeof(array));
    const char *const *list = NULL;
    uintptr_t count = 0;
    DLDevice device;
    DLDataType dtype;
    mts_block_t *out_block = NULL;
    int object_null = 0;
    switch (kind) {
    case 0:
    case 1:
    case 2:
    case 3: {
        /* mts_block with NULL labels: the data is always consumed */
        const mts_labels_t *samples = range_labels("s", 0, TA_CPU, "samples");
        const mts_labels_t *properties = range_labels("p", 0, TA_CPU, "properties");
        uintptr_t shape2[2] = {0, 0};
        uintptr_t shape3[3] = {0, 1, 0};
        struct test_array *values =
            make_values(TA_FLOAT64, kind >= 2 ? shape3 : shape2, kind >= 2 ? 3 : 2, TA_CPU);
        const mts_labels_t *null_component[1] = {NULL};
        static const char *const what[] = {"samples=NULL", "properties=NULL", "components=NULL",
                                           "components[0]=NULL"};
        printf("null mts_block(%s) ->", what[kind]);
        mts_block_t *made =
            mts_block(ta_mts(values), kind == 0 ? NULL : samples,
                      kind == 3 ? null_component : NULL, kind >= 2 ? 1 : 0,
                      kind == 1 ? NULL : properties);
        if (expect_null(made)) {
            mts_block_free(made);
        }
        printf(" data-destroyed=%d", ta_calls(values, TA_DESTROY));
        labels_release(samples);
        labels_release(properties);
        return;
    }
    case 4:
        printf("null block_free(NULL) ->");
        print_status(mts_block_free(NULL));
        return;
    case 5:
        printf("null block_copy(NULL) ->");
        expect_null(mts_block_copy(NULL));
        return;
    case 6:
        printf("null tensormap_free(NULL) ->");
        print_status(mts_tensormap_free(NULL));
        return;
    case 7: {
        /* NULL keys: the blocks stay with the caller */
        printf("null mts_tensormap(keys=NULL) ->");
        mts_block_t *given[1] = {block};
        int n = block != NULL ? 1 : 0;
        mts_tensormap_t *made = mts_tensormap(NULL, given, (uintptr_t)n);
        expect_null(made);
        printf(" taken=%d", n == 1 && given[0] == NULL);
        if (n == 1 && given[0] == NULL) {
            blocks[bslot].block = NULL;
        }
        if (made != NULL) {
            mts_tensormap_free(made);
        }
        return;
    }
    case 8:
        printf("null block_labels(NULL, 0) ->");
        expect_null(mts_block_labels(NULL, 0));
        return;
    case 9:
        printf("null block_gradient(NULL, 'g') ->");
        print_status(mts_block_gradient(NULL, "g", &out_block));
        return;
    case 10:
        printf("null block_gradient(block%d, NULL) ->", bslot);
        print_status(mts_block_gradient(block, NULL, &out_block));
        return;
    case 11:
    case 12:
        object_null = kind == 11;
        print_null_call("block_data", object_null, "block", bslot);
        print_status(mts_block_data(object_null ? NULL : block, object_null ? &array : NULL));
        return;
    case 13:
    case 14: {
        /* the gradient is not taken */
        const mts_labels_t *samples = range_labels("sample", 0, TA_CPU, "samples");
        const mts_labels_t *properties = range_labels("p", 0, TA_CPU, "properties");
        uintptr_t shape[2] = {0, 0};
        mts_block_t *gradient =
            mts_block(ta_mts(make_values(TA_FLOAT64, shape, 2, TA_CPU)), samples, NULL, 0,
                      properties);
        labels_release(samples);
        labels_release(properties);
        if (gradient == NULL) {
            printf("null add_gradient UNEXPECTED-FAILURE");
            return;
        }
        struct test_array *values = block_values(gradient);
        if (kind == 13) {
            printf("null add_gradient(NULL, 'g', gradient) ->");
            print_status(mts_block_add_gradient(NULL, "g", gradient));
        } else {
            printf("null add_gradient(block%d, NULL, gradient) ->", bslot);
            print_status(mts_block_add_gradient(block, NULL, gradient));
        }
        int destroy_calls = destroyed(values);
        printf(" gradient-data-destroyed=%d", destroy_calls);
        if (destroy_calls == 0) {
            mts_block_free(gradient);
        }
        return;
    }
    case 15:
        printf("null gradients_list(NULL) ->");
        print_status(mts_block_gradients_list(NULL, &list, &count));
        return;
    case 16:
        printf("null gradients_list(block%d, NULL, count) ->", bslot);
        print_status(mts_block_gradients_list(block, NULL, &count));
        return;
    case 17:
        printf("null gradients_list(block%d, list, NULL) ->", bslot);
        print_status(mts_block_gradients_list(block, &list, NULL));
        return;
    case 18:
        object_null = rng_percent(rng, 50);
        print_null_call("block_device", object_null, "block", bslot);
        print_status(mts_block_device(object_null ? NULL : block, object_null ? &device : NULL));
        return;
    case 19:
        object_null = rng_percent(rng, 50);
        print_null_call("block_dtype", object_null, "block", bslot);
        print_status(mts_block_dtype(object_null ? NULL : block, object_null ? &dtype : NULL));
        return;
    case 20:
        printf("null tensormap_copy(NULL) ->");
        expect_null(mts_tensormap_copy(NULL));
        return;
    case 21:
        printf("null tensormap_keys(NULL) ->");
        expect_null(mts_tensormap_keys(NULL));
        return;
    case 22:
    case 23:
    case 24:
    case 25: null_keys_to((int)kind % 2, kind < 24 ? NULL : tensor, tslot); return;
    case 26:
    case 27:
    case 28: {
        /* a NULL map, NULL dimensions or a NULL dimension */
        const char *dimensions[1] = {kind == 26 ? "x" : NULL};
        if (kind == 26) {
            printf("null components_to_properties(NULL, ['x']) ->");
        } else {
            printf("null components_to_properties(tensor%d, %s) ->", tslot,
                   kind == 27 ? "NULL" : "[NULL]");
        }
        expect_null(mts_tensormap_components_to_properties(kind == 26 ? NULL : tensor,
                                                           kind == 27 ? NULL : dimensions, 1));
        return;
    }
    case 29:
    case 30:
        object_null = kind == 29;
        print_null_call("block_by_id", object_null, "tensor", tslot);
        print_status(mts_tensormap_block_by_id(object_null ? NULL : tensor,
                                               object_null ? &out_block : NULL, 0));
        return;
    case 31:
    case 32:
    case 33: null_info(kind - 31, rng_below(rng, 3), tensor); return;
    case 34:
        object_null = rng_percent(rng, 50);
        print_null_call("tensormap_device", object_null, "tensor", tslot);
        print_status(
            mts_tensormap_device(object_null ? NULL : tensor, object_null ? &device : NULL));
        return;
    case 35:
        object_null = rng_percent(rng, 50);
        print_null_call("tensormap_dtype", object_null, "tensor", tslot);
        print_status(mts_tensormap_dtype(object_null ? NULL : tensor, object_null ? &dtype : NULL));
        return;
    default: {
        /* mts_tensormap(keys, NULL, n): n > 0 is an error, n == 0 is an empty map */
        int n = (int)rng_below(rng, 2);
        const mts_labels_t *keys = range_labels("k", n, TA_CPU, "keys");
        printf("null mts_tensormap(keys, blocks=NULL, %d) ->", n);
        mts_tensormap_t *made = mts_tensormap(keys, NULL, (uintptr_t)n);
        labels_release(keys);
        if (print_ok_or_null(made)) {
            print_tensor(0, made, 0);
            mts_tensormap_free(made);
        }
        return;
    }
    }
}

/* ------------------------------------------------------------------------ */

static const enum ta_member TRACED[] = {TA_CREATE,    TA_MOVE_DATA, TA_COPY,
                                        TA_RESHAPE,   TA_SWAP_AXES, TA_AS_DLPACK,
                                        TA_FROM_DLPACK, TA_DESTROY};
#define N_TRACED COUNT_OF(TRACED)

static void run_one(uint64_t seed, long index) {
    struct rng rng = rng_for(seed, (uint64_t)index);
    serial_base = index * 64;
    serial_next = 0;
    struct calls_snapshot before;
    calls_snapshot_take(&before);
    printf("#%ld ", index);
    uint32_t kind = rng_below(&rng, 100);
    if (kind < 9) {
        op_block_new(&rng);
    } else if (kind < 16) {
        op_add_gradient(&rng);
    } else if (kind < 20) {
        op_block_copy(&rng);
    } else if (kind < 24) {
        op_block_inspect(&rng);
    } else if (kind < 27) {
        op_block_free(&rng);
    } else if (kind < 39) {
        op_tensor_new(&rng);
    } else if (kind < 42) {
        op_tensor_from_pool(&rng);
    } else if (kind < 46) {
        op_tensor_copy(&rng);
    } else if (kind < 49) {
        op_tensor_inspect(&rng);
    } else if (kind < 54) {
        op_info(&rng);
    } else if (kind < 66) {
        op_keys_to(&rng, 0);
    } else if (kind < 75) {
        op_keys_to(&rng, 1);
    } else if (kind < 82) {
        op_components_to_properties(&rng);
    } else if (kind < 85) {
        op_tensor_free(&rng);
    } else if (kind < 91) {
        op_fail(&rng);
    } else {
        op_null(&rng);
    }
    printf("\n  calls:");
    int any = 0;
    long made = 0, destroyed = 0;
    for (size_t m = 0; m < N_TRACED; m++) {
        long calls = calls_since(&before, TRACED[m]);
        if (labels_made_bounded && (TRACED[m] == TA_FROM_DLPACK || TRACED[m] == TA_COPY)) {
            made += calls;
            if (TRACED[m] == TA_FROM_DLPACK) {
                bounded_received += calls;
            }
        } else if (labels_made_bounded && TRACED[m] == TA_DESTROY) {
            destroyed = calls;
        } else if (calls != 0) {
            printf(" %s=%ld", ta_member_name(TRACED[m]), calls);
            any = 1;
        }
    }
    if (labels_made_bounded) {
        printf(" destroy-minus-made=%ld\n  labels-made: from_dlpack+copy=%ld\n", destroyed - made, made);
        labels_made_bounded = 0;
        bounded_made += made;
    } else {
        printf("%s\n", any ? "" : " none");
    }
}

static int parse_number(const char *text, long long *out) {
    if (text == NULL || text[0] == '\0') {
        return 1;
    }
    char *end = NULL;
    long long value = strtoll(text, &end, 0);
    if (*end != '\0' || value < 0) {
        return 1;
    }
    *out = value;
    return 0;
}

int main(int argc, char **argv) {
    const char *seed_text = argc >= 2 ? argv[1] : getenv("TENSOR_SEQUENCE_SEED");
    const char *count_text = argc >= 3 ? argv[2] : getenv("TENSOR_SEQUENCE_COUNT");
    long long seed = 0, count = 0;
    if (argc > 3 || parse_number(seed_text, &seed) != 0 || parse_number(count_text, &count) != 0) {
        fprintf(stderr,
                "usage: %s SEED COUNT (or TENSOR_SEQUENCE_SEED and TENSOR_SEQUENCE_COUNT)\n",
                argv[0]);
        return 2;
    }
    printf("tensor_sequence seed=%lld count=%lld\n", seed, count);
    /* the reference reports some errors through panics it catches */
    mts_disable_panic_printing();
    ta_origin_id();
    if (mts_register_data_origin("tensor_sequence.other", &other_origin_id) != MTS_SUCCESS) {
        printf("could not register an origin\n");
        return 1;
    }
    run_sequence((uint64_t)seed, (long)count, run_one);

    int live_blocks = 0, live_tensors = 0;
    for (int slot = 0; slot < BLOCK_SLOTS; slot++) {
        live_blocks += blocks[slot].block != NULL;
        block_slot_put(slot, NULL, 0);
    }
    for (int slot = 0; slot < TENSOR_SLOTS; slot++) {
        live_tensors += tensors[slot].tensor != NULL;
        tensor_slot_put(slot, NULL, 0);
    }
    printf("end: freed %d blocks and %d tensor maps\n", live_blocks, live_tensors);
    /* Labels arrays made inside bounded operations are left out of the totals (see
     * labels_made_bounded); they are all destroyed, as live=0 shows. */
    return finish_arrays("-minus-made", bounded_made, bounded_received);
}
