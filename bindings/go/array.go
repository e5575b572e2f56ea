package metatensor

import (
	"reflect"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// Array is an n-dimensional array of any kind (Go memory, a GPU framework's tensor...) whose
// data metatensor does not own: the Go form of the C API's mts_array_t. Blocks keep their
// values in an Array; metatensor reads its data only through a CPU DLPack export, and moves
// it only through Create, Copy and MoveData.
//
// [NewArray] makes Go arrays ([*HostArray]). Other kinds of arrays implement the methods:
//
//	Origin() (Origin, error)                       // which framework made the array (see RegisterOrigin)
//	Device() (Device, error)                       // where the data lives
//	DType() (DType, error)                         // the element type
//	AsDLPack(device Device, stream *int64, maxVersion DLPackVersion) (*Tensor, error)
//	FromDLPack(tensor *Tensor) (Array, error)      // a new array of the same kind; takes the tensor
//	Shape() ([]uintptr, error)
//	Reshape(shape []uintptr) error                 // in place, keeping the row-major order
//	SwapAxes(axis1, axis2 uintptr) error           // in place
//	Create(shape []uintptr, fill Array) (Array, error) // same kind, dtype and device, filled with a scalar
//	Copy(device Device) (Array, error)             // a deep copy
//	MoveData(input Array, movements []DataMovement) error
//	Destroy()                                      // called exactly once, by the owner
//
// An array given to NewBlock belongs to the block: the block destroys it.
type Array = core.Array

// HostArray is the Array of this package: Go memory on the CPU, row-major, for every dtype
// of the .mts format. Make one with [NewArray] or [NewZeros]; read and write its elements
// with [ArrayValues]. Loaded blocks and tensor maps keep their values in HostArrays.
type HostArray = core.HostArray

// Types of the Array interface.
type (
	// Origin identifies the framework that made an array's data.
	Origin = core.Origin
	// Device is where an array's data lives (DLPack's DLDevice).
	Device = core.Device
	// DeviceType is the kind of a Device.
	DeviceType = core.DeviceType
	// DType is the element type of an array (DLPack's DLDataType).
	DType = core.DType
	// DataTypeCode is the family of a DType.
	DataTypeCode = core.DataTypeCode
	// DLPackVersion is the version of the DLPack ABI of a Tensor.
	DLPackVersion = core.DLPackVersion
	// Tensor is a DLPack tensor: a strided view of memory and the function releasing it.
	// Whoever holds one calls Release exactly once.
	Tensor = core.Tensor
	// DataMovement is one copy made by Array.MoveData.
	DataMovement = core.DataMovement
)

// DeviceCPU is the device type of the host.
const DeviceCPU = core.DeviceCPU

// CPU is the host device, where HostArrays live.
var CPU = core.CPU

// CurrentDLPack is the DLPack version metatensor asks for and produces.
var CurrentDLPack = core.CurrentDLPack

// NewTensor wraps a DLPack view and the function releasing it (nil if there is nothing to
// release), for the AsDLPack method of a custom Array.
func NewTensor(view Tensor, release func()) *Tensor { return core.NewTensor(view, release) }

// Float16 holds the bits of an IEEE 754 half-precision number: the Go type of f16 elements.
// Go has no arithmetic on it; it only carries the values in and out of arrays.
type Float16 uint16

// Element is the Go type of the elements of an array, one per dtype of the .mts format.
type Element interface {
	bool | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 |
		Float16 | float32 | float64 | complex64 | complex128
}

// DTypeOf gives the dtype of elements of type T: f64 for float64, i8 for int8, f16 for
// Float16, bool for bool, and so on.
func DTypeOf[T Element]() DType {
	if _, ok := any(*new(T)).(Float16); ok { // cheaper than comparing reflect types
		return DType{Code: core.CodeFloat, Bits: 16, Lanes: 1}
	}
	dtype, err := core.DTypeOf[T]()
	if err != nil {
		panic(err) // every Element has a dtype
	}
	return dtype
}

// NewArray makes a HostArray of the given shape holding a copy of values, in row-major
// order; len(values) must be the product of the shape (1 for a scalar, of shape []int{}).
func NewArray[T Element](shape []int, values []T) (*HostArray, error) {
	array, err := NewZeros[T](shape)
	if err != nil {
		return nil, err
	}
	elements, _ := core.HostValues[T](array)
	if len(values) != len(elements) {
		array.Destroy()
		return nil, invalidf("invalid `values` for NewArray: got %d values, but shape %v needs %d",
			len(values), shape, len(elements))
	}
	copy(elements, values)
	return array, nil
}

// NewArrayFrom makes a HostArray of the given shape over values, in row-major order, without
// copying them: the array takes values over, and the caller must not modify them afterwards.
// len(values) must be the product of the shape.
func NewArrayFrom[T Element](shape []int, values []T) (*HostArray, error) {
	var buf [4]uintptr // the arrays copy the shape: it can stay on the stack
	dims, err := uintptrShape(buf[:0], shape)
	if err != nil {
		return nil, err
	}
	data := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(values))), len(values)*int(unsafe.Sizeof(*new(T))))
	return core.HostArrayFromBytes(DTypeOf[T](), dims, data)
}

