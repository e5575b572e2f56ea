package core

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostDTypes are every dtype a HostArray holds.
var hostDTypes = []DType{
	{CodeFloat, 16, 1}, {CodeFloat, 32, 1}, {CodeFloat, 64, 1},
	{CodeInt, 8, 1}, {CodeInt, 16, 1}, {CodeInt, 32, 1}, {CodeInt, 64, 1},
	{CodeUInt, 8, 1}, {CodeUInt, 16, 1}, {CodeUInt, 32, 1}, {CodeUInt, 64, 1},
	{CodeBool, 8, 1}, {CodeComplex, 64, 1}, {CodeComplex, 128, 1},
}

// fakeArray is an Array of another kind, whose every answer a test can choose; it counts
// the exports it made and how many of them were released.
type fakeArray struct {
	dtype    DType
	shape    []uintptr
	value    []byte // what AsDLPack exports
	export   Tensor // fields of the export, Data and release set by AsDLPack
	noTensor bool   // AsDLPack succeeds without a tensor
	errs     map[string]error

	exports, releases, destroys int
}

func newFakeScalar(dtype DType, value []byte) *fakeArray {
	return &fakeArray{
		dtype: dtype, shape: []uintptr{}, value: value,
		export: Tensor{Version: CurrentDLPack, Device: CPU, DType: dtype, Shape: []int64{}},
	}
}

func (f *fakeArray) Origin() (Origin, error) {
	return RegisterOrigin("core-test.fake"), f.errs["origin"]
}
func (f *fakeArray) Device() (Device, error) { return CPU, f.errs["device"] }
func (f *fakeArray) DType() (DType, error)   { return f.dtype, f.errs["dtype"] }
func (f *fakeArray) Shape() ([]uintptr, error) {
	return f.shape, f.errs["shape"]
}

func (f *fakeArray) AsDLPack(Device, *int64, DLPackVersion) (*Tensor, error) {
	if err := f.errs["as_dlpack"]; err != nil {
		return nil, err
	}
	if f.noTensor {
		return nil, nil
	}
	f.exports++
	view := f.export
	if len(f.value) > 0 {
		view.Data = unsafe.Pointer(&f.value[0])
	}
	return NewTensor(view, func() { f.releases++ }), nil
}

func (f *fakeArray) FromDLPack(*Tensor) (Array, error)      { return nil, NotImplemented("fake") }
func (f *fakeArray) Reshape([]uintptr) error                { return NotImplemented("fake") }
func (f *fakeArray) SwapAxes(uintptr, uintptr) error        { return NotImplemented("fake") }
func (f *fakeArray) Create([]uintptr, Array) (Array, error) { return nil, NotImplemented("fake") }
func (f *fakeArray) Copy(Device) (Array, error)             { return nil, NotImplemented("fake") }
func (f *fakeArray) MoveData(Array, []DataMovement) error   { return NotImplemented("fake") }
func (f *fakeArray) Destroy()                               { f.destroys++ }
func (f *fakeArray) setError(method string, err error) *fakeArray {
	if f.errs == nil {
		f.errs = map[string]error{}
	}
	f.errs[method] = err
	return f
}

// patternBytes gives n bytes that differ from one another and from zero, valid for every
// dtype but bool.
func patternBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + 3)
	}
	return b
}

// validBytes gives n bytes of valid elements of dtype: 0 and 1 for bool.
func validBytes(dtype DType, n int) []byte {
	b := patternBytes(n)
	if dtype.Code == CodeBool {
		for i := range b {
			b[i] &= 1
		}
	}
	return b
}

func mustHostArray(t testing.TB, dtype DType, shape []uintptr, data []byte) *HostArray {
	t.Helper()
	a, err := HostArrayFromBytes(dtype, shape, data)
	require.NoError(t, err)
	return a
}

func int64Array(t testing.TB, shape []uintptr, values ...int64) *HostArray {
	t.Helper()
	a, err := HostArrayFromValues(shape, values)
	require.NoError(t, err)
	return a
}

