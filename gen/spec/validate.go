package spec

import (
	"regexp"
	"slices"
	"strings"
)

var (
	versionPattern = regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	identifier     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	headers        = []string{"metatensor", "dlpack"}
	groups         = []string{"errors", "misc", "origins", "labels", "block", "tensormap", "io", ExtensionsGroup}
	directions     = []string{"in", "out", "inout"}
	ownerships     = []string{"borrowed", "taken", "returned"}
	// Keywords of C and C++ can not name anything the headers declare.
	keywords = strings.Fields(`alignas alignof and asm auto bool break case catch char class const
		constexpr continue decltype default delete do double else enum explicit export extern false
		float for friend goto if inline int long mutable namespace new noexcept not nullptr operator
		or private protected public register restrict return short signed sizeof static struct switch
		template this throw true try typedef typeid typename union unsigned using virtual void
		volatile while xor`)
)

// The functions of this library that metatensor-core lacks are in their own group, with a
// prefix of their own, so that no name can collide with one of the reference.
const (
	ExtensionsGroup = "extensions"
	ExtensionPrefix = "mtsx_"
)

func (api *API) validate() error {
	var p problems
	if !versionPattern.MatchString(api.Version) {
		p.add("version %q is not MAJOR.MINOR.PATCH", api.Version)
	}
	api.indexNames(&p)
	for _, c := range api.Constants {
		where := "constant " + c.Name
		checkHeader(&p, where, c.Header)
		checkDoc(&p, where, c.Doc)
		if c.Value == "" {
			p.add("%s: empty value", where)
		}
	}
	for _, e := range api.Enums {
		where := "enum " + e.Name
		checkHeader(&p, where, e.Header)
		checkDoc(&p, where, e.Doc)
		if e.Underlying != "" && e.Underlying != "int32" {
			p.add("%s: underlying type %q is not int32", where, e.Underlying)
		}
		if len(e.Values) == 0 {
			p.add("%s: no values", where)
		}
		for _, v := range e.Values {
			checkDoc(&p, where+" value "+v.Name, v.Doc)
		}
	}
	for _, a := range api.Aliases {
		where := "alias " + a.Name
		checkDoc(&p, where, a.Doc)
		a.T = api.resolve(&p, where, a.Type)
		if a.T != nil && a.T.Kind != KindPrim {
			p.add("%s: aliases must name a primitive type, got %s", where, a.Type)
		}
	}
	for i, s := range api.Structs {
		where := "struct " + s.Name
		checkHeader(&p, where, s.Header)
		checkDoc(&p, where, s.Doc)
		api.checkParams(&p, where, s.Members)
		for _, m := range s.Members {
			if m.T != nil && m.T.Kind == KindStruct && slices.Index(api.Structs, m.T.Struct) > i {
				p.add("%s: member %s uses struct %s, which is declared later", where, m.Name, m.T.Name)
			}
		}
	}
	for _, c := range api.Callbacks {
		where := "callback " + c.Name
		checkHeader(&p, where, c.Header)
		checkDoc(&p, where, c.Doc)
		api.checkReturn(&p, where, &c.Returns, false)
		api.checkParams(&p, where, c.Params)
	}
	for _, o := range api.Objects {
		where := "object " + o.Name
		checkDoc(&p, where, o.Doc)
		if !identifier.MatchString(o.CName) {
			p.add("%s: invalid c_name %q", where, o.CName)
		}
		api.checkFree(&p, o)
	}
	for _, v := range api.Vtables {
		where := "vtable " + v.Name
		checkHeader(&p, where, v.Header)
		checkDoc(&p, where, v.Doc)
		checkDoc(&p, where+" data member", v.Data.Doc)
		if v.Data.Name == "" {
			p.add("%s: the data member has no name", where)
		}
		for _, m := range v.Methods {
			mwhere := where + " method " + m.Name
			checkNotKeyword(&p, mwhere, m.Name)
			checkDoc(&p, mwhere, m.Doc)
			api.checkReturn(&p, mwhere, &m.Returns, false)
			api.checkParams(&p, mwhere, m.Params)
			if len(m.Params) == 0 || m.Params[0].T == nil || m.Params[0].T.Kind != KindOpaque {
				p.add("%s: the first parameter must be the opaque context pointer", mwhere)
			}
		}
	}
	for _, f := range api.Functions {
		where := "function " + f.Name
		checkDoc(&p, where, f.Doc)
		if !slices.Contains(groups, f.Group) {
			p.add("%s: group %q is not one of %s", where, f.Group, strings.Join(groups, ", "))
		}
		if (f.Group == ExtensionsGroup) != strings.HasPrefix(f.Name, ExtensionPrefix) {
			p.add("%s: the functions of group %s, and only they, are named %s*", where, ExtensionsGroup, ExtensionPrefix)
		}
		api.checkReturn(&p, where, &f.Returns, true)
		api.checkParams(&p, where, f.Params)
		for _, name := range f.CheckOrder {
			if !slices.ContainsFunc(f.Params, func(param *Param) bool { return param.Name == name }) {
				p.add("%s: check_order names %q, which is not a parameter", where, name)
			}
		}
	}
	return p.err()
}

