package cgo

import (
	"fmt"

	"github.com/metatensor-go/metatensor/gen/spec"
)

// Entry is how the export layer implements one function (spec/bindings/cgo.yaml).
type Entry struct {
	// ImplementedIn is go (default: a Go export calling the hand-written impl*) or c (a
	// hand-written C body, mtsgo_c_*).
	ImplementedIn string `yaml:"implemented_in"`
	// Pending functions have no core yet: the export returns "not implemented yet".
	Pending bool `yaml:"pending"`
}

// Mapping is the export layer's mapping file.
type Mapping = spec.Mapping[Entry]

// Target describes spec/bindings/cgo.yaml: every function of the ABI is exported, none is
// excluded.
var Target = spec.Target[Entry]{Name: "cgo", Check: check}

func check(f *spec.Function, e *Entry) []string {
	if e.ImplementedIn == "" {
		e.ImplementedIn = "go"
	}
	var problems []string
	if e.ImplementedIn != "go" && e.ImplementedIn != "c" {
		problems = append(problems, fmt.Sprintf("implemented_in %q is neither go nor c", e.ImplementedIn))
	}
	if e.Pending && e.ImplementedIn == "c" {
		problems = append(problems, "only Go implementations can be pending")
	}
	if e.ImplementedIn == "go" && f.Returns.Convention != "status" && f.Returns.Convention != "object" {
		// Without a status or a NULL result, a Go body would have no way to report errors.
		problems = append(problems, fmt.Sprintf("a %s function must be implemented_in c", f.Returns.Convention))
	}
	return problems
}
