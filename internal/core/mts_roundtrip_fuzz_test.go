package core

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzSaveLoadRoundTrip builds a tensor map from the fuzzer's bytes (blocks, components,
// gradients nested or not, any float64 bits, any info text), saves it and loads it back:
// the loaded tensor map must be the same (saving it again gives the same bytes).
func FuzzSaveLoadRoundTrip(f *testing.F) {
	f.Add([]byte{1, 2, 3, 1, 0x11})
	f.Add([]byte{3, 0, 1, 2, 0x33, 'a', 0xff, 0x80, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{2, 4, 4, 0, 0x03, 0xc3, 0xa9, '"', '\\', 0x00, '\n', 0xf0, 0x9f, 0x98, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		tensor := fuzzTensorMap(t, &byteReader{data: data})
		defer tensor.Free()
		saved, err := SaveTensorMapBuffer(tensor)
		if err != nil {
			// Only info values that are not UTF-8 can not be saved.
			require.ErrorIs(t, err, &Error{Status: InternalError})
			require.ErrorContains(t, err, "is not valid UTF-8")
			return
		}
		loaded, err := LoadTensorMapBuffer(saved, createHost)
		require.NoError(t, err)
		defer loaded.Free()
		require.Equal(t, tensor.Info().Len(), loaded.Info().Len())
		again, err := SaveTensorMapBuffer(loaded)
		require.NoError(t, err)
		require.True(t, bytes.Equal(saved, again), "the loaded tensor map saves differently")
	})
}

// fuzzTensorMap: up to 3 blocks of up to 3 samples, up to 2 components and up to 3
// properties, each with up to 2 gradients (a gradient of a gradient as well), and up to 3
// info entries of arbitrary bytes.
func fuzzTensorMap(t *testing.T, r *byteReader) *TensorMap {
	count := int(r.byte() % 4)
	samples, properties := int(r.byte()%4), 1+int(r.byte()%3)
	var components []*ArrayLabels
	for i := range int(r.byte() % 3) {
		components = append(components, rangeLabels(t, string(rune('x'+i)), 1+int(r.byte()%3)))
	}
	gradients := r.byte()
	blocks := make([]*Block, count)
	for b := range blocks {
		blocks[b] = fuzzBlock(t, r, rangeLabels(t, "s", samples), components, rangeLabels(t, "p", properties))
		for g, parameter := range []string{"cell", "positions"} {
			if gradients&(1<<g) == 0 {
				continue
			}
			gradient := fuzzGradient(t, r, samples, components, blocks[b].Properties())
			if gradients&(4<<g) != 0 {
				require.NoError(t, gradient.AddGradient("strain", fuzzGradient(t, r, samples, components, blocks[b].Properties())))
			}
			require.NoError(t, blocks[b].AddGradient(parameter, gradient))
		}
	}
	for _, component := range components {
		component.Release()
	}
	keys := rangeLabels(t, "k", count)
	tensor, err := NewTensorMap(keys, blocks)
	require.NoError(t, err)
	keys.Release()
	for range int(r.byte() % 4) {
		key, value := fuzzText(r), fuzzText(r)
		if tensor.Info().Set(key, value) != nil {
			require.NotEmpty(t, utf8Problem(key))
		}
	}
	return tensor
}

// fuzzBlock makes a block of the labels (taking their references, but for the components)
// with float64 values of any bits.
func fuzzBlock(t *testing.T, r *byteReader, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels) *Block {
	shape := labelsShape(samples, components, properties)
	values := make([]float64, product(shape))
	for i := range values {
		var bits [8]byte
		for k := range bits {
			bits[k] = r.byte()
		}
		values[i] = math.Float64frombits(binary.LittleEndian.Uint64(bits[:]))
	}
	for _, component := range components {
		component.Retain()
	}
	block := newTestBlock(t, values, samples, components, properties)
	return block
}

// fuzzGradient makes a gradient with a sample per sample of its parent, sharing its
// properties.
func fuzzGradient(t *testing.T, r *byteReader, samples int, components []*ArrayLabels, properties *ArrayLabels) *Block {
	properties.Retain()
	return fuzzBlock(t, r, rangeLabels(t, "sample", samples), components, properties)
}

// fuzzText gives up to 7 bytes, of any value.
func fuzzText(r *byteReader) string {
	text := make([]byte, r.byte()%8)
	for i := range text {
		text[i] = r.byte()
	}
	return string(text)
}
