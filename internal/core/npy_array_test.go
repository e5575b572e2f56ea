package core

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// npyFixtureKinds are the descriptor kinds of the fixtures, for every dtype the format stores.
var npyFixtureKinds = []string{"f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "b1", "c8", "c16"}

// npyTestValues gives, in native byte order, elements 0..n-1 of an array of the given
// descriptor kind, with the formulas of testdata/npy/make_fixtures.py.
func npyTestValues(kind string, n int) []byte {
	out := []byte{}
	order := binary.NativeEndian
	for i := range n {
		real := float64(i-2) * 0.5
		switch kind {
		case "f2":
			out = order.AppendUint16(out, halfBits(real))
		case "f4":
			out = order.AppendUint32(out, math.Float32bits(float32(real)))
		case "f8":
			out = order.AppendUint64(out, math.Float64bits(real))
		case "i1", "u1":
			out = append(out, byte(npyTestInteger(kind, i)))
		case "i2", "u2":
			out = order.AppendUint16(out, uint16(npyTestInteger(kind, i)))
		case "i4", "u4":
			out = order.AppendUint32(out, uint32(npyTestInteger(kind, i)))
		case "i8", "u8":
			out = order.AppendUint64(out, uint64(npyTestInteger(kind, i)))
		case "b1":
			out = append(out, map[bool]byte{false: 0, true: 1}[i%3 == 1])
		case "c8":
			out = order.AppendUint32(out, math.Float32bits(float32(real)))
			out = order.AppendUint32(out, math.Float32bits(float32(i)))
		case "c16":
			out = order.AppendUint64(out, math.Float64bits(real))
			out = order.AppendUint64(out, math.Float64bits(float64(i)))
		}
	}
	return out
}

func npyTestInteger(kind string, i int) int64 {
	if kind[0] == 'i' {
		return int64(i - 2)
	}
	return int64(i * 3)
}

// halfBits encodes x, a small multiple of 0.5, as an IEEE half-precision float.
func halfBits(x float64) uint16 {
	if x == 0 {
		return 0
	}
	var sign uint16
	if x < 0 {
		sign, x = 0x8000, -x
	}
	frac, exp := math.Frexp(x) // x = frac * 2^exp, frac in [0.5, 1)
	return sign | uint16(exp-1+15)<<10 | uint16((frac*2-1)*1024)
}

// npyKindDType gives the dtype of a descriptor kind ("f8").
func npyKindDType(t testing.TB, kind string) DType {
	t.Helper()
	dtype, _, err := parseNpyDescr("<" + kind)
	require.NoError(t, err)
	return dtype
}

// npyCreateCounter is a create callback making HostArrays, which counts its calls and
// remembers what it made.
type npyCreateCounter struct {
	calls   int
	created []*npyProbe
}

func (c *npyCreateCounter) create(shape []uintptr, dtype DType) (Array, error) {
	c.calls++
	host, err := NewHostArray(dtype, shape)
	if err != nil {
		return nil, err
	}
	probe := &npyProbe{Array: host}
	c.created = append(c.created, probe)
	return probe, nil
}

// npyProbe wraps an array to count the exports and destroys the loader makes.
type npyProbe struct {
	Array
	exports, releases, destroys int
}

func (p *npyProbe) AsDLPack(device Device, stream *int64, version DLPackVersion) (*Tensor, error) {
	tensor, err := p.Array.AsDLPack(device, stream, version)
	if err != nil {
		return nil, err
	}
	p.exports++
	return NewTensor(*tensor, func() { p.releases++; tensor.Release() }), nil
}

func (p *npyProbe) Destroy() { p.destroys++; p.Array.Destroy() }

func readNpyBytes(data []byte, create CreateArray) (Array, []uintptr, error) {
	return readNpyArray(bytes.NewReader(data), int64(len(data)), create)
}

func writeNpyBytes(t *testing.T, array Array) []byte {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, writeNpyArray(&out, array))
	return out.Bytes()
}

func hostBytes(t testing.TB, array Array) []byte {
	t.Helper()
	probe, ok := array.(*npyProbe)
	require.True(t, ok, "not made by npyCreateCounter: %T", array)
	return probe.Array.(*HostArray).Bytes()
}

