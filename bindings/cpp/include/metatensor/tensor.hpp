// Hand-written: TensorMap, blocks indexed by the entries of their keys, and the iteration
// over its info (details::TensorMapInfo).
#pragma once

#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <metatensor.h>

#include "./errors.hpp"
#include "./arrays.hpp"
#include "./labels.hpp"
#include "./block.hpp"
#include "./io_members.hpp"
#include "./checked_gen.hpp"

namespace metatensor {
namespace details {

/// The info of a tensor map as a range of (key, value) pairs, valid as long as the tensor
/// map is not changed.
class TensorMapInfo {
public:
    explicit TensorMapInfo(mts_tensormap_t* tensor): tensor_(tensor) {
        (void)reserved_;
        checked::tensormap_info_keys(tensor_, &keys_, &count_);
    }

    /// Walks the keys in order, reading each value when it is dereferenced.
    class iterator {
    public:
        using difference_type = std::ptrdiff_t;
        using value_type = std::pair<std::string_view, std::string_view>;
        using pointer = const value_type*;
        using reference = value_type;
        using iterator_category = std::forward_iterator_tag;

        iterator& operator++() {
            index_++;
            return *this;
        }
        iterator operator++(int) {
            auto previous = *this;
            index_++;
            return previous;
        }
        bool operator==(iterator other) const {
            return tensor_ == other.tensor_ && index_ == other.index_;
        }
        bool operator!=(iterator other) const {
            return !(*this == other);
        }
        value_type operator*() {
            const char* value = nullptr;
            checked::tensormap_get_info(tensor_, keys_[index_], &value);
            return {keys_[index_], value};
        }

    private:
        friend class TensorMapInfo;
        iterator(mts_tensormap_t* tensor, const char* const* keys, uintptr_t index):
            tensor_(tensor), keys_(keys), index_(index) {}

        mts_tensormap_t* tensor_;
        const char* const* keys_;
        uintptr_t index_;
    };

    iterator begin() const {
        return iterator(tensor_, keys_, 0);
    }
    iterator end() const {
        return iterator(tensor_, keys_, count_);
    }

private:
    mts_tensormap_t* tensor_;
    const char* const* keys_ = nullptr;
    uintptr_t count_ = 0;
    uint8_t reserved_[8];
};

/// A scalar SimpleDataArray holding `value`, the fill value of the keys moves.
template<typename T>
MtsArray scalar_array(T value) {
    return DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<T>>(std::vector<uintptr_t>{}, value));
}

/// Arithmetic types other than bool, the types of a fill value given as a number.
template<typename T>
using fill_value_t = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>>;

} // namespace details

// The overloads of keys_to_properties and keys_to_samples around the generated one taking
// Labels and an array, the same for both: the keys to move as Labels, names or one name, and
// the fill value as an array or a number.
#define METATENSOR_KEYS_MOVE_OVERLOADS(NAME)                                                              \
    TensorMap NAME(const std::vector<std::string>& keys_to_move, MtsArray fill_value, bool sort_samples) const { \
        return NAME(Labels(keys_to_move), std::move(fill_value), sort_samples);                           \
    }                                                                                                     \
    TensorMap NAME(std::string key_to_move, MtsArray fill_value, bool sort_samples) const {               \
        return NAME(std::vector<std::string>{std::move(key_to_move)}, std::move(fill_value), sort_samples); \
    }                                                                                                     \
    template<typename T = double, typename = details::fill_value_t<T>>                                    \
    TensorMap NAME(const Labels& keys_to_move, T fill_value = T{}, bool sort_samples = true) const {      \
        return NAME(keys_to_move, details::scalar_array(fill_value), sort_samples);                       \
    }                                                                                                     \
    template<typename T = double, typename = details::fill_value_t<T>>                                    \
    TensorMap NAME(const std::vector<std::string>& keys_to_move, T fill_value = T{}, bool sort_samples = true) const { \
        return NAME(Labels(keys_to_move), fill_value, sort_samples);                                      \
    }                                                                                                     \
    template<typename T = double, typename = details::fill_value_t<T>>                                    \
    TensorMap NAME(std::string key_to_move, T fill_value = T{}, bool sort_samples = true) const {         \
        return NAME(std::vector<std::string>{std::move(key_to_move)}, fill_value, sort_samples);          \
    }

