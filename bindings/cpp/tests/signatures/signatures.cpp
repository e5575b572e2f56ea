// The public API of the reference's C++ headers (0.2.6), member by member with its exact
// type: every function is taken as a pointer of its signature, every constructor and
// operator checked by a trait. `make cpp-signatures` compiles this file against the
// reference's headers (showing the list describes them) and against ours (showing ours has
// each of them, with the same signature). A link is not needed: nothing here runs.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <metatensor.hpp>

using namespace metatensor;

// Fails to compile unless `pointer` converts to exactly the type T: an overload of that type
// exists.
template<typename T>
constexpr bool has(T pointer) {
    return pointer != nullptr;
}

using Names = const std::vector<std::string>&;
using Create = mts_create_array_callback_t;
using Mapping = std::vector<std::optional<size_t>>&;

// Labels
static_assert(std::is_constructible_v<Labels, Names, MtsArray>);
static_assert(std::is_constructible_v<Labels, Names, std::initializer_list<std::initializer_list<int32_t>>>);
static_assert(std::is_constructible_v<Labels, Names, MtsArray, assume_unique>);
static_assert(std::is_constructible_v<Labels, Names>);
static_assert(std::is_constructible_v<Labels, Names, const int32_t*, size_t>);
static_assert(std::is_constructible_v<Labels, Names, const int32_t*, size_t, assume_unique>);
static_assert(std::is_copy_constructible_v<Labels> && std::is_copy_assignable_v<Labels>);
static_assert(std::is_nothrow_move_constructible_v<Labels> && std::is_nothrow_move_assignable_v<Labels>);
static_assert(has<std::vector<const char*> (Labels::*)() const>(&Labels::names));
static_assert(has<DLDevice (Labels::*)() const>(&Labels::device));
static_assert(has<size_t (Labels::*)() const>(&Labels::count));
static_assert(has<size_t (Labels::*)() const>(&Labels::size));
static_assert(has<const mts_labels_t* (Labels::*)() const>(&Labels::as_mts_labels_t));
static_assert(has<Labels (*)(const mts_labels_t*)>(&Labels::unsafe_from_ptr));
static_assert(has<const mts_labels_t* (Labels::*)()>(&Labels::release));
static_assert(has<std::optional<size_t> (Labels::*)(std::initializer_list<int32_t>) const>(&Labels::position));
static_assert(has<std::optional<size_t> (Labels::*)(const std::array<int32_t, 3>&) const>(&Labels::position<3>));
static_assert(has<std::optional<size_t> (Labels::*)(const std::vector<int32_t>&) const>(&Labels::position));
static_assert(has<std::optional<size_t> (Labels::*)(const int32_t*, size_t) const>(&Labels::position));
static_assert(has<MtsArray (Labels::*)() const>(&Labels::mts_array));
static_assert(has<DLPackArray<int32_t> (Labels::*)(DLDevice, const int64_t*) const>(&Labels::values));
static_assert(has<NDArray<int32_t> (Labels::*)() const>(&Labels::values_cpu));
static_assert(has<Labels (Labels::*)(const Labels&, int64_t*, size_t, int64_t*, size_t) const>(&Labels::set_union));
static_assert(has<Labels (Labels::*)(const Labels&, std::vector<size_t>&, std::vector<size_t>&) const>(&Labels::set_union));
static_assert(has<Labels (Labels::*)(const Labels&, int64_t*, size_t, int64_t*, size_t) const>(&Labels::set_intersection));
static_assert(has<Labels (Labels::*)(const Labels&, Mapping, Mapping) const>(&Labels::set_intersection));
static_assert(has<Labels (Labels::*)(const Labels&, int64_t*, size_t) const>(&Labels::set_difference));
static_assert(has<Labels (Labels::*)(const Labels&, Mapping) const>(&Labels::set_difference));
static_assert(has<void (Labels::*)(const Labels&, uint64_t*, size_t*) const>(&Labels::select));
static_assert(has<std::vector<uint64_t> (Labels::*)(const Labels&) const>(&Labels::select));
static_assert(has<Labels (*)(const std::string&)>(&Labels::load));
static_assert(has<Labels (*)(const uint8_t*, size_t)>(&Labels::load_buffer));
static_assert(has<Labels (*)(const std::string&)>(&Labels::load_buffer<std::string>));
static_assert(has<void (Labels::*)(const std::string&) const>(&Labels::save));
static_assert(has<std::vector<uint8_t> (Labels::*)() const>(&Labels::save_buffer));
static_assert(has<std::string (Labels::*)() const>(&Labels::save_buffer<std::string>));
static_assert(has<bool (*)(const Labels&, const Labels&)>(&operator==));
static_assert(has<bool (*)(const Labels&, const Labels&)>(&operator!=));

