package core

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type namedFloat float64

func dtypeOf[T any](t *testing.T) DType {
	t.Helper()
	dtype, err := DTypeOf[T]()
	require.NoError(t, err)
	return dtype
}

func TestDTypeOf(t *testing.T) {
	assert.Equal(t, DType{CodeFloat, 32, 1}, dtypeOf[float32](t))
	assert.Equal(t, Float64, dtypeOf[float64](t))
	assert.Equal(t, Float64, dtypeOf[namedFloat](t))
	assert.Equal(t, DType{CodeInt, 8, 1}, dtypeOf[int8](t))
	assert.Equal(t, DType{CodeInt, 16, 1}, dtypeOf[int16](t))
	assert.Equal(t, Int32, dtypeOf[int32](t))
	assert.Equal(t, DType{CodeInt, 64, 1}, dtypeOf[int64](t))
	assert.Equal(t, DType{CodeUInt, 8, 1}, dtypeOf[uint8](t))
	assert.Equal(t, DType{CodeUInt, 16, 1}, dtypeOf[uint16](t))
	assert.Equal(t, DType{CodeUInt, 32, 1}, dtypeOf[uint32](t))
	assert.Equal(t, DType{CodeUInt, 64, 1}, dtypeOf[uint64](t))
	assert.Equal(t, DType{CodeBool, 8, 1}, dtypeOf[bool](t))
	assert.Equal(t, DType{CodeComplex, 64, 1}, dtypeOf[complex64](t))
	assert.Equal(t, DType{CodeComplex, 128, 1}, dtypeOf[complex128](t))

	_, err := DTypeOf[string]()
	assert.Equal(t, "the Go type string has no DLPack dtype", errorMessage(t, err))
	_, err = DTypeOf[[2]float64]()
	assert.Equal(t, "the Go type [2]float64 has no DLPack dtype", errorMessage(t, err))
}

func TestHostValuesMatchesTypesToDTypes(t *testing.T) {
	read := map[string]func(*HostArray) error{
		"float32":    func(a *HostArray) error { _, err := HostValues[float32](a); return err },
		"float64":    func(a *HostArray) error { _, err := HostValues[float64](a); return err },
		"int8":       func(a *HostArray) error { _, err := HostValues[int8](a); return err },
		"int16":      func(a *HostArray) error { _, err := HostValues[int16](a); return err },
		"int32":      func(a *HostArray) error { _, err := HostValues[int32](a); return err },
		"int64":      func(a *HostArray) error { _, err := HostValues[int64](a); return err },
		"int":        func(a *HostArray) error { _, err := HostValues[int](a); return err },
		"uint8":      func(a *HostArray) error { _, err := HostValues[uint8](a); return err },
		"uint16":     func(a *HostArray) error { _, err := HostValues[uint16](a); return err },
		"uint32":     func(a *HostArray) error { _, err := HostValues[uint32](a); return err },
		"uint64":     func(a *HostArray) error { _, err := HostValues[uint64](a); return err },
		"bool":       func(a *HostArray) error { _, err := HostValues[bool](a); return err },
		"complex64":  func(a *HostArray) error { _, err := HostValues[complex64](a); return err },
		"complex128": func(a *HostArray) error { _, err := HostValues[complex128](a); return err },
		"namedFloat": func(a *HostArray) error { _, err := HostValues[namedFloat](a); return err },
	}
	accepted := map[string][]string{
		"f16": {"uint16"}, "f32": {"float32"}, "f64": {"float64", "namedFloat"},
		"i8": {"int8"}, "i16": {"int16"}, "i32": {"int32"}, "i64": {"int64", "int"},
		"u8": {"uint8"}, "u16": {"uint16"}, "u32": {"uint32"}, "u64": {"uint64"},
		"bool": {"bool", "uint8"}, "complex64": {"complex64"}, "complex128": {"complex128"},
	}
	for _, dtype := range hostDTypes {
		a := mustHostArray(t, dtype, []uintptr{3}, validBytes(dtype, 3*dtype.ElementSize()))
		for name, call := range read {
			err := call(a)
			if slices.Contains(accepted[dtype.String()], name) {
				assert.NoError(t, err, "%s as %s", dtype, name)
				continue
			}
			typeName := name
			if name == "namedFloat" {
				typeName = "core.namedFloat"
			}
			assert.Equal(t, "can not read the values of a "+dtype.String()+" HostArray as "+typeName,
				errorMessage(t, err), "%s as %s", dtype, name)
		}
	}
}

