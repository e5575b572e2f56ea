package cpp

import (
	"fmt"
	"regexp"

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
}

// Mapping is the C++ binding's mapping file.
type Mapping = spec.Mapping[Entry]

// Target describes spec/bindings/cpp.yaml: functions the C++ layer calls only from its own
// error machinery are excluded.
var Target = spec.Target[Entry]{Name: "cpp", Excludes: true, Check: check}

var identifier = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

func check(f *spec.Function, e *Entry) []string {
	if e.Name != "" && !identifier.MatchString(e.Name) {
		return []string{fmt.Sprintf("name %q is not a lower-case C++ identifier", e.Name)}
	}
	return nil
}
