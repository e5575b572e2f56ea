package core

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spyArray is a host array that pretends to live on some device and counts what the labels
// ask of it: exports made and released, from_dlpack, copies, destroys.
type spyArray struct {
	*HostArray
	device    Device
	exports   *int
	released  *int
	fromCalls *int
	copies    *int
	destroyed *int
	failRead  *bool
}

func newSpy(t *testing.T, values []int32, count, size int) *spyArray {
	t.Helper()
	host, err := HostArrayFromValues([]uintptr{uintptr(count), uintptr(size)}, values)
	require.NoError(t, err)
	return &spyArray{HostArray: host, device: CPU, exports: new(int), released: new(int),
		fromCalls: new(int), copies: new(int), destroyed: new(int), failRead: new(bool)}
}

func (s *spyArray) child(host *HostArray, device Device) *spyArray {
	c := *s
	c.HostArray = host
	c.device = device
	return &c
}

func (s *spyArray) Device() (Device, error) { return s.device, nil }

func (s *spyArray) AsDLPack(device Device, stream *int64, version DLPackVersion) (*Tensor, error) {
	if *s.failRead {
		return nil, Errorf(CallbackError, "no export today")
	}
	tensor, err := s.HostArray.AsDLPack(device, stream, version)
	if err != nil {
		return nil, err
	}
	*s.exports++
	view := *tensor
	return NewTensor(view, func() { *s.released++; tensor.Release() }), nil
}

func (s *spyArray) FromDLPack(tensor *Tensor) (Array, error) {
	*s.fromCalls++
	created, err := s.HostArray.FromDLPack(tensor)
	if err != nil {
		return nil, err
	}
	return s.child(created.(*HostArray), CPU), nil
}

func (s *spyArray) Copy(device Device) (Array, error) {
	*s.copies++
	copied, err := s.HostArray.Copy(CPU)
	if err != nil {
		return nil, err
	}
	return s.child(copied.(*HostArray), device), nil
}

func (s *spyArray) Destroy() { *s.destroyed++ }

var cuda0 = Device{Type: DeviceCUDA, ID: 0}

func TestArrayLabelsCheckedReadsOnceWithoutCopy(t *testing.T) {
	spy := newSpy(t, []int32{0, 1, 1, 2, 2, 3}, 3, 2)
	labels, err := NewArrayLabels([]string{"a", "b"}, spy, true)
	require.NoError(t, err)
	assert.Equal(t, 1, *spy.exports)
	assert.Equal(t, 0, *spy.released, "a contiguous export is kept while the labels live")

	cpu, err := labels.CPU()
	require.NoError(t, err)
	bytes := spy.Bytes()
	assert.Equal(t, unsafe.Pointer(&bytes[0]), unsafe.Pointer(&cpu.Values()[0]), "zero-copy values")
	position, err := labels.Position([]int32{1, 2})
	require.NoError(t, err)
	assert.Equal(t, 1, position)
	assert.Equal(t, 1, *spy.exports)

	labels.Release()
	assert.Equal(t, 1, *spy.released)
	assert.Equal(t, 1, *spy.destroyed)
}

func TestArrayLabelsCheckedRejectsDuplicates(t *testing.T) {
	spy := newSpy(t, []int32{0, 1, 0, 1}, 2, 2)
	_, err := NewArrayLabels([]string{"a", "b"}, spy, true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "can not have the same label entry multiple times")
	assert.Equal(t, 1, *spy.released, "the export is released on failure")
	assert.Equal(t, 1, *spy.destroyed, "the array is consumed on failure")
}

func TestArrayLabelsAssumeUniqueReadsLazilyAndRetries(t *testing.T) {
	spy := newSpy(t, []int32{5, 6, 1, 2}, 2, 2)
	*spy.failRead = true
	labels, err := NewArrayLabels([]string{"a", "b"}, spy, false)
	require.NoError(t, err)
	assert.Equal(t, 0, *spy.exports)
	assert.Nil(t, labels.CPUIfRead())

	_, err = labels.Position([]int32{1, 2})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no export today")

	*spy.failRead = false
	position, err := labels.Position([]int32{1, 2})
	require.NoError(t, err)
	assert.Equal(t, 1, position)
	assert.False(t, labels.CPUIfRead().IsSorted())
	labels.Release()
	assert.Equal(t, *spy.exports, *spy.released)
}