func hostInt64s(t testing.TB, a *HostArray) []int64 {
	t.Helper()
	v, err := HostValues[int64](a)
	require.NoError(t, err)
	return v
}

func TestNewHostArrayEveryDType(t *testing.T) {
	for _, dtype := range hostDTypes {
		a, err := NewHostArray(dtype, []uintptr{2, 3})
		require.NoError(t, err, dtype.String())
		assert.Equal(t, make([]byte, 6*dtype.ElementSize()), a.Bytes(), dtype.String())
		expectGot(t, dtype)(a.DType())
		expectGot(t, []uintptr{2, 3})(a.Shape())
		expectGot(t, CPU)(a.Device())
	}

	scalar, err := NewHostArray(Float64, nil)
	require.NoError(t, err)
	expectGot(t, []uintptr{})(scalar.Shape())
	assert.Len(t, scalar.Bytes(), 8)

	empty, err := NewHostArray(Float64, []uintptr{3, 0})
	require.NoError(t, err)
	assert.Equal(t, []byte{}, empty.Bytes())
}

func TestNewHostArrayRejectsOtherDTypes(t *testing.T) {
	for _, dtype := range []DType{
		{CodeBfloat, 16, 1}, {CodeFloat8e4m3fn, 8, 1}, {CodeFloat4e2m1fn, 4, 1}, {CodeFloat, 32, 4},
		{CodeInt, 128, 1}, {CodeInt, 7, 1}, {CodeFloat, 8, 1}, {CodeBool, 16, 1}, {CodeComplex, 32, 1},
		{CodeOpaqueHandle, 64, 1}, {CodeInt, 32, 0}, {DataTypeCode(99), 8, 1},
	} {
		_, err := NewHostArray(dtype, []uintptr{1})
		assert.Equal(t, "invalid `dtype` for HostArray: "+dtype.String()+" is not supported", errorMessage(t, err))
		assert.ErrorIs(t, err, &Error{Status: InvalidParameterError})
		_, err = HostArrayFromBytes(dtype, []uintptr{}, []byte{1, 2, 3, 4})
		assert.ErrorContains(t, err, "invalid `dtype` for HostArray")
	}
	_, err := NewHostArray(DType{CodeFloat, 32, 4}, nil)
	assert.ErrorContains(t, err, "f32x4 is not supported")
}

func TestNewHostArrayRejectsHugeShapes(t *testing.T) {
	for _, shape := range [][]uintptr{{1 << 62, 1 << 62}, {0, 1 << 40, 1 << 40}, {1 << 50}, {^uintptr(0)}} {
		_, err := NewHostArray(Float64, shape)
		assert.Equal(t, "invalid `shape` for HostArray: "+formatShape(shape)+" elements of f64 do not fit in memory",
			errorMessage(t, err))
		_, err = HostArrayFromBytes(Float64, shape, nil)
		assert.ErrorContains(t, err, "invalid `shape` for HostArray")
	}
}

func TestHostArrayFromBytes(t *testing.T) {
	data := alignedBytes(24)
	copy(data, patternBytes(24))
	a := mustHostArray(t, Int32, []uintptr{2, 3}, data)
	assert.Same(t, &data[0], &a.Bytes()[0], "aligned data is taken over, not copied")

	_, err := HostArrayFromBytes(Int32, []uintptr{2, 3}, data[:20])
	assert.Equal(t, "invalid `data` for HostArray: got 20 bytes, but a i32 array of shape [2, 3] needs 24",
		errorMessage(t, err))
	_, err = HostArrayFromBytes(Int32, []uintptr{}, nil)
	assert.ErrorContains(t, err, "got 0 bytes, but a i32 array of shape [] needs 4")

	// Misaligned data is copied to aligned memory so typed views stay valid.
	storage := alignedBytes(33)
	copy(storage[1:], patternBytes(32))
	b := mustHostArray(t, Float64, []uintptr{4}, storage[1:])
	assert.NotSame(t, &storage[1], &b.Bytes()[0])
	assert.Equal(t, patternBytes(32), b.Bytes())
	assert.Zero(t, uintptr(unsafe.Pointer(&b.Bytes()[0]))%8)
	_, err = HostValues[float64](b)
	assert.NoError(t, err)

	// One-byte elements never need alignment.
	c := mustHostArray(t, DType{CodeUInt, 8, 1}, []uintptr{32}, storage[1:])
	assert.Same(t, &storage[1], &c.Bytes()[0])

	empty := mustHostArray(t, Float64, []uintptr{0, 4}, nil)
	assert.Equal(t, []byte{}, empty.Bytes())
}

