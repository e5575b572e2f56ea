package core

import (
	"fmt"
	"unsafe"
)

// Device is where an array's memory lives (DLDevice).
type Device struct {
	Type DeviceType
	ID   int32
}

// CPU is the host device.
var CPU = Device{Type: DeviceCPU, ID: 0}

// String prints a device as the reference's messages do: "CPU:0", "CUDA:1".
func (d Device) String() string {
	return fmt.Sprintf("%s:%d", d.Type, d.ID)
}

// DType is the element type of an array (DLDataType).
type DType struct {
	Code  DataTypeCode
	Bits  uint8
	Lanes uint16
}

// Common element types.
var (
	Int32   = DType{Code: CodeInt, Bits: 32, Lanes: 1}
	Float64 = DType{Code: CodeFloat, Bits: 64, Lanes: 1}
)

// dtypeFamilies are the short names of each code, as in "f64", "u8", "f8_e4m3fn".
var dtypeFamilies = map[DataTypeCode]string{
	CodeInt: "i", CodeUInt: "u", CodeFloat: "f", CodeBfloat: "bfloat", CodeComplex: "complex",
	CodeOpaqueHandle: "handle",
	CodeFloat8e3m4:   "f8_e3m4", CodeFloat8e4m3: "f8_e4m3", CodeFloat8e4m3b11fnuz: "f8_e4m3b11fnuz",
	CodeFloat8e4m3fn: "f8_e4m3fn", CodeFloat8e4m3fnuz: "f8_e4m3fnuz", CodeFloat8e5m2: "f8_e5m2",
	CodeFloat8e5m2fnuz: "f8_e5m2fnuz", CodeFloat8e8m0fnu: "f8_e8m0fnu", CodeFloat6e2m3fn: "f6_e2m3fn",
	CodeFloat6e3m2fn: "f6_e3m2fn", CodeFloat4e2m1fn: "f4_e2m1fn",
}

// String prints a dtype as the reference's messages do: "f64", "i32", "bool", "complex128",
// with "x<lanes>" for vector types.
func (t DType) String() string {
	var name string
	switch family, ok := dtypeFamilies[t.Code]; {
	case t.Code == CodeBool && t.Bits == 8:
		name = "bool"
	case !ok:
		name = fmt.Sprintf("%s%d", t.Code, t.Bits)
	case t.Code >= CodeFloat8e3m4:
		name = family // the width is part of the name
	default:
		name = fmt.Sprintf("%s%d", family, t.Bits)
	}
	if t.Lanes != 1 {
		name += fmt.Sprintf("x%d", t.Lanes)
	}
	return name
}

// ElementSize is the number of bytes of one element, or 0 for sub-byte types.
func (t DType) ElementSize() int {
	return int(t.Bits) / 8 * int(t.Lanes)
}

// DLPackVersion is the version of the DLPack ABI a tensor follows.
type DLPackVersion struct {
	Major uint32
	Minor uint32
}

// CurrentDLPack is the newest version metatensor asks for and produces.
var CurrentDLPack = DLPackVersion{Major: 1, Minor: 3}

// DLPack tensor flags.
const (
	FlagReadOnly = 1 << 0
	FlagIsCopied = 1 << 1
)

// Tensor is a DLPack tensor handed to the core: a strided view of memory plus the deleter
// that releases it. Whoever holds a Tensor calls Release exactly once.
type Tensor struct {
	Version    DLPackVersion
	Flags      uint64
	Data       unsafe.Pointer
	Device     Device
	DType      DType
	Shape      []int64
	Strides    []int64 // nil for row-major contiguous data
	ByteOffset uint64
	// External says that Data is not Go memory (a C producer's), which C may keep pointers
	// into without pinning.
	External bool

	owner TensorOwner
}

// TensorOwner lets go of the memory of a tensor made with InitOwnedTensor: a binding's object
// that holds the tensor, released without a function made for it.
type TensorOwner interface{ ReleaseTensor() }

// releaseFunc is the TensorOwner of a tensor released by a function.
type releaseFunc func()

func (f releaseFunc) ReleaseTensor() { f() }

// NewTensor wraps a view and the function that releases it (nil if nothing to release).
func NewTensor(view Tensor, release func()) *Tensor {
	var owner TensorOwner
	if release != nil {
		owner = releaseFunc(release)
	}
	t := new(Tensor)
	InitOwnedTensor(t, view, owner)
	return t
}

// InitOwnedTensor makes a tensor in memory the caller gives (a binding allocating it together
// with other objects), owner (nil if nothing to release) letting go of the memory.
func InitOwnedTensor(t *Tensor, view Tensor, owner TensorOwner) {
	*t = view
	t.owner = owner
}

// tensorOver wraps a view of data. Data points into data, which keeps its memory alive as long
// as the tensor is reachable: there is nothing to release. An empty data gives a NULL data
// pointer.
func tensorOver[E any](view Tensor, data []E) *Tensor {
	if len(data) > 0 {
		view.Data = unsafe.Pointer(&data[0])
	}
	return NewTensor(view, nil)
}

// importTensor gives what convert makes of tensor, releasing the tensor exactly once whatever
// happens; method names the caller in the error for a NULL tensor.
func importTensor[T Array](tensor *Tensor, method string, convert func(*Tensor) (T, error)) (Array, error) {
	if tensor == nil {
		return nil, Errorf(InvalidParameterError, "invalid `tensor` for %s: it is NULL", method)
	}
	defer tensor.Release()
	array, err := convert(tensor)
	if err != nil {
		return nil, err
	}
	return array, nil
}

// Release calls the deleter; later calls do nothing, so every deleter runs exactly once.
func (t *Tensor) Release() {
	if t == nil || t.owner == nil {
		return
	}
	owner := t.owner
	t.owner = nil
	owner.ReleaseTensor()
}

// Elements is the number of elements of the tensor.
func (t *Tensor) Elements() int64 {
	n := int64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// IsRowMajor tells whether the tensor's elements are laid out contiguously in row-major
// order, in which case its memory can be read as one block.
func (t *Tensor) IsRowMajor() bool {
	if t.Strides == nil {
		return true
	}
	expected := int64(1)
	for axis := len(t.Shape) - 1; axis >= 0; axis-- {
		// The stride of an axis of size 1 never matters.
		if t.Shape[axis] != 1 && t.Strides[axis] != expected {
			return false
		}
		expected *= t.Shape[axis]
	}
	return true
}

// CopyContiguous writes the elements of a CPU tensor into dst in row-major order, following
// the tensor's strides and byte offset. dst holds exactly Elements() * ElementSize() bytes.
func CopyContiguous(dst []byte, t *Tensor) {
	size := int64(t.DType.ElementSize())
	base := unsafe.Add(t.Data, t.ByteOffset)
	if t.IsRowMajor() {
		copy(dst, unsafe.Slice((*byte)(base), len(dst)))
		return
	}
	ndim := len(t.Shape)
	index := make([]int64, ndim)
	for position := int64(0); position*size < int64(len(dst)); position++ {
		offset := int64(0)
		for axis, i := range index {
			offset += i * t.Strides[axis]
		}
		copy(dst[position*size:(position+1)*size], unsafe.Slice((*byte)(unsafe.Add(base, offset*size)), size))
		for axis := ndim - 1; axis >= 0; axis-- {
			index[axis]++
			if index[axis] < t.Shape[axis] {
				break
			}
			index[axis] = 0
		}
	}
}
