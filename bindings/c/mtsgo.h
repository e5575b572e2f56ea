/* Private declarations shared by the hand-written and generated C files of bindings/c. */
#ifndef MTSGO_H
#define MTSGO_H

#include <stddef.h>
#include <stdint.h>

#include "metatensor.h"
#include "trampolines_gen.h"

/* Records a library error on the calling thread (origin "metatensor-core", no data), after
 * releasing the previous record's data. `message` holds `length` bytes, prefix included. */
void mtsgo_record_error(const char *message, size_t length);

/* mtsgo_record_error for a NUL-terminated message; returns `status` for tail calls. */
mts_status_t mtsgo_fail(mts_status_t status, const char *message);

/* Marks the current error as coming from a failed callback: the message becomes
 * "<context>: <message>", the origin and data the callback stored are kept. */
void mtsgo_callback_failed(const char *context, size_t length);

/* Allocates a DLPack tensor whose shape, strides and data live in the same malloc'd block;
 * its deleter frees the block. Used to hand data made by Go to C callbacks. */
DLManagedTensorVersioned *mtsgo_managed_tensor_new(int32_t ndim, size_t data_bytes);

/* Non-zero until mts_disable_panic_printing is called. */
int mtsgo_panic_printing_enabled(void);

/* What C holds for each object: a handle into Go's table, never a Go pointer. `magic` tells
 * the kinds apart and catches most uses of a freed or foreign pointer. The labels, block and
 * tensor map issues add the C views that the ABI promises stay valid (names, values...). */
#define MTSGO_LABELS_MAGIC 0x4c4142454c53ull    /* "LABELS" */
#define MTSGO_BLOCK_MAGIC 0x424c4f434bull       /* "BLOCK" */
#define MTSGO_TENSORMAP_MAGIC 0x544d4150ull     /* "TMAP" */
#define MTSGO_FREED_MAGIC 0xdeadull

struct mtsgo_record {
    uint64_t magic;
    uintptr_t handle;
};

struct mts_labels_t { struct mtsgo_record record; };
struct mts_block_t { struct mtsgo_record record; };
struct mts_tensormap_t { struct mtsgo_record record; };

#endif
