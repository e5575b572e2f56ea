/* The fast paths of bindings/c: common cases of a few calls done in C, without Go, handing
 * every other case over to Go from what C already asked the user's arrays, so that no callback
 * runs twice and the errors are Go's. Each can be switched off, for benchmarking (bench/) and
 * testing: its calls then take the plain path, exactly what they take when it does not apply.
 * Their limits are Go constants (fastpath_limits_gen.h). */
#ifndef MTSGO_FASTPATH_H
#define MTSGO_FASTPATH_H

#include <string.h>

#include "fastpath_limits_gen.h"
#include "mtsgo.h"

#define MTSGO_FASTPATH_LABELS 1u   /* mts_labels, checked labels of few entries (fastpath_labels.c) */
#define MTSGO_FASTPATH_UNIQUE 2u   /* mts_labels_assume_unique (fastpath_labels.c) */
#define MTSGO_FASTPATH_BLOCK 4u    /* mts_block and mts_block_free (fastpath_block.c) */
#define MTSGO_FASTPATH_RELEASE 8u  /* mts_tensormap_free, records freed in one call (fastpath_release.c) */
#define MTSGO_FASTPATH_TENSORMAP 16u /* mts_tensormap, its free, blocks and keys (fastpath_tensormap.c) */
#define MTSGO_FASTPATH_GRADIENT 32u  /* mts_block_add_gradient of blocks made in C (fastpath_gradient.c) */
#define MTSGO_FASTPATH_READS 64u     /* reads of blocks and tensor maps made in C (fastpath_reads.c) */
#define MTSGO_FASTPATH_INFO 128u     /* the info of tensor maps made in C (fastpath_info.c) */
#define MTSGO_FASTPATH_RECYCLE 256u  /* the Go memory of maps and labels made in C, reused (recycled.go) */
#define MTSGO_FASTPATH_POSITION 512u /* mts_labels_position in C once Go built the index (fastpath_position.c) */

/* The fast paths switched on, read once when the library is loaded from the environment
 * variable MTSGO_FASTPATHS: a comma-separated list of words read in order from "all on":
 * "off" switches every fast path off, a name (labels, unique, block, release, tensormap, gradient,
 * reads, info, recycle, position) switches it on, "-name" off. So "off" gives the plain paths only, "-release" every fast
 * path but release, "off,block" the block fast path only. */
extern unsigned mtsgo_fastpaths;

/* What a fast path asked before handing a call over to Go, in the order Go asks (core.Asked):
 * the values' shape (as the array gave it), then devices (the values', then for a block the
 * samples', the components' and the properties'), then for labels the CPU export. */
struct mtsgo_asked {
    const uintptr_t *shape;
    uintptr_t dimensions;
    int has_shape;
    DLDevice devices[MTSGO_FASTPATH_BLOCK_COMPONENTS + 3];
    uintptr_t devices_count;
    int exported;                      /* as_dlpack was asked: managed is what it gave */
    DLManagedTensorVersioned *managed; /* Go takes it over */
};

/* Starts what a fast path asks: nothing yet. Sets every field but the devices, read up to
 * devices_count; `= {0}` compiles to a `rep stos` of the whole struct, whose start-up cost is a
 * tenth of a fast mts_block. */
static inline void mtsgo_asked_start(struct mtsgo_asked *asked) {
    asked->shape = NULL;
    asked->dimensions = 0;
    asked->has_shape = 0;
    asked->devices_count = 0;
    asked->exported = 0;
    asked->managed = NULL;
}

/* What a failed array callback gives, as in Go: the callback's error with `context` before
 * its message; then the array is destroyed, as on every error of a function taking it. */
void mtsgo_array_callback_failed(struct mts_array_t *array, const char *context);

/* Set (to 1, once) when the library's own labels array was first asked for its origin: from
 * then on, checked labels ask their array's origin first, which mtsgo_c_labels leaves to Go. */
extern int mtsgo_labels_origin_asked;

