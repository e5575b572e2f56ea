// TensorBlock: construction, accessors, gradients, clones, views, moves, release.
#include "helpers.hpp"

using namespace metatensor;

TEST(TensorBlock, Accessors) {
    auto block = test::block({0, 5});
    EXPECT_EQ(block.values_shape(), (std::vector<uintptr_t>{2, 1, 3}));
    EXPECT_EQ(block.samples(), Labels({"s"}, {{0}, {5}}));
    ASSERT_EQ(block.components().size(), 1);
    EXPECT_EQ(block.components()[0], Labels({"c"}, {{0}}));
    EXPECT_EQ(block.properties(), Labels({"p"}, {{0}, {1}, {2}}));
    EXPECT_EQ(block.labels(1), Labels({"c"}, {{0}}));
    EXPECT_EQ(block.device().device_type, kDLCPU);
    EXPECT_EQ(block.dtype().bits, 64);
    EXPECT_FALSE(block.is_view());
    auto values = block.values();
    EXPECT_EQ(values(1, 0, 2), 12);
    EXPECT_EQ(block.mts_array().shape(), block.values_shape());
}

TEST(TensorBlock, ConstructionErrors) {
    auto make = [](std::vector<uintptr_t> shape) {
        TensorBlock(std::make_unique<SimpleDataArray<double>>(shape), Labels({"s"}, {{0}}), {}, Labels({"p"}, {{0}}));
    };
    EXPECT_EQ(test::error_of([&] { make({2, 1}); }),
        "invalid parameter: invalid block: the values shape along axis 0 is 2 but we have 1 sample label entries");
    EXPECT_NO_THROW(make({1, 1}));
}

TEST(TensorBlock, Gradients) {
    auto block = test::block({0, 1});
    EXPECT_EQ(block.gradients_list(), (std::vector<std::string>{"g"}));
    auto gradient = block.gradient("g");
    EXPECT_TRUE(gradient.is_view());
    EXPECT_EQ(gradient.samples(), Labels({"sample"}, {{0}, {1}}));
    EXPECT_EQ(test::error_of([&] { block.gradient("missing"); }),
        "invalid parameter: can not find gradients with respect to 'missing' in this block");
    EXPECT_EQ(test::error_of([&] { gradient.add_gradient("h", test::block({0}, false)); }),
        "can not call TensorBlock::add_gradient on this block since it is inside a TensorMap or another TensorBlock");
    EXPECT_EQ(test::error_of([&] { gradient.release(); }),
        "can not call TensorBlock::release on this block since it is inside a TensorMap or another TensorBlock");
}

TEST(TensorBlock, Clones) {
    auto block = test::block({0, 1});
    auto clone = block.clone();
    EXPECT_EQ(clone.samples(), block.samples());
    EXPECT_EQ(clone.gradients_list(), block.gradients_list());
    auto values = clone.values();
    EXPECT_EQ(values(1, 0, 1), 11);

    auto metadata = block.clone_metadata_only();
    EXPECT_EQ(metadata.values_shape(), block.values_shape());
    EXPECT_EQ(metadata.gradient("g").values_shape(), block.gradient("g").values_shape());
    EXPECT_EQ(test::error_of([&] { metadata.values(); }), "can not call `as_dlpack` for an EmptyDataArray");
}

TEST(TensorBlock, MovesAndRelease) {
    auto block = test::block({3});
    auto moved = std::move(block);
    EXPECT_EQ(moved.samples(), Labels({"s"}, {{3}}));
    EXPECT_EQ(test::error_of([&] { block.samples(); }),
        "can not access this TensorBlock, it has been released or moved inside a TensorMap or another TensorBlock");
    auto assigned = test::block({4});
    assigned = std::move(moved);
    EXPECT_EQ(assigned.samples(), Labels({"s"}, {{3}}));

    auto* raw = assigned.release();
    auto adopted = TensorBlock::unsafe_from_ptr(raw);
    EXPECT_EQ(adopted.samples(), Labels({"s"}, {{3}}));
    auto view = TensorBlock::unsafe_view_from_ptr(adopted.as_mts_block_t());
    EXPECT_TRUE(view.is_view());
}

TEST(TensorBlock, SaveAndLoad) {
    auto block = test::block({0, 1});
    auto buffer = block.save_buffer();
    auto loaded = TensorBlock::load_buffer(buffer);
    EXPECT_EQ(loaded.samples(), block.samples());
    auto values = loaded.values();
    EXPECT_EQ(values(1, 0, 2), 12);
    EXPECT_EQ(TensorBlock::load_buffer(buffer.data(), buffer.size()).gradients_list(), block.gradients_list());
    auto path = std::string(SCRATCH_DIR) + "/block.mts";
    block.save(path);
    EXPECT_EQ(TensorBlock::load(path).properties(), block.properties());
}
