package cppname

import "strings"

// Class is a hand-written C++ class over an object of the spec. The methods that map one to
// one onto a C function (spec/bindings/cpp.yaml `method`) are generated into a fragment that
// the class's header includes inside the class body, where they reach its private members.
type Class struct {
	// Name is the C++ class: TensorBlock.
	Name string
	// Object is the spec object it owns or views: block.
	Object string
	// Field is the private member holding the C pointer, NULL once released.
	Field string
	// Header is the hand-written header of the class, beside the generated fragment:
	// block gives block.hpp and block_methods_gen.hpp.
	Header string
	// Accessed is true for classes whose methods reach their pointer through the public
	// accessor (Accessor), which throws when the object was released, rather than through
	// Field, which hands NULL to the library; each follows the reference's class.
	Accessed bool
	// Views is true for classes that can be a view of an object owned elsewhere, built
	// by unsafe_view_from_ptr.
	Views bool
}

// Classes are the classes of the binding, in the order their headers include one another.
var Classes = []Class{
	{Name: "Labels", Object: "labels", Field: "labels_", Header: "labels"},
	{Name: "TensorBlock", Object: "block", Field: "block_", Header: "block", Accessed: true, Views: true},
	{Name: "TensorMap", Object: "tensormap", Field: "tensor_", Header: "tensor", Views: true},
}

// ClassNamed finds a class by its C++ name, or nil.
func ClassNamed(name string) *Class {
	return findClass(func(c *Class) bool { return c.Name == name })
}

// ClassOf finds the class over a spec object, or nil.
func ClassOf(object string) *Class {
	return findClass(func(c *Class) bool { return c.Object == object })
}

func findClass(match func(*Class) bool) *Class {
	for i := range Classes {
		if match(&Classes[i]) {
			return &Classes[i]
		}
	}
	return nil
}

// Accessor is the public member giving the C pointer, or throwing once the object was
// released: as_mts_block_t() for the C type mts_block_t.
func Accessor(cType string) string {
	return "as_" + cType + "()"
}

// Fragment is the path of the generated fragment of a class's methods.
func (c *Class) Fragment() string {
	return includeDir + c.Header + "_methods_gen.hpp"
}

// FromPtr is the static member adopting an owned C pointer (unsafe_from_ptr), or viewing
// one owned elsewhere (unsafe_view_from_ptr).
func (c *Class) FromPtr(view bool) string {
	if view {
		return c.Name + "::unsafe_view_from_ptr"
	}
	return c.Name + "::unsafe_from_ptr"
}

// ViewCheck is the private member of the classes with views that throws when the object is
// a view, for the methods that a view must refuse: check_not_view("add_gradient").
func ViewCheck(method string) string {
	return `this->check_not_view("` + method + `")`
}

// ArrayClass is the C++ class over the array vtable of the spec (mts_array_t), built from a
// C array.
const ArrayClass = "MtsArray"

// StringsHelper converts a vector of std::string to the C strings a C function takes, valid
// as long as the vector (labels.hpp).
const StringsHelper = "details::c_strings"

// includeDir holds the C++ headers.
var includeDir = strings.TrimSuffix(Header, "checked_gen.hpp")

// ArrayVtable is the vtable of the spec that ArrayClass wraps.
const ArrayVtable = "mts_array_t"

// IONamespace holds the free functions that map one to one onto a C function (loading and
// saving), generated into two fragments that the hand-written io_fwd.hpp and io.hpp include
// inside the namespace: the documented declarations, before the classes, and the
// definitions, after them.
const IONamespace = "io"

// The paths of the two fragments of IONamespace.
var (
	IODeclarations = includeDir + "io_declarations_gen.hpp"
	IODefinitions  = includeDir + "io_definitions_gen.hpp"
)

// CallbackDefaults are the default arguments of callback parameters, by callback type: the
// loaders make plain CPU arrays unless told otherwise.
var CallbackDefaults = map[string]string{
	"mts_create_array_callback_t": "details::default_create_array",
}
