package core

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// errorMessage gives the message of a core error, without its status prefix.
func errorMessage(t testing.TB, err error) string {
	t.Helper()
	require.Error(t, err)
	e, ok := err.(*Error)
	require.True(t, ok, "not a *core.Error: %T %v", err, err)
	return e.Message
}

// countingTensor wraps a view with a release that counts its calls.
func countingTensor(view Tensor, calls *int) *Tensor {
	return NewTensor(view, func() { *calls++ })
}

// refusedDLPack makes array refuse good changed by edit with message: no typed
// nil comes back and the tensor is released once. It gives the error.
func refusedDLPack(t *testing.T, array Array, good Tensor, edit func(*Tensor), message string) error {
	t.Helper()
	view := good
	edit(&view)
	calls := 0
	out, err := array.FromDLPack(countingTensor(view, &calls))
	assert.Nil(t, out, "no typed nil in the interface")
	assert.Equal(t, message, errorMessage(t, err))
	assert.Equal(t, 1, calls, message)
	return err
}

func TestFormatShapeUsesTheReferenceDebugFormat(t *testing.T) {
	assert.Equal(t, "[]", formatShape([]uintptr{}))
	assert.Equal(t, "[1]", formatShape([]uintptr{1}))
	assert.Equal(t, "[2, 3, 4]", formatShape([]int64{2, 3, 4}))
	assert.Equal(t, "[-1, 3]", formatShape([]int64{-1, 3}))
}

func TestShapeElementsBoundsSizesAndStrides(t *testing.T) {
	n, ok := shapeElements(nil, 8)
	assert.True(t, ok)
	assert.Equal(t, 1, n)
	n, ok = shapeElements([]uintptr{2, 0, 3}, 8)
	assert.True(t, ok)
	assert.Equal(t, 0, n)

	_, ok = shapeElements([]uintptr{1 << 40, 1 << 40}, 1)
	assert.False(t, ok, "elements overflow int64")
	// No elements, but the stride of the first axis would be 2^80.
	_, ok = shapeElements([]uintptr{0, 1 << 40, 1 << 40}, 1)
	assert.False(t, ok)
	_, ok = shapeElements([]uintptr{math.MaxUint64}, 1)
	assert.False(t, ok)
	_, ok = shapeElements([]uintptr{1 << 45}, 8)
	assert.False(t, ok, "bytes above maxArrayBytes")
	_, ok = shapeElements([]uintptr{1 << 60}, 16)
	assert.False(t, ok, "bytes overflow uint64")
}

func TestRowMajorStrides(t *testing.T) {
	assert.Equal(t, []int64{12, 4, 1}, rowMajorStrides([]uintptr{2, 3, 4}))
	assert.Equal(t, []int64{4, 4, 1}, rowMajorStrides([]uintptr{2, 0, 4}))
	assert.Equal(t, []int64{}, rowMajorStrides(nil))
}

func TestAlignedBytes(t *testing.T) {
	assert.Equal(t, []byte{}, alignedBytes(0))
	for n := 1; n < 40; n++ {
		b := alignedBytes(n)
		require.Len(t, b, n)
		require.Equal(t, n, cap(b))
		require.Zero(t, uintptr(unsafe.Pointer(&b[0]))%8)
	}
}

func TestReadableTensorErrors(t *testing.T) {
	value := int32(1)
	good := Tensor{Data: unsafe.Pointer(&value), DType: Int32, Shape: []int64{1, 1}}
	_, n, err := readableTensor(&good, "ctx")
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	cases := []struct {
		edit    func(*Tensor)
		message string
	}{
		{func(t *Tensor) { t.Strides = []int64{1} }, "ctx: the tensor has 1 strides for 2 dimensions"},
		{func(t *Tensor) { t.Shape = []int64{2, -1} }, "ctx: invalid tensor shape [2, -1]"},
		{func(t *Tensor) { t.DType = DType{CodeFloat4e2m1fn, 4, 1} }, "ctx: can not read elements of dtype f4_e2m1fn"},
		{func(t *Tensor) { t.Shape = []int64{1 << 40, 1 << 40} }, "ctx: a tensor of shape [1099511627776, 1099511627776] and dtype i32 is too large"},
		{func(t *Tensor) { t.Data = nil }, "ctx: the tensor has 1 elements but a NULL data pointer"},
	}
	for _, c := range cases {
		tensor := good
		c.edit(&tensor)
		_, _, err := readableTensor(&tensor, "ctx")
		assert.Equal(t, c.message, errorMessage(t, err))
		assert.ErrorIs(t, err, &Error{Status: InvalidParameterError})
	}

	empty := Tensor{DType: Int32, Shape: []int64{0, 3}}
	_, n, err = readableTensor(&empty, "ctx")
	require.NoError(t, err)
	assert.Zero(t, n)
}
