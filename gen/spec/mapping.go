package spec

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Mapping is one target's decisions about the functions of the ABI, read from
// spec/bindings/<target>.yaml: an entry of the target's own schema (E) per function, or the
// reason why the target has no counterpart for it.
type Mapping[E any] struct {
	Functions map[string]*E     `yaml:"functions"`
	Excluded  map[string]string `yaml:"excluded"`
}

// Entry gives the mapping of a function, nil when the target excludes it.
func (m *Mapping[E]) Entry(function string) *E {
	return m.Functions[function]
}

// Target is what a generator says about its mapping file.
type Target[E any] struct {
	// Name is the file's name without .yaml: go gives spec/bindings/go.yaml.
	Name string
	// Excludes is true for the targets that may leave functions out.
	Excludes bool
	// Check validates the entry of one function, and may fill its defaults; it gives the
	// problems found.
	Check func(f *Function, entry *E) []string
}

// LoadMapping reads the mapping of target from the bindings directory beside the spec.
func LoadMapping[E any](dir string, api *API, target Target[E]) (*Mapping[E], error) {
	path := dir + "/" + target.Name + ".yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseMapping(path, data, api, target)
}

// ParseMapping decodes a mapping and checks it against the spec: every function is mapped
// or, where the target allows it, excluded with a reason; nothing else is named. The error
// lists every problem found.
func ParseMapping[E any](path string, data []byte, api *API, target Target[E]) (*Mapping[E], error) {
	decoder := yaml.NewDecoder(bytes.NewReader(data))
	decoder.KnownFields(true)
	m := &Mapping[E]{}
	if err := decoder.Decode(m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var p problems
	known := map[string]bool{}
	for _, f := range api.Functions {
		known[f.Name] = true
		entry, mapped := m.Functions[f.Name]
		reason, excluded := m.Excluded[f.Name]
		switch {
		case mapped && excluded:
			p.add("function %s is both mapped and excluded", f.Name)
		case excluded:
			checkExclusion(&p, api, f, reason, target.Excludes)
		case !mapped:
			p.add("function %s is neither mapped nor excluded", f.Name)
		default:
			if entry == nil {
				entry = new(E) // a key without a value: nothing to say beyond the defaults
				m.Functions[f.Name] = entry
			}
			for _, problem := range target.Check(f, entry) {
				p.add("function %s: %s", f.Name, problem)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.Functions)) {
		if !known[name] {
			p.add("functions names the unknown function %s", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.Excluded)) {
		if !known[name] {
			p.add("excluded names the unknown function %s", name)
		}
	}
	if len(p) > 0 {
		return nil, fmt.Errorf("%s has %d problem(s):\n%w", path, len(p), errors.Join(p...))
	}
	return m, nil
}

// checkExclusion allows leaving out what a language can do without: never the making or the
// freeing of an object.
func checkExclusion(p *problems, api *API, f *Function, reason string, allowed bool) {
	switch {
	case !allowed:
		p.add("function %s is excluded, but this target must implement every function", f.Name)
	case strings.TrimSpace(reason) == "":
		p.add("function %s is excluded without a reason", f.Name)
	}
	if o := api.FreeFunctionOf(f); o != nil {
		p.add("function %s can not be excluded, it frees the object %s, which every language must release", f.Name, o.Name)
	}
	if f.Returns.Convention == "object" {
		p.add("function %s can not be excluded, it makes an object, which every language must be able to make", f.Name)
	}
}
