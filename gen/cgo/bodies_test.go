package cgo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/metatensor-go/metatensor/gen/spec"
)

// loadSpec reads the repository's spec, with edit applied to its text first.
func loadSpec(t *testing.T, edit func(string) string) *spec.API {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "spec", "api.yaml"))
	require.NoError(t, err)
	api, err := spec.Parse([]byte(edit(string(data))))
	require.NoError(t, err)
	return api
}

var coreDir = filepath.Join("..", "..", "internal", "core")

func TestBodiesFollowTheCoreCall(t *testing.T) {
	api := loadSpec(t, func(s string) string { return s })
	source, err := Bodies(api, coreDir)
	require.NoError(t, err)
	text := string(source)
	// the object is looked up, the taken array released when a later lookup fails, the core
	// called, the result given its record
	assert.Contains(t, text, "func implTensormapKeysToSamples(")
	assert.Contains(t, text, "coreFillValue := arrayFromC(fill_value)")
	assert.Contains(t, text, "coreFillValue.Destroy()")
	assert.Contains(t, text, "return newTensorMapRecord(out0), nil")
	// a buffer sized by the entries of a labels argument is checked before the call
	union := text[strings.Index(text, "func implLabelsUnion("):]
	check := strings.Index(union, `checkEntries("first_mapping_count", first_mapping_count, "first", coreFirst.labels)`)
	call := strings.Index(union, "coreFirst.labels.Union(coreSecond.labels)")
	require.Positive(t, check)
	assert.Less(t, check, call)
	// a hand-written function gets no generated body
	assert.NotContains(t, text, "func implLabelsPosition(")
}

func TestBodiesRejectWhatNoRuleConverts(t *testing.T) {
	// mts_labels_position reads an array<int32>, which no rule converts
	api := loadSpec(t, func(s string) string {
		return strings.Replace(s, "  - name: mts_labels_position\n    group: labels\n",
			"  - name: mts_labels_position\n    group: labels\n    implemented_in: generated\n", 1)
	})
	_, err := Bodies(api, coreDir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mts_labels_position: no rule converts the parameter values (array<int32>)")
}

func TestBodiesRejectACallTheCoreDoesNotHave(t *testing.T) {
	api := loadSpec(t, func(s string) string {
		return strings.Replace(s, `cgo_call: "SaveBlock(buffer, block)"`, `cgo_call: "SaveBlok(buffer, block)"`, 1)
	})
	_, err := Bodies(api, coreDir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `mts_block_save_buffer: the core call "SaveBlok(buffer, block)"`)
}

func TestEntriesOfMustNameLabels(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "spec", "api.yaml"))
	require.NoError(t, err)
	text := strings.Replace(string(data), "entries_of: first,", "entries_of: nowhere,", 1)
	_, err = spec.Parse([]byte(text))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `parameter first_mapping: entries_of "nowhere" is not a labels parameter here`)
}
