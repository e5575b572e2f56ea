package core

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadOnlyLabelsValuesAccessors(t *testing.T) {
	values := []int32{1, 2, 3, 4, 5, 6}
	a := NewReadOnlyLabelsValues(values, 3, 2)
	assert.Same(t, &values[0], &a.Values()[0], "the values are shared")
	assert.Equal(t, 3, a.Count())
	assert.Equal(t, 2, a.Size())

	expectGot(t, []uintptr{3, 2})(a.Shape())
	expectGot(t, Int32)(a.DType())
	expectGot(t, CPU)(a.Device())
	a.Destroy()
	a.Destroy()
	assert.Equal(t, []int32{1, 2, 3, 4, 5, 6}, values, "never modified")
}

func TestReadOnlyLabelsValuesOrigin(t *testing.T) {
	// Registration is process-wide: before the first Origin call, the name is unknown.
	if !labelsOriginAsked.Load() {
		for _, name := range originNames() {
			require.NotEqual(t, LabelsOriginName, name)
		}
	}

	var wg sync.WaitGroup
	got := make([]Origin, 8)
	for i := range got {
		wg.Go(func() { got[i], _ = NewReadOnlyLabelsValues(nil, 0, 0).Origin() })
	}
	wg.Wait()
	origin, err := ReadOnlyLabelsValuesOrigin()
	require.NoError(t, err)
	for _, o := range got {
		assert.Equal(t, origin, o, "registered once")
	}
	assert.True(t, labelsOriginAsked.Load())
	assert.Equal(t, "metatensor.Labels", OriginName(origin))
	// A C caller registering the name gets the same origin.
	assert.Equal(t, origin, RegisterOrigin("metatensor.Labels"))
}

// originNames lists the registry, for tests that look at it without registering anything.
func originNames() []string {
	origins.RLock()
	defer origins.RUnlock()
	return append([]string{}, origins.names...)
}

func TestReadOnlyLabelsValuesAsDLPack(t *testing.T) {
	values := []int32{1, 2, 3, 4, 5, 6}
	a := NewReadOnlyLabelsValues(values, 2, 3)
	for _, version := range []DLPackVersion{{1, 0}, {1, 3}, {1, 9}} {
		tensor, err := a.AsDLPack(CPU, nil, version)
		require.NoError(t, err)
		assert.Equal(t, DLPackVersion{1, 3}, tensor.Version)
		assert.Equal(t, uint64(FlagReadOnly), tensor.Flags)
		assert.Equal(t, CPU, tensor.Device)
		assert.Equal(t, Int32, tensor.DType)
		assert.Equal(t, []int64{2, 3}, tensor.Shape)
		assert.Equal(t, []int64{3, 1}, tensor.Strides)
		assert.Equal(t, uint64(0), tensor.ByteOffset)
		assert.Equal(t, unsafe.Pointer(&values[0]), tensor.Data, "zero-copy")
		tensor.Release()
	}

	// The export keeps the values alive on its own.
	tensor, err := NewReadOnlyLabelsValues([]int32{7, 8}, 1, 2).AsDLPack(CPU, nil, CurrentDLPack)
	require.NoError(t, err)
	runtime.GC()
	assert.Equal(t, int32(8), *(*int32)(unsafe.Add(tensor.Data, 4)))
	tensor.Release()

	for _, empty := range []*ReadOnlyLabelsValues{NewReadOnlyLabelsValues(nil, 0, 2), NewReadOnlyLabelsValues([]int32{}, 4, 0), NewReadOnlyLabelsValues(nil, 0, 0)} {
		tensor, err := empty.AsDLPack(CPU, nil, CurrentDLPack)
		require.NoError(t, err)
		assert.Nil(t, tensor.Data)
		assert.Equal(t, []int64{int64(empty.Count()), int64(empty.Size())}, tensor.Shape)
		assert.Equal(t, []int64{int64(empty.Size()), 1}, tensor.Strides)
		tensor.Release()
	}
}

func TestReadOnlyLabelsValuesAsDLPackErrors(t *testing.T) {
	a := NewReadOnlyLabelsValues([]int32{1}, 1, 1)
	stream := int64(-1)
	onlyCPU := "labels values owned by metatensor-core only exist on CPU"
	noStream := "`stream` must be None for CPU data"
	cases := cpuOnlyAsDLPackErrors(&stream, DLPackVersion{2, 1}, [5]string{onlyCPU, onlyCPU, noStream,
		"invalid `max_version` in LabelsArray::as_dlpack: we got v2.1, but we support v1.3",
		"invalid `max_version` in LabelsArray::as_dlpack: we got v0.8, but we support v1.3"})
	checkAsDLPackErrors(t, a, append(cases,
		// The device is checked first, then the stream.
		asDLPackErrorCase{Device{DeviceCUDA, 0}, &stream, DLPackVersion{2, 0}, onlyCPU},
		asDLPackErrorCase{CPU, &stream, DLPackVersion{2, 0}, noStream},
	))
}

