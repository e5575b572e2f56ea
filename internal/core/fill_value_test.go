package core

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pickyFill is a scalar fill value whose answers (and failures) a test chooses.
type pickyFill struct {
	Array
	dtype  DType
	shape  []uintptr
	device Device
	fails  string // the member that fails, if any
}

func (f *pickyFill) fail(member string) error {
	if f.fails == member {
		return Errorf(CallbackError, "%s failed on purpose", member)
	}
	return nil
}

func (f *pickyFill) DType() (DType, error)     { return f.dtype, f.fail("dtype") }
func (f *pickyFill) Shape() ([]uintptr, error) { return f.shape, f.fail("shape") }
func (f *pickyFill) Device() (Device, error)   { return f.device, f.fail("device") }
func (f *pickyFill) AsDLPack(d Device, s *int64, v DLPackVersion) (*Tensor, error) {
	return f.Array.AsDLPack(d, s, v)
}

// askingLike is an array that makes createFilled's calls in one step, as a binding does:
// member by member, stopping at the first failure or rejected answer.
type askingLike struct {
	Array
	stopEarly bool // stops after its first call without a reason (a broken binding)
}

func (l askingLike) CreateFilled(shape []uintptr, fill Array) (FilledAsked, bool) {
	a := FilledAsked{Calls: 1}
	if a.DType, a.Err = l.DType(); a.Err != nil || l.stopEarly {
		return a, true
	}
	a.Calls = 2
	if a.FillDType, a.Err = fill.DType(); a.Err != nil || a.FillDType != a.DType {
		return a, true
	}
	a.Calls = 3
	if a.FillShape, a.Err = fill.Shape(); a.Err != nil || len(a.FillShape) != 0 {
		return a, true
	}
	a.Calls = 4
	if a.FillDevice, a.Err = fill.Device(); a.Err != nil || a.FillDevice.Type != DeviceCPU {
		return a, true
	}
	a.Calls = 5
	a.Created, a.Err = l.Create(shape, fill)
	return a, true
}

func TestFilledAskedChecksAsCreateFilled(t *testing.T) {
	like, err := NewHostArray(Float64, []uintptr{2, 3})
	require.NoError(t, err)
	scalar, err := HostArrayFromValues([]uintptr{}, []float64{1.5})
	require.NoError(t, err)
	f32 := DType{Code: CodeFloat, Bits: 32, Lanes: 1}

	cases := map[string]*pickyFill{
		"fits":             {},
		"other dtype":      {dtype: f32},
		"axes":             {shape: []uintptr{2, 1}},
		"on a GPU":         {device: Device{Type: DeviceCUDA}},
		"dtype fails":      {fails: "dtype"},
		"shape fails":      {fails: "shape"},
		"device fails":     {fails: "device"},
		"dtype and axes":   {dtype: f32, shape: []uintptr{1}},
		"axes off the CPU": {shape: []uintptr{1}, device: Device{Type: DeviceCUDA}},
	}
	for name, fill := range cases {
		fill.Array = scalar
		if fill.dtype == (DType{}) {
			fill.dtype = Float64
		}
		if fill.shape == nil {
			fill.shape = []uintptr{}
		}
		if fill.device == (Device{}) {
			fill.device = CPU
		}
		plain, plainErr := createFilled(like, []uintptr{4, 5}, fill)
		asked, askedErr := createFilled(askingLike{Array: like}, []uintptr{4, 5}, fill)
		if plainErr != nil {
			assert.EqualError(t, askedErr, plainErr.Error(), name)
			assert.Nil(t, asked, name)
			continue
		}
		require.NoError(t, askedErr, name)
		assert.Equal(t, expectShape(t, plain), expectShape(t, asked), name)
	}

	_, err = createFilled(askingLike{Array: like, stopEarly: true}, []uintptr{1}, &pickyFill{Array: scalar, dtype: Float64, shape: []uintptr{}, device: CPU})
	var coreErr *Error
	require.True(t, errors.As(err, &coreErr))
	assert.Equal(t, InternalError, coreErr.Status, "a creator stopping without a reason is a bug, not a success")
}

func expectShape(t *testing.T, array Array) []uintptr {
	t.Helper()
	shape, err := array.Shape()
	require.NoError(t, err)
	return shape
}
