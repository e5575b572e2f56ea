package core

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ktCalls counts what the keys_to_* functions ask of a family of arrays (an array and every
// array made from it), and can make one Create or MoveData call fail.
type ktCalls struct {
	creates, moves, destroys, shapes, devices, dtypes, fromDLPack int
	doubleDestroys                                                int
	live                                                          map[*ktArray]bool // made by Create or FromDLPack, not destroyed
	movements                                                     [][]DataMovement  // of every MoveData call

	failCreate, failMove, failFromDLPack int // the call (1 for the first) that fails; 0 for none
}

var errKtCallback = Errorf(CallbackError, "calling mts_array_t.move_data failed: planned failure")

// ktArray is a host array that counts its calls in a ktCalls, and may pretend to live on
// another device.
type ktArray struct {
	*HostArray
	calls     *ktCalls
	device    Device
	destroyed bool
}

func newKtCalls() *ktCalls { return &ktCalls{live: map[*ktArray]bool{}} }

func (c *ktCalls) wrap(host *HostArray) *ktArray {
	return &ktArray{HostArray: host, calls: c, device: CPU}
}

func (a *ktArray) Shape() ([]uintptr, error) {
	a.calls.shapes++
	return a.HostArray.Shape()
}

func (a *ktArray) Device() (Device, error) {
	a.calls.devices++
	return a.device, nil
}

func (a *ktArray) DType() (DType, error) {
	a.calls.dtypes++
	return a.HostArray.DType()
}

func (a *ktArray) FromDLPack(tensor *Tensor) (Array, error) {
	a.calls.fromDLPack++
	if a.calls.fromDLPack == a.calls.failFromDLPack {
		tensor.Release() // the callback owns the tensor, even when it fails
		return nil, Errorf(CallbackError, "calling mts_array_t.from_dlpack failed: planned failure")
	}
	created, err := a.HostArray.FromDLPack(tensor)
	if err != nil {
		return nil, err
	}
	out := a.calls.wrap(created.(*HostArray))
	a.calls.live[out] = true
	return out, nil
}

func (a *ktArray) Copy(device Device) (Array, error) {
	copied, err := a.HostArray.Copy(CPU)
	if err != nil {
		return nil, err
	}
	out := a.calls.wrap(copied.(*HostArray))
	out.device = device
	return out, nil
}

func (a *ktArray) Create(shape []uintptr, fill Array) (Array, error) {
	a.calls.creates++
	if a.calls.creates == a.calls.failCreate {
		return nil, Errorf(CallbackError, "calling mts_array_t.create failed: planned failure")
	}
	created, err := a.HostArray.Create(shape, fill)
	if err != nil {
		return nil, err
	}
	out := a.calls.wrap(created.(*HostArray))
	a.calls.live[out] = true
	return out, nil
}

func (a *ktArray) MoveData(input Array, movements []DataMovement) error {
	a.calls.moves++
	a.calls.movements = append(a.calls.movements, append([]DataMovement{}, movements...))
	if a.calls.moves == a.calls.failMove {
		return errKtCallback
	}
	if wrapped, ok := input.(*ktArray); ok {
		input = wrapped.HostArray
	}
	return a.HostArray.MoveData(input, movements)
}

func (a *ktArray) Destroy() {
	a.calls.destroys++
	if a.destroyed {
		a.calls.doubleDestroys++
		return
	}
	a.destroyed = true
	delete(a.calls.live, a)
	a.HostArray.Destroy()
}

// ktFill makes a scalar f64 fill value with its own counters.
func ktFill(t *testing.T, value float64) (*ktArray, *ktCalls) {
	t.Helper()
	host, err := HostArrayFromValues([]uintptr{}, []float64{value})
	require.NoError(t, err)
	calls := newKtCalls()
	return calls.wrap(host), calls
}

// ktBlock makes a block whose values (shape given by the labels) all equal value, in an
// array counted by calls; the block holds the only references to the labels.
func ktBlock(t *testing.T, calls *ktCalls, value float64, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels) *Block {
	t.Helper()
	shape := labelsShape(samples, components, properties)
	n := 1
	for _, d := range shape {
		n *= int(d)
	}
	data := make([]float64, n)
	for i := range data {
		data[i] = value
	}
	return blockOwningLabels(t, calls.wrap(f64Array(t, shape, data)), samples, components, properties)
}

// ktTwoBlocksKeyed makes two blocks of one sample "s" and one property "p", with the keys
// (first, k) = (0, 0), (1, 0).
func ktTwoBlocksKeyed(t *testing.T, calls *ktCalls, first string) *TensorMap {
	t.Helper()
	blocks := make([]*Block, 2)
	for b := range blocks {
		blocks[b] = ktBlock(t, calls, 1, rangeLabels(t, "s", 1), nil, rangeLabels(t, "p", 1))
	}
	keys := rowsLabels(t, []string{first, "k"}, []int32{0, 0}, []int32{1, 0})
	tensor, err := NewTensorMap(keys, blocks)
	require.NoError(t, err)
	keys.Release()
	return tensor
}

func ktAddGradient(t *testing.T, block *Block, parameter string, gradient *Block) {
	t.Helper()
	require.NoError(t, block.AddGradient(parameter, gradient))
}

// ktFixture is the tensor map of the reference's C++ tests (test_tensor_map in tensor.cpp).
func ktFixture(t *testing.T, calls *ktCalls) *TensorMap {
	t.Helper()
	return ktFixtureWith(t, calls, nil)
}

// wrappedLabels makes checked labels of rows whose values are an int32 host
// array given to wrap.
func wrappedLabels(t testing.TB, names []string, rows [][]int32, wrap func(*HostArray) Array) *ArrayLabels {
	t.Helper()
	values := make([]int32, 0, len(rows)*len(names))
	for _, row := range rows {
		values = append(values, row...)
	}
	host, err := HostArrayFromValues([]uintptr{uintptr(len(rows)), uintptr(len(names))}, values)
	require.NoError(t, err)
	labels, err := NewArrayLabels(names, wrap(host), true)
	require.NoError(t, err)
	return labels
}

// ktLabels makes checked labels whose values live in an array counted by calls.
func ktLabels(t *testing.T, calls *ktCalls, names []string, rows ...[]int32) *ArrayLabels {
	t.Helper()
	return wrappedLabels(t, names, rows, func(host *HostArray) Array { return calls.wrap(host) })
}

// ktFixtureWith is ktFixture, with every labels in arrays counted by labelCalls unless it is
// nil.
func ktFixtureWith(t *testing.T, calls, labelCalls *ktCalls) *TensorMap {
	t.Helper()
	labels := func(names []string, rows ...[]int32) *ArrayLabels {
		if labelCalls == nil {
			return rowsLabels(t, names, rows...)
		}
		return ktLabels(t, labelCalls, names, rows...)
	}
	column := func(name string, values ...int32) *ArrayLabels {
		rows := make([][]int32, len(values))
		for i, v := range values {
			rows[i] = []int32{v}
		}
		return labels([]string{name}, rows...)
	}
	component := func(n int) []*ArrayLabels {
		values := make([]int32, n)
		for i := range values {
			values[i] = int32(i)
		}
		return []*ArrayLabels{column("component", values...)}
	}
	props := func(values ...int32) *ArrayLabels { return column("properties", values...) }
	samples := func(values ...int32) *ArrayLabels { return column("samples", values...) }
	gradientSamples := func(rows ...[]int32) *ArrayLabels {
		return labels([]string{"sample", "parameter"}, rows...)
	}

	block1 := ktBlock(t, calls, 1, samples(0, 2, 4), component(1), props(0))
	ktAddGradient(t, block1, "parameter",
		ktBlock(t, calls, 11, gradientSamples([]int32{0, -2}, []int32{2, 3}), component(1), props(0)))

	block2 := ktBlock(t, calls, 2, samples(0, 1, 3), component(1), props(3, 4, 5))
	ktAddGradient(t, block2, "parameter",
		ktBlock(t, calls, 12, gradientSamples([]int32{0, -2}, []int32{0, 3}, []int32{2, -2}), component(1), props(3, 4, 5)))

	block3 := ktBlock(t, calls, 3, samples(0, 3, 6, 8), component(3), props(0))
	ktAddGradient(t, block3, "parameter",
		ktBlock(t, calls, 13, gradientSamples([]int32{1, -2}), component(3), props(0)))

	block4 := ktBlock(t, calls, 4, samples(0, 1, 2, 5), component(3), props(0))
	ktAddGradient(t, block4, "parameter",
		ktBlock(t, calls, 14, gradientSamples([]int32{0, 1}, []int32{3, 3}), component(3), props(0)))

	keys := labels([]string{"key_1", "key_2"}, []int32{0, 0}, []int32{1, 0}, []int32{2, 2}, []int32{2, 3})
	tensor, err := NewTensorMap(keys, []*Block{block1, block2, block3, block4})
	require.NoError(t, err)
	keys.Release()
	return tensor
}

// ktNames makes labels with names and no entries: what keys_to_move usually is.
func ktNames(t *testing.T, names ...string) *ArrayLabels {
	t.Helper()
	return rowsLabels(t, names)
}

// ktAssertFloats compares values, NaN equal to NaN.
func ktAssertFloats(t *testing.T, expected, actual []float64, msgAndArgs ...any) {
	t.Helper()
	require.Len(t, actual, len(expected), msgAndArgs...)
	for i := range expected {
		if math.IsNaN(expected[i]) {
			assert.True(t, math.IsNaN(actual[i]), "entry %d: expected NaN, got %v %v", i, actual[i], msgAndArgs)
		} else {
			assert.Equal(t, expected[i], actual[i], "entry %d %v", i, msgAndArgs)
		}
	}
}

// ktValues reads the values of a block made by the keys_to_* functions.
func ktValues(t *testing.T, block *Block) []float64 {
	t.Helper()
	array, ok := block.values.(*ktArray)
	require.True(t, ok, "values are a %T", block.values)
	return f64Values(t, array.HostArray)
}

func ktRepeat(value float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = value
	}
	return out
}

