// Hand-written: TensorBlock, the values of one block with the labels of each axis and the
// gradients; it owns its block of the C API, or is a view of one inside another object.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <metatensor.h>

#include "./errors.hpp"
#include "./arrays.hpp"
#include "./labels.hpp"
#include "./io_fwd.hpp"
#include "./io_members.hpp"
#include "./checked_gen.hpp"

namespace metatensor_torch {
class TensorBlockHolder;
}

namespace metatensor {
namespace details {
/// The pointers of the C API to a list of labels, valid as long as `labels`.
inline std::vector<const mts_labels_t*> c_labels(const std::vector<Labels>& labels) {
    auto result = std::vector<const mts_labels_t*>();
    result.reserve(labels.size());
    for (const auto& entry: labels) {
        result.push_back(entry.as_mts_labels_t());
    }
    return result;
}

/// A new block of the C API over `values`.
inline mts_block_t* create_block(std::unique_ptr<DataArrayBase> values, const Labels& samples,
                                 const std::vector<Labels>& components, const Labels& properties) {
    auto c_components = c_labels(components);
    return checked::block(DataArrayBase::to_mts_array(std::move(values)).release(), samples.as_mts_labels_t(),
        c_components.data(), c_components.size(), properties.as_mts_labels_t());
}
} // namespace details

/// A block: values of shape [samples, components..., properties], the labels of each axis,
/// and gradients (blocks themselves) by parameter. Moved, never copied: clone() copies.
class TensorBlock final:
    public details::SaveMembers<TensorBlock>,
    public details::LoadMembers<TensorBlock, io::load_block, io::load_block_buffer>
{
public:
    /// A block over `values`, which it owns from now on.
    TensorBlock(std::unique_ptr<DataArrayBase> values, const Labels& samples,
                const std::vector<Labels>& components, const Labels& properties):
        TensorBlock(details::create_block(std::move(values), samples, components, properties), /*view*/ false)
    {
        (void)reserved_;
    }

    ~TensorBlock() {
        this->reset();
    }

    TensorBlock(const TensorBlock&) = delete;
    TensorBlock& operator=(const TensorBlock&) = delete;

    TensorBlock(TensorBlock&& other) noexcept: TensorBlock() {
        *this = std::move(other);
    }

    TensorBlock& operator=(TensorBlock&& other) noexcept {
        if (this != &other) {
            this->reset();
            block_ = other.block_;
            is_view_ = other.is_view_;
            other.block_ = nullptr;
            other.is_view_ = true;
        }
        return *this;
    }

    /// A block with the same labels, gradients and shapes, whose arrays hold no data
    /// (EmptyDataArray).
    TensorBlock clone_metadata_only() const {
        auto block = TensorBlock(details::create_empty_array(this->values_shape(), this->dtype()),
            this->samples(), this->components(), this->properties());
        for (const auto& parameter: this->gradients_list()) {
            block.add_gradient(parameter, this->gradient(parameter).clone_metadata_only());
        }
        return block;
    }

    // the methods that map one to one onto a C function, generated from spec/bindings/cpp.yaml
#include "./block_methods_gen.hpp"

    /// Whether this is a view of a block owned by something else (a tensor map, a block).
    bool is_view() const {
        return is_view_;
    }

    /// The values, as a DLPackArray of T on `device`.
    template<typename T = double>
    DLPackArray<T> values(DLDevice device = {kDLCPU, 0}, const int64_t* stream = nullptr) {
        return this->mts_array().as_dlpack_array<T>(device, stream, {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION});
    }

    /// The labels of the first axis.
    Labels samples() const {
        return this->labels(0);
    }

    /// The labels of the axes between the first and the last.
    std::vector<Labels> components() const {
        auto dimensions = this->values_shape().size();
        auto result = std::vector<Labels>();
        for (size_t axis = 1; axis + 1 < dimensions; axis++) {
            result.emplace_back(this->labels(axis));
        }
        return result;
    }

    /// The labels of the last axis.
    Labels properties() const {
        return this->labels(this->values_shape().size() - 1);
    }

    /// The block of the C API behind this one.
    mts_block_t* as_mts_block_t() & {
        return const_cast<mts_block_t*>(static_cast<const TensorBlock&>(*this).as_mts_block_t());
    }
    const mts_block_t* as_mts_block_t() const & {
        if (block_ == nullptr) {
            throw Error("can not access this TensorBlock, it has been released or moved inside a TensorMap or another TensorBlock");
        }
        return block_;
    }
    const mts_block_t* as_mts_block_t() && = delete;

    /// A block owning `ptr`, a block of the C API.
    static TensorBlock unsafe_from_ptr(mts_block_t* ptr) {
        return TensorBlock(ptr, /*view*/ false);
    }

    /// A view of `ptr`, a block of the C API owned elsewhere.
    static TensorBlock unsafe_view_from_ptr(mts_block_t* ptr) {
        return TensorBlock(ptr, /*view*/ true);
    }

    /// Gives up ownership of the block of the C API and returns it.
    mts_block_t* release() {
        this->check_not_view("release");
        auto* block = block_;
        block_ = nullptr;
        is_view_ = true;
        return block;
    }

    /// The shape of the values.
    std::vector<uintptr_t> values_shape() const {
        // mts_array() is not const as it gives the values to change; the shape is only read
        return const_cast<TensorBlock*>(this)->mts_array().shape();
    }

private:
    explicit TensorBlock(): TensorBlock(nullptr, /*view*/ true) {}
    explicit TensorBlock(mts_block_t* block, bool view): block_(block), is_view_(view) {}

    void check_not_view(const char* method) const {
        if (is_view_) {
            throw Error("can not call TensorBlock::" + std::string(method) +
                " on this block since it is inside a TensorMap or another TensorBlock");
        }
    }

    void reset() {
        if (!is_view_ && block_ != nullptr) {
            mts_block_free(block_);
        }
        block_ = nullptr;
        is_view_ = true;
    }

    friend class TensorMap;
    friend class metatensor_torch::TensorBlockHolder;

    mts_block_t* block_;
    bool is_view_;
    uint8_t reserved_[16];
};

} // namespace metatensor
