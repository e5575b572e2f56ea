package cgo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/metatensor-go/metatensor/gen/cheader"
	"github.com/metatensor-go/metatensor/gen/cname"
	"github.com/metatensor-go/metatensor/gen/goname"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// The adaptor side: Go calling a C caller's vtable. Each member's Go method checks that the
// member is set, converts its arguments, calls the trampoline and converts the result; a
// failed status becomes failed(member) (hand-written, like missing, the adaptor of a created
// vtable and the hooks the conversions name).

// valueHelpers writes, for every member with out parameters, a C helper returning them by
// value with the status: a pointer to a Go variable passed to C makes the variable escape to
// the Go heap, one allocation per call. A vtable the member creates is allocated by the
// helper (creatingHelper), in the same call into C; a member with a status only has a helper
// too (addressHelper). The vtable called arrives as its address (selfParam): it is always in
// C memory, and cgo would check a pointer argument on every call, which costs a quarter of the
// call.
func valueHelpers(api *spec.API) []byte {
	b := cFile("#ifndef MTSGO_TRAMPOLINE_VALUES_GEN_H\n#define MTSGO_TRAMPOLINE_VALUES_GEN_H\n\n#include <stdlib.h>\n\n#include \"trampolines_gen.h\"")
	for _, v := range api.Vtables {
		if slices.ContainsFunc(v.Methods, creates) {
			fmt.Fprintf(b, "\n/* The allocator of the %s structs the library makes, written by hand. */\n", v.Name)
			fmt.Fprintf(b, "struct %s *%s(void);\nvoid %s(struct %s *created);\n", v.Name, cname.StructNew(v.Name), cname.StructFree(v.Name), v.Name)
		}
		for _, m := range v.Methods {
			if creates(m) {
				creatingHelper(b, v, m)
				continue
			}
			if !byValue(m) {
				if m.Returns.Convention == "status" {
					addressHelper(b, v, m)
				}
				continue
			}
			helper := valueHelper(v, m)
			result := strings.TrimSuffix(helper, "_value") + "_result"
			fmt.Fprintf(b, "\n/* The out parameters of %s.%s and its status. */\nstruct %s {\n    mts_status_t status;\n", v.Name, m.Name, result)
			params := []string{selfParam}
			args := []string{selfArg(v)}
			for _, p := range m.Params[1:] {
				if p.Direction == "out" {
					fmt.Fprintf(b, "    %s;\n", cname.Join(strings.TrimSpace(strings.TrimSuffix(cname.CType(p), "*")), p.Name))
					args = append(args, "&result."+p.Name)
					continue
				}
				params = append(params, cname.CDecl(p))
				args = append(args, p.Name)
			}
			fmt.Fprintf(b, "};\n\nstatic inline struct %s %s(%s) {\n    struct %s result = {0};\n    result.status = %s(%s);\n    return result;\n}\n",
				result, helper, strings.Join(params, ", "), result, cname.Trampoline(v.Name, m.Name), strings.Join(args, ", "))
		}
	}
	b.WriteString("\n#endif\n")
	return []byte(b.String())
}

// addressHelper writes the helper of a member with a status and no out parameter: the
// trampoline, the vtable called given by its address (selfParam) like the value helpers'.
func addressHelper(b *strings.Builder, v *spec.Vtable, m *spec.Method) {
	params := []string{selfParam}
	args := []string{selfArg(v)}
	for _, p := range m.Params[1:] {
		params = append(params, cname.CDecl(p))
		args = append(args, p.Name)
	}
	fmt.Fprintf(b, "\n/* %s.%s, the vtable given by its address. */\nstatic inline mts_status_t %s(%s) {\n    return %s(%s);\n}\n",
		v.Name, m.Name, atAddress(v, m), strings.Join(params, ", "), cname.Trampoline(v.Name, m.Name), strings.Join(args, ", "))
}

// selfParam is the helpers' first parameter: the address of the vtable called.
const selfParam = "uintptr_t array_address"

// selfArg is the vtable called, as its trampoline takes it.
func selfArg(v *spec.Vtable) string {
	return "(const struct " + v.Name + " *)array_address"
}