func TestHostArrayOrigin(t *testing.T) {
	a, err := NewHostArray(Float64, nil)
	require.NoError(t, err)
	origin, err := a.Origin()
	require.NoError(t, err)
	assert.Equal(t, HostArrayOriginName, OriginName(origin))
	assert.Equal(t, "metatensor-go.HostArray", OriginName(origin))
	assert.Equal(t, origin, RegisterOrigin(HostArrayOriginName))

	// Every goroutine sees the same origin.
	var wg sync.WaitGroup
	got := make([]Origin, 8)
	for i := range got {
		wg.Go(func() { got[i], _ = a.Origin() })
	}
	wg.Wait()
	for _, o := range got {
		assert.Equal(t, origin, o)
	}
}

func TestHostArrayAsDLPack(t *testing.T) {
	a := int64Array(t, []uintptr{2, 3}, 1, 2, 3, 4, 5, 6)
	tensor, err := a.AsDLPack(CPU, nil, DLPackVersion{1, 0})
	require.NoError(t, err)
	assert.Equal(t, CurrentDLPack, tensor.Version)
	assert.Equal(t, uint64(0), tensor.Flags, "writable")
	assert.Equal(t, CPU, tensor.Device)
	assert.Equal(t, DType{CodeInt, 64, 1}, tensor.DType)
	assert.Equal(t, []int64{2, 3}, tensor.Shape)
	assert.Equal(t, []int64{3, 1}, tensor.Strides)
	assert.Equal(t, uint64(0), tensor.ByteOffset)
	assert.Equal(t, unsafe.Pointer(&a.Bytes()[0]), tensor.Data, "zero-copy")

	// Writes through the tensor are writes to the array.
	*(*int64)(unsafe.Add(tensor.Data, 8)) = 20
	assert.Equal(t, []int64{1, 20, 3, 4, 5, 6}, hostInt64s(t, a))

	// The memory stays valid until the release, even after Destroy.
	a.Destroy()
	runtime.GC()
	assert.Equal(t, int64(6), *(*int64)(unsafe.Add(tensor.Data, 40)))
	tensor.Release()

	empty, err := NewHostArray(Float64, []uintptr{0, 5})
	require.NoError(t, err)
	tensor, err = empty.AsDLPack(CPU, nil, CurrentDLPack)
	require.NoError(t, err)
	assert.Nil(t, tensor.Data)
	assert.Equal(t, []int64{0, 5}, tensor.Shape)
	assert.Equal(t, []int64{5, 1}, tensor.Strides)
	tensor.Release()

	scalar := mustHostArray(t, Float64, nil, patternBytes(8))
	tensor, err = scalar.AsDLPack(CPU, nil, CurrentDLPack)
	require.NoError(t, err)
	assert.Equal(t, []int64{}, tensor.Shape)
	assert.Equal(t, []int64{}, tensor.Strides)
	assert.Equal(t, int64(1), tensor.Elements())
	tensor.Release()
}

// asDLPackErrorCase is a call to AsDLPack that fails, and its message.
type asDLPackErrorCase struct {
	device  Device
	stream  *int64
	version DLPackVersion
	message string
}

