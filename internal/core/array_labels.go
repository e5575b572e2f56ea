package core

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// ArrayLabels are labels whose values live in an Array, on any device: what mts_labels_t
// holds. Their CPU form (a *Labels, with the hash index) is read from the array through a CPU
// DLPack export, at once for checked labels and on first need for labels assumed unique.
type ArrayLabels struct {
	names []string
	array Array
	count int
	size  int

	cpu     atomic.Pointer[Labels]
	cpuLock sync.Mutex // held while reading the values
	tensor  *Tensor    // the export the CPU values point into, kept until the last Release

	// references counts the holders (blocks, tensor maps, a binding's record); the array is
	// destroyed when the last one lets go. New labels have one reference.
	references atomic.Int64
	view       View

	// ownNames holds the copy of names when there are at most 4: most labels then need no
	// allocation for them.
	ownNames [4]string
}

// NewArrayLabels makes labels from dimension names and a [count, len(names)] array of int32
// values. The array belongs to the labels from now on, and is destroyed when this fails. With
// checkUnique the values are read and checked at once; otherwise nothing is read until needed.
func NewArrayLabels(names []string, array Array, checkUnique bool) (*ArrayLabels, error) {
	return NewArrayLabelsAsked(names, array, checkUnique, Asked{})
}

// NewArrayLabelsAsked is NewArrayLabels for a caller that asked the array what asked holds
// already (the device and the export for checked labels only). The array and the tensor in
// asked belong to the labels from now on; both are released when this fails.
func NewArrayLabelsAsked(names []string, array Array, checkUnique bool, asked Asked) (labels *ArrayLabels, err error) {
	defer func() {
		if err != nil {
			asked.Tensor.Release() // nothing when the core released or kept it already
			if array != nil {
				array.Destroy()
			}
		}
	}()
	if !asked.NamesChecked {
		if err := validateLabelNames(names); err != nil {
			return nil, err
		}
	}
	shape := asked.Shape
	if !asked.HasShape {
		var small SmallShape
		if shape, err = shapeInto(array, &small); err != nil {
			return nil, err
		}
	}
	return newArrayLabelsOfShape(names, array, shape, checkUnique, &asked)
}

// newArrayLabelsOfShape does the work of NewArrayLabels from the array's shape, names being
// valid. On error, the array is the caller's to destroy; labels without dimensions destroy it
// themselves and use the library's own.
func newArrayLabelsOfShape(names []string, array Array, shape []uintptr, checkUnique bool, asked *Asked) (*ArrayLabels, error) {
	if err := CheckLabelsShape(len(names), shape); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		// Whatever the caller gave, labels without dimensions live on the CPU, in the
		// library's own array (as in the reference).
		array.Destroy()
		return LabelsFromValues(nil, nil), nil
	}

	l := asked.Memory.newLabels()
	l.array, l.count, l.size = array, int(shape[0]), len(names)
	if asked.NamesKept {
		l.names = names
	} else {
		l.names = append(l.ownNames[:0:len(l.ownNames)], names...)
	}
	l.references.Store(1)
	if checkUnique {
		// The origin comes first: a caller that asked more did not ask it, having seen that
		// it was not to be asked.
		if !asked.pastShape() && labelsOriginAsked.Load() {
			if _, err := array.Origin(); err != nil {
				return nil, err
			}
		}
		if _, err := l.readValuesAlone(true, asked); err != nil { // l is not handed out yet
			l.releaseTensor()
			return nil, err
		}
	}
	return l, nil
}

// MaxLabelsCount is the largest number of entries labels can have (that of their index).
const MaxLabelsCount = maxIndexedCount

// CheckLabelsShape checks the shape of the values array of labels with size dimensions: at
// least two axes, the second of length size (further axes are not looked at, as in the
// reference), at most maxIndexedCount entries; no values at all without dimensions. Its errors
// format copies of shape, so that shape itself can stay on the caller's stack.
func CheckLabelsShape(size int, shape []uintptr) error {
	if size == 0 {
		elements := uintptr(1)
		for _, n := range shape {
			elements *= n
		}
		if elements != 0 {
			return Errorf(InternalError,
				"labels without dimensions can not have values, got an array of shape %v", slices.Clone(shape))
		}
		return nil
	}
	if len(shape) < 2 {
		return Errorf(InternalError, "labels values must be a 2-D array, got shape %v", slices.Clone(shape))
	}
	if shape[1] != uintptr(size) {
		return Errorf(InternalError,
			"labels values have %d columns, but there are %d dimension names", shape[1], size)
	}
	if shape[0] > uintptr(maxIndexedCount) {
		return Errorf(InvalidParameterError,
			"labels can have at most %d entries, got %d", uint64(maxIndexedCount), shape[0])
	}
	return nil
}

