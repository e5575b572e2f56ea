package core

import (
	"slices"
	"sync"
	"unsafe"
)

// HostArrayOriginName is the data origin of every HostArray.
const HostArrayOriginName = "metatensor-go.HostArray"

// hostArrayOrigin registers the origin on first use only, so that programs that never make a
// HostArray do not see it in the registry.
var hostArrayOrigin = sync.OnceValue(func() Origin { return RegisterOrigin(HostArrayOriginName) })

// HostArray is an Array of Go memory on the CPU, in row-major order, for every dtype the .mts
// format stores. It is what the core makes when it needs an array of its own (loading files,
// Go programs).
//
// Its methods are safe to call from several goroutines: mutations (Reshape, SwapAxes,
// MoveData, Destroy) hold a write lock, the other methods a read lock. Tensors exported by
// AsDLPack share the memory and bypass the lock, as DLPack views always do.
type HostArray struct {
	mu        sync.RWMutex
	dtype     DType
	shape     []uintptr
	data      []byte // aligned for the dtype, so that HostValues can view it
	destroyed bool

	// dims holds shape when it has at most 4 axes: most arrays then need no allocation
	// for their shape.
	dims [4]uintptr
}

// newHostArray makes an array of data with a copy of shape.
func newHostArray(dtype DType, shape []uintptr, data []byte) *HostArray {
	a := &HostArray{dtype: dtype, data: data}
	a.setShape(shape)
	return a
}

// setShape sets a copy of shape, in dims when it fits.
func (a *HostArray) setShape(shape []uintptr) {
	a.shape = append(a.dims[:0:len(a.dims)], shape...)
}

var _ Array = (*HostArray)(nil)

// checkHostDType accepts the dtypes a HostArray can hold: those of the .mts format.
func checkHostDType(dtype DType) error {
	if dtype.Lanes == 1 {
		switch dtype.Code {
		case CodeInt, CodeUInt:
			if dtype.Bits == 8 || dtype.Bits == 16 || dtype.Bits == 32 || dtype.Bits == 64 {
				return nil
			}
		case CodeFloat:
			if dtype.Bits == 16 || dtype.Bits == 32 || dtype.Bits == 64 {
				return nil
			}
		case CodeComplex:
			if dtype.Bits == 64 || dtype.Bits == 128 {
				return nil
			}
		case CodeBool:
			if dtype.Bits == 8 {
				return nil
			}
		}
	}
	return Errorf(InvalidParameterError, "invalid `dtype` for HostArray: %s is not supported", dtype)
}

// hostShapeElements checks that a shape of dtype elements can be allocated.
func hostShapeElements(dtype DType, shape []uintptr) (int, error) {
	n, ok := shapeElements(shape, dtype.ElementSize())
	if !ok {
		return 0, Errorf(InvalidParameterError,
			"invalid `shape` for HostArray: %s elements of %s do not fit in memory", formatShape(shape), dtype)
	}
	return n, nil
}

// NewHostArray makes a zero-filled array.
func NewHostArray(dtype DType, shape []uintptr) (*HostArray, error) {
	if err := checkHostDType(dtype); err != nil {
		return nil, err
	}
	n, err := hostShapeElements(dtype, shape)
	if err != nil {
		return nil, err
	}
	return newHostArray(dtype, shape, alignedBytes(n*dtype.ElementSize())), nil
}

// HostArrayFromBytes makes an array over data, the row-major elements in native byte order.
// The array takes data over: the caller must not use it afterwards. Data that is not aligned
// for the dtype is copied, so that HostValues can give a valid typed view of it.
func HostArrayFromBytes(dtype DType, shape []uintptr, data []byte) (*HostArray, error) {
	if err := checkHostDType(dtype); err != nil {
		return nil, err
	}
	n, err := hostShapeElements(dtype, shape)
	if err != nil {
		return nil, err
	}
	size := dtype.ElementSize()
	if len(data) != n*size {
		return nil, Errorf(InvalidParameterError,
			"invalid `data` for HostArray: got %d bytes, but a %s array of shape %s needs %d",
			len(data), dtype, formatShape(shape), n*size)
	}
	if len(data) == 0 {
		data = []byte{}
	} else if uintptr(unsafe.Pointer(&data[0]))%uintptr(min(size, 8)) != 0 {
		aligned := alignedBytes(len(data))
		copy(aligned, data)
		data = aligned
	}
	return newHostArray(dtype, shape, data[:len(data):len(data)]), nil
}

