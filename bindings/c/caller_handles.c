/* The handles C callers hold instead of record addresses (caller_handles.h). A handle names a slot of
 * this table and the slot's generation, which changes when the handle ends: a freed, given
 * away or foreign pointer is rejected by looking at the table alone, never at the memory it
 * may once have named. Lookups take no lock. Slots are handed out from a small per-thread
 * cache, so making and ending handles rarely takes the table's lock either. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caller_handles.h"
#include "mtsgo.h"

#define CACHE_SIZE 64
#define CACHE_REFILL 32

struct mtsgo_handle_slot *mtsgo_handle_chunks[MTSGO_HANDLE_MAX_CHUNKS];

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t next_slot;   /* slots below it have been handed out; under table_lock */
static uint32_t *free_slots; /* under table_lock */
static size_t free_count, free_capacity;

static _Thread_local uint32_t cached[CACHE_SIZE];
static _Thread_local unsigned cached_count;

static pthread_key_t cache_key;
static pthread_once_t cache_key_once = PTHREAD_ONCE_INIT;


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
        if (index >> MTSGO_HANDLE_CHUNK_BITS >= MTSGO_HANDLE_MAX_CHUNKS) {
            break;
        }
        if ((index & (MTSGO_HANDLE_CHUNK_SIZE - 1)) == 0) {
            struct mtsgo_handle_slot *chunk = calloc(MTSGO_HANDLE_CHUNK_SIZE, sizeof(struct mtsgo_handle_slot));
            if (chunk == NULL) {
                break;
            }
            for (unsigned i = 0; i < MTSGO_HANDLE_CHUNK_SIZE; i++) {
                chunk[i].generation = 1;
            }
            __atomic_store_n(&mtsgo_handle_chunks[index >> MTSGO_HANDLE_CHUNK_BITS], chunk, __ATOMIC_RELEASE);
        }
        next_slot++;
        cached[cached_count++] = index;
    }
    pthread_mutex_unlock(&table_lock);
    return cached_count > 0;
}

static uintptr_t encode(uint32_t index, uint32_t generation) {
    return (uintptr_t)generation << MTSGO_HANDLE_GENERATION_SHIFT | ((uintptr_t)index + 1) << MTSGO_HANDLE_SLOT_SHIFT;
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

static void reject(const char *argument, uint64_t kind) {
    char message[256];
    snprintf(message, sizeof message,
             "invalid parameter: `%s` is not a valid %s: it was freed or given away, or points to "
             "something else",
             argument, kind_name(kind));
    mtsgo_fail(MTS_INVALID_PARAMETER_ERROR, message);
}

void *mtsgo_reject_handle(uint64_t kind, const char *argument) {
    reject(argument, kind);
    return NULL;
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
        (*records)[i] = handles[i] == NULL ? NULL : mtsgo_lookup_handle(handles[i], kind);
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

/* Takes a slot of the table for record: its index, and the handle naming it in *handle; 0
 * (error recorded) when none is left. */
static int take_slot(struct mtsgo_record *record, uint32_t *index, uintptr_t *handle) {
    if (cached_count == 0 && !refill_cache()) {
        mtsgo_fail(MTS_INTERNAL_ERROR, "internal error: too many live objects, or out of memory");
        return 0;
    }
    *index = cached[--cached_count];
    struct mtsgo_handle_slot *slot = mtsgo_handle_slot_at(*index);
    slot->kind = record->magic;
    __atomic_store_n(&slot->record, (uintptr_t)record ^ MTSGO_HANDLE_HIDDEN, __ATOMIC_RELEASE);
    *handle = encode(*index, __atomic_load_n(&slot->generation, __ATOMIC_RELAXED));
    return 1;
}

void *mtsgo_handle_new(struct mtsgo_record *record) {
    uint32_t index;
    uintptr_t handle;
    if (!take_slot(record, &index, &handle)) {
        return NULL;
    }
    uintptr_t none = 0;
    if (!__atomic_compare_exchange_n(&record->caller, &none, handle, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        /* Another thread gave the record a handle first: use that one. */
        __atomic_store_n(&mtsgo_handle_slot_at(index)->record, 0, __ATOMIC_RELEASE);
        cached[cached_count++] = index;
        return (void *)none;
    }
    return (void *)handle;
}

void *mtsgo_handle_new_unshared(struct mtsgo_record *record) {
    uint32_t index;
    uintptr_t handle;
    if (!take_slot(record, &index, &handle)) {
        return NULL;
    }
    /* No other thread can race this store: a plain one, where the exchange's lock would wait
     * for the stores that just filled the record. */
    __atomic_store_n(&record->caller, handle, __ATOMIC_RELEASE);
    return (void *)handle;
}

void mtsgo_handle_end_held(struct mtsgo_record *record) {
    /* A handle ends when its record is freed or given away, which the record's one holder
     * does alone (a use at the same time is the caller's race, as with the reference's
     * pointers): a plain read and write do, where an atomic exchange would stall the free of
     * every record on it. Making handles (mtsgo_handle_new) can race between readers. */
    uintptr_t handle = __atomic_load_n(&record->caller, __ATOMIC_RELAXED);
    if (handle == 0) {
        return;
    }
    __atomic_store_n(&record->caller, 0, __ATOMIC_RELAXED);
    uint32_t index = (uint32_t)(((handle >> MTSGO_HANDLE_SLOT_SHIFT) & 0xffffffffu) - 1);
    struct mtsgo_handle_slot *slot = mtsgo_handle_slot_at(index);
    __atomic_store_n(&slot->record, 0, __ATOMIC_RELEASE);
    uint32_t generation = (slot->generation + 1) & MTSGO_HANDLE_GENERATION_MASK;
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
