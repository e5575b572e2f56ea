package core

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A naive model of row-major arrays: elements addressed by a full multi-index, one at a time.

func modelOffset(shape, index []uintptr) int {
	offset := 0
	for axis, i := range index {
		offset = offset*int(shape[axis]) + int(i)
	}
	return offset
}

// modelIndices lists every multi-index of shape in row-major order.
func modelIndices(shape []uintptr) [][]uintptr {
	all := [][]uintptr{{}}
	for _, d := range shape {
		var next [][]uintptr
		for _, prefix := range all {
			for i := range d {
				next = append(next, append(slices.Clone(prefix), i))
			}
		}
		all = next
	}
	return all
}

func modelSwapAxes(data []byte, size int, shape []uintptr, axis1, axis2 int) ([]byte, []uintptr) {
	swappedShape := slices.Clone(shape)
	swappedShape[axis1], swappedShape[axis2] = shape[axis2], shape[axis1]
	out := make([]byte, len(data))
	for _, index := range modelIndices(swappedShape) {
		from := slices.Clone(index)
		from[axis1], from[axis2] = index[axis2], index[axis1]
		to := modelOffset(swappedShape, index) * size
		at := modelOffset(shape, from) * size
		copy(out[to:to+size], data[at:at+size])
	}
	return out, swappedShape
}

func modelMoveData(out []byte, outShape []uintptr, in []byte, inShape []uintptr, size int, movements []DataMovement) []byte {
	out = slices.Clone(out)
	last := len(outShape) - 1
	for _, m := range movements {
		for _, components := range modelIndices(outShape[1:last]) {
			for x := range m.PropertiesLength {
				from := append(append([]uintptr{m.SampleIn}, components...), m.PropertiesStartIn+x)
				to := append(append([]uintptr{m.SampleOut}, components...), m.PropertiesStartOut+x)
				f, o := modelOffset(inShape, from)*size, modelOffset(outShape, to)*size
				copy(out[o:o+size], in[f:f+size])
			}
		}
	}
	return out
}