// TensorBlock
static_assert(std::is_constructible_v<TensorBlock, std::unique_ptr<DataArrayBase>, const Labels&, const std::vector<Labels>&, const Labels&>);
static_assert(!std::is_copy_constructible_v<TensorBlock> && !std::is_copy_assignable_v<TensorBlock>);
static_assert(std::is_nothrow_move_constructible_v<TensorBlock> && std::is_nothrow_move_assignable_v<TensorBlock>);
static_assert(has<TensorBlock (TensorBlock::*)() const>(&TensorBlock::clone));
static_assert(has<TensorBlock (TensorBlock::*)() const>(&TensorBlock::clone_metadata_only));
static_assert(has<DLDevice (TensorBlock::*)() const>(&TensorBlock::device));
static_assert(has<DLDataType (TensorBlock::*)() const>(&TensorBlock::dtype));
static_assert(has<bool (TensorBlock::*)() const>(&TensorBlock::is_view));
static_assert(has<DLPackArray<double> (TensorBlock::*)(DLDevice, const int64_t*)>(&TensorBlock::values<double>));
static_assert(has<DLPackArray<float> (TensorBlock::*)(DLDevice, const int64_t*)>(&TensorBlock::values<float>));
static_assert(has<Labels (TensorBlock::*)() const>(&TensorBlock::samples));
static_assert(has<std::vector<Labels> (TensorBlock::*)() const>(&TensorBlock::components));
static_assert(has<Labels (TensorBlock::*)() const>(&TensorBlock::properties));
static_assert(has<void (TensorBlock::*)(const std::string&, TensorBlock)>(&TensorBlock::add_gradient));
static_assert(has<std::vector<std::string> (TensorBlock::*)() const>(&TensorBlock::gradients_list));
static_assert(has<TensorBlock (TensorBlock::*)(const std::string&) const>(&TensorBlock::gradient));
static_assert(has<mts_block_t* (TensorBlock::*)() &>(&TensorBlock::as_mts_block_t));
static_assert(has<const mts_block_t* (TensorBlock::*)() const &>(&TensorBlock::as_mts_block_t));
static_assert(has<TensorBlock (*)(mts_block_t*)>(&TensorBlock::unsafe_from_ptr));
static_assert(has<TensorBlock (*)(mts_block_t*)>(&TensorBlock::unsafe_view_from_ptr));
static_assert(has<mts_block_t* (TensorBlock::*)()>(&TensorBlock::release));
static_assert(has<MtsArray (TensorBlock::*)()>(&TensorBlock::mts_array));
static_assert(has<Labels (TensorBlock::*)(uintptr_t) const>(&TensorBlock::labels));
static_assert(has<std::vector<uintptr_t> (TensorBlock::*)() const>(&TensorBlock::values_shape));
static_assert(has<TensorBlock (*)(const std::string&, Create)>(&TensorBlock::load));
static_assert(has<TensorBlock (*)(const uint8_t*, size_t, Create)>(&TensorBlock::load_buffer));
static_assert(has<TensorBlock (*)(const std::vector<uint8_t>&, Create)>(&TensorBlock::load_buffer<std::vector<uint8_t>>));
static_assert(has<void (TensorBlock::*)(const std::string&) const>(&TensorBlock::save));
static_assert(has<std::vector<uint8_t> (TensorBlock::*)() const>(&TensorBlock::save_buffer));
static_assert(has<std::string (TensorBlock::*)() const>(&TensorBlock::save_buffer<std::string>));

