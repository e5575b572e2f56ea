// Hand-written: the declarations of the io:: functions, which the classes' load and save
// methods call before io.hpp defines them; those that map one to one onto a C function are
// generated.
#pragma once

#include <cstddef>
#include <cstdint>

#include <string>
#include <vector>

#include <metatensor.h>

#include "./arrays.hpp"

namespace metatensor {
class TensorMap;
class TensorBlock;
class Labels;

namespace io {
// the functions that map one to one onto a C function, generated from spec/bindings/cpp.yaml
#include "./io_declarations_gen.hpp"

/// Saves a tensor map in a new buffer of the given container type.
template <typename Buffer = std::vector<uint8_t>>
Buffer save_buffer(const TensorMap& tensor);
template<>
std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const TensorMap& tensor);

/// Saves a block in a new buffer of the given container type.
template <typename Buffer = std::vector<uint8_t>>
Buffer save_buffer(const TensorBlock& block);
template<>
std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const TensorBlock& block);

/// Saves labels in a new buffer of the given container type.
template <typename Buffer = std::vector<uint8_t>>
Buffer save_buffer(const Labels& labels);
template<>
std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const Labels& labels);

/// Loads a tensor map from a container of bytes, its arrays made by `create_array`.
template <typename Buffer>
TensorMap load_buffer(const Buffer& buffer, mts_create_array_callback_t create_array = details::default_create_array);

/// Loads a block from a container of bytes, its arrays made by `create_array`.
template <typename Buffer>
TensorBlock load_block_buffer(const Buffer& buffer, mts_create_array_callback_t create_array = details::default_create_array);

/// Loads labels from a container of bytes.
template <typename Buffer>
Labels load_labels_buffer(const Buffer& buffer);
} // namespace io
} // namespace metatensor
