/* The fast path of mts_labels_position (fastpath.h): once Go built the labels' hash index for
 * a lookup and published it in the record (fastpath_position.go), rows are looked up here,
 * without entering Go, in the same table and by the same walk as Go's (labels_index.go).
 * Everything else goes to the Go body: the first lookup, which builds the index, rows of
 * the wrong width, labels without entries or dimensions. */
#include <stdint.h>

#include "_cgo_export.h"
#include "fastpath.h"

/* The mixing of Go's hashRow (internal/core/labels_index.go), with its multipliers
 * (MTSGO_LABELS_HASH_K*, fastpath_limits_gen.h): a row's hash picks the same chain in both
 * languages. */
static inline uint64_t mix(uint64_t a, uint64_t b) {
    unsigned __int128 product = (unsigned __int128)a * b;
    return (uint64_t)(product >> 64) ^ (uint64_t)product;
}

static inline uint64_t pack(int32_t a, int32_t b) {
    return (uint64_t)(uint32_t)a | (uint64_t)(uint32_t)b << 32;
}

/* Go's hash2: two values in one multiplication. */
static inline uint64_t hash_pair(int32_t a, int32_t b) {
    return mix(pack(a, b) ^ MTSGO_LABELS_HASH_K0, MTSGO_LABELS_HASH_K1);
}

static uint64_t hash_row(const int32_t *row, uintptr_t size) {
    switch (size) {
    case 1:
        return mix((uint64_t)(uint32_t)row[0] ^ MTSGO_LABELS_HASH_K0, MTSGO_LABELS_HASH_K1);
    case 2:
        return hash_pair(row[0], row[1]);
    case 3:
        return mix(hash_pair(row[0], row[1]) ^ (uint64_t)(uint32_t)row[2], MTSGO_LABELS_HASH_K2);
    case 4:
        return mix(hash_pair(row[0], row[1]) ^ pack(row[2], row[3]), MTSGO_LABELS_HASH_K2);
    }
    uint64_t h = MTSGO_LABELS_HASH_K0;
    uintptr_t i = 0;
    for (; i + 1 < size; i += 2) {
        h = mix(h ^ pack(row[i], row[i + 1]), MTSGO_LABELS_HASH_K1);
    }
    if (i < size) {
        h = mix(h ^ (uint64_t)(uint32_t)row[i], MTSGO_LABELS_HASH_K2);
    }
    return h;
}

/* The walk of Go's probes over rows stored inline (1 to 3 values, slots of `stride` words),
 * from slot i to the slot holding `row` or the empty one; -1 for the empty one. Inlined with
 * constant size and stride, so that the row stays in registers. */
static inline int64_t probe_inline(const struct mtsgo_labels_index *index, const uint32_t *slots, uint32_t tag,
                                   uint64_t i, const int32_t *row, uintptr_t size, uint64_t stride) {
    uint32_t pos_mask = index->pos_mask;
    uint64_t mask = index->mask;
    for (;; i = (i + 1) & mask) {
        const uint32_t *s = slots + i * stride;
        if (s[0] == 0) {
            return -1;
        }
        if ((s[0] & ~pos_mask) == tag && s[1] == (uint32_t)row[0] && (size < 2 || s[2] == (uint32_t)row[1]) &&
            (size < 3 || s[3] == (uint32_t)row[2])) {
            return (int64_t)(s[0] & pos_mask) - 1;
        }
    }
}

/* The same walk over wider rows, kept in the labels' values: slots of one word. */
static int64_t probe_values(const struct mtsgo_labels_index *index, const uint32_t *slots, uint32_t tag, uint64_t i,
                            const int32_t *values, const int32_t *row, uintptr_t size) {
    uint32_t pos_mask = index->pos_mask;
    uint64_t mask = index->mask;
    for (;; i = (i + 1) & mask) {
        uint32_t s = slots[i];
        if (s == 0) {
            return -1;
        }
        if ((s & ~pos_mask) == tag) {
            uintptr_t position = (uintptr_t)(s & pos_mask) - 1;
            const int32_t *stored = values + position * size;
            uintptr_t k = 0;
            while (k < size && stored[k] == row[k]) {
                k++;
            }
            if (k == size) {
                return (int64_t)position;
            }
        }
    }
}

/* The position of `row` in labels of `size` dimensions whose index is published, or -1. */
static int64_t find_row(const struct mtsgo_labels_index *index, const uint32_t *slots, const int32_t *values,
                        const int32_t *row, uintptr_t size) {
    uint64_t h = hash_row(row, size);
    /* Go's uint32(h) << pos_bits, which is 0 when positions take every bit */
    uint32_t tag = index->pos_bits >= 32 ? 0 : (uint32_t)h << index->pos_bits;
    uint64_t i = h >> index->shift;
    switch (size) {
    case 1:
        return probe_inline(index, slots, tag, i, row, 1, MTSGO_LABELS_INDEX_STRIDE_1);
    case 2:
        return probe_inline(index, slots, tag, i, row, 2, MTSGO_LABELS_INDEX_STRIDE_2);
    case 3:
        return probe_inline(index, slots, tag, i, row, 3, MTSGO_LABELS_INDEX_STRIDE_3);
    }
    return probe_values(index, slots, tag, i, values, row, size);
}

mts_status_t mtsgo_c_labels_position(const struct mts_labels_t *labels, const int32_t *values,
                                     uintptr_t values_count, int64_t *result) {
    const uint32_t *slots = __atomic_load_n(&labels->index.slots, __ATOMIC_ACQUIRE);
    /* Go published the values before the index */
    const int32_t *rows = __atomic_load_n(&labels->values, __ATOMIC_ACQUIRE);
    if (!(mtsgo_fastpaths & MTSGO_FASTPATH_POSITION) || slots == NULL || rows == NULL ||
        values_count != labels->size) {
        return mtsgo_labels_position((struct mts_labels_t *)labels, (int32_t *)values, values_count, result);
    }
    *result = find_row(&labels->index, slots, rows, values, values_count);
    return MTS_SUCCESS;
}

void mtsgo_labels_publish_index(struct mts_labels_t *labels, const uint32_t *slots, uint64_t mask, uint32_t shift,
                                uint32_t pos_bits, uint32_t pos_mask) {
    labels->index.mask = mask;
    labels->index.shift = shift;
    labels->index.pos_bits = pos_bits;
    labels->index.pos_mask = pos_mask;
    __atomic_store_n(&labels->index.slots, slots, __ATOMIC_RELEASE);
}
