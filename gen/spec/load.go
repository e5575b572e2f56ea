package spec

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

// Load reads, normalises and validates a spec file. The error lists every problem found.
func Load(path string) (*API, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Parse is Load for spec text already in memory.
func Parse(data []byte) (*API, error) {
	decoder := yaml.NewDecoder(bytes.NewReader(data))
	decoder.KnownFields(true)
	api := &API{}
	if err := decoder.Decode(api); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	api.normalise()
	if err := api.validate(); err != nil {
		return nil, err
	}
	return api, nil
}

// normalise fills the defaults documented in spec/README.md so generators never see an
// empty direction or ownership.
func (api *API) normalise() {
	fill := func(params []*Param, member bool) {
		for _, p := range params {
			if p.Direction == "" {
				p.Direction = "in"
			}
			if p.Ownership == "" {
				p.Ownership = "borrowed"
			}
			p.Member = member
		}
	}
	for _, s := range api.Structs {
		fill(s.Members, true)
	}
	for _, c := range api.Callbacks {
		fill(c.Params, false)
	}
	for _, v := range api.Vtables {
		for _, m := range v.Methods {
			fill(m.Params, false)
		}
	}
	for _, f := range api.Functions {
		fill(f.Params, false)
	}
}

// problems collects validation errors so that all of them are reported together.
type problems []error

func (p *problems) add(format string, args ...any) {
	*p = append(*p, fmt.Errorf(format, args...))
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return fmt.Errorf("spec has %d problem(s):\n%w", len(p), errors.Join(p...))
}
