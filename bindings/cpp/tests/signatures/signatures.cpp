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

// Declared only: sizeof(has<T>(&X::member)) fails to compile unless the member has an
// overload of exactly the type T (without evaluating anything).
template<typename T>
bool has(T pointer);

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
static_assert(sizeof(has<std::vector<const char*> (Labels::*)() const>(&Labels::names)) > 0);
static_assert(sizeof(has<DLDevice (Labels::*)() const>(&Labels::device)) > 0);
static_assert(sizeof(has<size_t (Labels::*)() const>(&Labels::count)) > 0);
static_assert(sizeof(has<size_t (Labels::*)() const>(&Labels::size)) > 0);
static_assert(sizeof(has<const mts_labels_t* (Labels::*)() const>(&Labels::as_mts_labels_t)) > 0);
static_assert(sizeof(has<Labels (*)(const mts_labels_t*)>(&Labels::unsafe_from_ptr)) > 0);
static_assert(sizeof(has<const mts_labels_t* (Labels::*)()>(&Labels::release)) > 0);
static_assert(sizeof(has<std::optional<size_t> (Labels::*)(std::initializer_list<int32_t>) const>(&Labels::position)) > 0);
static_assert(sizeof(has<std::optional<size_t> (Labels::*)(const std::array<int32_t, 3>&) const>(&Labels::position<3>)) > 0);
static_assert(sizeof(has<std::optional<size_t> (Labels::*)(const std::vector<int32_t>&) const>(&Labels::position)) > 0);
static_assert(sizeof(has<std::optional<size_t> (Labels::*)(const int32_t*, size_t) const>(&Labels::position)) > 0);
static_assert(sizeof(has<MtsArray (Labels::*)() const>(&Labels::mts_array)) > 0);
static_assert(sizeof(has<DLPackArray<int32_t> (Labels::*)(DLDevice, const int64_t*) const>(&Labels::values)) > 0);
static_assert(sizeof(has<NDArray<int32_t> (Labels::*)() const>(&Labels::values_cpu)) > 0);
static_assert(sizeof(has<Labels (Labels::*)(const Labels&, int64_t*, size_t, int64_t*, size_t) const>(&Labels::set_union)) > 0);
static_assert(sizeof(has<Labels (Labels::*)(const Labels&, std::vector<size_t>&, std::vector<size_t>&) const>(&Labels::set_union)) > 0);
static_assert(sizeof(has<Labels (Labels::*)(const Labels&, int64_t*, size_t, int64_t*, size_t) const>(&Labels::set_intersection)) > 0);
static_assert(sizeof(has<Labels (Labels::*)(const Labels&, Mapping, Mapping) const>(&Labels::set_intersection)) > 0);
static_assert(sizeof(has<Labels (Labels::*)(const Labels&, int64_t*, size_t) const>(&Labels::set_difference)) > 0);
static_assert(sizeof(has<Labels (Labels::*)(const Labels&, Mapping) const>(&Labels::set_difference)) > 0);
static_assert(sizeof(has<void (Labels::*)(const Labels&, uint64_t*, size_t*) const>(&Labels::select)) > 0);
static_assert(sizeof(has<std::vector<uint64_t> (Labels::*)(const Labels&) const>(&Labels::select)) > 0);
static_assert(sizeof(has<Labels (*)(const std::string&)>(&Labels::load)) > 0);
static_assert(sizeof(has<Labels (*)(const uint8_t*, size_t)>(&Labels::load_buffer)) > 0);
static_assert(sizeof(has<Labels (*)(const std::string&)>(&Labels::load_buffer<std::string>)) > 0);
static_assert(sizeof(has<void (Labels::*)(const std::string&) const>(&Labels::save)) > 0);
static_assert(sizeof(has<std::vector<uint8_t> (Labels::*)() const>(&Labels::save_buffer)) > 0);
static_assert(sizeof(has<std::string (Labels::*)() const>(&Labels::save_buffer<std::string>)) > 0);
static_assert(sizeof(has<bool (*)(const Labels&, const Labels&)>(&operator==)) > 0);
static_assert(sizeof(has<bool (*)(const Labels&, const Labels&)>(&operator!=)) > 0);

