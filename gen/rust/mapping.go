package rust

import "github.com/metatensor-go/metatensor/gen/spec"

// Entry is how the sys crate declares one function (spec/bindings/rust.yaml).
type Entry struct {
	// MustUse marks the declaration #[must_use] so that an ignored status is a warning; by
	// default every function returning a status has it, as in the reference's crate.
	MustUse *bool `yaml:"must_use"`
}

// Mapping is the Rust mapping file.
type Mapping = spec.Mapping[Entry]

// Target describes spec/bindings/rust.yaml: the sys crate declares every function of the
// ABI, none is excluded.
var Target = spec.Target[Entry]{Name: "rust", Check: check}

func check(f *spec.Function, e *Entry) []string {
	status := f.Returns.Convention == "status"
	if e.MustUse == nil {
		e.MustUse = &status
	}
	if *e.MustUse && f.Returns.Convention == "void" {
		return []string{"a function returning nothing can not be must_use"}
	}
	return nil
}
