package metatensor_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// checkArrayOf makes an array of elements of type T, and checks its dtype, shape and values.
func checkArrayOf[T metatensor.Element](t *testing.T, dtype string, values ...T) {
	t.Run(dtype, func(t *testing.T) {
		require.Equal(t, dtype, metatensor.DTypeOf[T]().String())
		array, err := metatensor.NewArray([]int{1, len(values)}, values)
		require.NoError(t, err)
		defer array.Destroy()

		actual, err := array.DType()
		require.NoError(t, err)
		require.Equal(t, metatensor.DTypeOf[T](), actual)
		shape, err := array.Shape()
		require.NoError(t, err)
		require.Equal(t, []uintptr{1, uintptr(len(values))}, shape)

		view, err := metatensor.ArrayValues[T](array)
		require.NoError(t, err)
		require.Equal(t, values, view)
		copied, err := metatensor.CopyArrayValues[T](array)
		require.NoError(t, err)
		require.Equal(t, values, copied)

		// The view shares the array's memory, the copy does not.
		view[0], copied[1] = view[1], view[0]
		again, err := metatensor.ArrayValues[T](array)
		require.NoError(t, err)
		require.Equal(t, view, again)

		zeros, err := metatensor.NewZeros[T]([]int{2})
		require.NoError(t, err)
		defer zeros.Destroy()
		zero, err := metatensor.ArrayValues[T](zeros)
		require.NoError(t, err)
		require.Equal(t, make([]T, 2), zero)
	})
}

func TestArraysOfEveryDType(t *testing.T) {
	checkArrayOf(t, "bool", true, false)
	checkArrayOf(t, "i8", int8(-128), 127)
	checkArrayOf(t, "i16", int16(-32768), 32767)
	checkArrayOf(t, "i32", int32(-5), 6)
	checkArrayOf(t, "i64", int64(-1)<<62, 1<<62)
	checkArrayOf(t, "u8", uint8(0), 255)
	checkArrayOf(t, "u16", uint16(1), 65535)
	checkArrayOf(t, "u32", uint32(1), 1<<31)
	checkArrayOf(t, "u64", uint64(1), 1<<63)
	checkArrayOf(t, "f16", metatensor.Float16(0x3c00), metatensor.Float16(0xc000)) // 1.0, -2.0
	checkArrayOf(t, "f32", float32(1.5), -2.25)
	checkArrayOf(t, "f64", 1.5, -2.25)
	checkArrayOf(t, "complex64", complex64(1+2i), -3i)
	checkArrayOf(t, "complex128", 1+2i, -3i)
}

func TestArrayScalarsAndEmptyArrays(t *testing.T) {
	scalar, err := metatensor.NewArray([]int{}, []float64{4})
	require.NoError(t, err)
	values, err := metatensor.ArrayValues[float64](scalar)
	require.NoError(t, err)
	require.Equal(t, []float64{4}, values)

	empty, err := metatensor.NewArray[float64]([]int{0, 3}, nil)
	require.NoError(t, err)
	values, err = metatensor.ArrayValues[float64](empty)
	require.NoError(t, err)
	require.Empty(t, values)
}

func TestArrayErrors(t *testing.T) {
	_, err := metatensor.NewArray([]int{2, 2}, []float64{1, 2, 3})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "got 3 values, but shape [2 2] needs 4")

	_, err = metatensor.NewZeros[float64]([]int{2, -1})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "axis 1 has a negative size")

	array := newArray(t, []int{2})
	_, err = metatensor.ArrayValues[float32](array)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "can not read the elements of a f64 array as float32")
	_, err = metatensor.CopyArrayValues[int64](array)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "can not read the elements of a f64 array as int64")

	// f16 is only read as Float16, and u16 only as uint16.
	half, err := metatensor.NewZeros[metatensor.Float16]([]int{1})
	require.NoError(t, err)
	_, err = metatensor.ArrayValues[uint16](half)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "f16")

	custom := countingArray{HostArray: array}
	_, err = metatensor.ArrayValues[float64](custom)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "use CopyArrayValues")
	values, err := metatensor.CopyArrayValues[float64](custom)
	require.NoError(t, err)
	require.Equal(t, []float64{0, 1}, values)

	_, err = metatensor.CopyArrayValues[float64](nil)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "nil array")

	array.Destroy()
	_, err = metatensor.ArrayValues[float64](array)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "after Destroy")
}

func TestOrigins(t *testing.T) {
	origin := metatensor.RegisterOrigin("metatensor-go.test-origin")
	require.Equal(t, origin, metatensor.RegisterOrigin("metatensor-go.test-origin"))
	require.Equal(t, "metatensor-go.test-origin", metatensor.OriginName(origin))

	array := newArray(t, []int{1})
	hostOrigin, err := array.Origin()
	require.NoError(t, err)
	require.Equal(t, "metatensor-go.HostArray", metatensor.OriginName(hostOrigin))
	device, err := array.Device()
	require.NoError(t, err)
	require.Equal(t, metatensor.CPU, device)
	require.Equal(t, metatensor.DeviceCPU, device.Type)
}

func TestNewTensorReleasesOnce(t *testing.T) {
	released := 0
	tensor := metatensor.NewTensor(metatensor.Tensor{Version: metatensor.CurrentDLPack}, func() { released++ })
	tensor.Release()
	tensor.Release()
	require.Equal(t, 1, released)
}

func TestNewArrayFromTakesTheValuesOver(t *testing.T) {
	values := []int32{1, 2, 3, 4, 5, 6}
	array, err := metatensor.NewArrayFrom([]int{3, 2}, values)
	require.NoError(t, err)
	// No copy: the labels over the array see the caller's memory.
	labels, err := metatensor.NewLabelsFromArrayAssumeUnique([]string{"a", "b"}, array)
	require.NoError(t, err)
	defer labels.Close()
	read, err := labels.Values()
	require.NoError(t, err)
	assert.Equal(t, values, read)
	assert.Same(t, &values[0], &read[0])

	_, err = metatensor.NewArrayFrom([]int{4, 2}, values)
	assert.ErrorIs(t, err, metatensor.ErrInvalidParameter)
	_, err = metatensor.NewArrayFrom([]int{-1, 2}, values)
	assert.ErrorIs(t, err, metatensor.ErrInvalidParameter)
}
