package golang

import (
	"github.com/metatensor-go/metatensor/gen/goname"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// Entry is how the Go binding maps one function (spec/bindings/go.yaml), where the naming and
// calling rules do not say. Every field is optional.
type Entry struct {
	// Name is the Go counterpart: a function ("NewBlock"), a constant ("Version") or a method
	// ("Labels.Names").
	Name string `yaml:"name"`
	// Call is the Go expression of internal/core that does the work, written with the names
	// of the parameters: "tensor.Info().Get(key)".
	Call string `yaml:"call"`
	// Doc documents the Go counterpart, in Go's terms.
	Doc string `yaml:"doc"`
	// Infallible counterparts have no error result: they fail only on misuse (an object used
	// after Close), which panics.
	Infallible bool `yaml:"infallible"`
	// Borrowed says that the object Call gives belongs to one of the arguments: the Go
	// counterpart takes a new reference to labels, or a view of a block.
	Borrowed bool `yaml:"borrowed"`
	// Results names the Go results, in order, where the C names do not suit Go.
	Results []string `yaml:"results"`
}

// Mapping is the Go binding's mapping file.
type Mapping = spec.Mapping[Entry]

// Target describes spec/bindings/go.yaml: functions only meaningful in C are excluded.
var Target = spec.Target[Entry]{Name: "go", Excludes: true, Check: check}

// check makes sure the naming rule gives a name to every function the file does not name.
func check(f *spec.Function, e *Entry) []string {
	if _, err := goname.Counterpart(f.Name, e.Name); err != nil {
		return []string{err.Error()}
	}
	return nil
}

// Counterpart gives the Go declaration implementing a function of the spec (goname.Counterpart),
// or "" for a function the mapping excludes (entry nil).
func Counterpart(f *spec.Function, entry *Entry) (string, error) {
	if entry == nil {
		return "", nil
	}
	return goname.Counterpart(f.Name, entry.Name)
}
