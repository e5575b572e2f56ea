package core

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// LabelsOriginName is the data origin of ReadOnlyLabelsValues. The reference uses this exact
// name, and Python registers it at import time, so sharing it keeps the two libraries
// interchangeable.
const LabelsOriginName = "metatensor.Labels"

// labelsOriginAsked is set once the library's own labels array has been asked for its origin:
// from then on, arrays handed to NewArrayLabels are asked for theirs, as the reference does
// (registering the name through mts_register_data_origin does not count).
var labelsOriginAsked atomic.Bool

// labelsOrigin registers the origin on the first Origin call, as the reference does.
var labelsOrigin = sync.OnceValue(func() Origin { return RegisterOrigin(LabelsOriginName) })

// labelsOriginHook is told once when labelsOriginAsked is set (see OnLabelsOriginAsked).
var labelsOriginHook struct {
	sync.Mutex
	notify func()
}

// OnLabelsOriginAsked registers notify, called once when the library's own labels array is
// first asked for its origin (at once when it was already), for a binding that checks labels
// outside the core and must then ask their arrays' origin as NewArrayLabels does.
func OnLabelsOriginAsked(notify func()) {
	labelsOriginHook.Lock()
	labelsOriginHook.notify = notify
	asked := labelsOriginAsked.Load()
	labelsOriginHook.Unlock()
	if asked {
		notify()
	}
}

// ReadOnlyLabelsValuesOrigin gives the origin of ReadOnlyLabelsValues, registering it on first use.
func ReadOnlyLabelsValuesOrigin() (Origin, error) {
	if !labelsOriginAsked.Load() {
		labelsOriginHook.Lock()
		first := !labelsOriginAsked.Swap(true)
		notify := labelsOriginHook.notify
		labelsOriginHook.Unlock()
		if first && notify != nil {
			notify()
		}
	}
	return labelsOrigin(), nil
}

// ReadOnlyLabelsValues is the values array of labels the library builds itself (loaded or
// computed): a [count, size] int32 matrix on the CPU that can only be read. It behaves as the
// reference's own labels array (LabelsArray there), error messages included.
type ReadOnlyLabelsValues struct {
	values []int32 // shared, never written
	count  int
	size   int
}

var _ Array = (*ReadOnlyLabelsValues)(nil)

// NewReadOnlyLabelsValues wraps count rows of size values. The array shares values and never
// modifies it; the caller must not modify it either. len(values) must be count*size: the
// methods that expose the data report an internal error otherwise.
func NewReadOnlyLabelsValues(values []int32, count, size int) *ReadOnlyLabelsValues {
	return &ReadOnlyLabelsValues{values: values, count: count, size: size}
}

// Values gives the row-major values; the slice is shared, do not modify it.
func (a *ReadOnlyLabelsValues) Values() []int32 { return a.values }

// Count gives the number of rows.
func (a *ReadOnlyLabelsValues) Count() int { return a.count }

// Size gives the number of values in a row.
func (a *ReadOnlyLabelsValues) Size() int { return a.size }

// check reports an array that is nil or whose values do not fill its shape.
func (a *ReadOnlyLabelsValues) check(method string) error {
	if a == nil {
		return Errorf(InvalidParameterError, "LabelsArray.%s called on a nil array", method)
	}
	if a.count < 0 || a.size < 0 || (a.size != 0 && a.count > len(a.values)/a.size) ||
		len(a.values) != a.count*a.size {
		return Errorf(InternalError, "LabelsArray has %d values, which does not match its shape [%d, %d]",
			len(a.values), a.count, a.size)
	}
	return nil
}

// Origin gives the "metatensor.Labels" origin, registering it on first use.
func (a *ReadOnlyLabelsValues) Origin() (Origin, error) {
	if err := a.check("Origin"); err != nil {
		return 0, err
	}
	return ReadOnlyLabelsValuesOrigin()
}

// Device is always the CPU.
func (a *ReadOnlyLabelsValues) Device() (Device, error) {
	if err := a.check("Device"); err != nil {
		return Device{}, err
	}
	return CPU, nil
}

// DType is always i32.
func (a *ReadOnlyLabelsValues) DType() (DType, error) {
	if err := a.check("DType"); err != nil {
		return DType{}, err
	}
	return Int32, nil
}

// Shape is [count, size].
func (a *ReadOnlyLabelsValues) Shape() ([]uintptr, error) {
	if err := a.check("Shape"); err != nil {
		return nil, err
	}
	return []uintptr{uintptr(a.count), uintptr(a.size)}, nil
}

