package cpp

import (
	"strings"
	"testing"

	"github.com/metatensor-go/metatensor/gen/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMappingRules checks what the C++ target refuses: a checked call named by something
// other than a C++ identifier, and the exclusion of a constructor.
func TestMappingRules(t *testing.T) {
	api, err := spec.Load("../testdata/fixture.yaml")
	require.NoError(t, err)
	_, err = spec.ParseMapping("cpp.yaml", []byte(`
functions:
  mts_fix_version: {name: "Not An Identifier"}
  mts_fix_set: {}
  mts_thing_free: {}
  mts_thing_view: {}
  mts_box: {}
  mts_box_free: {}
  mts_box_take: {}
  mts_box_save: {}
excluded:
  mts_thing: no reason to make things.
`), api, Target)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `function mts_fix_version: name "Not An Identifier" is not a lower-case C++ identifier`)
	assert.Contains(t, err.Error(), `function mts_thing can not be excluded, it makes an object`)
}

// TestConventions pins the body each return convention gets.
func TestConventions(t *testing.T) {
	api, err := spec.Load("../testdata/fixture.yaml")
	require.NoError(t, err)
	m, err := spec.LoadMapping("../testdata/bindings", api, Target)
	require.NoError(t, err)
	out := string(Generate(api, m))
	for _, want := range []string{
		"inline const char *fix_version() {\n    return mts_fix_version();\n}",
		"inline void fix_set_checked(void *data, void (*deleter)(struct FixOwner *self)) {\n    metatensor::details::check_status(mts_fix_set(data, deleter));\n}",
		"    auto* result = mts_thing(names, names_count, array);\n    metatensor::details::check_pointer(result);\n    return result;",
		"/// Used by Thing::Thing.\n",
	} {
		assert.True(t, strings.Contains(out, want), "missing %q in\n%s", want, out)
	}
}
