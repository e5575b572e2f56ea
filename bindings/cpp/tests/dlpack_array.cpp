// DLPackArray<T>: owning DLPack tensors, strides, data type checks, moves.
#include "helpers.hpp"

using namespace metatensor;

namespace {
DLPackVersion version() {
    return {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
}

MtsArray simple(std::vector<uintptr_t> shape, std::vector<double> data) {
    return DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<double>>(std::move(shape), std::move(data)));
}
} // namespace

TEST(DLPackArray, Empty) {
    auto array = DLPackArray<double>();
    EXPECT_EQ(array.device().device_type, kDLCPU);
    EXPECT_TRUE(array.shape().empty());
    EXPECT_EQ(array.data(), nullptr);
    EXPECT_EQ(test::error_of([&] { array.dtype(); }), "empty DLPackArray has no dtype");
}

TEST(DLPackArray, ReadsElements) {
    auto mts_array = simple({2, 3}, {0, 1, 2, 3, 4, 5});
    auto array = mts_array.as_dlpack_array<double>({kDLCPU, 0}, nullptr, version());
    EXPECT_EQ(array.shape(), (std::vector<size_t>{2, 3}));
    EXPECT_EQ(array.strides(), (std::vector<int64_t>{3, 1}));
    EXPECT_TRUE(array.is_contiguous());
    EXPECT_EQ(array(1, 1), 4);
    EXPECT_EQ(array.dtype().code, kDLFloat);
    EXPECT_EQ(test::error_of([&] { array(1); }), "expected 2 indexes in DLPackArray::operator(), got 1");
    EXPECT_TRUE(array == NDArray<double>(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3}));
}

TEST(DLPackArray, StridedTensors) {
    // a transposed view of 2x3 data, read through its strides
    double data[] = {0, 1, 2, 3, 4, 5};
    int64_t shape[] = {3, 2};
    int64_t strides[] = {1, 3};
    auto* managed = new DLManagedTensorVersioned{};
    managed->dl_tensor = DLTensor{data, {kDLCPU, 0}, 2, details::dtype_of<double>(), shape, strides, 0};
    managed->deleter = [](DLManagedTensorVersioned* self) { delete self; };
    auto array = DLPackArray<double>(managed);
    EXPECT_FALSE(array.is_contiguous());
    EXPECT_EQ(array(2, 1), 5);
    EXPECT_EQ(array(0, 1), 3);
    EXPECT_TRUE(array == NDArray<double>(std::vector<double>{0, 3, 1, 4, 2, 5}, {3, 2}));
#ifndef MTS_TEST_REFERENCE
    // the reference copies strided tensors in column-major order: ours in row-major order
    EXPECT_EQ(details::vector_from_dlpack<double>(managed->dl_tensor), (std::vector<double>{0, 3, 1, 4, 2, 5}));
#endif
}

TEST(DLPackArray, WrongDataType) {
    auto mts_array = simple({1}, {1});
    EXPECT_EQ(test::error_of([&] { mts_array.as_dlpack_array<int32_t>({kDLCPU, 0}, nullptr, version()); }),
        "DLPackArray dtype mismatch: DLPack tensor has dtype (code=2, bits=64, lanes=1) which does not "
        "match the requested C++ type (sizeof=4)");
}

TEST(DLPackArray, Moves) {
    auto mts_array = simple({2}, {7, 8});
    auto array = mts_array.as_dlpack_array<double>({kDLCPU, 0}, nullptr, version());
    auto moved = std::move(array);
    EXPECT_EQ(moved(1), 8);
    auto assigned = DLPackArray<double>();
    assigned = std::move(moved);
    EXPECT_EQ(assigned(0), 7);
}
