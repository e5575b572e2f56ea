/* Private declarations shared by the hand-written and generated C files of bindings/c. */
#ifndef MTSGO_H
#define MTSGO_H

#include <stddef.h>
#include <stdint.h>

#include "fastpath_limits_gen.h"
#include "metatensor.h"
#include "trampolines_gen.h"

/* A tensor Go exports to C (shared_tensor.go), described by value, its memory apart (cgo
 * lets Go pass pointers to Go memory as arguments, not inside a struct): `copied` bytes of
 * the data (its byte offset included) copied into the export, or, when `copied` is 0, the
 * data viewed, kept alive by Go until the export's deleter hands `handle` back. NULL strides
 * are row-major. A generated helper takes it among its arguments (the from_dlpack of a
 * caller's array) and builds the export in the same call into C. */
struct mtsgo_tensor_export {
    size_t copied;
    uintptr_t handle;
    int32_t ndim;
    DLDevice device;
    DLDataType dtype;
    uint64_t byte_offset;
    uint64_t flags;
    DLPackVersion version;
};

/* The DLPack tensor of an export of `data` with `shape` and `strides` (ndim entries each), in
 * one malloc'd block with its shape, strides and copy; NULL when out of memory. */
DLManagedTensorVersioned *mtsgo_tensor_export_new(struct mtsgo_tensor_export export, void *data,
                                                  const int64_t *shape, const int64_t *strides);

/* What mtsgo_labels_like did (labels_like.c): the created array (NULL unless from_dlpack
 * succeeded) and the array's device, or which step failed and its status. */
enum mtsgo_labels_like_failure {
    MTSGO_LABELS_LIKE_OK = 0,
    MTSGO_LABELS_LIKE_NO_TENSOR,         /* out of memory for the values' tensor */
    MTSGO_LABELS_LIKE_NO_ARRAY,          /* out of memory for the new array */
    MTSGO_LABELS_LIKE_FROM_DLPACK,       /* from_dlpack failed */
    MTSGO_LABELS_LIKE_NO_DEVICE_MEMBER,  /* the array has no device member */
    MTSGO_LABELS_LIKE_DEVICE,            /* device failed */
};
struct mtsgo_labels_like_result {
    mts_status_t status;
    int failed;
    struct mts_array_t *created;
    DLDevice device;
};

/* Builds the tensor of `count` x `size` labels values (their description in `values`, copied
 * from `data`), gives it to the array's from_dlpack, then asks the array's device. */
struct mtsgo_labels_like_result mtsgo_labels_like(const struct mts_array_t *array, struct mtsgo_tensor_export values,
                                                  const int32_t *data, int64_t count, int64_t size);

/* mtsgo_array_<member>_value: the out parameters of array members returned by value, with
 * the status (a pointer to a Go variable passed to C makes it escape to the Go heap). */
#include "trampoline_values_gen.h"

/* What createFilled (internal/core) asks in its five calls (the array's dtype, the fill's
 * dtype, shape and device, the array's create), made in one call from Go
 * (array_create_filled.c): `calls` made or tried, the last one's member NULL (`missing`, not
 * called) or failed (`failed`); the answers up to there. */
struct mtsgo_filled_created {
    int calls, missing, failed;
    DLDataType dtype, fill_dtype;
    const uintptr_t *fill_shape;
    uintptr_t fill_shape_count;
    DLDevice fill_device;
    struct mts_array_t *created; /* NULL after a successful create: memory ran out */
};

struct mtsgo_filled_created mtsgo_create_filled(uintptr_t like, const uintptr_t *shape, uintptr_t shape_count,
                                                uintptr_t fill);

/* What mtsgo_copy_on_own_devices did (array_copy_many.c): `copied`, the count of arrays it
 * replaced by their copies; when fewer than it was given, the member of the next array that
 * failed, or none when that array has a NULL member and was not asked anything (Go copies it
 * on its own), or out_of_memory when its copy's struct could not be allocated after its
 * device answered. */
