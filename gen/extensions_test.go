package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/metatensor-go/metatensor/gen/cheader"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// extensionsSpec has one function of the ABI and one extension, declared in that order or the
// other.
func extensionsSpec(extensionFirst bool) string {
	abi := `
  - name: mts_b
    group: misc
    returns: {convention: status}
    doc: b`
	extension := `
  - name: mtsx_a
    group: extensions
    returns: {convention: status}
    doc: a`
	functions := abi + extension
	if extensionFirst {
		functions = extension + abi
	}
	return "version: \"1.0.0\"\nfunctions:" + functions + "\n"
}

// TestExtensionsAreMarked checks that extensions, and only they, carry the mtsx_ prefix, and
// that the header declares them last, under their heading.
func TestExtensionsAreMarked(t *testing.T) {
	_, err := spec.Parse([]byte(strings.NewReplacer("mtsx_a", "mts_a", "mts_b", "mtsx_b").Replace(extensionsSpec(false))))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "function mts_a: the functions of group extensions, and only they, are named mtsx_*")
	assert.Contains(t, err.Error(), "function mtsx_b: the functions of group extensions, and only they, are named mtsx_*")

	api, err := spec.Parse([]byte(extensionsSpec(true)))
	require.NoError(t, err)
	header := string(cheader.Metatensor(api))
	heading := strings.Index(header, "/* Extensions:")
	require.Positive(t, heading)
	assert.Less(t, strings.Index(header, "mts_b("), heading)
	assert.Greater(t, strings.Index(header, "mtsx_a("), heading)
	assert.Equal(t, 1, strings.Count(header, "/* Extensions:"))
}
