package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/metatensor-go/metatensor/gen/goname"
	"github.com/metatensor-go/metatensor/gen/spec"
	"github.com/metatensor-go/metatensor/gen/text"
)

// How a C signature becomes a Go one. Inputs: objects are Go wrappers (*Labels...), arrays
// with their count are slices, usize is int, mts_array_t is Array, the create_array callback
// is CreateArray (nil: host arrays); realloc callbacks and their user data disappear (Go
// slices grow by themselves). Outputs, in order: the returned object, then every out
// parameter and every buffer the callee fills, then an error unless the function is
// infallible in Go. An out string (a C pointer that may be left NULL) gives the string and
// whether there was one.

// goFunction is the Go counterpart of a spec function, as the generator writes it.
type goFunction struct {
	spec       *spec.Function
	name       string         // the Go name, without the type of a method
	recv       *goname.Object // the type of a method, nil for a function
	recvParam  *spec.Param
	params     []*spec.Param // the Go parameters, the receiver excepted
	outputs    []output
	call       string // the core expression, with the names of the spec's parameters
	infallible bool
	borrowed   bool
	doc        string
	// free is set on the function releasing an object (the spec object's free): its
	// counterpart is Close.
	free bool
}

// output is one Go result before the error.
type output struct {
	name  string
	param *spec.Param // nil for the returned object
	t     *spec.Type
	// ok is set on a nullable string: a second result tells whether there was one.
	ok bool
}

// shape derives the Go counterpart of function from its mapping, nil when it has none.
func shape(function *spec.Function, entry *Entry) (*goFunction, error) {
	full, err := Counterpart(function, entry)
	if err != nil || full == "" {
		return nil, err
	}
	f := &goFunction{
		spec:       function,
		name:       full,
		call:       entry.Call,
		infallible: entry.Infallible,
		borrowed:   entry.Borrowed,
		doc:        entry.Doc,
	}
	if typ, method, ok := strings.Cut(full, "."); ok {
		f.name = method
		f.recv = goname.ObjectTyped(typ)
		if f.recv == nil {
			return nil, fmt.Errorf("%s: %s is not a type of the Go binding", function.Name, typ)
		}
	}
	if function.Returns.Convention == "object" {
		f.outputs = append(f.outputs, output{name: "result", t: function.Returns.T})
	}
	for _, p := range function.Params {
		switch {
		case len(p.CountFor) > 0, p.T.Kind == spec.KindOpaque, isCallback(p.T, "mts_realloc_buffer_t"):
			// counts are the lengths of slices; realloc is how C grows what Go appends to
		case f.recv != nil && f.recvParam == nil && p.T.Kind == spec.KindObject && p.T.Name == f.recv.Spec:
			f.recvParam = p
		case isOutput(p):
			f.outputs = append(f.outputs, output{name: goname.Param(p.Name), param: p, t: p.T,
				ok: p.T.Kind == spec.KindString})
		default:
			f.params = append(f.params, p)
		}
	}
	if f.recv != nil && f.recvParam == nil {
		return nil, fmt.Errorf("%s: the method %s takes no %s", function.Name, full, f.recv.Spec)
	}
	if names := entry.Results; names != nil {
		if len(names) != len(f.outputs) {
			return nil, fmt.Errorf("%s: results names %d results, the Go counterpart has %d", function.Name, len(names), len(f.outputs))
		}
		for i := range names {
			f.outputs[i].name = names[i]
		}
	}
	if f.call == "" {
		f.call = defaultCall(f)
	}
	if f.doc == "" {
		f.doc = fmt.Sprintf("%s is the counterpart of %s. %s", f.name, function.Name, text.OneLine(function.Doc))
	}
	return f, nil
}

// isOutput tells whether p carries data back to the caller.
func isOutput(p *spec.Param) bool {
	switch p.T.Kind {
	case spec.KindBuffer, spec.KindGrowable:
		return true
	}
	return p.Direction == "out"
}

func isCallback(t *spec.Type, name string) bool {
	return t.Kind == spec.KindCallback && t.Name == name
}

// defaultCall is the core call when the spec names none: a method of the receiver named
// after the rest of the C name (mts_labels_union: first.Union(second)), or the core
// function of the Go name (mts_block: NewBlock(data, samples, components, properties)).
func defaultCall(f *goFunction) string {
	var args []string
	for _, p := range f.params {
		args = append(args, p.Name)
	}
	if f.recv != nil {
		_, rest, _ := goname.SplitFunction(f.spec.Name)
		return fmt.Sprintf("%s.%s(%s)", f.recvParam.Name, goname.Method(rest, false), strings.Join(args, ", "))
	}
	return fmt.Sprintf("%s(%s)", f.name, strings.Join(args, ", "))
}

// plainTypes are the types of the spec that are not objects: the Go type of the binding,
// and the type of the core value. They are the same but for usize, which is an int in Go and
// a uint64 in the core.
var plainTypes = map[string][2]string{
	"string":                               {"string", "string"},
	"bool":                                 {"bool", "bool"},
	"int32":                                {"int32", "int32"},
	"int64":                                {"int64", "int64"},
	"usize":                                {"int", "uint64"},
	"alias.mts_data_origin_t":              {"Origin", "Origin"},
	"vtable.mts_array_t":                   {"Array", "Array"},
	"callback.mts_create_array_callback_t": {"CreateArray", "CreateArray"},
	"array<string>":                        {"[]string", "[]string"},
	"array<int32>":                         {"[]int32", "[]int32"},
	"array<uint8>":                         {"[]byte", "[]byte"},
}

// inputType gives the Go type of an input, and the type of its core value in the source of
// package core.
func inputType(p *spec.Param) (goType jen.Code, coreType string, err error) {
	t, list := p.T, ""
	if t.Kind == spec.KindArray && t.Elem.Kind == spec.KindObject {
		t, list = t.Elem, "[]"
	}
	if t.Kind == spec.KindObject {
		if o := goname.ObjectOf(t.Name); o != nil {
			return jen.Id(list + "*" + o.GoType), list + "*" + o.CoreType, nil
		}
	} else if types, ok := plainTypes[t.String()]; ok {
		return jen.Id(types[0]), types[1], nil
	}
	return nil, "", fmt.Errorf("no Go type for the parameter %s (%s)", p.Name, p.Type)
}

// goOutputType is the Go type of an output.
func goOutputType(o output) (jen.Code, error) {
	t := o.t
	switch t.Kind {
	case spec.KindObject:
		if obj := goname.ObjectOf(t.Name); obj != nil {
			return jen.Op("*").Id(obj.GoType), nil
		}
	case spec.KindBuffer, spec.KindGrowable:
		switch t.Elem.Name {
		case "int64", "uint64":
			return jen.Index().Int(), nil
		case "char":
			return jen.String(), nil
		case "uint8":
			return jen.Index().Byte(), nil
		}
	case spec.KindStruct:
		switch t.Name {
		case "DLDevice":
			return jen.Id("Device"), nil
		case "DLDataType":
			return jen.Id("DType"), nil
		}
	case spec.KindPrim:
		if t.Name == "int64" || t.Name == "usize" {
			return jen.Int(), nil
		}
	}
	if types, ok := plainTypes[t.String()]; ok {
		return jen.Id(types[0]), nil
	}
	return nil, fmt.Errorf("no Go type for the result %s (%s)", o.name, t)
}
