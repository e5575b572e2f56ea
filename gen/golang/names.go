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
	a, the   string // how docs name a value of the type: "a block", "the block"
	wrap     string // the unexported function wrapping a new core object: ownBlock
	creates  bool   // the core loaders take the function creating arrays
	// saver writes the object to a core.SaveSink: a function of the core, or of the package
	// when local.
	saver string
	local bool
}

var objects = []object{
	{"labels", "Labels", "Labels", "ArrayLabels", "l", "labels", "the labels", "adoptLabels", false, "saveLabels", true},
	{"block", "TensorBlock", "Block", "Block", "b", "a block", "the block", "ownBlock", true, "SaveBlock", false},
	{"tensormap", "TensorMap", "TensorMap", "TensorMap", "t", "a tensor map", "the tensor map", "ownTensorMap", true, "SaveTensorMap", false},
}

// overrides are the counterparts that the rule of Counterpart does not give.
var overrides = map[string]string{
	"mts_version":               "Version",
	"mts_register_data_origin":  "RegisterOrigin",
	"mts_get_data_origin":       "OriginName",
	"mts_labels":                "NewLabels",
	"mts_labels_assume_unique":  "NewLabelsAssumeUnique",
	"mts_labels_dimensions":     "Labels.Names",
	"mts_labels_values":         "Labels.ValuesArray",
	"mts_labels_values_cpu":     "Labels.Values",
	"mts_block":                 "NewBlock",
	"mts_block_data":            "TensorBlock.Values",
	"mts_block_gradients_list":  "TensorBlock.GradientParameters",
	"mts_tensormap":             "NewTensorMap",
	"mts_tensormap_block_by_id": "TensorMap.Block",
	"mts_tensormap_get_info":    "TensorMap.Info",
}

// methodNames are the Go spellings of words of C function names that Camel does not give.
var methodNames = map[string]string{"free": "Close", "dtype": "DType"}

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
// mts_<object>_load[_buffer] are the functions Load<Object>[Buffer]; overrides name the rest.
// C-only functions have none.
func Counterpart(f *spec.Function) (string, error) {
	name, overridden := overrides[f.Name]
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
		return "", fmt.Errorf("golang: no Go name for %s: name it in gen/golang/names.go, or mark it c_only in the spec", f.Name)
	}
	switch rest {
	case "load":
		return "Load" + o.short, nil
	case "load_buffer":
		return "Load" + o.short + "Buffer", nil
	}
	method, ok := methodNames[rest]
	if !ok {
		method = goname.Camel(rest)
	}
	return o.goType + "." + method, nil
}
