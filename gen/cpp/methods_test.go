package cpp

import (
	"strings"
	"testing"

	"github.com/metatensor-go/metatensor/gen/cppname"
	"github.com/metatensor-go/metatensor/gen/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realAPI loads the project's spec and C++ mapping: the method rules are written for its
// objects (gen/cppname has no class for the fixture's).
func realAPI(t *testing.T) (*spec.API, *Mapping) {
	api, err := spec.Load("../../spec/api.yaml")
	require.NoError(t, err)
	m, err := spec.LoadMapping("../../spec/bindings", api, Target)
	require.NoError(t, err)
	return api, m
}

func functionNamed(t *testing.T, api *spec.API, name string) *spec.Function {
	for _, f := range api.Functions {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

// TestMethodRules pins what each rule of methods.go makes of a parameter or a result, on
// methods of the reference's C++ API whose signatures bindings/cpp/tests/signatures checks.
func TestMethodRules(t *testing.T) {
	api, m := realAPI(t)
	for _, c := range []struct{ function, want string }{
		// `this` through the field; out int64 into an optional position
		{"mts_labels_position", "std::optional<size_t> position(const int32_t* values, size_t values_count) const {\n" +
			"        int64_t result = 0;\n" +
			"        details::checked::labels_position(labels_, values, values_count, &result);\n" +
			"        return result < 0 ? std::nullopt : std::optional<size_t>(static_cast<size_t>(result));\n    }"},
		// the other labels through their field; nullable buffers and counts default to none
		{"mts_labels_difference", "first_mapping = nullptr, size_t first_mapping_count = 0\n    ) const {\n" +
			"        const mts_labels_t* result = nullptr;\n" +
			"        details::checked::labels_difference(\n            labels_, second.labels_, &result, first_mapping, first_mapping_count\n        );\n" +
			"        metatensor::details::check_pointer(result);\n        return Labels::unsafe_from_ptr(result);\n    }"},
		// a length read then written, through a uintptr_t
		{"mts_labels_select", "void select(const Labels& selection, uint64_t* selected, size_t* selected_count) const {\n" +
			"        uintptr_t c_selected_count = *selected_count;\n" +
			"        details::checked::labels_select(labels_, selection.labels_, selected, &c_selected_count);\n" +
			"        *selected_count = c_selected_count;\n    }"},
		// an out array of several dimensions, viewed in place
		{"mts_labels_values_cpu", "        return NDArray<int32_t>(values, {count, size});\n"},
		// released labels give the mapping's value
		{"mts_labels_dimensions", "        if (labels_ == nullptr) {\n            return {};\n        }\n"},
		// a const method giving a view from a function taking the block mutable
		{"mts_block_gradient", "TensorBlock gradient(const std::string& parameter) const {\n" +
			"        mts_block_t* gradient = nullptr;\n" +
			"        details::checked::block_gradient(\n" +
			"            const_cast<mts_block_t*>(this->as_mts_block_t()), parameter.c_str(), &gradient\n        );\n" +
			"        metatensor::details::check_pointer(gradient);\n        return TensorBlock::unsafe_view_from_ptr(gradient);\n    }"},
		// an object taken by the function is moved in; a view refuses it
		{"mts_block_add_gradient", "void add_gradient(const std::string& parameter, TensorBlock gradient) {\n" +
			"        this->check_not_view(\"add_gradient\");\n" +
			"        details::checked::block_add_gradient(\n" +
			"            this->as_mts_block_t(), parameter.c_str(), gradient.release()\n        );\n    }"},
		// C strings copied into std::string, as the mapping asks
		{"mts_block_gradients_list", "        return std::vector<std::string>(parameters, parameters + parameters_count);\n"},
		// a returned object adopted; another class's object through its accessor; an array moved in
		{"mts_tensormap_keys_to_samples", "        return TensorMap::unsafe_from_ptr(details::checked::tensormap_keys_to_samples(\n" +
			"            tensor_, keys_to_move.as_mts_labels_t(), std::move(fill_value).release(), sort_samples\n        ));\n"},
		// names spelled in C for the call
		{"mts_tensormap_components_to_properties", "        auto c_dimensions = details::c_strings(dimensions);\n"},
		// a ref-qualified method; `this` through the accessor where the mapping asks
		{"mts_tensormap_block_by_id", "TensorBlock block_by_id(uintptr_t index) & {\n"},
		{"mts_tensormap_device", "details::checked::tensormap_device(this->as_mts_tensormap_t(), &device);\n"},
		// a NULL string is no value
		{"mts_tensormap_get_info", "        return value == nullptr ? std::nullopt : std::optional<std::string>(value);\n"},
	} {
		f := functionNamed(t, api, c.function)
		meth, err := buildMethod(f, m.Entry(c.function))
		require.NoError(t, err, c.function)
		var b strings.Builder
		meth.write(&b)
		assert.Contains(t, b.String(), c.want, c.function)
	}
}

// TestFreeFunctions pins the free functions: declared with the defaults of their parameters
// (a create_array callback defaults to plain CPU arrays), defined without them.
func TestFreeFunctions(t *testing.T) {
	api, m := realAPI(t)
	declarations, definitions, err := IOFragments(api, m)
	require.NoError(t, err)
	assert.Contains(t, string(declarations), "/// Loads a block from the file at `path`, its arrays made by `create_array`.\n"+
		"TensorBlock load_block(\n    const std::string& path,\n"+
		"    mts_create_array_callback_t create_array = details::default_create_array\n);\n")
	assert.Contains(t, string(definitions), "inline TensorBlock load_block(const std::string& path, mts_create_array_callback_t create_array) {\n"+
		"    return TensorBlock::unsafe_from_ptr(details::checked::block_load(path.c_str(), create_array));\n}\n")
	assert.Contains(t, string(definitions), "inline void save(const std::string& path, const Labels& labels) {\n"+
		"    details::checked::labels_save(path.c_str(), labels.as_mts_labels_t());\n}\n")
	assert.NotContains(t, string(definitions), "///")
}

// TestMethodRefusals checks that a function no rule turns into a method is an error naming
// what is missing, reported when the mapping is checked.
func TestMethodRefusals(t *testing.T) {
	api, _ := realAPI(t)
	for _, c := range []struct {
		function string
		entry    Entry
		want     string
	}{
		{"mts_labels_save_buffer", Entry{Method: "Labels::save_buffer", Doc: "d"},
			"parameter buffer (growable<uint8>, inout): no rule gives it a C++ parameter"},
		{"mts_block_copy", Entry{Method: "Labels::copy", Doc: "d"}, "no parameter is a labels object to be `this`"},
		{"mts_block_copy", Entry{Method: "Block::copy", Doc: "d"}, "no C++ class Block"},
		{"mts_block_copy", Entry{Method: "TensorBlock::clone"}, "TensorBlock::clone has no doc"},
		{"mts_block_copy", Entry{Method: "clone", Doc: "d"}, `"clone" is not Class::method or namespace::function`},
		{"mts_block_load", Entry{Function: "details::load", Doc: "d"}, "free functions are generated in io:: only"},
		{"mts_block_load", Entry{Function: "io::load_block", Doc: "d", Const: true}, "are for methods"},
		{"mts_block_load", Entry{Function: "io::load_block", Method: "TensorBlock::load", Doc: "d"}, "method and function are exclusive"},
		{"mts_block_device", Entry{Method: "TensorBlock::device", Doc: "d", Returns: "std::optional<std::string>"},
			"no rule gives a std::optional<std::string> from a struct.DLDevice"},
		{"mts_block_copy", Entry{Method: "TensorBlock::clone", Doc: "d", Returns: "TensorMap"},
			"no rule gives a TensorMap from a object.block"},
		{"mts_labels_values_cpu", Entry{Doc: "d"}, "are for methods"},
		{"mts_tensormap_info_keys", Entry{Method: "TensorMap::info_keys", Doc: "d", This: "pointer"}, `this "pointer" is not accessor or field`},
	} {
		problems := check(functionNamed(t, api, c.function), &c.entry)
		require.NotEmpty(t, problems, c.function)
		assert.Contains(t, strings.Join(problems, "\n"), c.want, c.function)
	}
}

// TestFragments checks that every class with a method gets its fragment, at the path its
// hand-written header includes.
func TestFragments(t *testing.T) {
	api, m := realAPI(t)
	classes := MethodClasses(m)
	require.Len(t, classes, len(cppname.Classes))
	for _, class := range classes {
		out, err := Fragment(api, m, class)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(out), Banner))
		assert.True(t, strings.HasSuffix(class.Fragment(), "/"+class.Header+"_methods_gen.hpp"))
	}
}
