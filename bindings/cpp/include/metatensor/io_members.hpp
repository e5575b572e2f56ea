// Hand-written: the load and save members that Labels, TensorBlock and TensorMap share, as
// bases that forward them to the io:: functions.
#pragma once

#include <cstdint>

#include <string>
#include <vector>

#include <metatensor.h>

#include "./arrays.hpp"
#include "./io_fwd.hpp"

namespace metatensor {
namespace details {

/// The bytes of a container of byte-sized elements.
template<typename Buffer>
const uint8_t* bytes_of(const Buffer& buffer) {
    static_assert(sizeof(typename Buffer::value_type) == sizeof(uint8_t), "`Buffer` must be a container of uint8_t or equivalent");
    return reinterpret_cast<const uint8_t*>(buffer.data());
}

/// save(path), save_buffer() and save_buffer<Buffer>() of Derived, through io::save and
/// io::save_buffer.
template<typename Derived>
class SaveMembers {
public:
    /// Saves this object to the file at `path`.
    void save(const std::string& path) const {
        io::save(path, this->derived());
    }

    /// Saves this object in a new buffer.
    std::vector<uint8_t> save_buffer() const {
        return io::save_buffer(this->derived());
    }

    /// Saves this object in a new buffer of the given container type.
    template <typename Buffer>
    Buffer save_buffer() const {
        return io::save_buffer<Buffer>(this->derived());
    }

private:
    const Derived& derived() const {
        return static_cast<const Derived&>(*this);
    }
};

/// The loaders of a Derived whose arrays a create_array callback makes: Load and LoadBuffer
/// are the io:: functions for it.
template<typename Derived,
         Derived (*Load)(const std::string&, mts_create_array_callback_t),
         Derived (*LoadBuffer)(const uint8_t*, size_t, mts_create_array_callback_t)>
class LoadMembers {
public:
    /// Loads from the file at `path`, the arrays made by `create_array`.
    static Derived load(const std::string& path, mts_create_array_callback_t create_array = default_create_array) {
        return Load(path, create_array);
    }

    /// Loads from a buffer, the arrays made by `create_array`.
    static Derived load_buffer(const uint8_t* buffer, size_t buffer_count,
                               mts_create_array_callback_t create_array = default_create_array) {
        return LoadBuffer(buffer, buffer_count, create_array);
    }

    /// Loads from a container of bytes, the arrays made by `create_array`.
    template <typename Buffer>
    static Derived load_buffer(const Buffer& buffer, mts_create_array_callback_t create_array = default_create_array) {
        return LoadBuffer(bytes_of(buffer), buffer.size(), create_array);
    }
};

} // namespace details
} // namespace metatensor
