package core

import (
	"testing"

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
