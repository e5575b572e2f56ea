package metatensor_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// Custom arrays (anything implementing metatensor.Array) as the values of labels and as the
// arrays loaders make.

// unreadableArray is an Array whose data can not be exported.
type unreadableArray struct{ countingArray }

func (a unreadableArray) AsDLPack(metatensor.Device, *int64, metatensor.DLPackVersion) (*metatensor.Tensor, error) {
	return nil, errors.New("this array lives somewhere metatensor can not read")
}

func int32Array(t *testing.T, destroyed *atomic.Int32, rows, columns int, values ...int32) countingArray {
	t.Helper()
	array, err := metatensor.NewArray([]int{rows, columns}, values)
	require.NoError(t, err)
	return countingArray{array, destroyed}
}

func TestLabelsFromCustomArrays(t *testing.T) {
	destroyed := &atomic.Int32{}
	labels, err := metatensor.NewLabelsFromArray([]string{"a", "b"}, int32Array(t, destroyed, 3, 2, 0, 1, 2, 3, 4, 5))
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, labels.Names())
	require.Equal(t, []int32{2, 3, 4, 5, 0, 1}, append(values(t, labels)[2:], values(t, labels)[:2]...))
	position, err := labels.Position([]int32{4, 5})
	require.NoError(t, err)
	require.Equal(t, 2, position)
	_, isCounting := labels.ValuesArray().(countingArray)
	require.True(t, isCounting, "the labels keep the caller's array")
	clone, err := labels.Clone()
	require.NoError(t, err)
	labels.Close()
	require.EqualValues(t, 0, destroyed.Load(), "the clone keeps the array alive")
	clone.Close()
	require.EqualValues(t, 1, destroyed.Load(), "the last reference destroys the array, once")

	// Every failure destroys the array the labels were given.
	_, err = metatensor.NewLabelsFromArray([]string{"a"}, int32Array(t, destroyed, 2, 1, 7, 7))
	requireStatus(t, err, metatensor.ErrInvalidParameter, "can not have the same label entry multiple time")
	require.EqualValues(t, 2, destroyed.Load())
	_, err = metatensor.NewLabelsFromArray([]string{"a", "a"}, int32Array(t, destroyed, 1, 2, 1, 2))
	requireStatus(t, err, metatensor.ErrInvalidParameter, "label dimensions must be unique, got 'a' multiple times")
	require.EqualValues(t, 3, destroyed.Load())
	_, err = metatensor.NewLabelsFromArray([]string{"a"}, int32Array(t, destroyed, 1, 2, 1, 2))
	// the reference treats a shape that does not match the names as its own bug
	requireStatus(t, err, metatensor.ErrInternal, "labels values have 2 columns, but there are 1 dimension names")
	require.EqualValues(t, 4, destroyed.Load())
	_, err = metatensor.NewLabelsFromArray([]string{"a"}, unreadableArray{int32Array(t, destroyed, 1, 1, 1)})
	require.Error(t, err)
	require.Contains(t, err.Error(), "this array lives somewhere metatensor can not read")
	require.EqualValues(t, 5, destroyed.Load())
	_, err = metatensor.NewLabelsFromArray([]string{"a"}, nil)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "array can not be nil")
}

func TestAssumeUniqueLabelsReadCustomArraysWhenNeeded(t *testing.T) {
	destroyed := &atomic.Int32{}
	labels, err := metatensor.NewLabelsFromArrayAssumeUnique([]string{"a"}, unreadableArray{int32Array(t, destroyed, 2, 1, 1, 2)})
	require.NoError(t, err, "nothing is read yet")
	require.Equal(t, 2, labels.Count())

	_, err = labels.Values()
	require.ErrorContains(t, err, "this array lives somewhere metatensor can not read")
	_, err = labels.Position([]int32{1})
	require.ErrorContains(t, err, "this array lives somewhere metatensor can not read")
	require.Panics(t, func() { labels.Row(0) }, "methods without an error result panic")
	labels.Close()
	require.EqualValues(t, 1, destroyed.Load())

	readable, err := metatensor.NewLabelsFromArrayAssumeUnique([]string{"a"}, int32Array(t, destroyed, 2, 1, 5, 6))
	require.NoError(t, err)
	defer readable.Close()
	position, err := readable.Position([]int32{6})
	require.NoError(t, err)
	require.Equal(t, 1, position)
}

func TestLoadersMakeArraysWithTheCreateArrayGiven(t *testing.T) {
	data, err := fixtureTensor(t).SaveBuffer()
	require.NoError(t, err)

	created, destroyed := &atomic.Int32{}, &atomic.Int32{}
	create := func(shape []uintptr, dtype metatensor.DType) (metatensor.Array, error) {
		created.Add(1)
		array, err := metatensor.NewZerosOf(dtype, shape)
		if err != nil {
			return nil, err
		}
		return countingArray{array, destroyed}, nil
	}
	tensor, err := metatensor.LoadTensorMapBuffer(data, create)
	require.NoError(t, err)
	arrays := 0
	for block := range tensor.Blocks() {
		_, isCounting := block.Values().(countingArray)
		require.True(t, isCounting)
		arrays += 1 + len(block.GradientParameters())
	}
	require.EqualValues(t, arrays, created.Load(), "one array per block and per gradient")
	loaded, err := metatensor.CopyArrayValues[float64](get(tensor.Block(1)).Values())
	require.NoError(t, err)
	require.Equal(t, float64Values(t, get(fixtureTensor(t).Block(1))), loaded)
	tensor.Close()
	require.Equal(t, created.Load(), destroyed.Load())

	// A failing CreateArray fails the load, and the arrays made before are destroyed.
	created.Store(0)
	destroyed.Store(0)
	failing := func(shape []uintptr, dtype metatensor.DType) (metatensor.Array, error) {
		if created.Load() == 2 {
			return nil, errors.New("out of device memory")
		}
		return create(shape, dtype)
	}
	_, err = metatensor.LoadTensorMapBuffer(data, failing)
	require.ErrorContains(t, err, "out of device memory")
	require.EqualValues(t, 2, created.Load())
	require.EqualValues(t, 2, destroyed.Load())
}
