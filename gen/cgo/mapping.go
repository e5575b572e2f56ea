package cgo

import (
	"fmt"
	"slices"

	"github.com/metatensor-go/metatensor/gen/spec"
)

// Entry is how the export layer implements one function (spec/bindings/cgo.yaml).
type Entry struct {
	// ImplementedIn is go (default: a Go export calling the hand-written impl*), generated
	// (the same, the impl* written by Bodies from the core call) or c (a
	// hand-written C body, mtsgo_c_*).
	ImplementedIn string `yaml:"implemented_in"`
	// FastPath (for go and generated) puts a hand-written C body, mtsgo_c_*, between the
	// wrapper and the Go export: it takes the cases it can do in C and calls the export for
	// every other.
	FastPath bool `yaml:"fast_path"`
	// Call is the core expression of a generated body where it differs from the Go binding's
	// (which writes saves into a growable buffer as a core.SaveSink).
	Call string `yaml:"call"`
	// LentToBody names taken mts_array_t parameters, destroyed whatever happens
	// (consumed_on_error), that the Go body only uses during the call: the C wrapper passes it
	// the address of its own copy, and destroys the array once the body returned, instead of
	// the body copying the struct into C memory it allocates and destroying it through a call
	// into C of its own. The body must destroy it last, after any other call into the caller's
	// arrays, so that the order of those calls stays the same.
	LentToBody []string `yaml:"lent_to_body"`
}

// lent tells whether the body borrows the parameter from the C wrapper (LentToBody).
func (e *Entry) lent(p *spec.Param) bool {
	return slices.Contains(e.LentToBody, p.Name)
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
	if e.ImplementedIn != "go" && e.ImplementedIn != "c" && e.ImplementedIn != "generated" {
		problems = append(problems, fmt.Sprintf("implemented_in %q is not one of go, generated, c", e.ImplementedIn))
	}
	if e.FastPath && e.ImplementedIn == "c" {
		problems = append(problems, "a fast path goes before a Go body: implemented_in c has none")
	}
	if e.Call != "" && e.ImplementedIn != "generated" {
		problems = append(problems, "only generated bodies have a call")
	}
	for _, name := range e.LentToBody {
		var param *spec.Param
		for _, p := range f.Params {
			if p.Name == name {
				param = p
			}
		}
		switch {
		case param == nil:
			problems = append(problems, fmt.Sprintf("lent_to_body names %q, which is no parameter", name))
		case !param.ConsumedOnError || param.Direction != "in":
			problems = append(problems, fmt.Sprintf("lent_to_body %q must be a taken array that is destroyed whatever happens (consumed_on_error)", name))
		case e.ImplementedIn == "c" || e.FastPath:
			problems = append(problems, fmt.Sprintf("lent_to_body %q needs a Go body the wrapper calls directly", name))
		}
	}
	if e.ImplementedIn != "c" && f.Returns.Convention != "status" && f.Returns.Convention != "object" {
		// Without a status or a NULL result, a Go body would have no way to report errors.
		problems = append(problems, fmt.Sprintf("a %s function must be implemented_in c", f.Returns.Convention))
	}
	return problems
}