/* Tells whether labels can be used by a block or tensor map made in C: live, held by the
 * caller, and with an array of the caller's or the library's own labels values, whose device C
 * knows (other Go arrays would answer through a call into Go, so Go asks them). */
static inline int mtsgo_plain_labels(const struct mts_labels_t *labels) {
    return labels != NULL && labels->record.magic == MTSGO_LABELS_MAGIC &&
           MTSGO_REFERENCES(__atomic_load_n(&labels->references, __ATOMIC_ACQUIRE)) != 0 &&
           (labels->cpu_values ||
            (labels->array.device != NULL && labels->array.origin != mtsgo_go_array_origin()));
}

/* The device of labels whose array C can ask (mtsgo_plain_labels), asked as Go asks it: not
 * at all for the library's own values, which live on the CPU; 0 when the callback failed. */
static inline int mtsgo_labels_device(const struct mts_labels_t *labels, DLDevice *device) {
    device->device_type = kDLCPU;
    device->device_id = 0;
    return labels->cpu_values || mtsgo_array_device(&labels->array, device) == MTS_SUCCESS;
}

/* Tells whether text is plain ASCII, which is valid UTF-8: a fast path leaves other text to Go,
 * which checks it. */
static inline int mtsgo_plain_text(const char *text) {
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
        if (*c >= 0x80) {
            return 0;
        }
    }
    return 1;
}

/* Tells whether a tensor map record is one made in C (fastpath_tensormap.c) that Go never saw. */
static inline int mtsgo_unseen_c_tensormap(const struct mts_tensormap_t *tensor) {
    /* the handle first: Go may publish the keys of a map it made (fastpath_reads.go) */
    return __atomic_load_n(&tensor->record.handle, __ATOMIC_ACQUIRE) == 0 && tensor->keys != NULL;
}

/* How many blocks ahead the passes over the blocks of a tensor map fetch the part of the
 * records they read next: the records of a large map are not in cache (100,000 block records
 * are 25 MiB), and each pass reads one part of every record, which waits for memory when the
 * loop asks for it. */
#define MTSGO_PREFETCH_AHEAD 8

/* Fetches the `bytes` bytes at `offset` in the record of block i + MTSGO_PREFETCH_AHEAD into
 * the cache, when there is such a block (a NULL one is left to the checks). */
static inline void mtsgo_prefetch_block(struct mts_block_t *const *blocks, uintptr_t i, uintptr_t count,
                                        size_t offset, size_t bytes) {
    if (i + MTSGO_PREFETCH_AHEAD < count && blocks[i + MTSGO_PREFETCH_AHEAD] != NULL) {
        const char *at = (const char *)blocks[i + MTSGO_PREFETCH_AHEAD] + offset;
        for (size_t line = 0; line < bytes; line += 64) {
            __builtin_prefetch(at + line);
        }
        __builtin_prefetch(at + bytes - 1); /* records are not aligned to cache lines */
    }
}

/* Tells whether two labels have the same dimension names. */
static inline int mtsgo_same_names(const struct mts_labels_t *a, const struct mts_labels_t *b) {
    if (a == b || (a->names_id != 0 && a->names_id == b->names_id)) {
        return 1;
    }
    if (a->size != b->size) {
        return 0;
    }
    for (uintptr_t i = 0; i < a->size; i++) {
        if (strcmp(a->names[i], b->names[i]) != 0) {
            return 0;
        }
    }
    return 1;
}

/* Labels that Go made whose last C reference a tensor map's free dropped before calling Go
 * (mtsgo_lent_labels_drop), for Go to release with the map instead of being called for each;
 * past the first MTSGO_DYING_LABELS, each is released at once, with a call into Go. */
#define MTSGO_DYING_LABELS 16
struct mtsgo_dying_labels {
    struct mts_labels_t *labels[MTSGO_DYING_LABELS];
    uintptr_t count;
};

