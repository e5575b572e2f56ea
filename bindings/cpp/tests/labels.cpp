// Labels: every constructor, accessors, position, set operations, select, copies, moves.
#include "helpers.hpp"

using namespace metatensor;

TEST(Labels, Constructors) {
    auto labels = Labels({"a", "b"}, {{0, 1}, {1, 0}, {2, 2}});
    EXPECT_EQ(labels.count(), 3);
    EXPECT_EQ(labels.size(), 2);
    ASSERT_EQ(labels.names().size(), 2);
    EXPECT_STREQ(labels.names()[1], "b");
    EXPECT_EQ(labels.device().device_type, kDLCPU);

    const int32_t values[] = {0, 1, 1, 0, 2, 2};
    EXPECT_EQ(Labels({"a", "b"}, values, 3), labels);
    EXPECT_EQ(Labels({"a", "b"}, values, 3, assume_unique{}), labels);
    auto array = DataArrayBase::to_mts_array(std::make_unique<SimpleDataArray<int32_t>>(
        std::vector<uintptr_t>{3, 2}, std::vector<int32_t>(values, values + 6)));
    EXPECT_EQ(Labels({"a", "b"}, array), labels);
    EXPECT_EQ(Labels({"a", "b"}, array, assume_unique{}), labels);

    auto empty = Labels({"x"});
    EXPECT_EQ(empty.count(), 0);
    EXPECT_EQ(empty.size(), 1);
}

TEST(Labels, ConstructorErrors) {
    EXPECT_EQ(test::error_of([] { Labels({"a"}, {{0}, {0}}); }),
        "invalid parameter: can not have the same label entry multiple times: [0] is already present");
    EXPECT_EQ(test::error_of([] { Labels({"a", "a"}, {{0, 1}}); }),
        "invalid parameter: label dimensions must be unique, got 'a' multiple times");
    EXPECT_EQ(test::error_of([] { Labels({"a", "b"}, {{0, 1}, {1}}); }), "invalid size for row: expected 2 got 1");
}

TEST(Labels, Values) {
    auto labels = Labels({"a", "b"}, {{0, 1}, {1, 0}});
    auto values = labels.values();
    EXPECT_EQ(values.shape(), (std::vector<size_t>{2, 2}));
    EXPECT_EQ(values(1, 0), 1);
    auto cpu = labels.values_cpu();
    EXPECT_TRUE(cpu.is_view());
    const auto& const_cpu = cpu;
    EXPECT_EQ(const_cpu(0, 1), 1);
    EXPECT_EQ(labels.mts_array().shape(), (std::vector<uintptr_t>{2, 2}));
}

TEST(Labels, Position) {
    auto labels = Labels({"a", "b"}, {{0, 1}, {1, 0}});
    EXPECT_EQ(labels.position({1, 0}), 1);
    EXPECT_EQ(labels.position(std::vector<int32_t>{0, 1}), 0);
    EXPECT_EQ(labels.position(std::array<int32_t, 2>{3, 3}), std::nullopt);
    const int32_t entry[] = {0, 1};
    EXPECT_EQ(labels.position(entry, 2), 0);
}

TEST(Labels, SetOperations) {
    auto first = Labels({"a"}, {{0}, {1}, {2}});
    auto second = Labels({"a"}, {{2}, {3}});

    auto first_positions = std::vector<size_t>(3);
    auto second_positions = std::vector<size_t>(2);
    auto the_union = first.set_union(second, first_positions, second_positions);
    EXPECT_EQ(the_union, Labels({"a"}, {{0}, {1}, {2}, {3}}));
    EXPECT_EQ(first_positions, (std::vector<size_t>{0, 1, 2}));
    EXPECT_EQ(second_positions, (std::vector<size_t>{2, 3}));
    EXPECT_EQ(first.set_union(second).count(), 4);

    auto first_optional = std::vector<std::optional<size_t>>(3);
    auto second_optional = std::vector<std::optional<size_t>>(2);
    auto intersection = first.set_intersection(second, first_optional, second_optional);
    EXPECT_EQ(intersection, Labels({"a"}, {{2}}));
    EXPECT_EQ(first_optional, (std::vector<std::optional<size_t>>{std::nullopt, std::nullopt, 0}));
    EXPECT_EQ(second_optional, (std::vector<std::optional<size_t>>{0, std::nullopt}));

    auto difference_positions = std::vector<std::optional<size_t>>(3);
    auto difference = first.set_difference(second, difference_positions);
    EXPECT_EQ(difference, Labels({"a"}, {{0}, {1}}));
    EXPECT_EQ(difference_positions, (std::vector<std::optional<size_t>>{0, 1, std::nullopt}));

    int64_t raw[3] = {};
    first.set_difference(second, raw, 3);
    EXPECT_EQ(raw[2], -1);

    auto short_mapping = std::vector<size_t>(1);
    EXPECT_EQ(test::error_of([&] { first.set_union(second, short_mapping, second_positions); }),
        "invalid parameter: `first_mapping_count` (1) must match the number of elements in `first` (3) but doesn't");
    EXPECT_EQ(test::error_of([&] { first.set_union(Labels({"b"}, {{0}})); }),
        "invalid parameter: can not take the union of these Labels, they have different dimensions: [\"a\"], and [\"b\"]");
}

TEST(Labels, Select) {
    auto labels = Labels({"a", "b"}, {{0, 1}, {1, 0}, {0, 2}});
    EXPECT_EQ(labels.select(Labels({"a"}, {{0}})), (std::vector<uint64_t>{0, 2}));
    uint64_t selected[3] = {};
    size_t count = 3;
    labels.select(Labels({"b"}, {{0}}), selected, &count);
    EXPECT_EQ(count, 1);
    EXPECT_EQ(selected[0], 1);
    EXPECT_EQ(test::error_of([&] { labels.select(Labels({"c"}, {{0}})); }),
        "invalid parameter: 'c' in selection is not part of these Labels");
}

TEST(Labels, CopiesMovesAndRelease) {
    auto labels = Labels({"a"}, {{4}});
    auto copy = labels;
    EXPECT_EQ(copy, labels);
    auto assigned = Labels({"b"});
    assigned = copy;
    EXPECT_EQ(assigned, labels);
    EXPECT_NE(assigned, Labels({"b"}));
    EXPECT_NE(assigned, Labels({"a"}, {{5}}));

    auto moved = std::move(copy);
    EXPECT_EQ(moved, labels);
    EXPECT_TRUE(copy.names().empty());
    EXPECT_EQ(test::error_of([&] { copy.as_mts_labels_t(); }), "can not access these Labels, they have been released");

    const auto* raw = moved.release();
    auto adopted = Labels::unsafe_from_ptr(raw);
    EXPECT_EQ(adopted, labels);
}

TEST(Labels, SaveAndLoad) {
    auto labels = Labels({"a", "b"}, {{0, 1}, {1, 0}});
    auto buffer = labels.save_buffer();
    EXPECT_EQ(Labels::load_buffer(buffer), labels);
    EXPECT_EQ(Labels::load_buffer(buffer.data(), buffer.size()), labels);
    auto as_string = labels.save_buffer<std::string>();
    EXPECT_EQ(Labels::load_buffer(as_string), labels);
    auto path = std::string(SCRATCH_DIR) + "/labels.mts";
    labels.save(path);
    EXPECT_EQ(Labels::load(path), labels);
}
