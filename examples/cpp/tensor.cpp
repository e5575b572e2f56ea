// Builds a tensor map of two blocks with the C++ API, moves its keys to the properties,
// saves it to a buffer and loads it back, and shows how errors arrive as exceptions.
#include <iostream>
#include <memory>
#include <vector>

#include <metatensor.hpp>

using metatensor::Labels;
using metatensor::SimpleDataArray;
using metatensor::TensorBlock;
using metatensor::TensorMap;

// A block of one property per atom, the value being the atom's index times `scale`.
static TensorBlock atoms_block(const std::vector<int32_t>& atoms, double scale) {
    auto values = std::vector<double>();
    for (auto atom: atoms) {
        values.push_back(scale * atom);
    }
    auto shape = std::vector<uintptr_t>{atoms.size(), 1};
    return TensorBlock(std::make_unique<SimpleDataArray<double>>(shape, values),
        Labels({"atom"}, atoms.data(), atoms.size()), {}, Labels({"energy"}, {{0}}));
}

int main() {
    auto blocks = std::vector<TensorBlock>();
    blocks.push_back(atoms_block({0, 1, 2}, 1.0));
    blocks.push_back(atoms_block({1, 3}, 10.0));
    auto tensor = TensorMap(Labels({"species"}, {{1}, {8}}), std::move(blocks));
    tensor.set_info("unit", "eV");

    auto merged = tensor.keys_to_properties("species");
    auto block = merged.block_by_id(0);
    auto values = block.values();
    std::cout << "merged block: " << block.samples().count() << " samples, "
              << block.properties().count() << " properties; atom 3 for species 8: " << values(3, 1) << "\n";

    auto buffer = merged.save_buffer();
    auto loaded = TensorMap::load_buffer(buffer);
    std::cout << "saved " << buffer.size() << " bytes, loaded " << loaded.keys().count() << " block(s), unit "
              << tensor.get_info("unit").value_or("?") << "\n";

    try {
        tensor.keys_to_properties("missing");
        return 1;
    } catch (const metatensor::Error& error) {
        std::cout << "error as expected: " << error.what() << "\n";
    }
    return 0;
}