// NewZeros makes a HostArray of the given shape filled with zeros.
func NewZeros[T Element](shape []int) (*HostArray, error) {
	var buf [4]uintptr // the arrays copy the shape: it can stay on the stack
	dims, err := uintptrShape(buf[:0], shape)
	if err != nil {
		return nil, err
	}
	return core.NewHostArray(DTypeOf[T](), dims)
}

// NewZerosOf is NewZeros for a dtype known at run time, with the arguments of a CreateArray
// (the other way round): NewZerosOf(dtype, shape).
func NewZerosOf(dtype DType, shape []uintptr) (*HostArray, error) {
	return core.NewHostArray(dtype, shape)
}

// ArrayValues gives the elements of a HostArray in row-major order, as a slice sharing the
// array's memory: writing to it changes the array. T must be the Go type of the array's
// dtype (see DTypeOf). The slice must not be used once the array is destroyed, which
// happens when the block holding it is closed. For other arrays, use CopyArrayValues.
func ArrayValues[T Element](array Array) ([]T, error) {
	host, ok := array.(*HostArray)
	if !ok {
		return nil, invalidf("ArrayValues needs a *HostArray, got %T: use CopyArrayValues", array)
	}
	if err := checkElementType[T](host); err != nil {
		return nil, err
	}
	return core.HostValues[T](host)
}

// CopyArrayValues gives a copy of the elements of any array, in row-major order, read
// through the array's DLPack export on the CPU. T must be the Go type of the array's dtype.
func CopyArrayValues[T Element](array Array) ([]T, error) {
	if array == nil {
		return nil, invalidf("CopyArrayValues got a nil array")
	}
	if err := checkElementType[T](array); err != nil {
		return nil, err
	}
	tensor, err := array.AsDLPack(CPU, nil, CurrentDLPack)
	if err != nil {
		return nil, err
	}
	// FromDLPack of a HostArray copies any CPU tensor, whatever its strides, and releases it.
	copied, err := new(HostArray).FromDLPack(tensor)
	if err != nil {
		return nil, err
	}
	return core.HostValues[T](copied.(*HostArray))
}

// checkElementType requires T to be the Go type of the array's dtype.
func checkElementType[T Element](array Array) error {
	dtype, err := array.DType()
	if err != nil {
		return err
	}
	if want := DTypeOf[T](); dtype != want {
		return invalidf("can not read the elements of a %s array as %s (elements of %s)",
			dtype, reflect.TypeFor[T](), want)
	}
	return nil
}

// uintptrShape appends a shape given as ints to dims.
func uintptrShape(dims []uintptr, shape []int) ([]uintptr, error) {
	for i, n := range shape {
		if n < 0 {
			return nil, invalidf("invalid shape %v: axis %d has a negative size", shape, i)
		}
		dims = append(dims, uintptr(n))
	}
	return dims, nil
}

// intShape converts a shape given by an Array.
func intShape(shape []uintptr) []int {
	dims := make([]int, len(shape))
	for i, n := range shape {
		dims[i] = int(n)
	}
	return dims
}