// TensorMap
static_assert(std::is_constructible_v<TensorMap, Labels, std::vector<TensorBlock>>);
static_assert(!std::is_copy_constructible_v<TensorMap> && !std::is_copy_assignable_v<TensorMap>);
static_assert(std::is_nothrow_move_constructible_v<TensorMap> && std::is_nothrow_move_assignable_v<TensorMap>);
static_assert(has<TensorMap (TensorMap::*)() const>(&TensorMap::clone));
static_assert(has<TensorMap (TensorMap::*)() const>(&TensorMap::clone_metadata_only));
static_assert(has<DLDevice (TensorMap::*)() const>(&TensorMap::device));
static_assert(has<DLDataType (TensorMap::*)() const>(&TensorMap::dtype));
static_assert(has<bool (TensorMap::*)() const>(&TensorMap::is_view));
static_assert(has<Labels (TensorMap::*)() const>(&TensorMap::keys));
static_assert(has<TensorBlock (TensorMap::*)(uintptr_t) &>(&TensorMap::block_by_id));
static_assert(has<TensorMap (TensorMap::*)(const Labels&, MtsArray, bool) const>(&TensorMap::keys_to_properties));
static_assert(has<TensorMap (TensorMap::*)(Names, MtsArray, bool) const>(&TensorMap::keys_to_properties));
static_assert(has<TensorMap (TensorMap::*)(std::string, MtsArray, bool) const>(&TensorMap::keys_to_properties));
static_assert(has<TensorMap (TensorMap::*)(const Labels&, double, bool) const>(&TensorMap::keys_to_properties<double>));
static_assert(has<TensorMap (TensorMap::*)(Names, float, bool) const>(&TensorMap::keys_to_properties<float>));
static_assert(has<TensorMap (TensorMap::*)(std::string, int32_t, bool) const>(&TensorMap::keys_to_properties<int32_t>));
static_assert(has<TensorMap (TensorMap::*)(const Labels&, MtsArray, bool) const>(&TensorMap::keys_to_samples));
static_assert(has<TensorMap (TensorMap::*)(Names, MtsArray, bool) const>(&TensorMap::keys_to_samples));
static_assert(has<TensorMap (TensorMap::*)(std::string, MtsArray, bool) const>(&TensorMap::keys_to_samples));
static_assert(has<TensorMap (TensorMap::*)(const Labels&, double, bool) const>(&TensorMap::keys_to_samples<double>));
static_assert(has<TensorMap (TensorMap::*)(Names, float, bool) const>(&TensorMap::keys_to_samples<float>));
static_assert(has<TensorMap (TensorMap::*)(std::string, int64_t, bool) const>(&TensorMap::keys_to_samples<int64_t>));
static_assert(has<TensorMap (TensorMap::*)(Names) const>(&TensorMap::components_to_properties));
static_assert(has<TensorMap (TensorMap::*)(const std::string&) const>(&TensorMap::components_to_properties));
static_assert(has<TensorMap (*)(const std::string&, Create)>(&TensorMap::load));
static_assert(has<TensorMap (*)(const uint8_t*, size_t, Create)>(&TensorMap::load_buffer));
static_assert(has<TensorMap (*)(const std::string&, Create)>(&TensorMap::load_buffer<std::string>));
static_assert(has<void (TensorMap::*)(const std::string&) const>(&TensorMap::save));
static_assert(has<std::vector<uint8_t> (TensorMap::*)() const>(&TensorMap::save_buffer));
static_assert(has<std::string (TensorMap::*)() const>(&TensorMap::save_buffer<std::string>));
static_assert(has<mts_tensormap_t* (TensorMap::*)() &>(&TensorMap::as_mts_tensormap_t));
static_assert(has<const mts_tensormap_t* (TensorMap::*)() const &>(&TensorMap::as_mts_tensormap_t));
static_assert(has<TensorMap (*)(mts_tensormap_t*)>(&TensorMap::unsafe_from_ptr));
static_assert(has<TensorMap (*)(mts_tensormap_t*)>(&TensorMap::unsafe_view_from_ptr));
static_assert(has<mts_tensormap_t* (TensorMap::*)()>(&TensorMap::release));
static_assert(has<void (TensorMap::*)(const std::string&, const std::string&)>(&TensorMap::set_info));
static_assert(has<std::optional<std::string> (TensorMap::*)(const std::string&) const>(&TensorMap::get_info));
static_assert(has<details::TensorMapInfo (TensorMap::*)() const>(&TensorMap::info));
static_assert(has<details::TensorMapInfo::iterator (details::TensorMapInfo::*)() const>(&details::TensorMapInfo::begin));
static_assert(has<details::TensorMapInfo::iterator (details::TensorMapInfo::*)() const>(&details::TensorMapInfo::end));
static_assert(std::is_same_v<details::TensorMapInfo::iterator::value_type, std::pair<std::string_view, std::string_view>>);