// checkAsDLPackErrors makes every call of cases on a, which must fail with an invalid
// parameter and no tensor.
func checkAsDLPackErrors(t *testing.T, a Array, cases []asDLPackErrorCase) {
	t.Helper()
	for _, c := range cases {
		tensor, err := a.AsDLPack(c.device, c.stream, c.version)
		assert.Nil(t, tensor)
		assert.Equal(t, c.message, errorMessage(t, err))
		assert.ErrorIs(t, err, &Error{Status: InvalidParameterError})
	}
}

// cpuOnlyAsDLPackErrors gives the calls that an array on the CPU refuses, in
// order: on CUDA:0, on CPU:1, with stream, asking for newer and for v0.8;
// messages are their errors.
func cpuOnlyAsDLPackErrors(stream *int64, newer DLPackVersion, messages [5]string) []asDLPackErrorCase {
	cases := []asDLPackErrorCase{
		{device: Device{DeviceCUDA, 0}, version: CurrentDLPack},
		{device: Device{DeviceCPU, 1}, version: CurrentDLPack},
		{device: CPU, stream: stream, version: CurrentDLPack},
		{device: CPU, version: newer},
		{device: CPU, version: DLPackVersion{0, 8}},
	}
	for i := range cases {
		cases[i].message = messages[i]
	}
	return cases
}

func TestHostArrayAsDLPackErrors(t *testing.T) {
	a := int64Array(t, []uintptr{1}, 1)
	stream := int64(0)
	checkAsDLPackErrors(t, a, cpuOnlyAsDLPackErrors(&stream, DLPackVersion{2, 0}, [5]string{
		"invalid `device` CUDA:0 for HostArray.AsDLPack: the data only exists on CPU:0",
		"invalid `device` CPU:1 for HostArray.AsDLPack: the data only exists on CPU:0",
		"invalid `stream` for HostArray.AsDLPack: it must be NULL for data on the CPU",
		"invalid `max_version` v2.0 for HostArray.AsDLPack: only DLPack v1.x is supported",
		"invalid `max_version` v0.8 for HostArray.AsDLPack: only DLPack v1.x is supported",
	}))
}

func TestHostArrayEveryDTypeRoundTrip(t *testing.T) {
	shape := []uintptr{3, 2, 4}
	for _, dtype := range hostDTypes {
		bytes := validBytes(dtype, 24*dtype.ElementSize())
		a := mustHostArray(t, dtype, shape, slices.Clone(bytes))

		tensor, err := a.AsDLPack(CPU, nil, CurrentDLPack)
		require.NoError(t, err)
		calls := 0
		wrapped := countingTensor(*tensor, &calls)
		back, err := a.FromDLPack(wrapped)
		require.NoError(t, err, dtype.String())
		assert.Equal(t, 1, calls, "released exactly once")
		tensor.Release()

		b := back.(*HostArray)
		assert.Equal(t, bytes, b.Bytes(), dtype.String())
		assert.NotSame(t, &a.Bytes()[0], &b.Bytes()[0], "FromDLPack copies")
		expectGot(t, dtype)(b.DType())
		expectGot(t, shape)(b.Shape())
		origin, err := b.Origin()
		require.NoError(t, err)
		assert.Equal(t, HostArrayOriginName, OriginName(origin))
	}
}