// npyFixture parses the name of a data fixture: values_<kind>_<d0>x<d1>...[_<variant>].npy.
func npyFixture(t *testing.T, name string) (kind string, shape []uintptr, variant string) {
	parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(name, "values_"), ".npy"), "_")
	require.GreaterOrEqual(t, len(parts), 2, name)
	for _, d := range strings.Split(parts[1], "x") {
		value, err := strconv.Atoi(d)
		require.NoError(t, err, name)
		shape = append(shape, uintptr(value))
	}
	if len(parts) > 2 {
		variant = parts[2]
	}
	return parts[0], shape, variant
}

func TestNpyArrayMatchesReferenceFiles(t *testing.T) {
	if !hostLittleEndian {
		t.Skip("the reference files were written on a little-endian host")
	}
	paths, err := filepath.Glob("testdata/npy/values_*.npy")
	require.NoError(t, err)
	kinds := map[string]bool{}
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			expected, err := os.ReadFile(path)
			require.NoError(t, err)
			kind, shape, variant := npyFixture(t, name)
			kinds[kind] = true
			dtype := npyKindDType(t, kind)
			n, ok := shapeElements(shape, dtype.ElementSize())
			require.True(t, ok)
			values := npyTestValues(kind, n)

			var source Array
			switch variant {
			case "":
				source = mustHostArray(t, dtype, shape, values)
			case "transposed":
				// The reference saved the transpose of a row-major (3, 2) array; the same
				// view of the same memory must give the same bytes.
				require.Equal(t, []uintptr{2, 3}, shape)
				source = &fakeArray{dtype: dtype, shape: shape, value: values, export: Tensor{
					Version: CurrentDLPack, Device: CPU, DType: dtype, Shape: []int64{2, 3}, Strides: []int64{1, 2},
				}}
				values = []byte{}
				for _, i := range []int{0, 2, 4, 1, 3, 5} {
					values = append(values, npyTestValues(kind, n)[i*8:(i+1)*8]...)
				}
			default:
				t.Fatalf("unknown fixture variant %q", variant)
			}
			assert.Equal(t, expected, writeNpyBytes(t, source))

			counter := &npyCreateCounter{}
			array, readShape, err := readNpyBytes(expected, counter.create)
			require.NoError(t, err)
			defer array.Destroy()
			assert.Equal(t, shape, readShape)
			assert.Equal(t, values, hostBytes(t, array))
			assert.Equal(t, 1, counter.calls)
			assert.Equal(t, counter.created[0].exports, counter.created[0].releases)
		})
	}
	for _, kind := range npyFixtureKinds {
		assert.True(t, kinds[kind], "no reference file for %s", kind)
	}
}

func TestNpyArrayRoundTripsEveryDType(t *testing.T) {
	for _, kind := range npyFixtureKinds {
		dtype := npyKindDType(t, kind)
		for _, shape := range [][]uintptr{{7}, {2, 3}, {2, 1, 3, 2}, {3, 0}, {}} {
			n, _ := shapeElements(shape, 1)
			values := npyTestValues(kind, n)
			data := writeNpyBytes(t, mustHostArray(t, dtype, shape, values))
			descr, err := npyDescr(dtype)
			require.NoError(t, err)
			assert.Contains(t, string(data), "'descr': '"+descr+"'")
			if n == 0 {
				assert.Zero(t, len(data)%64, "only the header for %s %v", kind, shape)
			}

			counter := &npyCreateCounter{}
			array, readShape, err := readNpyBytes(data, counter.create)
			if len(shape) == 0 {
				// The reference writes "()" for a scalar, which its parser refuses.
				requireCoreError(t, err, SerializationError, "invalid header in file: expected an integer, got ')'")
				assert.Zero(t, counter.calls)
				continue
			}
			require.NoError(t, err, "%s %v", kind, shape)
			assert.Equal(t, shape, readShape)
			assert.Equal(t, values, hostBytes(t, array))
			if n == 0 {
				assert.Zero(t, counter.created[0].exports, "no export of an empty array")
			}
			array.Destroy()
		}
	}
}