// io::
static_assert(has<void (*)(const std::string&, const TensorMap&)>(&io::save));
static_assert(has<void (*)(const std::string&, const TensorBlock&)>(&io::save));
static_assert(has<void (*)(const std::string&, const Labels&)>(&io::save));
static_assert(has<std::vector<uint8_t> (*)(const TensorMap&)>(&io::save_buffer<std::vector<uint8_t>>));
static_assert(has<std::string (*)(const TensorBlock&)>(&io::save_buffer<std::string>));
static_assert(has<std::vector<uint8_t> (*)(const Labels&)>(&io::save_buffer<std::vector<uint8_t>>));
static_assert(has<TensorMap (*)(const std::string&, Create)>(&io::load));
static_assert(has<TensorMap (*)(const uint8_t*, size_t, Create)>(&io::load_buffer));
static_assert(has<TensorMap (*)(const std::vector<uint8_t>&, Create)>(&io::load_buffer<std::vector<uint8_t>>));
static_assert(has<TensorBlock (*)(const std::string&, Create)>(&io::load_block));
static_assert(has<TensorBlock (*)(const uint8_t*, size_t, Create)>(&io::load_block_buffer));
static_assert(has<TensorBlock (*)(const std::string&, Create)>(&io::load_block_buffer<std::string>));
static_assert(has<Labels (*)(const std::string&)>(&io::load_labels));
static_assert(has<Labels (*)(const uint8_t*, size_t)>(&io::load_labels_buffer));
static_assert(has<Labels (*)(const std::vector<uint8_t>&)>(&io::load_labels_buffer<std::vector<uint8_t>>));

// MtsArray
static_assert(std::is_constructible_v<MtsArray, mts_array_t> && !std::is_convertible_v<mts_array_t, MtsArray>);
static_assert(std::is_copy_constructible_v<MtsArray> && std::is_nothrow_move_constructible_v<MtsArray>);
static_assert(has<mts_array_t (MtsArray::*)() &&>(&MtsArray::release));
static_assert(has<mts_array_t (MtsArray::*)() const>(&MtsArray::as_mts_array_t));
static_assert(has<mts_data_origin_t (MtsArray::*)() const>(&MtsArray::origin));
static_assert(has<DLDevice (MtsArray::*)() const>(&MtsArray::device));
static_assert(has<DLDataType (MtsArray::*)() const>(&MtsArray::dtype));
static_assert(has<DLManagedTensorVersioned* (MtsArray::*)(DLDevice, const int64_t*, DLPackVersion)>(&MtsArray::as_dlpack));
static_assert(has<MtsArray (MtsArray::*)(DLManagedTensorVersioned*)>(&MtsArray::from_dlpack));
static_assert(has<DLPackArray<double> (MtsArray::*)(DLDevice, const int64_t*, DLPackVersion)>(&MtsArray::as_dlpack_array<double>));
static_assert(has<MtsArray (MtsArray::*)(const std::vector<uintptr_t>&, MtsArray) const>(&MtsArray::create));
static_assert(has<std::vector<uintptr_t> (MtsArray::*)() const>(&MtsArray::shape));
static_assert(has<void (MtsArray::*)(const std::vector<uintptr_t>&)>(&MtsArray::reshape));
static_assert(has<void (MtsArray::*)(uintptr_t, uintptr_t)>(&MtsArray::swap_axes));
static_assert(has<void (MtsArray::*)(const MtsArray&, std::vector<mts_data_movement_t>)>(&MtsArray::move_data));