// creatingHelper writes the value helper of a member creating a vtable: the new struct comes
// from the binding's allocator (cname.StructNew, written by hand) before the call (the member
// is not called when memory runs out) and goes back to it (cname.StructFree) when the call
// fails, so Go receives it only on success. A vtable argument arrives as the address of
// the borrowed struct, in C memory like the vtable called (no pointer for cgo to check, nor
// every member of a struct passed by value); the member receives a copy without destroy. An argument built in C
// (builtInC) arrives as Go's description, built first; result.<name>_built tells Go whether
// it was.
func creatingHelper(b *strings.Builder, v *spec.Vtable, m *spec.Method) {
	helper := valueHelper(v, m)
	result := strings.TrimSuffix(helper, "_value") + "_result"
	var created string
	params := []string{selfParam}
	args := []string{selfArg(v)}
	var views, built, fields []string
	for _, p := range m.Params[1:] {
		switch {
		case p.Direction == "out":
			created = p.Name
			args = append(args, "result."+p.Name)
		case conversions[p.T.String()].builtInC != nil:
			c := conversions[p.T.String()].builtInC
			params = append(params, fmt.Sprintf(c.cParams, p.Name))
			fields = append(fields, fmt.Sprintf("    int %s_built;\n", p.Name))
			built = append(built, fmt.Sprintf("    %s = %s;\n    if (%s_c == NULL) {\n        return result;\n    }\n    result.%s_built = 1;\n",
				cname.Join(cname.CType(p), p.Name+"_c"), fmt.Sprintf(c.build, p.Name), p.Name, p.Name))
			args = append(args, p.Name+"_c")
		case p.T.Kind == spec.KindVtable:
			params = append(params, "uintptr_t "+p.Name+"_address")
			views = append(views, fmt.Sprintf("    struct %s %s_view = *(const struct %s *)%s_address;\n    %s_view.destroy = NULL;\n", v.Name, p.Name, v.Name, p.Name, p.Name))
			args = append(args, p.Name+"_view")
		default:
			params = append(params, cname.CDecl(p))
			args = append(args, p.Name)
		}
	}
	fmt.Fprintf(b, "\n/* %s.%s, with %s allocated here: NULL when the call failed or memory ran out. */\n", v.Name, m.Name, created)
	fmt.Fprintf(b, "struct %s {\n    mts_status_t status;\n    struct %s *%s;\n%s};\n\n", result, v.Name, created, strings.Join(fields, ""))
	fmt.Fprintf(b, "static inline struct %s %s(%s) {\n    struct %s result = {0};\n", result, helper, strings.Join(params, ", "), result)
	b.WriteString(strings.Join(views, ""))
	b.WriteString(strings.Join(built, ""))
	fmt.Fprintf(b, "    result.%s = %s();\n    if (result.%s == NULL) {\n", created, cname.StructNew(v.Name), created)
	for _, p := range m.Params[1:] {
		if c := conversions[p.T.String()].builtInC; c != nil && p.Direction != "out" {
			// the member, not called, would have released it
			fmt.Fprintf(b, "        "+c.release+";\n", p.Name+"_c")
		}
	}
	b.WriteString("        return result;\n    }\n")
	fmt.Fprintf(b, "    result.status = %s(%s);\n", cname.Trampoline(v.Name, m.Name), strings.Join(args, ", "))
	fmt.Fprintf(b, "    if (result.status != MTS_SUCCESS) {\n        %s(result.%s);\n        result.%s = NULL;\n    }\n    return result;\n}\n", cname.StructFree(v.Name), created, created)
}

// adaptors writes the Go methods of every mapped vtable's adaptor.
func adaptors(api *spec.API) ([]byte, error) {
	return goMembers(api, "adaptors", func(f *jen.File, v *spec.Vtable, m *spec.Method, g goVtable) error {
		method, err := adaptorMethod(v, m, g, nil)
		if err != nil {
			return err
		}
		f.Commentf("%s calls %s.%s.", goMethod(m), v.Name, m.Name)
		f.Add(method)
		if _, out, _ := memberParams(v, m); out != nil && byValue(m) && conversions[out.T.String()].byValue != nil {
			form := conversions[out.T.String()].byValue
			if method, err = adaptorMethod(v, m, g, form); err != nil {
				return err
			}
			f.Line()
			f.Commentf("%s calls %s.%s, giving the result by value.", form.method, v.Name, m.Name)
			f.Add(method)
		}
		return nil
	})
}

// goMembers writes a Go file with one piece per generated member of every mapped vtable.
func goMembers(api *spec.API, what string, write func(f *jen.File, v *spec.Vtable, m *spec.Method, g goVtable) error) ([]byte, error) {
	f := jen.NewFile("main")
	f.HeaderComment("Code generated by metatensor-go/gen from spec/api.yaml. DO NOT EDIT.")
	f.CgoPreamble(`#include "mtsgo.h"`)
	for _, v := range api.Vtables {
		g, ok := goVtables[v.Name]
		if !ok {
			continue
		}
		for _, m := range generated(v, g) {
			f.Line()
			if err := write(f, v, m, g); err != nil {
				return nil, err
			}
		}
	}
	return render(f, what)
}

// cFile starts a generated C file with its banner and head.
func cFile(head string) *strings.Builder {
	b := &strings.Builder{}
	b.WriteString(cheader.Banner)
	b.WriteString("\n" + head + "\n")
	return b
}

func render(f *jen.File, what string) ([]byte, error) {
	var b strings.Builder
	if err := f.Render(&b); err != nil {
		return nil, fmt.Errorf("cgo: rendering %s: %w", what, err)
	}
	return []byte(b.String()), nil
}