// usable reports an array that was destroyed, or that no constructor made (a zero HostArray
// has no dtype, and nothing can be computed from elements of size 0).
func (a *HostArray) usable(method string) *Error {
	if a.destroyed {
		return Errorf(InvalidParameterError, "HostArray.%s called after Destroy", method)
	}
	if a.dtype.ElementSize() == 0 {
		return Errorf(InvalidParameterError,
			"HostArray.%s called on an array that was not made by NewHostArray or HostArrayFromBytes", method)
	}
	return nil
}

// rlock takes the read lock of a usable array; the caller releases it when err is nil.
func (a *HostArray) rlock(method string) error { return a.acquire(method, false) }

// lock takes the write lock of a usable array; the caller releases it when err is nil.
func (a *HostArray) lock(method string) error { return a.acquire(method, true) }

// rlockOnCPU is rlock for a method that only works with device the CPU; why ends the error
// for another device.
func (a *HostArray) rlockOnCPU(method string, device Device, why string) error {
	if err := a.rlock(method); err != nil {
		return err
	}
	if device != CPU {
		a.mu.RUnlock()
		return Errorf(InvalidParameterError, "invalid `device` %s for HostArray.%s: %s", device, method, why)
	}
	return nil
}

// acquire takes the write or the read lock of a usable array, and gives it back at once when
// the array is not usable.
func (a *HostArray) acquire(method string, write bool) error {
	if a == nil {
		return Errorf(InvalidParameterError, "HostArray.%s called on a nil array", method)
	}
	lock, unlock := a.mu.RLock, a.mu.RUnlock
	if write {
		lock, unlock = a.mu.Lock, a.mu.Unlock
	}
	lock()
	if err := a.usable(method); err != nil {
		unlock()
		return err
	}
	return nil
}

// Bytes gives the row-major elements in native byte order. The slice shares the array's
// memory: writes change the array. It is nil after Destroy.
func (a *HostArray) Bytes() []byte {
	if a.rlock("Bytes") != nil {
		return nil
	}
	defer a.mu.RUnlock()
	return a.data
}

// Origin gives the HostArray origin, registering it on first use.
func (a *HostArray) Origin() (Origin, error) {
	if err := a.rlock("Origin"); err != nil {
		return 0, err
	}
	a.mu.RUnlock()
	return hostArrayOrigin(), nil
}

// Device is always the CPU.
func (a *HostArray) Device() (Device, error) {
	if err := a.rlock("Device"); err != nil {
		return Device{}, err
	}
	a.mu.RUnlock()
	return CPU, nil
}

// DType gives the element type.
func (a *HostArray) DType() (DType, error) {
	if err := a.rlock("DType"); err != nil {
		return DType{}, err
	}
	defer a.mu.RUnlock()
	return a.dtype, nil
}

// Shape gives a copy of the shape.
func (a *HostArray) Shape() ([]uintptr, error) {
	if err := a.rlock("Shape"); err != nil {
		return nil, err
	}
	defer a.mu.RUnlock()
	return append([]uintptr{}, a.shape...), nil
}

// SmallShape is Shape by value (SmallShaper).
func (a *HostArray) SmallShape() (SmallShape, error) {
	if err := a.rlock("Shape"); err != nil {
		return SmallShape{}, err
	}
	defer a.mu.RUnlock()
	return NewSmallShape(a.shape), nil
}

// AsDLPack exports the array without copying. Only the CPU, with no stream, and DLPack 1.x
// are possible. The tensor is writable and keeps the memory alive until it is released, even
// if the array is destroyed first.
func (a *HostArray) AsDLPack(device Device, stream *int64, maxVersion DLPackVersion) (*Tensor, error) {
	if err := a.rlockOnCPU("AsDLPack", device, "the data only exists on CPU:0"); err != nil {
		return nil, err
	}
	defer a.mu.RUnlock()
	if stream != nil {
		return nil, Errorf(InvalidParameterError,
			"invalid `stream` for HostArray.AsDLPack: it must be NULL for data on the CPU")
	}
	if maxVersion.Major != 1 {
		return nil, Errorf(InvalidParameterError,
			"invalid `max_version` v%d.%d for HostArray.AsDLPack: only DLPack v1.x is supported",
			maxVersion.Major, maxVersion.Minor)
	}
	data := a.data
	view := Tensor{
		Version: CurrentDLPack,
		Device:  CPU,
		DType:   a.dtype,
		Shape:   int64Shape(a.shape),
		Strides: rowMajorStrides(a.shape),
	}
	return tensorOver(view, data), nil
}