// TensorBlock
static_assert(std::is_constructible_v<TensorBlock, std::unique_ptr<DataArrayBase>, const Labels&, const std::vector<Labels>&, const Labels&>);
static_assert(!std::is_copy_constructible_v<TensorBlock> && !std::is_copy_assignable_v<TensorBlock>);
static_assert(std::is_nothrow_move_constructible_v<TensorBlock> && std::is_nothrow_move_assignable_v<TensorBlock>);
static_assert(sizeof(has<TensorBlock (TensorBlock::*)() const>(&TensorBlock::clone)) > 0);
static_assert(sizeof(has<TensorBlock (TensorBlock::*)() const>(&TensorBlock::clone_metadata_only)) > 0);
static_assert(sizeof(has<DLDevice (TensorBlock::*)() const>(&TensorBlock::device)) > 0);
static_assert(sizeof(has<DLDataType (TensorBlock::*)() const>(&TensorBlock::dtype)) > 0);
static_assert(sizeof(has<bool (TensorBlock::*)() const>(&TensorBlock::is_view)) > 0);
static_assert(sizeof(has<DLPackArray<double> (TensorBlock::*)(DLDevice, const int64_t*)>(&TensorBlock::values<double>)) > 0);
static_assert(sizeof(has<DLPackArray<float> (TensorBlock::*)(DLDevice, const int64_t*)>(&TensorBlock::values<float>)) > 0);
static_assert(sizeof(has<Labels (TensorBlock::*)() const>(&TensorBlock::samples)) > 0);
static_assert(sizeof(has<std::vector<Labels> (TensorBlock::*)() const>(&TensorBlock::components)) > 0);
static_assert(sizeof(has<Labels (TensorBlock::*)() const>(&TensorBlock::properties)) > 0);
static_assert(sizeof(has<void (TensorBlock::*)(const std::string&, TensorBlock)>(&TensorBlock::add_gradient)) > 0);
static_assert(sizeof(has<std::vector<std::string> (TensorBlock::*)() const>(&TensorBlock::gradients_list)) > 0);
static_assert(sizeof(has<TensorBlock (TensorBlock::*)(const std::string&) const>(&TensorBlock::gradient)) > 0);
static_assert(sizeof(has<mts_block_t* (TensorBlock::*)() &>(&TensorBlock::as_mts_block_t)) > 0);
static_assert(sizeof(has<const mts_block_t* (TensorBlock::*)() const &>(&TensorBlock::as_mts_block_t)) > 0);
static_assert(sizeof(has<TensorBlock (*)(mts_block_t*)>(&TensorBlock::unsafe_from_ptr)) > 0);
static_assert(sizeof(has<TensorBlock (*)(mts_block_t*)>(&TensorBlock::unsafe_view_from_ptr)) > 0);
static_assert(sizeof(has<mts_block_t* (TensorBlock::*)()>(&TensorBlock::release)) > 0);
static_assert(sizeof(has<MtsArray (TensorBlock::*)()>(&TensorBlock::mts_array)) > 0);
static_assert(sizeof(has<Labels (TensorBlock::*)(uintptr_t) const>(&TensorBlock::labels)) > 0);
static_assert(sizeof(has<std::vector<uintptr_t> (TensorBlock::*)() const>(&TensorBlock::values_shape)) > 0);
static_assert(sizeof(has<TensorBlock (*)(const std::string&, Create)>(&TensorBlock::load)) > 0);
static_assert(sizeof(has<TensorBlock (*)(const uint8_t*, size_t, Create)>(&TensorBlock::load_buffer)) > 0);
static_assert(sizeof(has<TensorBlock (*)(const std::vector<uint8_t>&, Create)>(&TensorBlock::load_buffer<std::vector<uint8_t>>)) > 0);
static_assert(sizeof(has<void (TensorBlock::*)(const std::string&) const>(&TensorBlock::save)) > 0);
static_assert(sizeof(has<std::vector<uint8_t> (TensorBlock::*)() const>(&TensorBlock::save_buffer)) > 0);
static_assert(sizeof(has<std::string (TensorBlock::*)() const>(&TensorBlock::save_buffer<std::string>)) > 0);

