// Hand-written: SimpleDataArray<T>, the CPU array of metatensor's C++ API: contiguous
// row-major data in a std::vector, shared with the DLPack views it gives.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <metatensor.h>

#include "../errors.hpp"
#include "./cpu_data_array.hpp"
#include "./data_array.hpp"
#include "./details.hpp"
#include "./dlpack_array.hpp"
#include "./ndarray.hpp"

namespace metatensor {

/// A CPU array of T held in memory, usable as the values of any block.
template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
class SimpleDataArray: public details::CpuDataArray<T> {
public:
    /// The element type in memory: bool is stored as uint8_t.
    using storage_t = details::storage_type_t<T>;

    /// An array of the given shape, every element `value`.
    SimpleDataArray(std::vector<uintptr_t> shape, T value = T{}):
        details::CpuDataArray<T>(std::move(shape)),
        strides_(details::contiguous_strides(this->shape_)),
        data_(std::make_shared<std::vector<storage_t>>(details::product(this->shape_), static_cast<storage_t>(value)))
    {
        (void)reserved_;
    }

    /// An array of the given shape over `data`, in row-major order.
    SimpleDataArray(std::vector<uintptr_t> shape, std::vector<storage_t> data):
        details::CpuDataArray<T>(std::move(shape)),
        strides_(details::contiguous_strides(this->shape_)),
        data_(std::make_shared<std::vector<storage_t>>(std::move(data)))
    {
        if (data_->size() != details::product(this->shape_)) {
            throw Error("the shape and size of the data don't match in SimpleDataArray");
        }
    }

    mts_data_origin_t origin() const override {
        return details::registered_origin("metatensor::SimpleDataArray");
    }

    void reshape(const std::vector<uintptr_t>& shape) override {
        details::CpuDataArray<T>::reshape(shape);
        strides_ = details::contiguous_strides(this->shape_);
    }

    void swap_axes(uintptr_t axis_1, uintptr_t axis_2) override {
        // walk the new layout, reading the old data with the swapped strides
        auto old_strides = strides_;
        std::swap(old_strides[axis_1], old_strides[axis_2]);
        std::swap(shape_[axis_1], shape_[axis_2]);
        auto data = std::make_shared<std::vector<storage_t>>();
        data->reserve(data_->size());
        const std::vector<int64_t>* const strides[1] = {&old_strides};
        details::for_each_offset(std::vector<size_t>(shape_.begin(), shape_.end()), strides, [&](const int64_t* offsets) {
            data->push_back((*data_)[static_cast<size_t>(offsets[0])]);
        });
        data_ = std::move(data);
        strides_ = details::contiguous_strides(shape_);
    }

    std::unique_ptr<DataArrayBase> copy(DLDevice device) const override {
        if (device.device_type != kDLCPU) {
            throw Error("SimpleDataArray only supports copying to CPU");
        }
        auto copy = std::make_unique<SimpleDataArray>(shape_, *data_);
        return copy;
    }

    std::unique_ptr<DataArrayBase> create(std::vector<uintptr_t> shape, MtsArray fill_value) const override {
        auto fill = fill_value.as_dlpack_array<T>({kDLCPU, 0}, nullptr, {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION});
        if (!fill.shape().empty()) {
            throw Error("`fill_value` must be a single scalar");
        }
        return std::make_unique<SimpleDataArray>(std::move(shape), static_cast<T>(fill.data()[0]));
    }

    void move_data(const DataArrayBase& input, std::vector<mts_data_movement_t> moves) override {
        const auto& from = dynamic_cast<const SimpleDataArray<T>&>(input);
        if (moves.empty()) {
            return;
        }
        // a sample is `components` rows of properties; a move copies a range of properties
        // of every row of one sample
        auto last = shape_.size() - 1;
        size_t components = 1;
        for (size_t dim = 1; dim < last; dim++) {
            components *= shape_[dim];
        }
        auto in_row = from.shape_[last];
        auto out_row = shape_[last];
        for (const auto& move: moves) {
            for (size_t c = 0; c < components; c++) {
                auto begin = from.data_->begin() + static_cast<std::ptrdiff_t>((move.sample_in * components + c) * in_row + move.properties_start_in);
                auto out = data_->begin() + static_cast<std::ptrdiff_t>((move.sample_out * components + c) * out_row + move.properties_start_out);
                std::copy(begin, begin + static_cast<std::ptrdiff_t>(move.properties_length), out);
            }
        }
    }

