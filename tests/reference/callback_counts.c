/*
 * callback_counts: how often the library calls each member of the arrays it
 * is given, for a fixed list of block and tensor map operations. run.sh builds
 * it against the reference and against ours and fails when ours calls a member
 * more often than the reference for the same operation.
 *
 * Usage: callback_counts (no arguments)
 *
 * Each operation runs on fresh inputs whose values and labels are test arrays
 * (bindings/c/tests/test_array.h). Only the calls made during the operation
 * count: making the inputs before and freeing what is left after do not. The
 * sequences ("lazy-map:...", ...) print each step and their total, so that
 * calls a library puts off until later (ours checks a block in C at mts_block
 * and makes its Go object when the block is first used) are counted too, and
 * so does "program:total", every call of the run.
 *
 * Output: for each operation, in a fixed order, one line "<operation> <member>
 * <calls>" per member called at least once, or "<operation> none"; then
 * "callback_counts: <N> operations". A failing call, a leaked array or an
 * array destroyed twice is reported on stderr and gives exit code 1.
 */
#include "sequence.h"

#include "test_helpers.h"

#define SAMPLES 3
#define PROPERTIES 2
#define COMPONENT_ENTRIES 3
#define BLOCKS 3

static const char *const SAMPLE_NAMES[] = {"sample"};
static const char *const GRADIENT_SAMPLE_NAMES[] = {"sample", "atom"};
static const char *const XYZ_NAMES[] = {"xyz"};
static const char *const COMPONENT_NAMES[] = {"c"};
static const char *const PROPERTY_NAMES[] = {"p"};
static const char *const KEY_NAMES[] = {"k", "l"};
static const char *const MOVED_KEY_NAMES[] = {"l"};
/* "l" is moved: the blocks of k=0 are merged, the block of k=1 stays alone */
static const int32_t KEYS[BLOCKS * 2] = {0, 0, 0, 1, 1, 0};

static int failures = 0;
static long operations = 0;

static void fail(const char *op, const char *call) {
    const char *message = last_message();
    fprintf(stderr, "callback_counts: %s: %s failed: %s\n", op, call,
            message != NULL ? message : "<no error>");
    failures++;
}

/* `status`, after reporting it when it is a failure */
static mts_status_t check_status(mts_status_t status, const char *op, const char *call) {
    if (status != MTS_SUCCESS) {
        fail(op, call);
    }
    return status;
}

/* `result`, after reporting a NULL */
static const void *check_result(const void *result, const char *op, const char *call) {
    if (result == NULL) {
        fail(op, call);
    }
    return result;
}

static void print_counts(const char *op, const struct calls_snapshot *since) {
    int any = 0;
    for (int member = TA_NONE + 1; member < TA_MEMBER_COUNT; member++) {
        long calls = calls_since(since, (enum ta_member)member);
        if (calls != 0) {
            printf("%s %s %ld\n", op, ta_member_name((enum ta_member)member), calls);
            any = 1;
        }
    }
    if (!any) {
        printf("%s none\n", op);
    }
    operations++;
}

/* ------------------------------------------------------------------------ */
/* inputs, made before counting starts                                      */

/* the values and labels of one block */
struct block_parts {
    struct test_array *values; /* NULL once given to mts_block */
    const mts_labels_t *samples;
    const mts_labels_t *components[2];
    uintptr_t components_count;
    const mts_labels_t *properties;
};

/* a block over `samples` (`count` entries) with the components "xyz" and
 * "c" when asked, in this order, and PROPERTIES properties */
static void parts_new(struct block_parts *parts, const mts_labels_t *samples, uintptr_t count,
                      int xyz, int component) {
    memset(parts, 0, sizeof(*parts));
    uintptr_t shape[4];
    uintptr_t ndim = 0;
    shape[ndim++] = count;
    if (xyz) {
        parts->components[parts->components_count++] = range(XYZ_NAMES, COMPONENT_ENTRIES);
        shape[ndim++] = COMPONENT_ENTRIES;
    }
    if (component) {
        parts->components[parts->components_count++] = range(COMPONENT_NAMES, COMPONENT_ENTRIES);
        shape[ndim++] = COMPONENT_ENTRIES;
    }
    parts->properties = range(PROPERTY_NAMES, PROPERTIES);
    shape[ndim++] = PROPERTIES;
    parts->samples = samples;
    parts->values = ta_new_f64_filled(shape, ndim, 1.5);
}