struct mtsgo_copied {
    uintptr_t copied;
    int failed_device, failed_copy, out_of_memory;
};

/* Copies the arrays at the addresses arrays[0..count) to their own devices, one after the
 * other, each address replaced by its copy's. */
struct mtsgo_copied mtsgo_copy_on_own_devices(uintptr_t *arrays, uintptr_t count);

/* Records a library error on the calling thread (origin "metatensor-core", no data), after
 * releasing the previous record's data. `message` holds `length` bytes, prefix included. */
void mtsgo_record_error(const char *message, size_t length);

/* mtsgo_record_error for a NUL-terminated message; returns `status` for tail calls. */
mts_status_t mtsgo_fail(mts_status_t status, const char *message);

/* Marks the current error as coming from a failed callback: the message becomes
 * "<context>: <message>", the origin and data the callback stored are kept. */
void mtsgo_callback_failed(const char *context, size_t length);

/* The mts_array_t of a Go array behind a cgo handle; `owning` sets its destroy member. Its
 * `ptr` is malloc'd (NULL when out of memory): free it with the array. */
struct mts_array_t mtsgo_go_array(uintptr_t handle, int owning);

/* The cgo handle behind the `ptr` of an array made by mtsgo_go_array. */
uintptr_t mtsgo_go_array_handle(const void *ptr);

/* The origin member of every array made by mtsgo_go_array, which tells them apart. */
const void *mtsgo_go_array_origin(void);

/* Non-zero until mts_disable_panic_printing is called. */
int mtsgo_panic_printing_enabled(void);

/* What C holds for each object: a handle into Go's table, never a Go pointer. `magic` tells
 * the kinds apart (it is also the kind in the table of caller handles) and is cleared when the
 * record is freed. The labels, block and tensor map records add the C views that the ABI
 * promises stay valid (names, values...). */
#define MTSGO_LABELS_MAGIC 0x4c4142454c53ull    /* "LABELS" */
#define MTSGO_BLOCK_MAGIC 0x424c4f434bull       /* "BLOCK" */
#define MTSGO_TENSORMAP_MAGIC 0x544d4150ull     /* "TMAP" */
#define MTSGO_FREED_MAGIC 0xdeadull

struct mtsgo_record {
    uint64_t magic;
    uintptr_t handle; /* into Go's table of objects (handles.go) */
    uintptr_t caller; /* atomic; the handle C callers hold (caller_handles.c), 0 for none */
};

/* C callers never see a record's address: they hold a handle naming a slot of a table and the
 * slot's generation (caller_handles.h), which ends when the object is freed or given away, so
 * that a stale, foreign or mistyped pointer is rejected without reading memory it may once
 * have named. The generated wrappers turn handles into records on the way in
 * (mtsgo_record_of), and records into handles on the way out. */
#include "caller_handles.h"

/* mtsgo_handle_of for a record without a handle yet: makes one; NULL (error recorded) when
 * out of memory. */
void *mtsgo_handle_new(struct mtsgo_record *record);

/* mtsgo_handle_new for a record no other thread can see yet (one just made): no exchange. */
void *mtsgo_handle_new_unshared(struct mtsgo_record *record);

/* The handle of a record, made the first time. */
static inline void *mtsgo_handle_of(struct mtsgo_record *record) {
    uintptr_t handle = __atomic_load_n(&record->caller, __ATOMIC_ACQUIRE);
    return handle != 0 ? (void *)handle : mtsgo_handle_new(record);
}

/* The handle of a record a function returns (NULL for NULL). */
static inline void *mtsgo_handle_of_result(const void *record) {
    return record == NULL ? NULL : mtsgo_handle_of((struct mtsgo_record *)record);
}

/* mtsgo_handle_end for a record just seen with a handle. */
void mtsgo_handle_end_held(struct mtsgo_record *record);