// TensorMap
static_assert(std::is_constructible_v<TensorMap, Labels, std::vector<TensorBlock>>);
static_assert(!std::is_copy_constructible_v<TensorMap> && !std::is_copy_assignable_v<TensorMap>);
static_assert(std::is_nothrow_move_constructible_v<TensorMap> && std::is_nothrow_move_assignable_v<TensorMap>);
static_assert(sizeof(has<TensorMap (TensorMap::*)() const>(&TensorMap::clone)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)() const>(&TensorMap::clone_metadata_only)) > 0);
static_assert(sizeof(has<DLDevice (TensorMap::*)() const>(&TensorMap::device)) > 0);
static_assert(sizeof(has<DLDataType (TensorMap::*)() const>(&TensorMap::dtype)) > 0);
static_assert(sizeof(has<bool (TensorMap::*)() const>(&TensorMap::is_view)) > 0);
static_assert(sizeof(has<Labels (TensorMap::*)() const>(&TensorMap::keys)) > 0);
static_assert(sizeof(has<TensorBlock (TensorMap::*)(uintptr_t) &>(&TensorMap::block_by_id)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(const Labels&, MtsArray, bool) const>(&TensorMap::keys_to_properties)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(Names, MtsArray, bool) const>(&TensorMap::keys_to_properties)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(std::string, MtsArray, bool) const>(&TensorMap::keys_to_properties)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(const Labels&, double, bool) const>(&TensorMap::keys_to_properties<double>)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(Names, float, bool) const>(&TensorMap::keys_to_properties<float>)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(std::string, int32_t, bool) const>(&TensorMap::keys_to_properties<int32_t>)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(const Labels&, MtsArray, bool) const>(&TensorMap::keys_to_samples)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(Names, MtsArray, bool) const>(&TensorMap::keys_to_samples)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(std::string, MtsArray, bool) const>(&TensorMap::keys_to_samples)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(const Labels&, double, bool) const>(&TensorMap::keys_to_samples<double>)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(Names, float, bool) const>(&TensorMap::keys_to_samples<float>)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(std::string, int64_t, bool) const>(&TensorMap::keys_to_samples<int64_t>)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(Names) const>(&TensorMap::components_to_properties)) > 0);
static_assert(sizeof(has<TensorMap (TensorMap::*)(const std::string&) const>(&TensorMap::components_to_properties)) > 0);
static_assert(sizeof(has<TensorMap (*)(const std::string&, Create)>(&TensorMap::load)) > 0);
static_assert(sizeof(has<TensorMap (*)(const uint8_t*, size_t, Create)>(&TensorMap::load_buffer)) > 0);
static_assert(sizeof(has<TensorMap (*)(const std::string&, Create)>(&TensorMap::load_buffer<std::string>)) > 0);
static_assert(sizeof(has<void (TensorMap::*)(const std::string&) const>(&TensorMap::save)) > 0);
static_assert(sizeof(has<std::vector<uint8_t> (TensorMap::*)() const>(&TensorMap::save_buffer)) > 0);
static_assert(sizeof(has<std::string (TensorMap::*)() const>(&TensorMap::save_buffer<std::string>)) > 0);
static_assert(sizeof(has<mts_tensormap_t* (TensorMap::*)() &>(&TensorMap::as_mts_tensormap_t)) > 0);
static_assert(sizeof(has<const mts_tensormap_t* (TensorMap::*)() const &>(&TensorMap::as_mts_tensormap_t)) > 0);
static_assert(sizeof(has<TensorMap (*)(mts_tensormap_t*)>(&TensorMap::unsafe_from_ptr)) > 0);
static_assert(sizeof(has<TensorMap (*)(mts_tensormap_t*)>(&TensorMap::unsafe_view_from_ptr)) > 0);
static_assert(sizeof(has<mts_tensormap_t* (TensorMap::*)()>(&TensorMap::release)) > 0);
static_assert(sizeof(has<void (TensorMap::*)(const std::string&, const std::string&)>(&TensorMap::set_info)) > 0);
static_assert(sizeof(has<std::optional<std::string> (TensorMap::*)(const std::string&) const>(&TensorMap::get_info)) > 0);
static_assert(sizeof(has<details::TensorMapInfo (TensorMap::*)() const>(&TensorMap::info)) > 0);
static_assert(sizeof(has<details::TensorMapInfo::iterator (details::TensorMapInfo::*)() const>(&details::TensorMapInfo::begin)) > 0);
static_assert(sizeof(has<details::TensorMapInfo::iterator (details::TensorMapInfo::*)() const>(&details::TensorMapInfo::end)) > 0);
static_assert(std::is_same_v<details::TensorMapInfo::iterator::value_type, std::pair<std::string_view, std::string_view>>);

