package cpp

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/metatensor-go/metatensor/gen/cname"
	"github.com/metatensor-go/metatensor/gen/cppname"
	"github.com/metatensor-go/metatensor/gen/spec"
	"github.com/metatensor-go/metatensor/gen/text"
)

// A method maps one to one onto a C function: one parameter of the function is the object
// (`this`), its other inputs are the method's parameters, converted by the rules below, and
// its one output (an out parameter, or the object it returns) is the method's result.

// method is a generated method, ready to print.
type method struct {
	indent    string // of the declaration: inside a class or not
	name      string
	doc       string
	qualifier string // " const", " &"...
	params    []cxxParam
	prelude   []string          // statements before the call
	checked   string            // the checked call of the C function
	argOf     map[string]string // the C arguments by C parameter, while building
	args      []string          // then in C order
	after     []string          // statements after the call
	returns   string            // the C++ result type
	wrap      string            // for a function returning an object: what adopts it
	result    string            // otherwise the returned expression, "" for void
}

// cxxParam is a parameter of the method; def is its default argument, kept only when every
// parameter after it has one too.
type cxxParam struct {
	decl, def string
}

// Fragment writes the generated methods of one class, included inside its body.
func Fragment(api *spec.API, m *Mapping, class *cppname.Class) ([]byte, error) {
	var b strings.Builder
	b.WriteString(Banner)
	fmt.Fprintf(&b, "// The methods of %s that map one to one onto a C function, included inside the\n", class.Name)
	fmt.Fprintf(&b, "// body of the class by %s.hpp: not a header of its own.\n", class.Header)
	for _, f := range api.Functions {
		entry := m.Entry(f.Name)
		if entry == nil || entry.Method == "" {
			continue
		}
		if c, _ := splitMethod(entry.Method); c != class.Name {
			continue
		}
		meth, err := buildMethod(f, entry)
		if err != nil {
			return nil, err
		}
		b.WriteByte('\n')
		meth.write(&b)
	}
	return []byte(b.String()), nil
}

// IOFragments writes the free functions of the io namespace: their declarations, then their
// definitions; nil for a mapping without free functions.
func IOFragments(api *spec.API, m *Mapping) ([]byte, []byte, error) {
	if !slices.ContainsFunc(slices.Collect(maps.Values(m.Functions)), func(e *Entry) bool { return e.Function != "" }) {
		return nil, nil, nil
	}
	var declarations, definitions strings.Builder
	for b, includer := range map[*strings.Builder]string{&declarations: "io_fwd.hpp", &definitions: "io.hpp"} {
		b.WriteString(Banner)
		fmt.Fprintf(b, "// The functions of metatensor::%s that map one to one onto a C function, included inside\n", cppname.IONamespace)
		fmt.Fprintf(b, "// the namespace by %s: not a header of its own.\n", includer)
	}
	for _, f := range api.Functions {
		entry := m.Entry(f.Name)
		if entry == nil || entry.Function == "" {
			continue
		}
		meth, err := buildMethod(f, entry)
		if err != nil {
			return nil, nil, err
		}
		declarations.WriteByte('\n')
		meth.writeDeclaration(&declarations)
		definitions.WriteByte('\n')
		meth.writeDefinition(&definitions, "inline ", false)
	}
	return []byte(declarations.String()), []byte(definitions.String()), nil
}

// MethodClasses gives the classes that have generated methods, in the order of
// cppname.Classes.
func MethodClasses(m *Mapping) []*cppname.Class {
	var classes []*cppname.Class
	for i := range cppname.Classes {
		class := &cppname.Classes[i]
		for _, entry := range m.Functions {
			if c, _ := splitMethod(entry.Method); c == class.Name {
				classes = append(classes, class)
				break
			}
		}
	}
	return classes
}

// splitMethod splits "Labels::position" into the class and the method.
func splitMethod(qualified string) (string, string) {
	class, name, _ := strings.Cut(qualified, "::")
	return class, name
}

// Methods sit inside the class body, one level of indentation deep; free functions at the
// level of their namespace.
const (
	indent    = "    "
	lineWidth = 100
)

// write prints a method with its documentation and body, the defaults of its parameters in
// place.
func (meth *method) write(b *strings.Builder) {
	meth.writeDoc(b)
	meth.writeDefinition(b, "", true)
}