// DataArrayBase and its implementations
static_assert(std::is_abstract_v<DataArrayBase> && std::has_virtual_destructor_v<DataArrayBase>);
static_assert(has<MtsArray (*)(std::unique_ptr<DataArrayBase>)>(&DataArrayBase::to_mts_array));
static_assert(has<mts_data_origin_t (DataArrayBase::*)() const>(&DataArrayBase::origin));
static_assert(has<DLDevice (DataArrayBase::*)() const>(&DataArrayBase::device));
static_assert(has<DLDataType (DataArrayBase::*)() const>(&DataArrayBase::dtype));
static_assert(has<DLManagedTensorVersioned* (DataArrayBase::*)(DLDevice, const int64_t*, DLPackVersion)>(&DataArrayBase::as_dlpack));
static_assert(has<std::unique_ptr<DataArrayBase> (DataArrayBase::*)(DLManagedTensorVersioned*) const>(&DataArrayBase::from_dlpack));
static_assert(has<std::unique_ptr<DataArrayBase> (DataArrayBase::*)(DLDevice) const>(&DataArrayBase::copy));
static_assert(has<std::unique_ptr<DataArrayBase> (DataArrayBase::*)(std::vector<uintptr_t>, MtsArray) const>(&DataArrayBase::create));
static_assert(has<const std::vector<uintptr_t>& (DataArrayBase::*)() const &>(&DataArrayBase::shape));
static_assert(has<void (DataArrayBase::*)(const std::vector<uintptr_t>&)>(&DataArrayBase::reshape));
static_assert(has<void (DataArrayBase::*)(uintptr_t, uintptr_t)>(&DataArrayBase::swap_axes));
static_assert(has<void (DataArrayBase::*)(const DataArrayBase&, std::vector<mts_data_movement_t>)>(&DataArrayBase::move_data));

using Simple = SimpleDataArray<double>;
static_assert(std::is_same_v<SimpleDataArray<bool>::storage_t, uint8_t>);
static_assert(std::is_constructible_v<Simple, std::vector<uintptr_t>>);
static_assert(std::is_constructible_v<Simple, std::vector<uintptr_t>, double>);
static_assert(std::is_constructible_v<Simple, std::vector<uintptr_t>, std::vector<double>>);
static_assert(std::is_copy_constructible_v<Simple> && std::is_nothrow_move_constructible_v<Simple>);
static_assert(has<NDArray<double> (Simple::*)() const>(&Simple::view));
static_assert(has<NDArray<double> (Simple::*)()>(&Simple::view));
static_assert(has<Simple& (*)(MtsArray&)>(&Simple::from_mts_array));
static_assert(has<const Simple& (*)(const MtsArray&)>(&Simple::from_mts_array));
static_assert(has<double* (Simple::*)()>(&Simple::data));
static_assert(has<const double* (Simple::*)() const>(&Simple::data));
static_assert(has<const std::vector<int64_t>& (Simple::*)() const>(&Simple::strides));
static_assert(has<bool (Simple::*)() const>(&Simple::is_contiguous));
static_assert(std::is_base_of_v<DataArrayBase, EmptyDataArray<>> && std::is_same_v<EmptyDataArray<>, EmptyDataArray<double>>);
static_assert(std::is_constructible_v<EmptyDataArray<float>, std::vector<uintptr_t>>);

