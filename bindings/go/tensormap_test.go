package metatensor_test

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

func TestTensorMapAccessors(t *testing.T) {
	tensor := fixtureTensor(t)
	require.Equal(t, 3, tensor.Len())
	keys := tensor.Keys()
	require.Equal(t, []string{"center", "neighbor"}, keys.Names())
	require.Equal(t, []int32{1, 1, 1, 6, 6, 1}, values(t, keys))

	for i := range 3 {
		block, err := tensor.Block(i)
		require.NoError(t, err)
		require.True(t, block.IsView())
		require.Equal(t, i+1, block.Samples().Count())
	}
	_, err := tensor.Block(3)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "block index out of bounds")
	_, err = tensor.Block(-1)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "index must be zero or more, got -1")

	device, err := tensor.Device()
	require.NoError(t, err)
	require.Equal(t, metatensor.CPU, device)
	dtype, err := tensor.DType()
	require.NoError(t, err)
	require.Equal(t, "f64", dtype.String())

	matching, err := tensor.BlocksMatching(newLabels(t, []string{"center"}, []int32{1}))
	require.NoError(t, err)
	require.Equal(t, []int{0, 1}, matching)
	matching, err = tensor.BlocksMatching(newLabels(t, []string{"neighbor", "center"}, []int32{1, 6}))
	require.NoError(t, err)
	require.Equal(t, []int{2}, matching)
	_, err = tensor.BlocksMatching(newLabels(t, []string{"species"}))
	requireStatus(t, err, metatensor.ErrInvalidParameter, "'species'")

	require.Equal(t,
		"TensorMap(keys=[center neighbor], 3 blocks)\n"+
			"  [1 1]: TensorBlock(f64 [1 2], samples=[atom], components=[], properties=[n], gradients=[positions])\n"+
			"  [1 6]: TensorBlock(f64 [2 2], samples=[atom], components=[], properties=[n], gradients=[positions])\n"+
			"  [6 1]: TensorBlock(f64 [3 2], samples=[atom], components=[], properties=[n], gradients=[positions])",
		tensor.String())
}

func TestTensorMapWithoutBlocks(t *testing.T) {
	keys := newLabels(t, []string{"key"})
	tensor, err := metatensor.NewTensorMap(keys, nil)
	require.NoError(t, err)
	defer tensor.Close()
	require.Equal(t, 0, tensor.Len())
	dtype, err := tensor.DType()
	require.NoError(t, err)
	require.Equal(t, "f64", dtype.String())
	require.Equal(t, "TensorMap(keys=[key], 0 blocks)", tensor.String())

	_, err = tensor.KeysToSamples(newLabels(t, []string{"key"}), false)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "there are no keys to move in an empty TensorMap")
}

func TestNewTensorMapMovesTheBlocks(t *testing.T) {
	properties := rangeLabels(t, "p", 1)
	first := newBlock(t, rangeLabels(t, "s", 1), nil, properties)
	second := newBlock(t, rangeLabels(t, "s", 2), nil, properties)
	keys := newLabels(t, []string{"k"}, []int32{0}, []int32{1})

	tensor, err := metatensor.NewTensorMap(keys, []*metatensor.TensorBlock{first, second})
	require.NoError(t, err)
	defer tensor.Close()
	_, err = first.Shape()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was moved into a TensorMap")

	// The moved blocks are in the map, as views.
	block, err := tensor.Block(1)
	require.NoError(t, err)
	require.Equal(t, 2, block.Samples().Count())
	block.Close()
	require.Equal(t, 2, block.Samples().Count())
	require.Equal(t, 2, tensor.Len())
}