/* Ends the handle of a record, when it has one: later uses of it are rejected. Inline, as
 * most records freed have none (a block given to a tensor map lost it then): a free of
 * thousands of blocks then makes no call for them. */
static inline void mtsgo_handle_end(struct mtsgo_record *record) {
    if (__atomic_load_n(&record->caller, __ATOMIC_ACQUIRE) != 0) {
        mtsgo_handle_end_held(record);
    }
}

/* The records of an array of `count` handles (NULL entries kept), in *records: the caller's
 * stack array of MTSGO_RECORDS_ON_STACK entries, or a malloc'd one; 0 with the error recorded
 * (naming `argument[i]`) when an entry is not a handle of the kind. */
#define MTSGO_RECORDS_ON_STACK 16
int mtsgo_records_of(const void *const *handles, uintptr_t count, uint64_t kind,
                     const char *argument, void ***records);

/* Ends a call given the records of an array of handles: the entries the callee set to NULL
 * are set to NULL in `handles` too (when not NULL), and a malloc'd copy is freed. */
void mtsgo_records_done(void **handles, void **records, void **stack, uintptr_t count);

/* Replaces the record in *slot, an output, by its handle. */
mts_status_t mtsgo_give_handle(void **slot);

/* Marks blocks as belonging to a tensor map or a block from now on, and ends their handles. */
void mtsgo_blocks_given(struct mts_block_t *const *blocks, uintptr_t count);

/* Tensor map records of up to this many blocks all have room for this many, and are recycled
 * (records.c). */
#define MTSGO_POOLED_MAP_BLOCKS 4

/* A zeroed tensor map record with room for `count` blocks, `blocks` pointing at it (NULL for
 * none) and `blocks_count` set to `count`, which never changes (the record's size follows from
 * it); NULL when out of memory. */
struct mts_tensormap_t *mtsgo_tensormap_record_new(uintptr_t count);

/* A zeroed tensor map record, allocated then marking `blocks` (none for a map the core built) as
 * given to it (mtsgo_blocks_given), in one call from Go; NULL when out of memory, the blocks left
 * as they were. */
struct mts_tensormap_t *mtsgo_tensormap_record_taking(struct mts_block_t *const *blocks, uintptr_t count);

/* The C references of labels, in one atomic word so that clone and free are one atomic
 * operation each: every C reference in the low 32 bits, those of C callers among them (which
 * mts_labels_free may drop, and no more) in the high 32 bits. */
#define MTSGO_REFERENCES(word) ((word) & 0xffffffffu)
#define MTSGO_CALLERS(word) ((word) >> 32)
#define MTSGO_CALLER_REFERENCE (((uint64_t)1 << 32) | 1)

/* Labels are shared (clone gives the same address) and immutable: the reference count and the
 * views below are read by C alone, so clone, free, dimensions, values and values_cpu (once the
 * values are read) never cross into Go. */
/* The hash index of labels as Go built it (core.IndexTable): `slots` (atomic) is NULL until
 * Go published the index, the other fields are written before it. The slots are Go memory,
 * pinned until the record goes. */
struct mtsgo_labels_index {
    const uint32_t *slots; /* MTSGO_LABELS_INDEX_STRIDE_* words per slot (fastpath_limits_gen.h) */
    uint64_t mask;         /* number of slots - 1 */
    uint32_t shift;    /* a hash's top 64 - shift bits give its first slot */
    uint32_t pos_bits; /* low bits of a slot's header holding position + 1; the tag above them */
    uint32_t pos_mask;
};