func TestHostValuesSharesMemory(t *testing.T) {
	a, err := HostArrayFromValues([]uintptr{2, 2}, []float64{1, 2, 3, 4})
	require.NoError(t, err)
	values, err := HostValues[float64](a)
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 2, 3, 4}, values)
	values[3] = -4
	again, err := HostValues[float64](a)
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 2, 3, -4}, again)

	empty, err := NewHostArray(Int32, []uintptr{0})
	require.NoError(t, err)
	none, err := HostValues[int32](empty)
	require.NoError(t, err)
	assert.Equal(t, []int32{}, none)

	// f16 is read as raw bits.
	half := mustHostArray(t, DType{CodeFloat, 16, 1}, []uintptr{2}, []byte{0x00, 0x3c, 0x00, 0xc0})
	bits, err := HostValues[uint16](half)
	require.NoError(t, err)
	assert.Equal(t, []uint16{0x3c00, 0xc000}, bits)
}

func TestHostValuesBool(t *testing.T) {
	a, err := HostArrayFromValues([]uintptr{3}, []bool{true, false, true})
	require.NoError(t, err)
	assert.Equal(t, DType{CodeBool, 8, 1}, a.dtype)
	assert.Equal(t, []byte{1, 0, 1}, a.Bytes())
	asBytes, err := HostValues[uint8](a)
	require.NoError(t, err)
	assert.Equal(t, []uint8{1, 0, 1}, asBytes)

	// A byte other than 0 and 1 is not a valid Go bool; uint8 still reads it.
	invalid := mustHostArray(t, DType{CodeBool, 8, 1}, []uintptr{3}, []byte{0, 1, 2})
	_, err = HostValues[bool](invalid)
	assert.Equal(t, "can not read the values of a bool HostArray as bool: element 2 holds the byte 2", errorMessage(t, err))
	raw, err := HostValues[uint8](invalid)
	require.NoError(t, err)
	assert.Equal(t, []uint8{0, 1, 2}, raw)
}

func TestHostArrayFromValues(t *testing.T) {
	a, err := HostArrayFromValues([]uintptr{2}, []complex64{1 + 2i, 3 - 4i})
	require.NoError(t, err)
	assert.Equal(t, DType{CodeComplex, 64, 1}, a.dtype)
	values, err := HostValues[complex64](a)
	require.NoError(t, err)
	assert.Equal(t, []complex64{1 + 2i, 3 - 4i}, values)

	input := []int16{5, 6}
	b, err := HostArrayFromValues([]uintptr{1, 2}, input)
	require.NoError(t, err)
	input[0] = 0
	got, err := HostValues[int16](b)
	require.NoError(t, err)
	assert.Equal(t, []int16{5, 6}, got, "the values are copied")

	scalar, err := HostArrayFromValues(nil, []uint32{7})
	require.NoError(t, err)
	assert.Equal(t, []byte{7, 0, 0, 0}, scalar.Bytes())
	empty, err := HostArrayFromValues[float32]([]uintptr{0, 2}, nil)
	require.NoError(t, err)
	assert.Equal(t, []byte{}, empty.Bytes())

	_, err = HostArrayFromValues([]uintptr{2, 2}, []float64{1, 2, 3})
	assert.Equal(t, "invalid `values` for HostArray: got 3 values, but shape [2, 2] needs 4", errorMessage(t, err))
	_, err = HostArrayFromValues([]uintptr{1}, []string{"a"})
	assert.Equal(t, "the Go type string has no DLPack dtype", errorMessage(t, err))
	_, err = HostArrayFromValues([]uintptr{1 << 62, 4}, []float64{})
	assert.ErrorContains(t, err, "invalid `shape` for HostArray")
}
