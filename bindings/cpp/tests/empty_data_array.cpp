// EmptyDataArray<T>: a shape without data, and the arrays made from a data type.
#include "helpers.hpp"

using namespace metatensor;

TEST(EmptyDataArray, Shape) {
    auto array = EmptyDataArray<float>({2, 3});
    EXPECT_EQ(array.shape(), (std::vector<uintptr_t>{2, 3}));
    EXPECT_EQ(array.dtype().bits, 32);
    array.swap_axes(0, 1);
    EXPECT_EQ(array.shape(), (std::vector<uintptr_t>{3, 2}));
    array.reshape({6});
    EXPECT_EQ(array.shape(), (std::vector<uintptr_t>{6}));
    EXPECT_EQ(test::error_of([&] { array.reshape({5}); }), "invalid shape in reshape");
    EXPECT_EQ(array.copy({kDLCPU, 0})->shape(), array.shape());
    EXPECT_EQ(test::error_of([&] { array.copy({kDLCUDA, 0}); }), "EmptyDataArray only supports copying to CPU");
}

TEST(EmptyDataArray, NoData) {
    auto array = EmptyDataArray<double>({2});
    EXPECT_EQ(test::error_of([&] { array.as_dlpack({kDLCPU, 0}, nullptr, {1, 1}); }),
        "can not call `as_dlpack` for an EmptyDataArray");
    EXPECT_EQ(test::error_of([&] { array.from_dlpack(nullptr); }), "can not call `from_dlpack` for an EmptyDataArray");
    EXPECT_EQ(test::error_of([&] { array.move_data(array, {}); }), "can not call `move_data` for an EmptyDataArray");
    auto created = array.create({4}, MtsArray(mts_array_t{}));
    EXPECT_EQ(created->shape(), (std::vector<uintptr_t>{4}));
}

TEST(EmptyDataArray, CreateEmptyArray) {
    auto array = details::create_empty_array({3}, details::dtype_of<int16_t>());
    EXPECT_TRUE(details::dlpack_dtype_matches<int16_t>(array->dtype()));
    EXPECT_EQ(test::error_of([] { details::create_empty_array({3}, DLDataType{kDLFloat, 16, 1}); }),
        "unsupported DLDataType in create_empty_array: code=2 bits=16");
    EXPECT_EQ(test::error_of([] { details::create_empty_array({3}, DLDataType{kDLFloat, 64, 2}); }),
        "unsupported DLDataType in create_empty_array: lanes=2 (expected 1)");
}

TEST(EmptyDataArray, DefaultCreateArray) {
    uintptr_t shape[] = {2, 2};
    mts_array_t array = {};
    ASSERT_EQ(details::default_create_array(shape, 2, details::dtype_of<uint32_t>(), &array), MTS_SUCCESS);
    auto owned = MtsArray(array);
    EXPECT_EQ(SimpleDataArray<uint32_t>::from_mts_array(owned).data()[3], 0u);
    auto status = details::default_create_array(shape, 2, DLDataType{kDLComplex, 64, 1}, &array);
    EXPECT_EQ(status, MTS_CALLBACK_ERROR);
    EXPECT_EQ(test::error_of([&] { details::check_status(status); }),
        "unsupported DLDataType in default_create_array: code=5 bits=64");
}
