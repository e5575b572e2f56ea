/* The labels tests again, in a process that never asks the library's own labels array for
 * its origin (test_labels.c asks it first, in test_origin_fast_path). Checked labels then
 * never ask their array's origin, and ours are made in C when they are small
 * (mtsgo_c_labels): every labels test runs through that path here, and must behave as the
 * reference does all the same. */
#define MTS_TEST_ORIGIN_UNASKED
#include "test_labels.c"
