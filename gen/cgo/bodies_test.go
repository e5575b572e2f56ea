package cgo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/metatensor-go/metatensor/gen/golang"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// repoSpec loads the repository's spec and its cgo mapping, with edit applied to the text of
// the mapping first; the error is the mapping's.
func repoSpec(t *testing.T, edit func(string) string) (*spec.API, *Mapping, error) {
	t.Helper()
	specDir := filepath.Join("..", "..", "spec")
	api, err := spec.Load(filepath.Join(specDir, "api.yaml"))
	require.NoError(t, err)
	path := filepath.Join(specDir, "bindings", "cgo.yaml")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := spec.ParseMapping(path, []byte(edit(string(data))), api, Target)
	return api, m, err
}

func unedited(s string) string { return s }

// bodiesOf generates the bodies of the repository's spec, with edit applied to the text of
// its cgo mapping first.
func bodiesOf(t *testing.T, edit func(string) string) (string, error) {
	t.Helper()
	api, m, err := repoSpec(t, edit)
	require.NoError(t, err)
	goMapping, err := spec.LoadMapping(filepath.Join("..", "..", "spec", "bindings"), api, golang.Target)
	require.NoError(t, err)
	source, err := Bodies(api, m, goMapping, filepath.Join("..", "..", "internal", "core"))
	return string(source), err
}

func TestBodiesFollowTheCoreCall(t *testing.T) {
	text, err := bodiesOf(t, unedited)
	require.NoError(t, err)
	// the object is looked up, the taken array released when a later lookup fails, the core
	// called, the result given its record
	assert.Contains(t, text, "func implTensormapKeysToSamples(")
	assert.Contains(t, text, "fillValueCore := arrayLentToBody(fill_value)") // lent_to_body
	assert.Contains(t, text, "fillValueCore.Destroy()")
	assert.Contains(t, text, "fill_value *C.struct_mts_array_t")
	assert.Contains(t, text, "return newTensorMapRecord(out0), nil")
	// a buffer sized by the entries of a labels argument is checked before the call
	union := text[strings.Index(text, "func implLabelsUnion("):]
	check := strings.Index(union, `checkEntries("first_mapping_count", first_mapping_count, "first", firstCore.labels)`)
	call := strings.Index(union, "firstCore.labels.Union(secondCore.labels)")
	require.Positive(t, check)
	assert.Less(t, check, call)
	// a hand-written function gets no generated body
	assert.NotContains(t, text, "func implLabelsPosition(")
}

func TestBodiesRejectWhatNoRuleConverts(t *testing.T) {
	// mts_labels_position reads an array<int32>, which no rule converts
	_, err := bodiesOf(t, func(s string) string {
		return strings.Replace(s, "mts_labels_position: {fast_path: true}", "mts_labels_position: {implemented_in: generated, fast_path: true}", 1)
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mts_labels_position: no rule converts the parameter values (array<int32>)")
}

func TestBodiesRejectACallTheCoreDoesNotHave(t *testing.T) {
	_, err := bodiesOf(t, func(s string) string {
		return strings.Replace(s, `call: "SaveBlock(buffer, block)"`, `call: "SaveBlok(buffer, block)"`, 1)
	})
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

func TestLentArraysAreDestroyedByTheWrapper(t *testing.T) {
	api, m, err := repoSpec(t, unedited)
	require.NoError(t, err)
	text := string(cWrappers(api, m))
	wrapper := text[strings.Index(text, "struct mts_tensormap_t *mts_tensormap_keys_to_samples("):]
	wrapper = wrapper[:strings.Index(wrapper, "\n}\n")]
	call := strings.Index(wrapper, "mtsgo_tensormap_keys_to_samples(")
	destroy := strings.LastIndex(wrapper, "mtsgo_array_destroy(&fill_value);")
	require.Positive(t, call)
	assert.Contains(t, wrapper[call:], ", &fill_value, sort_samples);", "the body borrows the wrapper's copy")
	assert.Greater(t, destroy, call, "the wrapper destroys the array after the body")
	assert.Less(t, destroy, strings.Index(wrapper, "return mtsgo_handle_of_result(result);"))
}

func TestLentToBodyNeedsAConsumedArrayAndAGoBody(t *testing.T) {
	for edit, problem := range map[string]string{
		"lent_to_body: [sort_samples]":                `lent_to_body "sort_samples" must be a taken array that is destroyed whatever happens`,
		"lent_to_body: [nowhere]":                     `lent_to_body names "nowhere", which is no parameter`,
		"lent_to_body: [fill_value], fast_path: true": `lent_to_body "fill_value" needs a Go body the wrapper calls directly`,
	} {
		_, _, err := repoSpec(t, func(text string) string {
			return strings.Replace(text, "mts_tensormap_keys_to_samples: {implemented_in: generated, lent_to_body: [fill_value]}",
				"mts_tensormap_keys_to_samples: {implemented_in: generated, "+edit+"}", 1)
		})
		require.Error(t, err, edit)
		assert.Contains(t, err.Error(), problem)
	}
}
