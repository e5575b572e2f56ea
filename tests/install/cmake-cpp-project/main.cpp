// Uses the installed C++ headers and library: labels, a block, a tensor map and an error.
#include <iostream>
#include <memory>
#include <vector>

#include <metatensor.hpp>

int main() {
    auto blocks = std::vector<metatensor::TensorBlock>();
    blocks.push_back(metatensor::TensorBlock(
        std::make_unique<metatensor::SimpleDataArray<double>>(std::vector<uintptr_t>{2, 1}, 1.0),
        metatensor::Labels({"s"}, {{0}, {1}}), {}, metatensor::Labels({"p"}, {{0}})));
    auto tensor = metatensor::TensorMap(metatensor::Labels({"k"}, {{0}}), std::move(blocks));
    auto loaded = metatensor::io::load_buffer(metatensor::io::save_buffer(tensor));
    try {
        metatensor::Labels({"a"}, {{0}, {0}});
        return 1;
    } catch (const metatensor::Error&) {}
    std::cout << "C++ API " << metatensor::details::checked::version() << ": "
              << loaded.block_by_id(0).samples().count() << " samples\n";
    return 0;
}