// indexNames builds the name index and reports names used twice, whatever their kinds.
func (api *API) indexNames(p *problems) {
	api.byName = map[string]any{}
	add := func(name string, item any) {
		if !identifier.MatchString(name) {
			p.add("%q is not a valid C identifier", name)
			return
		}
		if _, dup := api.byName[name]; dup {
			p.add("duplicate name %q", name)
			return
		}
		api.byName[name] = item
	}
	for i := range api.Constants {
		add(api.Constants[i].Name, &api.Constants[i])
	}
	for _, e := range api.Enums {
		add(e.Name, e)
		for _, v := range e.Values {
			add(v.Name, v)
		}
	}
	for _, a := range api.Aliases {
		add(a.Name, a)
	}
	for _, s := range api.Structs {
		add(s.Name, s)
	}
	for _, c := range api.Callbacks {
		add(c.Name, c)
	}
	for _, o := range api.Objects {
		add(o.Name, o)
		add(o.CName, o)
	}
	for _, v := range api.Vtables {
		add(v.Name, v)
	}
	for _, f := range api.Functions {
		add(f.Name, f)
	}
}

// resolve parses a type expression and links every name in it to its declaration.
func (api *API) resolve(p *problems, where, text string) *Type {
	t, err := ParseType(text)
	if err != nil {
		p.add("%s: %v", where, err)
		return nil
	}
	if !api.link(p, where, t) {
		return nil
	}
	return t
}

func (api *API) link(p *problems, where string, t *Type) bool {
	if t.Elem != nil {
		return api.link(p, where, t.Elem)
	}
	if t.Kind == KindPrim || t.Kind == KindString || t.Kind == KindOpaque {
		return true
	}
	item, found := api.byName[t.Name]
	ok := false
	switch t.Kind {
	case KindEnum:
		t.Enum, ok = item.(*Enum)
	case KindAlias:
		t.Alias, ok = item.(*Alias)
	case KindStruct:
		t.Struct, ok = item.(*Struct)
	case KindVtable:
		t.Vtable, ok = item.(*Vtable)
	case KindCallback:
		t.Callback, ok = item.(*Callback)
	case KindObject:
		t.Object, ok = item.(*Object)
	}
	if !ok {
		if found {
			p.add("%s: %s names something that is not of that kind", where, t)
		} else {
			p.add("%s: unresolved type %s", where, t)
		}
	}
	return ok
}

func (api *API) checkReturn(p *problems, where string, r *Return, function bool) {
	conventions := []string{"status", "void", "value"}
	if function {
		conventions = []string{"status", "object", "string", "void"}
	}
	if !slices.Contains(conventions, r.Convention) {
		p.add("%s: return convention %q is not one of %s", where, r.Convention, strings.Join(conventions, ", "))
		return
	}
	needsType := r.Convention == "object" || r.Convention == "value"
	switch {
	case needsType && r.Type == "":
		p.add("%s: a %s return needs a type", where, r.Convention)
	case !needsType && r.Type != "":
		p.add("%s: a %s return takes no type", where, r.Convention)
	case needsType:
		r.T = api.resolve(p, where+" return", r.Type)
	}
	if r.Convention == "object" && r.T != nil && r.T.Kind != KindObject {
		p.add("%s: an object return must be an object type, got %s", where, r.Type)
	}
	if r.Convention == "value" && r.Doc == "" {
		p.add("%s: empty doc for the returned value", where)
	}
}