// FromDLPack copies a CPU tensor of any supported dtype and layout into a new HostArray. The
// tensor is released exactly once, whatever happens.
func (a *HostArray) FromDLPack(tensor *Tensor) (Array, error) {
	return importTensor(tensor, "HostArray.FromDLPack", hostArrayFromTensor)
}

// hostArrayFromTensor copies a CPU tensor into a new array; the caller releases the tensor.
func hostArrayFromTensor(t *Tensor) (*HostArray, error) {
	if t.Version.Major != 1 {
		return nil, Errorf(InvalidParameterError,
			"invalid `tensor` for HostArray.FromDLPack: DLPack v%d.%d is not supported, only v1.x is",
			t.Version.Major, t.Version.Minor)
	}
	if t.Device.Type != DeviceCPU {
		return nil, Errorf(InvalidParameterError,
			"invalid `tensor` for HostArray.FromDLPack: it is on %s, only CPU tensors can be copied", t.Device)
	}
	if err := checkHostDType(t.DType); err != nil {
		return nil, err
	}
	shape, n, err := readableTensor(t, "invalid `tensor` for HostArray.FromDLPack")
	if err != nil {
		return nil, err
	}
	out, err := NewHostArray(t.DType, shape)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		CopyContiguous(out.data, t)
	}
	return out, nil
}

// Create makes a new HostArray of the same dtype filled with the value of fill, a scalar
// array of that dtype. fill is borrowed: Create reads it through a CPU DLPack export, and
// releases that export, but does not destroy fill.
func (a *HostArray) Create(shape []uintptr, fill Array) (Array, error) {
	// The lock is not held while fill is called: fill may be this very array.
	if err := a.rlock("Create"); err != nil {
		return nil, err
	}
	dtype := a.dtype
	a.mu.RUnlock()

	n, err := hostShapeElements(dtype, shape)
	if err != nil {
		return nil, err
	}
	if fill == nil {
		return nil, Errorf(InvalidParameterError, "invalid `fill_value` for HostArray.Create: it is nil")
	}
	value, err := readFillValue(fill, dtype)
	if err != nil {
		return nil, err
	}

	out := newHostArray(dtype, shape, alignedBytes(n*dtype.ElementSize()))
	if slices.ContainsFunc(value, func(b byte) bool { return b != 0 }) && n > 0 {
		// Doubling copies fill the array in log(n) calls to copy.
		filled := copy(out.data, value)
		for filled < len(out.data) {
			filled += copy(out.data[filled:], out.data[:filled])
		}
	}
	return out, nil
}

// readFillValue checks that fill is a scalar of dtype and gives the bytes of its value.
func readFillValue(fill Array, dtype DType) ([]byte, error) {
	if err := checkFillValue(fill, dtype); err != nil {
		return nil, err
	}

	tensor, err := fill.AsDLPack(CPU, nil, CurrentDLPack)
	if err != nil {
		return nil, err
	}
	if tensor == nil {
		return nil, Errorf(InvalidParameterError, "fill_value.AsDLPack gave no tensor")
	}
	defer tensor.Release()
	// The export is checked again: it is what will actually be read.
	if tensor.Device.Type != DeviceCPU {
		return nil, Errorf(InvalidParameterError, "fill_value must be on CPU, its DLPack export is on %s", tensor.Device)
	}
	if tensor.DType != dtype {
		return nil, Errorf(InvalidParameterError,
			"fill_value DLPack export has dtype %s, but the array dtype is %s", tensor.DType, dtype)
	}
	_, n, err := readableTensor(tensor, "invalid DLPack export of fill_value")
	if err != nil {
		return nil, err
	}
	if n != 1 {
		return nil, Errorf(InvalidParameterError,
			"fill_value must be a single scalar, its DLPack export has shape %s", formatShape(tensor.Shape))
	}
	value := make([]byte, dtype.ElementSize())
	CopyContiguous(value, tensor)
	return value, nil
}

// Copy makes a deep copy; the only possible device is the CPU.
func (a *HostArray) Copy(device Device) (Array, error) {
	if err := a.rlockOnCPU("Copy", device, "only CPU:0 is supported"); err != nil {
		return nil, err
	}
	defer a.mu.RUnlock()
	data := alignedBytes(len(a.data))
	copy(data, a.data)
	return newHostArray(a.dtype, a.shape, data), nil
}

// Destroy drops the data. Later calls do nothing; other methods then fail.
func (a *HostArray) Destroy() {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.destroyed = true
	a.data = nil
	a.shape = nil
}