/// A tensor map: blocks with the same labels' names and the same gradients, one per entry
/// of its keys. Moved, never copied: clone() copies.
class TensorMap final:
    public details::SaveMembers<TensorMap>,
    public details::LoadMembers<TensorMap, io::load, io::load_buffer>
{
public:
    /// A tensor map of `blocks`, which it owns from now on, the i-th for the i-th key.
    TensorMap(Labels keys, std::vector<TensorBlock> blocks): tensor_(nullptr), is_view_(false) {
        (void)reserved_;
        auto c_blocks = std::vector<mts_block_t*>();
        c_blocks.reserve(blocks.size());
        for (auto& block: blocks) {
            c_blocks.push_back(block.release());
        }
        tensor_ = details::checked::tensormap(keys.as_mts_labels_t(), c_blocks.data(), c_blocks.size());
    }

    ~TensorMap() {
        this->reset();
    }

    TensorMap(const TensorMap&) = delete;
    TensorMap& operator=(const TensorMap&) = delete;

    TensorMap(TensorMap&& other) noexcept: TensorMap() {
        *this = std::move(other);
    }

    TensorMap& operator=(TensorMap&& other) noexcept {
        if (this != &other) {
            this->reset();
            tensor_ = other.tensor_;
            is_view_ = other.is_view_;
            other.tensor_ = nullptr;
            other.is_view_ = true;
        }
        return *this;
    }

    /// A tensor map with the same keys and blocks of the same metadata, holding no data.
    TensorMap clone_metadata_only() const {
        auto keys = this->keys();
        auto blocks = std::vector<TensorBlock>();
        blocks.reserve(keys.count());
        for (uintptr_t i = 0; i < keys.count(); i++) {
            // block_by_id is not const as its views can change the blocks; these are only read
            blocks.push_back(const_cast<TensorMap&>(*this).block_by_id(i).clone_metadata_only());
        }
        return TensorMap(std::move(keys), std::move(blocks));
    }

    // the methods that map one to one onto a C function, generated from spec/bindings/cpp.yaml
#include "./tensor_methods_gen.hpp"

    /// Whether this is a view of a tensor map owned elsewhere.
    bool is_view() const {
        return is_view_;
    }

    /// block_by_id on a temporary tensor map would give a dangling view.
    TensorBlock block_by_id(uintptr_t index) && = delete;

    METATENSOR_KEYS_MOVE_OVERLOADS(keys_to_properties)
    METATENSOR_KEYS_MOVE_OVERLOADS(keys_to_samples)

    /// The tensor map with the given component dimension moved to the properties.
    TensorMap components_to_properties(const std::string& dimension) const {
        return this->components_to_properties(std::vector<std::string>{dimension});
    }

    /// The tensor map of the C API behind this one.
    mts_tensormap_t* as_mts_tensormap_t() & {
        return const_cast<mts_tensormap_t*>(static_cast<const TensorMap&>(*this).as_mts_tensormap_t());
    }
    const mts_tensormap_t* as_mts_tensormap_t() const & {
        if (tensor_ == nullptr) {
            throw Error("can not access this TensorMap, it has been released");
        }
        return tensor_;
    }
    mts_tensormap_t* as_mts_tensormap_t() && = delete;

    /// A tensor map owning `ptr`, a tensor map of the C API.
    static TensorMap unsafe_from_ptr(mts_tensormap_t* ptr) {
        return TensorMap(ptr, /*view*/ false);
    }

    /// A view of `ptr`, a tensor map of the C API owned elsewhere.
    static TensorMap unsafe_view_from_ptr(mts_tensormap_t* ptr) {
        return TensorMap(ptr, /*view*/ true);
    }

    /// Gives up ownership of the tensor map of the C API and returns it.
    mts_tensormap_t* release() {
        if (is_view_) {
            throw Error("can not call TensorMap::release on this TensorMap since it is a view");
        }
        auto* tensor = tensor_;
        tensor_ = nullptr;
        is_view_ = true;
        return tensor;
    }

    /// A tensor map owning `tensor`; unsafe_from_ptr says the same more clearly.
    [[deprecated("this will be removed in the next version, use TensorMap::unsafe_from_ptr instead")]]
    explicit TensorMap(mts_tensormap_t* tensor): tensor_(tensor), is_view_(false) {}

    /// Every info, as (key, value) pairs.
    details::TensorMapInfo info() const {
        return details::TensorMapInfo(tensor_);
    }

private:
    TensorMap(): TensorMap(nullptr, /*view*/ true) {}
    explicit TensorMap(mts_tensormap_t* tensor, bool view): tensor_(tensor), is_view_(view) {}

    void reset() {
        if (!is_view_ && tensor_ != nullptr) {
            mts_tensormap_free(tensor_);
        }
        tensor_ = nullptr;
        is_view_ = true;
    }

    mts_tensormap_t* tensor_;
    bool is_view_;
    uint8_t reserved_[16];
};

#undef METATENSOR_KEYS_MOVE_OVERLOADS

} // namespace metatensor