// adaptorMethod writes the adaptor's method calling member m; form, when not nil, replaces
// the result's own form (conversion.byValue).
func adaptorMethod(v *spec.Vtable, m *spec.Method, g goVtable, form *resultForm) (jen.Code, error) {
	member := v.Name + "." + m.Name
	ins, out, err := memberParams(v, m)
	if err != nil {
		return nil, err
	}
	name := goMethod(m)
	var params, results, zeros, released []jen.Code
	if out != nil {
		c := conversions[out.T.String()]
		if form == nil {
			form = &resultForm{goType: c.goType, zero: c.zero, fromC: c.resultFromC}
		}
		if form.method != "" {
			name = form.method
		}
		results = append(results, form.goType)
		zeros = append(zeros, form.zero)
	}
	for _, p := range ins {
		c := conversions[p.T.String()]
		params = append(params, jen.Id(goname.LowerCamel(p.Name)).Add(c.goType))
		if c.release != nil {
			released = append(released, c.release(jen.Id(goname.LowerCamel(p.Name))))
		}
	}
	results = append(results, jen.Error())
	fail := func(err jen.Code) jen.Code { return jen.Return(append(append([]jen.Code{}, zeros...), err)...) }

	body := []jen.Code{jen.If(jen.Id("a").Dot("raw").Dot(m.Name).Op("==").Nil()).Block(
		append(released, fail(jen.Id("missing").Call(jen.Lit(m.Name))))...)}
	// Every helper takes the vtable's address (selfParam).
	args := []jen.Code{jen.Id("a").Dot("address").Call()}
	var builtDone []jen.Code // after the call: ending the Go side of arguments built in C
	for _, p := range m.Params[1:] {
		switch {
		case p.Direction == "out":
			continue
		case len(p.CountFor) > 0:
			args = append(args, jen.Qual("C", "uintptr_t").Call(jen.Len(jen.Id(goname.LowerCamel(p.CountFor[0].Name)))))
			continue
		}
		c := conversions[p.T.String()]
		if c.builtInC != nil && creates(m) {
			bound := goname.LowerCamel(p.Name) + "C"
			body = append(body, jen.Id(bound).Op(":=").Id(c.builtInC.describe).Call(jen.Id(goname.LowerCamel(p.Name))))
			for _, field := range c.builtInC.goArgs {
				args = append(args, jen.Id(bound).Dot(field))
			}
			builtDone = append(builtDone, jen.If(jen.Err().Op(":=").Id(bound).Dot("done").Call(
				jen.Id("result").Dot(p.Name+"_built").Op("!=").Lit(0)), jen.Err().Op("!=").Nil()).Block(fail(jen.Err())))
			continue
		}
		value := c.argToC.spell(site{value: jen.Id(goname.LowerCamel(p.Name)), param: p, member: member})
		if c.argToC.fallible {
			bound := goname.LowerCamel(p.Name) + "C"
			body = append(body,
				jen.List(jen.Id(bound), jen.Err()).Op(":=").Add(value),
				jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err())))
			value = jen.Id(bound)
		}
		args = append(args, value)
	}

	failed := fail(jen.Id("failed").Call(jen.Lit(m.Name)))
	switch {
	case out == nil:
		body = append(body,
			jen.If(jen.Qual("C", atAddress(v, m)).Call(args...).Op("!=").Qual("C", "MTS_SUCCESS")).Block(failed),
			jen.Return(jen.Nil()))
	case byValue(m):
		s := site{value: jen.Id("result").Dot(out.Name), param: out, member: member}
		if count := countOf(m, out); count != nil {
			s.count = jen.Id("result").Dot(count.Name)
		}
		ret := jen.Return(form.fromC.spell(s))
		if !form.fromC.fallible {
			ret = jen.Return(form.fromC.spell(s), jen.Nil())
		}
		body = append(body,
			jen.Id("result").Op(":=").Qual("C", valueHelper(v, m)).Call(args...),
			jen.If(jen.Id("result").Dot("status").Op("!=").Qual("C", "MTS_SUCCESS")).Block(failed),
			ret)
	default:
		// A created vtable lives in C memory the helper allocated, which the new adaptor keeps.
		body = append(body, jen.Id("result").Op(":=").Qual("C", valueHelper(v, m)).Call(args...))
		body = append(body, builtDone...)
		body = append(body,
			jen.If(jen.Id("result").Dot("status").Op("!=").Qual("C", "MTS_SUCCESS")).Block(failed),
			jen.Return(jen.Id(g.created).Call(jen.Id("result").Dot(out.Name)), jen.Nil()))
	}
	return jen.Func().Params(jen.Id("a").Op("*").Id(g.adaptor)).Id(name).Params(params...).Parens(jen.List(results...)).Block(body...), nil
}
