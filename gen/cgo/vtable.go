package cgo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/metatensor-go/metatensor/gen/cname"
	"github.com/metatensor-go/metatensor/gen/goname"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// Both sides of a vtable are generated here: Go calling a C caller's vtable (the adaptor,
// vtable_adaptor.go) and C calling a Go value through a vtable the library makes (the
// export, vtable_export.go). Every member is a method of a core interface named after it
// (goname.Camel); its parameters are converted by the rules of the conversions table, keyed
// by the spec's type. What follows no rule is a hand-written hook named in goVtable.

// goVtable is what the generators need to know of a vtable beyond the spec: the Go names of
// the hand-written parts around the generated members.
type goVtable struct {
	// adaptor is the Go type holding a C vtable (its field raw points to the C struct);
	// created makes the adaptor of a vtable a member created, in C memory it owns.
	adaptor, created string
	// exported is the Go type behind a vtable made by the library (its field array holds the
	// Go value); call runs one member of it, turning errors and panics into a status.
	exported, call string
	// export prefixes the Go exports the C members call; shim prefixes those C members.
	export, shim string
	// constructor makes the C vtable of a Go value; magic marks its data block.
	constructor, magic string
	// handWritten lists the members written by hand on both sides.
	handWritten []string
}

var goVtables = map[string]goVtable{
	"mts_array_t": {
		adaptor:     "cArray",
		created:     "createdCArray",
		exported:    "exportedArray",
		call:        "goArrayCall",
		export:      "mtsgo_goarray_",
		shim:        "go_",
		constructor: "mtsgo_go_array",
		magic:       "GOARRAY",
		// destroy reports nothing and frees the adaptor's own memory: no rule fits it.
		handWritten: []string{"destroy"},
	},
}

// site is one parameter where a conversion applies.
type site struct {
	// value is the parameter (Go or C, depending on the side), count its count when it has one.
	value, count jen.Code
	param        *spec.Param
	// member is the vtable member, as "mts_array_t.create".
	member string
}

// convert spells one conversion; a fallible one gives (value, error).
type convert struct {
	spell    func(s site) jen.Code
	fallible bool
}

// conversion is how a spec type maps to Go, in each direction of each side.
type conversion struct {
	goType, zero jen.Code
	// argToC and resultFromC serve the adaptor: a Go argument passed to C, a C result
	// returned to Go. release frees a taken argument when the member is missing.
	argToC, resultFromC convert
	release             func(value jen.Code) jen.Code
	// argFromC and resultToC serve the export: a C argument passed to Go, a Go result stored
	// for C. A plain result is stored even when the call fails, as its zero value.
	argFromC, resultToC convert
	plain               bool
	// builtInC, when set, replaces argToC for the members whose helper creates a vtable
	// (creatingHelper): Go passes a description the helper turns into the C argument.
	builtInC *builtInC
	// byValue, when set, is a second form of a C result for the adaptor: the member is also
	// a method of that name giving the result converted so, which allocates nothing.
	byValue *resultForm
}

// resultForm is the Go form of an adaptor method's result: its type, its zero value and its
// conversion from C; method names the method giving it (the member's own name when empty).
type resultForm struct {
	method       string
	goType, zero jen.Code
	fromC        convert
}

// builtInC is an argument C builds from Go's description of it, in the call into C that
// uses it. Go's describe(value) gives a value whose fields goArgs are passed (a description
// free of Go pointers, then the Go memory it refers to: cgo accepts pointers to Go memory as
// arguments only) and whose done(built) ends the Go side, with an error when C could not
// build it. The helper takes cParams (a format of the parameter's name), calls build (the
// same) and, when the member is not called after all, release (of the built value's name);
// NULL from build means out of memory.
type builtInC struct {
	describe                string
	goArgs                  []string
	cParams, build, release string
}

func call(name string, extra ...func(s site) jen.Code) func(s site) jen.Code {
	return func(s site) jen.Code {
		args := []jen.Code{s.value}
		if s.count != nil {
			args = append(args, s.count)
		}
		for _, e := range extra {
			args = append(args, e(s))
		}
		return jen.Id(name).Call(args...)
	}
}

func cast(to jen.Code) func(s site) jen.Code {
	return func(s site) jen.Code { return jen.Add(to).Call(s.value) }
}

// castPointer is cast to a pointer type, which Go needs in parentheses.
func castPointer(to jen.Code) func(s site) jen.Code {
	return func(s site) jen.Code { return jen.Parens(to).Call(s.value) }
}

