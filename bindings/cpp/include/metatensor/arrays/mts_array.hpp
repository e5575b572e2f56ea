// Hand-written: MtsArray, the owner of an mts_array_t, with one method per member of the
// vtable; a missing member or a failing one throws.
#pragma once

#include <cstring>

#include <string>
#include <vector>

#include <metatensor.h>

#include "../errors.hpp"
#include "./dlpack_array.hpp"

namespace metatensor {

/// Owns an mts_array_t (any array a C API user or metatensor made) and destroys it with its
/// `destroy` member. Copying calls the array's `copy` member.
class MtsArray final {
public:
    /// Takes ownership of `array`.
    explicit MtsArray(mts_array_t array): array_(array) {
        (void)reserved_;
    }

    ~MtsArray() {
        this->destroy();
    }

    MtsArray(const MtsArray& other): MtsArray(mts_array_t{}) {
        *this = other;
    }

    MtsArray& operator=(const MtsArray& other) {
        if (this != &other) {
            if (other.array_.copy == nullptr) {
                throw Error("invalid mts_array_t: null copy function pointer");
            }
            auto copy = other.copy_to(other.device());
            *this = std::move(copy);
        }
        return *this;
    }

    MtsArray(MtsArray&& other) noexcept: MtsArray(mts_array_t{}) {
        *this = std::move(other);
    }

    MtsArray& operator=(MtsArray&& other) noexcept {
        if (this != &other) {
            this->destroy();
            array_ = other.array_;
            other.array_ = mts_array_t{};
        }
        return *this;
    }

    /// Gives up ownership of the array and returns it.
    mts_array_t release() && {
        auto array = array_;
        array_ = mts_array_t{};
        return array;
    }

    /// A view of the array, for C functions that borrow it: the same members, no `destroy`.
    mts_array_t as_mts_array_t() const {
        auto view = array_;
        view.destroy = nullptr;
        return view;
    }

    /// The data origin of the array.
    mts_data_origin_t origin() const {
        mts_data_origin_t origin = 0;
        details::check_status(this->member(array_.origin, "origin")(array_.ptr, &origin));
        return origin;
    }

    /// The device of the data.
    DLDevice device() const {
        DLDevice device = {kDLCPU, 0};
        details::check_status(this->member(array_.device, "device")(array_.ptr, &device));
        return device;
    }

    /// The data type of the elements.
    DLDataType dtype() const {
        DLDataType dtype = {0, 0, 0};
        details::check_status(this->member(array_.dtype, "dtype")(array_.ptr, &dtype));
        return dtype;
    }

    /// A DLPack view of the data on `device`, owned by the caller.
    DLManagedTensorVersioned* as_dlpack(DLDevice device, const int64_t* stream, DLPackVersion max_version) {
        DLManagedTensorVersioned* tensor = nullptr;
        details::check_status(this->member(array_.as_dlpack, "as_dlpack")(array_.ptr, &tensor, device, stream, max_version));
        return tensor;
    }

    /// A new array of the same kind as this one, holding the data of `dl_tensor` (which the
    /// callee owns from now on).
    MtsArray from_dlpack(DLManagedTensorVersioned* dl_tensor) {
        mts_array_t array = {};
        details::check_status(this->member(array_.from_dlpack, "from_dlpack")(array_.ptr, dl_tensor, &array));
        return MtsArray(array);
    }

    /// The data as a DLPackArray of T on `device`.
    template<typename T>
    DLPackArray<T> as_dlpack_array(DLDevice device, const int64_t* stream, DLPackVersion max_version) {
        return DLPackArray<T>(this->as_dlpack(device, stream, max_version));
    }

    /// A new array of the same kind, of the given shape, filled with `fill_value` (an array
    /// of one element, which the callee owns from now on).
    MtsArray create(const std::vector<uintptr_t>& shape, MtsArray fill_value) const {
        mts_array_t array = {};
        details::check_status(this->member(array_.create, "create")(
            array_.ptr, shape.data(), shape.size(), std::move(fill_value).release(), &array));
        return MtsArray(array);
    }

    /// The size of each dimension.
    std::vector<uintptr_t> shape() const {
        const uintptr_t* shape = nullptr;
        uintptr_t count = 0;
        details::check_status(this->member(array_.shape, "shape")(array_.ptr, &shape, &count));
        return std::vector<uintptr_t>(shape, shape + count);
    }

    /// Gives the array a new shape with the same number of elements.
    void reshape(const std::vector<uintptr_t>& shape) {
        details::check_status(this->member(array_.reshape, "reshape")(array_.ptr, shape.data(), shape.size()));
    }

    /// Swaps two dimensions.
    void swap_axes(uintptr_t axis_1, uintptr_t axis_2) {
        details::check_status(this->member(array_.swap_axes, "swap_axes")(array_.ptr, axis_1, axis_2));
    }

    /// Copies the given parts of `input` into this array.
    void move_data(const MtsArray& input, std::vector<mts_data_movement_t> moves) {
        details::check_status(this->member(array_.move_data, "move_data")(
            array_.ptr, input.array_.ptr, moves.data(), moves.size()));
    }

private:
    // A member of the vtable, checked to be there.
    template<typename Member>
    Member member(Member function, const char* name) const {
        if (function == nullptr) {
            throw Error(std::string("invalid mts_array_t: `") + name + "` function pointer is null");
        }
        return function;
    }

    MtsArray copy_to(DLDevice device) const {
        mts_array_t array = {};
        details::check_status(this->member(array_.copy, "copy")(array_.ptr, device, &array));
        return MtsArray(array);
    }

    void destroy() {
        if (array_.destroy != nullptr) {
            array_.destroy(array_.ptr);
        }
        array_ = mts_array_t{};
    }

    mts_array_t array_;
    uint8_t reserved_[24];
};

} // namespace metatensor