func TestReadOnlyLabelsValuesFromDLPack(t *testing.T) {
	a := NewReadOnlyLabelsValues(nil, 0, 0)

	// Round trip of an export.
	source := NewReadOnlyLabelsValues([]int32{1, 2, 3, 4, 5, 6}, 3, 2)
	tensor, err := source.AsDLPack(CPU, nil, CurrentDLPack)
	require.NoError(t, err)
	calls := 0
	out, err := a.FromDLPack(countingTensor(*tensor, &calls))
	require.NoError(t, err)
	assert.Equal(t, 1, calls)
	copied := out.(*ReadOnlyLabelsValues)
	assert.Equal(t, []int32{1, 2, 3, 4, 5, 6}, copied.Values())
	assert.NotSame(t, &source.Values()[0], &copied.Values()[0], "the values are copied")
	assert.Equal(t, 3, copied.Count())
	assert.Equal(t, 2, copied.Size())

	// A transposed view after one element of padding, and broadcast rows.
	storage := []int32{-1, 1, 2, 3, 4, 5, 6}
	calls = 0
	out, err = a.FromDLPack(countingTensor(Tensor{
		Version: DLPackVersion{1, 0}, Data: unsafe.Pointer(&storage[0]), Device: CPU, DType: Int32,
		Shape: []int64{3, 2}, Strides: []int64{1, 3}, ByteOffset: 4, Flags: FlagReadOnly,
	}, &calls))
	require.NoError(t, err)
	assert.Equal(t, 1, calls)
	assert.Equal(t, []int32{1, 4, 2, 5, 3, 6}, out.(*ReadOnlyLabelsValues).Values())

	out, err = a.FromDLPack(&Tensor{
		Version: CurrentDLPack, Data: unsafe.Pointer(&storage[1]), Device: CPU, DType: Int32,
		Shape: []int64{2, 3}, Strides: []int64{0, 1},
	})
	require.NoError(t, err)
	assert.Equal(t, []int32{1, 2, 3, 1, 2, 3}, out.(*ReadOnlyLabelsValues).Values())

	// Empty tensors need no data.
	for _, shape := range [][]int64{{0, 3}, {4, 0}} {
		calls = 0
		out, err := (*ReadOnlyLabelsValues)(nil).FromDLPack(countingTensor(Tensor{Version: CurrentDLPack, Device: CPU, DType: Int32, Shape: shape}, &calls))
		require.NoError(t, err, "FromDLPack does not need the receiver")
		assert.Equal(t, 1, calls)
		expectGot(t, []uintptr{uintptr(shape[0]), uintptr(shape[1])})(out.Shape())
		assert.Empty(t, out.(*ReadOnlyLabelsValues).Values())
	}
}

func TestReadOnlyLabelsValuesFromDLPackErrorsReleaseOnce(t *testing.T) {
	values := []int32{1, 2}
	good := Tensor{
		Version: CurrentDLPack, Data: unsafe.Pointer(&values[0]), Device: CPU, DType: Int32,
		Shape: []int64{1, 2},
	}
	cases := []struct {
		edit    func(*Tensor)
		message string
	}{
		{func(t *Tensor) { t.Device = Device{DeviceCUDA, 0} }, "labels values can not be created from dlpack tensors that are not on CPU"},
		{func(t *Tensor) { t.Device = Device{DeviceCUDAHost, 0} }, "labels values can not be created from dlpack tensors that are not on CPU"},
		{func(t *Tensor) { t.Version = DLPackVersion{2, 0} }, "unsupported DLPack version in LabelsArray::from_dlpack: we got v2.0, but we support v1.x"},
		{func(t *Tensor) { t.Version = DLPackVersion{0, 8} }, "unsupported DLPack version in LabelsArray::from_dlpack: we got v0.8, but we support v1.x"},
		{func(t *Tensor) { t.DType = DType{CodeInt, 64, 1} }, "expected i32 tensor for labels values, got dtype=i64"},
		{func(t *Tensor) { t.DType = DType{CodeUInt, 32, 1} }, "expected i32 tensor for labels values, got dtype=u32"},
		{func(t *Tensor) { t.DType = DType{CodeInt, 32, 2} }, "expected i32 tensor for labels values, got dtype=i32x2"},
		{func(t *Tensor) { t.Shape = []int64{2} }, "expected 2D tensor for labels values, got shape=[2]"},
		{func(t *Tensor) { t.Shape = []int64{1, 2, 1} }, "expected 2D tensor for labels values, got shape=[1, 2, 1]"},
		{func(t *Tensor) { t.Shape = []int64{} }, "expected 2D tensor for labels values, got shape=[]"},
		{func(t *Tensor) { t.Shape = []int64{-1, 2} }, "invalid tensor for labels values: invalid tensor shape [-1, 2]"},
		{func(t *Tensor) { t.Strides = []int64{1} }, "invalid tensor for labels values: the tensor has 1 strides for 2 dimensions"},
		{func(t *Tensor) { t.Data = nil }, "invalid tensor for labels values: the tensor has 2 elements but a NULL data pointer"},
		{func(t *Tensor) { t.Shape = []int64{1 << 40, 1 << 40} }, "invalid tensor for labels values: a tensor of shape [1099511627776, 1099511627776] and dtype i32 is too large"},
	}
	a := NewReadOnlyLabelsValues(nil, 0, 0)
	for _, c := range cases {
		err := refusedDLPack(t, a, good, c.edit, c.message)
		assert.ErrorIs(t, err, &Error{Status: InvalidParameterError})
	}

	out, err := a.FromDLPack(nil)
	assert.Nil(t, out)
	assert.Equal(t, "invalid `tensor` for LabelsArray::from_dlpack: it is NULL", errorMessage(t, err))
}