func core(name string) *jen.Statement { return jen.Qual(corePackage, name) }

// message builds a hook's error message from the site.
func message(format func(s site) string) func(s site) jen.Code {
	return func(s site) jen.Code { return jen.Lit(format(s)) }
}

func words(name string) string { return strings.ReplaceAll(name, "_", " ") }

var conversions = map[string]conversion{
	"alias.mts_data_origin_t": {
		goType: core("Origin"), zero: jen.Lit(0),
		resultFromC: convert{spell: cast(core("Origin"))},
		resultToC:   convert{spell: cast(jen.Qual("C", "mts_data_origin_t"))}, plain: true,
	},
	"struct.DLDevice": {
		goType: core("Device"), zero: core("Device").Values(),
		argToC: convert{spell: call("deviceToC")}, resultFromC: convert{spell: call("deviceFromC")},
		argFromC: convert{spell: call("deviceFromC")}, resultToC: convert{spell: call("deviceToC")}, plain: true,
	},
	"struct.DLDataType": {
		goType: core("DType"), zero: core("DType").Values(),
		resultFromC: convert{spell: call("dtypeFromC")},
		resultToC:   convert{spell: call("dtypeToC")}, plain: true,
	},
	"struct.DLPackVersion": {
		goType: core("DLPackVersion"),
		argToC: convert{spell: call("versionToC")}, argFromC: convert{spell: call("versionFromC")},
	},
	"ptr<int64>": {
		goType: jen.Op("*").Int64(),
		argToC: convert{spell: castPointer(jen.Op("*").Qual("C", "int64_t"))},
		argFromC: convert{spell: func(s site) jen.Code {
			return jen.Parens(jen.Op("*").Int64()).Call(jen.Qual("unsafe", "Pointer").Call(s.value))
		}},
	},
	"usize": {
		goType: jen.Uintptr(),
		argToC: convert{spell: cast(jen.Qual("C", "uintptr_t"))}, argFromC: convert{spell: cast(jen.Uintptr())},
	},
	// Shapes are copied from C: the core keeps them. A shape given to C lives in C memory
	// owned by the exported value (a hook), as C may keep the pointer.
	// The core reads the shapes it only checks by value too (core.SmallShaper), where a slice
	// would escape through the interface.
	"array<usize>": {
		goType: jen.Index().Uintptr(), zero: jen.Nil(),
		argToC:      convert{spell: call("sizesToC")},
		resultFromC: convert{spell: call("shapeFromC"), fallible: true},
		argFromC:    convert{spell: call("sizesFromC")},
		resultToC:   convert{spell: func(s site) jen.Code { return jen.Id("e").Dot("exportShape").Call(s.value) }, fallible: true},
		byValue: &resultForm{method: "SmallShape", goType: core("SmallShape"), zero: core("SmallShape").Values(),
			fromC: convert{spell: call("smallShapeFromC"), fallible: true}},
	},
	// Movements share their layout with core.DataMovement: C views them in place.
	"array<struct.mts_data_movement_t>": {
		goType: jen.Index().Add(core("DataMovement")),
		argToC: convert{spell: func(s site) jen.Code {
			return jen.Id("sliceToC").Index(jen.Qual("C", "struct_mts_data_movement_t")).Call(s.value)
		}},
		argFromC: convert{spell: func(s site) jen.Code {
			return jen.Id("sliceFromC").Index(core("DataMovement")).Call(s.value, s.count)
		}},
	},
	"ptr<struct.DLManagedTensorVersioned>": {
		goType: jen.Op("*").Add(core("Tensor")), zero: jen.Nil(),
		argToC: convert{spell: call("tensorToCShared"), fallible: true},
		builtInC: &builtInC{
			describe: "exportTensor", goArgs: []string{"description", "data", "shape", "strides"},
			cParams: "struct mtsgo_tensor_export %[1]s, void *%[1]s_data, const int64_t *%[1]s_shape, const int64_t *%[1]s_strides",
			build:   "mtsgo_tensor_export_new(%[1]s, %[1]s_data, %[1]s_shape, %[1]s_strides)",
			release: "%[1]s->deleter(%[1]s)",
		},
		release:     func(v jen.Code) jen.Code { return jen.Add(v).Dot("Release").Call() },
		resultFromC: convert{spell: call("exportedTensor"), fallible: true},
		argFromC:    convert{spell: call("tensorFromC"), fallible: true},
		resultToC:   convert{spell: call("tensorToCShared"), fallible: true},
	},
	// An array given to a member is borrowed (the C helper passes a copy without destroy); an
	// array a member creates is owned by the caller.
	"vtable.mts_array_t": {
		goType: core("Array"), zero: jen.Nil(),
		argToC: convert{spell: call("borrowedAddress", message(func(s site) string {
			return fmt.Sprintf("the %s of %s must be a C array", words(s.param.Name), s.member)
		})), fallible: true},
		argFromC:  convert{spell: call("borrowedFromC")},
		resultToC: convert{spell: call("exportOwnedArray")},
	},
	// The data of another vtable than the one called: it must be of the same kind.
	"opaque": {
		goType: core("Array"),
		argToC: convert{spell: call("sameKindData", message(func(s site) string {
			return fmt.Sprintf("%s needs an %s array of the same kind", s.member, s.param.Name)
		})), fallible: true},
		argFromC: convert{spell: func(s site) jen.Code { return jen.Id("exportedOf").Call(s.value).Dot("array") }},
	},
}

