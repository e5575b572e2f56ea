/* The fast paths of bindings/c: common cases of a few calls done in C, without Go, handing
 * every other case to Go from what C already asked the user's arrays (so that no callback runs
 * twice and the errors are Go's). Each can be switched off for benchmarking and testing: the
 * plain path is then exactly what a call gets when the fast path does not apply. */
#ifndef MTSGO_FASTPATH_H
#define MTSGO_FASTPATH_H

#define MTSGO_FASTPATH_LABELS 1u  /* mts_labels: checked labels of few entries (fastpath_labels.c) */
#define MTSGO_FASTPATH_UNIQUE 2u  /* mts_labels_assume_unique (fastpath_labels.c) */
#define MTSGO_FASTPATH_BLOCK 4u   /* mts_block and mts_block_free (fastpath_block.c) */
#define MTSGO_FASTPATH_RELEASE 8u /* mts_tensormap_free releasing in one C call (fastpath_release.c) */
#define MTSGO_FASTPATH_COMPARE 16u /* compareArrays over C arrays (fastpath_compare_arrays.c) */

/* The fast paths switched on, read once when the library is loaded from the environment
 * variable MTSGO_FASTPATHS: a comma-separated list of words read in order from "all on":
 * "off" switches every fast path off, a name (labels, unique, block, release, compare)
 * switches it on, "-name" off. So "off" gives the plain paths only, "-compare" every fast
 * path but compare, "off,block" the block fast path only. */
extern unsigned mtsgo_fastpaths;

#endif