static mts_block_t *parts_block(struct block_parts *parts, const char *op) {
    mts_block_t *block = mts_block(ta_mts(parts->values), parts->samples, parts->components,
                                   parts->components_count, parts->properties);
    parts->values = NULL;
    return (mts_block_t *)check_result(block, op, "mts_block");
}

static void labels_release(const mts_labels_t *labels) {
    if (labels != NULL) {
        mts_labels_free(labels);
    }
}

/* frees the labels (the block, when made, keeps what it needs) */
static void parts_release(struct block_parts *parts) {
    labels_release(parts->samples);
    for (uintptr_t i = 0; i < parts->components_count; i++) {
        labels_release(parts->components[i]);
    }
    labels_release(parts->properties);
    memset(parts, 0, sizeof(*parts));
}

/* a block whose samples start at `first_sample`, with the component "c" when
 * asked, and a gradient "positions" (components "xyz" then the block's) */
struct block_inputs {
    struct block_parts block;
    struct block_parts gradient;
    int has_gradient;
};

static void inputs_new(struct block_inputs *inputs, int32_t first_sample, int component,
                       int gradient) {
    memset(inputs, 0, sizeof(*inputs));
    parts_new(&inputs->block, range_from(SAMPLE_NAMES, first_sample, SAMPLES, TA_CPU), SAMPLES,
              0, component);
    inputs->has_gradient = gradient;
    if (gradient) {
        static const int32_t rows[] = {0, 0, SAMPLES - 1, 1};
        parts_new(&inputs->gradient, ta_labels(GRADIENT_SAMPLE_NAMES, 2, rows, 2), 2, 1,
                  component);
    }
}

static void inputs_release(struct block_inputs *inputs) {
    parts_release(&inputs->block);
    parts_release(&inputs->gradient);
}

/* mts_block for the block, and for its gradient with mts_block_add_gradient */
static mts_block_t *inputs_block(struct block_inputs *inputs, const char *op) {
    mts_block_t *block = parts_block(&inputs->block, op);
    if (block != NULL && inputs->has_gradient) {
        mts_block_t *gradient = parts_block(&inputs->gradient, op);
        if (gradient != NULL && check_status(mts_block_add_gradient(block, "positions", gradient),
                                             op, "mts_block_add_gradient") != MTS_SUCCESS) {
            mts_block_free(gradient);
        }
    }
    return block;
}

/* a block just made by mts_block, its labels freed */
static mts_block_t *fresh_block(int component, int gradient, const char *op) {
    struct block_inputs inputs;
    inputs_new(&inputs, 0, component, gradient);
    mts_block_t *block = inputs_block(&inputs, op);
    inputs_release(&inputs);
    return block;
}

/* BLOCKS blocks with keys KEYS; block i has the samples i, ..., i + SAMPLES - 1,
 * so that merging them along properties leaves entries to fill */
struct map_inputs {
    struct block_inputs blocks[BLOCKS];
    const mts_labels_t *keys;
};

static void map_inputs_new(struct map_inputs *inputs, int component, int gradient) {
    for (int i = 0; i < BLOCKS; i++) {
        inputs_new(&inputs->blocks[i], i, component, gradient);
    }
    inputs->keys = ta_labels(KEY_NAMES, 2, KEYS, BLOCKS);
}

static void map_inputs_release(struct map_inputs *inputs) {
    for (int i = 0; i < BLOCKS; i++) {
        inputs_release(&inputs->blocks[i]);
    }
    labels_release(inputs->keys);
    inputs->keys = NULL;
}

