package core

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

func TestDeviceAndDTypeNamesMatchTheReferenceMessages(t *testing.T) {
	assert.Equal(t, "CPU:0", CPU.String())
	assert.Equal(t, "CUDA:1", Device{DeviceCUDA, 1}.String())
	assert.Equal(t, "ExtDev:0", Device{DeviceExtDev, 0}.String())
	assert.Equal(t, "f64", Float64.String())
	assert.Equal(t, "i32", Int32.String())
	assert.Equal(t, "u8", DType{CodeUInt, 8, 1}.String())
	assert.Equal(t, "bool", DType{CodeBool, 8, 1}.String())
	assert.Equal(t, "complex128", DType{CodeComplex, 128, 1}.String())
	assert.Equal(t, "bfloat16", DType{CodeBfloat, 16, 1}.String())
	assert.Equal(t, "f8_e4m3fn", DType{CodeFloat8e4m3fn, 8, 1}.String())
	assert.Equal(t, "f32x4", DType{CodeFloat, 32, 4}.String())
	assert.Equal(t, "kDLBfloat", CodeBfloat.String())
}

func TestTensorReleaseRunsOnce(t *testing.T) {
	calls := 0
	tensor := NewTensor(Tensor{Shape: []int64{2, 3}}, func() { calls++ })
	assert.Equal(t, int64(6), tensor.Elements())
	tensor.Release()
	tensor.Release()
	assert.Equal(t, 1, calls)
}

func TestCopyContiguousFollowsStridesAndOffset(t *testing.T) {
	// A 3x2 view, transposed, of a 2x3 int32 matrix stored after one element of padding.
	storage := []int32{-1, 1, 2, 3, 4, 5, 6}
	tensor := &Tensor{
		Data: unsafe.Pointer(&storage[0]), Device: CPU, DType: Int32,
		Shape: []int64{3, 2}, Strides: []int64{1, 3}, ByteOffset: 4,
	}
	assert.False(t, tensor.IsRowMajor())
	out := make([]int32, 6)
	CopyContiguous(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 24), tensor)
	assert.Equal(t, []int32{1, 4, 2, 5, 3, 6}, out)

	contiguous := &Tensor{Data: unsafe.Pointer(&storage[1]), DType: Int32, Shape: []int64{2, 3}, Strides: []int64{3, 1}}
	assert.True(t, contiguous.IsRowMajor())
	CopyContiguous(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 24), contiguous)
	assert.Equal(t, []int32{1, 2, 3, 4, 5, 6}, out)
}
