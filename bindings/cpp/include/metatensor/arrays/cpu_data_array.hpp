// Hand-written: details::CpuDataArray<T>, what SimpleDataArray and EmptyDataArray share: a
// CPU array of elements of type T, with a shape.
#pragma once

#include <vector>

#include <metatensor.h>

#include "../errors.hpp"
#include "./data_array.hpp"
#include "./details.hpp"

namespace metatensor {
namespace details {

/// Gives the data origin registered under `name`.
inline mts_data_origin_t registered_origin(const char* name) {
    mts_data_origin_t origin = 0;
    check_status(mts_register_data_origin(name, &origin));
    return origin;
}

/// The members of a DataArrayBase that only depend on the data being CPU elements of type T
/// in an array of shape_.
template<typename T>
class CpuDataArray: public DataArrayBase {
public:
    explicit CpuDataArray(std::vector<uintptr_t> shape): shape_(std::move(shape)) {}

    DLDevice device() const override {
        return {kDLCPU, 0};
    }

    DLDataType dtype() const override {
        return dtype_of<T>();
    }

    const std::vector<uintptr_t>& shape() const & override {
        return shape_;
    }

    void reshape(const std::vector<uintptr_t>& shape) override {
        if (product(shape_) != product(shape)) {
            throw Error("invalid shape in reshape");
        }
        shape_ = shape;
    }

protected:
    std::vector<uintptr_t> shape_;
};

} // namespace details
} // namespace metatensor
