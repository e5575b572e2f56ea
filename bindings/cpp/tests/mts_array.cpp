// MtsArray: the vtable of an mts_array_t, copies, moves, release, missing members.
#include "helpers.hpp"

using namespace metatensor;

namespace {
MtsArray simple(std::vector<uintptr_t> shape, double value) {
    return DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<double>>(std::move(shape), value));
}
} // namespace

TEST(MtsArray, Members) {
    auto array = simple({2, 3}, 1.5);
    EXPECT_EQ(array.shape(), (std::vector<uintptr_t>{2, 3}));
    EXPECT_EQ(array.device().device_type, kDLCPU);
    EXPECT_EQ(array.dtype().bits, 64);
    auto name = std::array<char, 64>{};
    mts_get_data_origin(array.origin(), name.data(), name.size());
    EXPECT_STREQ(name.data(), "metatensor::SimpleDataArray");

    array.reshape({3, 2});
    EXPECT_EQ(array.shape(), (std::vector<uintptr_t>{3, 2}));
    array.swap_axes(0, 1);
    EXPECT_EQ(array.shape(), (std::vector<uintptr_t>{2, 3}));

    auto created = array.create({4}, simple({}, 2.5));
    EXPECT_EQ(SimpleDataArray<double>::from_mts_array(created).data()[3], 2.5);
}

TEST(MtsArray, MoveData) {
    auto output = simple({2, 1, 2}, 0.0);
    auto input = DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<double>>(
        std::vector<uintptr_t>{1, 1, 3}, std::vector<double>{1, 2, 3}));
    output.move_data(input, {mts_data_movement_t{0, 1, 1, 0, 2}});
    const auto* data = SimpleDataArray<double>::from_mts_array(output).data();
    EXPECT_EQ(data[2], 2);
    EXPECT_EQ(data[3], 3);
    EXPECT_EQ(data[0], 0);
}

TEST(MtsArray, CopiesAndMoves) {
    auto array = simple({2}, 1.0);
    auto copy = array;
    SimpleDataArray<double>::from_mts_array(copy).data()[0] = 5;
#ifndef MTS_TEST_REFERENCE
    // the reference's copies share the data of the original, so that changing the values of
    // a clone (TensorBlock::clone) changes the original's: ours copy it
    EXPECT_EQ(SimpleDataArray<double>::from_mts_array(array).data()[0], 1);
#endif

    auto assigned = simple({1}, 0.0);
    assigned = copy;
    EXPECT_EQ(assigned.shape(), (std::vector<uintptr_t>{2}));

    auto moved = std::move(array);
    EXPECT_EQ(moved.shape(), (std::vector<uintptr_t>{2}));
    auto raw = std::move(moved).release();
    EXPECT_NE(raw.ptr, nullptr);
    raw.destroy(raw.ptr);

    auto view = copy.as_mts_array_t();
    EXPECT_EQ(view.destroy, nullptr);
    EXPECT_NE(view.shape, nullptr);
}

TEST(MtsArray, MissingMembers) {
    auto empty = MtsArray(mts_array_t{});
    EXPECT_EQ(test::error_of([&] { empty.shape(); }), "invalid mts_array_t: `shape` function pointer is null");
    EXPECT_EQ(test::error_of([&] { empty.origin(); }), "invalid mts_array_t: `origin` function pointer is null");
    EXPECT_EQ(test::error_of([&] { empty.dtype(); }), "invalid mts_array_t: `dtype` function pointer is null");
    EXPECT_EQ(test::error_of([&] { MtsArray copy = empty; }), "invalid mts_array_t: null copy function pointer");
    EXPECT_EQ(test::error_of([&] { empty.swap_axes(0, 1); }), "invalid mts_array_t: `swap_axes` function pointer is null");
}