// writeDeclaration prints the documented declaration of a free function, the defaults of its
// parameters in place; writeDefinition then gives its body.
func (meth *method) writeDeclaration(b *strings.Builder) {
	meth.writeDoc(b)
	b.WriteString(wrapList(meth.indent+meth.returns+" "+meth.name+"(", meth.paramList(true), ")"+meth.qualifier+";"))
}

func (meth *method) writeDoc(b *strings.Builder) {
	for _, line := range text.Wrap(meth.doc, lineWidth-len(meth.indent)-4) {
		fmt.Fprintf(b, "%s\n", strings.TrimRight(meth.indent+"/// "+line, " "))
	}
}

// writeDefinition prints the method's signature, after specifier, and its body.
func (meth *method) writeDefinition(b *strings.Builder, specifier string, defaults bool) {
	body := meth.indent + indent
	b.WriteString(wrapList(meth.indent+specifier+meth.returns+" "+meth.name+"(", meth.paramList(defaults), ")"+meth.qualifier+" {"))
	for _, line := range meth.prelude {
		fmt.Fprintf(b, "%s%s\n", body, line)
	}
	call := "details::checked::" + meth.checked + "("
	switch {
	case meth.wrap != "":
		b.WriteString(wrapList(body+"return "+meth.wrap+"("+call, meth.args, "));"))
	default:
		b.WriteString(wrapList(body+call, meth.args, ");"))
		for _, line := range meth.after {
			fmt.Fprintf(b, "%s%s\n", body, line)
		}
		if meth.result != "" {
			fmt.Fprintf(b, "%sreturn %s;\n", body, meth.result)
		}
	}
	fmt.Fprintf(b, "%s}\n", meth.indent)
}

// wrapList prints open, the items separated by commas, then closing: on one line when it
// fits, else with the items on the lines below, one level deeper than open.
func wrapList(open string, items []string, closing string) string {
	line := open + strings.Join(items, ", ") + closing
	if len(line) <= lineWidth {
		return line + "\n"
	}
	deeper := strings.Repeat(" ", len(open)-len(strings.TrimLeft(open, " "))) + indent
	var b strings.Builder
	b.WriteString(open + "\n")
	current := deeper
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		if current != deeper && len(current)+1+len(item) > lineWidth {
			b.WriteString(current + "\n")
			current = deeper
		}
		if current != deeper {
			current += " "
		}
		current += item
	}
	b.WriteString(current + "\n")
	b.WriteString(deeper[len(indent):] + closing + "\n")
	return b.String()
}

// paramList spells the parameters, with the defaults of the trailing ones that all have one
// when defaults is true.
func (meth *method) paramList(defaults bool) []string {
	keep := len(meth.params)
	for defaults && keep > 0 && meth.params[keep-1].def != "" {
		keep--
	}
	decls := make([]string, len(meth.params))
	for i, p := range meth.params {
		decls[i] = p.decl
		if i >= keep {
			decls[i] += " = " + p.def
		}
	}
	return decls
}

// buildMethod applies the rules to f, or says which part of it no rule converts.
func buildMethod(f *spec.Function, entry *Entry) (*method, error) {
	qualified := entry.Method + entry.Function
	_, name := splitMethod(qualified)
	meth := &method{name: name, doc: entry.Doc, checked: cppname.Checked(f.Name, entry.Name), argOf: map[string]string{}}
	var class *cppname.Class
	var self *spec.Param
	if entry.Method != "" {
		var err error
		if class, self, err = meth.member(f, entry); err != nil {
			return nil, fmt.Errorf("method %s: %w", qualified, err)
		}
		meth.indent = indent
	}
	// lengths are converted with what they measure
	var outputs []*spec.Param
	for _, p := range f.Params {
		switch {
		case p == self || len(p.CountFor) > 0:
		case p.Direction == "out":
			outputs = append(outputs, p)
		default:
			if err := meth.input(f, p, class); err != nil {
				return nil, fmt.Errorf("%s: %w", qualified, err)
			}
		}
	}
	if err := meth.output(f, outputs, entry.Returns); err != nil {
		return nil, fmt.Errorf("%s: %w", qualified, err)
	}
	for _, p := range f.Params {
		if meth.argOf[p.Name] == "" {
			return nil, fmt.Errorf("%s: parameter %s (%s, %s): no rule gives it a C++ parameter",
				qualified, p.Name, p.Type, p.Direction)
		}
		meth.args = append(meth.args, meth.argOf[p.Name])
	}
	return meth, nil
}