// swappedNpy writes the elements of kind in the byte order opposite to the host's.
func swappedNpy(t *testing.T, kind string, shape []uintptr, values []byte) []byte {
	t.Helper()
	swapped := bytes.Clone(values)
	swapNpyBytes(swapped, npyKindDType(t, kind))
	order := ">"
	if !hostLittleEndian {
		order = "<"
	}
	header := npyHeader{descr: order + kind, shape: shape}
	encoded, err := header.encode()
	require.NoError(t, err)
	return append(encoded, swapped...)
}

func TestReadNpyArraySwapsBytes(t *testing.T) {
	for _, kind := range npyFixtureKinds {
		values := npyTestValues(kind, 6)
		counter := &npyCreateCounter{}
		array, _, err := readNpyBytes(swappedNpy(t, kind, []uintptr{3, 2}, values), counter.create)
		require.NoError(t, err, kind)
		assert.Equal(t, values, hostBytes(t, array), kind)
		array.Destroy()
	}

	// '=' is the host's order.
	values := npyTestValues("f8", 2)
	counter := &npyCreateCounter{}
	array, _, err := readNpyBytes(npyFile(1, "{'descr': '=f8', 'fortran_order': False, 'shape': (2,)}\n", values), counter.create)
	require.NoError(t, err)
	assert.Equal(t, values, hostBytes(t, array))
	array.Destroy()
}

func TestReadNpyArrayBoolIsAnyNonZeroByte(t *testing.T) {
	counter := &npyCreateCounter{}
	data := npyFile(1, "{'descr': '<b1', 'fortran_order': False, 'shape': (2, 3)}\n", []byte{0, 1, 2, 255, 0, 0x80})
	array, _, err := readNpyBytes(data, counter.create)
	require.NoError(t, err)
	assert.Equal(t, []byte{0, 1, 1, 1, 0, 1}, hostBytes(t, array))
	array.Destroy()
}

func TestWriteNpyArrayBoolIsZeroOrOne(t *testing.T) {
	dtype := npyKindDType(t, "b1")
	source := &fakeArray{dtype: dtype, shape: []uintptr{4}, value: []byte{0, 1, 2, 255},
		export: Tensor{Version: CurrentDLPack, Device: CPU, DType: dtype, Shape: []int64{4}}}
	data := writeNpyBytes(t, source)
	assert.Equal(t, []byte{0, 1, 1, 1}, data[len(data)-4:])
}

// stridedSource is a (rows, cols) view of float64 values laid out column-major in a larger
// buffer, with a byte offset: the kind of export a transposed slice gives.
func stridedSource(t *testing.T, rows, cols int) (*fakeArray, []byte) {
	t.Helper()
	const offset = 3 // elements before the view
	dtype := npyKindDType(t, "f8")
	storage := make([]byte, (offset+rows*cols)*8)
	expected := make([]byte, 0, rows*cols*8)
	for i := range rows {
		for j := range cols {
			value := math.Float64bits(float64(i*cols + j))
			binary.NativeEndian.PutUint64(storage[(offset+j*rows+i)*8:], value)
			expected = binary.NativeEndian.AppendUint64(expected, value)
		}
	}
	return &fakeArray{dtype: dtype, shape: []uintptr{uintptr(rows), uintptr(cols)}, value: storage, export: Tensor{
		Version: CurrentDLPack, Device: CPU, DType: dtype, ByteOffset: offset * 8,
		Shape: []int64{int64(rows), int64(cols)}, Strides: []int64{1, int64(rows)},
	}}, expected
}

func TestWriteNpyArrayFollowsStrides(t *testing.T) {
	// The large one spans several buffer chunks, with elements on both sides of each border.
	for _, size := range [][2]int{{2, 3}, {1, 5}, {5, 1}, {1001, 397}} {
		source, expected := stridedSource(t, size[0], size[1])
		data := writeNpyBytes(t, source)
		assert.Equal(t, expected, data[len(data)-len(expected):], "%v", size)
		assert.Equal(t, 1, source.exports)
		assert.Equal(t, 1, source.releases)
	}
}

