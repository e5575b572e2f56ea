package core

import (
	"os"
	"path/filepath"
	"testing"
)

// The loaders must survive any bytes: no panic, no hang, and no array larger than the input
// could fill (deflate expands at most ~1032 times).

// fuzzSeeds adds files written by this package and the reference's fixtures.
func fuzzSeeds(f *testing.F, saved ...[]byte) {
	for _, data := range saved {
		f.Add(data)
	}
	paths, _ := filepath.Glob(filepath.Join("testdata", "mts", "*"))
	npy, _ := filepath.Glob(filepath.Join("testdata", "npy", "*.npy"))
	for _, path := range append(paths, npy...) {
		if data, err := os.ReadFile(path); err == nil && len(data) < 1<<20 {
			f.Add(data)
		}
	}
}

// boundedArrays creates host arrays, failing the fuzz input when one is out of proportion.
func boundedArrays(t *testing.T, input []byte) CreateArray {
	return func(shape []uintptr, dtype DType) (Array, error) {
		elements := uint64(1)
		for _, d := range shape {
			elements *= uint64(d)
		}
		if bytes := elements * uint64(dtype.ElementSize()); bytes > 1100*uint64(len(input))+1024 {
			t.Fatalf("asked for a %d-byte array from %d bytes of input", bytes, len(input))
		}
		return NewHostArray(dtype, shape)
	}
}

func FuzzLoadLabels(f *testing.F) {
	fuzzSeeds(f, fuzzSaved(f, "labels"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if labels, err := LoadLabelsBuffer(data); err == nil {
			labels.Release()
		}
	})
}

func FuzzLoadBlock(f *testing.F) {
	fuzzSeeds(f, fuzzSaved(f, "block"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if block, err := LoadBlockBuffer(data, boundedArrays(t, data)); err == nil {
			block.Free()
		}
	})
}

func FuzzLoadTensorMap(f *testing.F) {
	fuzzSeeds(f, fuzzSaved(f, "tensor"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if tensor, err := LoadTensorMapBuffer(data, boundedArrays(t, data)); err == nil {
			tensor.Free()
		}
	})
}

// fuzzSaved saves the test tensor map, one of its blocks or its keys.
func fuzzSaved(f *testing.F, what string) []byte {
	tensor := testTensorMap(f)
	defer tensor.Free()
	sink := &memorySink{}
	var err error
	switch what {
	case "labels":
		err = SaveLabels(sink, tensor.Keys())
	case "block":
		err = SaveBlock(sink, tensor.Blocks()[0])
	default:
		err = SaveTensorMap(sink, tensor)
	}
	if err != nil {
		f.Fatal(err)
	}
	return sink.data
}