func TestHostArrayFromDLPackFollowsStridesAndOffset(t *testing.T) {
	// For every dtype: a [4, 3] transposed view of a [3, 4] matrix stored after two elements
	// of padding, compared element by element with the row-major transpose.
	for _, dtype := range hostDTypes {
		size := dtype.ElementSize()
		storage := validBytes(dtype, 14*size)
		calls := 0
		tensor := countingTensor(Tensor{
			Version: DLPackVersion{1, 1}, Data: unsafe.Pointer(&storage[0]), Device: CPU, DType: dtype,
			Shape: []int64{4, 3}, Strides: []int64{1, 4}, ByteOffset: uint64(2 * size),
		}, &calls)
		out, err := (&HostArray{}).FromDLPack(tensor)
		require.NoError(t, err, dtype.String())
		assert.Equal(t, 1, calls)

		expected := make([]byte, 0, 12*size)
		for i := range 4 {
			for j := range 3 {
				at := (2 + j*4 + i) * size
				expected = append(expected, storage[at:at+size]...)
			}
		}
		assert.Equal(t, expected, out.(*HostArray).Bytes(), dtype.String())
	}

	// Broadcast (zero) strides and negative strides are followed as well.
	values := []int32{10, 20, 30}
	broadcast := &Tensor{
		Version: CurrentDLPack, Data: unsafe.Pointer(&values[0]), Device: CPU, DType: Int32,
		Shape: []int64{2, 3}, Strides: []int64{0, 1},
	}
	out, err := (*HostArray)(nil).FromDLPack(broadcast)
	require.NoError(t, err, "FromDLPack does not need the receiver")
	got, err := HostValues[int32](out.(*HostArray))
	require.NoError(t, err)
	assert.Equal(t, []int32{10, 20, 30, 10, 20, 30}, got)

	reversed := &Tensor{
		Version: CurrentDLPack, Data: unsafe.Pointer(&values[0]), Device: CPU, DType: Int32,
		Shape: []int64{3}, Strides: []int64{-1}, ByteOffset: 8,
	}
	out, err = (*HostArray)(nil).FromDLPack(reversed)
	require.NoError(t, err)
	got, err = HostValues[int32](out.(*HostArray))
	require.NoError(t, err)
	assert.Equal(t, []int32{30, 20, 10}, got)
}

func TestHostArrayFromDLPackErrorsReleaseOnce(t *testing.T) {
	value := 1.5
	good := Tensor{
		Version: CurrentDLPack, Data: unsafe.Pointer(&value), Device: CPU, DType: Float64,
		Shape: []int64{1},
	}
	cases := []struct {
		edit    func(*Tensor)
		message string
	}{
		{func(t *Tensor) { t.Version = DLPackVersion{0, 8} },
			"invalid `tensor` for HostArray.FromDLPack: DLPack v0.8 is not supported, only v1.x is"},
		{func(t *Tensor) { t.Version = DLPackVersion{2, 0} },
			"invalid `tensor` for HostArray.FromDLPack: DLPack v2.0 is not supported, only v1.x is"},
		{func(t *Tensor) { t.Device = Device{DeviceCUDA, 1} },
			"invalid `tensor` for HostArray.FromDLPack: it is on CUDA:1, only CPU tensors can be copied"},
		{func(t *Tensor) { t.DType = DType{CodeBfloat, 16, 1} },
			"invalid `dtype` for HostArray: bfloat16 is not supported"},
		{func(t *Tensor) { t.Strides = []int64{1, 1} },
			"invalid `tensor` for HostArray.FromDLPack: the tensor has 2 strides for 1 dimensions"},
		{func(t *Tensor) { t.Shape = []int64{-2} },
			"invalid `tensor` for HostArray.FromDLPack: invalid tensor shape [-2]"},
		{func(t *Tensor) { t.Data = nil },
			"invalid `tensor` for HostArray.FromDLPack: the tensor has 1 elements but a NULL data pointer"},
		{func(t *Tensor) { t.Shape = []int64{1 << 46} },
			"invalid `tensor` for HostArray.FromDLPack: a tensor of shape [70368744177664] and dtype f64 is too large"},
	}
	a := int64Array(t, []uintptr{1}, 1)
	for _, c := range cases {
		refusedDLPack(t, a, good, c.edit, c.message)
	}

	out, err := a.FromDLPack(nil)
	assert.Nil(t, out)
	assert.Equal(t, "invalid `tensor` for HostArray.FromDLPack: it is NULL", errorMessage(t, err))

	// An empty tensor needs no data.
	calls := 0
	out, err = a.FromDLPack(countingTensor(Tensor{Version: CurrentDLPack, Device: CPU, DType: Float64, Shape: []int64{0, 2}}, &calls))
	require.NoError(t, err)
	assert.Equal(t, 1, calls)
	expectGot(t, []uintptr{0, 2})(out.Shape())
}