func ktConcat(parts ...[]float64) []float64 {
	var out []float64
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// ktState remembers what must come back after an operation: every labels' references and
// every input array's values.
type ktState struct {
	references map[*ArrayLabels]int64
	values     map[*Block][]float64
}

func ktSnapshot(t *testing.T, tensor *TensorMap) ktState {
	t.Helper()
	state := ktState{references: map[*ArrayLabels]int64{}, values: map[*Block][]float64{}}
	state.references[tensor.keys] = tensor.keys.references.Load()
	var walk func(block *Block)
	walk = func(block *Block) {
		for _, l := range append([]*ArrayLabels{block.samples, block.properties}, block.components...) {
			state.references[l] = l.references.Load()
		}
		state.values[block] = append([]float64(nil), ktValues(t, block)...)
		for _, g := range block.gradients {
			walk(g.Block)
		}
	}
	for _, block := range tensor.blocks {
		walk(block)
	}
	return state
}

func (s ktState) check(t *testing.T) {
	t.Helper()
	for labels, references := range s.references {
		assert.Equal(t, references, labels.references.Load(), "references of %v", labels.Names())
	}
	for block, values := range s.values {
		ktAssertFloats(t, values, ktValues(t, block), "input values changed")
	}
}

// ktMove is KeysToSamples or KeysToProperties.
type ktMove func(t *TensorMap, keysToMove *ArrayLabels, fill Array, sortSamples bool) (*TensorMap, error)

// ktMovedFixture gives the fixture with the info "zeta" and "alpha", its
// snapshot, and the result of move of the dimension name with a NaN fill,
// after checking that the fill was destroyed once (msgAndArgs tells that
// check), the new keys (names and rows) and the info keys.
func ktMovedFixture(t *testing.T, calls *ktCalls, move ktMove, name string, keyNames []string, keyRows [][]int32, msgAndArgs ...any) (*TensorMap, ktState, *TensorMap) {
	t.Helper()
	tensor := ktFixture(t, calls)
	require.NoError(t, tensor.info.Set("zeta", "last"))
	require.NoError(t, tensor.info.Set("alpha", "first"))
	state := ktSnapshot(t, tensor)

	fill, fillCalls := ktFill(t, math.NaN())
	result, err := move(tensor, ktNames(t, name), fill, true)
	require.NoError(t, err)
	assert.Equal(t, 1, fillCalls.destroys, msgAndArgs...)

	assert.Equal(t, keyNames, result.keys.Names())
	assert.Equal(t, keyRows, labelsRows(t, result.keys))
	assert.Equal(t, []string{"alpha", "zeta"}, result.info.Keys())
	return tensor, state, result
}

// ktMovedAgain frees result, checks that every array it created was
// destroyed (msgAndArgs tells that check) and that the input did not change,
// then gives move of name again, with a zero fill and unsorted samples.
func ktMovedAgain(t *testing.T, calls *ktCalls, state ktState, tensor, result *TensorMap, move ktMove, name string, msgAndArgs ...any) *TensorMap {
	t.Helper()
	result.Free()
	assert.Empty(t, calls.live, msgAndArgs...)
	assert.Zero(t, calls.doubleDestroys)
	state.check(t)

	fill, _ := ktFill(t, 0)
	result, err := move(tensor, ktNames(t, name), fill, false)
	require.NoError(t, err)
	return result
}

func TestKeysToSamplesFixture(t *testing.T) {
	calls := newKtCalls()
	tensor, state, result := ktMovedFixture(t, calls, (*TensorMap).KeysToSamples, "key_2", []string{"key_1"}, [][]int32{{0}, {1}, {2}}, "fill destroyed once")
	defer tensor.Free()
	value, _ := result.info.Get("zeta")
	assert.Equal(t, "last", value)

	// The first two blocks only gain the key_2 dimension.
	block := result.blocks[0]
	assert.Equal(t, []string{"samples", "key_2"}, block.samples.Names())
	assert.Equal(t, [][]int32{{0, 0}, {2, 0}, {4, 0}}, labelsRows(t, block.samples))
	ktAssertFloats(t, ktRepeat(1, 3), ktValues(t, block))
	block = result.blocks[1]
	assert.Equal(t, [][]int32{{0, 0}, {1, 0}, {3, 0}}, labelsRows(t, block.samples))
	ktAssertFloats(t, ktRepeat(2, 9), ktValues(t, block))
	shape, err := block.values.Shape()
	require.NoError(t, err)
	assert.Equal(t, []uintptr{3, 1, 3}, shape)

	// The third merges the old third and fourth.
	block = result.blocks[2]
	assert.Equal(t, [][]int32{{0, 2}, {0, 3}, {1, 3}, {2, 3}, {3, 2}, {5, 3}, {6, 2}, {8, 2}}, labelsRows(t, block.samples))
	assert.Equal(t, [][]int32{{0}}, labelsRows(t, block.properties))
	assert.NotSame(t, tensor.blocks[2].properties, block.properties, "a union builds new labels")
	assert.Same(t, tensor.blocks[0].properties, result.blocks[0].properties, "a single block keeps its properties")
	ktAssertFloats(t, ktConcat(ktRepeat(3, 3), ktRepeat(4, 9), ktRepeat(3, 3), ktRepeat(4, 3), ktRepeat(3, 6)), ktValues(t, block))
	gradient := block.gradient("parameter")
	require.NotNil(t, gradient)
	assert.Equal(t, []string{"sample", "parameter"}, gradient.samples.Names())
	assert.Equal(t, [][]int32{{1, 1}, {4, -2}, {5, 3}}, labelsRows(t, gradient.samples))
	ktAssertFloats(t, ktConcat(ktRepeat(14, 3), ktRepeat(13, 3), ktRepeat(14, 3)), ktValues(t, gradient))
	assert.Same(t, block.properties, gradient.properties)
	assert.Same(t, tensor.blocks[2].gradient("parameter").components[0], gradient.components[0])

	// One array per new block and gradient, one move per old block and gradient.
	assert.Equal(t, 6, calls.creates)
	assert.Equal(t, 8, calls.moves)
	assert.Len(t, calls.live, 6)

	// Unsorted samples keep the order in which they were found.
	result = ktMovedAgain(t, calls, state, tensor, result, (*TensorMap).KeysToSamples, "key_2", "every created array destroyed")
	defer result.Free()
	block = result.blocks[2]
	assert.Equal(t, [][]int32{{0, 2}, {3, 2}, {6, 2}, {8, 2}, {0, 3}, {1, 3}, {2, 3}, {5, 3}}, labelsRows(t, block.samples))
	ktAssertFloats(t, ktConcat(ktRepeat(3, 12), ktRepeat(4, 12)), ktValues(t, block))
	// Gradient samples are sorted whatever sort_samples says.
	assert.Equal(t, [][]int32{{1, -2}, {4, 1}, {7, 3}}, labelsRows(t, block.gradient("parameter").samples))
	ktAssertFloats(t, ktConcat(ktRepeat(13, 3), ktRepeat(14, 6)), ktValues(t, block.gradient("parameter")))
}

func TestKeysToPropertiesFixture(t *testing.T) {
	calls := newKtCalls()
	tensor, state, result := ktMovedFixture(t, calls, (*TensorMap).KeysToProperties, "key_1", []string{"key_2"}, [][]int32{{0}, {2}, {3}})
	defer tensor.Free()

	nan := math.NaN()
	block := result.blocks[0]
	assert.Equal(t, [][]int32{{0}, {1}, {2}, {3}, {4}}, labelsRows(t, block.samples))
	require.Len(t, block.components, 1)
	assert.Equal(t, [][]int32{{0}}, labelsRows(t, block.components[0]))
	assert.Equal(t, []string{"key_1", "properties"}, block.properties.Names())
	assert.Equal(t, [][]int32{{0, 0}, {1, 3}, {1, 4}, {1, 5}}, labelsRows(t, block.properties))
	ktAssertFloats(t, []float64{
		1, 2, 2, 2,
		nan, 2, 2, 2,
		1, nan, nan, nan,
		nan, 2, 2, 2,
		1, nan, nan, nan,
	}, ktValues(t, block))

	gradient := block.gradient("parameter")
	require.NotNil(t, gradient)
	assert.Equal(t, [][]int32{{0, -2}, {0, 3}, {3, -2}, {4, 3}}, labelsRows(t, gradient.samples))
	ktAssertFloats(t, []float64{
		11, 12, 12, 12,
		nan, 12, 12, 12,
		nan, 12, 12, 12,
		11, nan, nan, nan,
	}, ktValues(t, gradient))

	block = result.blocks[1]
	assert.Equal(t, [][]int32{{2, 0}}, labelsRows(t, block.properties))
	assert.Equal(t, [][]int32{{0}, {3}, {6}, {8}}, labelsRows(t, block.samples))
	ktAssertFloats(t, ktRepeat(3, 12), ktValues(t, block))
	block = result.blocks[2]
	assert.Equal(t, [][]int32{{2, 0}}, labelsRows(t, block.properties))
	ktAssertFloats(t, ktRepeat(4, 12), ktValues(t, block))

	assert.Equal(t, 6, calls.creates)
	assert.Equal(t, 8, calls.moves)
	// The second old block's movements: one per sample, into its property range.
	assert.Equal(t, []DataMovement{
		{SampleIn: 0, SampleOut: 0, PropertiesStartIn: 0, PropertiesStartOut: 1, PropertiesLength: 3},
		{SampleIn: 1, SampleOut: 1, PropertiesStartIn: 0, PropertiesStartOut: 1, PropertiesLength: 3},
		{SampleIn: 2, SampleOut: 3, PropertiesStartIn: 0, PropertiesStartOut: 1, PropertiesLength: 3},
	}, calls.movements[1])

	// Unsorted samples.
	result = ktMovedAgain(t, calls, state, tensor, result, (*TensorMap).KeysToProperties, "key_1")
	defer result.Free()
	block = result.blocks[0]
	assert.Equal(t, [][]int32{{0}, {2}, {4}, {1}, {3}}, labelsRows(t, block.samples))
	ktAssertFloats(t, []float64{
		1, 2, 2, 2,
		1, 0, 0, 0,
		1, 0, 0, 0,
		0, 2, 2, 2,
		0, 2, 2, 2,
	}, ktValues(t, block))
	// Gradient samples stay sorted, and point to the unsorted samples.
	assert.Equal(t, [][]int32{{0, -2}, {0, 3}, {2, 3}, {4, -2}}, labelsRows(t, block.gradient("parameter").samples))
}

// ktSimpleTensor makes a map without components nor gradients: keys (a, b), samples "s",
// properties "p" given per block, values 10*block+property index.
func ktSimpleTensor(t *testing.T, calls *ktCalls, keys [][]int32, samples [][]int32, properties [][]int32) *TensorMap {
	t.Helper()
	return ktSimpleTensorWith(t, calls, rowsLabels(t, []string{"a", "b"}, keys...), samples, properties)
}

// ktSimpleTensorWith is ktSimpleTensor with keys of the caller's (a, b), which it releases.
func ktSimpleTensorWith(t *testing.T, calls *ktCalls, keyLabels *ArrayLabels, samples [][]int32, properties [][]int32) *TensorMap {
	t.Helper()
	blocks := make([]*Block, keyLabels.Count())
	for b := range blocks {
		sampleRows := make([][]int32, len(samples[b]))
		for i, s := range samples[b] {
			sampleRows[i] = []int32{s}
		}
		propertyRows := make([][]int32, len(properties[b]))
		for i, p := range properties[b] {
			propertyRows[i] = []int32{p}
		}
		data := make([]float64, 0, len(sampleRows)*len(propertyRows))
		for i := range sampleRows {
			for p := range propertyRows {
				data = append(data, float64(100*b+10*i+p))
			}
		}
		s := rowsLabels(t, []string{"s"}, sampleRows...)
		p := rowsLabels(t, []string{"p"}, propertyRows...)
		block, err := NewBlock(calls.wrap(f64Array(t, labelsShape(s, nil, p), data)), s, nil, p)
		require.NoError(t, err)
		s.Release()
		p.Release()
		blocks[b] = block
	}
	tensor, err := NewTensorMap(keyLabels, blocks)
	require.NoError(t, err)
	keyLabels.Release()
	return tensor
}

func TestKeysToPropertiesWithEntries(t *testing.T) {
	calls := newKtCalls()
	// Blocks (a=0,b=0), (a=1,b=0), (a=2,b=1), all with properties p = 5, 6.
	tensor := ktSimpleTensor(t, calls,
		[][]int32{{0, 0}, {1, 0}, {2, 1}},
		[][]int32{{0, 1}, {1, 2}, {0}},
		[][]int32{{5, 6}, {5, 6}, {5, 6}})
	defer tensor.Free()
	state := ktSnapshot(t, tensor)

	// a = 1 and 7: the block with a = 0 has no place, its data is dropped.
	entries := rowsLabels(t, []string{"a"}, []int32{1}, []int32{7})
	defer entries.Release()
	fill, fillCalls := ktFill(t, -1)
	result, err := tensor.KeysToProperties(entries, fill, true)
	require.NoError(t, err)
	assert.Equal(t, 1, fillCalls.destroys)

	assert.Equal(t, [][]int32{{0}, {1}}, labelsRows(t, result.keys))
	block := result.blocks[0]
	assert.Equal(t, []string{"a", "p"}, block.properties.Names())
	assert.Equal(t, [][]int32{{1, 5}, {1, 6}, {7, 5}, {7, 6}}, labelsRows(t, block.properties))
	// The samples of the dropped block are still there, with the fill value.
	assert.Equal(t, [][]int32{{0}, {1}, {2}}, labelsRows(t, block.samples))
	ktAssertFloats(t, []float64{
		-1, -1, -1, -1,
		100, 101, -1, -1,
		110, 111, -1, -1,
	}, ktValues(t, block))

	// Entries that match no block at all: only the fill value.
	block = result.blocks[1]
	assert.Equal(t, [][]int32{{1, 5}, {1, 6}, {7, 5}, {7, 6}}, labelsRows(t, block.properties))
	ktAssertFloats(t, ktRepeat(-1, 4), ktValues(t, block))

	// Only kept blocks move data: one of the first group, none of the second.
	assert.Equal(t, 2, calls.creates)
	assert.Equal(t, 1, calls.moves)
	assert.Equal(t, []DataMovement{
		{SampleIn: 0, SampleOut: 1, PropertiesStartIn: 0, PropertiesStartOut: 0, PropertiesLength: 2},
		{SampleIn: 1, SampleOut: 2, PropertiesStartIn: 0, PropertiesStartOut: 0, PropertiesLength: 2},
	}, calls.movements[0])

	result.Free()
	assert.Empty(t, calls.live)
	state.check(t)

	// Case A on the same map keeps every block, properties in block order.
	fill, _ = ktFill(t, -1)
	result, err = tensor.KeysToProperties(ktNames(t, "a"), fill, false)
	require.NoError(t, err)
	assert.Equal(t, [][]int32{{0, 5}, {0, 6}, {1, 5}, {1, 6}}, labelsRows(t, result.blocks[0].properties))
	assert.Equal(t, [][]int32{{0}, {1}, {2}}, labelsRows(t, result.blocks[0].samples))
	ktAssertFloats(t, []float64{
		0, 1, -1, -1,
		10, 11, 100, 101,
		-1, -1, 110, 111,
	}, ktValues(t, result.blocks[0]))
	result.Free()
	state.check(t)
}

// TestKeysToPropertiesRepeatedKeys moves keys that repeat an entry (assumed unique): equal new
// properties merge, as in a set, and blocks of the same key write into the same columns, as
// in the reference; a block whose properties would not form one range is refused before any
// data moves, as is a repeated new property made from entries.
func TestKeysToPropertiesRepeatedKeys(t *testing.T) {
	repeated := func(calls *ktCalls, properties ...[]int32) *TensorMap {
		keys := pairLabels(t, []string{"a", "b"}, false, []int32{0, 3}, []int32{0, 3}, []int32{1, 3})
		return ktSimpleTensorWith(t, calls, keys, [][]int32{{0}, {1}, {0}}, properties)
	}
	fill := math.NaN()
	for _, test := range []struct {
		properties [][]int32
		merged     [][]int32   // the properties of the first group
		values     [][]float64 // its values, row by row
		err        string
	}{
		{[][]int32{{0, 1}, {1, 2}, {5}}, [][]int32{{3, 0}, {3, 1}, {3, 2}},
			[][]float64{{0, 1, fill}, {fill, 100, 101}}, ""},
		{[][]int32{{0}, {0}, {5}}, [][]int32{{3, 0}}, [][]float64{{0}, {100}}, ""},
		{[][]int32{{0, 1}, {2, 1}, {5}}, nil, nil, "invalid parameter: can not move keys to properties: the " +
			"properties of block 1 do not form one range of the merged properties, the keys or the properties " +
			"repeat an entry (were they assumed unique?)"},
	} {
		calls := newKtCalls()
		tensor := repeated(calls, test.properties...)
		fillArray, _ := ktFill(t, fill)
		result, err := tensor.KeysToProperties(ktNames(t, "b"), fillArray, false)
		if test.err != "" {
			require.Error(t, err)
			assert.Equal(t, test.err, err.Error())
			assert.Zero(t, calls.moves, "no data moved before the error")
		} else {
			require.NoError(t, err)
			block := result.blocks[0]
			assert.Equal(t, test.merged, labelsRows(t, block.properties), "properties %v", test.properties)
			var values []float64
			for _, row := range test.values {
				values = append(values, row...)
			}
			ktAssertFloats(t, values, ktValues(t, block), "properties %v", test.properties)
			result.Free()
		}
		tensor.Free()
		assert.Empty(t, calls.live)
	}

	// With entries: repeated keys find the same entry; repeated entries are refused.
	calls := newKtCalls()
	tensor := repeated(calls, []int32{0}, []int32{0}, []int32{0})
	defer tensor.Free()
	entries := rowsLabels(t, []string{"b"}, []int32{3})
	defer entries.Release()
	fillArray, _ := ktFill(t, fill)
	result, err := tensor.KeysToProperties(entries, fillArray, false)
	require.NoError(t, err)
	assert.Equal(t, [][]int32{{3, 0}}, labelsRows(t, result.blocks[0].properties))
	ktAssertFloats(t, []float64{0, 100}, ktValues(t, result.blocks[0]))
	result.Free()

	host, err := HostArrayFromValues([]uintptr{2, 1}, []int32{3, 3})
	require.NoError(t, err)
	twice, err := NewArrayLabels([]string{"b"}, host, false)
	require.NoError(t, err)
	defer twice.Release()
	fillArray, _ = ktFill(t, fill)
	_, err = tensor.KeysToProperties(twice, fillArray, false)
	require.Error(t, err)
	assert.Equal(t, "invalid parameter: can not move keys to properties: the new properties repeat an "+
		"entry, the entries of keys_to_move or the blocks' properties do (were they assumed unique?)", err.Error())
}

func TestKeysToPropertiesEntriesNeedSameProperties(t *testing.T) {
	calls := newKtCalls()
	tensor := ktSimpleTensor(t, calls,
		[][]int32{{0, 0}, {1, 0}},
		[][]int32{{0}, {0}},
		[][]int32{{5, 6}, {5, 7}})
	defer tensor.Free()
	state := ktSnapshot(t, tensor)

	entries := rowsLabels(t, []string{"a"}, []int32{0})
	defer entries.Release()
	fill, fillCalls := ktFill(t, 0)
	_, err := tensor.KeysToProperties(entries, fill, true)
	require.Error(t, err)
	assert.Equal(t, "invalid parameter: can not provide values for the keys to move to properties if the blocks "+
		"have different property labels", err.Error())
	assert.Equal(t, 1, fillCalls.destroys)
	assert.Zero(t, calls.creates)
	state.check(t)
}

func TestKeysToSamplesUnionOfProperties(t *testing.T) {
	calls := newKtCalls()
	tensor := ktSimpleTensor(t, calls,
		[][]int32{{0, 0}, {0, 1}, {0, 2}},
		[][]int32{{0, 1}, {0}, {3}},
		[][]int32{{0, 1, 2}, {2, 0, 5}, {1, 2, 7}})
	defer tensor.Free()
	state := ktSnapshot(t, tensor)

	fill, _ := ktFill(t, math.NaN())
	result, err := tensor.KeysToSamples(ktNames(t, "b"), fill, false)
	require.NoError(t, err)
	defer result.Free()

	assert.Equal(t, [][]int32{{0}}, labelsRows(t, result.keys))
	block := result.blocks[0]
	assert.Equal(t, []string{"s", "b"}, block.samples.Names())
	assert.Equal(t, [][]int32{{0, 0}, {1, 0}, {0, 1}, {3, 2}}, labelsRows(t, block.samples))
	assert.Equal(t, [][]int32{{0}, {1}, {2}, {5}, {7}}, labelsRows(t, block.properties))
	nan := math.NaN()
	ktAssertFloats(t, []float64{
		0, 1, 2, nan, nan,
		10, 11, 12, nan, nan,
		101, nan, 100, 102, nan,
		nan, 200, 201, nan, 202,
	}, ktValues(t, block))

	// One move per block, with the runs of their properties.
	require.Len(t, calls.movements, 3)
	assert.Equal(t, []DataMovement{
		{SampleIn: 0, SampleOut: 0, PropertiesStartIn: 0, PropertiesStartOut: 0, PropertiesLength: 3},
		{SampleIn: 1, SampleOut: 1, PropertiesStartIn: 0, PropertiesStartOut: 0, PropertiesLength: 3},
	}, calls.movements[0])
	assert.Equal(t, []DataMovement{
		{SampleIn: 0, SampleOut: 2, PropertiesStartIn: 0, PropertiesStartOut: 2, PropertiesLength: 1},
		{SampleIn: 0, SampleOut: 2, PropertiesStartIn: 1, PropertiesStartOut: 0, PropertiesLength: 1},
		{SampleIn: 0, SampleOut: 2, PropertiesStartIn: 2, PropertiesStartOut: 3, PropertiesLength: 1},
	}, calls.movements[1])
	assert.Equal(t, []DataMovement{
		{SampleIn: 0, SampleOut: 3, PropertiesStartIn: 0, PropertiesStartOut: 1, PropertiesLength: 2},
		{SampleIn: 0, SampleOut: 3, PropertiesStartIn: 2, PropertiesStartOut: 4, PropertiesLength: 1},
	}, calls.movements[2])
	state.check(t)
}

func TestKeysToMoveEveryDimension(t *testing.T) {
	calls := newKtCalls()
	tensor := ktSimpleTensor(t, calls,
		[][]int32{{0, 0}, {1, 3}},
		[][]int32{{0, 1}, {1}},
		[][]int32{{0}, {0}})
	defer tensor.Free()

	fill, _ := ktFill(t, 0)
	result, err := tensor.KeysToSamples(ktNames(t, "b", "a"), fill, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"_"}, result.keys.Names())
	assert.Equal(t, [][]int32{{0}}, labelsRows(t, result.keys))
	block := result.blocks[0]
	assert.Equal(t, []string{"s", "b", "a"}, block.samples.Names())
	assert.Equal(t, [][]int32{{0, 0, 0}, {1, 0, 0}, {1, 3, 1}}, labelsRows(t, block.samples))
	ktAssertFloats(t, []float64{0, 10, 100}, ktValues(t, block))
	result.Free()

	fill, _ = ktFill(t, 0)
	result, err = tensor.KeysToProperties(ktNames(t, "a", "b"), fill, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"_"}, result.keys.Names())
	assert.Equal(t, [][]int32{{0}}, labelsRows(t, result.keys))
	assert.Equal(t, []string{"a", "b", "p"}, result.blocks[0].properties.Names())
	assert.Equal(t, [][]int32{{0, 0, 0}, {1, 3, 0}}, labelsRows(t, result.blocks[0].properties))
	ktAssertFloats(t, []float64{0, 0, 10, 100}, ktValues(t, result.blocks[0]))
	result.Free()

	// Moving nothing regroups nothing.
	fill, _ = ktFill(t, 0)
	result, err = tensor.KeysToProperties(LabelsFromValues(nil, nil), fill, true)
	require.NoError(t, err)
	assert.Equal(t, [][]int32{{0, 0}, {1, 3}}, labelsRows(t, result.keys))
	assert.Equal(t, []string{"p"}, result.blocks[0].properties.Names())
	result.Free()
	assert.Empty(t, calls.live)
}

