package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// describerArray answers describeArray in one step, with what it was given; its members count
// the calls the core makes past it.
type describerArray struct {
	*countedArray
	description ArrayDescription
	err         error
	describes   int
}

func (d *describerArray) Describe() (ArrayDescription, error) {
	d.describes++
	return d.description, d.err
}

func TestDescribeArrayAsksADescriberOnce(t *testing.T) {
	host, err := NewHostArray(Float64, []uintptr{2})
	require.NoError(t, err)
	wanted := ArrayDescription{Origin: 7, Device: Device{Type: DeviceCUDA, ID: 1}, DType: DType{Code: CodeFloat, Bits: 32, Lanes: 1}}
	describer := &describerArray{countedArray: counted(host), description: wanted}

	got, err := describeArray(describer)
	require.NoError(t, err)
	assert.Equal(t, wanted, got)
	assert.Equal(t, 1, describer.describes)
	assert.Empty(t, describer.calls, "no member asked past Describe")

	// compareArrays stops at the describer's difference, then at its failure.
	plain := counted(host)
	arrays := []Array{plain, describer}
	first, other, index, err := compareArrays(2, func(i int) Array { return arrays[i] })
	require.NoError(t, err)
	assert.Equal(t, 1, index)
	assert.Equal(t, wanted, other)
	assert.Equal(t, Float64, first.DType)
	assert.Equal(t, map[string]int{"origin": 1, "device": 1, "dtype": 1}, plain.calls, "a plain array is asked member by member")

	describer.err = Errorf(CallbackError, "device failed")
	_, _, index, err = compareArrays(2, func(i int) Array { return arrays[i] })
	assert.Equal(t, 1, index)
	assert.EqualError(t, err, "device failed")
	assert.Equal(t, 3, describer.describes)
	assert.Empty(t, describer.calls)
}