static void map_inputs_blocks(struct map_inputs *inputs, mts_block_t **blocks, const char *op) {
    for (int i = 0; i < BLOCKS; i++) {
        blocks[i] = inputs_block(&inputs->blocks[i], op);
    }
}

static mts_tensormap_t *map_from(const mts_labels_t *keys, mts_block_t **blocks, const char *op) {
    return (mts_tensormap_t *)check_result(mts_tensormap(keys, blocks, BLOCKS), op,
                                           "mts_tensormap");
}

/* a tensor map just made from blocks just made, every labels freed */
static mts_tensormap_t *fresh_map(int component, int gradient, const char *op) {
    struct map_inputs inputs;
    map_inputs_new(&inputs, component, gradient);
    mts_block_t *blocks[BLOCKS];
    map_inputs_blocks(&inputs, blocks, op);
    mts_tensormap_t *tensor = map_from(inputs.keys, blocks, op);
    map_inputs_release(&inputs);
    return tensor;
}

static void tensor_release(mts_tensormap_t *tensor, const char *op) {
    if (tensor != NULL) {
        check_status(mts_tensormap_free(tensor), op, "mts_tensormap_free");
    }
}

static void block_release(mts_block_t *block, const char *op) {
    if (block != NULL) {
        check_status(mts_block_free(block), op, "mts_block_free");
    }
}

/* ------------------------------------------------------------------------ */
/* blocks                                                                   */

static void op_block_new(const char *op, int component) {
    struct block_inputs inputs;
    inputs_new(&inputs, 0, component, 0);
    struct calls_snapshot before;
    calls_snapshot_take(&before);
    mts_block_t *block = parts_block(&inputs.block, op);
    print_counts(op, &before);
    inputs_release(&inputs);
    block_release(block, op);
}

static void op_add_gradient(const char *op, int component) {
    struct block_inputs inputs;
    inputs_new(&inputs, 0, component, 1);
    mts_block_t *block = parts_block(&inputs.block, op);
    mts_block_t *gradient = parts_block(&inputs.gradient, op);
    inputs_release(&inputs);
    if (block == NULL || gradient == NULL) {
        block_release(block, op);
        block_release(gradient, op);
        return;
    }
    struct calls_snapshot before;
    calls_snapshot_take(&before);
    mts_status_t status = mts_block_add_gradient(block, "positions", gradient);
    print_counts(op, &before);
    if (check_status(status, op, "mts_block_add_gradient") != MTS_SUCCESS) {
        block_release(gradient, op);
    }
    block_release(block, op);
}

/* mts_block_copy (freeing the copy after counting) or mts_block_free on a
 * block with a gradient just made */
static void op_block_copy_or_free(const char *op, int copy, int component) {
    mts_block_t *block = fresh_block(component, 1, op);
    if (block == NULL) {
        return;
    }
    struct calls_snapshot before;
    calls_snapshot_take(&before);
    mts_block_t *result = NULL;
    mts_status_t status = MTS_SUCCESS;
    if (copy) {
        result = mts_block_copy(block);
    } else {
        status = mts_block_free(block);
    }
    print_counts(op, &before);
    if (copy) {
        block_release((mts_block_t *)check_result(result, op, "mts_block_copy"), op);
        block_release(block, op);
    } else {
        check_status(status, op, "mts_block_free");
    }
}

/* the reading calls on one block */
enum block_read {
    READ_SAMPLES,
    READ_COMPONENTS,
    READ_PROPERTIES,
    READ_DATA,
    READ_DEVICE,
    READ_DTYPE,
    READ_GRADIENT,
    READ_GRADIENTS_LIST,
    READ_COUNT,
};

static const char *const READ_NAMES[READ_COUNT] = {
    "mts_block_labels:samples", "mts_block_labels:components", "mts_block_labels:properties",
    "mts_block_data",           "mts_block_device",            "mts_block_dtype",
    "mts_block_gradient",       "mts_block_gradients_list",
};