func TestWriteNpyArrayMergesContiguousAxes(t *testing.T) {
	// A (3, 4, 5) slice of a (3, 8, 5) array: rows of 20 contiguous elements, 40 apart.
	dtype := npyKindDType(t, "i4")
	storage := make([]byte, 3*8*5*4)
	var expected []byte
	for i := range 3 * 8 * 5 {
		binary.NativeEndian.PutUint32(storage[i*4:], uint32(i))
		if (i/5)%8 < 4 {
			expected = binary.NativeEndian.AppendUint32(expected, uint32(i))
		}
	}
	export := Tensor{Version: CurrentDLPack, Device: CPU, DType: dtype, Shape: []int64{3, 4, 5}, Strides: []int64{40, 5, 1}}
	tensor := export
	walk := newStridedWalk(&tensor, nil)
	assert.Equal(t, 20*4, walk.run)
	assert.Equal(t, []int64{3}, walk.shape)

	data := writeNpyBytes(t, &fakeArray{dtype: dtype, value: storage, export: export})
	assert.Equal(t, expected, data[len(data)-len(expected):])
}

// stridedDestination is a create callback making fakeArrays whose exports are column-major.
type stridedDestination struct {
	made *fakeArray
}

func (s *stridedDestination) create(shape []uintptr, dtype DType) (Array, error) {
	rows, cols := int64(shape[0]), int64(shape[1])
	s.made = &fakeArray{dtype: dtype, shape: shape, value: make([]byte, rows*cols*int64(dtype.ElementSize())),
		export: Tensor{Version: CurrentDLPack, Device: CPU, DType: dtype, Shape: []int64{rows, cols}, Strides: []int64{1, rows}}}
	return s.made, nil
}

func TestReadNpyArrayFollowsStrides(t *testing.T) {
	for _, size := range [][2]int{{2, 3}, {1001, 397}} {
		source, rowMajor := stridedSource(t, size[0], size[1])
		data := writeNpyBytes(t, source)
		destination := &stridedDestination{}
		_, _, err := readNpyBytes(data, destination.create)
		require.NoError(t, err)
		assert.Equal(t, source.value[3*8:], destination.made.value, "%v", size)
		assert.Equal(t, 1, destination.made.releases)

		// Byte-swapped data into strided memory.
		destination = &stridedDestination{}
		_, _, err = readNpyBytes(swappedNpy(t, "f8", []uintptr{uintptr(size[0]), uintptr(size[1])}, rowMajor), destination.create)
		require.NoError(t, err)
		assert.Equal(t, source.value[3*8:], destination.made.value, "%v", size)
	}
}

func TestReadNpyArrayErrorsBeforeCreate(t *testing.T) {
	f8 := func(dictionary string) []byte { return npyFile(1, dictionary+"\n", make([]byte, 48)) }
	type refusal struct {
		data    []byte
		status  Status
		message string
	}
	cases := []refusal{
		{[]byte("\x93NUMPZ\x01\x00"), SerializationError, "start does not match magic string"},
		{f8("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3)}"), SerializationError,
			"data can not be loaded from fortran-order arrays"},
		{f8("{'descr': [('a', '<f8')], 'fortran_order': True, 'shape': (2, 3)}"), SerializationError,
			"data can not be loaded from fortran-order arrays"},
		{f8("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2, 3)}"), SerializationError,
			"structured arrays are not supported"},
	}
	// Type descriptors refused, by reason (the message ends with the descriptor).
	for _, reason := range [][]string{
		{"endianness '|' (not applicable) is not supported in type descriptor: ", "|f8", "|u1"},
		{"invalid type descriptor: ", "f8"},
		{"unknown endianness in type descriptor: ", "!f8"},
		{"invalid size in type descriptor: ", "<fx", "<f256"},
		{"unsupported type descriptor: ", "<f3"},
	} {
		for _, descr := range reason[1:] {
			data := f8("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (2, 3)}")
			cases = append(cases, refusal{data, SerializationError, reason[0] + descr})
		}
	}
	cases = append(cases, refusal{f8("{'descr': '<U8', 'fortran_order': False, 'shape': (0, 3)}"),
		SerializationError, "unsupported type descriptor: <U8"})
	// Declared shapes larger than the entry: truncated data, found before allocating.
	for _, dictionary := range []string{
		"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 4)}",
		"{'descr': '<c16', 'fortran_order': False, 'shape': (1000000, 1000000)}",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (18446744073709551615, 18446744073709551615, 2)}",
	} {
		cases = append(cases, refusal{f8(dictionary), IOError, "failed to fill whole buffer"})
	}
	for _, c := range cases {
		counter := &npyCreateCounter{}
		_, _, err := readNpyBytes(c.data, counter.create)
		requireCoreError(t, err, c.status, c.message)
		assert.Zero(t, counter.calls, c.message)
	}

	// A tiny entry that declares 1e12 elements fails without calling create.
	counter := &npyCreateCounter{}
	data := npyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,)}\n", make([]byte, 8))
	_, _, err := readNpyArray(bytes.NewReader(data), int64(len(data)), counter.create)
	requireCoreError(t, err, IOError, "failed to fill whole buffer")
	assert.Zero(t, counter.calls)
}

