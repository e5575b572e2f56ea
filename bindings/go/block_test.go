package metatensor_test

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

func TestBlockAccessors(t *testing.T) {
	samples := newLabels(t, []string{"system", "atom"}, []int32{0, 0}, []int32{0, 1})
	xyz := rangeLabels(t, "xyz", 3)
	properties := rangeLabels(t, "n", 4)
	block := newBlock(t, samples, []*metatensor.Labels{xyz}, properties)

	require.False(t, block.IsView())
	require.True(t, samples.Equal(block.Samples()))
	require.Len(t, block.Components(), 1)
	require.True(t, xyz.Equal(block.Components()[0]))
	require.True(t, properties.Equal(block.Properties()))
	shape, err := block.Shape()
	require.NoError(t, err)
	require.Equal(t, []int{2, 3, 4}, shape)
	device, err := block.Device()
	require.NoError(t, err)
	require.Equal(t, metatensor.CPU, device)
	dtype, err := block.DType()
	require.NoError(t, err)
	require.Equal(t, metatensor.DTypeOf[float64](), dtype)
	require.Len(t, float64Values(t, block), 24)

	for axis, expected := range []*metatensor.Labels{samples, xyz, properties} {
		labels, err := block.Labels(axis)
		require.NoError(t, err)
		require.True(t, expected.Equal(labels), "axis %d", axis)
		labels.Close()
	}
	_, err = block.Labels(3)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "we only have 3 axes")
	_, err = block.Labels(-1)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "axis must be zero or more, got -1")

	require.Equal(t, "TensorBlock(f64 [2 3 4], samples=[system atom], components=[[xyz]], properties=[n], gradients=[])",
		block.String())
}

func TestBlockLabelsOutliveTheirCreator(t *testing.T) {
	samples, err := metatensor.NewLabelsRange("s", 2)
	require.NoError(t, err)
	block := newBlock(t, samples, nil, rangeLabels(t, "p", 1))
	samples.Close()
	// The block holds its own reference, and so does every Labels it gives.
	fromBlock := block.Samples()
	block.Close()
	require.Equal(t, []int32{0, 1}, values(t, fromBlock))
	fromBlock.Close()
}

func TestNewBlockErrors(t *testing.T) {
	samples := rangeLabels(t, "s", 2)
	properties := rangeLabels(t, "p", 3)
	var destroyed atomic.Int32
	values := func(shape ...int) metatensor.Array {
		return countingArray{newArray(t, shape), &destroyed}
	}

	_, err := metatensor.NewBlock(values(2, 2), samples, nil, properties)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "the values shape along axis 1 is 2 but we have 3 property label entries")
	require.EqualValues(t, 1, destroyed.Load(), "rejected values are destroyed")

	_, err = metatensor.NewBlock(values(2, 1, 3), samples, []*metatensor.Labels{newLabels(t, []string{"a", "b"}, []int32{0, 0})}, properties)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "component labels must have a single dimension")
	require.EqualValues(t, 2, destroyed.Load())

	closed, err := metatensor.NewLabelsRange("s", 2)
	require.NoError(t, err)
	closed.Close()
	_, err = metatensor.NewBlock(values(2, 3), closed, nil, properties)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	require.EqualValues(t, 3, destroyed.Load())

	_, err = metatensor.NewBlock(values(2, 3), samples, nil, nil)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "got nil Labels")
	require.EqualValues(t, 4, destroyed.Load())

	_, err = metatensor.NewBlock(nil, samples, nil, properties)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "data can not be nil")
}

