package metatensor_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// TestReduceOverSamples sums the example of metatensor-operations' sum_over_samples_block,
// through the tensor map and through the block.
func TestReduceOverSamples(t *testing.T) {
	samples := newLabels(t, []string{"structure", "center"}, []int32{0, 0}, []int32{0, 1}, []int32{1, 0}, []int32{1, 1})
	block, err := metatensor.NewBlock(newArray(t, []int{4, 3}, 1, 2, 4, 3, 5, 6, 7, 8, 9, 10, 11, 12),
		samples, nil, rangeLabels(t, "properties", 3))
	require.NoError(t, err)
	tensor, err := metatensor.NewTensorMap(rangeLabels(t, "key", 1), []*metatensor.TensorBlock{block})
	require.NoError(t, err)
	defer tensor.Close()

	reduced, err := tensor.ReduceOverSamples([]string{"center"}, "sum", false)
	require.NoError(t, err)
	defer reduced.Close()
	out, err := reduced.Block(0)
	require.NoError(t, err)
	require.Equal(t, []string{"structure"}, out.Samples().Names())
	require.Equal(t, []int32{0, 1}, values(t, out.Samples()))
	require.Equal(t, []float64{4, 7, 10, 17, 19, 21}, float64Values(t, out))

	view, err := tensor.Block(0)
	require.NoError(t, err)
	maxima, err := view.ReduceOverSamples([]string{"center"}, "max", false)
	require.NoError(t, err)
	defer maxima.Close()
	require.Equal(t, []float64{3, 5, 6, 10, 11, 12}, float64Values(t, maxima))

	_, err = tensor.ReduceOverSamples([]string{"center"}, "median", false)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "unknown reduction 'median'")
	_, err = view.ReduceOverSamples([]string{"atom"}, "sum", false)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "'atom' is not one of the sample dimensions (structure, center)")
	_, err = view.ReduceOverSamples([]string{"center"}, "sum", true)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "ignore_nan only applies to max and min, not to sum")
}

// TestReduceOverSamplesIgnoringNaN takes the max and min of two structures whose samples
// hold NaN: propagated by default, skipped with ignoreNaN, a column of NaN only staying NaN.
func TestReduceOverSamplesIgnoringNaN(t *testing.T) {
	nan := math.NaN()
	samples := newLabels(t, []string{"structure", "center"}, []int32{0, 0}, []int32{0, 1}, []int32{1, 0}, []int32{1, 1})
	block, err := metatensor.NewBlock(newArray(t, []int{4, 2}, nan, 1, 2, 3, 4, nan, nan, nan),
		samples, nil, rangeLabels(t, "properties", 2))
	require.NoError(t, err)
	defer block.Close()
	for _, c := range []struct {
		reduction string
		ignoreNaN bool
		want      []float64
	}{
		{"max", false, []float64{nan, 3, nan, nan}},
		{"max", true, []float64{2, 3, 4, nan}},
		{"min", false, []float64{nan, 1, nan, nan}},
		{"min", true, []float64{2, 1, 4, nan}},
	} {
		reduced, err := block.ReduceOverSamples([]string{"center"}, c.reduction, c.ignoreNaN)
		require.NoError(t, err)
		got := float64Values(t, reduced)
		reduced.Close()
		for i, want := range c.want {
			require.True(t, got[i] == want || math.IsNaN(got[i]) && math.IsNaN(want),
				"%s ignoring NaN %v: element %d is %v, not %v", c.reduction, c.ignoreNaN, i, got[i], want)
		}
	}
}
