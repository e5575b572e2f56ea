// Hand-written: Labels, the immutable names and integer entries that index the samples,
// components and properties of blocks and the blocks of a tensor map.
#pragma once

#include <cstring>

#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <metatensor.h>

#include "./errors.hpp"
#include "./arrays.hpp"
#include "./io_fwd.hpp"
#include "./io_members.hpp"
#include "./checked_gen.hpp"

namespace metatensor_torch {
class LabelsHolder;
}

namespace metatensor {

class Labels;

namespace details {
Labels labels_from_cxx(const std::vector<std::string>& names, const int32_t* values, size_t count, bool assume_unique);

/// The C spelling of dimension names, valid as long as `names`.
inline std::vector<const char*> c_strings(const std::vector<std::string>& names) {
    auto result = std::vector<const char*>();
    result.reserve(names.size());
    for (const auto& name: names) {
        result.push_back(name.c_str());
    }
    return result;
}

/// The int64 buffer a set operation fills with the positions of one side's entries, for a
/// user vector of the same length; NULL when that vector is empty (no mapping wanted).
class MappingBuffer {
public:
    explicit MappingBuffer(size_t count): values_(count, -1) {}

    int64_t* data() {
        return values_.empty() ? nullptr : values_.data();
    }
    size_t size() const {
        return values_.size();
    }

    /// Copies the positions into a vector where every entry has one.
    void copy_to(std::vector<size_t>& positions) const {
        for (size_t i = 0; i < values_.size(); i++) {
            positions[i] = static_cast<size_t>(values_[i]);
        }
    }

    /// Copies the positions into a vector where -1 (no position) is nullopt.
    void copy_to(std::vector<std::optional<size_t>>& positions) const {
        for (size_t i = 0; i < values_.size(); i++) {
            positions[i] = values_[i] < 0 ? std::nullopt : std::optional<size_t>(static_cast<size_t>(values_[i]));
        }
    }

private:
    std::vector<int64_t> values_;
};
} // namespace details

/// Tag asking the Labels constructors not to check that entries are unique.
struct assume_unique {};

/// Labels: names of dimensions and the integer entries over them, unique and immutable.
/// Copies share the same labels in the library.
class Labels final: public details::SaveMembers<Labels> {
public:
    /// Labels over the values of `values`, a 2-D int32 array of [entries, dimensions].
    Labels(const std::vector<std::string>& dimensions, MtsArray values): labels_(nullptr) {
        (void)reserved_;
        auto names = details::c_strings(dimensions);
        labels_ = details::checked::labels(names.data(), names.size(), std::move(values).release());
    }

    /// Labels over rows of values, one row per entry: {{0, 1}, {1, 1}}.
    Labels(const std::vector<std::string>& dimensions, std::initializer_list<std::initializer_list<int32_t>> values):
        Labels(dimensions, NDArray<int32_t>(values, dimensions.size()), InternalConstructor{}) {}

    /// Labels over the values of `array`, whose entries are trusted to be unique.
    Labels(const std::vector<std::string>& dimensions, MtsArray array, assume_unique): labels_(nullptr) {
        auto names = details::c_strings(dimensions);
        labels_ = details::checked::labels_assume_unique(names.data(), names.size(), std::move(array).release());
    }

    /// Labels with the given dimensions and no entries.
    explicit Labels(const std::vector<std::string>& dimensions):
        Labels(dimensions, static_cast<const int32_t*>(nullptr), 0) {}

    /// Labels over `count` entries of `values`, dimensions.size() values each.
    Labels(const std::vector<std::string>& dimensions, const int32_t* values, size_t count):
        Labels(details::labels_from_cxx(dimensions, values, count, false)) {}

    /// The same, trusting that the entries are unique.
    Labels(const std::vector<std::string>& dimensions, const int32_t* values, size_t count, assume_unique):
        Labels(details::labels_from_cxx(dimensions, values, count, true)) {}

    ~Labels() {
        this->reset();
    }

    Labels(const Labels& other): labels_(nullptr) {
        *this = other;
    }

    Labels& operator=(const Labels& other) {
        if (this != &other) {
            this->reset();
            labels_ = details::checked::labels_clone(other.labels_);
        }
        return *this;
    }

    Labels(Labels&& other) noexcept: labels_(nullptr) {
        *this = std::move(other);
    }

    Labels& operator=(Labels&& other) noexcept {
        if (this != &other) {
            this->reset();
            labels_ = other.labels_;
            other.labels_ = nullptr;
        }
        return *this;
    }

    /// The device of the values.
    DLDevice device() const {
        return this->mts_array().device();
    }

    /// The number of entries.
    size_t count() const {
        return this->mts_array().shape()[0];
    }

    /// The number of dimensions.
    size_t size() const {
        return this->names().size();
    }

    /// The labels of the C API behind these; they still own it.
    const mts_labels_t* as_mts_labels_t() const {
        if (labels_ == nullptr) {
            throw Error("can not access these Labels, they have been released");
        }
        return labels_;
    }

    /// Labels owning `ptr`, labels of the C API (freed with them).
    static Labels unsafe_from_ptr(const mts_labels_t* ptr) {
        return Labels(ptr);
    }

    /// Gives up ownership of the labels of the C API and returns them.
    const mts_labels_t* release() {
        const auto* labels = labels_;
        labels_ = nullptr;
        return labels;
    }