struct mts_labels_t {
    /* The fields read to take labels into a block or tensor map (mtsgo_plain_labels, the
     * shape and names checks) come first, within the first 64 bytes: a code making blocks over
     * many labels pays one cache miss per labels for them, not three. */
    struct mtsgo_record record;
    uint64_t references; /* atomic; C references (MTSGO_REFERENCES): the last one releases everything */
    /* Labels made in C one after the other with the same names (the samples of each
     * structure) share a number, so that comparing their names costs one comparison
     * (mtsgo_same_names); 0 when unknown (labels made in Go). */
    uint64_t names_id;
    uintptr_t size;
    uintptr_t count;
    /* Set when the values array is the library's own labels values (core.ReadOnlyLabelsValues),
     * which live on the CPU: C knows their device without a call into Go, and `array` is
     * exported lazily. */
    int cpu_values;
    /* Set with `exported` when the rows C checked increase all along: Go takes the check
     * (distinct, sorted or not) instead of doing it again. */
    int exported_sorted;
    const char *const *names; /* one malloc'd block with the strings; NULL without dimensions */
    const int32_t *values;    /* atomic; the CPU values once read, else NULL */
    /* the values array as given, for mts_labels_values; for the library's own values
     * (cpu_values), zero until first asked for (mtsgo_labels_export_values), ptr stored last */
    struct mts_array_t array;
    /* The CPU export `values` points into, for labels checked in C (fastpath_labels.c) until
     * Go takes it over (materializeLabels); NULL otherwise. Disposing of the record deletes
     * it: when Go never took it, and when Go, letting go of labels made in C, left it back
     * here, so that the export, the array and the record go in one call into C. */
    DLManagedTensorVersioned *exported;
    /* Set when the values array is to be destroyed with the record: labels made in C, whose
     * array Go let go of (cArray.labels) or never saw. */
    int array_released;
    /* The hash index of the rows, published once Go built it for a lookup, so that
     * mts_labels_position looks rows up in C (fastpath_position.c). */
    struct mtsgo_labels_index index;
};

/* The CPU values of labels with entries, read by Go (which publishes them) the first time;
 * NULL when that failed, with *status its status (the error is recorded). */
const int32_t *mtsgo_labels_cpu_values(struct mts_labels_t *labels, mts_status_t *status);

/* Publishes the CPU values of labels to every thread. */
void mtsgo_labels_publish_values(struct mts_labels_t *labels, const int32_t *values);

/* Publishes the hash index Go built for the labels (struct mtsgo_labels_index), its slots last. */
void mtsgo_labels_publish_index(struct mts_labels_t *labels, const uint32_t *slots, uint64_t mask, uint32_t shift,
                                uint32_t pos_bits, uint32_t pos_mask);

/* Allocates a zeroed labels record holding a copy of the (non-NULL) names, in the record's
 * allocation; NULL when out of memory. */
struct mts_labels_t *mtsgo_labels_alloc(const char *const *names, uintptr_t size);

/* mtsgo_labels_alloc for names packed as mtsgo_string_table_packed takes them (labels made in
 * Go, whose names get no number). */
struct mts_labels_t *mtsgo_labels_alloc_packed(const char *text, const size_t *lengths, uintptr_t size);

/* mtsgo_labels_alloc_packed for `count` records at once, into records: the names of record i
 * are the sizes[i] strings after those of the records before it. Returns how many were made,
 * fewer than count when memory ran out. */
uintptr_t mtsgo_labels_alloc_packed_many(const char *text, const size_t *lengths, const uintptr_t *sizes,
                                         uintptr_t count, struct mts_labels_t **records);

/* Frees the names and the record, after deleting the export the record still holds and
 * destroying the values array when marked released, in that order (the export views it). */
void mtsgo_labels_dispose(struct mts_labels_t *labels);

/* Adds a caller's reference to labels and gives the C reference count before, which is 0
 * when the record must take a core reference again (see labels_records.go). */
uintptr_t mtsgo_labels_acquire(struct mts_labels_t *labels);

/* Adds one C reference that is not a caller's (a block made in C holds its labels), and drops
 * `count` of them; the last C reference releases the labels as mts_labels_free does. */
static inline void mtsgo_labels_hold(struct mts_labels_t *labels) {
    __atomic_add_fetch(&labels->references, 1, __ATOMIC_RELAXED);
}

