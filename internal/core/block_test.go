package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blockLabels are the labels of a 3x2x4 block: samples s, one component c, properties p.
func blockLabels(t *testing.T) (samples, component, properties *ArrayLabels) {
	return rangeLabels(t, "s", 3), rangeLabels(t, "c", 2), rangeLabels(t, "p", 4)
}

func TestNewBlockChecksInOrder(t *testing.T) {
	s, c, p := blockLabels(t)
	c2 := rowsLabels(t, []string{"a", "b"}, []int32{0, 0}, []int32{0, 1})
	empty := rowsLabels(t, []string{"e"})
	other := rangeLabels(t, "c", 2)
	cases := []struct {
		shape      []uintptr
		components []*ArrayLabels
		message    string
	}{
		{[]uintptr{3, 4}, []*ArrayLabels{c}, "invalid block: the values have 2 dimensions, but we have 3 separate labels (1 for samples, 1 for components and 1 for properties)"},
		{[]uintptr{2, 2, 4}, []*ArrayLabels{c}, "invalid block: the values shape along axis 0 is 2 but we have 3 sample label entries"},
		{[]uintptr{3, 2, 2, 4}, []*ArrayLabels{c, other}, "invalid block: some of the component dimensions appear more than once in component labels"},
		{[]uintptr{3, 3, 4}, []*ArrayLabels{c}, "invalid block: the values shape along axis 1 is 3 but we have 2 entries for the corresponding component"},
		{[]uintptr{3, 2, 5}, []*ArrayLabels{c}, "invalid block: the values shape along axis 2 is 5 but we have 4 property label entries"},
		{[]uintptr{3, 2, 4}, []*ArrayLabels{c2}, "component labels must have a single dimension, got 2: [a, b] for component 0"},
		{[]uintptr{3, 0, 4}, []*ArrayLabels{empty}, "component 'e' must contain at least one entry, got 0"},
	}
	for _, tc := range cases {
		values := counted(f64Array(t, tc.shape, nil))
		block, err := NewBlock(values, s, tc.components, p)
		assert.Nil(t, block)
		assert.EqualError(t, err, msgInvalid+tc.message)
		assert.Equal(t, 1, values.calls["destroy"], "the values are consumed on error")
	}
	for _, l := range []*ArrayLabels{s, c, p, c2, empty, other} {
		assert.EqualValues(t, 1, l.references.Load(), "no reference kept on error")
	}
}

func TestNewBlockDevices(t *testing.T) {
	s, c, p := blockLabels(t)
	cuda := Device{Type: DeviceCUDA, ID: 0}
	values := &devicedArray{Array: f64Array(t, []uintptr{3, 2, 4}, nil), device: cuda}
	_, err := NewBlock(values, s, []*ArrayLabels{c}, p)
	assert.EqualError(t, err, msgInvalid+"invalid block: values and samples must be on the same device, got 'CUDA:0' and 'CPU:0'")
}

// devicedArray pretends its data lives on another device.
type devicedArray struct {
	Array
	device Device
}

func (d *devicedArray) Device() (Device, error) { return d.device, nil }

func TestBlockAccessorsAndReferences(t *testing.T) {
	s, c, p := blockLabels(t)
	block, err := NewBlock(f64Array(t, []uintptr{3, 2, 4}, nil), s, []*ArrayLabels{c}, p)
	require.NoError(t, err)
	assert.EqualValues(t, 2, s.references.Load(), "the block holds a reference")

	for axis, want := range []*ArrayLabels{s, c, p} {
		got, err := block.Labels(uint64(axis))
		require.NoError(t, err)
		assert.Same(t, want, got)
	}
	_, err = block.Labels(3)
	assert.EqualError(t, err, msgInvalid+"tried to get the labels for axis 3, but we only have 3 axes for this block")

	expectGot(t, CPU)(block.Device())
	expectGot(t, Float64)(block.DType())

	block.Free()
	for _, l := range []*ArrayLabels{s, c, p} {
		assert.EqualValues(t, 1, l.references.Load())
		l.Release()
	}
}

// gradientOf builds a gradient block for a 3x2x4 block with properties p and component c.
func gradientOf(t *testing.T, sampleNames []string, rows [][]int32, components []*ArrayLabels, p *ArrayLabels) *Block {
	samples := rowsLabels(t, sampleNames, rows...)
	p.Retain()
	for _, component := range components {
		component.Retain()
	}
	return newTestBlock(t, nil, samples, components, p)
}