func TestNewTensorMapErrors(t *testing.T) {
	properties := rangeLabels(t, "p", 1)
	keys := newLabels(t, []string{"k"}, []int32{0}, []int32{1})
	block := func(sampleName string) *metatensor.TensorBlock {
		return newBlock(t, rangeLabels(t, sampleName, 1), nil, properties)
	}

	// Checks made before anything moves.
	owned := block("s")
	_, err := metatensor.NewTensorMap(keys, []*metatensor.TensorBlock{owned, owned})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "block 1 is given more than once")
	tensor := fixtureTensor(t)
	view, err := tensor.Block(0)
	require.NoError(t, err)
	_, err = metatensor.NewTensorMap(keys, []*metatensor.TensorBlock{owned, view})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "Copy it first")
	_, err = metatensor.NewTensorMap(keys, []*metatensor.TensorBlock{owned, nil})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "got nil TensorBlock")
	_, err = metatensor.NewTensorMap(nil, nil)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "got nil Labels")
	_, err = owned.Shape()
	require.NoError(t, err, "the block did not move")

	// Checks of the core: the blocks moved into the failed call.
	_, err = metatensor.NewTensorMap(keys, []*metatensor.TensorBlock{owned})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "expected the same number of blocks as the number of entries in the keys (2)")
	_, err = owned.Shape()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was moved")

	_, err = metatensor.NewTensorMap(keys, []*metatensor.TensorBlock{block("s"), block("t")})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "all blocks must have the same sample dimensions")
}

func TestTensorMapCloseEndsItsViews(t *testing.T) {
	tensor := fixtureTensor(t)
	block, err := tensor.Block(0)
	require.NoError(t, err)
	gradient, err := block.Gradient("positions")
	require.NoError(t, err)
	keys := tensor.Keys()

	tensor.Close()
	tensor.Close()
	require.Panics(t, func() { tensor.Len() })
	require.Equal(t, "TensorMap(closed)", tensor.String())
	_, err = tensor.Copy()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	_, err = block.Shape()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	_, err = gradient.Shape()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	require.Equal(t, []int32{1, 1, 1, 6, 6, 1}, values(t, keys), "keys given by the map stay valid")

	var none *metatensor.TensorMap
	none.Close()
}

func TestTensorMapCopy(t *testing.T) {
	tensor := fixtureTensor(t)
	require.NoError(t, tensor.SetInfo("unit", "eV"))
	copied, err := tensor.Copy()
	require.NoError(t, err)
	defer copied.Close()
	require.True(t, tensor.Keys().Equal(copied.Keys()))
	value, ok := copied.Info("unit")
	require.True(t, ok)
	require.Equal(t, "eV", value)

	block, err := copied.Block(2)
	require.NoError(t, err)
	float64Values(t, block)[0] = 42
	original, err := tensor.Block(2)
	require.NoError(t, err)
	require.Equal(t, 0.0, float64Values(t, original)[0])
}

func TestTensorMapInfo(t *testing.T) {
	tensor := fixtureTensor(t)
	require.Empty(t, tensor.InfoKeys())
	_, ok := tensor.Info("missing")
	require.False(t, ok)

	require.NoError(t, tensor.SetInfo("b", "1"))
	require.NoError(t, tensor.SetInfo("a", "2"))
	require.NoError(t, tensor.SetInfo("b", "3"))
	require.Equal(t, []string{"b", "a"}, tensor.InfoKeys())
	value, ok := tensor.Info("b")
	require.True(t, ok)
	require.Equal(t, "3", value)

	err := tensor.SetInfo("\xff", "x")
	requireStatus(t, err, metatensor.ErrInvalidParameter, "Invalid UTF-8 in key")
}

func TestKeysToSamples(t *testing.T) {
	tensor := fixtureTensor(t)
	merged, err := tensor.KeysToSamples(newLabels(t, []string{"neighbor"}), true)
	require.NoError(t, err)
	defer merged.Close()

	require.Equal(t, []string{"center"}, merged.Keys().Names())
	require.Equal(t, []int32{1, 6}, values(t, merged.Keys()))
	block, err := merged.Block(0)
	require.NoError(t, err)
	require.Equal(t, []string{"atom", "neighbor"}, block.Samples().Names())
	require.Equal(t, []int32{0, 1, 0, 6, 1, 6}, values(t, block.Samples()))
	require.Equal(t, []float64{0, 1, 0, 1, 2, 3}, float64Values(t, block))
	require.Equal(t, []string{"positions"}, block.GradientParameters())
	require.Equal(t, 3, tensor.Len(), "the input is not modified")

	_, err = tensor.KeysToSamples(newLabels(t, []string{"neighbor"}, []int32{1}), true)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "`keys_to_move` should not contain any entry")
	_, err = tensor.KeysToSamples(nil, true)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "got nil Labels")
}

