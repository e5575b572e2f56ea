// Hand-written: == and != between the array classes holding elements of the same type
// (NDArray, DLPackArray, SimpleDataArray, in any pair), comparing shapes and elements.
#pragma once

#include <type_traits>

#include "./details.hpp"
#include "./dlpack_array.hpp"
#include "./ndarray.hpp"
#include "./simple_data_array.hpp"

namespace metatensor {
namespace details {

/// The element type of the comparable array classes, void for every other type.
template<typename A>
struct comparable_element { using type = void; };
template<typename T>
struct comparable_element<NDArray<T>> { using type = T; };
template<typename T>
struct comparable_element<DLPackArray<T>> { using type = T; };
template<typename T>
struct comparable_element<SimpleDataArray<T>> { using type = T; };

/// Whether Lhs and Rhs are comparable array classes of the same element type.
template<typename Lhs, typename Rhs>
constexpr bool comparable_arrays_v = !std::is_void_v<typename comparable_element<Lhs>::type> &&
    std::is_same_v<typename comparable_element<Lhs>::type, typename comparable_element<Rhs>::type>;

} // namespace details

/// Whether two arrays have the same shape and elements.
template<typename Lhs, typename Rhs, typename = std::enable_if_t<details::comparable_arrays_v<Lhs, Rhs>>>
bool operator==(const Lhs& lhs, const Rhs& rhs) {
    return details::arrays_equal(lhs, rhs);
}

/// Whether two arrays differ in shape or in an element.
template<typename Lhs, typename Rhs, typename = std::enable_if_t<details::comparable_arrays_v<Lhs, Rhs>>>
bool operator!=(const Lhs& lhs, const Rhs& rhs) {
    return !details::arrays_equal(lhs, rhs);
}

} // namespace metatensor