func randomShape(rng *rand.Rand, ndim int) []uintptr {
	shape := make([]uintptr, ndim)
	for i := range shape {
		shape[i] = uintptr(rng.IntN(4)) // zeros included
	}
	return shape
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// forDTypes runs body iterations times with a generator seeded with seed,
// cycling through dtypes (size is the dtype's element size).
func forDTypes(seed uint64, iterations int, dtypes []DType, body func(rng *rand.Rand, dtype DType, size int)) {
	rng := newTestRand(seed)
	for iteration := range iterations {
		dtype := dtypes[iteration%len(dtypes)]
		body(rng, dtype, dtype.ElementSize())
	}
}

func TestHostArraySwapAxesAgainstModel(t *testing.T) {
	forDTypes(11, 400, []DType{{CodeUInt, 8, 1}, {CodeInt, 16, 1}, {CodeFloat, 32, 1}, Float64, {CodeComplex, 128, 1}}, func(rng *rand.Rand, dtype DType, size int) {
		shape := randomShape(rng, 1+rng.IntN(5))
		n, _ := shapeElements(shape, size)
		data := randomBytes(rng, n*size)
		a := mustHostArray(t, dtype, shape, slices.Clone(data))
		axis1, axis2 := rng.IntN(len(shape)), rng.IntN(len(shape))

		expected, expectedShape := modelSwapAxes(data, size, shape, axis1, axis2)
		require.NoError(t, a.SwapAxes(uintptr(axis1), uintptr(axis2)))
		got, err := a.Shape()
		require.NoError(t, err)
		require.Equal(t, expectedShape, got, "shape %v axes %d %d", shape, axis1, axis2)
		require.Equal(t, expected, a.Bytes(), "shape %v axes %d %d", shape, axis1, axis2)
	})
}

func TestHostArraySwapAxesKeepsTheMemory(t *testing.T) {
	a := int64Array(t, []uintptr{2, 3}, 1, 2, 3, 4, 5, 6)
	tensor, err := a.AsDLPack(CPU, nil, CurrentDLPack)
	require.NoError(t, err)
	defer tensor.Release()
	require.NoError(t, a.SwapAxes(1, 0))
	assert.Equal(t, []int64{1, 4, 2, 5, 3, 6}, hostInt64s(t, a))
	assert.Equal(t, unsafe.Pointer(&a.Bytes()[0]), tensor.Data)
	assert.Equal(t, int64(4), *(*int64)(unsafe.Add(tensor.Data, 8)), "exports see the new layout")

	require.NoError(t, a.SwapAxes(1, 1))
	assert.Equal(t, []int64{1, 4, 2, 5, 3, 6}, hostInt64s(t, a))
}

func TestHostArraySwapAxesErrors(t *testing.T) {
	a := int64Array(t, []uintptr{2, 1}, 1, 2)
	assert.Equal(t, "invalid `axis_1` 2 for HostArray.SwapAxes: the array has 2 dimensions", errorMessage(t, a.SwapAxes(2, 0)))
	assert.Equal(t, "invalid `axis_2` 7 for HostArray.SwapAxes: the array has 2 dimensions", errorMessage(t, a.SwapAxes(1, 7)))
	assert.Contains(t, errorMessage(t, a.SwapAxes(^uintptr(0), 0)), "invalid `axis_1` 18446744073709551615")
	scalar := mustHostArray(t, Float64, nil, make([]byte, 8))
	assert.Equal(t, "invalid `axis_1` 0 for HostArray.SwapAxes: the array has 0 dimensions", errorMessage(t, scalar.SwapAxes(0, 0)))
	assert.Equal(t, []int64{1, 2}, hostInt64s(t, a), "unchanged")
}

func TestHostArrayReshape(t *testing.T) {
	a := int64Array(t, []uintptr{2, 3}, 1, 2, 3, 4, 5, 6)
	for _, shape := range [][]uintptr{{6}, {3, 1, 2}, {1, 6, 1}, {6, 1}} {
		require.NoError(t, a.Reshape(shape))
		got, err := a.Shape()
		require.NoError(t, err)
		assert.Equal(t, shape, got)
		assert.Equal(t, []int64{1, 2, 3, 4, 5, 6}, hostInt64s(t, a), "row-major order kept")
	}
	input := []uintptr{2, 3}
	require.NoError(t, a.Reshape(input))
	input[0] = 1
	got, err := a.Shape()
	require.NoError(t, err)
	assert.Equal(t, []uintptr{2, 3}, got, "the shape is copied")

	assert.Equal(t, "invalid `shape` [4, 2] for HostArray.Reshape: the array has shape [2, 3] (6 elements)",
		errorMessage(t, a.Reshape([]uintptr{4, 2})))
	assert.Equal(t, "invalid `shape` [] for HostArray.Reshape: the array has shape [2, 3] (6 elements)",
		errorMessage(t, a.Reshape(nil)))
	assert.Contains(t, errorMessage(t, a.Reshape([]uintptr{1 << 62, 1 << 62, 6})), "invalid `shape` [4611686018427387904")

	scalar := mustHostArray(t, Float64, nil, make([]byte, 8))
	require.NoError(t, scalar.Reshape([]uintptr{1, 1}))
	require.NoError(t, scalar.Reshape(nil))
	empty, err := NewHostArray(Float64, []uintptr{0, 3})
	require.NoError(t, err)
	require.NoError(t, empty.Reshape([]uintptr{5, 0, 2}))
	assert.Error(t, empty.Reshape([]uintptr{1}))
}

func TestHostArrayMoveDataAgainstModel(t *testing.T) {
	forDTypes(12, 300, []DType{{CodeBool, 8, 1}, {CodeUInt, 16, 1}, {CodeInt, 32, 1}, Float64, {CodeComplex, 128, 1}}, func(rng *rand.Rand, dtype DType, size int) {
		components := randomShape(rng, rng.IntN(3))
		inShape := append(append([]uintptr{uintptr(1 + rng.IntN(4))}, components...), uintptr(1+rng.IntN(5)))
		outShape := append(append([]uintptr{uintptr(1 + rng.IntN(4))}, components...), uintptr(1+rng.IntN(5)))
		nIn, _ := shapeElements(inShape, size)
		nOut, _ := shapeElements(outShape, size)
		inData, outData := randomBytes(rng, nIn*size), randomBytes(rng, nOut*size)

		movements := make([]DataMovement, rng.IntN(6))
		last := len(inShape) - 1
		for i := range movements {
			length := uintptr(rng.IntN(int(min(inShape[last], outShape[last])) + 1))
			movements[i] = DataMovement{
				SampleIn:           uintptr(rng.IntN(int(inShape[0]))),
				SampleOut:          uintptr(rng.IntN(int(outShape[0]))),
				PropertiesStartIn:  uintptr(rng.IntN(int(inShape[last]-length) + 1)),
				PropertiesStartOut: uintptr(rng.IntN(int(outShape[last]-length) + 1)),
				PropertiesLength:   length,
			}
		}

		in := mustHostArray(t, dtype, inShape, slices.Clone(inData))
		out := mustHostArray(t, dtype, outShape, slices.Clone(outData))
		require.NoError(t, out.MoveData(in, movements))
		expected := modelMoveData(outData, outShape, inData, inShape, size, movements)
		require.Equal(t, expected, out.Bytes(), "in %v out %v moves %v", inShape, outShape, movements)
		require.Equal(t, inData, in.Bytes(), "the input is not modified")
	})
}

func TestHostArrayMoveDataWithinOneArray(t *testing.T) {
	a := int64Array(t, []uintptr{2, 3}, 1, 2, 3, 4, 5, 6)
	moves := []DataMovement{{SampleIn: 0, SampleOut: 0, PropertiesStartIn: 0, PropertiesStartOut: 1, PropertiesLength: 2}}
	require.NoError(t, a.MoveData(a, moves))
	assert.Equal(t, []int64{1, 1, 2, 4, 5, 6}, hostInt64s(t, a), "overlapping ranges copy as memmove")
}

func TestHostArrayMoveDataErrors(t *testing.T) {
	out := int64Array(t, []uintptr{2, 1, 3}, 1, 2, 3, 4, 5, 6)
	in := int64Array(t, []uintptr{1, 1, 2}, 7, 8)
	check := func(input Array, moves []DataMovement, message string) {
		t.Helper()
		assert.Equal(t, message, errorMessage(t, out.MoveData(input, moves)))
		assert.Equal(t, []int64{1, 2, 3, 4, 5, 6}, hostInt64s(t, out), "the output is unchanged")
	}

	good := DataMovement{SampleIn: 0, SampleOut: 1, PropertiesStartIn: 0, PropertiesStartOut: 1, PropertiesLength: 2}
	check(NewReadOnlyLabelsValues([]int32{1}, 1, 1), nil, "invalid `input` for HostArray.MoveData: expected a HostArray, got *core.LabelsArray")
	check(nil, nil, "invalid `input` for HostArray.MoveData: expected a HostArray, got <nil>")
	check((*HostArray)(nil), nil, "invalid `input` for HostArray.MoveData: it is nil")
	check(mustHostArray(t, Float64, []uintptr{1, 1, 2}, make([]byte, 16)), nil,
		"invalid `input` for HostArray.MoveData: its dtype is f64, but the output dtype is i64")
	check(int64Array(t, []uintptr{1, 2, 2}, 1, 2, 3, 4), nil,
		"invalid `input` for HostArray.MoveData: its shape [1, 2, 2] does not match the output shape [2, 1, 3] outside of the first and last axes")
	check(int64Array(t, []uintptr{1, 2}, 1, 2), nil,
		"invalid `input` for HostArray.MoveData: its shape [1, 2] does not match the output shape [2, 1, 3] outside of the first and last axes")

	bad := func(edit func(*DataMovement)) []DataMovement {
		m := good
		edit(&m)
		return []DataMovement{good, m} // the first, valid, movement is not applied either
	}
	check(in, bad(func(m *DataMovement) { m.SampleIn = 1 }),
		"invalid `movements[1]` for HostArray.MoveData: sample_in 1 is out of bounds for an input with 1 samples")
	check(in, bad(func(m *DataMovement) { m.SampleOut = 2 }),
		"invalid `movements[1]` for HostArray.MoveData: sample_out 2 is out of bounds for an output with 2 samples")
	check(in, bad(func(m *DataMovement) { m.PropertiesStartIn = 1 }),
		"invalid `movements[1]` for HostArray.MoveData: 2 properties from 1 are out of bounds for an input with 2 properties")
	check(in, bad(func(m *DataMovement) { m.PropertiesStartIn = 3; m.PropertiesLength = 0 }),
		"invalid `movements[1]` for HostArray.MoveData: 0 properties from 3 are out of bounds for an input with 2 properties")
	check(in, bad(func(m *DataMovement) { m.PropertiesStartOut = 2 }),
		"invalid `movements[1]` for HostArray.MoveData: 2 properties from 2 are out of bounds for an output with 3 properties")
	check(in, bad(func(m *DataMovement) { m.PropertiesStartIn = ^uintptr(0); m.PropertiesLength = 2 }),
		"invalid `movements[1]` for HostArray.MoveData: 2 properties from 18446744073709551615 are out of bounds for an input with 2 properties")
	check(in, bad(func(m *DataMovement) { m.PropertiesStartOut = 1; m.PropertiesLength = ^uintptr(0) }),
		"invalid `movements[1]` for HostArray.MoveData: 18446744073709551615 properties from 0 are out of bounds for an input with 2 properties")

	destroyed := int64Array(t, []uintptr{1, 1, 2}, 1, 2)
	destroyed.Destroy()
	check(destroyed, nil, "invalid `input` for HostArray.MoveData: HostArray.MoveData called after Destroy")
	check(&HostArray{}, nil, "invalid `input` for HostArray.MoveData: "+
		"HostArray.MoveData called on an array that was not made by NewHostArray or HostArrayFromBytes")

	flat := int64Array(t, []uintptr{2}, 1, 2)
	assert.Equal(t, "HostArray.MoveData needs arrays with samples and properties axes, the output has shape [2]",
		errorMessage(t, flat.MoveData(flat, nil)))

	// Zero movements, and zero-length ones at the end of the axis, are fine.
	require.NoError(t, out.MoveData(in, nil))
	require.NoError(t, out.MoveData(in, []DataMovement{{PropertiesStartIn: 2, PropertiesStartOut: 3}}))
	assert.Equal(t, []int64{1, 2, 3, 4, 5, 6}, hostInt64s(t, out))
	require.NoError(t, out.MoveData(in, []DataMovement{good}))
	assert.Equal(t, []int64{1, 2, 3, 4, 7, 8}, hostInt64s(t, out))
}