func TestKeysToNewKeysFirstAppearanceOrder(t *testing.T) {
	calls := newKtCalls()
	tensor := ktSimpleTensor(t, calls,
		[][]int32{{0, 5}, {1, 2}, {2, 5}, {3, 2}, {4, 9}},
		[][]int32{{0}, {0}, {0}, {0}, {0}},
		[][]int32{{0}, {0}, {0}, {0}, {0}})
	defer tensor.Free()
	fill, _ := ktFill(t, 0)
	result, err := tensor.KeysToProperties(ktNames(t, "a"), fill, true)
	require.NoError(t, err)
	defer result.Free()
	assert.Equal(t, [][]int32{{5}, {2}, {9}}, labelsRows(t, result.keys))
	assert.Equal(t, [][]int32{{0, 0}, {2, 0}}, labelsRows(t, result.blocks[0].properties))
	assert.Equal(t, [][]int32{{1, 0}, {3, 0}}, labelsRows(t, result.blocks[1].properties))
	ktAssertFloats(t, []float64{100, 300}, ktValues(t, result.blocks[1]))
}

// The plan of a move keeps few groups and their blocks in its own allocation and allocates
// past that: maps of 1 to 6 blocks going to 1 to 3 new keys cross both limits.
func TestKeysToGroupsAroundThePlanLimits(t *testing.T) {
	for blocks := 1; blocks <= 6; blocks++ {
		for groups := 1; groups <= min(blocks, 3); groups++ {
			calls := newKtCalls()
			keys := make([][]int32, blocks)
			samples := make([][]int32, blocks)
			properties := make([][]int32, blocks)
			for b := range blocks {
				keys[b] = []int32{int32(b), int32(b % groups)}
				samples[b], properties[b] = []int32{0}, []int32{0}
			}
			tensor := ktSimpleTensor(t, calls, keys, samples, properties)
			fill, _ := ktFill(t, 0)
			result, err := tensor.KeysToSamples(ktNames(t, "a"), fill, true)
			require.NoError(t, err)
			var wantKeys [][]int32
			for g := range groups {
				wantKeys = append(wantKeys, []int32{int32(g)})
			}
			assert.Equal(t, wantKeys, labelsRows(t, result.keys), "%d blocks, %d groups", blocks, groups)
			for g, block := range result.blocks {
				var rows [][]int32
				var values []float64
				for b := g; b < blocks; b += groups {
					rows = append(rows, []int32{0, int32(b)})
					values = append(values, float64(100*b))
				}
				assert.Equal(t, rows, labelsRows(t, block.samples), "%d blocks, group %d", blocks, g)
				ktAssertFloats(t, values, ktValues(t, block))
			}
			result.Free()
			tensor.Free()
			assert.Empty(t, calls.live)
		}
	}
}

