package metatensor_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// The .mts files exchanged with the reference (metatensor-core), both ways.
//
// `make go-compat` at the root of the repository runs these tests after `make mts-compat`,
// and then has the reference's own Python package read back what they wrote
// (tests/mts_compat/go.sh); `make test` runs it. The variables it sets:
//
//	MTS_COMPAT_REFERENCE_DIR  the files the reference wrote (tests/mts_compat/fixtures.py);
//	                          when set, a missing or empty directory fails the tests
//	MTS_COMPAT_GO_DIR         where the Go binding writes its files: one directory per way
//	                          of saving (save, buffer, writer), each with a file of the same
//	                          name for every file of the reference
//
// Without MTS_COMPAT_REFERENCE_DIR the tests read build/mts-compat/reference, and are
// skipped when it does not exist (as in `go test ./...` before `make mts-compat`); without
// MTS_COMPAT_GO_DIR they write into a temporary directory.

const repositoryRoot = "../.."

// referenceFiles lists the reference's .mts files, or skips the test without them unless
// MTS_COMPAT_REFERENCE_DIR names their directory.
func referenceFiles(t *testing.T) (string, []string) {
	dir, required := os.LookupEnv("MTS_COMPAT_REFERENCE_DIR")
	if !required {
		dir = filepath.Join(repositoryRoot, "build/mts-compat/reference")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if required {
			t.Fatalf("MTS_COMPAT_REFERENCE_DIR=%s: %v", dir, err)
		}
		t.Skipf("no files written by the reference in %s (run `make mts-compat` first): %v", dir, err)
	}
	var names []string
	for _, entry := range entries {
		if strings.HasSuffix(entry.Name(), ".mts") {
			names = append(names, entry.Name())
		}
	}
	sort.Strings(names)
	require.NotEmpty(t, names, "no .mts file in %s", dir)
	return dir, names
}

// saver is what Labels, TensorBlock and TensorMap share.
type saver interface {
	io.WriterTo
	Close()
	Save(string) error
	SaveBuffer() ([]byte, error)
}

// saveWays are the ways of the Go API to save an object to a file, each named by the
// directory of MTS_COMPAT_GO_DIR its files go to.
var saveWays = []struct {
	dir  string
	save func(object saver, path string) error
}{
	{"save", func(object saver, path string) error { return object.Save(path) }},
	{"buffer", func(object saver, path string) error {
		data, err := object.SaveBuffer()
		if err != nil {
			return err
		}
		return os.WriteFile(path, data, 0o644)
	}},
	{"writer", func(object saver, path string) error {
		file, err := os.Create(path)
		if err != nil {
			return err
		}
		written, err := object.WriteTo(file)
		if closeErr := file.Close(); err == nil {
			err = closeErr
		}
		if info, statErr := os.Stat(path); err == nil && statErr == nil && info.Size() != written {
			err = fmt.Errorf("WriteTo says %d bytes, the file has %d", written, info.Size())
		}
		return err
	}},
}

// loadEveryWay loads the file at path, whose bytes are data, from its path, from its bytes
// and from a reader.
func loadEveryWay[T saver](t *testing.T, path string, data []byte,
	load func(string) (T, error), loadBuffer func([]byte) (T, error), read func(io.Reader) (T, error)) []saver {
	var loaded []saver
	keep := func(object T, err error) {
		t.Helper()
		require.NoError(t, err)
		loaded = append(loaded, object)
		t.Cleanup(object.Close)
	}
	keep(load(path))
	keep(loadBuffer(data))
	keep(read(bytes.NewReader(data)))
	return loaded
}