    DLManagedTensorVersioned* as_dlpack(DLDevice device, const int64_t* stream, DLPackVersion max_version) override {
        if (device.device_type != kDLCPU) {
            throw Error("SimpleDataArray only supports CPU device (kDLCPU)");
        }
        if (stream != nullptr) {
            throw Error("`stream` must be null for CPU data");
        }
        if (max_version.major != DLPACK_MAJOR_VERSION) {
            throw Error("invalid `max_version` in SimpleDataArray::as_dlpack: we got v" +
                std::to_string(max_version.major) + "." + std::to_string(max_version.minor) +
                ", but we support v" + std::to_string(DLPACK_MAJOR_VERSION) + "." +
                std::to_string(DLPACK_MINOR_VERSION));
        }
        auto context = std::make_unique<details::DLPackContext<storage_t>>();
        context->shape.assign(shape_.begin(), shape_.end());
        context->strides = strides_;
        context->data = data_;

        auto managed = std::make_unique<DLManagedTensorVersioned>();
        managed->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
        managed->flags = 0;
        managed->deleter = details::DLPackDeleter;
        auto& tensor = managed->dl_tensor;
        tensor.data = data_->data();
        tensor.device = {kDLCPU, 0};
        tensor.ndim = static_cast<int32_t>(shape_.size());
        tensor.dtype = details::dtype_of<T>();
        tensor.shape = context->shape.data();
        tensor.strides = context->strides.data();
        tensor.byte_offset = 0;
        managed->manager_ctx = context.release();
        return managed.release();
    }

    std::unique_ptr<DataArrayBase> from_dlpack(DLManagedTensorVersioned* dl_tensor) const override {
        // the tensor is ours: released on every path
        auto owned = std::unique_ptr<DLManagedTensorVersioned, void(*)(DLManagedTensorVersioned*)>(
            dl_tensor, [](DLManagedTensorVersioned* tensor) {
                if (tensor != nullptr && tensor->deleter != nullptr) {
                    tensor->deleter(tensor);
                }
            });
        if (dl_tensor == nullptr) {
            throw Error("dlpack tensor is null in SimpleDataArray::from_dlpack");
        }
        if (dl_tensor->version.major != DLPACK_MAJOR_VERSION) {
            throw Error("DLPack version mismatch in SimpleDataArray::from_dlpack: expected major " +
                std::to_string(DLPACK_MAJOR_VERSION) + ", got " + std::to_string(dl_tensor->version.major) +
                "." + std::to_string(dl_tensor->version.minor));
        }
        const auto& tensor = dl_tensor->dl_tensor;
        if (tensor.device.device_type != kDLCPU) {
            throw Error("SimpleDataArray::from_dlpack only supports CPU device (kDLCPU), got device type " +
                std::to_string(tensor.device.device_type));
        }
        if (tensor.dtype.lanes != 1) {
            throw Error("SimpleDataArray::from_dlpack only supports DLPack tensors with lanes == 1");
        }
        auto shape = std::vector<uintptr_t>(tensor.shape, tensor.shape + tensor.ndim);
        return details::visit_dtype(tensor.dtype, "default_create_array", [&](auto tag) -> std::unique_ptr<DataArrayBase> {
            using U = typename decltype(tag)::type;
            return std::make_unique<SimpleDataArray<U>>(std::move(shape), details::vector_from_dlpack<U>(tensor));
        });
    }

    /// A view of the data. The data is shared rather than part of this object, so even
    /// the view of a const array may change it.
    NDArray<storage_t> view() const {
        return NDArray<storage_t>(data_->data(), shape_);
    }

    /// A mutable view of the data.
    NDArray<storage_t> view() {
        return NDArray<storage_t>(data_->data(), shape_);
    }

    /// The SimpleDataArray behind an MtsArray; throws when it holds another kind of array.
    static SimpleDataArray& from_mts_array(MtsArray& array) {
        return const_cast<SimpleDataArray&>(from_mts_array(static_cast<const MtsArray&>(array)));
    }

    /// The SimpleDataArray behind an MtsArray; throws when it holds another kind of array.
    static const SimpleDataArray& from_mts_array(const MtsArray& array) {
        auto name = std::array<char, 64>{};
        auto status = mts_get_data_origin(array.origin(), name.data(), name.size());
        if (status != MTS_SUCCESS || std::string(name.data()) != "metatensor::SimpleDataArray") {
            throw Error("this array is not a metatensor::SimpleDataArray");
        }
        const auto* base = static_cast<const DataArrayBase*>(array.as_mts_array_t().ptr);
        return dynamic_cast<const SimpleDataArray&>(*base);
    }

    /// The elements, in row-major order.
    storage_t* data() {
        return data_->data();
    }
    const storage_t* data() const {
        return data_->data();
    }

    /// The distance in elements between consecutive entries of each dimension.
    const std::vector<int64_t>& strides() const {
        return strides_;
    }

    /// Always true: the data is row-major.
    bool is_contiguous() const {
        return true;
    }

private:
    using details::CpuDataArray<T>::shape_;

    std::vector<int64_t> strides_;
    std::shared_ptr<std::vector<storage_t>> data_;
    uint8_t reserved_[16];
};

} // namespace metatensor