func TestKeysToNewKeysBuiltLikeOldKeys(t *testing.T) {
	calls := newKtCalls()
	blocks := make([]*Block, 2)
	for b := range blocks {
		s := rangeLabels(t, "s", 1)
		p := rangeLabels(t, "p", 1)
		block, err := NewBlock(calls.wrap(f64Array(t, []uintptr{1, 1}, []float64{float64(b)})), s, nil, p)
		require.NoError(t, err)
		s.Release()
		p.Release()
		blocks[b] = block
	}
	keyCalls := newKtCalls()
	host, err := HostArrayFromValues([]uintptr{2, 2}, []int32{0, 1, 1, 1})
	require.NoError(t, err)
	keys, err := NewArrayLabels([]string{"a", "b"}, keyCalls.wrap(host), true)
	require.NoError(t, err)
	tensor, err := NewTensorMap(keys, blocks)
	require.NoError(t, err)
	keys.Release()
	defer tensor.Free()

	fill, _ := ktFill(t, 0)
	result, err := tensor.KeysToSamples(ktNames(t, "a"), fill, true)
	require.NoError(t, err)
	assert.Equal(t, 1, keyCalls.fromDLPack)
	assert.IsType(t, &ktArray{}, result.keys.Array())
	assert.Equal(t, [][]int32{{1}}, labelsRows(t, result.keys))
	result.Free()
	assert.Equal(t, 1, keyCalls.destroys, "the new keys' array destroyed with the result, the old one kept")
}

