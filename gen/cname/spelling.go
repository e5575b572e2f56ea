// Package cname decides every name and spelling the generators print in C: the spelling of
// each type, prototypes, and the mtsgo_* symbols of the export layer (symbols.go).
package cname

import (
	"strings"

	"github.com/metatensor-go/metatensor/gen/spec"
)

// The C spelling of types follows from the semantic flags (spec/README.md): objects of an
// always_const kind are const everywhere; other pointees are const for `in` parameters that
// are not `mutable`; an out parameter adds one level of pointer. Struct members are never
// const. The ABI tests compile the reference's prototypes against the result, so any rule
// that drifts from the reference fails there.

// valueType spells a value of type t. constPointee qualifies what a pointer type points to;
// it has no effect on types passed by value.
func valueType(t *spec.Type, constPointee bool) string {
	switch t.Kind {
	case spec.KindString:
		return "const char *"
	case spec.KindOpaque:
		return qualify("void", constPointee) + " *"
	case spec.KindObject:
		return qualify("struct "+t.Object.CName, constPointee || t.Object.AlwaysConst) + " *"
	case spec.KindPtr:
		return pointerTo(elementType(t.Elem, constPointee))
	}
	return baseType(t)
}

// elementType spells the pointee of a pointer or the element of an array.
func elementType(t *spec.Type, constq bool) string {
	if t.IsPointer() {
		return valueType(t, constq)
	}
	return qualify(baseType(t), constq)
}

// baseType spells the types that are passed by value.
func baseType(t *spec.Type) string {
	switch t.Kind {
	case spec.KindPrim:
		return Primitive(t.Name)
	case spec.KindEnum:
		return t.Enum.Name
	case spec.KindAlias:
		return t.Alias.Name
	case spec.KindStruct:
		if t.Struct.Tagged {
			return "struct " + t.Struct.Name
		}
		return t.Struct.Name
	case spec.KindVtable:
		return "struct " + t.Vtable.Name
	case spec.KindCallback:
		return t.Callback.Name
	}
	panic("baseType: not a value type: " + t.String())
}

func qualify(spelling string, constq bool) string {
	if constq {
		return "const " + spelling
	}
	return spelling
}

// pointerTo adds one level of pointer, keeping the "T *" / "T **" style of the reference.
func pointerTo(spelling string) string {
	if strings.HasSuffix(spelling, "*") {
		return spelling + "*"
	}
	return spelling + " *"
}

// constPointer adds one level of pointer to a const pointer: "const char *" becomes
// "const char *const *"; for non-pointer elements the const already sits in front.
func constPointer(element string, elementIsPointer bool) string {
	if elementIsPointer {
		return element + "const *"
	}
	return pointerTo(element)
}

// CType spells the C type of a parameter or struct member.
func CType(p *spec.Param) string {
	t := p.T
	constq := p.Direction == "in" && !p.Mutable && !p.Member
	switch t.Kind {
	case spec.KindArray:
		switch p.Direction {
		case "inout":
			return pointerTo(elementType(t.Elem, false))
		case "out":
			return pointerTo(constPointer(elementType(t.Elem, true), t.Elem.IsPointer()))
		}
		if p.Mutable || p.Member {
			return pointerTo(elementType(t.Elem, false))
		}
		return constPointer(elementType(t.Elem, true), t.Elem.IsPointer())
	case spec.KindBuffer:
		return pointerTo(elementType(t.Elem, false))
	case spec.KindGrowable:
		return pointerTo(pointerTo(elementType(t.Elem, false)))
	}
	spelling := valueType(t, constq)
	if p.Direction != "in" {
		return pointerTo(spelling)
	}
	return spelling
}

// CDecl spells a parameter or member declaration, name included; inline callbacks are
// spelled in place as function pointers.
func CDecl(p *spec.Param) string {
	if p.T.Kind == spec.KindCallback && p.T.Callback.Inline {
		cb := p.T.Callback
		return CReturn(&cb.Returns) + " (*" + p.Name + ")(" + CParams(cb.Params) + ")"
	}
	return Join(CType(p), p.Name)
}

// CParams spells a parameter list; an empty list is "void".
func CParams(params []*spec.Param) string {
	if len(params) == 0 {
		return "void"
	}
	decls := make([]string, len(params))
	for i, p := range params {
		decls[i] = CDecl(p)
	}
	return strings.Join(decls, ", ")
}

// CReturn spells the return type of a function, callback or method.
func CReturn(r *spec.Return) string {
	switch r.Convention {
	case "status":
		return "mts_status_t"
	case "void":
		return "void"
	case "string":
		return "const char *"
	case "object":
		return valueType(r.T, false)
	}
	return valueType(r.T, !r.Mutable)
}

// CFunction spells a prototype without the final semicolon.
func CFunction(name string, r *spec.Return, params []*spec.Param) string {
	return Join(CReturn(r), name) + "(" + CParams(params) + ")"
}

// CFunctionPointer spells a member or typedef holding a pointer to such a function.
func CFunctionPointer(name string, r *spec.Return, params []*spec.Param) string {
	ret := CReturn(r)
	sep := " "
	if strings.HasSuffix(ret, "*") {
		sep = ""
	}
	return ret + sep + "(*" + name + ")(" + CParams(params) + ")"
}

// Join puts a name after a type, with no space after a '*'.
func Join(spelling, name string) string {
	if strings.HasSuffix(spelling, "*") {
		return spelling + name
	}
	return spelling + " " + name
}

// primitives are the C spellings of the primitives of the grammar.
var primitives = map[string]string{
	"void": "void", "bool": "bool", "char": "char", "int": "int",
	"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
	"uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
	"usize": "uintptr_t",
}

// Primitive spells a primitive of the grammar in C: usize is uintptr_t.
func Primitive(name string) string {
	return primitives[name]
}