func TestReadOnlyLabelsValuesCopySharesValues(t *testing.T) {
	values := []int32{1, 2, 3, 4}
	a := NewReadOnlyLabelsValues(values, 2, 2)
	out, err := a.Copy(CPU)
	require.NoError(t, err)
	copied := out.(*ReadOnlyLabelsValues)
	assert.Same(t, &values[0], &copied.Values()[0])
	assert.Equal(t, 2, copied.Count())
	assert.Equal(t, 2, copied.Size())
	origin, err := copied.Origin()
	require.NoError(t, err)
	assert.Equal(t, LabelsOriginName, OriginName(origin))

	for _, device := range []Device{{DeviceCUDA, 0}, {DeviceCPU, 1}} {
		out, err := a.Copy(device)
		assert.Nil(t, out)
		assert.Equal(t, "labels values owned by metatensor-core only exist on CPU, they can not be copied to "+device.String(),
			errorMessage(t, err))
	}
}

func TestReadOnlyLabelsValuesUnsupportedOperations(t *testing.T) {
	a := NewReadOnlyLabelsValues([]int32{1, 2}, 1, 2)
	fill := mustHostArray(t, Int32, nil, make([]byte, 4))

	assert.Equal(t, "labels arrays do not support `reshape`", errorMessage(t, a.Reshape([]uintptr{2, 1})))
	assert.Equal(t, "labels arrays do not support `swap_axes`", errorMessage(t, a.SwapAxes(0, 1)))
	out, err := a.Create([]uintptr{1, 2}, fill)
	assert.Nil(t, out)
	assert.Equal(t, "labels arrays do not support `create`", errorMessage(t, err))
	assert.Equal(t, "labels arrays do not support `move_data`", errorMessage(t, a.MoveData(a, nil)))
	assert.ErrorIs(t, a.Reshape(nil), &Error{Status: InvalidParameterError})

	// Nothing changed, and fill was not consumed.
	assert.Equal(t, []int32{1, 2}, a.Values())
	expectGot(t, []uintptr{1, 2})(a.Shape())
	assert.Equal(t, make([]byte, 4), fill.Bytes())
}

func TestReadOnlyLabelsValuesInconsistentOrNil(t *testing.T) {
	bad := []*ReadOnlyLabelsValues{
		NewReadOnlyLabelsValues([]int32{1, 2, 3}, 2, 2),
		NewReadOnlyLabelsValues([]int32{1, 2}, -1, -2),
		NewReadOnlyLabelsValues(nil, 1, 0).withCount(1 << 62).withSize(4),
	}
	for _, a := range bad {
		for _, err := range labelsArrayCalls(a) {
			assert.ErrorIs(t, err, &Error{Status: InternalError})
			assert.Contains(t, errorMessage(t, err), "which does not match its shape")
		}
	}
	_, err := bad[0].Shape()
	assert.Equal(t, "LabelsArray has 3 values, which does not match its shape [2, 2]", errorMessage(t, err))

	var null *ReadOnlyLabelsValues
	for _, err := range labelsArrayCalls(null) {
		assert.Contains(t, errorMessage(t, err), "called on a nil array")
	}
	null.Destroy()
}

func (a *ReadOnlyLabelsValues) withCount(count int) *ReadOnlyLabelsValues { a.count = count; return a }
func (a *ReadOnlyLabelsValues) withSize(size int) *ReadOnlyLabelsValues   { a.size = size; return a }

// labelsArrayCalls makes every call that looks at the values and gives their errors.
func labelsArrayCalls(a *ReadOnlyLabelsValues) []error {
	_, originErr := a.Origin()
	_, deviceErr := a.Device()
	_, dtypeErr := a.DType()
	_, shapeErr := a.Shape()
	_, exportErr := a.AsDLPack(CPU, nil, CurrentDLPack)
	_, copyErr := a.Copy(CPU)
	return []error{originErr, deviceErr, dtypeErr, shapeErr, exportErr, copyErr}
}