// ktErrorCase is an operation expected to fail with a message.
type ktErrorCase struct {
	name    string
	tensor  func(t *testing.T, calls *ktCalls) *TensorMap
	keys    func(t *testing.T) *ArrayLabels
	fill    func(t *testing.T) *ktArray
	samples bool // keys_to_samples instead of keys_to_properties
	status  Status
	message string
}

func TestKeysToErrors(t *testing.T) {
	fixture := func(t *testing.T, calls *ktCalls) *TensorMap { return ktFixture(t, calls) }
	simple := func(t *testing.T, calls *ktCalls) *TensorMap {
		return ktSimpleTensor(t, calls, [][]int32{{0, 0}, {1, 0}}, [][]int32{{0}, {1}}, [][]int32{{0}, {0}})
	}
	empty := func(t *testing.T, calls *ktCalls) *TensorMap {
		keys := rowsLabels(t, []string{"a"})
		tensor, err := NewTensorMap(keys, nil)
		require.NoError(t, err)
		keys.Release()
		return tensor
	}
	nested := func(t *testing.T, calls *ktCalls) *TensorMap {
		tensor := simple(t, calls)
		gradient := ktBlock(t, calls, 1, rowsLabels(t, []string{"sample"}, []int32{0}), nil, rangeLabels(t, "p", 1))
		ktAddGradient(t, gradient, "inner",
			ktBlock(t, calls, 2, rowsLabels(t, []string{"sample"}, []int32{0}), nil, rangeLabels(t, "p", 1)))
		ktAddGradient(t, tensor.blocks[0], "outer", gradient)
		return tensor
	}
	names := func(names ...string) func(t *testing.T) *ArrayLabels {
		return func(t *testing.T) *ArrayLabels { return ktNames(t, names...) }
	}
	f64Fill := func(t *testing.T) *ktArray { fill, _ := ktFill(t, 0); return fill }

	cases := []ktErrorCase{
		{name: "empty properties", tensor: empty, keys: names("a"), fill: f64Fill,
			status: InvalidParameterError, message: "there are no keys to move in an empty TensorMap"},
		{name: "empty samples", tensor: empty, keys: names("a"), fill: f64Fill, samples: true,
			status: InvalidParameterError, message: "there are no keys to move in an empty TensorMap"},
		{name: "samples with entries", tensor: simple, samples: true, fill: f64Fill,
			keys:   func(t *testing.T) *ArrayLabels { return rowsLabels(t, []string{"a"}, []int32{0}) },
			status: InvalidParameterError,
			message: "user provided values for the keys to move is not yet implemented, " +
				"`keys_to_move` should not contain any entry when calling keys_to_samples"},
		{name: "samples with entries and unknown name", tensor: simple, samples: true, fill: f64Fill,
			keys:   func(t *testing.T) *ArrayLabels { return rowsLabels(t, []string{"zz"}, []int32{0}) },
			status: InvalidParameterError,
			message: "user provided values for the keys to move is not yet implemented, " +
				"`keys_to_move` should not contain any entry when calling keys_to_samples"},
		{name: "unknown name properties", tensor: simple, keys: names("b", "zz"), fill: f64Fill,
			status: InvalidParameterError, message: "'zz' is not part of the keys for this tensor map"},
		{name: "unknown name samples", tensor: simple, keys: names("zz"), fill: f64Fill, samples: true,
			status: InvalidParameterError, message: "'zz' is not part of the keys for this tensor map"},
		{name: "nested gradients properties", tensor: nested, keys: names("a"), fill: f64Fill,
			status: InvalidParameterError, message: "gradient of gradients are not supported yet in keys_to_properties"},
		{name: "nested gradients samples", tensor: nested, keys: names("a"), fill: f64Fill, samples: true,
			status: InvalidParameterError, message: "gradient of gradients are not supported yet in keys_to_samples"},
		{name: "components properties", tensor: fixture, keys: names("key_1", "key_2"), fill: f64Fill,
			status: InvalidParameterError,
			message: "can not move keys to properties if the blocks have different components labels, " +
				"call components_to_properties first"},
		{name: "components samples", tensor: fixture, keys: names("key_1", "key_2"), fill: f64Fill, samples: true,
			status: InvalidParameterError,
			message: "can not move keys to samples if the blocks have different components labels, " +
				"call components_to_properties first"},
		{name: "components before fill", tensor: fixture, keys: names("key_2", "key_1"), samples: true,
			fill: func(t *testing.T) *ktArray {
				host, err := HostArrayFromValues([]uintptr{1}, []int32{0})
				require.NoError(t, err)
				return newKtCalls().wrap(host)
			},
			status: InvalidParameterError,
			message: "can not move keys to samples if the blocks have different components labels, " +
				"call components_to_properties first"},
		{name: "fill dtype", tensor: fixture, keys: names("key_1"),
			fill: func(t *testing.T) *ktArray {
				host, err := HostArrayFromValues([]uintptr{}, []int32{0})
				require.NoError(t, err)
				return newKtCalls().wrap(host)
			},
			status:  InvalidParameterError,
			message: "fill_value dtype (code=0, bits=32, lanes=1) does not match array dtype (code=2, bits=64, lanes=1)"},
		{name: "fill shape", tensor: fixture, keys: names("key_2"), samples: true,
			fill: func(t *testing.T) *ktArray {
				host, err := HostArrayFromValues([]uintptr{1}, []float64{0})
				require.NoError(t, err)
				return newKtCalls().wrap(host)
			},
			status: InvalidParameterError, message: "fill_value must be a single scalar, got a shape [1]"},
		{name: "fill device", tensor: fixture, keys: names("key_1"),
			fill: func(t *testing.T) *ktArray {
				fill := f64Fill(t)
				fill.device = Device{Type: DeviceCUDA, ID: 0}
				return fill
			},
			status: InvalidParameterError, message: "fill_value must be on CPU"},
	}
	cases = append(cases, ktErrorCase{
		name: "duplicate sample names", samples: true, fill: f64Fill, keys: names("s"),
		tensor: func(t *testing.T, calls *ktCalls) *TensorMap {
			return ktTwoBlocksKeyed(t, calls, "s")
		},
		status: InternalError,
		message: "invalid labels in merge_samples: InvalidParameter(\"label dimensions must be unique, " +
			"got 's' multiple times\")",
	}, ktErrorCase{
		name: "duplicate property names", fill: f64Fill, keys: names("p"),
		tensor: func(t *testing.T, calls *ktCalls) *TensorMap {
			return ktTwoBlocksKeyed(t, calls, "p")
		},
		status:  InternalError,
		message: "invalid labels: InvalidParameter(\"label dimensions must be unique, got 'p' multiple times\")",
	})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls := newKtCalls()
			tensor := c.tensor(t, calls)
			defer tensor.Free()
			state := ktSnapshot(t, tensor)
			keysToMove := c.keys(t)
			defer keysToMove.Release()
			fill := c.fill(t)

			var result *TensorMap
			var err error
			if c.samples {
				result, err = tensor.KeysToSamples(keysToMove, fill, true)
			} else {
				result, err = tensor.KeysToProperties(keysToMove, fill, true)
			}
			require.Error(t, err)
			assert.Nil(t, result)
			var e *Error
			require.True(t, errors.As(err, &e))
			assert.Equal(t, c.status, e.Status)
			assert.Equal(t, c.message, e.Message)
			assert.Equal(t, 1, fill.calls.destroys, "fill destroyed once")
			assert.Empty(t, calls.live, "created arrays destroyed")
			assert.Zero(t, calls.doubleDestroys)
			state.check(t)
		})
	}
}