func TestAddGradientChecks(t *testing.T) {
	s, c, p := blockLabels(t)
	block := newTestBlock(t, nil, s, []*ArrayLabels{c}, p)
	defer block.Free()

	xyz := rangeLabels(t, "xyz", 3)
	defer xyz.Release()
	otherP := rangeLabels(t, "q", 4)
	defer otherP.Release()
	otherC := rowsLabels(t, []string{"c"}, []int32{0}, []int32{5})
	defer otherC.Release()
	sample := []string{"sample", "atom"}

	good := gradientOf(t, sample, [][]int32{{0, 1}, {2, 0}}, []*ArrayLabels{c}, p)
	require.NoError(t, block.AddGradient("positions", good))
	assert.Same(t, good, block.Gradients()[0].Block)

	cases := []struct {
		gradient func() *Block
		message  string
	}{
		{func() *Block { return gradientOf(t, sample, nil, []*ArrayLabels{c}, p) },
			"gradient with respect to 'positions' already exists for this block"},
		{func() *Block { return gradientOf(t, []string{"atom"}, nil, []*ArrayLabels{c}, p) },
			"'atom' is not valid for the first dimension in the gradients samples labels, it should be 'sample'"},
		{func() *Block { return gradientOf(t, sample, [][]int32{{-1, 0}}, []*ArrayLabels{c}, p) },
			"invalid value for the 'sample' dimension in gradient samples: all values should be positive, but we got -1"},
		{func() *Block { return gradientOf(t, sample, [][]int32{{0, 0}, {3, 0}}, []*ArrayLabels{c}, p) },
			"invalid value for the 'sample' dimension in gradient samples: we got 3, but the values contain 3 samples"},
		{func() *Block { return gradientOf(t, sample, nil, nil, p) },
			"gradients components should contain at least as many labels as the values components"},
		{func() *Block { return gradientOf(t, sample, nil, []*ArrayLabels{c}, otherP) },
			"gradient properties must be the same as values properties"},
		{func() *Block { return gradientOf(t, sample, nil, []*ArrayLabels{xyz, otherC}, p) },
			"gradients and values components mismatch for values component 0 (dimension name is 'c'). Components which are specific to the gradients must come first, and be followed by the exact same components as the values."},
	}
	for i, tc := range cases {
		parameter := "positions"
		if i > 0 {
			parameter = "other"
		}
		gradient := tc.gradient()
		values := counted(gradient.values)
		gradient.values = values
		err := block.AddGradient(parameter, gradient)
		assert.EqualError(t, err, msgInvalid+tc.message)
		assert.Equal(t, 1, values.calls["destroy"], "a rejected gradient is freed")
	}
	assert.Len(t, block.Gradients(), 1)

	withExtra := gradientOf(t, sample, nil, []*ArrayLabels{xyz, c}, p)
	require.NoError(t, block.AddGradient("cell", withExtra))
	assert.Equal(t, []string{"positions", "cell"}, []string{block.Gradients()[0].Parameter, block.Gradients()[1].Parameter})
	_, err := block.Gradient("strain")
	assert.EqualError(t, err, msgInvalid+"can not find gradients with respect to 'strain' in this block")
}

func TestBlockCopySharesLabels(t *testing.T) {
	s, c, p := blockLabels(t)
	values := make([]float64, 24)
	for i := range values {
		values[i] = float64(i)
	}
	block := newTestBlock(t, values, s, []*ArrayLabels{c}, p)
	gradient := gradientOf(t, []string{"sample"}, [][]int32{{1}}, []*ArrayLabels{c}, p)
	require.NoError(t, block.AddGradient("g", gradient))

	copied, err := block.Copy()
	require.NoError(t, err)
	assert.Same(t, block.samples, copied.samples)
	assert.NotSame(t, block.values, copied.values)
	assert.Equal(t, values, f64Values(t, copied.values))
	require.Len(t, copied.gradients, 1)
	assert.NotSame(t, gradient, copied.gradients[0].Block)
	assert.EqualValues(t, 4, p.references.Load(), "values and gradients of both blocks")

	block.Free()
	copied.Free()
	assert.EqualValues(t, 0, s.references.Load(), "every reference is given back")
}
