package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metatensor-go/metatensor/gen/cgo"
	"github.com/metatensor-go/metatensor/gen/cname"
	"github.com/metatensor-go/metatensor/gen/golang"
	"github.com/metatensor-go/metatensor/gen/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// TestGolden runs every generator on the fixture spec, which uses every case of the type
// grammar, and compares the outputs with testdata/golden (refreshed by -update).
func TestGolden(t *testing.T) {
	in, err := Load("testdata/fixture.yaml")
	require.NoError(t, err)
	outputs, err := Outputs(in)
	require.NoError(t, err)
	for _, out := range outputs {
		golden := filepath.Join("testdata", "golden", out.Path)
		if *update {
			require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
			require.NoError(t, os.WriteFile(golden, out.Content, 0o644))
			continue
		}
		want, err := os.ReadFile(golden)
		require.NoError(t, err, "missing golden file; run go test ./gen/... -update")
		assert.Equal(t, string(want), string(out.Content), "%s differs from its golden file", out.Path)
	}
}

// TestCommittedOutputsAreFresh fails when spec/api.yaml and the committed generated files
// disagree.
func TestCommittedOutputsAreFresh(t *testing.T) {
	in, err := Load("../spec/api.yaml")
	require.NoError(t, err)
	outputs, err := AllOutputs(in, "..")
	require.NoError(t, err)
	for _, out := range outputs {
		current, err := os.ReadFile(filepath.Join("..", out.Path))
		require.NoError(t, err)
		assert.Equal(t, string(out.Content), string(current), "%s is stale: run go generate ./...", out.Path)
	}
}

// TestFixtureSpellings pins the C spelling of each grammar case, independent of the goldens.
func TestFixtureSpellings(t *testing.T) {
	api, err := spec.Load("testdata/fixture.yaml")
	require.NoError(t, err)
	want := map[string]string{
		"mts_fix_version": "const char *mts_fix_version(void)",
		"mts_fix_set":     "mts_status_t mts_fix_set(void *data, void (*deleter)(struct FixOwner *self))",
		"mts_thing":       "const struct mts_thing_t *mts_thing(const char *const *names, uintptr_t names_count, struct mts_fix_array_t array)",
		"mts_thing_view":  "mts_status_t mts_thing_view(const struct mts_thing_t *thing, const int32_t **values, uintptr_t *rows, uintptr_t *cols, const struct mts_thing_t **result, int64_t *mapping, uintptr_t mapping_count, uint64_t *selected, uintptr_t *selected_count)",
		"mts_box":         "struct mts_box_t *mts_box(const struct mts_thing_t *const *parts, uintptr_t parts_count, FixPair pair, bool flag)",
		"mts_box_take":    "mts_status_t mts_box_take(struct mts_box_t **boxes, uintptr_t boxes_count, struct mts_box_t **first, const char *const **names, uintptr_t *names_count, struct FixOwner *owner, fix_id_t id, const char **text)",
		"mts_box_save":    "mts_status_t mts_box_save(uint8_t **buffer, uintptr_t *buffer_count, mts_fix_grow_t grow, char *name, uintptr_t name_size, const struct mts_box_t *box)",
	}
	for _, f := range api.Functions {
		if spelling, ok := want[f.Name]; ok {
			assert.Equal(t, spelling, cname.CFunction(f.Name, &f.Returns, f.Params))
		}
	}
}

