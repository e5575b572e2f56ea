package goname

import (
	"fmt"
	"strings"

	"github.com/metatensor-go/metatensor/gen/cname"
)

// The names of the Go binding (bindings/go, package metatensor): which Go declaration is the
// counterpart of each function of the spec, and the names its generated bodies use.

// Object is a kind of spec object as the Go binding sees it.
type Object struct {
	Spec     string // the name in the spec, and in C function names: block
	GoType   string // the Go type: TensorBlock
	Short    string // the name in loader names (LoadBlock) and in core function names (core.LoadBlockFile)
	CoreType string // the core type the Go type wraps: Block
	Receiver string // the receiver of methods: b
	Wrap     string // the unexported function wrapping a new core object: ownBlock
	Field    string // the field of the Go type holding the core object
}

// Objects are the object kinds of the binding.
var Objects = []Object{
	{"labels", "Labels", "Labels", "ArrayLabels", "l", "adoptLabels", "labels"},
	{"block", "TensorBlock", "Block", "Block", "b", "ownBlock", "block"},
	{"tensormap", "TensorMap", "TensorMap", "TensorMap", "t", "ownTensorMap", "tensor"},
}

// ObjectOf finds the object of the binding behind a spec object (block), or nil.
func ObjectOf(spec string) *Object {
	for i := range Objects {
		if Objects[i].Spec == spec {
			return &Objects[i]
		}
	}
	return nil
}

// ObjectTyped finds the object of the binding whose Go type is goType, or nil.
func ObjectTyped(goType string) *Object {
	for i := range Objects {
		if Objects[i].GoType == goType {
			return &Objects[i]
		}
	}
	return nil
}

// Method spells the rest of a C function name (after the object) as a Go method, in the
// binding (free is Close there) or in the core.
func Method(rest string, binding bool) string {
	switch {
	case rest == "free" && binding:
		return "Close"
	case rest == "dtype":
		return "DType"
	}
	return Camel(rest)
}

// SplitFunction splits a C function name into its object and the rest: mts_block_add_gradient
// gives the block and "add_gradient".
func SplitFunction(function string) (*Object, string, bool) {
	short := cname.Short(function)
	for i := range Objects {
		if rest, ok := strings.CutPrefix(short, Objects[i].Spec+"_"); ok {
			return &Objects[i], rest, true
		}
	}
	return nil, "", false
}

// Counterpart gives the Go declaration implementing a function of the spec: a function,
// constant or variable of the package ("LoadLabels"), or a method ("Labels.Position"). By
// default mts_<object>_<words> is the method <Words> of the object's Go type, and the loaders
// mts_<object>_load[_buffer] are the functions Load<Object>[Buffer]; name, the mapping's
// name (spec/bindings/go.yaml), names the rest.
func Counterpart(function, name string) (string, error) {
	if name != "" {
		return name, nil
	}
	o, rest, ok := SplitFunction(function)
	if !ok {
		return "", fmt.Errorf("golang: no Go name for %s: give it a name in spec/bindings/go.yaml, or exclude it there", function)
	}
	switch rest {
	case "load":
		return "Load" + o.Short, nil
	case "load_buffer":
		return "Load" + o.Short + "Buffer", nil
	}
	return o.GoType + "." + Method(rest, true), nil
}

// BindingStatus is the part of the binding's names for a status: MTS_INVALID_PARAMETER_ERROR
// gives InvalidParameter, for StatusInvalidParameter and ErrInvalidParameter.
func BindingStatus(value string) string {
	return Camel(strings.TrimSuffix(strings.TrimPrefix(value, "MTS_"), "_ERROR"))
}

// Param names the Go parameter or variable of a spec parameter: keys_to_move gives keysToMove.
func Param(name string) string {
	return LowerCamel(name)
}

// CoreValue names the local holding the core object behind a parameter: the core of
// keys_to_move is keysToMoveCore.
func CoreValue(name string) string {
	return LowerCamel(name) + "Core"
}