func TestReadNpyArrayVersions(t *testing.T) {
	values := npyTestValues("i2", 3)
	for _, major := range []byte{1, 2, 3} {
		counter := &npyCreateCounter{}
		array, shape, err := readNpyBytes(npyFile(major, "{'descr': '<i2', 'fortran_order': False, 'shape': (3,)}\n", values), counter.create)
		require.NoError(t, err)
		assert.Equal(t, []uintptr{3}, shape)
		assert.Equal(t, values, hostBytes(t, array))
		array.Destroy()
	}
}

func TestReadNpyArrayDestroysOnLaterErrors(t *testing.T) {
	header := npyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}\n", nil)
	empty := npyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3)}\n", nil)
	for _, c := range []struct {
		data    []byte
		size    int64 // what the caller says the entry holds; len(data) when 0
		status  Status
		message string
	}{
		{append(bytes.Clone(header), make([]byte, 50)...), 0, SerializationError,
			"found 2 extra bytes after the expected end of data"},
		{append(bytes.Clone(empty), "xyz"...), 0, SerializationError,
			"found 3 extra bytes after the expected end of data"},
		// The entry is shorter than its declared size.
		{append(bytes.Clone(header), make([]byte, 47)...), int64(len(header) + 48), IOError, "failed to fill whole buffer"},
	} {
		size := c.size
		if size == 0 {
			size = int64(len(c.data))
		}
		counter := &npyCreateCounter{}
		_, _, err := readNpyArray(bytes.NewReader(c.data), size, counter.create)
		requireCoreError(t, err, c.status, c.message)
		require.Equal(t, 1, counter.calls)
		probe := counter.created[0]
		assert.Equal(t, 1, probe.destroys, c.message)
		assert.Equal(t, probe.exports, probe.releases, c.message)
	}
}

func TestReadNpyArrayReaderFailures(t *testing.T) {
	data := npyFile(1, "{'descr': '<i1', 'fortran_order': False, 'shape': (2,)}\n", []byte{1, 2})
	for _, cut := range []int{3, len(data) - 1, len(data)} {
		counter := &npyCreateCounter{}
		r := io.MultiReader(bytes.NewReader(data[:cut]), iotest.ErrReader(errors.New("connection reset")))
		_, _, err := readNpyArray(r, int64(len(data)), counter.create)
		requireCoreError(t, err, IOError, "connection reset")
		for _, probe := range counter.created {
			assert.Equal(t, 1, probe.destroys)
		}
	}
}