// member finds the class and its `this` among the parameters of f, and makes the method's
// qualifiers and the checks it runs first.
func (meth *method) member(f *spec.Function, entry *Entry) (*cppname.Class, *spec.Param, error) {
	className, _ := splitMethod(entry.Method)
	class := cppname.ClassNamed(className)
	if class == nil {
		return nil, nil, fmt.Errorf("no C++ class %s (gen/cppname)", className)
	}
	self := thisParam(f, class)
	if self == nil {
		return nil, nil, fmt.Errorf("no parameter is a %s object to be `this`", class.Object)
	}
	constMethod := entry.Const || !self.Mutable
	if constMethod {
		meth.qualifier = " const"
	}
	if entry.Ref != "" {
		meth.qualifier += " " + entry.Ref
	}
	accessed := class.Accessed
	if entry.This != "" {
		accessed = entry.This == "accessor"
	}
	meth.argOf[self.Name] = thisArgument(class, self, accessed, constMethod)
	if entry.IfReleased != "" {
		meth.prelude = append(meth.prelude, fmt.Sprintf("if (%s == nullptr) {", class.Field),
			fmt.Sprintf("    return %s;", entry.IfReleased), "}")
	}
	if entry.RefuseViews {
		meth.prelude = append(meth.prelude, cppname.ViewCheck(meth.name)+";")
	}
	return class, self, nil
}

// thisParam is the first input of f that is an object of the class.
func thisParam(f *spec.Function, class *cppname.Class) *spec.Param {
	for _, p := range f.Params {
		if p.Direction == "in" && p.T.Kind == spec.KindObject && p.T.Name == class.Object && p.Ownership != "taken" {
			return p
		}
	}
	return nil
}

// thisArgument reaches the object's pointer: through the field, or through the accessor that
// throws once it was released; a const method gives a C function that takes the object
// mutable a const_cast pointer (the C function only reads it, or gives a view).
func thisArgument(class *cppname.Class, self *spec.Param, accessed, constMethod bool) string {
	if !accessed {
		return class.Field
	}
	argument := "this->" + cppname.Accessor(self.T.Object.CName)
	if constMethod && self.Mutable && !self.T.Object.AlwaysConst {
		argument = "const_cast<" + cxxSpelling(cname.CType(self)) + ">(" + argument + ")"
	}
	return argument
}

// objectArgument reaches the pointer of another object: the private field for an object of
// the method's own class reached so, the accessor otherwise.
func objectArgument(class *cppname.Class, p *spec.Param) (string, string, error) {
	other := cppname.ClassOf(p.T.Name)
	if other == nil {
		return "", "", fmt.Errorf("parameter %s: no C++ class for the object %s", p.Name, p.T.Name)
	}
	if p.Ownership == "taken" {
		return other.Name + " " + p.Name, p.Name + ".release()", nil
	}
	if other == class && !class.Accessed {
		return "const " + other.Name + "& " + p.Name, p.Name + "." + other.Field, nil
	}
	return "const " + other.Name + "& " + p.Name, p.Name + "." + cppname.Accessor(p.T.Object.CName), nil
}