func TestArrayLabelsShapes(t *testing.T) {
	// zero names: the array must be empty and is replaced by the library's own
	empty, err := NewHostArray(Int32, []uintptr{3, 0})
	require.NoError(t, err)
	labels, err := NewArrayLabels(nil, empty, true)
	require.NoError(t, err)
	assert.IsType(t, &ReadOnlyLabelsValues{}, labels.Array())
	assert.Equal(t, 0, labels.Count())

	full, err := NewHostArray(Int32, []uintptr{3, 1})
	require.NoError(t, err)
	_, err = NewArrayLabels(nil, full, true)
	assert.ErrorIs(t, err, &Error{Status: InternalError})

	oneD, err := NewHostArray(Int32, []uintptr{3})
	require.NoError(t, err)
	_, err = NewArrayLabels([]string{"a"}, oneD, false)
	assert.ErrorIs(t, err, &Error{Status: InternalError})

	wide, err := NewHostArray(Int32, []uintptr{3, 2})
	require.NoError(t, err)
	_, err = NewArrayLabels([]string{"a"}, wide, false)
	assert.ErrorIs(t, err, &Error{Status: InternalError})

	doubles, err := NewHostArray(Float64, []uintptr{2, 1})
	require.NoError(t, err)
	_, err = NewArrayLabels([]string{"a"}, doubles, true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid parameter: failed to cast pointer to i32 for Labels values")
}

func TestArrayLabelsMetaDevice(t *testing.T) {
	spy := newSpy(t, []int32{1, 2}, 2, 1)
	spy.device = Device{Type: DeviceExtDev}
	_, err := NewArrayLabels([]string{"a"}, spy, true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kDLExtDev")
	assert.Equal(t, 0, *spy.exports)

	spy = newSpy(t, []int32{1, 2}, 2, 1)
	spy.device = Device{Type: DeviceExtDev}
	labels, err := NewArrayLabels([]string{"a"}, spy, false)
	require.NoError(t, err)
	_, err = labels.CPU()
	assert.ErrorIs(t, err, &Error{Status: InvalidParameterError})
	labels.Release()
}

func TestArrayLabelsResultsArePlacedLikeFirst(t *testing.T) {
	first := newSpy(t, []int32{0, 1, 1, 2}, 2, 2)
	first.device = cuda0
	a, err := NewArrayLabels([]string{"a", "b"}, first, false)
	require.NoError(t, err)
	second := newSpy(t, []int32{1, 2, 2, 3}, 2, 2)
	second.device = cuda0
	b, err := NewArrayLabels([]string{"a", "b"}, second, false)
	require.NoError(t, err)

	union, firstMap, secondMap, err := a.Union(b)
	require.NoError(t, err)
	assert.Equal(t, []int64{0, 1}, firstMap)
	assert.Equal(t, []int64{1, 2}, secondMap)
	assert.Equal(t, 1, *first.fromCalls)
	assert.Equal(t, 1, *first.copies, "a result on another device is copied there")
	assert.Equal(t, 1, *first.destroyed, "the CPU intermediate is destroyed")
	device, err := union.Device()
	require.NoError(t, err)
	assert.Equal(t, cuda0, device)
	assert.Equal(t, []int32{0, 1, 1, 2, 2, 3}, union.CPUIfRead().Values())

	inter, firstMap, secondMap, err := a.Intersection(b)
	require.NoError(t, err)
	assert.Equal(t, []int64{-1, 0}, firstMap)
	assert.Equal(t, []int64{0, -1}, secondMap)
	assert.Equal(t, 1, inter.Count())

	diff, firstMap, err := a.Difference(b)
	require.NoError(t, err)
	assert.Equal(t, []int64{0, -1}, firstMap)
	assert.Equal(t, []int32{0, 1}, diff.CPUIfRead().Values())

	selection := newSpy(t, []int32{1}, 1, 1)
	selection.device = cuda0
	s, err := NewArrayLabels([]string{"b"}, selection, false)
	require.NoError(t, err)
	selected, err := a.Select(s)
	require.NoError(t, err)
	assert.Equal(t, []uint64{0}, selected)

	for _, l := range []*ArrayLabels{a, b, union, inter, diff, s} {
		l.Release()
	}
}

func TestArrayLabelsDeviceChecks(t *testing.T) {
	onCPU, err := NewArrayLabels([]string{"a"}, newSpy(t, []int32{1}, 1, 1), false)
	require.NoError(t, err)
	gpu := newSpy(t, []int32{1}, 1, 1)
	gpu.device = cuda0
	onGPU, err := NewArrayLabels([]string{"a"}, gpu, false)
	require.NoError(t, err)

	_, _, _, err = onCPU.Union(onGPU)
	require.Error(t, err)
	assert.Equal(t, "invalid parameter: can not take the union of these Labels, they are on different devices: 'CPU:0', and 'CUDA:0'", err.Error())
	_, err = onCPU.Select(onGPU)
	require.Error(t, err)
	assert.Equal(t, "invalid parameter: can not select from Labels, the selection is on a different device (CUDA:0) than the labels being selected (CPU:0)", err.Error())

	// empty inputs are not compared
	emptyGPU := newSpy(t, nil, 0, 1)
	emptyGPU.device = cuda0
	empty, err := NewArrayLabels([]string{"a"}, emptyGPU, false)
	require.NoError(t, err)
	result, _, _, err := onCPU.Union(empty)
	require.NoError(t, err)
	assert.Equal(t, 1, result.Count())

	_, _, _, err = onCPU.Union(singleRowLabels(t, []string{"b"}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `they have different dimensions: ["a"], and ["b"]`)
	for _, l := range []*ArrayLabels{onCPU, onGPU, empty, result} {
		l.Release()
	}
}

func singleRowLabels(t *testing.T, names []string) *ArrayLabels {
	t.Helper()
	l, err := NewArrayLabels(names, newSpy(t, []int32{7}, 1, 1), true)
	require.NoError(t, err)
	return l
}

func TestArrayLabelsAskedGoesOnFromWhatWasAsked(t *testing.T) {
	names := []string{"a", "b"}
	shape := []uintptr{2, 2}

	// the export already made is taken (zero-copy), not asked again
	spy := newSpy(t, []int32{1, 0, 0, 1}, 2, 2)
	tensor, err := spy.AsDLPack(CPU, nil, CurrentDLPack)
	require.NoError(t, err)
	labels, err := NewArrayLabelsAsked(names, spy, true, Asked{Shape: shape, HasShape: true, Devices: []Device{CPU}, Exported: true, Tensor: tensor})
	require.NoError(t, err)
	assert.Equal(t, 1, *spy.exports)
	cpu, err := labels.CPU()
	require.NoError(t, err)
	assert.Equal(t, tensor.Data, unsafe.Pointer(&cpu.Values()[0]))
	assert.False(t, cpu.IsSorted())
	labels.Release()
	assert.Equal(t, 1, *spy.released)
	assert.Equal(t, 1, *spy.destroyed)

	// duplicates in the export: the error of NewArrayLabels, export and array released once
	spy = newSpy(t, []int32{1, 0, 1, 0}, 2, 2)
	tensor, err = spy.AsDLPack(CPU, nil, CurrentDLPack)
	require.NoError(t, err)
	_, err = NewArrayLabelsAsked(names, spy, true, Asked{Shape: shape, HasShape: true, Devices: []Device{CPU}, Exported: true, Tensor: tensor})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "[1, 0] is already present")
	assert.Equal(t, 1, *spy.released)
	assert.Equal(t, 1, *spy.destroyed)

	// a failed export: its error, nothing asked again
	spy = newSpy(t, []int32{1, 0, 0, 1}, 2, 2)
	failure := Errorf(CallbackError, "as_dlpack failed")
	_, err = NewArrayLabelsAsked(names, spy, true, Asked{Shape: shape, HasShape: true, Devices: []Device{CPU}, Exported: true, ExportError: failure})
	assert.Equal(t, failure, err)
	assert.Equal(t, 0, *spy.exports)
	assert.Equal(t, 1, *spy.destroyed)

	// the device asked already: a meta device is refused without exporting
	spy = newSpy(t, []int32{1, 0, 0, 1}, 2, 2)
	meta := Device{Type: DeviceExtDev}
	_, err = NewArrayLabelsAsked(names, spy, true, Asked{Shape: shape, HasShape: true, Devices: []Device{meta}})
	assert.ErrorContains(t, err, "kDLExtDev")
	assert.Equal(t, 0, *spy.exports)
	assert.Equal(t, 1, *spy.destroyed)

	// the device asked already (CPU): the export is asked here
	spy = newSpy(t, []int32{1, 0, 0, 1}, 2, 2)
	labels, err = NewArrayLabelsAsked(names, spy, true, Asked{Shape: shape, HasShape: true, Devices: []Device{CPU}})
	require.NoError(t, err)
	assert.Equal(t, 1, *spy.exports)
	labels.Release()
	assert.Equal(t, 1, *spy.released)
}

// With Asked.Memory, the labels and the rows of the caller's check are made in it; without
// it, or without a check, elsewhere.
func TestArrayLabelsAskedInTheCallersMemory(t *testing.T) {
	names := []string{"a", "b"}
	shape := []uintptr{2, 2}
	for _, distinct := range []bool{true, false} {
		spy := newSpy(t, []int32{0, 1, 1, 0}, 2, 2)
		tensor, err := spy.AsDLPack(CPU, nil, CurrentDLPack)
		require.NoError(t, err)
		var memory LabelsMemory
		asked := Asked{Shape: shape, HasShape: true, Devices: []Device{CPU}, Exported: true, Tensor: tensor,
			Distinct: distinct, Memory: &memory}
		labels, err := NewArrayLabelsAsked(names, spy, true, asked)
		require.NoError(t, err)
		assert.Same(t, &memory.labels, labels)
		cpu, err := labels.CPU()
		require.NoError(t, err)
		assert.Equal(t, distinct, cpu == &memory.rows, "the rows of a Distinct check only")
		assert.Equal(t, []int32{0, 1, 1, 0}, cpu.Values())
		position, err := cpu.Position([]int32{1, 0})
		require.NoError(t, err)
		assert.Equal(t, 1, position)
		labels.Release()
		assert.Equal(t, 1, *spy.destroyed)
	}
	labels, err := NewArrayLabelsAsked(names, newSpy(t, []int32{0, 1}, 1, 2), true, Asked{})
	require.NoError(t, err)
	assert.NotNil(t, labels)
	labels.Release()
}

func TestArrayLabelsAskedTakesTheCallersCheck(t *testing.T) {
	names := []string{"a", "b"}
	shape := []uintptr{3, 2}
	for _, sorted := range []bool{true, false} {
		rows := []int32{0, 1, 1, 0, 2, 2}
		if !sorted {
			rows = []int32{1, 0, 0, 1, 2, 2}
		}
		spy := newSpy(t, rows, 3, 2)
		tensor, err := spy.AsDLPack(CPU, nil, CurrentDLPack)
		require.NoError(t, err)
		asked := Asked{Shape: shape, HasShape: true, Devices: []Device{CPU}, Exported: true, Tensor: tensor, Distinct: true, Sorted: sorted}
		labels, err := NewArrayLabelsAsked(names, spy, true, asked)
		require.NoError(t, err)
		cpu, err := labels.CPU()
		require.NoError(t, err)
		// the caller's findings are the labels': checked, sorted as it said, and the hash
		// index, which checking unsorted rows builds, made when first needed
		assert.True(t, cpu.knownDistinct())
		assert.Equal(t, sorted, cpu.IsSorted())
		assert.Nil(t, cpu.index.Load())
		position, err := cpu.Position([]int32{0, 1})
		require.NoError(t, err)
		assert.Equal(t, map[bool]int{true: 0, false: 1}[sorted], position)
		assert.Equal(t, 1, *spy.exports)
		labels.Release()
		assert.Equal(t, 1, *spy.released)
		assert.Equal(t, 1, *spy.destroyed)
	}
}

// TestNamesCheckedByTheCaller: labels whose names a binding checked (Asked.NamesChecked) are
// not checked again; others are.
func TestNamesCheckedByTheCaller(t *testing.T) {
	for _, checked := range []bool{false, true} {
		array, err := NewHostArray(Int32, []uintptr{1, 1})
		require.NoError(t, err)
		labels, err := NewArrayLabelsAsked([]string{"9 lives"}, array, false, Asked{NamesChecked: checked})
		if !checked {
			assert.EqualError(t, err, "invalid parameter: '9 lives' is not a valid label name")
			continue
		}
		require.NoError(t, err, "the caller's check is trusted")
		assert.Equal(t, []string{"9 lives"}, labels.Names())
		labels.Release()
	}
}