// LabelsFromValues wraps labels the core built (CPU values, unique by construction) in the
// library's own labels array. names and cpu are nil for labels without dimensions.
func LabelsFromValues(names []string, cpu *Labels) *ArrayLabels {
	return labelsFromValuesInto(nil, names, cpu)
}

// labelsFromValuesInto is LabelsFromValues, making the labels in l, or in a new allocation when
// l is nil.
func labelsFromValuesInto(l *ArrayLabels, names []string, cpu *Labels) *ArrayLabels {
	if cpu == nil {
		cpu = newDerivedLabels(nil, nil)
	}
	if l == nil {
		l = new(ArrayLabels)
	}
	l.names, l.count, l.size = names, cpu.count, cpu.size
	l.array = NewReadOnlyLabelsValues(cpu.values, cpu.count, cpu.size)
	l.references.Store(1)
	l.cpu.Store(cpu)
	return l
}

// Names gives the dimension names; do not modify the slice.
func (l *ArrayLabels) Names() []string { return l.names }

// Count gives the number of entries.
func (l *ArrayLabels) Count() int { return l.count }

// Size gives the number of dimensions.
func (l *ArrayLabels) Size() int { return l.size }

// Array gives the values array, which still belongs to the labels.
func (l *ArrayLabels) Array() Array { return l.array }

// Device gives the device of the values, asking the array each time.
func (l *ArrayLabels) Device() (Device, error) {
	return l.array.Device()
}

// CPU gives the values on the CPU, reading them from the array on first use. A failed read
// is tried again by the next call.
func (l *ArrayLabels) CPU() (*Labels, error) {
	if cpu := l.cpu.Load(); cpu != nil {
		return cpu, nil
	}
	return l.readValues(false, nil)
}

// CPUValues gives the values of every entry, one after the other, in CPU memory (see CPU).
func (l *ArrayLabels) CPUValues() ([]int32, error) {
	cpu, err := l.CPU()
	if err != nil {
		return nil, err
	}
	return cpu.Values(), nil
}

// ValuesInGoMemory tells whether the CPU values (once read) live in Go memory, which C
// must not keep pointers into without pinning, rather than in a C producer's export.
func (l *ArrayLabels) ValuesInGoMemory() bool {
	l.cpuLock.Lock()
	defer l.cpuLock.Unlock()
	return l.tensor == nil || !l.tensor.External
}

// CPUIfRead gives the CPU values when they were already read, without reading them.
func (l *ArrayLabels) CPUIfRead() *Labels { return l.cpu.Load() }

// Retain adds a holder; each Retain needs its own Release.
func (l *ArrayLabels) Retain() { l.references.Add(1) }

// RetainN adds n holders at once.
func (l *ArrayLabels) RetainN(n int64) { l.references.Add(n) }

// View gives the slot of the binding's record for these labels.
func (l *ArrayLabels) View() *View { return &l.view }

// ReleasesGoMemoryOnly tells whether the last Release would only let go of Go memory: the
// values are in the library's own array or in a HostArray, and no binding record is
// attached. A Go holder of such labels needs no cleanup: once they are unreachable, the
// garbage collector reclaims all of it, released or not. Keep it in step with Release.
func (l *ArrayLabels) ReleasesGoMemoryOnly() bool {
	switch l.array.(type) {
	case *ReadOnlyLabelsValues, *HostArray:
		return l.view.Record() == nil
	}
	return false
}

// Release drops one holder. The last one destroys the values array, lets go of the exported
// values and releases the binding's record.
func (l *ArrayLabels) Release() { l.ReleaseN(1) }

// ReleaseN drops n holders at once.
func (l *ArrayLabels) ReleaseN(n int64) { l.ReleaseNWith(n, DirectRelease{}) }

// ReleaseNWith is ReleaseN, letting r release the values array and the record when the last
// holder goes (a tensor map freed with FreeWith releases its labels with its blocks).
func (l *ArrayLabels) ReleaseNWith(n int64, r Releaser) {
	switch remaining := l.references.Add(-n); {
	case remaining > 0:
		return
	case remaining < 0:
		panic(Errorf(InternalError, "labels released more often than retained"))
	}
	l.releaseTensor()
	if l.array != nil {
		r.DestroyArray(l.array)
		l.array = nil
	}
	l.view.releaseWith(r) // last: a binding's record may hold the array's memory
}

// releaseTensor lets the values' export go. Only the last holder calls it, or the maker before
// anyone else holds the labels, so that nothing reads the values at the same time: no lock.
func (l *ArrayLabels) releaseTensor() {
	if l.tensor != nil {
		l.tensor.Release()
		l.tensor = nil
	}
}

// errMetaDevice is the error of labels whose values can not be read at all.
func errMetaDevice() error {
	return Errorf(InvalidParameterError,
		"labels values can not be loaded from dlpack's kDLExtDev device (i.e. torch's meta device)")
}

