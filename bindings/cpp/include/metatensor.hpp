// Hand-written: the C++ API of metatensor, header-only over libmetatensor.so. The checked C
// calls it builds on are generated (metatensor/checked_gen.hpp, from spec/bindings/cpp.yaml).
#pragma once

#include <metatensor.h>

#include "metatensor/errors.hpp"
#include "metatensor/arrays.hpp"
#include "metatensor/labels.hpp"
#include "metatensor/block.hpp"
#include "metatensor/tensor.hpp"
#include "metatensor/io.hpp"
