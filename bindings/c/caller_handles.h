/* The handles C callers hold instead of record addresses (caller_handles.c). The lookups are
 * inline: every call of the ABI makes one per object argument. */
#ifndef MTSGO_CALLER_HANDLES_H
#define MTSGO_CALLER_HANDLES_H

#include <stdint.h>

/* handle = generation << GENERATION_SHIFT | (slot + 1) << SLOT_SHIFT: never NULL, aligned
 * like a pointer, with 2^24 generations and 2^32 slots. */
#define MTSGO_HANDLE_SLOT_SHIFT 8
#define MTSGO_HANDLE_GENERATION_SHIFT 40
#define MTSGO_HANDLE_GENERATION_MASK 0xffffffu

#define MTSGO_HANDLE_CHUNK_BITS 12
#define MTSGO_HANDLE_CHUNK_SIZE (1u << MTSGO_HANDLE_CHUNK_BITS)
#define MTSGO_HANDLE_MAX_CHUNKS (1u << 14) /* 64 Mi handles alive at once */

/* Slots hold record addresses hidden (XORed with this), so that leak checkers, which look for
 * pointers in memory, still report the objects a caller loses. */
#define MTSGO_HANDLE_HIDDEN 0x5a5a5a5a5a5a5a5aull

struct mtsgo_handle_slot {
    uintptr_t record;    /* atomic; the record's address, hidden; 0 while the slot is free */
    uint64_t kind;       /* the record's magic number */
    uint32_t generation; /* atomic; the generation of the handle that names the slot now */
};

/* The table: chunks of slots, made on demand, never freed (atomic pointers). */
extern struct mtsgo_handle_slot *mtsgo_handle_chunks[MTSGO_HANDLE_MAX_CHUNKS];

static inline struct mtsgo_handle_slot *mtsgo_handle_slot_at(uint32_t index) {
    struct mtsgo_handle_slot *chunk =
        __atomic_load_n(&mtsgo_handle_chunks[index >> MTSGO_HANDLE_CHUNK_BITS], __ATOMIC_ACQUIRE);
    return chunk == NULL ? NULL : &chunk[index & (MTSGO_HANDLE_CHUNK_SIZE - 1)];
}

/* The record behind a handle of the kind `kind` (a record magic number), or NULL. */
static inline void *mtsgo_lookup_handle(const void *handle, uint64_t kind) {
    uintptr_t value = (uintptr_t)handle;
    uint64_t index = ((value >> MTSGO_HANDLE_SLOT_SHIFT) & 0xffffffffu) - 1;
    if ((value & ((1u << MTSGO_HANDLE_SLOT_SHIFT) - 1)) != 0 ||
        index >= (uint64_t)MTSGO_HANDLE_MAX_CHUNKS * MTSGO_HANDLE_CHUNK_SIZE) {
        return NULL;
    }
    struct mtsgo_handle_slot *slot = mtsgo_handle_slot_at((uint32_t)index);
    if (slot == NULL || __atomic_load_n(&slot->generation, __ATOMIC_ACQUIRE) !=
                            value >> MTSGO_HANDLE_GENERATION_SHIFT) {
        return NULL;
    }
    uintptr_t record = __atomic_load_n(&slot->record, __ATOMIC_ACQUIRE);
    return record != 0 && slot->kind == kind ? (void *)(record ^ MTSGO_HANDLE_HIDDEN) : NULL;
}

/* Records the invalid-parameter error of a handle that is not one of the kind, naming
 * `argument`; gives NULL. */
void *mtsgo_reject_handle(uint64_t kind, const char *argument);

/* The record behind a caller's handle of the kind; NULL, with an invalid-parameter error
 * naming `argument`, for anything else. */
static inline void *mtsgo_record_of(const void *handle, uint64_t kind, const char *argument) {
    void *record = mtsgo_lookup_handle(handle, kind);
    return record != NULL ? record : mtsgo_reject_handle(kind, argument);
}

#endif
