// The io:: functions: files and buffers of every kind, custom buffer types, custom
// create_array callbacks and the errors of their failures.
#include "helpers.hpp"

using namespace metatensor;

namespace {
// a create_array callback that refuses to make arrays
mts_status_t refuse(const uintptr_t*, uintptr_t, DLDataType, mts_array_t*) {
    return details::catch_exceptions([] { throw std::out_of_range("no arrays today"); });
}

// how many arrays `counted` made
size_t created = 0;

// a create_array callback counting the arrays it makes
mts_status_t counted(const uintptr_t* shape, uintptr_t shape_count, DLDataType, mts_array_t* array) {
    return details::catch_exceptions([=] {
        auto cxx_shape = std::vector<uintptr_t>(shape, shape + shape_count);
        *array = DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<double>>(cxx_shape)).release();
        created++;
    });
}
} // namespace

TEST(IO, TensorMaps) {
    auto tensor = test::tensor();
    auto path = std::string(SCRATCH_DIR) + "/tensor.mts";
    io::save(path, tensor);
    auto loaded = io::load(path);
    EXPECT_EQ(loaded.keys(), tensor.keys());
    auto buffer = io::save_buffer(tensor);
    EXPECT_EQ(io::load_buffer(buffer).keys(), tensor.keys());
    EXPECT_EQ(io::load_buffer(buffer.data(), buffer.size()).keys(), tensor.keys());
    auto as_string = io::save_buffer<std::string>(tensor);
    EXPECT_EQ(as_string.size(), buffer.size());
    EXPECT_EQ(TensorMap::load_buffer(as_string).keys(), tensor.keys());
    EXPECT_EQ(TensorMap::load(path).keys(), tensor.keys());
    tensor.save(path);
    EXPECT_EQ(tensor.save_buffer<std::vector<uint8_t>>(), tensor.save_buffer());
}

TEST(IO, BlocksAndLabels) {
    auto block = test::block({0, 1});
    auto path = std::string(SCRATCH_DIR) + "/io-block.mts";
    io::save(path, block);
    EXPECT_EQ(io::load_block(path).samples(), block.samples());
    EXPECT_EQ(io::load_block_buffer(io::save_buffer(block)).samples(), block.samples());
    EXPECT_EQ(block.save_buffer<std::string>().size(), block.save_buffer().size());

    auto labels = Labels({"a"}, {{1}, {2}});
    auto labels_path = std::string(SCRATCH_DIR) + "/io-labels.mts";
    io::save(labels_path, labels);
    EXPECT_EQ(io::load_labels(labels_path), labels);
    EXPECT_EQ(io::load_labels_buffer(io::save_buffer(labels)), labels);
}

TEST(IO, CreateArrayCallbacks) {
    auto buffer = io::save_buffer(test::tensor());
    auto loaded = io::load_buffer(buffer, counted);
    // two blocks, each with one gradient
    EXPECT_EQ(created, 4);
    auto values = loaded.block_by_id(0).values();
    EXPECT_EQ(values(1, 0, 2), 12.0);
    EXPECT_THROW(io::load_buffer(buffer, refuse), std::out_of_range);
    EXPECT_THROW(io::load_block_buffer(io::save_buffer(test::block({0})), refuse), std::out_of_range);
}

TEST(IO, Errors) {
    EXPECT_EQ(test::error_of([] { io::load("/does/not/exist.mts"); }).rfind("io error: ", 0), 0);
    auto garbage = std::vector<uint8_t>{1, 2, 3};
    EXPECT_NE(test::error_of([&] { io::load_buffer(garbage); }), "");
    EXPECT_NE(test::error_of([&] { io::load_labels_buffer(garbage); }), "");
}