/* one reading call on `block`; the labels it returns are freed at once, so
 * that their freeing is counted with it */
static void block_read(mts_block_t *block, enum block_read read, const char *op) {
    switch (read) {
    case READ_SAMPLES:
    case READ_COMPONENTS:
    case READ_PROPERTIES: {
        /* the axes of a block with one component */
        const mts_labels_t *labels = mts_block_labels(block, (uintptr_t)(read - READ_SAMPLES));
        labels_release(check_result(labels, op, "mts_block_labels"));
        return;
    }
    case READ_DATA: {
        mts_array_t data;
        memset(&data, 0, sizeof(data));
        check_status(mts_block_data(block, &data), op, "mts_block_data");
        return;
    }
    case READ_DEVICE: {
        DLDevice device;
        check_status(mts_block_device(block, &device), op, "mts_block_device");
        return;
    }
    case READ_DTYPE: {
        DLDataType dtype;
        check_status(mts_block_dtype(block, &dtype), op, "mts_block_dtype");
        return;
    }
    case READ_GRADIENT: {
        mts_block_t *gradient = NULL;
        check_status(mts_block_gradient(block, "positions", &gradient), op, "mts_block_gradient");
        return;
    }
    case READ_GRADIENTS_LIST: {
        const char *const *parameters = NULL;
        uintptr_t count = 0;
        check_status(mts_block_gradients_list(block, &parameters, &count), op,
                     "mts_block_gradients_list");
        return;
    }
    case READ_COUNT: break;
    }
}

/* `read` on a block just made by mts_block ("<read>"), and on a block of a
 * tensor map just made ("<read>:in-map") */
static void op_block_read(enum block_read read) {
    char op[128];
    snprintf(op, sizeof(op), "%s", READ_NAMES[read]);
    mts_block_t *block = fresh_block(1, 1, op);
    if (block != NULL) {
        struct calls_snapshot before;
        calls_snapshot_take(&before);
        block_read(block, read, op);
        print_counts(op, &before);
        block_release(block, op);
    }

    snprintf(op, sizeof(op), "%s:in-map", READ_NAMES[read]);
    mts_tensormap_t *tensor = fresh_map(1, 1, op);
    if (tensor == NULL) {
        return;
    }
    mts_block_t *in_map = NULL;
    if (check_status(mts_tensormap_block_by_id(tensor, &in_map, 1), op,
                     "mts_tensormap_block_by_id") == MTS_SUCCESS) {
        struct calls_snapshot before;
        calls_snapshot_take(&before);
        block_read(in_map, read, op);
        print_counts(op, &before);
    }
    tensor_release(tensor, op);
}

/* ------------------------------------------------------------------------ */
/* tensor maps                                                              */

static void op_tensor_new(const char *op, int component) {
    struct map_inputs inputs;
    map_inputs_new(&inputs, component, 1);
    mts_block_t *blocks[BLOCKS];
    map_inputs_blocks(&inputs, blocks, op);
    struct calls_snapshot before;
    calls_snapshot_take(&before);
    mts_tensormap_t *tensor = mts_tensormap(inputs.keys, blocks, BLOCKS);
    print_counts(op, &before);
    tensor_release((mts_tensormap_t *)check_result(tensor, op, "mts_tensormap"), op);
    map_inputs_release(&inputs);
}

enum tensor_call {
    CALL_COPY,
    CALL_KEYS,
    CALL_BLOCK_BY_ID,
    CALL_DEVICE,
    CALL_DTYPE,
    CALL_FREE,
    CALL_KEYS_TO_PROPERTIES,
    CALL_KEYS_TO_PROPERTIES_ROWS,
    CALL_KEYS_TO_SAMPLES_SORTED,
    CALL_KEYS_TO_SAMPLES_UNSORTED,
    CALL_COMPONENTS_TO_PROPERTIES,
};

/* `call` on a tensor map just made (with the component "c" when asked);
 * what it returns is freed after counting; `fill` and the labels of the
 * keys to move are made before */
