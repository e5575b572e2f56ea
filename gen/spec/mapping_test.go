package spec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/metatensor-go/metatensor/gen/spec"
)

// entry is a target's mapping entry with one key, for these tests.
type entry struct {
	Name string `yaml:"name"`
}

var target = spec.Target[entry]{Name: "test", Excludes: true, Check: func(f *spec.Function, e *entry) []string {
	if e.Name == "bad" {
		return []string{"bad name"}
	}
	return nil
}}

func twoFunctions(t *testing.T) *spec.API {
	t.Helper()
	api, err := spec.Parse([]byte(`
version: "1.0.0"
functions:
  - {name: mts_a, group: misc, returns: {convention: status}, doc: a, params: []}
  - {name: mts_b, group: misc, returns: {convention: status}, doc: b, params: []}
`))
	require.NoError(t, err)
	return api
}

// TestMappingReportsEveryProblem checks that one load names every function the mapping gets
// wrong: unmapped, unknown, both mapped and excluded, excluded without a reason, refused by
// the target.
func TestMappingReportsEveryProblem(t *testing.T) {
	api := twoFunctions(t)
	_, err := spec.ParseMapping("test.yaml", []byte(`
functions:
  mts_b: {name: bad}
  mts_nowhere: {}
excluded:
  mts_b: " "
  mts_gone: Not here.
`), api, target)
	require.Error(t, err)
	for _, problem := range []string{
		`test.yaml has 4 problem(s)`,
		`function mts_a is neither mapped nor excluded`,
		`function mts_b is both mapped and excluded`,
		`functions names the unknown function mts_nowhere`,
		`excluded names the unknown function mts_gone`,
	} {
		assert.Contains(t, err.Error(), problem)
	}

	_, err = spec.ParseMapping("test.yaml", []byte("functions:\n  mts_a: {}\nexcluded:\n  mts_b: \"\"\n"), api, target)
	assert.ErrorContains(t, err, "function mts_b is excluded without a reason")
	_, err = spec.ParseMapping("test.yaml", []byte("functions:\n  mts_a: {}\n  mts_b: {name: bad}\n"), api, target)
	assert.ErrorContains(t, err, "function mts_b: bad name")
}

func TestMappingAcceptsEveryFunctionOnce(t *testing.T) {
	api := twoFunctions(t)
	m, err := spec.ParseMapping("test.yaml", []byte("functions:\n  mts_a:\n  mts_b: {name: B}\n"), api, target)
	require.NoError(t, err)
	assert.Equal(t, &entry{}, m.Entry("mts_a"), "a key without a value is an empty entry")
	assert.Equal(t, "B", m.Entry("mts_b").Name)

	noExclusions := target
	noExclusions.Excludes = false
	_, err = spec.ParseMapping("test.yaml", []byte("functions:\n  mts_a: {}\nexcluded:\n  mts_b: C only.\n"), api, noExclusions)
	assert.ErrorContains(t, err, "function mts_b is excluded, but this target must implement every function")
}

func TestMappingRejectsUnknownKeys(t *testing.T) {
	_, err := spec.ParseMapping("test.yaml", []byte("functions:\n  mts_a: {nmae: A}\n"), twoFunctions(t), target)
	assert.ErrorContains(t, err, "nmae")
	_, err = spec.ParseMapping("test.yaml", []byte("functoins: {}\n"), twoFunctions(t), target)
	assert.ErrorContains(t, err, "functoins")
}
