// TensorMap: construction, keys and blocks, keys movements in every overload,
// components_to_properties, info, clones, moves, release.
#include <cmath>

#include "helpers.hpp"

using namespace metatensor;

TEST(TensorMap, Accessors) {
    auto tensor = test::tensor();
    EXPECT_EQ(tensor.keys(), Labels({"k"}, {{0}, {1}}));
    EXPECT_EQ(tensor.device().device_type, kDLCPU);
    EXPECT_EQ(tensor.dtype().bits, 64);
    EXPECT_FALSE(tensor.is_view());
    auto block = tensor.block_by_id(1);
    EXPECT_TRUE(block.is_view());
    EXPECT_EQ(block.samples(), Labels({"s"}, {{1}, {2}}));
    EXPECT_EQ(test::error_of([&] { tensor.block_by_id(2); }),
        "invalid parameter: block index out of bounds: we have 2 blocks but the index is 2");
}

TEST(TensorMap, ConstructionErrors) {
    auto blocks = std::vector<TensorBlock>();
    blocks.push_back(test::block({0}));
    EXPECT_EQ(test::error_of([&] { TensorMap(Labels({"k"}, {{0}, {1}}), std::move(blocks)); }),
        "invalid parameter: expected the same number of blocks as the number of entries in the keys (2) when creating a `TensorMap`, got 1");
}

TEST(TensorMap, KeysToProperties) {
    auto tensor = test::tensor();
    auto by_name = tensor.keys_to_properties("k");
    EXPECT_EQ(by_name.keys(), Labels({"_"}, {{0}}));
    auto block = by_name.block_by_id(0);
    EXPECT_EQ(block.samples(), Labels({"s"}, {{0}, {1}, {2}}));
    EXPECT_EQ(block.properties().count(), 6);

    auto values = block.values();
    EXPECT_EQ(values(2, 0, 0), 0.0); // sample 2 is not in the block of k = 0: filled with 0

    auto nan = tensor.keys_to_properties(std::vector<std::string>{"k"}, std::nan(""), true);
    auto nan_values = nan.block_by_id(0).values();
    EXPECT_TRUE(std::isnan(nan_values(2, 0, 0)));

    auto with_labels = tensor.keys_to_properties(Labels({"k"}, {{0}, {1}}));
    EXPECT_EQ(with_labels.block_by_id(0).properties(), block.properties());
    auto fill = DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<double>>(std::vector<uintptr_t>{}, 7.0));
    auto with_array = tensor.keys_to_properties("k", std::move(fill), false);
    auto array_values = with_array.block_by_id(0).values();
    EXPECT_EQ(array_values(2, 0, 0), 7.0);
    EXPECT_EQ(test::error_of([&] { tensor.keys_to_properties(std::string("k"), 2.0f); }),
        "invalid parameter: fill_value dtype (code=2, bits=32, lanes=1) does not match array dtype (code=2, bits=64, lanes=1)");

    EXPECT_EQ(test::error_of([&] { tensor.keys_to_properties("missing"); }),
        "invalid parameter: 'missing' is not part of the keys for this tensor map");
}

TEST(TensorMap, KeysToSamples) {
    auto tensor = test::tensor();
    auto moved = tensor.keys_to_samples("k");
    auto block = moved.block_by_id(0);
    EXPECT_EQ(block.samples(), Labels({"s", "k"}, {{0, 0}, {1, 0}, {1, 1}, {2, 1}}));
    auto unsorted = tensor.keys_to_samples(std::vector<std::string>{"k"}, 0.0, false);
    EXPECT_EQ(unsorted.block_by_id(0).samples().count(), 4);
    auto fill = DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<double>>(std::vector<uintptr_t>{}, 0.0));
    EXPECT_EQ(tensor.keys_to_samples(Labels({"k"}), std::move(fill), true).keys().count(), 1);
    EXPECT_EQ(test::error_of([&] { tensor.keys_to_samples(Labels({"k"}, {{0}})); }),
        "invalid parameter: user provided values for the keys to move is not yet implemented, `keys_to_move` "
        "should not contain any entry when calling keys_to_samples");
}

TEST(TensorMap, ComponentsToProperties) {
    auto tensor = test::tensor();
    auto moved = tensor.components_to_properties("c");
    auto block = moved.block_by_id(0);
    EXPECT_TRUE(block.components().empty());
    EXPECT_EQ(block.properties(), Labels({"c", "p"}, {{0, 0}, {0, 1}, {0, 2}}));
    EXPECT_EQ(tensor.components_to_properties(std::vector<std::string>{"c"}).keys(), tensor.keys());
    EXPECT_EQ(test::error_of([&] { tensor.components_to_properties("x"); }),
        "invalid parameter: unable to find 'x' in the components ");
}

TEST(TensorMap, Info) {
    auto tensor = test::tensor();
    EXPECT_EQ(tensor.get_info("unit"), std::nullopt);
    tensor.set_info("unit", "eV");
    tensor.set_info("source", "test");
    EXPECT_EQ(tensor.get_info("unit"), "eV");
    auto seen = std::vector<std::pair<std::string, std::string>>();
    for (auto [key, value]: tensor.info()) {
        seen.emplace_back(std::string(key), std::string(value));
    }
    EXPECT_EQ(seen.size(), 2);
    EXPECT_EQ(tensor.clone().get_info("source"), "test");
}

TEST(TensorMap, Clones) {
    auto tensor = test::tensor();
    auto clone = tensor.clone();
    EXPECT_EQ(clone.keys(), tensor.keys());
    auto metadata = tensor.clone_metadata_only();
    EXPECT_EQ(metadata.block_by_id(1).values_shape(), tensor.block_by_id(1).values_shape());
    EXPECT_EQ(metadata.block_by_id(0).gradients_list(), (std::vector<std::string>{"g"}));
}

TEST(TensorMap, MovesAndRelease) {
    auto tensor = test::tensor();
    auto moved = std::move(tensor);
    EXPECT_EQ(moved.keys().count(), 2);
    // like the reference, keys() hands the released pointer to the library, which rejects it
    EXPECT_EQ(test::error_of([&] { tensor.keys(); }).rfind("invalid parameter: got invalid NULL pointer for tensor", 0), 0);
    EXPECT_EQ(test::error_of([&] { tensor.device(); }), "can not access this TensorMap, it has been released");
    auto* raw = moved.release();
    auto adopted = TensorMap::unsafe_from_ptr(raw);
    EXPECT_EQ(adopted.keys().count(), 2);
    auto view = TensorMap::unsafe_view_from_ptr(adopted.as_mts_tensormap_t());
    EXPECT_TRUE(view.is_view());
    EXPECT_EQ(test::error_of([&] { view.release(); }), "can not call TensorMap::release on this TensorMap since it is a view");
}