// TestValidationReportsEverything checks that one load reports every problem of a broken spec.
func TestValidationReportsEverything(t *testing.T) {
	broken := `
version: "1.2"
enums:
  - {name: e, header: nowhere, doc: "", values: [{name: A, value: 0, doc: a}]}
objects:
  - {name: thing, c_name: mts_thing_t, free: mts_missing_free, doc: a thing}
  - {name: other, c_name: mts_other_t, free: mts_other_free, doc: another thing}
functions:
  - name: mts_a
    group: labels
    returns: {convention: object, type: struct.Nope}
    doc: a
    params:
      - {name: values, type: array<int32>, doc: no count}
      - {name: other, type: map<int32>, doc: bad wrapper}
      - {name: n, type: int32, doc: x, count: values}
  - name: mts_a
    group: nowhere
    returns: {convention: status}
    doc: ""
    params:
      - {name: values, type: array<int32>, count: missing, doc: dangling}
      - {name: n, type: usize, doc: x}
      - {name: n, type: usize, doc: x}
      - {name: class, type: usize, doc: a C++ keyword}
`
	_, err := spec.Parse([]byte(broken))
	require.Error(t, err)
	for _, problem := range []string{
		`version "1.2" is not MAJOR.MINOR.PATCH`,
		`enum e: header "nowhere"`,
		`enum e: empty doc`,
		`object thing: free function "mts_missing_free" is not a function`,
		`duplicate name "mts_a"`,
		`unresolved type struct.Nope`,
		`parameter values: array<int32> needs a count`,
		`unknown wrapper "map"`,
		`count given for a int32`,
		`group "nowhere"`,
		`function mts_a: empty doc`,
		`count "missing" is not a parameter here`,
		`parameter n: duplicate parameter name`,
		`parameter class: "class" is a C or C++ keyword`,
	} {
		assert.Contains(t, err.Error(), problem)
	}
}

// TestTargetRulesAreChecked checks the rules of the real mapping files: the Go binding can not
// exclude what makes or frees an object, and a Go export needs a status or an object to fail.
func TestTargetRulesAreChecked(t *testing.T) {
	api, err := spec.Parse([]byte(`
version: "1.0.0"
objects:
  - {name: other, c_name: mts_other_t, free: mts_other_free, doc: another thing}
functions:
  - {name: mts_v, group: misc, returns: {convention: void}, doc: a void function, params: []}
  - name: mts_other_free
    group: labels
    returns: {convention: status}
    doc: a free function
    params:
      - {name: other, type: object.other, doc: x}
  - {name: mts_make, group: labels, returns: {convention: object, type: object.other}, doc: a constructor, params: []}
`))
	require.NoError(t, err)
	_, err = spec.ParseMapping("go.yaml", []byte(`
functions:
  mts_v: {name: V}
excluded:
  mts_other_free: C only.
  mts_make: C only.
`), api, golang.Target)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `function mts_other_free can not be excluded, it frees the object other`)
	assert.Contains(t, err.Error(), `function mts_make can not be excluded, it makes an object`)

	_, err = spec.ParseMapping("cgo.yaml", []byte(`
functions:
  mts_v: {}
  mts_other_free: {implemented_in: c, call: "Free(other)", fast_path: true}
  mts_make: {implemented_in: rust}
excluded:
  mts_gone: "no reason"
`), api, cgo.Target)
	require.Error(t, err)
	for _, problem := range []string{
		`function mts_v: a void function must be implemented_in c`,
		`function mts_other_free: only generated bodies have a call`,
		`function mts_other_free: a fast path goes before a Go body: implemented_in c has none`,
		`function mts_make: implemented_in "rust" is not one of go, generated, c`,
		`excluded names the unknown function mts_gone`,
	} {
		assert.Contains(t, err.Error(), problem)
	}
}

func TestUnknownKeysAreRejected(t *testing.T) {
	_, err := spec.Parse([]byte("version: \"1.0.0\"\nfunctoins: []\n"))
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "functoins"), err.Error())
}

// TestFixtureHeaderCompiles compiles the fixture's generated header, which holds every
// grammar case, as C and as C++ with warnings as errors.
func TestFixtureHeaderCompiles(t *testing.T) {
	include := filepath.Join("testdata", "golden", "bindings", "c", "include")
	for _, compiler := range [][]string{
		{"cc", "-std=c99", "-x", "c"},
		{"c++", "-std=c++11", "-x", "c++"},
	} {
		if _, err := exec.LookPath(compiler[0]); err != nil {
			t.Fatalf("%s is needed to check the generated headers: %v", compiler[0], err)
		}
		args := append(compiler[1:], "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-I", include,
			filepath.Join(include, "metatensor.h"))
		out, err := exec.Command(compiler[0], args...).CombinedOutput()
		assert.NoError(t, err, "%s: %s", compiler[0], out)
	}
}
