package metatensor_test

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// newLabels makes labels closed at the end of the test.
func newLabels(t *testing.T, names []string, rows ...[]int32) *metatensor.Labels {
	t.Helper()
	labels, err := metatensor.NewLabels(names, rows)
	require.NoError(t, err)
	t.Cleanup(labels.Close)
	return labels
}

// rangeLabels makes labels 0..count-1 closed at the end of the test.
func rangeLabels(t *testing.T, name string, count int) *metatensor.Labels {
	t.Helper()
	labels, err := metatensor.NewLabelsRange(name, count)
	require.NoError(t, err)
	t.Cleanup(labels.Close)
	return labels
}

// newArray makes a float64 HostArray.
func newArray(t *testing.T, shape []int, values ...float64) *metatensor.HostArray {
	t.Helper()
	if values == nil {
		n := 1
		for _, d := range shape {
			n *= d
		}
		values = make([]float64, n)
		for i := range values {
			values[i] = float64(i)
		}
	}
	array, err := metatensor.NewArray(shape, values)
	require.NoError(t, err)
	return array
}

// newBlock makes an owned block of float64 values 0, 1, 2... with the given samples,
// components and properties, closed at the end of the test.
func newBlock(t *testing.T, samples *metatensor.Labels, components []*metatensor.Labels, properties *metatensor.Labels) *metatensor.TensorBlock {
	t.Helper()
	shape := []int{samples.Count()}
	for _, c := range components {
		shape = append(shape, c.Count())
	}
	shape = append(shape, properties.Count())
	block, err := metatensor.NewBlock(newArray(t, shape), samples, components, properties)
	require.NoError(t, err)
	t.Cleanup(block.Close)
	return block
}

// blockWithGradient makes a block of 2 samples [s], components [xyz] and 2 properties [p],
// with a gradient with respect to "positions" of 3 samples [sample, atom] and the extra
// component [direction].
func blockWithGradient(t *testing.T) *metatensor.TensorBlock {
	t.Helper()
	xyz := rangeLabels(t, "xyz", 3)
	properties := rangeLabels(t, "p", 2)
	block := newBlock(t, rangeLabels(t, "s", 2), []*metatensor.Labels{xyz}, properties)
	gradientSamples := newLabels(t, []string{"sample", "atom"}, []int32{0, 0}, []int32{1, 0}, []int32{1, 1})
	gradient := newBlock(t, gradientSamples, []*metatensor.Labels{rangeLabels(t, "direction", 2), xyz}, properties)
	require.NoError(t, block.AddGradient("positions", gradient))
	return block
}

// fixtureTensor makes a tensor map of keys [center, neighbor] = (1, 1), (1, 6), (6, 1); block
// i has samples [atom] 0..i, properties [n] 0..1, values 0, 1, 2... and a "positions"
// gradient; closed at the end of the test.
func fixtureTensor(t *testing.T) *metatensor.TensorMap {
	t.Helper()
	keys := newLabels(t, []string{"center", "neighbor"}, []int32{1, 1}, []int32{1, 6}, []int32{6, 1})
	properties := rangeLabels(t, "n", 2)
	var blocks []*metatensor.TensorBlock
	for i := range keys.Count() {
		block := newBlock(t, rangeLabels(t, "atom", i+1), nil, properties)
		gradientSamples := newLabels(t, []string{"sample", "xyz"}, []int32{0, 0}, []int32{int32(i), 2})
		gradient := newBlock(t, gradientSamples, nil, properties)
		require.NoError(t, block.AddGradient("positions", gradient))
		blocks = append(blocks, block)
	}
	tensor, err := metatensor.NewTensorMap(keys, blocks)
	require.NoError(t, err)
	t.Cleanup(tensor.Close)
	return tensor
}

// float64Values reads the values of a block's HostArray.
func float64Values(t *testing.T, block *metatensor.TensorBlock) []float64 {
	t.Helper()
	values, err := metatensor.ArrayValues[float64](block.Values())
	require.NoError(t, err)
	return values
}

// requireStatus checks that err is a *metatensor.Error of the sentinel's status, whose
// message contains part.
func requireStatus(t *testing.T, err error, sentinel error, part string) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, sentinel)
	var e *metatensor.Error
	require.ErrorAs(t, err, &e)
	require.Contains(t, e.Message, part)
}

// countingArray is a custom Array: a HostArray that counts how often arrays of its family
// are destroyed.
type countingArray struct {
	*metatensor.HostArray
	destroyed *atomic.Int32
}

func (a countingArray) Destroy() {
	a.destroyed.Add(1)
	a.HostArray.Destroy()
}

// hostLoader fixes the CreateArray of a loader to nil, which makes HostArrays.
func hostLoader[S, T any](load func(S, metatensor.CreateArray) (T, error)) func(S) (T, error) {
	return func(source S) (T, error) { return load(source, nil) }
}

// values gives the values of labels, failing the test when they can not be read.
func values(t *testing.T, labels *metatensor.Labels) []int32 {
	t.Helper()
	v, err := labels.Values()
	require.NoError(t, err)
	return v
}