/* References to labels dropped together: the blocks of a tensor map usually share their
 * samples and properties, and a run of blocks sharing labels drops its references in one
 * atomic operation. Position: 0 for samples, 1 + i for component i, the last for properties. */
#define MTSGO_LABELS_POSITIONS (MTSGO_FASTPATH_BLOCK_COMPONENTS + 2)
struct mtsgo_labels_runs {
    /* Bit p set when position p holds a run; the entries of the others are not read, so that
     * starting runs writes two words, not the whole struct (once per block freed alone). */
    uint32_t active;
    mts_status_t status; /* the first failure of a release */
    /* When not NULL, labels that Go made and whose last reference goes are left there. */
    struct mtsgo_dying_labels *dying;
    struct mts_labels_t *labels[MTSGO_LABELS_POSITIONS];
    uint64_t count[MTSGO_LABELS_POSITIONS];
};

/* Starts empty runs. */
static inline void mtsgo_labels_runs_start(struct mtsgo_labels_runs *runs) {
    runs->active = 0;
    runs->status = MTS_SUCCESS;
    runs->dying = NULL;
}

/* Drops what the runs hold; returns the first failure of all the releases. */
mts_status_t mtsgo_labels_runs_flush(struct mtsgo_labels_runs *runs);

/* Releases a block made in C that Go never saw, as Go's Block.Free would, whoever holds it;
 * its labels references go to `runs` when not NULL (flushed by the caller), else are dropped. */
mts_status_t mtsgo_c_block_release(struct mts_block_t *block, struct mtsgo_labels_runs *runs);

/* Drops the labels references of the records of a tensor map Go made whose blocks all lend
 * (with their gradients'), in runs, leaving in `dying` the labels Go made that lost their last
 * reference (labels Go never saw are released at once); sets the record's labels_dropped.
 * Gives the first failure of a release made at once. */
mts_status_t mtsgo_lent_labels_drop(struct mts_tensormap_t *tensor, struct mtsgo_dying_labels *dying);

/* Releases a lent block record whose labels references were dropped already
 * (mtsgo_lent_labels_drop), and its gradients' records alike: mtsgo_c_block_release without
 * the labels. */
void mtsgo_lent_block_release(struct mts_block_t *block);

/* Releases what labels made in C and never seen by Go hold (mtsgo_labels_unhold). */
void mtsgo_fastpath_labels_dispose(struct mts_labels_t *labels);

/* What compareArrays (internal/core) asks each array. */
struct mtsgo_array_description {
    mts_data_origin_t origin;
    DLDevice device;
    DLDataType dtype;
};

/* What mtsgo_compare_blocks found. */
struct mtsgo_comparison {
    struct mtsgo_array_description first, other;
    int failure; /* 0, or the member that failed (1 origin, 2 device, 3 dtype), negated when NULL */
};

/* What describeArray asks one array (the C array at `array`), in one call from Go: the
 * description, and failure as in struct mtsgo_comparison. */
struct mtsgo_array_described {
    struct mtsgo_array_description description;
    int failure;
};

struct mtsgo_array_described mtsgo_describe_array(uintptr_t array);

/* Asks the values arrays of blocks[0..count) (count > 0) their origin, device and dtype in
 * order, stopping at the first failure or at the first array differing from the first one:
 * returns its index, or -1 when all agree. */
int64_t mtsgo_compare_blocks(struct mts_block_t *const *blocks, uintptr_t count, struct mtsgo_comparison *out);

/* What the fast path of mts_block_add_gradient asked (fastpath_gradient.c), for Go to word its
 * error. */
struct mtsgo_gradient_asked {
    struct mtsgo_comparison comparison; /* the block's values, then the gradient's */
    int device_failed;                  /* the device callback of labels asked (samples, then
                                           those compared) failed */
    int samples_read;                   /* the gradient's "sample" values were read: */
    int32_t lowest, highest;            /* their range */
    uintptr_t samples;                  /* the block's sample count */
    /* Gradient labels that differ from the block's: -1 for none, 0 for the properties, 1 + i
     * for those matching the block's component i, whose dimension is component_name. */
    int labels_differ;
    const char *component_name;
};

