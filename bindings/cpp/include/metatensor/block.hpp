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

    /// A deep copy of this block (values, labels, gradients), owned by the result.
    TensorBlock clone() const {
        return TensorBlock(details::checked::block_copy(this->as_mts_block_t()), /*view*/ false);
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

    /// The device of the values.
    DLDevice device() const {
        DLDevice device = {kDLCPU, 0};
        details::checked::block_device(this->as_mts_block_t(), &device);
        return device;
    }

    /// The data type of the values.
    DLDataType dtype() const {
        DLDataType dtype = {0, 0, 0};
        details::checked::block_dtype(this->as_mts_block_t(), &dtype);
        return dtype;
    }

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

    /// Adds the gradient of the values with respect to `parameter`; this block then owns it.
    void add_gradient(const std::string& parameter, TensorBlock gradient) {
        this->check_not_view("add_gradient");
        details::checked::block_add_gradient(this->as_mts_block_t(), parameter.c_str(), gradient.release());
    }

    /// The parameters of the gradients.
    std::vector<std::string> gradients_list() const {
        const char* const* parameters = nullptr;
        uintptr_t count = 0;
        details::checked::block_gradients_list(this->as_mts_block_t(), &parameters, &count);
        return std::vector<std::string>(parameters, parameters + count);
    }

    /// A view of the gradient with respect to `parameter`.
    TensorBlock gradient(const std::string& parameter) const {
        mts_block_t* gradient = nullptr;
        // the result is a view, which can not modify this block
        details::checked::block_gradient(const_cast<mts_block_t*>(this->as_mts_block_t()), parameter.c_str(), &gradient);
        details::check_pointer(gradient);
        return TensorBlock::unsafe_view_from_ptr(gradient);
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

    /// A view of the values array.
    MtsArray mts_array() {
        return this->const_mts_array();
    }

    /// The labels of the given axis of the values.
    Labels labels(uintptr_t axis) const {
        return Labels::unsafe_from_ptr(details::checked::block_labels(this->as_mts_block_t(), axis));
    }

    /// The shape of the values.
    std::vector<uintptr_t> values_shape() const {
        return this->const_mts_array().shape();
    }

private:
    explicit TensorBlock(): TensorBlock(nullptr, /*view*/ true) {}
    explicit TensorBlock(mts_block_t* block, bool view): block_(block), is_view_(view) {}

    MtsArray const_mts_array() const {
        mts_array_t array = {};
        // mts_block_data takes a mutable block, but only gives a view of its values
        details::checked::block_data(const_cast<mts_block_t*>(this->as_mts_block_t()), &array);
        return MtsArray(array);
    }

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
    friend TensorBlock io::load_block(const std::string& path, mts_create_array_callback_t create_array);
    friend TensorBlock io::load_block_buffer(const uint8_t* buffer, size_t buffer_count, mts_create_array_callback_t create_array);

    mts_block_t* block_;
    bool is_view_;
    uint8_t reserved_[16];
};

} // namespace metatensor