func TestHostArrayShapeIsACopy(t *testing.T) {
	a := int64Array(t, []uintptr{2, 1}, 1, 2)
	shape, err := a.Shape()
	require.NoError(t, err)
	shape[0] = 7
	expectGot(t, []uintptr{2, 1})(a.Shape())

	input := []uintptr{1, 2}
	b, err := NewHostArray(Float64, input)
	require.NoError(t, err)
	input[0] = 9
	expectGot(t, []uintptr{1, 2})(b.Shape())
}

func TestHostArrayCreate(t *testing.T) {
	for _, dtype := range hostDTypes {
		value := validBytes(dtype, dtype.ElementSize())
		if dtype.Code == CodeBool {
			value[0] = 1
		}
		a, err := NewHostArray(dtype, []uintptr{1, 1})
		require.NoError(t, err)
		fill := mustHostArray(t, dtype, nil, slices.Clone(value))

		out, err := a.Create([]uintptr{2, 3, 2}, fill)
		require.NoError(t, err, dtype.String())
		created := out.(*HostArray)
		expectGot(t, []uintptr{2, 3, 2})(created.Shape())
		expectGot(t, dtype)(created.DType())
		assert.Equal(t, slices.Repeat(value, 12), created.Bytes(), dtype.String())

		// fill is borrowed: still usable afterwards.
		assert.Equal(t, value, fill.Bytes())
	}

	// Zero fills, empty and scalar shapes, fills of another kind of array.
	zero := mustHostArray(t, Float64, nil, make([]byte, 8))
	a, err := NewHostArray(Float64, []uintptr{1})
	require.NoError(t, err)
	out, err := a.Create([]uintptr{3}, zero)
	require.NoError(t, err)
	assert.Equal(t, make([]byte, 24), out.(*HostArray).Bytes())
	out, err = a.Create([]uintptr{0, 3}, mustHostArray(t, Float64, nil, patternBytes(8)))
	require.NoError(t, err)
	assert.Equal(t, []byte{}, out.(*HostArray).Bytes())
	out, err = a.Create(nil, mustHostArray(t, Float64, nil, patternBytes(8)))
	require.NoError(t, err)
	assert.Equal(t, patternBytes(8), out.(*HostArray).Bytes())

	fake := newFakeScalar(Float64, patternBytes(8))
	out, err = a.Create([]uintptr{5}, fake)
	require.NoError(t, err)
	assert.Equal(t, slices.Repeat(patternBytes(8), 5), out.(*HostArray).Bytes())
	assert.Equal(t, 1, fake.exports)
	assert.Equal(t, 1, fake.releases)
	assert.Zero(t, fake.destroys, "fill is not destroyed")

	// The fill may be read through strides and a byte offset.
	fake = newFakeScalar(Float64, patternBytes(16))
	fake.export.ByteOffset = 8
	out, err = a.Create([]uintptr{2}, fake)
	require.NoError(t, err)
	assert.Equal(t, slices.Repeat(patternBytes(16)[8:], 2), out.(*HostArray).Bytes())

	// A scalar array can be filled from itself.
	self := mustHostArray(t, Float64, nil, patternBytes(8))
	out, err = self.Create([]uintptr{2}, self)
	require.NoError(t, err)
	assert.Equal(t, slices.Repeat(patternBytes(8), 2), out.(*HostArray).Bytes())
}

