package spec

import "strings"

// The C spelling of types follows from the semantic flags (spec/README.md): objects of an
// always_const kind are const everywhere; other pointees are const for `in` parameters that
// are not `mutable`; an out parameter adds one level of pointer. Struct members are never
// const. The ABI tests compile the reference's prototypes against the result, so any rule
// that drifts from the reference fails there.

// valueType spells a value of type t. constPointee qualifies what a pointer type points to;
// it has no effect on types passed by value.
func valueType(t *Type, constPointee bool) string {
	switch t.Kind {
	case KindString:
		return "const char *"
	case KindOpaque:
		return qualify("void", constPointee) + " *"
	case KindObject:
		return qualify("struct "+t.Object.CName, constPointee || t.Object.AlwaysConst) + " *"
	case KindPtr:
		return pointerTo(elementType(t.Elem, constPointee))
	}
	return baseType(t)
}

// elementType spells the pointee of a pointer or the element of an array.
func elementType(t *Type, constq bool) string {
	if t.IsPointer() {
		return valueType(t, constq)
	}
	return qualify(baseType(t), constq)
}

// baseType spells the types that are passed by value.
func baseType(t *Type) string {
	switch t.Kind {
	case KindPrim:
		return Primitives[t.Name]
	case KindEnum:
		return t.Enum.Name
	case KindAlias:
		return t.Alias.Name
	case KindStruct:
		if t.Struct.Tagged {
			return "struct " + t.Struct.Name
		}
		return t.Struct.Name
	case KindVtable:
		return "struct " + t.Vtable.Name
	case KindCallback:
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
func CType(p *Param) string {
	t := p.T
	constq := p.Direction == "in" && !p.Mutable && !p.Member
	switch t.Kind {
	case KindArray:
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
	case KindBuffer:
		return pointerTo(elementType(t.Elem, false))
	case KindGrowable:
		return pointerTo(pointerTo(elementType(t.Elem, false)))
	}
	spelling := valueType(t, constq)
	if p.Direction != "in" {
		return pointerTo(spelling)
	}
	return spelling
}

// PassedByPointer is true when the C parameter is a pointer: a pointer type, or any out or
// inout value.
func PassedByPointer(p *Param) bool {
	return p.T.IsPointer() || p.Direction != "in"
}

// CDecl spells a parameter or member declaration, name included; inline callbacks are
// spelled in place as function pointers.
func CDecl(p *Param) string {
	if p.T.Kind == KindCallback && p.T.Callback.Inline {
		cb := p.T.Callback
		return CReturn(&cb.Returns) + " (*" + p.Name + ")(" + CParams(cb.Params) + ")"
	}
	return Join(CType(p), p.Name)
}

// CParams spells a parameter list; an empty list is "void".
func CParams(params []*Param) string {
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
func CReturn(r *Return) string {
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
func CFunction(name string, r *Return, params []*Param) string {
	return Join(CReturn(r), name) + "(" + CParams(params) + ")"
}

// CFunctionPointer spells a member or typedef holding a pointer to such a function.
func CFunctionPointer(name string, r *Return, params []*Param) string {
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

// CountParams lists the count parameters of an array parameter.
func (api *API) CountParams(params []*Param, array *Param) []*Param {
	var out []*Param
	for _, name := range array.Count {
		for _, p := range params {
			if p.Name == name {
				out = append(out, p)
			}
		}
	}
	return out
}
