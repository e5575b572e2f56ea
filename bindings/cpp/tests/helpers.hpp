// Fixtures shared by the C++ tests.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <metatensor.hpp>

namespace test {

/// A block of shape [samples, 1 component, 3 properties] with values[i][0][j] = 10 * i + j
/// and a "g" gradient of the same shape.
inline metatensor::TensorBlock block(const std::vector<int32_t>& samples, bool gradient = true) {
    auto values = std::vector<double>();
    for (size_t i = 0; i < samples.size(); i++) {
        for (int j = 0; j < 3; j++) {
            values.push_back(10.0 * static_cast<double>(i) + j);
        }
    }
    auto shape = std::vector<uintptr_t>{samples.size(), 1, 3};
    auto block = metatensor::TensorBlock(
        std::make_unique<metatensor::SimpleDataArray<double>>(shape, values),
        metatensor::Labels({"s"}, samples.data(), samples.size()),
        {metatensor::Labels({"c"}, {{0}})},
        metatensor::Labels({"p"}, {{0}, {1}, {2}}));
    if (gradient) {
        auto sample = std::vector<int32_t>();
        for (size_t i = 0; i < samples.size(); i++) {
            sample.push_back(static_cast<int32_t>(i));
        }
        block.add_gradient("g", metatensor::TensorBlock(
            std::make_unique<metatensor::SimpleDataArray<double>>(shape, 1.0),
            metatensor::Labels({"sample"}, sample.data(), sample.size()),
            {metatensor::Labels({"c"}, {{0}})},
            metatensor::Labels({"p"}, {{0}, {1}, {2}})));
    }
    return block;
}

/// A tensor map of two blocks, keys k = 0 (samples 0, 1) and k = 1 (samples 1, 2).
inline metatensor::TensorMap tensor() {
    auto blocks = std::vector<metatensor::TensorBlock>();
    blocks.push_back(block({0, 1}));
    blocks.push_back(block({1, 2}));
    return metatensor::TensorMap(metatensor::Labels({"k"}, {{0}, {1}}), std::move(blocks));
}

/// The message of the metatensor::Error `function` throws, "" when it throws none.
template<typename Function>
std::string error_of(Function function) {
    try {
        function();
    } catch (const metatensor::Error& e) {
        return e.what();
    }
    return "";
}

} // namespace test