/* Releases labels whose last C reference is gone (mtsgo_labels_unhold's rare case). */
mts_status_t mtsgo_labels_release_unheld(struct mts_labels_t *labels);

/* Inline: a tensor map's free drops its labels references through it, for every run. */
static inline mts_status_t mtsgo_labels_unhold(struct mts_labels_t *labels, uint64_t count) {
    if (MTSGO_REFERENCES(__atomic_sub_fetch(&labels->references, count, __ATOMIC_ACQ_REL)) != 0) {
        return MTS_SUCCESS;
    }
    return mtsgo_labels_release_unheld(labels);
}

/* Blocks and tensor maps are owned by one holder and changed only under the caller's own
 * synchronisation. Their records keep the string lists the ABI hands out. */
struct mts_block_t {
    struct mtsgo_record record; /* the handle is 0 (read atomically) until Go makes the block */
    /* The fields mts_tensormap's checks and mts_tensormap_free read for every block come
     * first, in the record's first 64 bytes: a map of 100,000 blocks reads its records from
     * memory, a cache line each where the fields were spread over four. */
    int held;         /* belongs to a tensor map or a block: freed with it, never alone */
    /* Go made the block of this record made in C without taking over its labels references
     * and its values array (core.Asked.Lent): the record keeps them, read as before, and
     * releases them with itself as a block Go never saw (mtsgo_c_block_release). The handle
     * then names the Go blocks of the whole tensor map, this one at `lent_index`
     * (lent_blocks.go). */
    int lent;
    uint64_t claimed; /* the number of the last mts_tensormap call given the block */
    /* Blocks checked and made in C (fastpath_block.c). The labels pointers hold one C
     * reference each until Go makes the block, which takes them over; the values array
     * stays here then (the record lives as long as the block). */
    struct mts_labels_t *samples;
    struct mts_labels_t *properties;
    /* Gradients added in C (fastpath_gradient.c), in order; read until Go makes the block,
     * freed with the record. */
    struct mtsgo_c_gradient *c_gradients;
    uintptr_t components_count;
    struct mts_labels_t *components[MTSGO_FASTPATH_BLOCK_COMPONENTS];
    const char *const *gradients; /* parameters in insertion order: one malloc'd block, or NULL */
    uintptr_t gradients_count;
    struct mts_array_t values;
    uintptr_t lent_index;
    struct mts_block_t *parent; /* for a gradient added in C, its block: Go makes them together */
    /* Set by Go (atomically) for a block it holds and does not lend (fastpath_reads.go): 1 once
     * `samples`, `components`, `properties` and `values` describe the block, so that its labels
     * and values are read in C (fastpath_reads.c), each labels pointer holding one C reference
     * until the record goes, and `values` a view unless the record holds the array itself; -1
     * when they can not (more components than the record holds, values Go made); 0 before. */
    int published;
};

/* A gradient of a block made in C, in one allocation with its parameter. */
struct mtsgo_c_gradient {
    struct mtsgo_c_gradient *next;
    struct mts_block_t *block; /* made in C, held by its parent */
    const char *parameter;     /* NUL-terminated, after the struct */
};