/* The C gradient of a block made in C for parameter, or NULL. */
static inline struct mtsgo_c_gradient *mtsgo_find_c_gradient(const struct mts_block_t *block, const char *parameter) {
    for (struct mtsgo_c_gradient *g = block->c_gradients; g != NULL; g = g->next) {
        if (strcmp(g->parameter, parameter) == 0) {
            return g;
        }
    }
    return NULL;
}

/* The status of a callback that failed, its error recorded as Go words it: the callback's
 * message with `context` before it (failed, array_adaptor.go). */
static inline mts_status_t mtsgo_callback_error(const char *context) {
    mtsgo_callback_failed(context, strlen(context));
    return MTS_CALLBACK_ERROR;
}

/* Tells whether the C gradients of two blocks made in C have the same structure as Go's
 * sameGradientStructure sees it (fastpath_gradient.c). */
int mtsgo_same_c_gradients(const struct mts_block_t *a, const struct mts_block_t *b);

/* Frees the list of C gradients of a block (not the gradients): mtsgo_block_record_free. */
void mtsgo_c_gradients_forget(struct mts_block_t *block);

/* What the fast path of mts_tensormap asked (fastpath_tensormap.c), for Go to word its error. */
struct mtsgo_tensormap_asked {
    struct mtsgo_comparison comparison; /* the blocks' arrays */
    DLDevice keys_device;               /* asked when the arrays all agree */
    int keys_failed;                    /* the keys' device callback failed */
};

/* The releases of mts_tensormap_free: destroys the arrays at arrays[0..arrays_count), freeing
 * the structs (mtsgo_array_release) whose address is marked MTSGO_RELEASE_OWNED and zeroing
 * the others, frees the block records at blocks[0..blocks_count), then, when the tensor map
 * record's release_lent is set, its blocks' records with what they keep (as
 * mtsgo_c_block_release does, or mtsgo_lent_block_release when the record's labels_dropped
 * is set), then releases in order the labels' arrays (marked as those)
 * and records (marked MTSGO_RELEASE_LABELS, disposed) at labels[0..labels_count), and last
 * frees the tensor map record (when not NULL). Gives the status of the first labels release
 * that failed. */
#define MTSGO_RELEASE_OWNED ((uintptr_t)1)  /* the structs are aligned: their low bits are free */
#define MTSGO_RELEASE_LABELS ((uintptr_t)2) /* a labels record */
mts_status_t mtsgo_release_tensormap(const uintptr_t *arrays, uintptr_t arrays_count, const uintptr_t *blocks,
                             uintptr_t blocks_count, const uintptr_t *labels, uintptr_t labels_count,
                             struct mts_tensormap_t *tensormap);

/* The releases of a small tensor map Go made, which mts_tensormap_free's Go body leaves in the
 * fast path's memory instead of calling mtsgo_release_tensormap itself, so that the fast path
 * does them once Go returned: one call into C fewer per free. Go sets `ready` when it did;
 * lists that do not fit are released by Go as before. */
#define MTSGO_DEFERRED_BLOCKS 32 /* blocks and gradients, each with one array */
#define MTSGO_DEFERRED_LABELS 16 /* labels arrays and records */
struct mtsgo_deferred_release {
    uintptr_t arrays[MTSGO_DEFERRED_BLOCKS];
    uintptr_t blocks[MTSGO_DEFERRED_BLOCKS];
    uintptr_t labels[MTSGO_DEFERRED_LABELS];
    uintptr_t arrays_count, blocks_count, labels_count;
    struct mts_tensormap_t *tensormap;
    int ready;
    /* Whatever the map's size, the labels the fast path's mtsgo_lent_labels_drop left for Go
     * to release (when the record's labels_dropped is set). */
    struct mtsgo_dying_labels dying;
};

#endif