// io::
static_assert(sizeof(has<void (*)(const std::string&, const TensorMap&)>(&io::save)) > 0);
static_assert(sizeof(has<void (*)(const std::string&, const TensorBlock&)>(&io::save)) > 0);
static_assert(sizeof(has<void (*)(const std::string&, const Labels&)>(&io::save)) > 0);
static_assert(sizeof(has<std::vector<uint8_t> (*)(const TensorMap&)>(&io::save_buffer<std::vector<uint8_t>>)) > 0);
static_assert(sizeof(has<std::string (*)(const TensorBlock&)>(&io::save_buffer<std::string>)) > 0);
static_assert(sizeof(has<std::vector<uint8_t> (*)(const Labels&)>(&io::save_buffer<std::vector<uint8_t>>)) > 0);
static_assert(sizeof(has<TensorMap (*)(const std::string&, Create)>(&io::load)) > 0);
static_assert(sizeof(has<TensorMap (*)(const uint8_t*, size_t, Create)>(&io::load_buffer)) > 0);
static_assert(sizeof(has<TensorMap (*)(const std::vector<uint8_t>&, Create)>(&io::load_buffer<std::vector<uint8_t>>)) > 0);
static_assert(sizeof(has<TensorBlock (*)(const std::string&, Create)>(&io::load_block)) > 0);
static_assert(sizeof(has<TensorBlock (*)(const uint8_t*, size_t, Create)>(&io::load_block_buffer)) > 0);
static_assert(sizeof(has<TensorBlock (*)(const std::string&, Create)>(&io::load_block_buffer<std::string>)) > 0);
static_assert(sizeof(has<Labels (*)(const std::string&)>(&io::load_labels)) > 0);
static_assert(sizeof(has<Labels (*)(const uint8_t*, size_t)>(&io::load_labels_buffer)) > 0);
static_assert(sizeof(has<Labels (*)(const std::vector<uint8_t>&)>(&io::load_labels_buffer<std::vector<uint8_t>>)) > 0);

// MtsArray
static_assert(std::is_constructible_v<MtsArray, mts_array_t> && !std::is_convertible_v<mts_array_t, MtsArray>);
static_assert(std::is_copy_constructible_v<MtsArray> && std::is_nothrow_move_constructible_v<MtsArray>);
static_assert(sizeof(has<mts_array_t (MtsArray::*)() &&>(&MtsArray::release)) > 0);
static_assert(sizeof(has<mts_array_t (MtsArray::*)() const>(&MtsArray::as_mts_array_t)) > 0);
static_assert(sizeof(has<mts_data_origin_t (MtsArray::*)() const>(&MtsArray::origin)) > 0);
static_assert(sizeof(has<DLDevice (MtsArray::*)() const>(&MtsArray::device)) > 0);
static_assert(sizeof(has<DLDataType (MtsArray::*)() const>(&MtsArray::dtype)) > 0);
static_assert(sizeof(has<DLManagedTensorVersioned* (MtsArray::*)(DLDevice, const int64_t*, DLPackVersion)>(&MtsArray::as_dlpack)) > 0);
static_assert(sizeof(has<MtsArray (MtsArray::*)(DLManagedTensorVersioned*)>(&MtsArray::from_dlpack)) > 0);
static_assert(sizeof(has<DLPackArray<double> (MtsArray::*)(DLDevice, const int64_t*, DLPackVersion)>(&MtsArray::as_dlpack_array<double>)) > 0);
static_assert(sizeof(has<MtsArray (MtsArray::*)(const std::vector<uintptr_t>&, MtsArray) const>(&MtsArray::create)) > 0);
static_assert(sizeof(has<std::vector<uintptr_t> (MtsArray::*)() const>(&MtsArray::shape)) > 0);
static_assert(sizeof(has<void (MtsArray::*)(const std::vector<uintptr_t>&)>(&MtsArray::reshape)) > 0);
static_assert(sizeof(has<void (MtsArray::*)(uintptr_t, uintptr_t)>(&MtsArray::swap_axes)) > 0);
static_assert(sizeof(has<void (MtsArray::*)(const MtsArray&, std::vector<mts_data_movement_t>)>(&MtsArray::move_data)) > 0);