// readValues reads the values once, under the lock, and checks their uniqueness when asked;
// asked, when not nil, is what the caller asked the array already (see Asked).
func (l *ArrayLabels) readValues(checkUnique bool, asked *Asked) (*Labels, error) {
	l.cpuLock.Lock()
	defer l.cpuLock.Unlock()
	return l.readValuesAlone(checkUnique, asked)
}

// readValuesAlone is readValues for a caller that no other goroutine can race: one holding
// cpuLock, or the maker of labels that nobody else holds yet, which spares the lock.
func (l *ArrayLabels) readValuesAlone(checkUnique bool, asked *Asked) (*Labels, error) {
	if cpu := l.cpu.Load(); cpu != nil {
		return cpu, nil
	}

	values, tensor, err := l.exportValues(asked)
	if err != nil {
		return nil, err
	}
	var cpu *Labels
	switch {
	case checkUnique && asked != nil && asked.Distinct:
		cpu = asked.Memory.newRows()
		initKnownDistinctLabels(cpu, l.names, values, asked.Sorted)
	case checkUnique:
		cpu, err = NewLabels(l.names, values, l.count)
	default:
		cpu, err = NewLabelsAssumeUnique(l.names, values, l.count)
	}
	if err != nil {
		tensor.Release()
		return nil, err
	}
	l.tensor = tensor
	l.cpu.Store(cpu)
	return cpu, nil
}

// exportValues gives the row-major values of the array. They point into the returned tensor
// (zero-copy) when it is contiguous; otherwise they are a copy and the tensor is nil. What
// asked holds is used instead of asking the array again; its tensor is consumed.
func (l *ArrayLabels) exportValues(asked *Asked) ([]int32, *Tensor, error) {
	if asked == nil {
		asked = &Asked{}
	}
	if own, ok := l.array.(*ReadOnlyLabelsValues); ok {
		asked.Tensor.Release()
		return own.Values(), nil, nil
	}
	if l.count == 0 || l.size == 0 {
		asked.Tensor.Release()
		return []int32{}, nil, nil
	}
	tensor, err := asked.Tensor, asked.ExportError
	if !asked.Exported {
		device, deviceErr := l.askedDevice(asked)
		if deviceErr != nil {
			return nil, nil, deviceErr
		}
		if device.Type == DeviceExtDev {
			return nil, nil, errMetaDevice()
		}
		tensor, err = l.array.AsDLPack(CPU, nil, CurrentDLPack)
	}
	if err == nil && tensor == nil {
		err = Errorf(InternalError, "labels values were exported, but no tensor was given")
	}
	if err != nil {
		return nil, nil, err
	}
	values, keep, err := int32Values(tensor, l.count, l.size)
	if err != nil || !keep {
		tensor.Release()
		tensor = nil
	}
	return values, tensor, err
}

// askedDevice gives the device the caller asked already, else asks the array.
func (l *ArrayLabels) askedDevice(asked *Asked) (Device, error) {
	if len(asked.Devices) > 0 {
		return asked.Devices[0], nil
	}
	return l.array.Device()
}

// int32Values reads a [count, size] i32 CPU tensor. keep says whether values point into the
// tensor's memory, which must then outlive them.
func int32Values(t *Tensor, count, size int) (values []int32, keep bool, err error) {
	if t.Device != CPU {
		return nil, false, Errorf(InternalError,
			"mts_array_t.as_dlpack returned a tensor on %s when asked for one on the CPU", t.Device)
	}
	if len(t.Shape) != 2 || t.Shape[0] != int64(count) || t.Shape[1] != int64(size) {
		return nil, false, Errorf(InternalError,
			"assertion `left == right` failed: unexpected shape for labels array\n  left: %s\n right: [%d, %d]",
			debugInt64List(t.Shape), count, size)
	}
	base := unsafe.Add(t.Data, t.ByteOffset)
	if t.DType != Int32 || uintptr(base)%4 != 0 || t.Data == nil {
		return nil, false, Errorf(InvalidParameterError,
			"failed to cast pointer to i32 for Labels values: %s", castProblem(t.DType, base))
	}
	if t.IsRowMajor() {
		return unsafe.Slice((*int32)(base), count*size), true, nil
	}
	values = make([]int32, count*size)
	CopyContiguous(unsafe.Slice((*byte)(unsafe.Pointer(&values[0])), len(values)*4), t)
	return values, false, nil
}

func debugInt64List(values []int64) string {
	s := "["
	for i, v := range values {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(v)
	}
	return s + "]"
}

// castProblem says why tensor data can not be read as int32, in the reference's words where it
// has some.
func castProblem(dtype DType, data unsafe.Pointer) string {
	if dtype != Int32 {
		return fmt.Sprintf("can not cast from %s to i32", dtype)
	}
	if data == nil {
		return "the data pointer is NULL"
	}
	return "the data pointer is not aligned for i32"
}
