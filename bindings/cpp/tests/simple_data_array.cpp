// SimpleDataArray<T>: construction, shape changes, copies, DLPack round trips, every dtype.
#include "helpers.hpp"

using namespace metatensor;

namespace {
DLPackVersion version() {
    return {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
}
} // namespace

TEST(SimpleDataArray, Construction) {
    auto array = SimpleDataArray<float>({2, 2}, 3.0f);
    EXPECT_EQ(array.shape(), (std::vector<uintptr_t>{2, 2}));
    EXPECT_EQ(array.data()[3], 3.0f);
    EXPECT_EQ(array.dtype().bits, 32);
    EXPECT_EQ(array.device().device_type, kDLCPU);
    EXPECT_TRUE(array.is_contiguous());
    EXPECT_EQ(test::error_of([] { SimpleDataArray<double>({2, 2}, std::vector<double>{1}); }),
        "the shape and size of the data don't match in SimpleDataArray");
}

TEST(SimpleDataArray, ReshapeAndSwapAxes) {
    auto array = SimpleDataArray<int32_t>({2, 3}, std::vector<int32_t>{0, 1, 2, 3, 4, 5});
    array.swap_axes(0, 1);
    EXPECT_EQ(array.shape(), (std::vector<uintptr_t>{3, 2}));
#ifndef MTS_TEST_REFERENCE
    // the reference reads the old index in column-major order and writes the new one in
    // row-major order, which mixes the elements of non-square arrays: ours transposes
    auto view = array.view();
    EXPECT_EQ(view(2, 1), 5);
    EXPECT_EQ(view(1, 0), 1);
    array.reshape({6});
    EXPECT_EQ(array.data()[1], 3);
#endif
    EXPECT_EQ(test::error_of([&] { array.reshape({4}); }), "invalid shape in reshape");
}

TEST(SimpleDataArray, Copy) {
    auto array = SimpleDataArray<double>({2}, 1.0);
    auto copy = array.copy({kDLCPU, 0});
    EXPECT_EQ(copy->shape(), array.shape());
    EXPECT_EQ(test::error_of([&] { array.copy({kDLCUDA, 0}); }), "SimpleDataArray only supports copying to CPU");
}

TEST(SimpleDataArray, DLPack) {
    auto array = SimpleDataArray<int64_t>({2, 2}, std::vector<int64_t>{1, 2, 3, 4});
    auto dlpack = DLPackArray<int64_t>(array.as_dlpack({kDLCPU, 0}, nullptr, version()));
    EXPECT_TRUE(dlpack == array);
    EXPECT_EQ(test::error_of([&] { array.as_dlpack({kDLCUDA, 0}, nullptr, version()); }),
        "SimpleDataArray only supports CPU device (kDLCPU)");
    int64_t stream = 0;
    EXPECT_EQ(test::error_of([&] { array.as_dlpack({kDLCPU, 0}, &stream, version()); }),
        "`stream` must be null for CPU data");
    EXPECT_EQ(test::error_of([&] { array.as_dlpack({kDLCPU, 0}, nullptr, {0, 1}); }),
        "invalid `max_version` in SimpleDataArray::as_dlpack: we got v0.1, but we support v" + std::to_string(DLPACK_MAJOR_VERSION) + "." + std::to_string(DLPACK_MINOR_VERSION));

    auto back = array.from_dlpack(array.as_dlpack({kDLCPU, 0}, nullptr, version()));
    EXPECT_TRUE(dynamic_cast<SimpleDataArray<int64_t>&>(*back) == array);
    EXPECT_EQ(test::error_of([&] { array.from_dlpack(nullptr); }), "dlpack tensor is null in SimpleDataArray::from_dlpack");
}

TEST(SimpleDataArray, EveryDataType) {
    auto check = [](auto value) {
        using T = decltype(value);
        auto array = SimpleDataArray<T>({1}, value);
        auto dlpack = array.as_dlpack({kDLCPU, 0}, nullptr, version());
        auto back = array.from_dlpack(dlpack);
        EXPECT_TRUE(details::dlpack_dtype_matches<T>(back->dtype()));
    };
    check(1.0);
    check(1.0f);
    check(int8_t{1});
    check(int16_t{1});
    check(int32_t{1});
    check(int64_t{1});
    check(uint8_t{1});
    check(uint16_t{1});
    check(uint32_t{1});
    check(uint64_t{1});
    check(true);
}

TEST(SimpleDataArray, FromMtsArray) {
    auto array = DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<double>>(std::vector<uintptr_t>{1}, 4.0));
    EXPECT_EQ(SimpleDataArray<double>::from_mts_array(array).data()[0], 4.0);
    const auto& const_array = array;
    EXPECT_EQ(SimpleDataArray<double>::from_mts_array(const_array).data()[0], 4.0);
    auto empty = DataArrayBase::to_mts_array(std::make_unique<EmptyDataArray<double>>(std::vector<uintptr_t>{1}));
    EXPECT_EQ(test::error_of([&] { SimpleDataArray<double>::from_mts_array(empty); }),
        "this array is not a metatensor::SimpleDataArray");
}
