package cgo

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/metatensor-go/metatensor/gen/cname"
	"github.com/metatensor-go/metatensor/gen/goname"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// The export side: C calling a Go value through a vtable the library makes. Each member is a
// static C function with the vtable's exact (const) prototype, forwarding to a Go export that
// converts the arguments, calls the Go method and stores its result for C.

// vtableExports writes the Go exports of every mapped vtable.
func vtableExports(api *spec.API) ([]byte, error) {
	return goMembers(api, "vtable exports", func(f *jen.File, v *spec.Vtable, m *spec.Method, g goVtable) error {
		fn, err := exportMember(v, m, g)
		if err != nil {
			return err
		}
		f.Commentf("%s runs %s.%s for the C vtable of a Go value.", g.export+m.Name, v.Name, m.Name)
		f.Comment("")
		f.Comment("//export " + g.export + m.Name)
		f.Add(fn)
		return nil
	})
}

// exportedName names a Go local holding a converted C parameter.
func exportedName(p *spec.Param) string {
	name := goname.LowerCamel(p.Name)
	if name == p.Name {
		name += "Value"
	}
	return name
}

func exportMember(v *spec.Vtable, m *spec.Method, g goVtable) (jen.Code, error) {
	member := v.Name + "." + m.Name
	var params, body, args []jen.Code
	for _, p := range m.Params {
		if p.T.Kind == spec.KindOpaque {
			params = append(params, jen.Id(p.Name).Qual("C", "uintptr_t"))
		} else {
			params = append(params, jen.Id(p.Name).Add(cgoParam(p)))
		}
	}
	ins, out, err := memberParams(v, m)
	if err != nil {
		return nil, err
	}
	for _, p := range ins {
		c := conversions[p.T.String()]
		if p.T.Kind == spec.KindPtr && !p.Nullable {
			body = append(body, jen.If(jen.Id(p.Name).Op("==").Nil()).Block(jen.Return(
				jen.Qual(corePackage, "Errorf").Call(jen.Qual(corePackage, "InvalidParameterError"), jen.Lit("got invalid NULL pointer for "+p.Name)))))
		}
		s := site{value: jen.Id(p.Name), param: p, member: member}
		if count := countOf(m, p); count != nil {
			s.count = jen.Id(count.Name)
		}
		value := c.argFromC.spell(s)
		if c.argFromC.fallible {
			body = append(body,
				jen.List(jen.Id(exportedName(p)), jen.Err()).Op(":=").Add(value),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
			value = jen.Id(exportedName(p))
		}
		args = append(args, value)
	}
	method := jen.Id("e").Dot("array").Dot(goMethod(m)).Call(args...)
	if out == nil {
		body = append(body, jen.Return(method))
	} else {
		c := conversions[out.T.String()]
		stored := c.resultToC.spell(site{value: jen.Id("value"), param: out, member: member})
		body = append(body, jen.List(jen.Id("value"), jen.Err()).Op(":=").Add(method))
		switch {
		case c.plain:
			body = append(body, jen.Op("*").Id(out.Name).Op("=").Add(stored), jen.Return(jen.Err()))
		default:
			body = append(body, jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
			if c.resultToC.fallible {
				body = append(body,
					jen.List(jen.Id("stored"), jen.Err()).Op(":=").Add(stored),
					jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
				stored = jen.Id("stored")
			}
			// Results holding pointers go to the caller's memory through storeOut.
			body = append(body, jen.Id("storeOut").Call(jen.Id(out.Name), stored))
			if count := countOf(m, out); count != nil {
				body = append(body, jen.Op("*").Id(count.Name).Op("=").Qual("C", "uintptr_t").Call(jen.Len(jen.Id("value"))))
			}
			body = append(body, jen.Return(jen.Nil()))
		}
	}
	closure := jen.Func().Params(jen.Id("e").Op("*").Id(g.exported)).Error().Block(body...)
	return jen.Func().Id(g.export+m.Name).Params(params...).Qual("C", "mts_status_t").Block(
		jen.Return(jen.Id(g.call).Call(jen.Lit(m.Name), jen.Id(m.Params[0].Name), closure))), nil
}

// shims writes the C side: the members of the vtable of Go values, its constructor, and how
// to tell such a vtable apart.
func shims(api *spec.API) []byte {
	b := cFile("#include <stdlib.h>\n\n#include \"_cgo_export.h\"\n#include \"mtsgo.h\"")
	for _, v := range api.Vtables {
		if g, ok := goVtables[v.Name]; ok {
			shimsOf(b, v, g, invalidParameterPrefix(api))
		}
	}
	return []byte(b.String())
}

// shimsOf writes the C side of one vtable.
func shimsOf(b *strings.Builder, v *spec.Vtable, g goVtable, prefix string) {
	block := "struct " + g.constructor
	magic := strings.ToUpper(g.constructor) + "_MAGIC"
	// The data pointer is a small C block holding the cgo handle: a real, unique address,
	// as callers expect, whose magic tells the library's own vtables apart.
	fmt.Fprintf(b, "\n#define %s 0x%xull /* %q */\n\n%s {\n    uint64_t magic;\n    uintptr_t handle;\n};\n\n",
		magic, g.magic, g.magic, block)
	fmt.Fprintf(b, "#define HANDLE(%s) (((const %s *)(%s))->handle)\n", v.Data.Name, block, v.Data.Name)
	var members []string
	identity := ""
	for _, m := range v.Methods {
		shim := g.shim + m.Name
		fmt.Fprintf(b, "\n/* %s.%s, through a Go export. */\nstatic %s {\n", v.Name, m.Name, cname.CFunction(shim, &m.Returns, m.Params))
		var args []string
		for i, p := range m.Params {
			if p.T.Kind != spec.KindOpaque {
				args = append(args, castForExport(p, p.Name))
				continue
			}
			if i > 0 {
				fmt.Fprintf(b, "    if (%s == NULL || ((const %s *)%s)->magic != %s) {\n        return mtsgo_fail(MTS_INVALID_PARAMETER_ERROR, %q);\n    }\n",
					p.Name, block, p.Name, magic, fmt.Sprintf("%sthe %s of %s must be an array of the same kind as the %s", prefix, p.Name, m.Name, m.Params[0].Name))
			}
			args = append(args, "HANDLE("+p.Name+")")
		}
		fmt.Fprintf(b, "    %s%s%s(%s);\n}\n", returnKeyword(&m.Returns), g.export, m.Name, strings.Join(args, ", "))
		if m.Nullable {
			// Only vtables that own their value release it.
			members = append(members, fmt.Sprintf("        .%s = owning ? %s : NULL,\n", m.Name, shim))
			continue
		}
		if identity == "" {
			identity = shim
		}
		members = append(members, fmt.Sprintf("        .%s = %s,\n", m.Name, shim))
	}
	fmt.Fprintf(b, "\nstruct %s %s(uintptr_t handle, int owning) {\n    %s *block = malloc(sizeof(%s));\n", v.Name, g.constructor, block, block)
	fmt.Fprintf(b, "    if (block == NULL) {\n        struct %s nothing = {0};\n        return nothing;\n    }\n", v.Name)
	fmt.Fprintf(b, "    block->magic = %s;\n    block->handle = handle;\n    struct %s array = {\n        .%s = block,\n%s    };\n    return array;\n}\n",
		magic, v.Name, v.Data.Name, strings.Join(members, ""))
	fmt.Fprintf(b, "\nconst void *%s_origin(void) {\n    return (const void *)%s;\n}\n", g.constructor, identity)
	fmt.Fprintf(b, "\nuintptr_t %s_handle(const void *%s) {\n    return HANDLE(%s);\n}\n", g.constructor, v.Data.Name, v.Data.Name)
	b.WriteString("\n#undef HANDLE\n")
}
