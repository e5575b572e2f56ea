/*
 * bench_array.h: the mts_array_t of the C benchmarks.
 *
 * A bench array is a C-contiguous CPU buffer of any DLPack dtype whose element is a whole
 * number of bytes (the benchmarks use i32 for labels and f64 for values), reference counted:
 * every mts_array_t made from it and every DLPack tensor exported from it holds one
 * reference. Many mts_array_t may share one buffer, so the arrays a timed loop hands to the
 * library cost no copy. A shared buffer is never changed: reshape, swap_axes and move_data
 * (into it) fail unless the array holds the only reference.
 *
 * Every member of the vtable is implemented:
 *   destroy      drops one reference
 *   origin       the origin registered by bench_array_init
 *   device       CPU:0
 *   dtype        the buffer's
 *   shape        the buffer's; rank 0 (a scalar) gives a NULL pointer
 *   as_dlpack    zero-copy, read-only export to CPU:0 with a NULL stream, DLPack 1.x
 *   from_dlpack  CPU tensors of rank BENCH_ARRAY_MAX_DIMS at most: a C-contiguous tensor is
 *                kept without a copy (and deleted with the array), any other is copied
 *   create       a new buffer of the same dtype, every element set to the scalar fill value
 *                (read through the fill value's own as_dlpack)
 *   copy         a deep copy, to the CPU only
 *   reshape      a new shape with the same element count, the data unchanged
 *   swap_axes    the data permuted into a new buffer
 *   move_data    per movement and per index of the middle axes, properties_length elements
 *                copied along the last axis (bounds checked)
 * Data buffers of 1 MiB or more are recycled: the last one freed is kept for the next
 * allocation of the same size, so the large arrays a timed loop creates (keys_to_* results)
 * reuse memory already mapped and the timings hold no page faults.
 *
 * A failing callback records its message with mts_set_last_error and returns
 * MTS_CALLBACK_ERROR.
 */
#ifndef MTS_BENCH_ARRAY_H
#define MTS_BENCH_ARRAY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <metatensor.h>

#define BENCH_ARRAY_MAX_DIMS 8

struct bench_array {
    atomic_long references;
    DLDataType dtype;
    uintptr_t ndim;
    uintptr_t shape[BENCH_ARRAY_MAX_DIMS];
    void *data;
    /* when not NULL, `data` belongs to this imported tensor, deleted with the array */
    DLManagedTensorVersioned *imported;
};

extern const DLDataType BENCH_I32;
extern const DLDataType BENCH_F64;
extern const DLDataType BENCH_F32;

/* Registers `origin_name` as the data origin of every bench array. Returns 0, or -1 (the
 * arrays then report origin 0, "unregistered origin"). */
int bench_array_init(const char *origin_name);

/* Frees the recycled buffer (at exit). */
void bench_array_finish(void);

/* A new array holding one reference (its maker's), with uninitialised data; NULL when out
 * of memory or when the dtype or the rank is not supported. */
struct bench_array *bench_array_new(DLDataType dtype, uintptr_t ndim, const uintptr_t *shape);
/* A new array without data (data is NULL): for code that only reads shapes; the members
 * that read or write data must not be called on it. */
struct bench_array *bench_array_new_shape_only(DLDataType dtype, uintptr_t ndim, const uintptr_t *shape);
/* A new i32 array of shape (count, size). */
struct bench_array *bench_array_new_i32(uintptr_t count, uintptr_t size);

/* The number of elements. */
uintptr_t bench_array_count(const struct bench_array *array);

struct bench_array *bench_array_retain(struct bench_array *array);
/* Drops one reference; NULL is fine. */
void bench_array_release(struct bench_array *array);

/* An mts_array_t taking over one reference to `array` (its caller's). */
mts_array_t bench_array_adopt(struct bench_array *array);
/* An mts_array_t sharing `array` with its other holders. */
mts_array_t bench_array_share(struct bench_array *array);
/* The create_array callback of the loads (mts_tensormap_load, mts_tensormap_load_buffer): a
 * bench array of uninitialised CPU memory, whose DLPack export is writable while it holds the
 * only reference to its buffer, as the loads write through it. */
mts_status_t bench_array_create_for_load(const uintptr_t *shape, uintptr_t shape_count, DLDataType dtype,
                                         mts_array_t *array);
/* Tells whether an mts_array_t was made by bench_array_create_for_load. */
bool bench_array_made_for_load(const mts_array_t *array);
/* A scalar array of dtype BENCH_F64 or BENCH_F32 holding `value` (for fill values); .ptr is
 * NULL when out of memory or for another dtype. */
mts_array_t bench_array_scalar(DLDataType dtype, double value);

/* Labels the benchmarks build, in bench arrays (NULL after bench_fail / bench_pointer on
 * failure): `name` = first, first + 1, ... (count entries); and (first, second) =
 * (i / per_first, i % per_first) for i < count, which is sorted. bench_labels_free frees and
 * clears a pointer that may be NULL. */
const mts_labels_t *bench_range_labels(const char *name, int32_t first, uintptr_t count);
/* bench_range_labels made with mts_labels_assume_unique. */
const mts_labels_t *bench_unique_range_labels(const char *name, int32_t first, uintptr_t count);
const mts_labels_t *bench_pair_labels(const char *first, const char *second, uintptr_t count, uintptr_t per_first);
void bench_labels_free(const mts_labels_t **labels);
/* bench_pair_labels with its rows in an order shuffled by `seed` (0: not shuffled). */
const mts_labels_t *bench_shuffled_pair_labels(const char *first, const char *second, uintptr_t count,
                                               uintptr_t per_first, uint64_t seed);

/* A tensor map of f64 blocks for the benchmarks: keys "key" = 0..blocks-1; every block has
 * the samples (system, atom) = (i / atoms_per_system, i % atoms_per_system), one component
 * "m" = component_first.., the properties "n" = 0..; element e of block b holds
 * 1 + b * block_size + e. NULL after bench_fail / bench_pointer on failure. */
mts_tensormap_t *bench_dense_map_new(uintptr_t blocks_count, uintptr_t samples_count, uintptr_t atoms_per_system,
                                     uintptr_t components_count, int32_t component_first, uintptr_t properties_count);

/* Times n calls of mts_tensormap_keys_to_samples (to_samples) or _keys_to_properties on `map`,
 * each given a new scalar fill value of `dtype` made before the timer; `check` looks at each
 * result after the timer, which is then freed (timed too with time_free). Sets *elapsed_ns;
 * returns 0, or -1 after bench_fail. */
int bench_keys_to_loop(const mts_tensormap_t *map, const mts_labels_t *keys_to_move, bool to_samples,
                       bool sort_samples, DLDataType dtype, uint64_t n, bool time_free, double *elapsed_ns,
                       int (*check)(const void *context, mts_tensormap_t *moved), const void *context);

#endif
