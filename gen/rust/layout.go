package rust

import "github.com/metatensor-go/metatensor/gen/spec"

// The C layout of the declared structs on 64-bit targets, which the crate checks at compile
// time: a member spelled wrongly in Rust moves the ones after it, or changes the size.

// pointerSize is the size and alignment of any pointer, function pointers included.
const pointerSize = 8

var primitiveSizes = map[string]int{
	"bool": 1, "char": 1, "int": 4, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
	"uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8, "usize": 8,
}

// layout is the size and alignment of a value.
type layout struct{ size, align int }

func typeLayout(t *spec.Type) layout {
	switch {
	case t.IsPointer():
		return layout{pointerSize, pointerSize}
	case t.Kind == spec.KindPrim:
		size := primitiveSizes[t.Name]
		return layout{size, size}
	case t.Kind == spec.KindEnum:
		size := 4 // a C enum without a fixed underlying type is an int
		if t.Enum.Underlying != "" {
			size = primitiveSizes[t.Enum.Underlying]
		}
		return layout{size, size}
	case t.Kind == spec.KindAlias:
		return typeLayout(t.Alias.T)
	case t.Kind == spec.KindStruct:
		l, _ := structLayout(t.Struct.Members)
		return l
	case t.Kind == spec.KindVtable:
		return layout{pointerSize * (1 + len(t.Vtable.Methods)), pointerSize}
	}
	panic("typeLayout: no layout for " + t.String())
}

// structLayout places members one after the other, each at the next multiple of its
// alignment, and gives the struct's layout and the offset of each member.
func structLayout(members []*spec.Param) (layout, []int) {
	offsets := make([]int, len(members))
	whole := layout{0, 1}
	for i, m := range members {
		l := typeLayout(m.T)
		offsets[i] = roundUp(whole.size, l.align)
		whole.size = offsets[i] + l.size
		whole.align = max(whole.align, l.align)
	}
	whole.size = roundUp(whole.size, whole.align)
	return whole, offsets
}

func roundUp(n, multiple int) int {
	return (n + multiple - 1) / multiple * multiple
}

// layoutChecks writes the compile-time checks of a struct's size, alignment and offsets.
func (p *printer) layoutChecks(name string, l layout, members []string, offsets []int) {
	p.line("")
	p.line("#[cfg(target_pointer_width = \"64\")]")
	p.line("const _: () = {")
	p.line("    assert!(std::mem::size_of::<%s>() == %d);", name, l.size)
	p.line("    assert!(std::mem::align_of::<%s>() == %d);", name, l.align)
	for i, member := range members {
		p.line("    assert!(std::mem::offset_of!(%s, %s) == %d);", name, member, offsets[i])
	}
	p.line("};")
}