// AsDLPack exports the values without copying, as a read-only tensor. Only the CPU, with no
// stream, and a DLPack 1.x caller are possible; the tensor is always v1.3.
func (a *ReadOnlyLabelsValues) AsDLPack(device Device, stream *int64, maxVersion DLPackVersion) (*Tensor, error) {
	if err := a.check("AsDLPack"); err != nil {
		return nil, err
	}
	if device != CPU {
		return nil, Errorf(InvalidParameterError, "labels values owned by metatensor-core only exist on CPU")
	}
	if stream != nil {
		return nil, Errorf(InvalidParameterError, "`stream` must be None for CPU data")
	}
	if maxVersion.Major != 1 {
		return nil, Errorf(InvalidParameterError,
			"invalid `max_version` in LabelsArray::as_dlpack: we got v%d.%d, but we support v%d.%d",
			maxVersion.Major, maxVersion.Minor, CurrentDLPack.Major, CurrentDLPack.Minor)
	}
	return labelsValuesTensor(a.values, a.count, a.size), nil
}

// labelsTensor is a read-only export of labels values, with its shape and strides in the same
// allocation.
type labelsTensor struct {
	Tensor
	dims [4]int64 // the shape, then the strides
}

// labelsValuesTensor exports count rows of size values, read-only and without a copy, as a
// v1.3 DLPack tensor on the CPU.
func labelsValuesTensor(values []int32, count, size int) *Tensor {
	t := &labelsTensor{dims: [4]int64{int64(count), int64(size), int64(size), 1}}
	t.Tensor = Tensor{Version: CurrentDLPack, Flags: FlagReadOnly, Device: CPU, DType: Int32,
		Shape: t.dims[:2:2], Strides: t.dims[2:4:4]}
	if len(values) > 0 {
		t.Data = unsafe.Pointer(&values[0])
	}
	return &t.Tensor
}

// FromDLPack copies a CPU, DLPack 1.x, i32, 2-D tensor into a new ReadOnlyLabelsValues,
// following its strides and byte offset. The tensor is released exactly once, whatever happens.
func (a *ReadOnlyLabelsValues) FromDLPack(tensor *Tensor) (Array, error) {
	return importTensor(tensor, "LabelsArray::from_dlpack", readOnlyLabelsValuesFromTensor)
}

// readOnlyLabelsValuesFromTensor copies a tensor's values; the caller releases the tensor.
func readOnlyLabelsValuesFromTensor(t *Tensor) (*ReadOnlyLabelsValues, error) {
	if t.Device.Type != DeviceCPU {
		return nil, Errorf(InvalidParameterError,
			"labels values can not be created from dlpack tensors that are not on CPU")
	}
	if t.Version.Major != 1 {
		return nil, Errorf(InvalidParameterError,
			"unsupported DLPack version in LabelsArray::from_dlpack: we got v%d.%d, but we support v1.x",
			t.Version.Major, t.Version.Minor)
	}
	if t.DType != Int32 {
		return nil, Errorf(InvalidParameterError, "expected i32 tensor for labels values, got dtype=%s", t.DType)
	}
	if len(t.Shape) != 2 {
		return nil, Errorf(InvalidParameterError,
			"expected 2D tensor for labels values, got shape=%s", formatShape(t.Shape))
	}
	shape, n, err := readableTensor(t, "invalid tensor for labels values")
	if err != nil {
		return nil, err
	}
	values := make([]int32, n)
	if n > 0 {
		CopyContiguous(unsafe.Slice((*byte)(unsafe.Pointer(&values[0])), n*4), t)
	}
	return NewReadOnlyLabelsValues(values, int(shape[0]), int(shape[1])), nil
}

// Copy gives another ReadOnlyLabelsValues sharing the same values, which never change; only the
// CPU is possible.
func (a *ReadOnlyLabelsValues) Copy(device Device) (Array, error) {
	if err := a.check("Copy"); err != nil {
		return nil, err
	}
	if device != CPU {
		return nil, Errorf(InvalidParameterError,
			"labels values owned by metatensor-core only exist on CPU, they can not be copied to %s", device)
	}
	return NewReadOnlyLabelsValues(a.values, a.count, a.size), nil
}

// unsupported is the error of the operations that would modify or extend labels values.
func unsupportedByLabels(name string) error {
	return Errorf(InvalidParameterError, "labels arrays do not support `%s`", name)
}

// Reshape always fails: labels values can not change.
func (a *ReadOnlyLabelsValues) Reshape([]uintptr) error { return unsupportedByLabels("reshape") }

// SwapAxes always fails: labels values can not change.
func (a *ReadOnlyLabelsValues) SwapAxes(uintptr, uintptr) error {
	return unsupportedByLabels("swap_axes")
}

// Create always fails: labels arrays only hold labels values.
func (a *ReadOnlyLabelsValues) Create([]uintptr, Array) (Array, error) {
	return nil, unsupportedByLabels("create")
}

// MoveData always fails: labels values can not change.
func (a *ReadOnlyLabelsValues) MoveData(Array, []DataMovement) error {
	return unsupportedByLabels("move_data")
}

// Destroy does nothing: the values are garbage collected once nothing shares them.
func (a *ReadOnlyLabelsValues) Destroy() {}