// checkParams validates one parameter list (or struct member list), including the links
// between arrays and their counts.
func (api *API) checkParams(p *problems, where string, params []*Param) {
	byName := map[string]*Param{}
	for _, param := range params {
		pwhere := where + " parameter " + param.Name
		checkNotKeyword(p, pwhere, param.Name)
		if _, dup := byName[param.Name]; dup {
			p.add("%s: duplicate parameter name", pwhere)
		}
		byName[param.Name] = param
		checkDoc(p, pwhere, param.Doc)
		param.T = api.resolve(p, pwhere, param.Type)
		if !slices.Contains(directions, param.Direction) {
			p.add("%s: direction %q is not one of in, out, inout", pwhere, param.Direction)
		}
		if !slices.Contains(ownerships, param.Ownership) {
			p.add("%s: ownership %q is not one of borrowed, taken, returned", pwhere, param.Ownership)
		}
		if param.Member && param.Direction != "in" {
			p.add("%s: struct members have no direction", pwhere)
		}
		if param.Ownership == "returned" && param.Direction == "in" {
			p.add("%s: only out parameters can be returned to the caller", pwhere)
		}
		if param.ValidUntil != "" && param.Direction == "in" {
			p.add("%s: valid_until only applies to out parameters", pwhere)
		}
		if param.Required && (param.Nullable || param.T == nil || param.T.Kind != KindArray) {
			p.add("%s: required is for arrays that are not nullable", pwhere)
		}
		if param.ConsumedOnError && (param.Ownership != "taken" || param.T == nil || param.T.Kind != KindVtable) {
			p.add("%s: consumed_on_error needs a taken vtable value", pwhere)
		}
		if param.T == nil {
			continue
		}
		if param.NullMessage != "" && !PassedByPointer(param) {
			p.add("%s: null_message on a value that is not a pointer", pwhere)
		}
		if param.T.Kind == KindCallback && param.T.Callback != nil && param.T.Callback.Inline && param.Direction != "in" {
			p.add("%s: inline callbacks can only be passed in", pwhere)
		}
		switch param.T.Kind {
		case KindBuffer:
			if param.Direction != "in" {
				p.add("%s: buffers are caller storage and take direction in", pwhere)
			}
		case KindGrowable:
			if param.Direction != "inout" {
				p.add("%s: growable buffers take direction inout", pwhere)
			}
		}
		if param.T.IsCollection() != (len(param.Count) > 0) {
			if len(param.Count) > 0 {
				p.add("%s: count given for a %s, which is not an array", pwhere, param.T)
			} else {
				p.add("%s: %s needs a count", pwhere, param.T)
			}
		}
	}
	for _, param := range params {
		if param.EntriesOf != "" {
			pwhere := where + " parameter " + param.Name
			of, ok := byName[param.EntriesOf]
			if !ok || of.T == nil || of.T.Kind != KindObject || of.T.Name != "labels" {
				p.add("%s: entries_of %q is not a labels parameter here", pwhere, param.EntriesOf)
			}
			if param.T != nil && param.T.Kind != KindBuffer {
				p.add("%s: entries_of is for buffers", pwhere)
			}
		}
		for _, name := range param.Count {
			pwhere := where + " parameter " + param.Name
			count, ok := byName[name]
			if !ok {
				p.add("%s: count %q is not a parameter here", pwhere, name)
				continue
			}
			if count.T == nil || count.T.Kind != KindPrim || count.T.Name != "usize" {
				p.add("%s: count %q must be a usize", pwhere, name)
				continue
			}
			count.CountFor = append(count.CountFor, param)
			switch {
			case param.T == nil:
			case param.Direction == "out" && count.Direction != "out":
				p.add("%s: the count %q of an out array must be out too", pwhere, name)
			case param.T.Kind == KindGrowable && count.Direction != "inout":
				p.add("%s: the count %q of a growable buffer must be inout", pwhere, name)
			case param.Direction == "in" && param.T.Kind == KindArray && count.Direction != "in":
				p.add("%s: the count %q of an input array must be in", pwhere, name)
			}
		}
	}
}

// FreeFunctionOf gives the object a function releases, or nil when it is not a free function.
func (api *API) FreeFunctionOf(f *Function) *Object {
	for _, o := range api.Objects {
		if o.Free == f.Name {
			return o
		}
	}
	return nil
}

// checkFree makes sure every object type can be released: its free function exists and
// takes exactly that object.
func (api *API) checkFree(p *problems, o *Object) {
	f, ok := api.byName[o.Free].(*Function)
	if !ok {
		p.add("object %s: free function %q is not a function of the spec", o.Name, o.Free)
		return
	}
	if len(f.Params) != 1 || f.Params[0].Type != "object."+o.Name {
		p.add("object %s: free function %s must take exactly one object.%s", o.Name, o.Free, o.Name)
	}
}

func checkNotKeyword(p *problems, where, name string) {
	if slices.Contains(keywords, name) {
		p.add("%s: %q is a C or C++ keyword", where, name)
	}
}

func checkHeader(p *problems, where, header string) {
	if !slices.Contains(headers, header) {
		p.add("%s: header %q is not one of %s", where, header, strings.Join(headers, ", "))
	}
}

func checkDoc(p *problems, where, doc string) {
	if strings.TrimSpace(doc) == "" {
		p.add("%s: empty doc", where)
	}
}