// ktSortedMove gives a run of KeysToSamples (of key_2) when samples, else of
// KeysToProperties (of key_1), sorting the samples.
func ktSortedMove(t *testing.T, samples bool) func(tensor *TensorMap, fill Array) (*TensorMap, error) {
	return func(tensor *TensorMap, fill Array) (*TensorMap, error) {
		if samples {
			return tensor.KeysToSamples(ktNames(t, "key_2"), fill, true)
		}
		return tensor.KeysToProperties(ktNames(t, "key_1"), fill, true)
	}
}

// TestKeysToCallbackFailures makes each Create and each MoveData call fail in turn: the
// error comes back as it is, and everything made so far is released.
func TestKeysToCallbackFailures(t *testing.T) {
	for _, samples := range []bool{false, true} {
		run := ktSortedMove(t, samples)

		// A successful run tells how many calls there are.
		calls := newKtCalls()
		tensor := ktFixture(t, calls)
		fill, _ := ktFill(t, 0)
		result, err := run(tensor, fill)
		require.NoError(t, err)
		result.Free()
		tensor.Free()
		creates, moves := calls.creates, calls.moves
		require.Equal(t, 6, creates)
		require.Equal(t, 8, moves)

		for _, failCreate := range []bool{true, false} {
			total := moves
			if failCreate {
				total = creates
			}
			for n := 1; n <= total; n++ {
				calls := newKtCalls()
				tensor := ktFixture(t, calls)
				state := ktSnapshot(t, tensor)
				if failCreate {
					calls.failCreate = n
				} else {
					calls.failMove = n
				}
				fill, fillCalls := ktFill(t, 0)
				result, err := run(tensor, fill)
				require.Error(t, err, "samples=%v create=%v n=%d", samples, failCreate, n)
				assert.Nil(t, result)
				var e *Error
				require.True(t, errors.As(err, &e))
				assert.Equal(t, CallbackError, e.Status)
				if !failCreate {
					assert.Same(t, errKtCallback, err)
				}
				assert.Equal(t, 1, fillCalls.destroys)
				assert.Empty(t, calls.live, "samples=%v create=%v n=%d", samples, failCreate, n)
				assert.Zero(t, calls.doubleDestroys)
				state.check(t)
				tensor.Free()
			}
		}
	}
}

func TestKeysToFillChecksOnEveryCreate(t *testing.T) {
	calls := newKtCalls()
	tensor := ktFixture(t, calls)
	defer tensor.Free()
	fill, fillCalls := ktFill(t, 0)
	result, err := tensor.KeysToProperties(ktNames(t, "key_1"), fill, true)
	require.NoError(t, err)
	defer result.Free()
	// Each of the 6 creations checks the fill's dtype, shape and device, then the host array
	// reads its dtype and shape again.
	assert.Equal(t, 6, fillCalls.devices)
	assert.Equal(t, 12, fillCalls.dtypes)
	assert.Equal(t, 12, fillCalls.shapes)
	assert.Zero(t, fillCalls.creates)
	assert.Equal(t, 1, fillCalls.destroys)
}

func TestKeysToNilArguments(t *testing.T) {
	calls := newKtCalls()
	tensor := ktFixture(t, calls)
	defer tensor.Free()

	fill, fillCalls := ktFill(t, 0)
	_, err := tensor.KeysToProperties(nil, fill, true)
	require.Error(t, err)
	assert.Equal(t, "invalid parameter: got invalid NULL pointer for keys_to_move", err.Error())
	assert.Equal(t, 1, fillCalls.destroys)

	fill, fillCalls = ktFill(t, 0)
	var none *TensorMap
	_, err = none.KeysToSamples(ktNames(t, "key_1"), fill, true)
	require.Error(t, err)
	assert.Equal(t, 1, fillCalls.destroys)

	keys := ktNames(t, "key_1")
	defer keys.Release()
	_, err = tensor.KeysToSamples(keys, nil, true)
	require.Error(t, err)
	assert.Equal(t, "invalid parameter: got invalid NULL pointer for fill_value", err.Error())
	assert.Empty(t, calls.live)
}

func TestUniqueRowsHelpers(t *testing.T) {
	values := []int32{3, 1, 0, 2, 3, 1, -1, 5, 0, 2}
	unique, inverse := uniqueRows(values, 2)
	assert.Equal(t, []int32{3, 1, 0, 2, -1, 5}, unique)
	assert.Equal(t, []int{0, 1, 0, 2, 1}, inverse)

	unique, inverse = sortedUniqueRows(values, 2)
	assert.Equal(t, []int32{-1, 5, 0, 2, 3, 1}, unique)
	assert.Equal(t, []int{2, 1, 2, 0, 1}, inverse)

	unique, inverse = uniqueRows([]int32{4, 5, 6}, 1)
	assert.Equal(t, []int32{4, 5, 6}, unique)
	assert.Equal(t, []int{0, 1, 2}, inverse)

	assert.Equal(t, []propertyRun{{0, 2, 1}, {1, 0, 2}, {3, 5, 1}}, consecutiveRuns([]int64{2, 0, 1, 5}))
	assert.Empty(t, consecutiveRuns(nil))
}

// TestSortedUniqueRowsOfSortedRows checks the one-pass path of sortedUniqueRows, for rows
// already sorted, against a naive model: a row's position is the number of distinct rows
// smaller than it. Unsorted rows take the other path and must agree with the same model.
func TestSortedUniqueRowsOfSortedRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 21))
	for trial := range 200 {
		size, n := 1+rng.IntN(3), rng.IntN(40)
		values := make([]int32, n*size)
		for i := range values {
			values[i] = int32(rng.IntN(4)) - 1
		}
		rows := make([][]int32, n)
		for i := range rows {
			rows[i] = values[i*size : (i+1)*size]
		}
		if trial%2 == 0 {
			slices.SortFunc(rows, compareRows)
			values = slices.Concat(rows...)
		}
		_, _, onePass := runsOfSortedRows(values, size)
		require.Equal(t, trial%2 == 0 || slices.IsSortedFunc(rows, compareRows), onePass)

		var distinct [][]int32
		for _, row := range rows {
			if !slices.ContainsFunc(distinct, func(d []int32) bool { return slices.Equal(d, row) }) {
				distinct = append(distinct, row)
			}
		}
		slices.SortFunc(distinct, compareRows)
		unique, inverse := sortedUniqueRows(slices.Clone(values), size) // it may sort in place
		want := []int32{}
		for _, row := range distinct {
			want = append(want, row...)
		}
		require.Equal(t, want, unique)
		for i, row := range rows {
			require.Equal(t, row, distinct[inverse[i]])
		}
	}
}

// TestDistinctRows checks distinctRows against uniqueRows and sortedUniqueRows on rows that
// are all different, in increasing and in shuffled order.
func TestDistinctRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	for trial := range 100 {
		size := 1 + rng.IntN(3)
		n := rng.IntN(min(30, []int{5, 25, 125}[size-1]+1)) // at most the 5^size rows there are
		seen := map[[3]int32]bool{}
		var rows [][]int32
		for len(rows) < n {
			var row [3]int32
			for j := range size {
				row[j] = int32(rng.IntN(5)) - 2
			}
			if !seen[row] {
				seen[row] = true
				rows = append(rows, slices.Clone(row[:size]))
			}
		}
		if trial%3 == 0 {
			slices.SortFunc(rows, compareRows)
		}
		values := slices.Concat(rows...)
		for _, sorted := range []bool{false, true} {
			reference := uniqueRows
			if sorted {
				reference = sortedUniqueRows
			}
			wantUnique, wantInverse := reference(slices.Clone(values), size)
			unique, inverse := distinctRows(slices.Clone(values), size, sorted)
			require.Equal(t, wantUnique, unique, "sorted %v, rows %v", sorted, rows)
			require.Equal(t, wantInverse, inverse, "sorted %v, rows %v", sorted, rows)
		}
	}
}

// TestSortDistinctNarrowRows checks the packed-key sort of rows of one and two values
// against a sort by compareRows, with the extreme values whose sign bit the keys flip.
func TestSortDistinctNarrowRows(t *testing.T) {
	pick := []int32{math.MinInt32, math.MinInt32 + 1, -65536, -1, 0, 1, 65536, math.MaxInt32 - 1, math.MaxInt32}
	checkSortDistinctRows(t, rand.New(rand.NewPCG(11, 4)), 200, 1, 2, 59, pick, true, 0, sortDistinctRows)
}

