// Hand-written: DataArrayBase, the interface C++ arrays implement to be given to metatensor,
// and the mts_array_t that forwards each member of the vtable to it.
#pragma once

#include <memory>
#include <vector>

#include <metatensor.h>

#include "../errors.hpp"
#include "./mts_array.hpp"

namespace metatensor {

/// The interface of the arrays a C++ program gives to metatensor: to_mts_array turns one
/// into an mts_array_t whose members call these methods, with the exceptions they throw
/// carried back to the caller of metatensor.
class DataArrayBase {
public:
    DataArrayBase() = default;
    virtual ~DataArrayBase() = default;

    DataArrayBase(const DataArrayBase&) = default;
    DataArrayBase& operator=(const DataArrayBase&) = default;
    DataArrayBase(DataArrayBase&&) noexcept = default;
    DataArrayBase& operator=(DataArrayBase&&) noexcept = default;

    /// An MtsArray owning `data`.
    static MtsArray to_mts_array(std::unique_ptr<DataArrayBase> data) {
        mts_array_t array = {};
        array.ptr = data.release();
        array.destroy = [](void* self) {
            delete static_cast<DataArrayBase*>(self);
        };
        array.origin = [](const void* self, mts_data_origin_t* origin) {
            return details::catch_exceptions([=] { *origin = cxx(self).origin(); });
        };
        array.device = [](const void* self, DLDevice* device) {
            return details::catch_exceptions([=] { *device = cxx(self).device(); });
        };
        array.dtype = [](const void* self, DLDataType* dtype) {
            return details::catch_exceptions([=] { *dtype = cxx(self).dtype(); });
        };
        array.as_dlpack = [](void* self, DLManagedTensorVersioned** tensor, DLDevice device, const int64_t* stream, DLPackVersion max_version) {
            return details::catch_exceptions([=] { *tensor = cxx(self).as_dlpack(device, stream, max_version); });
        };
        array.from_dlpack = [](const void* self, DLManagedTensorVersioned* tensor, mts_array_t* new_array) {
            return details::catch_exceptions([=] { *new_array = to_c(cxx(self).from_dlpack(tensor)); });
        };
        array.shape = [](const void* self, const uintptr_t** shape, uintptr_t* shape_count) {
            return details::catch_exceptions([=] {
                const auto& cxx_shape = cxx(self).shape();
                *shape = cxx_shape.data();
                *shape_count = cxx_shape.size();
            });
        };
        array.reshape = [](void* self, const uintptr_t* shape, uintptr_t shape_count) {
            return details::catch_exceptions([=] { cxx(self).reshape(std::vector<uintptr_t>(shape, shape + shape_count)); });
        };
        array.swap_axes = [](void* self, uintptr_t axis_1, uintptr_t axis_2) {
            return details::catch_exceptions([=] { cxx(self).swap_axes(axis_1, axis_2); });
        };
        array.create = [](const void* self, const uintptr_t* shape, uintptr_t shape_count, mts_array_t fill_value, mts_array_t* new_array) {
            return details::catch_exceptions([=] {
                auto created = cxx(self).create(std::vector<uintptr_t>(shape, shape + shape_count), MtsArray(fill_value));
                *new_array = to_c(std::move(created));
            });
        };
        array.copy = [](const void* self, DLDevice device, mts_array_t* new_array) {
            return details::catch_exceptions([=] { *new_array = to_c(cxx(self).copy(device)); });
        };
        array.move_data = [](void* self, const void* input, const mts_data_movement_t* moves, uintptr_t moves_count) {
            return details::catch_exceptions([=] {
                cxx(self).move_data(cxx(input), std::vector<mts_data_movement_t>(moves, moves + moves_count));
            });
        };
        return MtsArray(array);
    }

    /// The data origin of this kind of array (see mts_register_data_origin).
    virtual mts_data_origin_t origin() const = 0;
    /// The device of the data.
    virtual DLDevice device() const = 0;
    /// The data type of the elements.
    virtual DLDataType dtype() const = 0;
    /// A DLPack view of the data on `device`, owned by the caller.
    virtual DLManagedTensorVersioned* as_dlpack(DLDevice device, const int64_t* stream, DLPackVersion max_version) = 0;
    /// A new array of this kind holding the data of `dl_tensor`, which it owns from now on.
    virtual std::unique_ptr<DataArrayBase> from_dlpack(DLManagedTensorVersioned* dl_tensor) const = 0;
    /// A copy of this array on `device`.
    virtual std::unique_ptr<DataArrayBase> copy(DLDevice device) const = 0;
    /// A new array of this kind of the given shape, every element `fill_value` (one element).
    virtual std::unique_ptr<DataArrayBase> create(std::vector<uintptr_t> shape, MtsArray fill_value) const = 0;
    /// The size of each dimension.
    virtual const std::vector<uintptr_t>& shape() const & = 0;
    const std::vector<uintptr_t>& shape() && = delete;
    /// Gives the array a new shape with the same number of elements.
    virtual void reshape(const std::vector<uintptr_t>& shape) = 0;
    /// Swaps two dimensions.
    virtual void swap_axes(uintptr_t axis_1, uintptr_t axis_2) = 0;
    /// Copies parts of `input` (an array of the same kind) into this one: for each move, the
    /// properties [start_in, start_in + length) of sample sample_in go to properties
    /// [start_out, start_out + length) of sample sample_out, every component included.
    virtual void move_data(const DataArrayBase& input, std::vector<mts_data_movement_t> moves) = 0;

private:
    static const DataArrayBase& cxx(const void* self) {
        return *static_cast<const DataArrayBase*>(self);
    }
    static DataArrayBase& cxx(void* self) {
        return *static_cast<DataArrayBase*>(self);
    }
    static mts_array_t to_c(std::unique_ptr<DataArrayBase> array) {
        return to_mts_array(std::move(array)).release();
    }
};

} // namespace metatensor