// NDArray and DLPackArray
using Array = NDArray<double>;
static_assert(std::is_default_constructible_v<Array>);
static_assert(std::is_constructible_v<Array, const double*, std::vector<size_t>>);
static_assert(std::is_constructible_v<Array, double*, std::vector<size_t>>);
static_assert(std::is_constructible_v<Array, std::vector<double>, std::vector<size_t>>);
static_assert(!std::is_copy_constructible_v<Array> && std::is_nothrow_move_constructible_v<Array>);
static_assert(has<bool (Array::*)() const>(&Array::is_view));
static_assert(has<double (Array::*)(size_t, size_t) const &>(&Array::operator()<size_t, size_t>));
static_assert(has<double& (Array::*)(size_t, size_t) &>(&Array::operator()<size_t, size_t>));
static_assert(has<const double* (Array::*)() const &>(&Array::data));
static_assert(has<double* (Array::*)() &>(&Array::data));
static_assert(has<const std::vector<size_t>& (Array::*)() const &>(&Array::shape));
static_assert(has<const std::vector<int64_t>& (Array::*)() const>(&Array::strides));
static_assert(has<bool (Array::*)() const>(&Array::is_contiguous));

using DLArray = DLPackArray<double>;
static_assert(std::is_default_constructible_v<DLArray>);
static_assert(std::is_constructible_v<DLArray, DLManagedTensorVersioned*> && !std::is_convertible_v<DLManagedTensorVersioned*, DLArray>);
static_assert(!std::is_copy_constructible_v<DLArray> && std::is_nothrow_move_constructible_v<DLArray>);
static_assert(has<DLDevice (DLArray::*)() const>(&DLArray::device));
static_assert(has<DLDataType (DLArray::*)() const>(&DLArray::dtype));
static_assert(has<double (DLArray::*)(int, int) const &>(&DLArray::operator()<int, int>));
static_assert(has<const double* (DLArray::*)() const &>(&DLArray::data));
static_assert(has<const std::vector<size_t>& (DLArray::*)() const &>(&DLArray::shape));
static_assert(has<const std::vector<int64_t>& (DLArray::*)() const &>(&DLArray::strides));
static_assert(has<bool (DLArray::*)() const>(&DLArray::is_contiguous));

// comparisons between arrays of the same element type
template<typename Lhs, typename Rhs>
constexpr bool comparable = std::is_same_v<decltype(std::declval<const Lhs&>() == std::declval<const Rhs&>()), bool> &&
    std::is_same_v<decltype(std::declval<const Lhs&>() != std::declval<const Rhs&>()), bool>;
static_assert(comparable<Array, Array> && comparable<DLArray, DLArray> && comparable<Simple, Simple>);
static_assert(comparable<DLArray, Array> && comparable<Array, DLArray> && comparable<DLArray, Simple>);
static_assert(comparable<Simple, DLArray> && comparable<Simple, Array> && comparable<Array, Simple>);

// errors and the details the reference's users call
static_assert(std::is_base_of_v<std::runtime_error, Error> && std::is_constructible_v<Error, const std::string&>);
static_assert(has<void (*)(mts_status_t)>(&details::check_status));
static_assert(has<void (*)(const void*)>(&details::check_pointer));
static_assert(has<mts_status_t (*)(const uintptr_t*, uintptr_t, DLDataType, mts_array_t*)>(&details::default_create_array));
static_assert(has<std::unique_ptr<DataArrayBase> (*)(std::vector<uintptr_t>, DLDataType)>(&details::create_empty_array));
static_assert(has<DLDataType (*)()>(&details::dtype_of<float>));
static_assert(has<std::vector<double> (*)(const DLTensor&)>(&details::vector_from_dlpack<double>));
static_assert(has<void (*)(DLManagedTensorVersioned*)>(&details::DLPackDeleter));
