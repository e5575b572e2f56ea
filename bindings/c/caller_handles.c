/* The handles C callers hold instead of record addresses (mtsgo.h). A handle names a slot of
 * this table and the slot's generation, which changes when the handle ends: a freed, given
 * away or foreign pointer is rejected by looking at the table alone, never at the memory it
 * may once have named. Lookups take no lock. Slots are handed out from a small per-thread
 * cache, so making and ending handles rarely takes the table's lock either. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtsgo.h"

/* handle = generation << GENERATION_SHIFT | (slot + 1) << SLOT_SHIFT: never NULL, aligned
 * like a pointer, and below 2^64 for 2^24 generations and 2^32 slots. */
#define SLOT_SHIFT 8
#define GENERATION_SHIFT 40
#define GENERATION_MASK 0xffffffu

#define CHUNK_BITS 12
#define CHUNK_SIZE (1u << CHUNK_BITS)
#define MAX_CHUNKS (1u << 14) /* 64 Mi handles alive at once */

#define CACHE_SIZE 64
#define CACHE_REFILL 32

/* Slots hold record addresses hidden (XORed with this), so that leak checkers, which look for
 * pointers in memory, still report the objects a caller loses. */
#define HIDDEN 0x5a5a5a5a5a5a5a5aull

struct slot {
    uintptr_t record;    /* atomic; the record's address, hidden; 0 while the slot is free */
    uint64_t kind;       /* the record's magic number */
    uint32_t generation; /* atomic; the generation of the handle that names the slot now */
};

static struct slot *chunks[MAX_CHUNKS]; /* atomic pointers, made on demand, never freed */

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t next_slot;   /* slots below it have been handed out; under table_lock */
static uint32_t *free_slots; /* under table_lock */
static size_t free_count, free_capacity;

static _Thread_local uint32_t cached[CACHE_SIZE];
static _Thread_local unsigned cached_count;

static pthread_key_t cache_key;
static pthread_once_t cache_key_once = PTHREAD_ONCE_INIT;

static struct slot *slot_at(uint32_t index) {
    struct slot *chunk = __atomic_load_n(&chunks[index >> CHUNK_BITS], __ATOMIC_ACQUIRE);
    return chunk == NULL ? NULL : &chunk[index & (CHUNK_SIZE - 1)];
}

/* Gives `count` slots of the cache back to the table; under table_lock. */
static int return_slots(unsigned count) {
    if (free_count + count > free_capacity) {
        size_t capacity = free_capacity == 0 ? 1024 : 2 * free_capacity;
        uint32_t *grown = realloc(free_slots, capacity * sizeof(uint32_t));
        if (grown == NULL) {
            return 0;
        }
        free_slots = grown;
        free_capacity = capacity;
    }
    cached_count -= count;
    memcpy(free_slots + free_count, cached + cached_count, count * sizeof(uint32_t));
    free_count += count;
    return 1;
}

/* A thread's cached slots go back to the table when it exits. */
static void return_cache_at_exit(void *unused) {
    (void)unused;
    pthread_mutex_lock(&table_lock);
    return_slots(cached_count);
    pthread_mutex_unlock(&table_lock);
}

static void create_cache_key(void) {
    pthread_key_create(&cache_key, return_cache_at_exit);
}

/* Fills the cache from the table's free slots, or new ones; 0 when the table is full or out
 * of memory. */
static int refill_cache(void) {
    pthread_once(&cache_key_once, create_cache_key);
    pthread_setspecific(cache_key, cached);
    pthread_mutex_lock(&table_lock);
    while (cached_count < CACHE_REFILL && free_count > 0) {
        cached[cached_count++] = free_slots[--free_count];
    }
    while (cached_count < CACHE_REFILL) {
        uint32_t index = next_slot;
        if (index >> CHUNK_BITS >= MAX_CHUNKS) {
            break;
        }
        if ((index & (CHUNK_SIZE - 1)) == 0) {
            struct slot *chunk = calloc(CHUNK_SIZE, sizeof(struct slot));
            if (chunk == NULL) {
                break;
            }
            for (unsigned i = 0; i < CHUNK_SIZE; i++) {
                chunk[i].generation = 1;
            }
            __atomic_store_n(&chunks[index >> CHUNK_BITS], chunk, __ATOMIC_RELEASE);
        }
        next_slot++;
        cached[cached_count++] = index;
    }
    pthread_mutex_unlock(&table_lock);
    return cached_count > 0;
}

static uintptr_t encode(uint32_t index, uint32_t generation) {
    return (uintptr_t)generation << GENERATION_SHIFT | ((uintptr_t)index + 1) << SLOT_SHIFT;
}

static const char *kind_name(uint64_t kind) {
    switch (kind) {
    case MTSGO_LABELS_MAGIC:
        return "labels";
    case MTSGO_BLOCK_MAGIC:
        return "block";
    default:
        return "tensor map";
    }
}