func TestReadNpyArrayChecksTheCreatedArray(t *testing.T) {
	data := npyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}\n", make([]byte, 48))
	dtype := npyKindDType(t, "f8")
	fresh := func() *fakeArray {
		return &fakeArray{dtype: dtype, value: make([]byte, 48), export: Tensor{
			Version: CurrentDLPack, Device: CPU, DType: dtype, Shape: []int64{2, 3}}}
	}
	const context = "invalid array from create_array: "
	for _, c := range []struct {
		change  func(*fakeArray)
		status  Status
		message string
	}{
		{func(f *fakeArray) { f.export.Device = Device{Type: DeviceCUDA} }, InvalidParameterError,
			context + "its DLPack export is on CUDA:0, expected CPU"},
		{func(f *fakeArray) { f.export.Flags = FlagReadOnly }, InvalidParameterError,
			context + "its DLPack export is read-only"},
		{func(f *fakeArray) { f.export.DType = Float64; f.export.DType.Bits = 32 }, InvalidParameterError,
			context + "its DLPack export has dtype f32, expected f64"},
		{func(f *fakeArray) { f.export.Shape = []int64{3, 2} }, InvalidParameterError,
			context + "its DLPack export has shape [3, 2], expected [2, 3]"},
		{func(f *fakeArray) { f.export.Strides = []int64{1} }, InvalidParameterError,
			"invalid array from create_array: the tensor has 1 strides for 2 dimensions"},
		{func(f *fakeArray) { f.value = nil }, InvalidParameterError,
			"invalid array from create_array: the tensor has 6 elements but a NULL data pointer"},
		{func(f *fakeArray) { f.noTensor = true }, InvalidParameterError,
			context + "AsDLPack gave no tensor"},
		{func(f *fakeArray) { f.setError("as_dlpack", Errorf(CallbackError, "no export")) }, CallbackError, "no export"},
	} {
		array := fresh()
		c.change(array)
		_, _, err := readNpyBytes(data, func([]uintptr, DType) (Array, error) { return array, nil })
		requireCoreError(t, err, c.status, c.message)
		assert.Equal(t, 1, array.destroys, c.message)
		assert.Equal(t, array.exports, array.releases, c.message)
	}

	// Failures of create itself pass through; nothing was made, so nothing is destroyed.
	_, _, err := readNpyBytes(data, func([]uintptr, DType) (Array, error) {
		return nil, Errorf(CallbackError, "out of memory")
	})
	requireCoreError(t, err, CallbackError, "out of memory")
	_, _, err = readNpyBytes(data, func([]uintptr, DType) (Array, error) { return nil, nil })
	requireCoreError(t, err, InvalidParameterError, "create_array gave no array")
}

// failingWriter accepts limit bytes, then fails with err.
type failingWriter struct {
	limit int
	err   error
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		return 0, w.err
	}
	w.limit -= len(p)
	return len(p), nil
}

func TestWriteNpyArrayErrors(t *testing.T) {
	dtype := npyKindDType(t, "f8")
	fresh := func() *fakeArray {
		return &fakeArray{dtype: dtype, value: make([]byte, 48), export: Tensor{
			Version: CurrentDLPack, Device: CPU, DType: dtype, Shape: []int64{2, 3}}}
	}
	for _, c := range []struct {
		change  func(*fakeArray)
		status  Status
		message string
	}{
		{func(f *fakeArray) { f.export.DType = DType{Code: CodeBfloat, Bits: 16, Lanes: 1} }, SerializationError,
			"unsupported DLPack dtype: code kDLBfloat, bits 16"},
		{func(f *fakeArray) { f.export.DType = DType{Code: CodeFloat8e4m3fn, Bits: 8, Lanes: 1} }, SerializationError,
			"unsupported DLPack dtype: code kDLFloat8_e4m3fn, bits 8"},
		{func(f *fakeArray) { f.export.DType = DType{Code: CodeBool, Bits: 16, Lanes: 1} }, SerializationError,
			"unsupported DLPack dtype: code kDLBool, bits 16"},
		{func(f *fakeArray) { f.export.DType.Lanes = 4 }, SerializationError, "unsupported DLPack dtype: lanes != 1 (4)"},
		{func(f *fakeArray) { f.export.Device = Device{Type: DeviceCUDA, ID: 1} }, InvalidParameterError,
			"invalid array to save: its DLPack export is on CUDA:1, expected CPU"},
		{func(f *fakeArray) { f.export.Shape = []int64{-1, 3} }, InvalidParameterError,
			"invalid DLPack export of an array: invalid tensor shape [-1, 3]"},
		{func(f *fakeArray) { f.noTensor = true }, InvalidParameterError, "invalid array to save: AsDLPack gave no tensor"},
		{func(f *fakeArray) { f.setError("as_dlpack", Errorf(CallbackError, "no export")) }, CallbackError, "no export"},
	} {
		array := fresh()
		c.change(array)
		var out bytes.Buffer
		requireCoreError(t, writeNpyArray(&out, array), c.status, c.message)
		assert.Zero(t, out.Len(), "nothing written for %s", c.message)
		assert.Equal(t, array.exports, array.releases, c.message)
	}

	// Failures of the writer, on the header or on the data.
	for _, limit := range []int{0, 128} {
		for _, source := range []Array{fresh(), func() Array { s, _ := stridedSource(t, 2, 3); return s }()} {
			err := writeNpyArray(&failingWriter{limit: limit, err: fmt.Errorf("disk full")}, source)
			requireCoreError(t, err, IOError, "disk full")
			err = writeNpyArray(&failingWriter{limit: limit, err: Errorf(IOError, "failed to allocate memory with the realloc callback")}, source)
			requireCoreError(t, err, IOError, "failed to allocate memory with the realloc callback")
			f := source.(*fakeArray)
			assert.Equal(t, f.exports, f.releases)
		}
	}
}

