// NDArray<T>: views, owned data, indexing, const access, moves, comparisons.
#include <cmath>

#include "helpers.hpp"

using namespace metatensor;

TEST(NDArray, ConstView) {
    const double data[] = {1, 2, 3, 4, 5, 6};
    auto array = NDArray<double>(data, {2, 3});
    EXPECT_TRUE(array.is_view());
    EXPECT_TRUE(array.is_contiguous());
    EXPECT_EQ(array.shape(), (std::vector<size_t>{2, 3}));
    EXPECT_EQ(array.strides(), (std::vector<int64_t>{3, 1}));
    // a const view gives its elements through const access only
    const auto& const_array = array;
    EXPECT_EQ(const_array(1, 2), 6);
    EXPECT_EQ(const_array(0, 1), 2);
    EXPECT_EQ(const_array.data(), data);
    EXPECT_EQ(test::error_of([&] { array(0, 0) = 3; }), "This NDArray is const, can not get non-const access to it");
    EXPECT_EQ(test::error_of([&] { array.data(); }), "This NDArray is const, can not get non-const access to it");
}

TEST(NDArray, MutableView) {
    double data[] = {1, 2, 3, 4};
    auto array = NDArray<double>(data, {2, 2});
    array(1, 0) = 30;
    EXPECT_EQ(data[2], 30);
    EXPECT_EQ(array.data(), data);
}

TEST(NDArray, OwnedData) {
    auto array = NDArray<int32_t>(std::vector<int32_t>{1, 2, 3, 4, 5, 6}, {3, 2});
    EXPECT_FALSE(array.is_view());
    array(2, 1) = 60;
    EXPECT_EQ(array(2, 1), 60);
}

TEST(NDArray, Errors) {
    auto array = NDArray<int32_t>(std::vector<int32_t>{1, 2}, {1, 2});
    EXPECT_EQ(test::error_of([&] { array(0); }), "expected 2 indexes in NDArray::operator(), got 1");
    EXPECT_EQ(test::error_of([] { NDArray<int32_t>(static_cast<const int32_t*>(nullptr), {}); }),
        "invalid parameters to NDArray, shape should contain at least one element");
    EXPECT_EQ(test::error_of([] { NDArray<int32_t>(static_cast<const int32_t*>(nullptr), {2}); }),
        "invalid parameters to NDArray, got null data pointer and non zero size");
    EXPECT_NO_THROW(NDArray<int32_t>(static_cast<const int32_t*>(nullptr), {0, 2}));
}

#ifndef MTS_TEST_REFERENCE
// the reference's default constructor throws (a shape without dimensions), and its move
// constructor starts from it inside noexcept, which terminates: ours default to an empty view
TEST(NDArray, Moves) {
    auto array = NDArray<double>(std::vector<double>{1, 2}, {2});
    auto moved = std::move(array);
    EXPECT_EQ(moved(1), 2);
    auto assigned = NDArray<double>();
    assigned = std::move(moved);
    EXPECT_EQ(assigned(0), 1);
    EXPECT_FALSE(assigned.is_view());
}
#endif

TEST(NDArray, Comparison) {
    auto first = NDArray<double>(std::vector<double>{1, 2, 3, 4}, {2, 2});
    auto second = NDArray<double>(std::vector<double>{1, 2, 3, 4}, {2, 2});
    auto other_shape = NDArray<double>(std::vector<double>{1, 2, 3, 4}, {4, 1});
    auto other_value = NDArray<double>(std::vector<double>{1, 2, 3, 5}, {2, 2});
    EXPECT_TRUE(first == second);
    EXPECT_TRUE(first != other_shape);
    EXPECT_TRUE(first != other_value);
    auto nan = NDArray<double>(std::vector<double>{std::nan("")}, {1});
    EXPECT_TRUE(nan != nan);
}
