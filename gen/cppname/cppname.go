// Package cppname decides every name the C++ generator (gen/cpp) prints: the header it
// writes, the namespace of the checked calls and the name of each of them.
package cppname

import "github.com/metatensor-go/metatensor/gen/cname"

// Header is the generated header, relative to the repository root; the hand-written
// headers beside it include it as "./checked_gen.hpp".
const Header = "bindings/cpp/include/metatensor/checked_gen.hpp"

// Namespace holds the checked calls. They are details of the hand-written classes, as the
// reference keeps its C helpers in metatensor::details.
const Namespace = "metatensor::details::checked"

// Check is the hand-written function (errors.hpp) that turns an error status into an
// exception; CheckPointer does the same for a NULL object.
const (
	Check        = "metatensor::details::check_status"
	CheckPointer = "metatensor::details::check_pointer"
)

// keywords are the C++ words a checked call may not be named after.
var keywords = map[string]bool{"delete": true, "new": true, "union": true, "register": true}

// Checked names the checked call of a C function: mts_labels_union gives labels_union. name,
// the mapping's name (spec/bindings/cpp.yaml), overrides the rule.
func Checked(function, name string) string {
	if name != "" {
		return name
	}
	short := cname.Short(function)
	if keywords[short] {
		return short + "_"
	}
	return short
}
