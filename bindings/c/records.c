/* Releases of the C memory of records (records.go) and of arrays, each in one call from Go,
 * the recycling of block records, and the blocks given to a tensor map or a block. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fastpath.h"

void mtsgo_array_release(struct mts_array_t *array) {
    mtsgo_array_destroy(array);
    free(array);
}

/* Block records are recycled: building and freeing tensor maps spent about a fifth of its time
 * in calloc and free for them (map_cycle_bench). Each thread keeps up to POOLED_RECORDS of the
 * records it freed (about 3.5 MiB at most) for the next blocks it makes; further ones go back
 * to malloc, and a thread's pool is freed when the thread exits. Under AddressSanitizer no
 * record is kept, so that a use after free is still caught. */
#if defined(__SANITIZE_ADDRESS__)
#define POOLED_RECORDS 0
#else
#define POOLED_RECORDS 16384
#endif

struct record_pool {
    unsigned count;
    struct mts_block_t *records[];
};

static _Thread_local struct record_pool *pool; /* malloc'd on the first free */
static pthread_key_t pool_key;
static pthread_once_t pool_key_once = PTHREAD_ONCE_INIT;

static void free_pool(void *unused) {
    (void)unused;
    for (unsigned i = 0; i < pool->count; i++) {
        free(pool->records[i]);
    }
    free(pool);
    pool = NULL;
}

static void create_pool_key(void) {
    pthread_key_create(&pool_key, free_pool);
}

/* The calling thread's pool, made when needed; NULL when out of memory or there is none. */
static struct record_pool *thread_pool(void) {
    if (pool == NULL && POOLED_RECORDS > 0) {
        pthread_once(&pool_key_once, create_pool_key);
        pool = malloc(sizeof(struct record_pool) + POOLED_RECORDS * sizeof(struct mts_block_t *));
        if (pool != NULL) {
            pool->count = 0;
            /* the key's value only marks the thread: free_pool reads the thread's own pool */
            pthread_setspecific(pool_key, pool);
        }
    }
    return pool;
}

/* Words of 16 bytes that may alias anything, for zero_record. */
typedef uint64_t zero_words __attribute__((vector_size(16), aligned(8), may_alias));

/* Zeroes a recycled record with plain vector stores, where memset of its 248 bytes compiles to
 * `rep stos`, whose start-up cost the stores that fill the record next wait for (a tenth of
 * mts_block's time). Not turned back into memset (no loop distribution). */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) static inline void zero_record(
    struct mts_block_t *record) {
    _Static_assert(sizeof(*record) % sizeof(uint64_t) == 0, "block records are whole words");
    char *bytes = (char *)record;
    uintptr_t at = 0;
#pragma GCC unroll 16
    for (; at + sizeof(zero_words) <= sizeof(*record); at += sizeof(zero_words)) {
        *(zero_words *)(bytes + at) = (zero_words){0, 0};
    }
    if (at < sizeof(*record)) {
        *(uint64_t *)(void *)(bytes + at) = 0;
    }
}

struct mts_block_t *mtsgo_block_record_new(void) {
    if (pool != NULL && pool->count > 0) {
        struct mts_block_t *record = pool->records[--pool->count];
        zero_record(record);
        return record;
    }
    return calloc(1, sizeof(struct mts_block_t));
}

void mtsgo_block_record_free(struct mts_block_t *record) {
    mtsgo_handle_end(&record->record);
    /* most blocks of a tensor map have neither: no call then */
    if (record->gradients != NULL) {
        free((void *)record->gradients);
    }
    if (record->c_gradients != NULL) {
        mtsgo_c_gradients_forget(record);
    }
    struct record_pool *kept = thread_pool();
    if (kept != NULL && kept->count < POOLED_RECORDS) {
        kept->records[kept->count++] = record;
        return;
    }
    free(record);
}

mts_status_t mtsgo_tensormap_record_free(struct mts_tensormap_t *record) {
    mtsgo_handle_end(&record->record);
    free((void *)record->info_keys);
    mtsgo_c_info_free(record->c_info);
    struct mts_labels_t *keys = record->keys;
    free(record);
    return keys != NULL ? mtsgo_labels_unhold(keys, 1) : MTS_SUCCESS;
}

void mtsgo_blocks_given(struct mts_block_t *const *blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        blocks[i]->held = 1;
        mtsgo_handle_end(&blocks[i]->record);
    }
}

struct mts_tensormap_t *mtsgo_tensormap_record_taking(struct mts_block_t *const *blocks, uintptr_t count) {
    struct mts_tensormap_t *record = calloc(1, sizeof(struct mts_tensormap_t));
    if (record != NULL) {
        mtsgo_blocks_given(blocks, count);
    }
    return record;
}