// TestSortDistinctWideRows checks the sort of rows of three values and more, by insertion up
// to fewRows rows and by slices.SortFunc past them.
func TestSortDistinctWideRows(t *testing.T) {
	pick := []int32{math.MinInt32, -1, 0, 1, 2, math.MaxInt32}
	checkSortDistinctRows(t, rand.New(rand.NewPCG(5, 17)), 300, 3, 5, 3*fewRows-1, pick, false, 0, sortDistinctRows)
}

// TestSortDistinctRowsByFirst checks the counting sort of rows by their first value (from 0
// to the limit), then by the rest: rows of 2 to 5 values, few and many sharing a first value
// (a sort past insertion within one), and a limit far above the rows (sortDistinctRows').
func TestSortDistinctRowsByFirst(t *testing.T) {
	pick := []int32{math.MinInt32, -1, 0, 1, 2, math.MaxInt32}
	for _, limit := range []int{1, 3, 40, 100000} {
		byFirst := func(values []int32, size int) ([]int32, []int) { return sortDistinctRowsByFirst(values, size, limit) }
		checkSortDistinctRows(t, rand.New(rand.NewPCG(uint64(limit), 8)), 100, 2, 5, 5*fewRows, pick, true, limit, byFirst)
	}
}

// TestSortDistinctTripleRows checks the sort of rows of three values packed into words, with
// the extremes of int32 and random values, by insertion and past it.
func TestSortDistinctTripleRows(t *testing.T) {
	pick := []int32{math.MinInt32, math.MinInt32 + 1, -65536, -1, 0, 1, 65536, math.MaxInt32 - 1, math.MaxInt32}
	checkSortDistinctRows(t, rand.New(rand.NewPCG(3, 29)), 300, 3, 3, 4*fewRows, pick, true, 0, sortDistinctRows)
}

// checkSortDistinctRows compares sortRows (sortDistinctRows or a variant) with a sort by
// compareRows of the rows themselves, over trials of up to maxRows distinct rows of minSize to
// maxSize (at most 5) values taken from pick, or for a third of them random when random is
// set; their first value from 0 to firstLimit-1 instead when firstLimit is not 0.
func checkSortDistinctRows(t *testing.T, rng *rand.Rand, trials, minSize, maxSize, maxRows int, pick []int32, random bool,
	firstLimit int, sortRows func(values []int32, size int) ([]int32, []int)) {
	for trial := range trials {
		size, n := minSize+rng.IntN(maxSize-minSize+1), rng.IntN(maxRows+1)
		seen := map[[5]int32]bool{}
		var rows [][]int32
		for len(rows) < n {
			var row [5]int32
			for j := range size {
				row[j] = pick[rng.IntN(len(pick))]
				if random && rng.IntN(3) == 0 {
					row[j] = int32(rng.Uint32())
				}
			}
			if firstLimit > 0 {
				row[0] = int32(rng.IntN(firstLimit))
			}
			if !seen[row] {
				seen[row] = true
				rows = append(rows, slices.Clone(row[:size]))
			}
		}
		values := slices.Concat(rows...)
		want := slices.Clone(rows)
		slices.SortFunc(want, compareRows)
		sorted, rank := sortRows(values, size)
		require.Equal(t, append([]int32{}, slices.Concat(want...)...), append([]int32{}, sorted...), "trial %d", trial)
		for i, row := range rows {
			require.Equal(t, row, want[rank[i]], "trial %d, row %d", trial, i)
		}
	}
}

// TestMergeSamplesRepeatedBlocks compares mergeSamples with a naive merge of every block's
// rows, on groups where consecutive blocks share their samples (one labels object, or equal
// values in two objects), including samples assumed unique that repeat a row.
func TestMergeSamplesRepeatedBlocks(t *testing.T) {
	names := []string{"system", "atom"}
	labels := func(checked bool, rows ...[]int32) *ArrayLabels { return pairLabels(t, names, checked, rows...) }
	a := labels(true, []int32{0, 1}, []int32{2, 3}, []int32{1, 1})
	sameAsA := labels(true, []int32{0, 1}, []int32{2, 3}, []int32{1, 1})
	b := labels(true, []int32{2, 3}, []int32{5, 0})
	other := labels(true, []int32{2, 3}, []int32{9, 9}, []int32{0, 1}) // as many rows as a
	repeating := labels(false, []int32{4, 4}, []int32{0, 1}, []int32{4, 4})
	empty := labels(true)
	properties := rowsLabels(t, []string{"p"}, []int32{0})
	defer func() {
		for _, l := range []*ArrayLabels{a, sameAsA, b, other, repeating, empty, properties} {
			l.Release()
		}
	}()

	groupOf := func(samples ...*ArrayLabels) []keyedBlock {
		group := make([]keyedBlock, len(samples))
		for i, s := range samples {
			block, err := NewBlock(f64Array(t, labelsShape(s, nil, properties), nil), s, nil, properties)
			require.NoError(t, err)
			group[i] = keyedBlock{key: []int32{int32(i)}, block: block}
		}
		return group
	}

	for _, samples := range [][]*ArrayLabels{
		{a},
		{other},
		{other, other},
		{repeating},
		{repeating, repeating},
		{a, a, a},
		{a, sameAsA, b, a, a},
		{b, a, b, b, sameAsA},
		{a, other, other, a},
		{repeating, repeating, a, repeating},
		{empty, empty, a, empty},
	} {
		group := groupOf(samples...)
		for _, sortSamples := range []bool{false, true} {
			merged, mappings, apart, err := mergeSamples(group, names, false, sortSamples)
			require.NoError(t, err)
			assertApart(t, apart, mappings)
			assert.Equal(t, len(group) == 1 && samples[0] != repeating, apart, "one checked block is apart")
			expected, expectedMappings := naiveMerge(t, group, false, sortSamples)
			if len(expected) == 0 {
				assert.Empty(t, labelsRows(t, merged))
			} else {
				assert.Equal(t, expected, labelsRows(t, merged), "sorted: %v", sortSamples)
			}
			require.Len(t, mappings, len(group))
			for b := range group {
				assert.Equal(t, len(expectedMappings[b]), len(mappings[b]), "block %d", b)
				if len(expectedMappings[b]) > 0 {
					assert.Equal(t, expectedMappings[b], mappings[b], "block %d, sorted: %v", b, sortSamples)
				}
			}
			merged.Release()
		}
		for _, member := range group {
			member.block.Free()
		}
	}
}

// TestMergeSamplesWithKeys compares mergeSamples with the moved keys appended (keys_to_samples)
// with a naive merge of every block's rows followed by its key, on groups whose rows are all
// different by construction (checked samples, different keys: no row is hashed) and on groups
// where they may not be: samples assumed unique that repeat a row, and keys that repeat, as
// the keys of a map assumed unique may, with few blocks and with more than fewKeys.
func TestMergeSamplesWithKeys(t *testing.T) {
	names := []string{"system", "atom", "key"}
	labels := func(checked bool, rows ...[]int32) *ArrayLabels { return pairLabels(t, names[:2], checked, rows...) }
	a := labels(true, []int32{3, 1}, []int32{0, 2}, []int32{1, 1})
	b := labels(true, []int32{0, 2}, []int32{5, 0})
	repeating := labels(false, []int32{4, 4}, []int32{0, 2}, []int32{4, 4})
	properties := rowsLabels(t, []string{"p"}, []int32{0})
	defer func() {
		for _, l := range []*ArrayLabels{a, b, repeating, properties} {
			l.Release()
		}
	}()

	// keys[i] is the key of block i, its samples alternate between the labels given.
	groupOf := func(keys []int32, samples ...*ArrayLabels) []keyedBlock {
		group := make([]keyedBlock, len(keys))
		for i, key := range keys {
			s := samples[i%len(samples)]
			block, err := NewBlock(f64Array(t, labelsShape(s, nil, properties), nil), s, nil, properties)
			require.NoError(t, err)
			group[i] = keyedBlock{key: []int32{key}, block: block}
		}
		return group
	}
	manyKeys := func(repeat bool) []int32 {
		keys := make([]int32, fewKeys+3)
		for i := range keys {
			keys[i] = int32(7 * (len(keys) - i))
		}
		if repeat {
			keys[fewKeys+1] = keys[2]
		}
		return keys
	}

	for _, test := range []struct {
		keys     []int32
		samples  []*ArrayLabels
		distinct bool // the keys
		apart    bool // no row hashed: distinct keys, every block's samples checked
	}{
		{[]int32{4, 1, 9}, []*ArrayLabels{a, b}, true, true},
		{manyKeys(false), []*ArrayLabels{b, a}, true, true},
		{[]int32{4, 1, 4}, []*ArrayLabels{a, b}, false, false},
		{[]int32{2, 2}, []*ArrayLabels{a}, false, false},
		{manyKeys(true), []*ArrayLabels{a, b}, false, false},
		{[]int32{4, 1, 9}, []*ArrayLabels{a, repeating}, true, false},
		{[]int32{4, 1, 4}, []*ArrayLabels{repeating}, false, false},
	} {
		group := groupOf(test.keys, test.samples...)
		assert.Equal(t, test.distinct, keysDistinct(group), "keys %v", test.keys)
		for _, sortSamples := range []bool{false, true} {
			merged, mappings, apart, err := mergeSamples(group, names, true, sortSamples)
			require.NoError(t, err)
			assertApart(t, apart, mappings)
			assert.Equal(t, test.apart, apart, "keys %v", test.keys)
			expected, expectedMappings := naiveMerge(t, group, true, sortSamples)
			assert.Equal(t, expected, labelsRows(t, merged), "keys %v, sorted: %v", test.keys, sortSamples)
			require.Len(t, mappings, len(group))
			for b := range group {
				assert.Equal(t, expectedMappings[b], mappings[b], "keys %v, block %d, sorted: %v", test.keys, b, sortSamples)
			}
			merged.Release()
		}
		for _, member := range group {
			member.block.Free()
		}
	}
	assert.False(t, keysDistinct([]keyedBlock{{}, {}}), "two blocks without key values")
	assert.True(t, keysDistinct([]keyedBlock{{}}), "one block")
}

