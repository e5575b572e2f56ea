// Package spec loads spec/api.yaml, validates it and gives the generators a normalised model
// in which every type reference is resolved. It also loads and checks the mapping files of
// spec/bindings (mapping.go), whose entries each generator defines.
package spec

// The structs in this file mirror the YAML schema of spec/README.md one to one; the loader
// rejects unknown keys, so a typo in the spec is an error rather than a silently ignored key.

// API is the whole description of the C ABI.
type API struct {
	Version   string      `yaml:"version"`
	Constants []Constant  `yaml:"constants"`
	Enums     []*Enum     `yaml:"enums"`
	Aliases   []*Alias    `yaml:"aliases"`
	Structs   []*Struct   `yaml:"structs"`
	Callbacks []*Callback `yaml:"callbacks"`
	Objects   []*Object   `yaml:"objects"`
	Vtables   []*Vtable   `yaml:"vtables"`
	Functions []*Function `yaml:"functions"`

	byName map[string]any
}

// Constant is a preprocessor macro.
type Constant struct {
	Name   string `yaml:"name"`
	Header string `yaml:"header"`
	Value  string `yaml:"value"`
	Doc    string `yaml:"doc"`
}

// Enum is a C enumeration.
type Enum struct {
	Name       string       `yaml:"name"`
	Header     string       `yaml:"header"`
	Underlying string       `yaml:"underlying"`
	Doc        string       `yaml:"doc"`
	Values     []*EnumValue `yaml:"values"`
}

// EnumValue is one enumerator.
type EnumValue struct {
	Name   string `yaml:"name"`
	Value  int64  `yaml:"value"`
	Prefix string `yaml:"prefix"`
	Doc    string `yaml:"doc"`
}

// Alias is a typedef of a primitive type.
type Alias struct {
	Name string `yaml:"name"`
	Type string `yaml:"type"`
	Doc  string `yaml:"doc"`

	T *Type `yaml:"-"`
}

// Struct is a C struct passed by value or pointed to.
type Struct struct {
	Name    string   `yaml:"name"`
	Header  string   `yaml:"header"`
	Tagged  bool     `yaml:"tagged"`
	Doc     string   `yaml:"doc"`
	Members []*Param `yaml:"members"`
}

// Callback is a function-pointer type.
type Callback struct {
	Name    string   `yaml:"name"`
	Header  string   `yaml:"header"`
	Inline  bool     `yaml:"inline"`
	Doc     string   `yaml:"doc"`
	Returns Return   `yaml:"returns"`
	Params  []*Param `yaml:"params"`
}

// Object is an opaque handle type.
type Object struct {
	Name        string `yaml:"name"`
	CName       string `yaml:"c_name"`
	AlwaysConst bool   `yaml:"always_const"`
	Free        string `yaml:"free"`
	Doc         string `yaml:"doc"`
}

// Vtable is a struct made of a context pointer and function pointers.
type Vtable struct {
	Name    string     `yaml:"name"`
	Header  string     `yaml:"header"`
	Doc     string     `yaml:"doc"`
	Data    VtableData `yaml:"data"`
	Methods []*Method  `yaml:"methods"`
}

// VtableData is the context member of a vtable.
type VtableData struct {
	Name string `yaml:"name"`
	Doc  string `yaml:"doc"`
}

// Method is one function pointer of a vtable; its first parameter is the context pointer.
type Method struct {
	Name     string   `yaml:"name"`
	Nullable bool     `yaml:"nullable"`
	Doc      string   `yaml:"doc"`
	Returns  Return   `yaml:"returns"`
	Params   []*Param `yaml:"params"`
}

// Function is one exported function of the library.
type Function struct {
	Name    string   `yaml:"name"`
	Group   string   `yaml:"group"`
	Returns Return   `yaml:"returns"`
	Doc     string   `yaml:"doc"`
	Params  []*Param `yaml:"params"`
	// CheckOrder lists parameters whose argument checks run first, in this order (the
	// reference does not always check in parameter order).
	CheckOrder []string `yaml:"check_order"`
}

// Return describes what a function, callback or method returns.
type Return struct {
	Convention string `yaml:"convention"`
	Type       string `yaml:"type"`
	Mutable    bool   `yaml:"mutable"`
	ValidUntil string `yaml:"valid_until"`
	Doc        string `yaml:"doc"`

	T *Type `yaml:"-"`
}

// Param is a parameter of a function, callback or method, or a struct member.
type Param struct {
	Name            string   `yaml:"name"`
	Type            string   `yaml:"type"`
	Doc             string   `yaml:"doc"`
	Direction       string   `yaml:"direction"`
	Nullable        bool     `yaml:"nullable"`
	Required        bool     `yaml:"required"` // an array rejected when NULL even if empty
	Mutable         bool     `yaml:"mutable"`
	Ownership       string   `yaml:"ownership"`
	ConsumedOnError bool     `yaml:"consumed_on_error"`
	Count           CountRef `yaml:"count"`
	ValidUntil      string   `yaml:"valid_until"`
	NullMessage     string   `yaml:"null_message"`
	// EntriesOf names the labels parameter whose entry count a buffer's length must equal.
	EntriesOf string `yaml:"entries_of"`

	T *Type `yaml:"-"`
	// CountFor is set on count parameters: the array parameters whose length they hold.
	CountFor []*Param `yaml:"-"`
	// Member is true for struct members, which are never const-qualified.
	Member bool `yaml:"-"`
}

// CountRef names the parameter(s) holding an array's length: one name, or a list whose
// product is the length.
type CountRef []string