func TestWriteNpyArrayOfNoElementsIsTheHeader(t *testing.T) {
	dtype := npyKindDType(t, "c8")
	// No data pointer is needed without elements.
	source := &fakeArray{dtype: dtype, export: Tensor{Version: CurrentDLPack, Device: CPU, DType: dtype, Shape: []int64{4, 0, 2}}}
	data := writeNpyBytes(t, source)
	descr, err := npyDescr(dtype)
	require.NoError(t, err)
	header := npyHeader{descr: descr, shape: []uintptr{4, 0, 2}}
	encoded, err := header.encode()
	require.NoError(t, err)
	assert.Equal(t, encoded, data)
	assert.Equal(t, 1, source.releases)
}

func TestNpyDescrTable(t *testing.T) {
	for _, kind := range npyFixtureKinds {
		dtype := npyKindDType(t, kind)
		descr, err := npyDescr(dtype)
		require.NoError(t, err)
		assert.Equal(t, npyHostOrder()+kind, descr)
		for _, order := range []string{"<", ">", "="} {
			parsed, swap, err := parseNpyDescr(order + kind)
			require.NoError(t, err)
			assert.Equal(t, dtype, parsed)
			assert.Equal(t, order != "=" && order != npyHostOrder(), swap)
		}
	}
	// Sizes are read as numbers, as the reference does.
	for _, descr := range []string{"<f08", "<f+8", "<f0008"} {
		dtype, _, err := parseNpyDescr(descr)
		require.NoError(t, err, descr)
		assert.Equal(t, Float64, dtype)
	}
	for _, descr := range []string{"<f++8", "<f-8", "<f 8", "<f"} {
		_, _, err := parseNpyDescr(descr)
		require.Error(t, err, descr)
	}
}

// BenchmarkNpyArray reads and writes 256 MiB of float64, next to a plain copy of as many
// bytes: the row-major paths should stay within a small factor of it.
func BenchmarkNpyArray(b *testing.B) {
	const n = 32 << 20
	shape := []uintptr{n / 64, 64}
	values := make([]float64, n)
	for i := range values {
		values[i] = float64(i)
	}
	source, err := HostArrayFromValues(shape, values)
	require.NoError(b, err)
	var file bytes.Buffer
	require.NoError(b, writeNpyArray(&file, source))
	data := file.Bytes()
	b.SetBytes(n * 8)

	b.Run("memcpy", func(b *testing.B) {
		destination := make([]byte, n*8)
		for b.Loop() {
			copy(destination, source.Bytes())
		}
	})
	b.Run("write", func(b *testing.B) {
		out := bytes.NewBuffer(make([]byte, 0, len(data)))
		for b.Loop() {
			out.Reset()
			if err := writeNpyArray(out, source); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			array, _, err := readNpyArray(bytes.NewReader(data), int64(len(data)), func(shape []uintptr, dtype DType) (Array, error) {
				return NewHostArray(dtype, shape)
			})
			if err != nil {
				b.Fatal(err)
			}
			array.Destroy()
		}
	})
}