// input converts one input of f (and the count of an array) into parameters of the method.
func (meth *method) input(f *spec.Function, p *spec.Param, class *cppname.Class) error {
	count := countOf(f, p)
	switch {
	case p.T.Kind == spec.KindObject && p.Direction == "in":
		decl, arg, err := objectArgument(class, p)
		if err != nil {
			return err
		}
		meth.params = append(meth.params, cxxParam{decl: decl})
		meth.argOf[p.Name] = arg
	case p.T.Kind == spec.KindString && p.Direction == "in":
		meth.params = append(meth.params, cxxParam{decl: "const std::string& " + p.Name})
		meth.argOf[p.Name] = p.Name + ".c_str()"
	case p.T.Kind == spec.KindArray && p.T.Elem.Kind == spec.KindString && p.Direction == "in" && count != nil:
		// a vector of names, spelled in C for the call
		meth.params = append(meth.params, cxxParam{decl: "const std::vector<std::string>& " + p.Name})
		local := "c_" + p.Name
		meth.prelude = append(meth.prelude, fmt.Sprintf("auto %s = %s(%s);", local, cppname.StringsHelper, p.Name))
		meth.argOf[p.Name] = local + ".data()"
		meth.argOf[count.Name] = local + ".size()"
	case (p.T.Kind == spec.KindArray || p.T.Kind == spec.KindBuffer) && p.T.Elem.Kind == spec.KindPrim && count != nil:
		// a pointer and its length, as C has them
		var def string
		if p.Nullable {
			def = "nullptr"
		}
		meth.params = append(meth.params, cxxParam{decl: cxxSpelling(cname.CDecl(p)), def: def})
		meth.argOf[p.Name] = p.Name
		meth.countParam(count, def != "")
	case p.T.Kind == spec.KindVtable && p.T.Vtable.Name == cppname.ArrayVtable && p.Ownership == "taken":
		meth.params = append(meth.params, cxxParam{decl: cppname.ArrayClass + " " + p.Name})
		meth.argOf[p.Name] = "std::move(" + p.Name + ").release()"
	case p.Direction == "in" && !p.T.IsCollection() && p.T.Kind != spec.KindOpaque && p.T.Kind != spec.KindPtr &&
		p.T.Kind != spec.KindVtable:
		// values passed as they are: numbers, enums, callbacks (some with a default)
		var def string
		if p.T.Kind == spec.KindCallback {
			def = cppname.CallbackDefaults[p.T.Name]
		}
		meth.params = append(meth.params, cxxParam{decl: cxxSpelling(cname.CDecl(p)), def: def})
		meth.argOf[p.Name] = p.Name
	default:
		return fmt.Errorf("parameter %s (%s, %s): no rule gives it a C++ parameter", p.Name, p.Type, p.Direction)
	}
	return nil
}

// countParam adds the length of a pointer the method takes as it is: a size_t, or a size_t*
// for a length the function reads then writes (copied through a uintptr_t).
func (meth *method) countParam(count *spec.Param, hasDefault bool) {
	if count.Direction == "inout" {
		local := "c_" + count.Name
		meth.params = append(meth.params, cxxParam{decl: "size_t* " + count.Name})
		meth.prelude = append(meth.prelude, fmt.Sprintf("uintptr_t %s = *%s;", local, count.Name))
		meth.after = append(meth.after, fmt.Sprintf("*%s = %s;", count.Name, local))
		meth.argOf[count.Name] = "&" + local
		return
	}
	var def string
	if hasDefault {
		def = "0"
	}
	meth.params = append(meth.params, cxxParam{decl: "size_t " + count.Name, def: def})
	meth.argOf[count.Name] = count.Name
}

// countOf is the one parameter holding the length of p, nil when p has none or several.
func countOf(f *spec.Function, p *spec.Param) *spec.Param {
	if len(p.Count) != 1 {
		return nil
	}
	for _, q := range f.Params {
		if q.Name == p.Count[0] {
			return q
		}
	}
	return nil
}

// output makes the result of the method from the object f returns, or from its one out
// parameter (with the out parameters holding its length); returns, from the mapping, is the
// C++ type where the rule's does not suit.
func (meth *method) output(f *spec.Function, outputs []*spec.Param, returns string) error {
	if f.Returns.Convention == "object" {
		outputs = append(outputs, nil)
	}
	switch {
	case len(outputs) == 0:
		meth.returns = "void"
		return nil
	case len(outputs) > 1:
		return fmt.Errorf("%d results: a method has one", len(outputs))
	case outputs[0] == nil:
		class := cppname.ClassOf(f.Returns.T.Name)
		if class == nil {
			return fmt.Errorf("no C++ class for the object %s it returns", f.Returns.T.Name)
		}
		meth.returns, meth.wrap = class.Name, class.FromPtr(false)
		if returns != "" {
			return fmt.Errorf("no rule gives a %s from a %s", returns, f.Returns.Type)
		}
		return nil
	}
	out := outputs[0]
	local := cxxSpelling(strings.TrimSuffix(strings.TrimSpace(cname.CType(out)), "*"))
	meth.argOf[out.Name] = "&" + out.Name
	for _, count := range out.Count {
		meth.prelude = append(meth.prelude, fmt.Sprintf("uintptr_t %s = 0;", count))
		meth.argOf[count] = "&" + count
	}
	initial := "{}"
	switch {
	case out.T.IsPointer():
		initial = "nullptr"
	case out.T.Kind == spec.KindPrim:
		initial = "0"
	}
	meth.prelude = append(meth.prelude, fmt.Sprintf("%s %s = %s;", local, out.Name, initial))
	return meth.convertOutput(out, local, returns)
}

