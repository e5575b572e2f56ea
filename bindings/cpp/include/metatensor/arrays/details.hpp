// Hand-written: the helpers every array class shares: shapes and strides, the DLPack data
// type of a C++ type, the choice of a C++ type for a DLPack data type, element comparison.
#pragma once

#include <cstdint>
#include <cstring>

#include <string>
#include <type_traits>
#include <vector>

#include <metatensor.h>

#include "../errors.hpp"

namespace metatensor {
namespace details {

/// The number of elements of an array of this shape.
template<typename Shape>
inline size_t product(const Shape& shape) {
    size_t result = 1;
    for (auto size: shape) {
        result *= static_cast<size_t>(size);
    }
    return result;
}

/// The strides, in elements, of a row-major array of this shape.
template<typename Shape>
inline std::vector<int64_t> contiguous_strides(const Shape& shape) {
    auto strides = std::vector<int64_t>(shape.size(), 1);
    for (size_t dim = shape.size(); dim > 1; dim--) {
        strides[dim - 2] = strides[dim - 1] * static_cast<int64_t>(shape[dim - 1]);
    }
    return strides;
}

/// Whether these strides lay an array of this shape out in row-major order; the stride of a
/// dimension of size 1 does not matter.
template<typename Shape>
inline bool is_row_major_contiguous(const Shape& shape, const std::vector<int64_t>& strides) {
    if (shape.size() != strides.size()) {
        return false;
    }
    auto expected = contiguous_strides(shape);
    for (size_t dim = 0; dim < shape.size(); dim++) {
        if (static_cast<int64_t>(shape[dim]) != 1 && strides[dim] != expected[dim]) {
            return false;
        }
    }
    return true;
}

/// The DLPack data type of the C++ type T.
template<typename T>
DLDataType dtype_of() {
    static_assert(std::is_arithmetic_v<T>, "dtype_of requires an arithmetic type");
    DLDataType dtype;
    dtype.lanes = 1;
    dtype.bits = static_cast<uint8_t>(sizeof(T) * 8);
    if constexpr (std::is_same_v<T, bool>) {
        dtype.code = kDLBool;
    } else if constexpr (std::is_floating_point_v<T>) {
        dtype.code = kDLFloat;
    } else if constexpr (std::is_signed_v<T>) {
        dtype.code = kDLInt;
    } else {
        dtype.code = kDLUInt;
    }
    return dtype;
}

/// How elements of type T are stored: bool as uint8_t, so that std::vector<bool> is never
/// used.
template<typename T>
struct storage_type_of { using type = T; };
template<>
struct storage_type_of<bool> { using type = uint8_t; };
template<typename T>
using storage_type_t = typename storage_type_of<T>::type;

/// Whether a DLPack data type is the one of T.
template<typename T>
bool dlpack_dtype_matches(DLDataType dtype) {
    auto expected = dtype_of<T>();
    return dtype.code == expected.code && dtype.bits == expected.bits && dtype.lanes == expected.lanes;
}

/// Describes a data type for error messages.
inline std::string dtype_description(DLDataType dtype) {
    return "(code=" + std::to_string(dtype.code) + ", bits=" + std::to_string(dtype.bits) +
        ", lanes=" + std::to_string(dtype.lanes) + ")";
}

/// An empty value whose type names a C++ element type, given to the visitors of visit_dtype.
template<typename T>
struct type_tag { using type = T; };

/// Calls visitor(type_tag<T>{}) with the C++ type T of a DLPack data type; every type an
/// array of metatensor can hold has one. `context` starts the error for the others.
template<typename Visitor>
decltype(auto) visit_dtype(DLDataType dtype, const char* context, Visitor visitor) {
    if (dtype.lanes != 1) {
        throw Error(std::string("unsupported DLDataType in ") + context + ": lanes=" +
            std::to_string(dtype.lanes) + " (expected 1)");
    }
    switch ((dtype.code << 8) | dtype.bits) {
    case (kDLFloat << 8) | 64: return visitor(type_tag<double>{});
    case (kDLFloat << 8) | 32: return visitor(type_tag<float>{});
    case (kDLInt << 8) | 8: return visitor(type_tag<int8_t>{});
    case (kDLInt << 8) | 16: return visitor(type_tag<int16_t>{});
    case (kDLInt << 8) | 32: return visitor(type_tag<int32_t>{});
    case (kDLInt << 8) | 64: return visitor(type_tag<int64_t>{});
    case (kDLUInt << 8) | 8: return visitor(type_tag<uint8_t>{});
    case (kDLUInt << 8) | 16: return visitor(type_tag<uint16_t>{});
    case (kDLUInt << 8) | 32: return visitor(type_tag<uint32_t>{});
    case (kDLUInt << 8) | 64: return visitor(type_tag<uint64_t>{});
    case (kDLBool << 8) | 8: return visitor(type_tag<bool>{});
    }
    throw Error(std::string("unsupported DLDataType in ") + context + ": code=" +
        std::to_string(dtype.code) + " bits=" + std::to_string(dtype.bits));
}

/// Walks every index of an array of this shape in row-major order, calling visit(offset)
/// with the offset of the element under each of the given strides.
template<size_t N, typename Visit>
void for_each_offset(const std::vector<size_t>& shape, const std::vector<int64_t>* const (&strides)[N], Visit visit) {
    auto count = product(shape);
    auto index = std::vector<size_t>(shape.size(), 0);
    for (size_t i = 0; i < count; i++) {
        int64_t offsets[N] = {};
        for (size_t k = 0; k < N; k++) {
            for (size_t dim = 0; dim < shape.size(); dim++) {
                offsets[k] += static_cast<int64_t>(index[dim]) * (*strides[k])[dim];
            }
        }
        visit(offsets);
        for (size_t dim = shape.size(); dim > 0; dim--) {
            if (++index[dim - 1] < shape[dim - 1]) {
                break;
            }
            index[dim - 1] = 0;
        }
    }
}

/// Compares two arrays (NDArray, DLPackArray, SimpleDataArray) element by element: floating
/// point values compare as numbers (NaN differs from itself, -0.0 equals 0.0).
template<typename Lhs, typename Rhs>
bool arrays_equal(const Lhs& lhs, const Rhs& rhs) {
    if (lhs.shape() != rhs.shape()) {
        return false;
    }
    auto shape = std::vector<size_t>(lhs.shape().begin(), lhs.shape().end());
    const auto* lhs_data = lhs.data();
    const auto* rhs_data = rhs.data();
    auto lhs_strides = lhs.strides();
    auto rhs_strides = rhs.strides();
    bool equal = true;
    const std::vector<int64_t>* const strides[2] = {&lhs_strides, &rhs_strides};
    for_each_offset(shape, strides, [&](const int64_t* offsets) {
        equal = equal && lhs_data[offsets[0]] == rhs_data[offsets[1]];
    });
    return equal;
}

} // namespace details
} // namespace metatensor