func TestHostArrayCreateErrors(t *testing.T) {
	a, err := NewHostArray(Float64, []uintptr{1})
	require.NoError(t, err)

	out, err := a.Create([]uintptr{2}, mustHostArray(t, Int32, nil, make([]byte, 4)))
	assert.Nil(t, out)
	assert.Equal(t, "fill_value dtype (code=0, bits=32, lanes=1) does not match array dtype (code=2, bits=64, lanes=1)",
		errorMessage(t, err))

	_, err = a.Create([]uintptr{2}, mustHostArray(t, Float64, []uintptr{1}, make([]byte, 8)))
	assert.Equal(t, "fill_value must be a single scalar, got a shape [1]", errorMessage(t, err))
	_, err = a.Create([]uintptr{2}, mustHostArray(t, Float64, []uintptr{1, 0}, nil))
	assert.Equal(t, "fill_value must be a single scalar, got a shape [1, 0]", errorMessage(t, err))

	_, err = a.Create([]uintptr{2}, nil)
	assert.Equal(t, "invalid `fill_value` for HostArray.Create: it is nil", errorMessage(t, err))

	_, err = a.Create([]uintptr{1 << 50}, newFakeScalar(Float64, patternBytes(8)))
	assert.Equal(t, "invalid `shape` for HostArray: [1125899906842624] elements of f64 do not fit in memory",
		errorMessage(t, err))

	// Errors of the fill's own methods come back unchanged.
	callbackErr := &Error{Status: CallbackError, Message: "from the fill"}
	for _, method := range []string{"dtype", "shape", "as_dlpack"} {
		fake := newFakeScalar(Float64, patternBytes(8)).setError(method, callbackErr)
		_, err := a.Create([]uintptr{2}, fake)
		assert.Same(t, callbackErr, err, method)
		assert.Zero(t, fake.exports)
	}

	fake := newFakeScalar(Float64, patternBytes(8))
	fake.noTensor = true
	_, err = a.Create([]uintptr{2}, fake)
	assert.Equal(t, "fill_value.AsDLPack gave no tensor", errorMessage(t, err))

	// What the export says is checked too, and the export is released exactly once.
	exportCases := []struct {
		edit    func(*Tensor)
		message string
	}{
		{func(t *Tensor) { t.Device = Device{DeviceCUDA, 0} }, "fill_value must be on CPU, its DLPack export is on CUDA:0"},
		{func(t *Tensor) { t.DType = Int32 }, "fill_value DLPack export has dtype i32, but the array dtype is f64"},
		{func(t *Tensor) { t.Shape = []int64{2} }, "fill_value must be a single scalar, its DLPack export has shape [2]"},
		{func(t *Tensor) { t.Shape = []int64{1}; t.Strides = []int64{} }, "invalid DLPack export of fill_value: the tensor has 0 strides for 1 dimensions"},
	}
	for _, c := range exportCases {
		fake := newFakeScalar(Float64, patternBytes(16))
		c.edit(&fake.export)
		_, err := a.Create([]uintptr{2}, fake)
		assert.Equal(t, c.message, errorMessage(t, err))
		assert.Equal(t, 1, fake.exports)
		assert.Equal(t, 1, fake.releases, c.message)
	}
	fake = newFakeScalar(Float64, nil)
	_, err = a.Create([]uintptr{2}, fake)
	assert.Equal(t, "invalid DLPack export of fill_value: the tensor has 1 elements but a NULL data pointer", errorMessage(t, err))
	assert.Equal(t, 1, fake.releases)
}

func TestHostArrayCopy(t *testing.T) {
	a := int64Array(t, []uintptr{3, 1}, 1, 2, 3)
	out, err := a.Copy(CPU)
	require.NoError(t, err)
	b := out.(*HostArray)
	assert.Equal(t, []int64{1, 2, 3}, hostInt64s(t, b))
	hostInt64s(t, b)[0] = 100
	assert.Equal(t, []int64{1, 2, 3}, hostInt64s(t, a), "deep copy")
	require.NoError(t, b.Reshape([]uintptr{3}))
	shape, err := a.Shape()
	require.NoError(t, err)
	assert.Equal(t, []uintptr{3, 1}, shape, "the shape is not shared")

	for _, device := range []Device{{DeviceCUDA, 0}, {DeviceCPU, 2}, {DeviceExtDev, 0}} {
		out, err := a.Copy(device)
		assert.Nil(t, out)
		assert.Equal(t, "invalid `device` "+device.String()+" for HostArray.Copy: only CPU:0 is supported",
			errorMessage(t, err))
	}
}

