// Hand-written: the C++ API of metatensor, header-only over libmetatensor.so. The checked C
// calls it builds on (metatensor/checked_gen.hpp) and the methods and io:: functions that map
// one to one onto a C function (metatensor/*_methods_gen.hpp, io_*_gen.hpp) are generated
// from spec/bindings/cpp.yaml.
#pragma once

#include <metatensor.h>

#include "metatensor/errors.hpp"
#include "metatensor/arrays.hpp"
#include "metatensor/labels.hpp"
#include "metatensor/block.hpp"
#include "metatensor/tensor.hpp"
#include "metatensor/io.hpp"