// assertApart checks mergeSamples' apart: when set, no two samples of the group share a
// position.
func assertApart(t *testing.T, apart bool, mappings [][]int) {
	t.Helper()
	if !apart {
		return
	}
	seen := map[int]bool{}
	for b, mapping := range mappings {
		for i, position := range mapping {
			assert.False(t, seen[position], "block %d sample %d goes to %d, taken", b, i, position)
			seen[position] = true
		}
	}
}

// TestMergeGradientSamplesApart compares the merged gradient samples of two blocks whose
// samples went to positions apart (as keys_to_samples' do) with a naive merge, with the rows
// hashed or not: not when every gradient's samples are checked, hashed when one gradient's
// were assumed unique and repeat a row.
func TestMergeGradientSamplesApart(t *testing.T) {
	samples := rowsLabels(t, []string{"s"}, []int32{0}, []int32{1}, []int32{2})
	properties := rowsLabels(t, []string{"p"}, []int32{0})
	checked := rowsLabels(t, []string{"sample", "atom"}, []int32{2, 5}, []int32{0, 1}, []int32{0, 3})
	host, err := HostArrayFromValues([]uintptr{3, 2}, []int32{1, 4, 0, 1, 1, 4})
	require.NoError(t, err)
	repeating, err := NewArrayLabels([]string{"sample", "atom"}, host, false)
	require.NoError(t, err)
	defer func() {
		for _, l := range []*ArrayLabels{samples, properties, checked, repeating} {
			l.Release()
		}
	}()
	// Block 0's samples go to 0, 2, 4, block 1's to 5, 3, 1.
	samplesMappings := [][]int{{0, 2, 4}, {5, 3, 1}}
	for _, second := range []*ArrayLabels{checked, repeating} {
		group := make([]keyedBlock, 2)
		for b, gradientSamples := range []*ArrayLabels{checked, second} {
			block, err := NewBlock(f64Array(t, labelsShape(samples, nil, properties), nil), samples, nil, properties)
			require.NoError(t, err)
			gradient, err := NewBlock(f64Array(t, labelsShape(gradientSamples, nil, properties), nil), gradientSamples, nil, properties)
			require.NoError(t, err)
			require.NoError(t, block.AddGradient("g", gradient))
			group[b] = keyedBlock{key: []int32{int32(b)}, block: block}
		}
		// naive: every row sent through its block's mapping, kept once, sorted
		var rows [][]int32
		for b, member := range group {
			for _, row := range labelsRows(t, member.block.gradient("g").samples) {
				row[0] = int32(samplesMappings[b][row[0]])
				if !slices.ContainsFunc(rows, func(r []int32) bool { return slices.Equal(r, row) }) {
					rows = append(rows, row)
				}
			}
		}
		slices.SortFunc(rows, slices.Compare[[]int32])
		for _, apart := range []bool{false, true} {
			merged, mappings, err := mergeGradientSamples(group, "g", samplesMappings, apart)
			require.NoError(t, err)
			assert.Equal(t, rows, labelsRows(t, merged), "apart: %v, second checked: %v", apart, second == checked)
			for b, member := range group {
				for i, row := range labelsRows(t, member.block.gradient("g").samples) {
					row[0] = int32(samplesMappings[b][row[0]])
					assert.Equal(t, row, rows[mappings[b][i]], "block %d gradient sample %d", b, i)
				}
			}
			merged.Release()
		}
		for _, member := range group {
			member.block.Free()
		}
	}
}

// pairLabels makes labels of rows of two values named names, checked or assumed unique.
func pairLabels(t *testing.T, names []string, checked bool, rows ...[]int32) *ArrayLabels {
	values := make([]int32, 0, 2*len(rows))
	for _, row := range rows {
		values = append(values, row...)
	}
	host, err := HostArrayFromValues([]uintptr{uintptr(len(rows)), 2}, values)
	require.NoError(t, err)
	l, err := NewArrayLabels(names, host, checked)
	require.NoError(t, err)
	return l
}

// naiveMerge is mergeSamples the slow way: it gathers every row of every block (followed by
// the block's key when appendKeys is set), keeps the first of equal rows (then sorts them when
// asked), and gives where each row went.
func naiveMerge(t *testing.T, group []keyedBlock, appendKeys, sortSamples bool) ([][]int32, [][]int) {
	var unique [][]int32
	mappings := make([][]int, len(group))
	for b, member := range group {
		for _, row := range labelsRows(t, member.block.samples) {
			if appendKeys {
				row = append(row, member.key...)
			}
			position := slices.IndexFunc(unique, func(u []int32) bool { return slices.Equal(u, row) })
			if position < 0 {
				position = len(unique)
				unique = append(unique, row)
			}
			mappings[b] = append(mappings[b], position)
		}
	}
	if sortSamples {
		sorted := slices.Clone(unique)
		slices.SortFunc(sorted, slices.Compare[[]int32])
		for _, mapping := range mappings {
			for i, old := range mapping {
				mapping[i] = slices.IndexFunc(sorted, func(u []int32) bool { return slices.Equal(u, unique[old]) })
			}
		}
		unique = sorted
	}
	return unique, mappings
}

// TestKeysToLabelsOnUserArrays runs both operations on a map whose every labels live in user
// arrays: every labels the operation makes goes through from_dlpack, and is destroyed with
// the result, or at once when a callback fails later.
func TestKeysToLabelsOnUserArrays(t *testing.T) {
	for _, samples := range []bool{false, true} {
		run := ktSortedMove(t, samples)

		calls, labelCalls := newKtCalls(), newKtCalls()
		tensor := ktFixtureWith(t, calls, labelCalls)
		fill, _ := ktFill(t, math.NaN())
		result, err := run(tensor, fill)
		require.NoError(t, err)
		// New keys, then per group: samples, properties (keys_to_properties) or one per union
		// (keys_to_samples: only the last group has two blocks), gradient samples.
		made := 1 + 3*3
		if samples {
			made = 1 + 3*2 + 1
		}
		assert.Equal(t, made, labelCalls.fromDLPack, "samples=%v", samples)
		assert.Len(t, labelCalls.live, made)
		assert.IsType(t, &ktArray{}, result.keys.Array())
		for _, block := range result.blocks {
			assert.IsType(t, &ktArray{}, block.samples.Array())
			assert.IsType(t, &ktArray{}, block.properties.Array())
			assert.IsType(t, &ktArray{}, block.gradient("parameter").samples.Array())
		}
		if samples {
			assert.Equal(t, [][]int32{{1, 1}, {4, -2}, {5, 3}}, labelsRows(t, result.blocks[2].gradient("parameter").samples))
		} else {
			assert.Equal(t, [][]int32{{0, 0}, {1, 3}, {1, 4}, {1, 5}}, labelsRows(t, result.blocks[0].properties))
		}
		result.Free()
		assert.Empty(t, labelCalls.live)
		assert.Zero(t, labelCalls.doubleDestroys)
		tensor.Free()

		for n := 1; n <= made; n++ {
			calls, labelCalls := newKtCalls(), newKtCalls()
			tensor := ktFixtureWith(t, calls, labelCalls)
			state := ktSnapshot(t, tensor)
			labelCalls.failFromDLPack = n
			fill, fillCalls := ktFill(t, 0)
			result, err := run(tensor, fill)
			require.Error(t, err, "samples=%v n=%d", samples, n)
			assert.Nil(t, result)
			var e *Error
			require.True(t, errors.As(err, &e))
			assert.Equal(t, CallbackError, e.Status)
			assert.Equal(t, 1, fillCalls.destroys)
			assert.Empty(t, calls.live, "samples=%v n=%d", samples, n)
			assert.Empty(t, labelCalls.live, "samples=%v n=%d", samples, n)
			assert.Zero(t, calls.doubleDestroys+labelCalls.doubleDestroys)
			state.check(t)
			tensor.Free()
		}

		for n := 1; n <= 8; n++ {
			calls, labelCalls := newKtCalls(), newKtCalls()
			tensor := ktFixtureWith(t, calls, labelCalls)
			calls.failMove = n
			fill, _ := ktFill(t, 0)
			_, err := run(tensor, fill)
			require.Error(t, err)
			assert.Empty(t, calls.live)
			assert.Empty(t, labelCalls.live, "samples=%v move n=%d", samples, n)
			tensor.Free()
		}
	}
}
