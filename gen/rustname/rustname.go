// Package rustname decides every name and spelling the Rust generator (gen/rust) prints: the
// Rust type of each parameter, member and return, the crate the DLPack types come from, and
// the file names of the crate.
package rustname

import (
	"strings"

	"github.com/metatensor-go/metatensor/gen/cname"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// The Rust spelling follows the C spelling of gen/cname rule for rule: a C pointer to a const
// pointee is *const, any other pointer *mut. The items keep their C names, as in the
// reference's metatensor-sys, so that code written against it compiles unchanged.

// DLPackCrate is where the items of the dlpack header come from: the reference's sys crate
// takes them from the dlpk crate rather than declaring its own, and users mix the two.
const DLPackCrate = "dlpk::sys"

// DLPackHeader is the spec header whose items are imported from DLPackCrate.
const DLPackHeader = "dlpack"

// Imported is true for the items that are imported rather than declared.
func Imported(header string) bool {
	return header == DLPackHeader
}

// primitives are the Rust spellings of the primitives of the grammar.
var primitives = map[string]string{
	"void": raw + "c_void", "bool": "bool", "char": raw + "c_char", "int": raw + "c_int",
	"int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
	"uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
	"usize": "usize",
}

// raw is the module of the C-only primitives, spelled in full so that no import goes unused.
const raw = "std::os::raw::"

// Primitive spells a primitive of the grammar; the C-only ones come from std::os::raw.
func Primitive(name string) string {
	return primitives[name]
}

func pointer(constq bool, pointee string) string {
	if constq {
		return "*const " + pointee
	}
	return "*mut " + pointee
}

// valueType spells a value of type t; constPointee qualifies what a pointer type points to.
func valueType(t *spec.Type, constPointee bool) string {
	switch t.Kind {
	case spec.KindString:
		return "*const " + raw + "c_char"
	case spec.KindOpaque:
		return pointer(constPointee, raw+"c_void")
	case spec.KindObject:
		return pointer(constPointee || t.Object.AlwaysConst, t.Object.CName)
	case spec.KindPtr:
		return pointerTo(t.Elem, constPointee)
	}
	return baseType(t)
}

// pointerTo is C's "T *": const when the element is a const non-pointer; a pointer element
// carries the const on its own pointee.
func pointerTo(elem *spec.Type, constq bool) string {
	if elem.IsPointer() {
		return pointer(false, valueType(elem, constq))
	}
	return pointer(constq, baseType(elem))
}

// constPointerTo is C's "const T *" and "const T *const *".
func constPointerTo(elem *spec.Type) string {
	if elem.IsPointer() {
		return pointer(true, valueType(elem, true))
	}
	return pointer(true, baseType(elem))
}

// baseType spells the types that are passed by value: Rust names every item as C does, without
// C's struct tags.
func baseType(t *spec.Type) string {
	switch t.Kind {
	case spec.KindPrim:
		return Primitive(t.Name)
	case spec.KindEnum, spec.KindAlias, spec.KindStruct, spec.KindVtable, spec.KindCallback:
		return t.Name
	}
	panic("baseType: not a value type: " + t.String())
}

// Type spells the Rust type of a parameter or struct member; inline callbacks are spelled
// in place.
func Type(p *spec.Param) string {
	t := p.T
	switch t.Kind {
	case spec.KindCallback:
		if t.Callback.Inline {
			return FunctionPointer(&t.Callback.Returns, t.Callback.Params)
		}
	case spec.KindArray:
		switch {
		case p.Direction == "out":
			return pointer(false, constPointerTo(t.Elem))
		case p.Direction == "inout" || p.Mutable || p.Member:
			return pointerTo(t.Elem, false)
		}
		return constPointerTo(t.Elem)
	case spec.KindBuffer:
		return pointerTo(t.Elem, false)
	case spec.KindGrowable:
		return pointer(false, pointerTo(t.Elem, false))
	}
	spelling := valueType(t, p.Direction == "in" && !p.Mutable && !p.Member)
	if p.Direction != "in" {
		return pointer(false, spelling)
	}
	return spelling
}

// Return spells the " -> T" of a function, callback or method; empty for void.
func Return(r *spec.Return) string {
	if t := ReturnType(r); t != "" {
		return " -> " + t
	}
	return ""
}

// ReturnType spells the type a function, callback or method returns; empty for void.
func ReturnType(r *spec.Return) string {
	switch r.Convention {
	case "status":
		return StatusType
	case "void":
		return ""
	case "string":
		return "*const " + raw + "c_char"
	case "object":
		return valueType(r.T, false)
	}
	return valueType(r.T, !r.Mutable)
}

// StatusType is the type of the status every fallible function returns.
const StatusType = "mts_status_t"

// Params spells a parameter list, without the parentheses.
func Params(params []*spec.Param) string {
	decls := make([]string, len(params))
	for i, p := range params {
		decls[i] = Ident(p.Name) + ": " + Type(p)
	}
	return strings.Join(decls, ", ")
}

// FunctionPointer spells a nullable C function pointer, as bindgen does: Option of an unsafe
// extern "C" fn.
func FunctionPointer(r *spec.Return, params []*spec.Param) string {
	return "Option<unsafe extern \"C\" fn(" + Params(params) + ")" + Return(r) + ">"
}

// keywords are the Rust keywords a C name could collide with.
var keywords = map[string]bool{
	"as": true, "break": true, "const": true, "continue": true, "crate": true, "else": true,
	"enum": true, "extern": true, "false": true, "fn": true, "for": true, "if": true,
	"impl": true, "in": true, "let": true, "loop": true, "match": true, "mod": true,
	"move": true, "mut": true, "pub": true, "ref": true, "return": true, "self": true,
	"Self": true, "static": true, "struct": true, "super": true, "trait": true, "true": true,
	"type": true, "unsafe": true, "use": true, "where": true, "while": true, "async": true,
	"await": true, "dyn": true, "abstract": true, "become": true, "box": true, "do": true,
	"final": true, "macro": true, "override": true, "priv": true, "typeof": true,
	"unsized": true, "virtual": true, "yield": true, "try": true, "gen": true,
}

// Ident spells a C name as a Rust identifier: keywords become raw identifiers, except self,
// which can not be one and gets a trailing underscore.
func Ident(name string) string {
	switch {
	case name == "self" || name == "Self" || name == "super" || name == "crate":
		return name + "_"
	case keywords[name]:
		return "r#" + name
	}
	return name
}

// The files of the crates, relative to the repository root.
const (
	SysCrateDir = "bindings/rust/metatensor-sys"
	// SysBindings is the generated module of every item of the ABI.
	SysBindings = SysCrateDir + "/src/c_api.rs"
	// CrateDir is the safe crate, metatensor.
	CrateDir = "bindings/rust/metatensor"
	// CheckedCalls is the generated module of the safe crate's checked calls.
	CheckedCalls = CrateDir + "/src/checked_gen.rs"
)

// Checked names the checked call of a C function in the safe crate: mts_labels_union gives
// labels_union, mtsx_block_reduce_over_samples x_block_reduce_over_samples.
func Checked(function string) string {
	return Ident(cname.Short(function))
}

// The hand-written functions of the safe crate (src/errors.rs) that turn a failed call into
// an Error: CheckStatus an error status, CheckPointer a NULL object.
const (
	CheckStatus  = "check_status"
	CheckPointer = "check_ptr"
	// ErrorType is the error of every checked call.
	ErrorType = "Error"
)

// Opaque is the spelling of the context pointer of a vtable.
const Opaque = "*mut " + raw + "c_void"

// SysLinkName is the library the crate links: libmetatensor.so.
const SysLinkName = "metatensor"