static void op_tensor_call(const char *op, enum tensor_call call, int component) {
    mts_tensormap_t *tensor = fresh_map(component, 1, op);
    if (tensor == NULL) {
        return;
    }
    static const int32_t moved_rows[] = {0, 1};
    const mts_labels_t *move = NULL;
    mts_array_t fill;
    memset(&fill, 0, sizeof(fill));
    if (call >= CALL_KEYS_TO_PROPERTIES && call <= CALL_KEYS_TO_SAMPLES_UNSORTED) {
        uintptr_t count = call == CALL_KEYS_TO_PROPERTIES_ROWS ? 2 : 0;
        move = check_result(ta_labels(MOVED_KEY_NAMES, 1, moved_rows, count), op, "mts_labels");
        fill = ta_mts(ta_scalar_f64(0.0));
    }

    struct calls_snapshot before;
    calls_snapshot_take(&before);
    mts_tensormap_t *result = NULL;
    const mts_labels_t *keys = NULL;
    mts_block_t *block = NULL;
    DLDevice device;
    DLDataType dtype;
    mts_status_t status = MTS_SUCCESS;
    const char *const moved[] = {"c"};
    switch (call) {
    case CALL_COPY: result = mts_tensormap_copy(tensor); break;
    case CALL_KEYS: keys = mts_tensormap_keys(tensor); break;
    case CALL_BLOCK_BY_ID: status = mts_tensormap_block_by_id(tensor, &block, 2); break;
    case CALL_DEVICE: status = mts_tensormap_device(tensor, &device); break;
    case CALL_DTYPE: status = mts_tensormap_dtype(tensor, &dtype); break;
    case CALL_FREE:
        status = mts_tensormap_free(tensor);
        tensor = NULL;
        break;
    case CALL_KEYS_TO_PROPERTIES:
    case CALL_KEYS_TO_PROPERTIES_ROWS:
        result = mts_tensormap_keys_to_properties(tensor, move, fill, true);
        break;
    case CALL_KEYS_TO_SAMPLES_SORTED:
    case CALL_KEYS_TO_SAMPLES_UNSORTED:
        result = mts_tensormap_keys_to_samples(tensor, move, fill,
                                               call == CALL_KEYS_TO_SAMPLES_SORTED);
        break;
    case CALL_COMPONENTS_TO_PROPERTIES:
        result = mts_tensormap_components_to_properties(tensor, moved, 1);
        break;
    }
    print_counts(op, &before);

    check_status(status, op, op);
    if (call == CALL_KEYS) {
        labels_release(check_result(keys, op, op));
    } else if (call == CALL_COPY || call >= CALL_KEYS_TO_PROPERTIES) {
        tensor_release((mts_tensormap_t *)check_result(result, op, op), op);
    }
    labels_release(move);
    tensor_release(tensor, op);
}

/* the operations on one tensor map, on maps with the component "c" or without */
static const struct {
    const char *op;
    enum tensor_call call;
    int component;
} TENSOR_CALLS[] = {
    {"mts_tensormap_copy", CALL_COPY, 1},
    {"mts_tensormap_keys", CALL_KEYS, 1},
    {"mts_tensormap_block_by_id", CALL_BLOCK_BY_ID, 1},
    {"mts_tensormap_device", CALL_DEVICE, 1},
    {"mts_tensormap_dtype", CALL_DTYPE, 1},
    {"mts_tensormap_keys_to_properties:no-rows", CALL_KEYS_TO_PROPERTIES, 0},
    {"mts_tensormap_keys_to_properties:rows", CALL_KEYS_TO_PROPERTIES_ROWS, 0},
    {"mts_tensormap_keys_to_properties:components", CALL_KEYS_TO_PROPERTIES, 1},
    {"mts_tensormap_keys_to_samples:sorted", CALL_KEYS_TO_SAMPLES_SORTED, 0},
    {"mts_tensormap_keys_to_samples:unsorted", CALL_KEYS_TO_SAMPLES_UNSORTED, 0},
    {"mts_tensormap_keys_to_samples:components", CALL_KEYS_TO_SAMPLES_SORTED, 1},
    {"mts_tensormap_components_to_properties", CALL_COMPONENTS_TO_PROPERTIES, 1},
    {"mts_tensormap_free", CALL_FREE, 1},
};