func TestHostArrayDestroyAndNil(t *testing.T) {
	a := int64Array(t, []uintptr{1}, 1)
	a.Destroy()
	a.Destroy() // idempotent
	assert.Nil(t, a.Bytes())

	var null *HostArray
	null.Destroy()
	assert.Nil(t, null.Bytes())

	other := int64Array(t, []uintptr{1, 1}, 1)
	checks := map[string]func(*HostArray) error{
		"Origin":   func(a *HostArray) error { _, err := a.Origin(); return err },
		"Device":   func(a *HostArray) error { _, err := a.Device(); return err },
		"DType":    func(a *HostArray) error { _, err := a.DType(); return err },
		"Shape":    func(a *HostArray) error { _, err := a.Shape(); return err },
		"AsDLPack": func(a *HostArray) error { _, err := a.AsDLPack(CPU, nil, CurrentDLPack); return err },
		"Reshape":  func(a *HostArray) error { return a.Reshape([]uintptr{1}) },
		"SwapAxes": func(a *HostArray) error { return a.SwapAxes(0, 0) },
		"Create": func(a *HostArray) error {
			_, err := a.Create(nil, newFakeScalar(Int32, make([]byte, 4)))
			return err
		},
		"Copy":       func(a *HostArray) error { _, err := a.Copy(CPU); return err },
		"MoveData":   func(a *HostArray) error { return a.MoveData(other, nil) },
		"HostValues": func(a *HostArray) error { _, err := HostValues[int64](a); return err },
	}
	for method, call := range checks {
		assert.Equal(t, "HostArray."+method+" called after Destroy", errorMessage(t, call(a)))
		assert.Equal(t, "HostArray."+method+" called on a nil array", errorMessage(t, call(null)))
		assert.Equal(t, "HostArray."+method+" called on an array that was not made by NewHostArray or HostArrayFromBytes",
			errorMessage(t, call(&HostArray{})))
	}
}

func TestHostArrayConcurrentUse(t *testing.T) {
	// Readers, and moves in both directions between two arrays, under the race detector
	// when it is on; opposite moves must not deadlock.
	a := int64Array(t, []uintptr{4, 2}, 1, 2, 3, 4, 5, 6, 7, 8)
	b := int64Array(t, []uintptr{4, 2}, 8, 7, 6, 5, 4, 3, 2, 1)
	moves := []DataMovement{{SampleIn: 0, SampleOut: 3, PropertiesLength: 2}}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				assert.NoError(t, a.MoveData(b, moves))
				assert.NoError(t, b.MoveData(a, moves))
				_, err := a.Shape()
				assert.NoError(t, err)
				out, err := b.Copy(CPU)
				assert.NoError(t, err)
				out.Destroy()
			}
		})
	}
	wg.Wait()
}

// A shape read by value holds its own copy, short (in place) or long, and reads as Shape.
func TestSmallShapeOfHostArrays(t *testing.T) {
	for _, shape := range [][]uintptr{{}, {3}, {2, 3, 4, 5}, {2, 1, 3, 1, 2}, {1, 1, 1, 1, 1, 1, 7}} {
		array, err := NewHostArray(Float64, shape)
		require.NoError(t, err)
		var small SmallShape
		axes, err := shapeInto(array, &small)
		require.NoError(t, err)
		want, err := array.Shape()
		require.NoError(t, err)
		assert.Equal(t, want, axes)
		elements := uintptr(1)
		for _, axis := range shape {
			elements *= axis
		}
		require.NoError(t, array.Reshape([]uintptr{elements}))
		assert.Equal(t, want, small.Axes(), "the shape read before the reshape keeps its axes")
		array.Destroy()
	}
}
