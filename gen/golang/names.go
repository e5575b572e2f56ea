package golang

import (
	"fmt"
	"strings"

	"github.com/metatensor-go/metatensor/gen/goname"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// The Go names of the binding (bindings/go, package metatensor): which Go declaration is the
// counterpart of each function of the spec. Naming lives here only.

// object is a kind of spec object as the Go binding sees it.
type object struct {
	spec     string // the name in the spec, and in C function names: block
	goType   string // the Go type: TensorBlock
	short    string // the name in loader names (LoadBlock) and in core function names (core.LoadBlockFile)
	coreType string // the core type the Go type wraps: Block
	receiver string // the receiver of methods: b
	wrap     string // the unexported function wrapping a new core object: ownBlock
	field    string // the field of the Go type holding the core object
}

var objects = []object{
	{"labels", "Labels", "Labels", "ArrayLabels", "l", "adoptLabels", "labels"},
	{"block", "TensorBlock", "Block", "Block", "b", "ownBlock", "block"},
	{"tensormap", "TensorMap", "TensorMap", "TensorMap", "t", "ownTensorMap", "tensor"},
}

// methodName spells the rest of a C function name (after the object) as a Go method, in the
// binding (free is Close there) or in the core.
func methodName(rest string, binding bool) string {
	switch {
	case rest == "free" && binding:
		return "Close"
	case rest == "dtype":
		return "DType"
	}
	return goname.Camel(rest)
}

// objectOf splits a C function name into its object and the rest: mts_block_add_gradient
// gives the block and "add_gradient".
func objectOf(function string) (*object, string, bool) {
	short := goname.Short(function)
	for i := range objects {
		if rest, ok := strings.CutPrefix(short, objects[i].spec+"_"); ok {
			return &objects[i], rest, true
		}
	}
	return nil, "", false
}

// Counterpart gives the Go declaration implementing a function of the spec: a function,
// constant or variable of the package ("LoadLabels"), or a method ("Labels.Position"). By
// default mts_<object>_<words> is the method <Words> of the object's Go type, and the loaders
// mts_<object>_load[_buffer] are the functions Load<Object>[Buffer]; the spec's go.name names
// the rest. C-only functions have none.
func Counterpart(f *spec.Function) (string, error) {
	name, overridden := f.Go.Name, f.Go.Name != ""
	if f.Name == "mts_version" {
		name, overridden = "Version", true
	}
	if f.COnly {
		if overridden {
			return "", fmt.Errorf("golang: %s is c_only, but has the Go name %s", f.Name, name)
		}
		return "", nil
	}
	if overridden {
		return name, nil
	}
	o, rest, ok := objectOf(f.Name)
	if !ok {
		return "", fmt.Errorf("golang: no Go name for %s: give it a go.name in the spec, or mark it c_only", f.Name)
	}
	switch rest {
	case "load":
		return "Load" + o.short, nil
	case "load_buffer":
		return "Load" + o.short + "Buffer", nil
	}
	return o.goType + "." + methodName(rest, true), nil
}