/* ------------------------------------------------------------------------ */
/* sequences                                                                */

/* a sequence whose steps are counted one by one ("<name>:<step>"), and all
 * together ("<name>:total") */
struct sequence {
    const char *name;
    struct calls_snapshot start;
    struct calls_snapshot step;
};

static void sequence_start(struct sequence *sequence, const char *name) {
    sequence->name = name;
    calls_snapshot_take(&sequence->start);
    sequence->step = sequence->start;
}

static void sequence_print(const struct sequence *sequence, const char *step,
                           const struct calls_snapshot *since) {
    char op[128];
    snprintf(op, sizeof(op), "%s:%s", sequence->name, step);
    print_counts(op, since);
}

/* the calls since the previous step */
static void sequence_step(struct sequence *sequence, const char *step) {
    sequence_print(sequence, step, &sequence->step);
    calls_snapshot_take(&sequence->step);
}

static void sequence_end(struct sequence *sequence) {
    sequence_print(sequence, "total", &sequence->start);
}

/* mts_block for every block and gradient of `inputs` (into `blocks` and
 * `gradients`), then, when `read` is set, a first reading call on each block
 * (its samples), then mts_block_add_gradient, each a step of `sequence` */
static void sequence_blocks(struct sequence *sequence, struct map_inputs *inputs,
                            mts_block_t **blocks, int read) {
    mts_block_t *gradients[BLOCKS];
    for (int i = 0; i < BLOCKS; i++) {
        blocks[i] = parts_block(&inputs->blocks[i].block, sequence->name);
        gradients[i] = parts_block(&inputs->blocks[i].gradient, sequence->name);
    }
    sequence_step(sequence, "mts_block");
    if (read) {
        for (int i = 0; i < BLOCKS; i++) {
            block_read(blocks[i], READ_SAMPLES, sequence->name);
        }
        sequence_step(sequence, "mts_block_labels");
    }
    for (int i = 0; i < BLOCKS; i++) {
        if (check_status(mts_block_add_gradient(blocks[i], "positions", gradients[i]),
                         sequence->name, "mts_block_add_gradient") != MTS_SUCCESS) {
            block_release(gradients[i], sequence->name);
        }
    }
    sequence_step(sequence, "mts_block_add_gradient");
}

/* make blocks (reading them first when `read` is set), build a map, free
 * the caller's labels, free the map */
static void sequence_map(const char *name, int read) {
    struct map_inputs inputs;
    map_inputs_new(&inputs, 1, 1);
    struct sequence sequence;
    sequence_start(&sequence, name);
    mts_block_t *blocks[BLOCKS];
    sequence_blocks(&sequence, &inputs, blocks, read);
    mts_tensormap_t *tensor = map_from(inputs.keys, blocks, name);
    sequence_step(&sequence, "mts_tensormap");
    map_inputs_release(&inputs);
    sequence_step(&sequence, "mts_labels_free");
    tensor_release(tensor, name);
    sequence_step(&sequence, "mts_tensormap_free");
    sequence_end(&sequence);
}

/* make blocks, build a map, read its blocks, merge it with
 * keys_to_properties, free everything */
