package metatensor_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

func TestLabelsEntries(t *testing.T) {
	labels := newLabels(t, []string{"a", "b"}, []int32{0, 1}, []int32{2, 3}, []int32{4, 5})
	var indexes []int
	var rows [][]int32
	for i, row := range labels.Entries() {
		indexes = append(indexes, i)
		rows = append(rows, row)
	}
	require.Equal(t, []int{0, 1, 2}, indexes)
	require.Equal(t, [][]int32{{0, 1}, {2, 3}, {4, 5}}, rows)

	for i := range labels.Entries() {
		if i == 1 {
			break
		}
	}
	for range newLabels(t, []string{"a"}).Entries() {
		t.Fatal("labels without entries yield nothing")
	}
}

func TestTensorMapIterators(t *testing.T) {
	tensor := fixtureTensor(t)
	var counts []int
	for block := range tensor.Blocks() {
		require.True(t, block.IsView())
		counts = append(counts, block.Samples().Count())
	}
	require.Equal(t, []int{1, 2, 3}, counts)

	var keys [][]int32
	for key, block := range tensor.Items() {
		keys = append(keys, key)
		require.Equal(t, len(keys), block.Samples().Count())
	}
	require.Equal(t, [][]int32{{1, 1}, {1, 6}, {6, 1}}, keys)

	seen := 0
	for range tensor.Blocks() {
		seen++
		break
	}
	for range tensor.Items() {
		seen++
		break
	}
	require.Equal(t, 2, seen)
}

func TestBlockGradientsIterator(t *testing.T) {
	block := blockWithGradient(t)
	xyz := block.Components()[0]
	properties := block.Properties()
	cell := newBlock(t, newLabels(t, []string{"sample"}, []int32{0}), []*metatensor.Labels{xyz}, properties)
	require.NoError(t, block.AddGradient("cell", cell))

	var parameters []string
	for parameter, gradient := range block.Gradients() {
		parameters = append(parameters, parameter)
		require.True(t, gradient.IsView())
	}
	require.Equal(t, []string{"positions", "cell"}, parameters)

	for parameter := range block.Gradients() {
		require.Equal(t, "positions", parameter)
		break
	}
}

func TestIteratorsOfClosedObjectsPanic(t *testing.T) {
	labels, err := metatensor.NewLabelsRange("a", 1)
	require.NoError(t, err)
	labels.Close()
	require.Panics(t, func() { labels.Entries() })

	tensor := fixtureTensor(t)
	block, err := tensor.Block(0)
	require.NoError(t, err)
	tensor.Close()
	require.Panics(t, func() { tensor.Items() })
	require.Panics(t, func() { block.Gradients() })
}
