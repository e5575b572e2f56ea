/* Releases of the C memory of records (records.go) and of arrays, each in one call from Go,
 * the recycling of block records and of the library's own array structs, and the blocks given
 * to a tensor map or a block. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fastpath.h"

/* Records are recycled: building and freeing tensor maps spent about a fifth of its time in
 * calloc and free for block records (map_cycle_bench), and a small map's free a fifth of its
 * time in free for its own record (glibc's free takes a lock-prefixed exchange once a process
 * has threads, as every process with Go has). Each thread keeps up to POOLED_BLOCKS of the
 * block records it freed (about 32 MiB at most: a map of 100,000 blocks made again after its
 * free paid calloc and free for the five in six records a pool of 16,384 gave back, a tenth
 * of map_pipeline_100000) and POOLED_MAPS of the records of tensor maps
 * of up to MTSGO_POOLED_MAP_BLOCKS blocks (about 0.5 MiB), which all have room for that many,
 * for the next ones it makes; further ones go back to malloc, and a thread's pools are freed
 * when the thread exits. A pool's list grows with what the thread frees: a thread that frees
 * few records keeps a short one. The structs of the arrays the library makes (copies, created
 * arrays) are kept the same way, up to POOLED_ARRAYS (about 1.7 MiB): a copy of a tensor map
 * of small blocks spent a tenth of its time allocating and freeing them (map_read_bench,
 * copy_free_N). Under AddressSanitizer nothing is kept, so that a use after free is still
 * caught. */
#if defined(__SANITIZE_ADDRESS__)
#define POOLED_BLOCKS 0
#define POOLED_MAPS 0
#define POOLED_ARRAYS 0
#else
#define POOLED_BLOCKS 131072
#define POOLED_MAPS 4096
#define POOLED_ARRAYS 16384
#endif

/* The size of a pooled tensor map record, with its room for blocks. */
#define POOLED_MAP_SIZE (sizeof(struct mts_tensormap_t) + MTSGO_POOLED_MAP_BLOCKS * sizeof(struct mts_block_t *))

/* The first length of a pool's list, doubled when full up to the pool's capacity. */
#define POOL_FIRST_ROOM 1024u

struct record_pool {
    unsigned count;
    unsigned room; /* the list's length */
    void *records[];
};

/* The calling thread's pools, malloc'd on its first free of each kind. */
static _Thread_local struct record_pool *block_pool, *map_pool, *array_pool;
static pthread_key_t pools_key;
static pthread_once_t pools_key_once = PTHREAD_ONCE_INIT;

static void free_pool(struct record_pool **pool) {
    if (*pool == NULL) {
        return;
    }
    for (unsigned i = 0; i < (*pool)->count; i++) {
        free((*pool)->records[i]);
    }
    free(*pool);
    *pool = NULL;
}

static void free_pools(void *unused) {
    (void)unused;
    free_pool(&block_pool);
    free_pool(&map_pool);
    free_pool(&array_pool);
}

static void create_pools_key(void) {
    pthread_key_create(&pools_key, free_pools);
}

/* Makes the calling thread's pool of `capacity` records at most, or grows its full list
 * (twice as long, up to capacity); NULL when it holds capacity already, memory ran out or
 * there is none, the pool unchanged. Out of line: once per thread and growth. */
static __attribute__((noinline)) struct record_pool *make_pool(struct record_pool **pool, unsigned capacity) {
    if (capacity == 0 || (*pool != NULL && (*pool)->room >= capacity)) {
        return NULL;
    }
    unsigned room = *pool == NULL ? POOL_FIRST_ROOM : 2 * (*pool)->room;
    room = room < capacity ? room : capacity;
    struct record_pool *made = realloc(*pool, sizeof(struct record_pool) + room * sizeof(void *));
    if (made == NULL) {
        return NULL;
    }
    if (*pool == NULL) {
        pthread_once(&pools_key_once, create_pools_key);
        made->count = 0;
    }
    made->room = room;
    *pool = made;
    /* the key's value only marks the thread: free_pools reads the thread's own pools */
    pthread_setspecific(pools_key, made);
    return made;
}

/* Keeps a freed record in the calling thread's pool of `capacity` records, made or grown when
 * needed; 0 when the pool is full, out of memory or there is none: free it then. */
static inline int keep_record(struct record_pool **pool, unsigned capacity, void *record) {
    struct record_pool *kept = *pool;
    if ((kept == NULL || kept->count >= kept->room) && (kept = make_pool(pool, capacity)) == NULL) {
        return 0;
    }
    kept->records[kept->count++] = record;
    return 1;
}