    // the methods that map one to one onto a C function, generated from spec/bindings/cpp.yaml
#include "./labels_methods_gen.hpp"

    /// The position of an entry, nullopt when it is not there.
    std::optional<size_t> position(std::initializer_list<int32_t> entry) const {
        return this->position(entry.begin(), entry.size());
    }
    template<size_t N>
    std::optional<size_t> position(const std::array<int32_t, N>& entry) const {
        return this->position(entry.data(), entry.size());
    }
    std::optional<size_t> position(const std::vector<int32_t>& entry) const {
        return this->position(entry.data(), entry.size());
    }

    /// The values on `device`, as [count, size] int32.
    DLPackArray<int32_t> values(DLDevice device = {kDLCPU, 0}, const int64_t* stream = nullptr) const {
        return this->mts_array().as_dlpack_array<int32_t>(device, stream, {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION});
    }

    /// set_union, with the mappings in vectors as long as each side's entries.
    Labels set_union(const Labels& other, std::vector<size_t>& first_mapping, std::vector<size_t>& second_mapping) const {
        return this->with_mappings(&Labels::set_union, other, first_mapping, second_mapping);
    }

    /// set_intersection, with the mappings in vectors as long as each side's entries.
    Labels set_intersection(const Labels& other, std::vector<std::optional<size_t>>& first_mapping,
                            std::vector<std::optional<size_t>>& second_mapping) const {
        return this->with_mappings(&Labels::set_intersection, other, first_mapping, second_mapping);
    }

    /// set_difference, with the mapping in a vector as long as these labels' entries.
    Labels set_difference(const Labels& other, std::vector<std::optional<size_t>>& first_mapping) const {
        auto first = details::MappingBuffer(first_mapping.size());
        auto result = this->set_difference(other, first.data(), first.size());
        first.copy_to(first_mapping);
        return result;
    }

    /// The positions of the entries matching `selection`.
    std::vector<uint64_t> select(const Labels& selection) const {
        size_t count = this->count();
        auto selected = std::vector<uint64_t>(count, static_cast<uint64_t>(-1));
        this->select(selection, selected.data(), &count);
        selected.resize(count);
        return selected;
    }

    /// Loads labels from the file at `path`.
    static Labels load(const std::string& path) {
        return io::load_labels(path);
    }

    /// Loads labels from a buffer.
    static Labels load_buffer(const uint8_t* buffer, size_t buffer_count) {
        return io::load_labels_buffer(buffer, buffer_count);
    }

    /// Loads labels from a container of bytes.
    template <typename Buffer>
    static Labels load_buffer(const Buffer& buffer) {
        return io::load_labels_buffer(details::bytes_of(buffer), buffer.size());
    }

private:
    explicit Labels(const mts_labels_t* labels): labels_(labels) {}

    // distinguishes the constructor from an NDArray from the one taking initializer lists
    struct InternalConstructor {};
    Labels(const std::vector<std::string>& names, const NDArray<int32_t>& values, InternalConstructor):
        Labels(names, values.data(), values.shape()[0]) {}

    // Runs a set operation of two mappings (union, intersection) with int64 buffers as long
    // as the user's vectors, then copies the positions into them.
    template<typename Vector>
    Labels with_mappings(Labels (Labels::*operation)(const Labels&, int64_t*, size_t, int64_t*, size_t) const,
                         const Labels& other, Vector& first_mapping, Vector& second_mapping) const {
        auto first = details::MappingBuffer(first_mapping.size());
        auto second = details::MappingBuffer(second_mapping.size());
        auto result = (this->*operation)(other, first.data(), first.size(), second.data(), second.size());
        first.copy_to(first_mapping);
        second.copy_to(second_mapping);
        return result;
    }

    void reset() {
        if (labels_ != nullptr) {
            mts_labels_free(labels_);
            labels_ = nullptr;
        }
    }

    friend Labels details::labels_from_cxx(const std::vector<std::string>&, const int32_t*, size_t, bool);
    friend class metatensor_torch::LabelsHolder;

    const mts_labels_t* labels_;
    uint8_t reserved_[24];
};

/// Whether two labels have the same names and the same entries in the same order.
inline bool operator==(const Labels& lhs, const Labels& rhs) {
    auto lhs_names = lhs.names();
    auto rhs_names = rhs.names();
    if (lhs_names.size() != rhs_names.size()) {
        return false;
    }
    for (size_t i = 0; i < lhs_names.size(); i++) {
        if (std::strcmp(lhs_names[i], rhs_names[i]) != 0) {
            return false;
        }
    }
    return lhs.values() == rhs.values();
}

inline bool operator!=(const Labels& lhs, const Labels& rhs) {
    return !(lhs == rhs);
}

namespace details {
/// Labels over a copy of `count` entries of `values`, held in a SimpleDataArray.
inline Labels labels_from_cxx(const std::vector<std::string>& names, const int32_t* values, size_t count, bool assume_unique) {
    auto length = count * names.size();
    auto data = std::vector<int32_t>();
    if (values != nullptr) {
        data.assign(values, values + length);
    } else {
        data.resize(length);
    }
    auto shape = std::vector<uintptr_t>{count, names.size()};
    auto array = DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<int32_t>>(std::move(shape), std::move(data)));
    if (assume_unique) {
        return Labels(names, std::move(array), metatensor::assume_unique{});
    }
    return Labels(names, std::move(array));
}
} // namespace details
} // namespace metatensor
