// Hand-written: EmptyDataArray<T>, an array with a shape and no data, for the metadata of
// blocks whose values are not needed (clone_metadata_only).
#pragma once

#include <memory>
#include <vector>

#include <metatensor.h>

#include "../errors.hpp"
#include "./data_array.hpp"
#include "./details.hpp"
#include "./cpu_data_array.hpp"
#include "./simple_data_array.hpp"

namespace metatensor {

/// An array of T with a shape but no elements: everything that would read or write them
/// throws.
template <typename T = double, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
class EmptyDataArray: public details::CpuDataArray<T> {
public:
    /// An array of the given shape.
    EmptyDataArray(std::vector<uintptr_t> shape): details::CpuDataArray<T>(std::move(shape)) {}

    mts_data_origin_t origin() const override {
        return details::registered_origin("metatensor::EmptyDataArray");
    }

    [[noreturn]] DLManagedTensorVersioned* as_dlpack(DLDevice, const int64_t*, DLPackVersion) override {
        throw Error("can not call `as_dlpack` for an EmptyDataArray");
    }

    [[noreturn]] std::unique_ptr<DataArrayBase> from_dlpack(DLManagedTensorVersioned*) const override {
        throw Error("can not call `from_dlpack` for an EmptyDataArray");
    }

    void swap_axes(uintptr_t axis_1, uintptr_t axis_2) override {
        std::swap(this->shape_[axis_1], this->shape_[axis_2]);
    }

    std::unique_ptr<DataArrayBase> copy(DLDevice device) const override {
        if (device.device_type != kDLCPU) {
            throw Error("EmptyDataArray only supports copying to CPU");
        }
        return std::make_unique<EmptyDataArray>(this->shape_);
    }

    std::unique_ptr<DataArrayBase> create(std::vector<uintptr_t> shape, MtsArray) const override {
        return std::make_unique<EmptyDataArray>(std::move(shape));
    }

    [[noreturn]] void move_data(const DataArrayBase&, std::vector<mts_data_movement_t>) override {
        throw Error("can not call `move_data` for an EmptyDataArray");
    }
};

namespace details {

/// An EmptyDataArray of the given shape and data type.
inline std::unique_ptr<DataArrayBase> create_empty_array(std::vector<uintptr_t> shape, DLDataType dtype) {
    return visit_dtype(dtype, "create_empty_array", [&](auto tag) -> std::unique_ptr<DataArrayBase> {
        return std::make_unique<EmptyDataArray<typename decltype(tag)::type>>(std::move(shape));
    });
}

/// The create_array callback of the loaders when the caller gives none: zero-filled
/// SimpleDataArray of the requested shape and data type.
inline mts_status_t default_create_array(const uintptr_t* shape, uintptr_t shape_count, DLDataType dtype, mts_array_t* array) {
    return catch_exceptions([=] {
        auto cxx_shape = std::vector<uintptr_t>(shape, shape + shape_count);
        *array = visit_dtype(dtype, "default_create_array", [&](auto tag) {
            using T = typename decltype(tag)::type;
            return DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<T>>(std::move(cxx_shape))).release();
        });
    });
}

} // namespace details
} // namespace metatensor
