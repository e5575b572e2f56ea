package core

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Helpers shared by the block and tensor map tests: labels, values and blocks in host memory.

// rowsLabels builds checked labels in the library's own array from rows of values.
func rowsLabels(t testing.TB, names []string, rows ...[]int32) *ArrayLabels {
	t.Helper()
	values := make([]int32, 0, len(rows)*len(names))
	for _, row := range rows {
		require.Len(t, row, len(names))
		values = append(values, row...)
	}
	cpu, err := NewLabels(names, values, len(rows))
	require.NoError(t, err)
	return LabelsFromValues(cpu.names, cpu)
}

// rangeLabels builds one-dimensional labels with the entries 0..count-1.
func rangeLabels(t testing.TB, name string, count int) *ArrayLabels {
	t.Helper()
	rows := make([][]int32, count)
	for i := range rows {
		rows[i] = []int32{int32(i)}
	}
	return rowsLabels(t, []string{name}, rows...)
}

// f64Array makes a HostArray of float64 values; values may be nil for zeros.
func f64Array(t testing.TB, shape []uintptr, values []float64) *HostArray {
	t.Helper()
	if values == nil {
		array, err := NewHostArray(Float64, shape)
		require.NoError(t, err)
		return array
	}
	array, err := HostArrayFromValues(shape, values)
	require.NoError(t, err)
	return array
}

// f64Values reads the float64 values of a HostArray.
func f64Values(t testing.TB, array Array) []float64 {
	t.Helper()
	host, ok := array.(*HostArray)
	require.True(t, ok, "not a HostArray: %T", array)
	values, err := HostValues[float64](host)
	require.NoError(t, err)
	return values
}

// labelsShape gives the shape of a block whose axes the labels describe.
func labelsShape(samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels) []uintptr {
	shape := []uintptr{uintptr(samples.Count())}
	for _, c := range components {
		shape = append(shape, uintptr(c.Count()))
	}
	return append(shape, uintptr(properties.Count()))
}

// newTestBlock builds a block of float64 values (nil for zeros), then drops the test's own
// references to the labels, so that the block holds the only ones.
func newTestBlock(t testing.TB, values []float64, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels) *Block {
	t.Helper()
	return blockOwningLabels(t, f64Array(t, labelsShape(samples, components, properties), values),
		samples, components, properties)
}

// singleBlockTensor makes a tensor map of block alone, under the key (name) = (0); the tensor
// holds the only reference to its keys.
func singleBlockTensor(t testing.TB, name string, block *Block) *TensorMap {
	t.Helper()
	keys := rowsLabels(t, []string{name}, []int32{0})
	tensor, err := NewTensorMap(keys, []*Block{block})
	require.NoError(t, err)
	keys.Release()
	return tensor
}

// blockOwningLabels builds a block over array, then drops the test's own references to the
// labels, so that the block holds the only ones.
func blockOwningLabels(t testing.TB, array Array, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels) *Block {
	t.Helper()
	block, err := NewBlock(array, samples, components, properties)
	require.NoError(t, err)
	samples.Release()
	for _, c := range components {
		c.Release()
	}
	properties.Release()
	return block
}

// labelsRows gives the entries of labels as rows.
func labelsRows(t testing.TB, labels *ArrayLabels) [][]int32 {
	t.Helper()
	cpu, err := labels.CPU()
	require.NoError(t, err)
	rows := make([][]int32, cpu.Count())
	for i := range rows {
		rows[i] = append([]int32(nil), cpu.Row(i)...)
	}
	return rows
}

// countedArray wraps an Array, counting the calls the core makes to each member and the
// Destroy calls (which must happen exactly once).
type countedArray struct {
	Array
	calls map[string]int
}

func counted(array Array) *countedArray {
	return &countedArray{Array: array, calls: map[string]int{}}
}

func (c *countedArray) Origin() (Origin, error) { c.calls["origin"]++; return c.Array.Origin() }
func (c *countedArray) Device() (Device, error) { c.calls["device"]++; return c.Array.Device() }
func (c *countedArray) DType() (DType, error)   { c.calls["dtype"]++; return c.Array.DType() }
func (c *countedArray) Shape() ([]uintptr, error) {
	c.calls["shape"]++
	return c.Array.Shape()
}
func (c *countedArray) Copy(device Device) (Array, error) {
	c.calls["copy"]++
	return c.Array.Copy(device)
}
func (c *countedArray) Destroy() { c.calls["destroy"]++; c.Array.Destroy() }
