package core

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// FuzzInfoJSON decodes any text as an info entry: it never panics, rejects text that is not
// UTF-8, and what it accepts encodes and decodes back to the same info.
func FuzzInfoJSON(f *testing.F) {
	f.Add(encodeInfoJSON(infoOf(f, "creator", "tests", "about", "a \"quoted\"\n\ttext, é \x01")))
	for _, text := range []string{`{}`, `{"a": "b", "a": "c"}`, `{"a": 1}`, `[1, {"a": []}]`, `{"a": "\ud800"}`,
		`{"a": "b\u0000c"}`, "{\"a\": \"b\xff\"}", `{"a": "b"} x`, ` {"a" : "b" } `} {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var decoded Info
		err := decodeInfoJSON(text, &decoded)
		if err != nil {
			require.ErrorIs(t, err, &Error{Status: SerializationError})
			return
		}
		require.True(t, utf8.Valid(text), "accepted text that is not UTF-8")
		var again Info
		require.NoError(t, decodeInfoJSON(encodeInfoJSON(&decoded), &again))
		require.ElementsMatch(t, decoded.Keys(), again.Keys())
		for _, key := range decoded.Keys() {
			want, _ := decoded.Get(key)
			got, _ := again.Get(key)
			require.Equal(t, want, got)
		}
	})
}

// FuzzLoadPaths loads any bytes from a file with the three path loaders: they must agree
// with the buffer loaders on whether the bytes load, and with the same status.
func FuzzLoadPaths(f *testing.F) {
	fuzzSeeds(f, fuzzSaved(f, "labels"), fuzzSaved(f, "block"), fuzzSaved(f, "tensor"))
	path := filepath.Join(f.TempDir(), "fuzz.mts")
	f.Fuzz(func(t *testing.T, data []byte) {
		require.NoError(t, os.WriteFile(path, data, 0o600))
		loadBoth(t, data, func() (*ArrayLabels, error) { return LoadLabelsFile(path) },
			func() (*ArrayLabels, error) { return LoadLabelsBuffer(data) }, (*ArrayLabels).Release)
		loadBoth(t, data, func() (*Block, error) { return LoadBlockFile(path, boundedArrays(t, data)) },
			func() (*Block, error) { return LoadBlockBuffer(data, boundedArrays(t, data)) }, (*Block).Free)
		loadBoth(t, data, func() (*TensorMap, error) { return LoadTensorMapFile(path, boundedArrays(t, data)) },
			func() (*TensorMap, error) { return LoadTensorMapBuffer(data, boundedArrays(t, data)) }, (*TensorMap).Free)
	})
}

// loadBoth loads with a path loader and its buffer counterpart, checks they agree and frees
// what they loaded.
func loadBoth[T comparable](t *testing.T, data []byte, fromFile, fromBuffer func() (T, error), free func(T)) {
	t.Helper()
	var none T
	file, fileErr := fromFile()
	buffer, bufferErr := fromBuffer()
	requireSameOutcome(t, fileErr, bufferErr, len(data))
	for _, loaded := range []T{file, buffer} {
		if loaded != none {
			free(loaded)
		}
	}
}

// requireSameOutcome: both loads fail with the same status, or both succeed. An empty
// file is the exception: an empty buffer is refused before anything is read.
func requireSameOutcome(t *testing.T, fileErr, bufferErr error, size int) {
	t.Helper()
	if size == 0 {
		return
	}
	if fileErr == nil || bufferErr == nil {
		require.Equal(t, fileErr == nil, bufferErr == nil, "file: %v, buffer: %v", fileErr, bufferErr)
		return
	}
	require.Equal(t, fileErr.(*Error).Status, bufferErr.(*Error).Status, "file: %v, buffer: %v", fileErr, bufferErr)
}
