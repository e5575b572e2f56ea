// Hand-written: the declarations of the io:: functions, which the classes' load and save
// methods call before io.hpp defines them.
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
/// Saves a tensor map to the .mts file at `path`.
void save(const std::string& path, const TensorMap& tensor);
/// Saves a tensor map in a new buffer of the given container type.
template <typename Buffer = std::vector<uint8_t>>
Buffer save_buffer(const TensorMap& tensor);
template<>
std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const TensorMap& tensor);

/// Saves a block to the .mts file at `path`.
void save(const std::string& path, const TensorBlock& block);
/// Saves a block in a new buffer of the given container type.
template <typename Buffer = std::vector<uint8_t>>
Buffer save_buffer(const TensorBlock& block);
template<>
std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const TensorBlock& block);

/// Saves labels to the file at `path`.
void save(const std::string& path, const Labels& labels);
/// Saves labels in a new buffer of the given container type.
template <typename Buffer = std::vector<uint8_t>>
Buffer save_buffer(const Labels& labels);
template<>
std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const Labels& labels);

/// Loads a tensor map from the file at `path`, its arrays made by `create_array`.
TensorMap load(const std::string& path, mts_create_array_callback_t create_array = details::default_create_array);
/// Loads a tensor map from a buffer, its arrays made by `create_array`.
TensorMap load_buffer(const uint8_t* buffer, size_t buffer_count, mts_create_array_callback_t create_array = details::default_create_array);
/// Loads a tensor map from a container of bytes, its arrays made by `create_array`.
template <typename Buffer>
TensorMap load_buffer(const Buffer& buffer, mts_create_array_callback_t create_array = details::default_create_array);

/// Loads a block from the file at `path`, its arrays made by `create_array`.
TensorBlock load_block(const std::string& path, mts_create_array_callback_t create_array = details::default_create_array);
/// Loads a block from a buffer, its arrays made by `create_array`.
TensorBlock load_block_buffer(const uint8_t* buffer, size_t buffer_count, mts_create_array_callback_t create_array = details::default_create_array);
/// Loads a block from a container of bytes, its arrays made by `create_array`.
template <typename Buffer>
TensorBlock load_block_buffer(const Buffer& buffer, mts_create_array_callback_t create_array = details::default_create_array);

/// Loads labels from the file at `path`.
Labels load_labels(const std::string& path);
/// Loads labels from a buffer.
Labels load_labels_buffer(const uint8_t* buffer, size_t buffer_count);
/// Loads labels from a container of bytes.
template <typename Buffer>
Labels load_labels_buffer(const Buffer& buffer);
} // namespace io
} // namespace metatensor