struct mts_tensormap_t {
    struct mtsgo_record record; /* the handle is 0 (read atomically) until Go makes the tensor map */
    const char *const *info_keys; /* info keys in insertion order: one malloc'd block, or NULL */
    uintptr_t info_keys_count;
    /* Tensor maps made in C (fastpath_tensormap.c), for the record's life: the keys, holding
     * one C reference, and the blocks, in the record's allocation. */
    struct mts_labels_t *keys;
    struct mts_block_t **blocks;
    uintptr_t blocks_count; /* never changes: mtsgo_tensormap_record_new sized the record by it */
    /* Set by mts_tensormap_free's fast path just before it calls Go, which takes it: where Go
     * leaves the releases for C to do once it returned (fastpath_release.c). */
    struct mtsgo_deferred_release *deferred;
    /* Set by Go when it made the blocks lent (mts_block_t.lent), all of them, and unset when
     * one of them or of their gradients stops lending (owns what it borrowed, or goes): while
     * set, every record of the map lends (lent_blocks.go). */
    unsigned char lends;
    /* Set by Go when every block lends (mts_block_t.lent): mtsgo_release_tensormap releases
     * the blocks' records in C, Go reading none of them. */
    unsigned char release_lent;
    /* Set by mts_tensormap_free's fast path when the map lends: it dropped the records'
     * labels references before calling Go (mtsgo_lent_labels_drop), so that Go releases the
     * labels that went with the map, and mtsgo_release_tensormap releases the rest. */
    unsigned char labels_dropped;
    /* The info set in C on a tensor map made in C before Go made it (fastpath_info.c), or
     * NULL; kept, unchanged, for the record's life once Go copied it. */
    struct mtsgo_c_info *c_info;
    /* For a tensor map Go made: the records of its blocks that mts_tensormap_block_by_id gave,
     * at their index, NULL for the others, so that later calls are answered in C
     * (fastpath_reads.go); views_count entries, allocated with the first (read atomically),
     * freed with the record. The records belong to the blocks. */
    struct mts_block_t **views;
    uintptr_t views_count;
};

/* The info of a tensor map made in C, set in C: keys[i] has values[i], in the order the keys
 * were first set; each key and its value share one allocation, freed through the key, and
 * both lists live in `entries` (capacity keys, then capacity values). When Go makes the
 * tensor map it copies the entries, and hands out a value's string again while its key keeps
 * that value: the strings go with the record. */
struct mtsgo_c_info {
    uintptr_t count, capacity;
    char **keys;
    char **values;
    char *entries[];
};

/* Frees the info of a record (mtsgo_tensormap_record_free), when there is one. */
void mtsgo_c_info_free(struct mtsgo_c_info *info);

/* Destroys an array (through its destroy member, when set) and gives the struct itself back
 * to mtsgo_array_struct_free: it came from mtsgo_array_struct_new, or from malloc. */
void mtsgo_array_release(struct mts_array_t *array);

/* A zeroed block record, recycled when the thread freed one (records.c); NULL when out of
 * memory. */
struct mts_block_t *mtsgo_block_record_new(void);

/* Fills records with count new block records (mtsgo_block_record_new) in one call; gives how
 * many it made, fewer when out of memory. */
uintptr_t mtsgo_block_records_new(struct mts_block_t **records, uintptr_t count);

/* Frees a block record (keeping it for mtsgo_block_record_new), its list of gradient
 * parameters and its list of C gradients (not the gradients), ending its handle. */
void mtsgo_block_record_free(struct mts_block_t *record);

/* Frees a tensor map record and its list of info keys, ending its handle, then drops its
 * reference to the keys of a tensor map made in C (the status of that). */
mts_status_t mtsgo_tensormap_record_free(struct mts_tensormap_t *record);

/* One malloc'd block holding a table of `count` pointers followed by the NUL-terminated
 * strings: a copy of `strings`; NULL when count is 0 or out of memory. Release it with free. */
const char *const *mtsgo_string_table(const char *const *strings, uintptr_t count);

/* mtsgo_string_table for strings packed one after the other in `text` (as Go passes them),
 * string i having lengths[i] bytes. */
const char *const *mtsgo_string_table_packed(const char *text, const size_t *lengths, uintptr_t count);

/* One malloc'd block holding `head` zeroed bytes (a multiple of the pointer size, for a
 * record) followed by the table of mtsgo_string_table, to which *table is set (NULL when
 * count is 0): a record and its strings, released by one free. NULL when out of memory. */
void *mtsgo_with_string_table(size_t head, const char *const *strings, uintptr_t count, const char *const **table);

/* mtsgo_with_string_table for strings packed as mtsgo_string_table_packed takes them. */
void *mtsgo_with_string_table_packed(size_t head, const char *text, const size_t *lengths, uintptr_t count,
                                     const char *const **table);

#endif