func TestBlockGradients(t *testing.T) {
	block := blockWithGradient(t)
	require.Equal(t, []string{"positions"}, block.GradientParameters())

	gradient, err := block.Gradient("positions")
	require.NoError(t, err)
	require.True(t, gradient.IsView())
	require.Equal(t, 3, gradient.Samples().Count())
	shape, err := gradient.Shape()
	require.NoError(t, err)
	require.Equal(t, []int{3, 2, 3, 2}, shape)
	require.Contains(t, block.String(), "gradients=[positions]")

	_, err = block.Gradient("cell")
	requireStatus(t, err, metatensor.ErrInvalidParameter, "can not find gradients with respect to 'cell'")

	// Close does nothing on a view.
	gradient.Close()
	require.Equal(t, 3, gradient.Samples().Count())

	// Gradients of gradients.
	xyz := rangeLabels(t, "xyz", 3)
	properties := rangeLabels(t, "p", 2)
	other := newBlock(t, rangeLabels(t, "s", 1), []*metatensor.Labels{xyz}, properties)
	first := newBlock(t, newLabels(t, []string{"sample"}, []int32{0}), []*metatensor.Labels{xyz}, properties)
	second := newBlock(t, newLabels(t, []string{"sample"}, []int32{0}), []*metatensor.Labels{xyz}, properties)
	require.NoError(t, first.AddGradient("strain", second))
	require.NoError(t, other.AddGradient("positions", first))
	nested, err := other.Gradient("positions")
	require.NoError(t, err)
	deeper, err := nested.Gradient("strain")
	require.NoError(t, err)
	require.True(t, deeper.IsView())
	require.Equal(t, []string{"strain"}, nested.GradientParameters())
}

func TestAddGradientErrors(t *testing.T) {
	block := blockWithGradient(t)
	xyz := block.Components()[0]
	properties := block.Properties()
	gradientSamples := newLabels(t, []string{"sample"}, []int32{0})
	gradient := func() *metatensor.TensorBlock {
		return newBlock(t, gradientSamples, []*metatensor.Labels{xyz}, properties)
	}

	moved := gradient()
	err := block.AddGradient("positions", moved)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "gradient with respect to 'positions' already exists")
	// The rejected gradient moved into the call anyway.
	_, err = moved.Shape()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was moved")
	require.Panics(t, func() { moved.Values() })
	require.Equal(t, "TensorBlock(closed)", moved.String())

	err = block.AddGradient("cell", moved)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was moved")

	bad := newBlock(t, newLabels(t, []string{"system"}, []int32{0}), []*metatensor.Labels{xyz}, properties)
	err = block.AddGradient("cell", bad)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "'system' is not valid for the first dimension in the gradients samples labels")

	view, err := block.Gradient("positions")
	require.NoError(t, err)
	// A view takes gradients, as in C; this one is checked against the gradient's shape.
	err = view.AddGradient("cell", gradient())
	requireStatus(t, err, metatensor.ErrInvalidParameter, "gradients components should contain at least as many labels")
	err = block.AddGradient("cell", view)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "Copy it first")

	err = block.AddGradient("cell", block)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "can not be moved into its own tree")
	err = block.AddGradient("cell", nil)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "got nil TensorBlock")

	require.NoError(t, block.AddGradient("cell", gradient()))
	require.Equal(t, []string{"positions", "cell"}, block.GradientParameters())
}

func TestBlockCopy(t *testing.T) {
	block := blockWithGradient(t)
	copied, err := block.Copy()
	require.NoError(t, err)
	defer copied.Close()
	require.False(t, copied.IsView())
	require.Equal(t, float64Values(t, block), float64Values(t, copied))
	require.Equal(t, []string{"positions"}, copied.GradientParameters())

	// The copy is independent.
	float64Values(t, copied)[0] = 100
	require.Equal(t, 0.0, float64Values(t, block)[0])

	// A copy of a view is owned.
	view, err := block.Gradient("positions")
	require.NoError(t, err)
	owned, err := view.Copy()
	require.NoError(t, err)
	require.False(t, owned.IsView())
	owned.Close()
}

func TestBlockClose(t *testing.T) {
	var destroyed atomic.Int32
	samples := rangeLabels(t, "s", 2)
	properties := rangeLabels(t, "p", 1)
	block, err := metatensor.NewBlock(countingArray{newArray(t, []int{2, 1}), &destroyed}, samples, nil, properties)
	require.NoError(t, err)
	view := block.Samples()

	block.Close()
	block.Close()
	require.EqualValues(t, 1, destroyed.Load())
	require.Panics(t, func() { block.Samples() })
	_, err = block.Copy()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	require.Equal(t, []int32{0, 1}, values(t, view), "labels given by the block stay valid")

	var none *metatensor.TensorBlock
	none.Close()
}