// conversionOf finds the rule of a parameter, or fails naming the member.
func conversionOf(v *spec.Vtable, m *spec.Method, p *spec.Param) (conversion, error) {
	c, ok := conversions[p.T.String()]
	if !ok {
		return c, fmt.Errorf("cgo: %s.%s parameter %s: no Go conversion for %s", v.Name, m.Name, p.Name, p.T)
	}
	return c, nil
}

// memberParams splits a member's Go parameters into its arguments and its one result (nil
// when none), checking that each has a conversion.
func memberParams(v *spec.Vtable, m *spec.Method) (ins []*spec.Param, out *spec.Param, err error) {
	for _, p := range goParams(m) {
		if _, err := conversionOf(v, m, p); err != nil {
			return nil, nil, err
		}
		switch {
		case p.Direction != "out":
			ins = append(ins, p)
		case out != nil:
			return nil, nil, fmt.Errorf("cgo: %s.%s: one out parameter at most", v.Name, m.Name)
		default:
			out = p
		}
	}
	return ins, out, nil
}

// goParams lists the parameters a member's Go method has: not the context, not the counts.
func goParams(m *spec.Method) []*spec.Param {
	var out []*spec.Param
	for _, p := range m.Params[1:] {
		if len(p.CountFor) == 0 {
			out = append(out, p)
		}
	}
	return out
}

// countOf gives the count parameter of an array parameter, nil for other parameters.
func countOf(m *spec.Method, p *spec.Param) *spec.Param {
	for _, c := range m.Params {
		if len(p.Count) == 1 && c.Name == p.Count[0] {
			return c
		}
	}
	return nil
}

// methodInitialisms are the words core writes in capitals in method names only (implBlockDtype
// and the like keep goname's spelling).
var methodInitialisms = map[string]string{"dtype": "DType"}

// goMethod names the Go method of a member: as_dlpack gives AsDLPack, dtype DType.
func goMethod(m *spec.Method) string {
	var b strings.Builder
	for _, word := range strings.Split(m.Name, "_") {
		if up, ok := methodInitialisms[word]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(goname.Camel(word))
	}
	return b.String()
}

// valueHelper names the C helper giving a member's out parameters by value.
func valueHelper(v *spec.Vtable, m *spec.Method) string {
	return cname.Trampoline(v.Name, m.Name) + "_value"
}

// atAddress names the helper of a member with a status and no out parameter (addressHelper).
func atAddress(v *spec.Vtable, m *spec.Method) string {
	return cname.Trampoline(v.Name, m.Name) + "_at"
}

// creates is true for the members giving a new vtable, which Go calls through a value helper
// allocating it (creatingHelper).
func creates(m *spec.Method) bool {
	for _, p := range m.Params {
		if p.Direction == "out" && p.T.Kind == spec.KindVtable {
			return true
		}
	}
	return false
}

// byValue is true for the members Go calls through a value helper giving their out
// parameters: a status, and out parameters that are not vtables (creates).
func byValue(m *spec.Method) bool {
	outs := 0
	for _, p := range m.Params {
		if p.Direction == "out" {
			if p.T.Kind == spec.KindVtable {
				return false
			}
			outs++
		}
	}
	return outs > 0 && m.Returns.Convention == "status"
}

// generated lists the members of a vtable generated on both sides.
func generated(v *spec.Vtable, g goVtable) []*spec.Method {
	var out []*spec.Method
	for _, m := range v.Methods {
		if !slices.Contains(g.handWritten, m.Name) {
			out = append(out, m)
		}
	}
	return out
}