// DataArrayBase and its implementations
static_assert(std::is_abstract_v<DataArrayBase> && std::has_virtual_destructor_v<DataArrayBase>);
static_assert(sizeof(has<MtsArray (*)(std::unique_ptr<DataArrayBase>)>(&DataArrayBase::to_mts_array)) > 0);
static_assert(sizeof(has<mts_data_origin_t (DataArrayBase::*)() const>(&DataArrayBase::origin)) > 0);
static_assert(sizeof(has<DLDevice (DataArrayBase::*)() const>(&DataArrayBase::device)) > 0);
static_assert(sizeof(has<DLDataType (DataArrayBase::*)() const>(&DataArrayBase::dtype)) > 0);
static_assert(sizeof(has<DLManagedTensorVersioned* (DataArrayBase::*)(DLDevice, const int64_t*, DLPackVersion)>(&DataArrayBase::as_dlpack)) > 0);
static_assert(sizeof(has<std::unique_ptr<DataArrayBase> (DataArrayBase::*)(DLManagedTensorVersioned*) const>(&DataArrayBase::from_dlpack)) > 0);
static_assert(sizeof(has<std::unique_ptr<DataArrayBase> (DataArrayBase::*)(DLDevice) const>(&DataArrayBase::copy)) > 0);
static_assert(sizeof(has<std::unique_ptr<DataArrayBase> (DataArrayBase::*)(std::vector<uintptr_t>, MtsArray) const>(&DataArrayBase::create)) > 0);
static_assert(sizeof(has<const std::vector<uintptr_t>& (DataArrayBase::*)() const &>(&DataArrayBase::shape)) > 0);
static_assert(sizeof(has<void (DataArrayBase::*)(const std::vector<uintptr_t>&)>(&DataArrayBase::reshape)) > 0);
static_assert(sizeof(has<void (DataArrayBase::*)(uintptr_t, uintptr_t)>(&DataArrayBase::swap_axes)) > 0);
static_assert(sizeof(has<void (DataArrayBase::*)(const DataArrayBase&, std::vector<mts_data_movement_t>)>(&DataArrayBase::move_data)) > 0);

using Simple = SimpleDataArray<double>;
static_assert(std::is_same_v<SimpleDataArray<bool>::storage_t, uint8_t>);
static_assert(std::is_constructible_v<Simple, std::vector<uintptr_t>>);
static_assert(std::is_constructible_v<Simple, std::vector<uintptr_t>, double>);
static_assert(std::is_constructible_v<Simple, std::vector<uintptr_t>, std::vector<double>>);
static_assert(std::is_copy_constructible_v<Simple> && std::is_nothrow_move_constructible_v<Simple>);
static_assert(sizeof(has<NDArray<double> (Simple::*)() const>(&Simple::view)) > 0);
static_assert(sizeof(has<NDArray<double> (Simple::*)()>(&Simple::view)) > 0);
static_assert(sizeof(has<Simple& (*)(MtsArray&)>(&Simple::from_mts_array)) > 0);
static_assert(sizeof(has<const Simple& (*)(const MtsArray&)>(&Simple::from_mts_array)) > 0);
static_assert(sizeof(has<double* (Simple::*)()>(&Simple::data)) > 0);
static_assert(sizeof(has<const double* (Simple::*)() const>(&Simple::data)) > 0);
static_assert(sizeof(has<const std::vector<int64_t>& (Simple::*)() const>(&Simple::strides)) > 0);
static_assert(sizeof(has<bool (Simple::*)() const>(&Simple::is_contiguous)) > 0);
static_assert(std::is_base_of_v<DataArrayBase, EmptyDataArray<>> && std::is_same_v<EmptyDataArray<>, EmptyDataArray<double>>);
static_assert(std::is_constructible_v<EmptyDataArray<float>, std::vector<uintptr_t>>);