// loadReference loads a file the reference wrote, whose bytes are data, through the Go API:
// from its path, from its bytes and from a reader.
func loadReference(t *testing.T, path string, data []byte) []saver {
	switch name := filepath.Base(path); {
	case strings.HasPrefix(name, "labels_"):
		return loadEveryWay(t, path, data, metatensor.LoadLabels, metatensor.LoadLabelsBuffer, metatensor.ReadLabels)
	case strings.HasPrefix(name, "block_"):
		return loadEveryWay(t, path, data, hostLoader(metatensor.LoadBlock), hostLoader(metatensor.LoadBlockBuffer), hostLoader(metatensor.ReadBlock))
	case strings.HasPrefix(name, "tensor_"):
		return loadEveryWay(t, path, data, hostLoader(metatensor.LoadTensorMap), hostLoader(metatensor.LoadTensorMapBuffer), hostLoader(metatensor.ReadTensorMap))
	}
	t.Fatalf("unknown kind of fixture: %s", path)
	return nil
}

// sameBytes checks that the file at path holds the bytes expected, saying where it first
// differs (a whole diff of a large file says nothing).
func sameBytes(t *testing.T, expected []byte, path, what string) {
	t.Helper()
	actual, err := os.ReadFile(path)
	require.NoError(t, err)
	if bytes.Equal(expected, actual) {
		return
	}
	offset := 0
	for offset < len(expected) && offset < len(actual) && expected[offset] == actual[offset] {
		offset++
	}
	t.Errorf("%s: not the reference's bytes: %d bytes, expected %d; first difference at byte %d",
		what, len(actual), len(expected), offset)
}

// TestReferenceFilesLoadAndSaveIdentically loads every file the reference wrote through the
// Go API (from its path, from its bytes and from a reader) and saves each object again in
// every way (to a path, to a buffer, to an io.Writer): every file written holds the
// reference's bytes. The files of the object loaded last stay in MTS_COMPAT_GO_DIR, for the
// reference to read them back (tests/mts_compat/go.sh).
func TestReferenceFilesLoadAndSaveIdentically(t *testing.T) {
	dir, names := referenceFiles(t)
	out := os.Getenv("MTS_COMPAT_GO_DIR")
	if out == "" {
		out = t.TempDir()
	}
	for _, way := range saveWays {
		require.NoError(t, os.MkdirAll(filepath.Join(out, way.dir), 0o755))
	}

	loads := []string{"path", "buffer", "reader"}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			reference, err := os.ReadFile(filepath.Join(dir, name))
			require.NoError(t, err)
			for i, object := range loadReference(t, filepath.Join(dir, name), reference) {
				for _, way := range saveWays {
					path := filepath.Join(out, way.dir, name)
					what := fmt.Sprintf("loaded from a %s, saved to a %s", loads[i], way.dir)
					if assert.NoError(t, way.save(object, path), what) {
						sameBytes(t, reference, path, what)
					}
				}
			}
		})
	}
}

// TestReferenceFilesContent checks what a few of the reference's files hold.
func TestReferenceFilesContent(t *testing.T) {
	dir, _ := referenceFiles(t)
	labels, err := metatensor.LoadLabels(filepath.Join(dir, "labels_zero_entries.mts"))
	require.NoError(t, err)
	defer labels.Close()
	require.Equal(t, 0, labels.Count())

	tensor, err := metatensor.LoadTensorMap(filepath.Join(dir, "tensor_nested_gradients.mts"), nil)
	require.NoError(t, err)
	defer tensor.Close()
	nested := 0
	for block := range tensor.Blocks() {
		for _, gradient := range block.Gradients() {
			require.True(t, gradient.IsView())
			nested += len(gradient.GradientParameters())
		}
	}
	require.Positive(t, nested, "gradients of gradients are loaded")

	for _, dtype := range []string{"f16", "bool", "c128", "u64"} {
		tensor, err := metatensor.LoadTensorMap(filepath.Join(dir, "tensor_"+dtype+".mts"), nil)
		require.NoError(t, err)
		got, err := tensor.DType()
		require.NoError(t, err)
		require.Equal(t, dtype, strings.Replace(got.String(), "complex", "c", 1))
		tensor.Close()
	}
}
