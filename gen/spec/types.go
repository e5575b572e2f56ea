package spec

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Kind is the head of a type expression.
type Kind int

// The kinds of the closed type grammar of spec/README.md.
const (
	KindPrim Kind = iota
	KindString
	KindOpaque
	KindEnum
	KindAlias
	KindStruct
	KindVtable
	KindCallback
	KindObject
	KindArray
	KindBuffer
	KindGrowable
	KindPtr
)

// Type is a parsed, resolved type expression.
type Type struct {
	Kind Kind
	// Name is the primitive name, or the referenced item's name for named kinds.
	Name string
	// Elem is the element type of array, buffer, growable and ptr.
	Elem *Type

	Enum     *Enum
	Alias    *Alias
	Struct   *Struct
	Vtable   *Vtable
	Callback *Callback
	Object   *Object
}

// primitives are the primitive types of the grammar (their C spellings: gen/cname).
var primitives = []string{"void", "bool", "char", "int", "int8", "int16", "int32", "int64",
	"uint8", "uint16", "uint32", "uint64", "usize"}

var namedKinds = map[string]Kind{
	"enum": KindEnum, "alias": KindAlias, "struct": KindStruct,
	"vtable": KindVtable, "callback": KindCallback, "object": KindObject,
}

var wrapperKinds = map[string]Kind{
	"array": KindArray, "buffer": KindBuffer, "growable": KindGrowable, "ptr": KindPtr,
}

// ParseType parses a type expression without resolving names.
func ParseType(text string) (*Type, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("empty type")
	}
	if open := strings.IndexByte(text, '<'); open >= 0 {
		if !strings.HasSuffix(text, ">") {
			return nil, fmt.Errorf("type %q: missing closing '>'", text)
		}
		kind, ok := wrapperKinds[text[:open]]
		if !ok {
			return nil, fmt.Errorf("type %q: unknown wrapper %q (want array, buffer, growable or ptr)", text, text[:open])
		}
		elem, err := ParseType(text[open+1 : len(text)-1])
		if err != nil {
			return nil, err
		}
		return &Type{Kind: kind, Elem: elem}, nil
	}
	if dot := strings.IndexByte(text, '.'); dot >= 0 {
		kind, ok := namedKinds[text[:dot]]
		if !ok || dot == len(text)-1 {
			return nil, fmt.Errorf("type %q: unknown kind %q (want enum, alias, struct, vtable, callback or object)", text, text[:dot])
		}
		return &Type{Kind: kind, Name: text[dot+1:]}, nil
	}
	switch text {
	case "string":
		return &Type{Kind: KindString}, nil
	case "opaque":
		return &Type{Kind: KindOpaque}, nil
	}
	if slices.Contains(primitives, text) {
		return &Type{Kind: KindPrim, Name: text}, nil
	}
	return nil, fmt.Errorf("unknown type %q", text)
}

// IsCollection is true for the kinds that pair a pointer with a count.
func (t *Type) IsCollection() bool {
	return t.Kind == KindArray || t.Kind == KindBuffer || t.Kind == KindGrowable
}

// IsPointer is true when a value of this type is a C pointer.
func (t *Type) IsPointer() bool {
	switch t.Kind {
	case KindString, KindOpaque, KindObject, KindPtr, KindArray, KindBuffer, KindGrowable:
		return true
	case KindCallback:
		return true
	}
	return false
}

// String gives the type back in the grammar's notation.
func (t *Type) String() string {
	switch t.Kind {
	case KindPrim:
		return t.Name
	case KindString:
		return "string"
	case KindOpaque:
		return "opaque"
	case KindArray, KindBuffer, KindGrowable, KindPtr:
		for name, k := range wrapperKinds {
			if k == t.Kind {
				return name + "<" + t.Elem.String() + ">"
			}
		}
	}
	for name, k := range namedKinds {
		if k == t.Kind {
			return name + "." + t.Name
		}
	}
	return "?"
}

// UnmarshalYAML accepts a single parameter name or a list of names.
func (c *CountRef) UnmarshalYAML(node *yaml.Node) error {
	switch node.Kind {
	case yaml.ScalarNode:
		*c = CountRef{node.Value}
		return nil
	case yaml.SequenceNode:
		var names []string
		if err := node.Decode(&names); err != nil {
			return err
		}
		*c = names
		return nil
	}
	return fmt.Errorf("line %d: count must be a parameter name or a list of names", node.Line)
}

// PassedByPointer is true when the C parameter is a pointer: a pointer type, or any out or
// inout value.
func PassedByPointer(p *Param) bool {
	return p.T.IsPointer() || p.Direction != "in"
}
