package core

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkReduceOverSamples sums a block of 200 structures of 10 to 100 atoms, 3 components
// and 128 properties, with a positions gradient of one row per sample, over the atoms.
func BenchmarkReduceOverSamples(b *testing.B) {
	var rows, gradientRows [][]int32
	for s := range int32(200) {
		for a := range 10 + (s*37)%91 {
			gradientRows = append(gradientRows, []int32{int32(len(rows)), s, a})
			rows = append(rows, []int32{s, a})
		}
	}
	n := len(rows)
	values := make([]float64, n*3*128)
	for i := range values {
		values[i] = float64(i % 101)
	}
	block := newTestBlock(b, values, rowsLabels(b, []string{"structure", "atom"}, rows...),
		[]*ArrayLabels{rangeLabels(b, "c", 3)}, rangeLabels(b, "p", 128))
	defer block.Free()
	gradientValues := f64Array(b, []uintptr{uintptr(n), 3, 3, 128}, nil)
	gradient, err := NewBlock(gradientValues, rowsLabels(b, []string{"sample", "structure", "atom"}, gradientRows...),
		[]*ArrayLabels{rangeLabels(b, "xyz", 3), block.components[0]}, block.properties)
	require.NoError(b, err)
	require.NoError(b, block.AddGradient("positions", gradient))
	b.SetBytes(int64(n * 4 * 3 * 128 * 8))
	for b.Loop() {
		reduced, err := block.ReduceOverSamples([]string{"atom"}, SamplesSum, false)
		if err != nil {
			b.Fatal(err)
		}
		reduced.Free()
	}
}
