package cpp

import (
	"fmt"
	"regexp"

	"github.com/metatensor-go/metatensor/gen/cppname"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// Entry is how the C++ binding maps one function (spec/bindings/cpp.yaml). Every field is
// optional: {} gives the checked call its rule name (gen/cppname).
type Entry struct {
	// Name replaces the rule's name of the checked call.
	Name string `yaml:"name"`
	// Users lists the hand-written C++ members built on the checked call ("Labels::position"),
	// for the reader: the compiler, not the generator, checks that they use it.
	Users []string `yaml:"users"`

	// Method is the generated method that maps one to one onto the function: "Labels::position"
	// (methods.go says which parameter is `this` and how the others become the method's
	// parameters and result). The keys below are for methods only.
	Method string `yaml:"method"`
	// Function is the generated free function that maps one to one onto the function, in a
	// namespace of the binding: "io::load". The keys below are for it too, where they apply.
	Function string `yaml:"function"`
	// Doc documents the method, in C++ terms.
	Doc string `yaml:"doc"`
	// Returns is the C++ result type where the rule's does not suit: a std::optional for a
	// position that is negative or a string that is NULL when there is none, a vector of
	// std::string for C strings.
	Returns string `yaml:"returns"`
	// Const makes the method const although the function takes the object mutable: it only
	// gives a view.
	Const bool `yaml:"const"`
	// Ref is the method's ref-qualifier, "&" for a view that must not outlive the object.
	Ref string `yaml:"ref"`
	// This is how the method reaches the object's pointer, where the class's default does not
	// suit: "accessor" (throws once released) or "field" (hands NULL to the library).
	This string `yaml:"this"`
	// IfReleased is what the method gives on a released object instead of calling C.
	IfReleased string `yaml:"if_released"`
	// RefuseViews makes the method throw on a view (it gives the object something to own).
	RefuseViews bool `yaml:"refuse_views"`
}

// Mapping is the C++ binding's mapping file.
type Mapping = spec.Mapping[Entry]

// Target describes spec/bindings/cpp.yaml: functions the C++ layer calls only from its own
// error machinery are excluded.
var Target = spec.Target[Entry]{Name: "cpp", Excludes: true, Check: check}

var identifier = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

func check(f *spec.Function, e *Entry) []string {
	var problems []string
	if e.Name != "" && !identifier.MatchString(e.Name) {
		problems = append(problems, fmt.Sprintf("name %q is not a lower-case C++ identifier", e.Name))
	}
	member := e.Const || e.Ref != "" || e.This != "" || e.IfReleased != "" || e.RefuseViews
	switch {
	case e.Method == "" && e.Function == "":
		if e.Doc != "" || e.Returns != "" || member {
			problems = append(problems, "doc, returns, const, ref, this, if_released and refuse_views are for methods")
		}
		return problems
	case e.Method != "" && e.Function != "":
		return append(problems, "method and function are exclusive")
	case e.Function != "" && member:
		return append(problems, "const, ref, this, if_released and refuse_views are for methods")
	}
	qualified := e.Method + e.Function
	scope, name := splitMethod(qualified)
	switch {
	case !identifier.MatchString(name) || scope == "":
		problems = append(problems, fmt.Sprintf("%q is not Class::method or namespace::function", qualified))
	case e.Function != "" && scope != cppname.IONamespace:
		problems = append(problems, fmt.Sprintf("function %s: free functions are generated in %s:: only", qualified, cppname.IONamespace))
	case e.Doc == "":
		problems = append(problems, fmt.Sprintf("%s has no doc", qualified))
	case e.This != "" && e.This != "accessor" && e.This != "field":
		problems = append(problems, fmt.Sprintf("method %s: this %q is not accessor or field", qualified, e.This))
	case e.Ref != "" && e.Ref != "&":
		problems = append(problems, fmt.Sprintf("method %s: ref %q is not &", qualified, e.Ref))
	}
	if len(problems) > 0 {
		return problems
	}
	if _, err := buildMethod(f, e); err != nil {
		problems = append(problems, err.Error())
	}
	return problems
}
