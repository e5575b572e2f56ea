// Hand-written: DLPackArray<T>, the owner of a DLPack tensor read as elements of type T, and
// the DLPack exports the C++ arrays make of their data (DLPackContext, DLPackDeleter).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <metatensor.h>

#include "../errors.hpp"
#include "./details.hpp"

namespace metatensor {
namespace details {

/// What a DLPack export made by the C++ arrays owns besides the data: its shape and strides.
struct DLPackContextBase {
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    virtual ~DLPackContextBase() = default;
};

/// The context of an export of shared data: the export keeps the data alive.
template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
struct DLPackContext: DLPackContextBase {
    std::shared_ptr<std::vector<T>> data;
};

/// The deleter of the exports whose manager_ctx is a DLPackContextBase.
DLPACK_EXTERN_C inline void DLPackDeleter(DLManagedTensorVersioned* self) {
    if (self != nullptr) {
        delete static_cast<DLPackContextBase*>(self->manager_ctx);
        self->manager_ctx = nullptr;
        delete self;
    }
}

/// Copies the elements of a CPU DLPack tensor of type T, in row-major order.
template <typename T>
std::vector<storage_type_t<T>> vector_from_dlpack(const DLTensor& tensor) {
    if (!dlpack_dtype_matches<T>(tensor.dtype)) {
        throw Error("DLPack dtype does not match the requested C++ type: DLPack tensor has dtype " +
            dtype_description(tensor.dtype) + " which does not match the expected dtype " +
            dtype_description(dtype_of<T>()));
    }
    const auto* data = reinterpret_cast<const storage_type_t<T>*>(
        static_cast<const char*>(tensor.data) + tensor.byte_offset);
    auto shape = std::vector<size_t>(tensor.shape, tensor.shape + tensor.ndim);
    auto strides = tensor.strides == nullptr ? contiguous_strides(shape)
        : std::vector<int64_t>(tensor.strides, tensor.strides + tensor.ndim);
    auto result = std::vector<storage_type_t<T>>();
    result.reserve(product(shape));
    const std::vector<int64_t>* const all_strides[1] = {&strides};
    for_each_offset(shape, all_strides, [&](const int64_t* offsets) {
        result.push_back(data[offsets[0]]);
    });
    return result;
}

} // namespace details

/// Owns a DLPack tensor (as given by MtsArray::as_dlpack) whose elements are of type T, and
/// reads them; the tensor is released with its deleter when this is destroyed.
template<typename T>
class DLPackArray {
public:
    /// An empty array, owning nothing.
    DLPackArray(): managed_(nullptr), data_(nullptr) {
        (void)reserved_;
    }

    /// Takes ownership of `managed`, which must hold elements of type T: it is released at
    /// once, and this throws, when it does not.
    explicit DLPackArray(DLManagedTensorVersioned* managed): DLPackArray() {
        if (managed == nullptr) {
            return;
        }
        auto& tensor = managed->dl_tensor;
        if (!details::dlpack_dtype_matches<T>(tensor.dtype)) {
            auto dtype = tensor.dtype;
            if (managed->deleter != nullptr) {
                managed->deleter(managed);
            }
            throw Error("DLPackArray dtype mismatch: DLPack tensor has dtype " +
                details::dtype_description(dtype) + " which does not match the requested C++ type (sizeof=" +
                std::to_string(sizeof(T)) + ")");
        }
        managed_ = managed;
        data_ = reinterpret_cast<T*>(static_cast<char*>(tensor.data) + tensor.byte_offset);
        shape_.assign(tensor.shape, tensor.shape + tensor.ndim);
        if (tensor.strides == nullptr) {
            strides_ = details::contiguous_strides(shape_);
        } else {
            strides_.assign(tensor.strides, tensor.strides + tensor.ndim);
        }
    }

    ~DLPackArray() {
        this->reset();
    }

    DLPackArray(const DLPackArray&) = delete;
    DLPackArray& operator=(const DLPackArray&) = delete;

    DLPackArray(DLPackArray&& other) noexcept: DLPackArray() {
        *this = std::move(other);
    }

    DLPackArray& operator=(DLPackArray&& other) noexcept {
        if (this != &other) {
            this->reset();
            std::swap(managed_, other.managed_);
            std::swap(data_, other.data_);
            shape_ = std::move(other.shape_);
            strides_ = std::move(other.strides_);
        }
        return *this;
    }

    /// The device of the data; an empty array is on the CPU.
    DLDevice device() const {
        if (managed_ == nullptr) {
            return {kDLCPU, 0};
        }
        return managed_->dl_tensor.device;
    }

    /// The data type of the data.
    DLDataType dtype() const {
        if (managed_ == nullptr) {
            throw Error("empty DLPackArray has no dtype");
        }
        return managed_->dl_tensor.dtype;
    }

    /// The element at the given index, one value per dimension; the data must be on the CPU.
    template<typename ...Args>
    T operator()(Args... args) const & {
        if (managed_ != nullptr && managed_->dl_tensor.device.device_type != kDLCPU) {
            throw Error("can not index into a DLPackArray on a non-CPU device");
        }
        auto index = std::array<size_t, sizeof...(Args)>{static_cast<size_t>(args)...};
        if (index.size() != shape_.size()) {
            throw Error("expected " + std::to_string(shape_.size()) +
                " indexes in DLPackArray::operator(), got " + std::to_string(index.size()));
        }
        int64_t offset = 0;
        for (size_t i = 0; i < index.size(); i++) {
            offset += static_cast<int64_t>(index[i]) * strides_[i];
        }
        return data_[offset];
    }
    template<typename ...Args>
    T operator()(Args... args) && = delete;

    /// The first element; with strides() and shape() it gives every element.
    const T* data() const & {
        return data_;
    }
    const T* data() && = delete;

    /// The size of each dimension.
    const std::vector<size_t>& shape() const & {
        return shape_;
    }
    const std::vector<size_t>& shape() && = delete;

    /// The distance in elements between consecutive entries of each dimension.
    const std::vector<int64_t>& strides() const & {
        return strides_;
    }
    const std::vector<int64_t>& strides() && = delete;

    /// Whether the elements are laid out in row-major order.
    bool is_contiguous() const {
        return details::is_row_major_contiguous(shape_, strides_);
    }

private:
    void reset() {
        if (managed_ != nullptr && managed_->deleter != nullptr) {
            managed_->deleter(managed_);
        }
        managed_ = nullptr;
        data_ = nullptr;
    }

    DLManagedTensorVersioned* managed_;
    T* data_;
    std::vector<size_t> shape_;
    std::vector<int64_t> strides_;
    uint8_t reserved_[16];
};

} // namespace metatensor