static void sequence_merge(const char *name) {
    struct map_inputs inputs;
    map_inputs_new(&inputs, 1, 1);
    const mts_labels_t *move = ta_labels(MOVED_KEY_NAMES, 1, NULL, 0);
    mts_array_t fill = ta_mts(ta_scalar_f64(0.0));
    struct sequence sequence;
    sequence_start(&sequence, name);
    mts_block_t *blocks[BLOCKS];
    sequence_blocks(&sequence, &inputs, blocks, 0);
    mts_tensormap_t *tensor = map_from(inputs.keys, blocks, name);
    sequence_step(&sequence, "mts_tensormap");
    for (uintptr_t i = 0; tensor != NULL && i < BLOCKS; i++) {
        mts_block_t *block = NULL;
        if (check_status(mts_tensormap_block_by_id(tensor, &block, i), name,
                         "mts_tensormap_block_by_id") == MTS_SUCCESS) {
            block_read(block, READ_DATA, name);
            block_read(block, READ_PROPERTIES, name);
        }
    }
    sequence_step(&sequence, "read-blocks");
    mts_tensormap_t *merged = NULL;
    if (tensor != NULL) {
        merged = mts_tensormap_keys_to_properties(tensor, move, fill, true);
        check_result(merged, name, "mts_tensormap_keys_to_properties");
    }
    sequence_step(&sequence, "mts_tensormap_keys_to_properties");
    map_inputs_release(&inputs);
    labels_release(move);
    sequence_step(&sequence, "mts_labels_free");
    tensor_release(merged, name);
    tensor_release(tensor, name);
    sequence_step(&sequence, "mts_tensormap_free");
    sequence_end(&sequence);
}

/* make a block, read it, copy it, free both */
static void sequence_block(const char *name) {
    struct block_inputs inputs;
    inputs_new(&inputs, 0, 1, 0);
    struct sequence sequence;
    sequence_start(&sequence, name);
    mts_block_t *block = parts_block(&inputs.block, name);
    sequence_step(&sequence, "mts_block");
    inputs_release(&inputs);
    sequence_step(&sequence, "mts_labels_free");
    mts_block_t *copy = NULL;
    if (block != NULL) {
        block_read(block, READ_DATA, name);
        block_read(block, READ_COMPONENTS, name);
        sequence_step(&sequence, "read");
        copy = (mts_block_t *)check_result(mts_block_copy(block), name, "mts_block_copy");
        sequence_step(&sequence, "mts_block_copy");
    }
    block_release(block, name);
    block_release(copy, name);
    sequence_step(&sequence, "mts_block_free");
    sequence_end(&sequence);
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv) {
    if (argc != 1) {
        fprintf(stderr, "usage: %s\n", argv[0]);
        return 2;
    }
    /* a panic of the reference would be a failing call here, reported by status */
    mts_disable_panic_printing();
    ta_origin_id();
    /* everything, inputs and clean-up included, which both programs make the same way */
    struct calls_snapshot start;
    calls_snapshot_take(&start);

    op_block_new("mts_block:components", 1);
    op_block_new("mts_block:no-components", 0);
    op_add_gradient("mts_block_add_gradient:components", 1);
    op_add_gradient("mts_block_add_gradient:no-components", 0);
    op_block_copy_or_free("mts_block_copy:components", 1, 1);
    op_block_copy_or_free("mts_block_copy:no-components", 1, 0);
    for (int read = 0; read < READ_COUNT; read++) {
        op_block_read((enum block_read)read);
    }
    op_block_copy_or_free("mts_block_free:components", 0, 1);
    op_block_copy_or_free("mts_block_free:no-components", 0, 0);

    op_tensor_new("mts_tensormap:components", 1);
    op_tensor_new("mts_tensormap:no-components", 0);
    for (size_t i = 0; i < COUNT_OF(TENSOR_CALLS); i++) {
        op_tensor_call(TENSOR_CALLS[i].op, TENSOR_CALLS[i].call, TENSOR_CALLS[i].component);
    }

    sequence_map("map", 0);
    sequence_map("lazy-map", 1);
    sequence_merge("merge");
    sequence_block("block");
    print_counts("program:total", &start);

    printf("callback_counts: %ld operations\n", operations);
    clear_error();
    if (ta_finish() != 0) {
        fprintf(stderr, "callback_counts: an array leaked or was destroyed twice, or a DLPack "
                        "tensor was not deleted exactly once\n");
        failures++;
    }
    return failures == 0 ? 0 : 1;
}