// NDArray and DLPackArray
using Array = NDArray<double>;
static_assert(std::is_default_constructible_v<Array>);
static_assert(std::is_constructible_v<Array, const double*, std::vector<size_t>>);
static_assert(std::is_constructible_v<Array, double*, std::vector<size_t>>);
static_assert(std::is_constructible_v<Array, std::vector<double>, std::vector<size_t>>);
static_assert(!std::is_copy_constructible_v<Array> && std::is_nothrow_move_constructible_v<Array>);
static_assert(sizeof(has<bool (Array::*)() const>(&Array::is_view)) > 0);
static_assert(sizeof(has<double (Array::*)(size_t, size_t) const &>(&Array::operator()<size_t, size_t>)) > 0);
static_assert(sizeof(has<double& (Array::*)(size_t, size_t) &>(&Array::operator()<size_t, size_t>)) > 0);
static_assert(sizeof(has<const double* (Array::*)() const &>(&Array::data)) > 0);
static_assert(sizeof(has<double* (Array::*)() &>(&Array::data)) > 0);
static_assert(sizeof(has<const std::vector<size_t>& (Array::*)() const &>(&Array::shape)) > 0);
static_assert(sizeof(has<const std::vector<int64_t>& (Array::*)() const>(&Array::strides)) > 0);
static_assert(sizeof(has<bool (Array::*)() const>(&Array::is_contiguous)) > 0);

using DLArray = DLPackArray<double>;
static_assert(std::is_default_constructible_v<DLArray>);
static_assert(std::is_constructible_v<DLArray, DLManagedTensorVersioned*> && !std::is_convertible_v<DLManagedTensorVersioned*, DLArray>);
static_assert(!std::is_copy_constructible_v<DLArray> && std::is_nothrow_move_constructible_v<DLArray>);
static_assert(sizeof(has<DLDevice (DLArray::*)() const>(&DLArray::device)) > 0);
static_assert(sizeof(has<DLDataType (DLArray::*)() const>(&DLArray::dtype)) > 0);
static_assert(sizeof(has<double (DLArray::*)(int, int) const &>(&DLArray::operator()<int, int>)) > 0);
static_assert(sizeof(has<const double* (DLArray::*)() const &>(&DLArray::data)) > 0);
static_assert(sizeof(has<const std::vector<size_t>& (DLArray::*)() const &>(&DLArray::shape)) > 0);
static_assert(sizeof(has<const std::vector<int64_t>& (DLArray::*)() const &>(&DLArray::strides)) > 0);
static_assert(sizeof(has<bool (DLArray::*)() const>(&DLArray::is_contiguous)) > 0);

// comparisons between arrays of the same element type
template<typename Lhs, typename Rhs>
constexpr bool comparable = std::is_same_v<decltype(std::declval<const Lhs&>() == std::declval<const Rhs&>()), bool> &&
    std::is_same_v<decltype(std::declval<const Lhs&>() != std::declval<const Rhs&>()), bool>;
static_assert(comparable<Array, Array> && comparable<DLArray, DLArray> && comparable<Simple, Simple>);
static_assert(comparable<DLArray, Array> && comparable<Array, DLArray> && comparable<DLArray, Simple>);
static_assert(comparable<Simple, DLArray> && comparable<Simple, Array> && comparable<Array, Simple>);

// errors and the details the reference's users call
static_assert(std::is_base_of_v<std::runtime_error, Error> && std::is_constructible_v<Error, const std::string&>);
static_assert(sizeof(has<void (*)(mts_status_t)>(&details::check_status)) > 0);
static_assert(sizeof(has<void (*)(const void*)>(&details::check_pointer)) > 0);
static_assert(sizeof(has<mts_status_t (*)(const uintptr_t*, uintptr_t, DLDataType, mts_array_t*)>(&details::default_create_array)) > 0);
static_assert(sizeof(has<std::unique_ptr<DataArrayBase> (*)(std::vector<uintptr_t>, DLDataType)>(&details::create_empty_array)) > 0);
static_assert(sizeof(has<DLDataType (*)()>(&details::dtype_of<float>)) > 0);
static_assert(sizeof(has<std::vector<double> (*)(const DLTensor&)>(&details::vector_from_dlpack<double>)) > 0);
static_assert(sizeof(has<void (*)(DLManagedTensorVersioned*)>(&details::DLPackDeleter)) > 0);
