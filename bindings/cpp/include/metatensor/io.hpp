// Hand-written: the io:: functions, loading and saving labels, blocks and tensor maps as
// files or buffers (declared in io_fwd.hpp), around the generated ones that map one to one
// onto a C function.
#pragma once

#include <string>
#include <vector>

#include <metatensor.h>

#include "./errors.hpp"
#include "./labels.hpp"
#include "./block.hpp"
#include "./tensor.hpp"
#include "./io_members.hpp"
#include "./checked_gen.hpp"

namespace metatensor {
namespace details {
/// Runs a save_buffer function of the C API into a std::vector, which it grows as the
/// library asks.
template<typename Object>
std::vector<uint8_t> save_to_vector(void (*save)(uint8_t**, uintptr_t*, void*, mts_realloc_buffer_t, const Object*),
                                    const Object* object) {
    auto buffer = std::vector<uint8_t>();
    uint8_t* data = buffer.data();
    uintptr_t size = buffer.size();
    auto grow = [](void* user_data, uint8_t*, uintptr_t new_size) {
        auto* vector = static_cast<std::vector<uint8_t>*>(user_data);
        vector->resize(new_size, 0);
        return vector->data();
    };
    save(&data, &size, &buffer, grow, object);
    buffer.resize(size, 0);
    return buffer;
}

} // namespace details

namespace io {
// the functions that map one to one onto a C function, generated from spec/bindings/cpp.yaml
#include "./io_definitions_gen.hpp"

template <typename Buffer>
Buffer save_buffer(const TensorMap& tensor) {
    auto buffer = io::save_buffer<std::vector<uint8_t>>(tensor);
    return Buffer(buffer.begin(), buffer.end());
}

template<>
inline std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const TensorMap& tensor) {
    return details::save_to_vector(details::checked::tensormap_save_buffer, tensor.as_mts_tensormap_t());
}

template <typename Buffer>
Buffer save_buffer(const TensorBlock& block) {
    auto buffer = io::save_buffer<std::vector<uint8_t>>(block);
    return Buffer(buffer.begin(), buffer.end());
}

template<>
inline std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const TensorBlock& block) {
    return details::save_to_vector(details::checked::block_save_buffer, block.as_mts_block_t());
}

template <typename Buffer>
Buffer save_buffer(const Labels& labels) {
    auto buffer = io::save_buffer<std::vector<uint8_t>>(labels);
    return Buffer(buffer.begin(), buffer.end());
}

template<>
inline std::vector<uint8_t> save_buffer<std::vector<uint8_t>>(const Labels& labels) {
    return details::save_to_vector(details::checked::labels_save_buffer, labels.as_mts_labels_t());
}

template <typename Buffer>
TensorMap load_buffer(const Buffer& buffer, mts_create_array_callback_t create_array) {
    return io::load_buffer(details::bytes_of(buffer), buffer.size(), create_array);
}

template <typename Buffer>
TensorBlock load_block_buffer(const Buffer& buffer, mts_create_array_callback_t create_array) {
    return io::load_block_buffer(details::bytes_of(buffer), buffer.size(), create_array);
}

template <typename Buffer>
Labels load_labels_buffer(const Buffer& buffer) {
    return io::load_labels_buffer(details::bytes_of(buffer), buffer.size());
}
} // namespace io
} // namespace metatensor
