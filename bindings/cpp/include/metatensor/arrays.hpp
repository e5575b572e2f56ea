// Hand-written: the array layer of the C++ API, one class per file in arrays/.
#pragma once

#include "./arrays/details.hpp"
#include "./arrays/dlpack_array.hpp"
#include "./arrays/ndarray.hpp"
#include "./arrays/mts_array.hpp"
#include "./arrays/data_array.hpp"
#include "./arrays/simple_data_array.hpp"
#include "./arrays/empty_data_array.hpp"
#include "./arrays/comparisons.hpp"