/* The record behind a handle of the kind, or NULL. */
static void *lookup(const void *handle, uint64_t kind) {
    uintptr_t value = (uintptr_t)handle;
    uint64_t index = ((value >> SLOT_SHIFT) & 0xffffffffu) - 1;
    if ((value & ((1u << SLOT_SHIFT) - 1)) != 0 || index >= (uint64_t)MAX_CHUNKS * CHUNK_SIZE) {
        return NULL;
    }
    struct slot *slot = slot_at((uint32_t)index);
    if (slot == NULL ||
        __atomic_load_n(&slot->generation, __ATOMIC_ACQUIRE) != value >> GENERATION_SHIFT) {
        return NULL;
    }
    uintptr_t record = __atomic_load_n(&slot->record, __ATOMIC_ACQUIRE);
    return record != 0 && slot->kind == kind ? (void *)(record ^ HIDDEN) : NULL;
}

static void reject(const char *argument, uint64_t kind) {
    char message[256];
    snprintf(message, sizeof message,
             "invalid parameter: `%s` is not a valid %s: it was freed or given away, or points to "
             "something else",
             argument, kind_name(kind));
    mtsgo_fail(MTS_INVALID_PARAMETER_ERROR, message);
}

void *mtsgo_record_of(const void *handle, uint64_t kind, const char *argument) {
    void *record = lookup(handle, kind);
    if (record == NULL) {
        reject(argument, kind);
    }
    return record;
}

int mtsgo_records_of(const void *const *handles, uintptr_t count, uint64_t kind,
                     const char *argument, void ***records) {
    if (count > MTSGO_RECORDS_ON_STACK) {
        *records = malloc(count * sizeof(void *));
        if (*records == NULL) {
            mtsgo_fail(MTS_INTERNAL_ERROR, "internal error: out of memory");
            return 0;
        }
    }
    for (uintptr_t i = 0; i < count; i++) {
        /* NULL entries are the callee's to reject, with its own message. */
        (*records)[i] = handles[i] == NULL ? NULL : lookup(handles[i], kind);
        if (handles[i] != NULL && (*records)[i] == NULL) {
            char entry[128];
            snprintf(entry, sizeof entry, "%s[%lu]", argument, (unsigned long)i);
            reject(entry, kind);
            if (count > MTSGO_RECORDS_ON_STACK) {
                free(*records);
            }
            return 0;
        }
    }
    return 1;
}

void mtsgo_records_done(void **handles, void **records, void **stack, uintptr_t count) {
    for (uintptr_t i = 0; handles != NULL && i < count; i++) {
        if (records[i] == NULL) {
            handles[i] = NULL;
        }
    }
    if (records != stack) {
        free(records);
    }
}

void *mtsgo_handle_of_result(const void *record) {
    return record == NULL ? NULL : mtsgo_handle_of((struct mtsgo_record *)record);
}

mts_status_t mtsgo_give_handle(void **slot) {
    if (*slot == NULL) {
        return MTS_SUCCESS;
    }
    void *handle = mtsgo_handle_of((struct mtsgo_record *)*slot);
    if (handle == NULL) {
        return MTS_INTERNAL_ERROR;
    }
    *slot = handle;
    return MTS_SUCCESS;
}

void *mtsgo_handle_of(struct mtsgo_record *record) {
    uintptr_t handle = __atomic_load_n(&record->caller, __ATOMIC_ACQUIRE);
    if (handle != 0) {
        return (void *)handle;
    }
    if (cached_count == 0 && !refill_cache()) {
        mtsgo_fail(MTS_INTERNAL_ERROR, "internal error: too many live objects, or out of memory");
        return NULL;
    }
    uint32_t index = cached[--cached_count];
    struct slot *slot = slot_at(index);
    slot->kind = record->magic;
    __atomic_store_n(&slot->record, (uintptr_t)record ^ HIDDEN, __ATOMIC_RELEASE);
    handle = encode(index, __atomic_load_n(&slot->generation, __ATOMIC_RELAXED));
    uintptr_t none = 0;
    if (!__atomic_compare_exchange_n(&record->caller, &none, handle, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        /* Another thread gave the record a handle first: use that one. */
        __atomic_store_n(&slot->record, 0, __ATOMIC_RELEASE);
        cached[cached_count++] = index;
        return (void *)none;
    }
    return (void *)handle;
}

void mtsgo_handle_end(struct mtsgo_record *record) {
    uintptr_t handle = __atomic_exchange_n(&record->caller, 0, __ATOMIC_ACQ_REL);
    if (handle == 0) {
        return;
    }
    uint32_t index = (uint32_t)(((handle >> SLOT_SHIFT) & 0xffffffffu) - 1);
    struct slot *slot = slot_at(index);
    __atomic_store_n(&slot->record, 0, __ATOMIC_RELEASE);
    uint32_t generation = (slot->generation + 1) & GENERATION_MASK;
    __atomic_store_n(&slot->generation, generation == 0 ? 1 : generation, __ATOMIC_RELEASE);
    if (cached_count == CACHE_SIZE) {
        pthread_mutex_lock(&table_lock);
        int returned = return_slots(CACHE_SIZE - CACHE_REFILL);
        pthread_mutex_unlock(&table_lock);
        if (!returned) {
            return; /* the slot is lost, not reused */
        }
    }
    cached[cached_count++] = index;
}