/* A record from the calling thread's pool, or NULL when it has none. */
static inline void *pooled_record(struct record_pool *pool) {
    return pool != NULL && pool->count > 0 ? pool->records[--pool->count] : NULL;
}

/* Words of 16 bytes that may alias anything, for zero_record. */
typedef uint64_t zero_words __attribute__((vector_size(16), aligned(8), may_alias));

/* Zeroes a recycled record of `size` bytes (a constant once inlined) with plain vector
 * stores, where memset of a block record's 248 bytes compiles to `rep stos`, whose start-up
 * cost the stores that fill the record next wait for (a tenth of mts_block's time). Not
 * turned back into memset (no loop distribution). */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) static inline void zero_record(void *record,
                                                                                            size_t size) {
    char *bytes = (char *)record;
    uintptr_t at = 0;
#pragma GCC unroll 16
    for (; at + sizeof(zero_words) <= size; at += sizeof(zero_words)) {
        *(zero_words *)(bytes + at) = (zero_words){0, 0};
    }
    if (at < size) {
        *(uint64_t *)(void *)(bytes + at) = 0;
    }
}

_Static_assert(sizeof(struct mts_block_t) % sizeof(uint64_t) == 0, "block records are whole words");
_Static_assert(sizeof(struct mts_array_t) % sizeof(uint64_t) == 0, "array structs are whole words");
_Static_assert(POOLED_MAP_SIZE % sizeof(uint64_t) == 0, "tensor map records are whole words");

/* A zeroed record of `size` bytes, from the calling thread's pool when it has one. */
static inline void *new_record(struct record_pool *pool, size_t size) {
    void *record = pooled_record(pool);
    if (record != NULL) {
        zero_record(record, size);
        return record;
    }
    return calloc(1, size);
}

struct mts_array_t *mtsgo_array_struct_new(void) {
    return new_record(array_pool, sizeof(struct mts_array_t));
}

void mtsgo_array_struct_free(struct mts_array_t *created) {
    if (!keep_record(&array_pool, POOLED_ARRAYS, created)) {
        free(created);
    }
}

void mtsgo_array_release(struct mts_array_t *array) {
    mtsgo_array_destroy(array);
    mtsgo_array_struct_free(array);
}

struct mts_block_t *mtsgo_block_record_new(void) {
    return new_record(block_pool, sizeof(struct mts_block_t));
}

uintptr_t mtsgo_block_records_new(struct mts_block_t **records, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        if ((records[i] = mtsgo_block_record_new()) == NULL) {
            return i;
        }
    }
    return count;
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
    if (!keep_record(&block_pool, POOLED_BLOCKS, record)) {
        free(record);
    }
}

struct mts_tensormap_t *mtsgo_tensormap_record_new(uintptr_t count) {
    uintptr_t room = count > MTSGO_POOLED_MAP_BLOCKS ? count : MTSGO_POOLED_MAP_BLOCKS;
    struct mts_tensormap_t *record = room == MTSGO_POOLED_MAP_BLOCKS ? pooled_record(map_pool) : NULL;
    if (record != NULL) {
        zero_record(record, POOLED_MAP_SIZE);
    } else {
        record = calloc(1, sizeof(struct mts_tensormap_t) + room * sizeof(struct mts_block_t *));
    }
    if (record != NULL) {
        record->blocks = count > 0 ? (struct mts_block_t **)(record + 1) : NULL;
        record->blocks_count = count;
    }
    return record;
}

mts_status_t mtsgo_tensormap_record_free(struct mts_tensormap_t *record) {
    mtsgo_handle_end(&record->record);
    free((void *)record->info_keys);
    mtsgo_c_info_free(record->c_info);
    if (record->views != NULL) {
        free(record->views);
    }
    struct mts_labels_t *keys = record->keys;
    if (record->blocks_count > MTSGO_POOLED_MAP_BLOCKS || !keep_record(&map_pool, POOLED_MAPS, record)) {
        free(record);
    }
    return keys != NULL ? mtsgo_labels_unhold(keys, 1) : MTS_SUCCESS;
}

void mtsgo_blocks_given(struct mts_block_t *const *blocks, uintptr_t count) {
    for (uintptr_t i = 0; i < count; i++) {
        blocks[i]->held = 1;
        mtsgo_handle_end(&blocks[i]->record);
    }
}

struct mts_tensormap_t *mtsgo_tensormap_record_taking(struct mts_block_t *const *blocks, uintptr_t count) {
    struct mts_tensormap_t *record = mtsgo_tensormap_record_new(0);
    if (record != NULL) {
        mtsgo_blocks_given(blocks, count);
    }
    return record;
}
