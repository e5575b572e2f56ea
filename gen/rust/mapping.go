package rust

import (
	"strings"

	"github.com/metatensor-go/metatensor/gen/spec"
)

// Entry is how the Rust crates map one function (spec/bindings/rust.yaml).
type Entry struct {
	// MustUse marks the sys crate's declaration #[must_use] so that an ignored status is a
	// warning; by default every function returning a status has it, as in the reference's
	// crate.
	MustUse *bool `yaml:"must_use"`
	// Users lists the hand-written items of the safe metatensor crate that call the function
	// ("Labels::union"). The safe crate gets a checked call for, and only for, the functions
	// with users; the compiler, not the generator, checks that they do call it (an unused
	// checked call is dead code, which the crate's lints refuse).
	Users []string `yaml:"users"`
}

// Mapping is the Rust mapping file.
type Mapping = spec.Mapping[Entry]

// Target describes spec/bindings/rust.yaml: the sys crate declares every function of the
// ABI, none is excluded.
var Target = spec.Target[Entry]{Name: "rust", Check: check}

func check(f *spec.Function, e *Entry) []string {
	var problems []string
	status := f.Returns.Convention == "status"
	if e.MustUse == nil {
		e.MustUse = &status
	}
	if *e.MustUse && f.Returns.Convention == "void" {
		problems = append(problems, "a function returning nothing can not be must_use")
	}
	for _, user := range e.Users {
		if strings.TrimSpace(user) == "" {
			problems = append(problems, "users holds an empty name")
		}
	}
	return problems
}