func TestKeysToProperties(t *testing.T) {
	tensor := fixtureTensor(t)
	merged, err := tensor.KeysToProperties(newLabels(t, []string{"neighbor"}), true)
	require.NoError(t, err)
	defer merged.Close()
	block, err := merged.Block(0)
	require.NoError(t, err)
	require.Equal(t, []string{"neighbor", "n"}, block.Properties().Names())
	require.Equal(t, []int32{1, 0, 1, 1, 6, 0, 6, 1}, values(t, block.Properties()))
	require.Equal(t, []float64{0, 1, 0, 1, 0, 0, 2, 3}, float64Values(t, block))

	// With entries: only the blocks of these entries are kept.
	selected, err := tensor.KeysToProperties(newLabels(t, []string{"neighbor"}, []int32{6}), true)
	require.NoError(t, err)
	defer selected.Close()
	block, err = selected.Block(0)
	require.NoError(t, err)
	require.Equal(t, []int32{6, 0, 6, 1}, values(t, block.Properties()))
}

func TestKeysToFill(t *testing.T) {
	tensor := fixtureTensor(t)
	fill, err := metatensor.NewArray([]int{}, []float64{-1})
	require.NoError(t, err)
	destroyed := &atomic.Int32{}

	merged, err := tensor.KeysToPropertiesFill(newLabels(t, []string{"neighbor"}), countingArray{fill, destroyed}, true)
	require.NoError(t, err)
	defer merged.Close()
	block, err := merged.Block(0)
	require.NoError(t, err)
	require.Equal(t, []float64{0, 1, 0, 1, -1, -1, 2, 3}, float64Values(t, block))

	require.EqualValues(t, 1, destroyed.Load(), "the fill value is the operation's")

	// It is destroyed when the operation fails too, also before the core has it.
	wrong, err := metatensor.NewArray([]int{}, []int32{0})
	require.NoError(t, err)
	_, err = tensor.KeysToSamplesFill(newLabels(t, []string{"neighbor"}), countingArray{wrong, destroyed}, false)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "fill_value dtype")
	require.EqualValues(t, 2, destroyed.Load())
	wrong, err = metatensor.NewArray([]int{}, []int32{0})
	require.NoError(t, err)
	_, err = tensor.KeysToSamplesFill(nil, countingArray{wrong, destroyed}, false)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "got nil Labels")
	require.EqualValues(t, 3, destroyed.Load())
	_, err = tensor.KeysToSamplesFill(newLabels(t, []string{"neighbor"}), nil, false)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "fillValue can not be nil")
}

func TestComponentsToProperties(t *testing.T) {
	xyz := rangeLabels(t, "xyz", 3)
	properties := rangeLabels(t, "n", 2)
	block := newBlock(t, rangeLabels(t, "s", 1), []*metatensor.Labels{xyz}, properties)
	tensor, err := metatensor.NewTensorMap(newLabels(t, []string{"k"}, []int32{0}), []*metatensor.TensorBlock{block})
	require.NoError(t, err)
	defer tensor.Close()

	moved, err := tensor.ComponentsToProperties("xyz")
	require.NoError(t, err)
	defer moved.Close()
	result, err := moved.Block(0)
	require.NoError(t, err)
	require.Empty(t, result.Components())
	require.Equal(t, []string{"xyz", "n"}, result.Properties().Names())
	shape, err := result.Shape()
	require.NoError(t, err)
	require.Equal(t, []int{1, 6}, shape)

	_, err = tensor.ComponentsToProperties()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "at least one dimension")
	_, err = tensor.ComponentsToProperties("abc")
	requireStatus(t, err, metatensor.ErrInvalidParameter, "unable to find 'abc' in the components")
}
