package metatensor_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// The .mts files exchanged with the reference (metatensor-core), both ways.
//
// Run `make mts-compat` at the root of the repository first: the reference writes its
// fixtures into build/mts-compat/reference (tests/mts_compat/fixtures.py), and
// `make reference` installs the reference's Python package into build/reference-venv. Then
// `go test ./bindings/go -run Reference -v`. Without these directories the tests are
// skipped. MTS_COMPAT_REFERENCE_DIR and MTS_COMPAT_PYTHON name other locations.

const repositoryRoot = "../.."

func compatPath(env, relative string) string {
	if path := os.Getenv(env); path != "" {
		return path
	}
	return filepath.Join(repositoryRoot, relative)
}

// referenceFiles lists the reference's .mts files, or skips the test without them.
func referenceFiles(t *testing.T) (string, []string) {
	dir := compatPath("MTS_COMPAT_REFERENCE_DIR", "build/mts-compat/reference")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("no files written by the reference in %s (run `make mts-compat` first): %v", dir, err)
	}
	var names []string
	for _, entry := range entries {
		if strings.HasSuffix(entry.Name(), ".mts") {
			names = append(names, entry.Name())
		}
	}
	sort.Strings(names)
	require.NotEmpty(t, names)
	return dir, names
}

// saver is what Labels, TensorBlock and TensorMap share.
type saver interface {
	Close()
	Save(string) error
	SaveBuffer() ([]byte, error)
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
	}
	keep(load(path))
	keep(loadBuffer(data))
	keep(read(bytes.NewReader(data)))
	return loaded
}

// resave loads a file the reference wrote through the Go API (from its path, from its
// bytes and from a reader) and saves it again: to a path, or for the files the reference
// saved to a buffer, to a buffer. It gives the bytes written.
func resave(t *testing.T, path, out string) []byte {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	buffer := strings.HasSuffix(path, ".buffer.mts")

	var loaded []saver
	switch name := filepath.Base(path); {
	case strings.HasPrefix(name, "labels_"):
		loaded = loadEveryWay(t, path, data, metatensor.LoadLabels, metatensor.LoadLabelsBuffer, metatensor.ReadLabels)
	case strings.HasPrefix(name, "block_"):
		loaded = loadEveryWay(t, path, data, metatensor.LoadBlock, metatensor.LoadBlockBuffer, metatensor.ReadBlock)
	case strings.HasPrefix(name, "tensor_"):
		loaded = loadEveryWay(t, path, data, metatensor.LoadTensorMap, metatensor.LoadTensorMapBuffer, metatensor.ReadTensorMap)
	default:
		t.Fatalf("unknown kind of fixture: %s", name)
	}
	for _, object := range loaded {
		defer object.Close()
	}

	var written []byte
	for _, object := range loaded {
		var saved []byte
		if buffer {
			saved, err = object.SaveBuffer()
			require.NoError(t, err)
		} else {
			require.NoError(t, object.Save(out))
			saved, err = os.ReadFile(out)
			require.NoError(t, err)
		}
		if written != nil {
			require.Equal(t, written, saved, "every way of loading gives the same object")
		}
		written = saved
	}
	require.NoError(t, os.WriteFile(out, written, 0o644))
	return written
}

// TestReferenceFilesLoadAndSaveIdentically loads every file the reference wrote, and saves
// it again through the Go API: the bytes are the reference's, so that the reference reads
// what the Go API writes. With the reference's Python package at hand, the reference also
// reads the Go API's files back and compares them with its own fixtures.
func TestReferenceFilesLoadAndSaveIdentically(t *testing.T) {
	dir, names := referenceFiles(t)
	out := t.TempDir()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			reference, err := os.ReadFile(filepath.Join(dir, name))
			require.NoError(t, err)
			written := resave(t, filepath.Join(dir, name), filepath.Join(out, name))
			require.Equal(t, reference, written, "the Go API writes the reference's bytes")
		})
	}

	python := compatPath("MTS_COMPAT_PYTHON", "build/reference-venv/bin/python")
	if _, err := os.Stat(python); err != nil {
		t.Logf("the reference's Python package is not installed (%s): `make reference` to read the files back with it", python)
		return
	}
	python, err := filepath.Abs(python)
	require.NoError(t, err)
	check := exec.Command(python, filepath.Join(repositoryRoot, "tests/mts_compat/check.py"), out, "--all")
	check.Env = append(filteredEnv("MTS_LIBRARY"), "PYTHONDONTWRITEBYTECODE=1")
	output, err := check.CombinedOutput()
	require.NoError(t, err, "the reference reads the files of the Go API:\n%s", output)
	t.Logf("the reference read every file of the Go API: %s", lastLine(output))
}

// TestReferenceFilesContent checks what a few of the reference's files hold.
func TestReferenceFilesContent(t *testing.T) {
	dir, _ := referenceFiles(t)
	labels, err := metatensor.LoadLabels(filepath.Join(dir, "labels_zero_entries.mts"))
	require.NoError(t, err)
	defer labels.Close()
	require.Equal(t, 0, labels.Count())

	tensor, err := metatensor.LoadTensorMap(filepath.Join(dir, "tensor_nested_gradients.mts"))
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
		tensor, err := metatensor.LoadTensorMap(filepath.Join(dir, "tensor_"+dtype+".mts"))
		require.NoError(t, err)
		got, err := tensor.DType()
		require.NoError(t, err)
		require.Equal(t, dtype, strings.Replace(got.String(), "complex", "c", 1))
		tensor.Close()
	}
}

func filteredEnv(without string) []string {
	var env []string
	for _, variable := range os.Environ() {
		if !strings.HasPrefix(variable, without+"=") {
			env = append(env, variable)
		}
	}
	return env
}

func lastLine(output []byte) string {
	lines := strings.Split(strings.TrimSpace(string(output)), "\n")
	return lines[len(lines)-1]
}
