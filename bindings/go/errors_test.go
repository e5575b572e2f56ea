package metatensor_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

func TestErrorsMatchTheirStatusOnly(t *testing.T) {
	sentinels := map[metatensor.Status]error{
		metatensor.StatusInvalidParameter: metatensor.ErrInvalidParameter,
		metatensor.StatusIO:               metatensor.ErrIO,
		metatensor.StatusSerialization:    metatensor.ErrSerialization,
		metatensor.StatusBufferSize:       metatensor.ErrBufferSize,
		metatensor.StatusCallback:         metatensor.ErrCallback,
		metatensor.StatusInternal:         metatensor.ErrInternal,
	}
	for status := range sentinels {
		err := fmt.Errorf("wrapped: %w", &metatensor.Error{Status: status, Message: "something"})
		for other, sentinel := range sentinels {
			require.Equal(t, status == other, errors.Is(err, sentinel), "%v against %v", status, other)
		}
		var e *metatensor.Error
		require.True(t, errors.As(err, &e))
		require.Equal(t, status, e.Status)
		require.Equal(t, "something", e.Message)
	}
}

func TestErrorMessagesHaveTheStatusPrefix(t *testing.T) {
	_, err := metatensor.NewLabels([]string{"a", "a"}, nil)
	require.EqualError(t, err, "invalid parameter: label dimensions must be unique, got 'a' multiple times")
	_, err = metatensor.LoadTensorMapBuffer([]byte("not a zip"), nil)
	require.ErrorIs(t, err, metatensor.ErrSerialization)
	require.ErrorContains(t, err, "serialization format error: ")
}

func TestErrorsOfCustomArraysPassThrough(t *testing.T) {
	failure := errors.New("the device is gone")
	samples := rangeLabels(t, "s", 1)
	_, err := metatensor.NewBlock(failingArray{failure}, samples, nil, samples)
	require.ErrorIs(t, err, failure)
}

// failingArray is an Array whose every method fails.
type failingArray struct {
	err error
}

func (a failingArray) Origin() (metatensor.Origin, error) { return 0, a.err }
func (a failingArray) Device() (metatensor.Device, error) { return metatensor.Device{}, a.err }
func (a failingArray) DType() (metatensor.DType, error)   { return metatensor.DType{}, a.err }
func (a failingArray) AsDLPack(metatensor.Device, *int64, metatensor.DLPackVersion) (*metatensor.Tensor, error) {
	return nil, a.err
}
func (a failingArray) FromDLPack(tensor *metatensor.Tensor) (metatensor.Array, error) {
	tensor.Release()
	return nil, a.err
}
func (a failingArray) Shape() ([]uintptr, error)       { return nil, a.err }
func (a failingArray) Reshape([]uintptr) error         { return a.err }
func (a failingArray) SwapAxes(uintptr, uintptr) error { return a.err }
func (a failingArray) Create([]uintptr, metatensor.Array) (metatensor.Array, error) {
	return nil, a.err
}
func (a failingArray) Copy(metatensor.Device) (metatensor.Array, error)           { return nil, a.err }
func (a failingArray) MoveData(metatensor.Array, []metatensor.DataMovement) error { return a.err }
func (a failingArray) Destroy()                                                   {}

func TestVersionIsTheReferences(t *testing.T) {
	require.Regexp(t, `^0\.2\.\d+$`, metatensor.Version)
}