// convertOutput gives the C++ result of an out parameter held in a local of C type local.
func (meth *method) convertOutput(out *spec.Param, local, returns string) error {
	t := out.T
	optional := strings.HasPrefix(returns, "std::optional<")
	switch {
	case t.Kind == spec.KindObject:
		class := cppname.ClassOf(t.Name)
		view := out.Ownership != "returned"
		if class == nil || (view && !class.Views) {
			return fmt.Errorf("parameter %s: no C++ class to hold the object %s", out.Name, t.Name)
		}
		meth.after = append(meth.after, fmt.Sprintf("%s(%s);", cppname.CheckPointer, out.Name))
		meth.returns, meth.result = class.Name, class.FromPtr(view)+"("+out.Name+")"
	case t.Kind == spec.KindStruct:
		meth.returns, meth.result = local, out.Name
	case t.Kind == spec.KindVtable && t.Vtable.Name == cppname.ArrayVtable:
		meth.returns, meth.result = cppname.ArrayClass, cppname.ArrayClass+"("+out.Name+")"
	case t.Kind == spec.KindArray && len(out.Count) == 1 && (t.Elem.Kind == spec.KindString || t.Elem.Kind == spec.KindPrim):
		// a C array and its length, copied into a vector (of std::string when returns says so)
		meth.returns = "std::vector<" + cname.Primitive(t.Elem.Name) + ">"
		if t.Elem.Kind == spec.KindString {
			meth.returns = "std::vector<const char*>"
		}
		if returns != "" {
			meth.returns = returns
		}
		meth.result = fmt.Sprintf("%s(%s, %s + %s)", meth.returns, out.Name, out.Name, out.Count[0])
	case t.Kind == spec.KindArray && t.Elem.Kind == spec.KindPrim:
		// a C array of several dimensions, viewed in place
		meth.returns = "NDArray<" + cname.Primitive(t.Elem.Name) + ">"
		meth.result = fmt.Sprintf("%s(%s, {%s})", meth.returns, out.Name, strings.Join(out.Count, ", "))
	case t.Kind == spec.KindPrim && optional && strings.HasPrefix(t.Name, "int"):
		// a position, negative when there is none
		meth.returns = returns
		meth.result = fmt.Sprintf("%s < 0 ? std::nullopt : %s(static_cast<%s>(%s))", out.Name, returns,
			strings.TrimSuffix(strings.TrimPrefix(returns, "std::optional<"), ">"), out.Name)
	case t.Kind == spec.KindString && optional:
		// a string, NULL when there is none
		meth.returns = returns
		meth.result = fmt.Sprintf("%s == nullptr ? std::nullopt : %s(%s)", out.Name, returns, out.Name)
	default:
		return fmt.Errorf("parameter %s (%s, %s): no rule gives it a C++ result", out.Name, out.Type, out.Direction)
	}
	if returns != "" && meth.returns != returns {
		return fmt.Errorf("parameter %s: no rule gives a %s from a %s", out.Name, returns, out.Type)
	}
	return nil
}

// cxxSpelling turns a C spelling into the C++ style of the hand-written headers: no struct
// keyword, the '*' against the type ("const char* const* names").
func cxxSpelling(c string) string {
	c = strings.ReplaceAll(c, "struct ", "")
	c = strings.ReplaceAll(c, " *", "*")
	return strings.TrimSpace(starsThenWord.ReplaceAllString(c, "$1 $2"))
}

var starsThenWord = regexp.MustCompile(`(\*+)(\w)`)
