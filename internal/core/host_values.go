package core

import (
	"reflect"
	"unsafe"
)

// DTypeOf gives the dtype whose elements are Go values of type T: float32 is f32, int8 is
// i8, bool is bool, complex128 is complex128, and so on for every numeric kind. There is no
// Go type for f16: read such arrays as uint16 with HostValues.
func DTypeOf[T any]() (DType, error) {
	t := reflect.TypeFor[T]()
	bits := uint8(t.Size() * 8)
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return DType{Code: CodeInt, Bits: bits, Lanes: 1}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return DType{Code: CodeUInt, Bits: bits, Lanes: 1}, nil
	case reflect.Float32, reflect.Float64:
		return DType{Code: CodeFloat, Bits: bits, Lanes: 1}, nil
	case reflect.Complex64, reflect.Complex128:
		return DType{Code: CodeComplex, Bits: bits, Lanes: 1}, nil
	case reflect.Bool:
		return DType{Code: CodeBool, Bits: 8, Lanes: 1}, nil
	}
	return DType{}, Errorf(InvalidParameterError, "the Go type %s has no DLPack dtype", t)
}

// goTypeHolds tells whether Go values of type t can be read from elements of dtype: same size
// and same kind of number. uint16 reads f16 (as raw bits) and uint8 reads bool.
func goTypeHolds(t reflect.Type, dtype DType) bool {
	if dtype.Lanes != 1 || t.Size() != uintptr(dtype.ElementSize()) {
		return false
	}
	kind := t.Kind()
	switch dtype.Code {
	case CodeInt:
		return kind == reflect.Int || kind == reflect.Int8 || kind == reflect.Int16 ||
			kind == reflect.Int32 || kind == reflect.Int64
	case CodeUInt:
		return kind == reflect.Uint || kind == reflect.Uint8 || kind == reflect.Uint16 ||
			kind == reflect.Uint32 || kind == reflect.Uint64 || kind == reflect.Uintptr
	case CodeFloat:
		if dtype.Bits == 16 {
			return kind == reflect.Uint16
		}
		return kind == reflect.Float32 || kind == reflect.Float64
	case CodeComplex:
		return kind == reflect.Complex64 || kind == reflect.Complex128
	case CodeBool:
		return kind == reflect.Bool || kind == reflect.Uint8
	}
	return false
}

// HostValues gives the elements of a as a []T sharing the array's memory: writes change the
// array, and the slice must not be used after Destroy. T must match the dtype (see
// DTypeOf; uint16 also reads f16 and uint8 also reads bool). Reading bool as Go bool checks
// that every byte is 0 or 1, the only values a Go bool may hold.
func HostValues[T any](a *HostArray) ([]T, error) {
	if err := a.rlock("HostValues"); err != nil {
		return nil, err
	}
	defer a.mu.RUnlock()
	t := reflect.TypeFor[T]()
	if !goTypeHolds(t, a.dtype) {
		return nil, Errorf(InvalidParameterError, "can not read the values of a %s HostArray as %s", a.dtype, t)
	}
	if len(a.data) == 0 {
		return []T{}, nil
	}
	if t.Kind() == reflect.Bool {
		for i, b := range a.data {
			if b > 1 {
				return nil, Errorf(InvalidParameterError,
					"can not read the values of a bool HostArray as %s: element %d holds the byte %d", t, i, b)
			}
		}
	}
	// The data is aligned for its dtype (alignedBytes or the check in HostArrayFromBytes).
	return unsafe.Slice((*T)(unsafe.Pointer(&a.data[0])), len(a.data)/int(t.Size())), nil
}

// HostArrayFromValues makes an array of the dtype of T holding a copy of values, which has
// exactly the number of elements of shape.
func HostArrayFromValues[T any](shape []uintptr, values []T) (*HostArray, error) {
	dtype, err := DTypeOf[T]()
	if err != nil {
		return nil, err
	}
	out, err := NewHostArray(dtype, shape)
	if err != nil {
		return nil, err
	}
	if len(values)*dtype.ElementSize() != len(out.data) {
		return nil, Errorf(InvalidParameterError,
			"invalid `values` for HostArray: got %d values, but shape %s needs %d",
			len(values), formatShape(shape), len(out.data)/dtype.ElementSize())
	}
	if len(values) > 0 {
		copy(out.data, unsafe.Slice((*byte)(unsafe.Pointer(&values[0])), len(out.data)))
	}
	return out, nil
}
