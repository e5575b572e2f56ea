// Hand-written: NDArray<T>, a row-major n-dimensional array of CPU data, either a view of
// memory owned elsewhere or the owner of a std::vector.
#pragma once

#include <array>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "../errors.hpp"
#include "./details.hpp"

namespace metatensor {

class Labels;

/// A row-major array of elements of type T on the CPU: a view (of const or mutable memory)
/// or the owner of its data. It can be moved, not copied.
template<typename T>
class NDArray {
public:
    /// An empty const view, without dimensions, for an array to be moved into.
    NDArray(): deleter_([](void*) {}) {
        (void)reserved_;
    }

    /// A const view of `data`, of the given shape.
    NDArray(const T* data, std::vector<size_t> shape): NDArray(data, std::move(shape), true) {}

    /// A mutable view of `data`, of the given shape.
    NDArray(T* data, std::vector<size_t> shape): NDArray(data, std::move(shape), false) {}

    /// An array owning `data`, of the given shape.
    NDArray(std::vector<T> data, std::vector<size_t> shape): NDArray(data.data(), std::move(shape), false) {
        this->own(std::move(data));
    }

    ~NDArray() {
        deleter_(owned_data_);
    }

    NDArray(const NDArray&) = delete;
    NDArray& operator=(const NDArray&) = delete;

    NDArray(NDArray&& other) noexcept: NDArray() {
        *this = std::move(other);
    }

    NDArray& operator=(NDArray&& other) noexcept {
        if (this != &other) {
            deleter_(owned_data_);
            data_ = other.data_;
            shape_ = std::move(other.shape_);
            strides_ = std::move(other.strides_);
            is_const_ = other.is_const_;
            owned_data_ = other.owned_data_;
            deleter_ = std::move(other.deleter_);
            other.data_ = nullptr;
            other.owned_data_ = nullptr;
            other.deleter_ = [](void*) {};
        }
        return *this;
    }

    /// Whether this array is a view of memory it does not own.
    bool is_view() const {
        return owned_data_ == nullptr;
    }

    /// The element at the given index, one value per dimension.
    template<typename ...Args>
    T operator()(Args... args) const & {
        return data_[this->offset(args...)];
    }

    /// A reference to the element at the given index; throws for a const view.
    template<typename ...Args>
    T& operator()(Args... args) & {
        this->check_mutable();
        return data_[this->offset(args...)];
    }
    template<typename ...Args>
    T& operator()(Args... args) && = delete;

    /// The elements, in row-major order.
    const T* data() const & {
        return data_;
    }

    /// The elements, to modify them; throws for a const view.
    T* data() & {
        this->check_mutable();
        return data_;
    }
    const T* data() && = delete;

    /// The size of each dimension.
    const std::vector<size_t>& shape() const & {
        return shape_;
    }
    const std::vector<size_t>& shape() && = delete;

    /// The distance in elements between consecutive entries of each dimension.
    const std::vector<int64_t>& strides() const {
        return strides_;
    }

    /// Always true: an NDArray is row-major.
    bool is_contiguous() const {
        return true;
    }

private:
    NDArray(const T* data, std::vector<size_t> shape, bool is_const):
        data_(const_cast<T*>(data)),
        shape_(std::move(shape)),
        strides_(details::contiguous_strides(shape_)),
        is_const_(is_const),
        deleter_([](void*) {})
    {
        static_assert(std::is_arithmetic_v<T>, "NDArray only works with integers and floating points");
        if (shape_.empty()) {
            throw Error("invalid parameters to NDArray, shape should contain at least one element");
        }
        if (details::product(shape_) != 0 && data_ == nullptr) {
            throw Error("invalid parameters to NDArray, got null data pointer and non zero size");
        }
    }

    // Labels builds its values from rows of `size` values each.
    NDArray(const std::vector<std::initializer_list<T>>& rows, size_t size):
        NDArray(flatten(rows, size), {rows.size(), size}) {}

    static std::vector<T> flatten(const std::vector<std::initializer_list<T>>& rows, size_t size) {
        auto data = std::vector<T>();
        data.reserve(rows.size() * size);
        for (const auto& row: rows) {
            if (row.size() != size) {
                throw Error("invalid size for row: expected " + std::to_string(size) +
                    " got " + std::to_string(row.size()));
            }
            data.insert(data.end(), row.begin(), row.end());
        }
        return data;
    }
    friend class Labels;

    void own(std::vector<T> data) {
        owned_data_ = new std::vector<T>(std::move(data));
        deleter_ = [](void* owned) { delete static_cast<std::vector<T>*>(owned); };
    }

    void check_mutable() const {
        if (is_const_) {
            throw Error("This NDArray is const, can not get non-const access to it");
        }
    }

    template<typename ...Args>
    size_t offset(Args... args) const {
        auto index = std::array<size_t, sizeof...(Args)>{static_cast<size_t>(args)...};
        if (index.size() != shape_.size()) {
            throw Error("expected " + std::to_string(shape_.size()) +
                " indexes in NDArray::operator(), got " + std::to_string(index.size()));
        }
        size_t offset = 0;
        for (size_t i = 0; i < index.size(); i++) {
            if (index[i] >= shape_[i]) {
                throw Error("index " + std::to_string(index[i]) + " is out of bounds for dimension " +
                    std::to_string(i) + " of size " + std::to_string(shape_[i]));
            }
            offset = offset * shape_[i] + index[i];
        }
        return offset;
    }

    T* data_ = nullptr;
    std::vector<size_t> shape_;
    std::vector<int64_t> strides_;
    bool is_const_ = true;
    void* owned_data_ = nullptr;
    std::function<void(void*)> deleter_;
    uint8_t reserved_[16];
};

} // namespace metatensor
