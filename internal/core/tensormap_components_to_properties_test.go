package core

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// c2pArrays follows every c2pArray of one test: the calls made to their members (all arrays
// together), the failures to inject, and how often each array was destroyed.
type c2pArrays struct {
	mu    sync.Mutex
	made  []*c2pArray
	calls map[string]int
	fail  map[string]c2pFailure
}

// c2pFailure makes the call number at of a member fail with err.
type c2pFailure struct {
	at  int
	err error
}

func newC2PArrays() *c2pArrays {
	return &c2pArrays{calls: map[string]int{}, fail: map[string]c2pFailure{}}
}

// c2pArray wraps an Array, counting the calls to its members and failing when asked to.
type c2pArray struct {
	inner    Array
	arrays   *c2pArrays
	destroys int // guarded by arrays.mu
}

func (s *c2pArrays) wrap(inner Array) *c2pArray {
	a := &c2pArray{inner: inner, arrays: s}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.made = append(s.made, a)
	return a
}

func (s *c2pArrays) call(member string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[member]++
	if f, ok := s.fail[member]; ok && f.at == s.calls[member] {
		return f.err
	}
	return nil
}

// failOn makes the n-th call of member from now on fail, and gives the error it will return.
func (s *c2pArrays) failOn(member string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := Errorf(InvalidParameterError, "injected failure of %s number %d", member, n)
	s.fail[member] = c2pFailure{at: s.calls[member] + n, err: err}
	return err
}

func (s *c2pArrays) count(member string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[member]
}

// requireDestroyedOnce checks that every array made so far was destroyed exactly once.
func (s *c2pArrays) requireDestroyedOnce(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.made)
	for i, a := range s.made {
		require.Equal(t, 1, a.destroys, "array %d of %d was destroyed %d times", i, len(s.made), a.destroys)
	}
}

func c2pUnwrap(a Array) Array {
	if w, ok := a.(*c2pArray); ok {
		return w.inner
	}
	return a
}

func (a *c2pArray) Origin() (Origin, error) {
	if err := a.arrays.call("origin"); err != nil {
		return 0, err
	}
	return a.inner.Origin()
}

func (a *c2pArray) Device() (Device, error) {
	if err := a.arrays.call("device"); err != nil {
		return Device{}, err
	}
	return a.inner.Device()
}

func (a *c2pArray) DType() (DType, error) {
	if err := a.arrays.call("dtype"); err != nil {
		return DType{}, err
	}
	return a.inner.DType()
}

func (a *c2pArray) AsDLPack(device Device, stream *int64, maxVersion DLPackVersion) (*Tensor, error) {
	if err := a.arrays.call("as_dlpack"); err != nil {
		return nil, err
	}
	return a.inner.AsDLPack(device, stream, maxVersion)
}

func (a *c2pArray) FromDLPack(tensor *Tensor) (Array, error) {
	if err := a.arrays.call("from_dlpack"); err != nil {
		tensor.Release() // the tensor is ours whatever happens
		return nil, err
	}
	created, err := a.inner.FromDLPack(tensor)
	if err != nil {
		return nil, err
	}
	return a.arrays.wrap(created), nil
}

func (a *c2pArray) Shape() ([]uintptr, error) {
	if err := a.arrays.call("shape"); err != nil {
		return nil, err
	}
	return a.inner.Shape()
}

func (a *c2pArray) Reshape(shape []uintptr) error {
	if err := a.arrays.call("reshape"); err != nil {
		return err
	}
	return a.inner.Reshape(shape)
}

func (a *c2pArray) SwapAxes(axis1, axis2 uintptr) error {
	if err := a.arrays.call("swap_axes"); err != nil {
		return err
	}
	return a.inner.SwapAxes(axis1, axis2)
}

func (a *c2pArray) Create(shape []uintptr, fill Array) (Array, error) {
	if err := a.arrays.call("create"); err != nil {
		return nil, err
	}
	created, err := a.inner.Create(shape, c2pUnwrap(fill))
	if err != nil {
		return nil, err
	}
	return a.arrays.wrap(created), nil
}

func (a *c2pArray) Copy(device Device) (Array, error) {
	if err := a.arrays.call("copy"); err != nil {
		return nil, err
	}
	copied, err := a.inner.Copy(device)
	if err != nil {
		return nil, err
	}
	return a.arrays.wrap(copied), nil
}

func (a *c2pArray) MoveData(input Array, movements []DataMovement) error {
	if err := a.arrays.call("move_data"); err != nil {
		return err
	}
	return a.inner.MoveData(c2pUnwrap(input), movements)
}

func (a *c2pArray) Destroy() {
	_ = a.arrays.call("destroy")
	a.arrays.mu.Lock()
	a.destroys++
	first := a.destroys == 1
	a.arrays.mu.Unlock()
	if first {
		a.inner.Destroy()
	}
}

// labels makes checked labels whose values are a wrapped int32 HostArray, so that labels built
// like them go through FromDLPack.
func (s *c2pArrays) labels(t testing.TB, names []string, rows ...[]int32) *ArrayLabels {
	t.Helper()
	for _, row := range rows {
		require.Len(t, row, len(names))
	}
	return wrappedLabels(t, names, rows, func(host *HostArray) Array { return s.wrap(host) })
}

// block makes a block of wrapped float64 values (nil for 0, 1, 2...), then drops the test's
// references to the labels.
func (s *c2pArrays) block(t testing.TB, values []float64, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels) *Block {
	t.Helper()
	shape := labelsShape(samples, components, properties)
	if values == nil {
		n := 1
		for _, d := range shape {
			n *= int(d)
		}
		values = make([]float64, n)
		for i := range values {
			values[i] = float64(i)
		}
	}
	return blockOwningLabels(t, s.wrap(f64Array(t, shape, values)), samples, components, properties)
}

// c2pLabelsKind makes the labels of a fixture: in the library's own array, or in wrapped user
// arrays.
type c2pLabelsKind struct {
	name    string
	wrapped bool
}

var c2pKinds = []c2pLabelsKind{{"library labels", false}, {"user labels", true}}

func (k c2pLabelsKind) make(t testing.TB, s *c2pArrays, names []string, rows ...[]int32) *ArrayLabels {
	t.Helper()
	if k.wrapped {
		return s.labels(t, names, rows...)
	}
	return rowsLabels(t, names, rows...)
}

func c2pColumn(values ...int32) [][]int32 {
	rows := make([][]int32, len(values))
	for i, v := range values {
		rows[i] = []int32{v}
	}
	return rows
}

// c2pTensor builds a tensor map of two blocks with components [a, b] and properties [p, q].
// Each block has a gradient "g" with components [x, a, b], which has its own gradient "h" with
// components [y, x, a, b]. Every value differs from every other.
func c2pTensor(t testing.TB, s *c2pArrays, kind c2pLabelsKind) *TensorMap {
	t.Helper()
	label := func(names []string, rows [][]int32) *ArrayLabels {
		return kind.make(t, s, names, rows...)
	}
	blocks := make([]*Block, 2)
	for k := range blocks {
		off := int32(10 * k)
		samples := 2 + k
		properties := 2 + k
		aRows := c2pColumn(off, off+1)
		bRows := c2pColumn(off+5, off+3, off+4) // not sorted on purpose
		xRows := c2pColumn(-1, 7)
		yRows := c2pColumn(2, 1)
		propertyRows := make([][]int32, properties)
		for i := range propertyRows {
			propertyRows[i] = []int32{int32(k), int32(100 + i)}
		}
		sampleRows := make([][]int32, samples)
		for i := range sampleRows {
			sampleRows[i] = []int32{int32(i + 3*k)}
		}

		values := func(shape []int, offset float64) []float64 {
			n := 1
			for _, d := range shape {
				n *= d
			}
			out := make([]float64, n)
			for i := range out {
				out[i] = offset + float64(i)
			}
			return out
		}
		base := 10000 * float64(k)

		block := s.block(t, values([]int{samples, 2, 3, properties}, base),
			label([]string{"s"}, sampleRows),
			[]*ArrayLabels{label([]string{"a"}, aRows), label([]string{"b"}, bRows)},
			label([]string{"p", "q"}, propertyRows))

		gradientSamples := [][]int32{{0, 0}, {0, 1}, {int32(samples - 1), 2}}
		g := s.block(t, values([]int{3, 2, 2, 3, properties}, base+1000),
			label([]string{"sample", "atom"}, gradientSamples),
			[]*ArrayLabels{label([]string{"x"}, xRows), label([]string{"a"}, aRows), label([]string{"b"}, bRows)},
			label([]string{"p", "q"}, propertyRows))

		h := s.block(t, values([]int{2, 2, 2, 2, 3, properties}, base+5000),
			label([]string{"sample"}, c2pColumn(0, 2)),
			[]*ArrayLabels{
				label([]string{"y"}, yRows), label([]string{"x"}, xRows),
				label([]string{"a"}, aRows), label([]string{"b"}, bRows),
			},
			label([]string{"p", "q"}, propertyRows))

		require.NoError(t, g.AddGradient("h", h))
		require.NoError(t, block.AddGradient("g", g))
		blocks[k] = block
	}
	keys := label([]string{"key"}, c2pColumn(0, 1))
	tensor, err := NewTensorMap(keys, blocks)
	require.NoError(t, err)
	keys.Release()
	return tensor
}

// c2pBlockModel is what a block holds, read back as plain Go values.
type c2pBlockModel struct {
	values        []float64
	shape         []int
	components    []string
	componentRows [][][]int32
	propertyNames []string
	propertyRows  [][]int32
	gradients     []c2pGradientModel
}

type c2pGradientModel struct {
	parameter string
	block     c2pBlockModel
}

func c2pSnapshot(t testing.TB, b *Block) c2pBlockModel {
	t.Helper()
	shape, err := b.values.Shape()
	require.NoError(t, err)
	m := c2pBlockModel{
		values:        slices.Clone(f64Values(t, c2pUnwrap(b.values))),
		propertyNames: slices.Clone(b.properties.Names()),
		propertyRows:  labelsRows(t, b.properties),
		components:    []string{},
		componentRows: [][][]int32{},
	}
	for _, d := range shape {
		m.shape = append(m.shape, int(d))
	}
	for _, c := range b.components {
		require.Len(t, c.Names(), 1)
		m.components = append(m.components, c.Names()[0])
		m.componentRows = append(m.componentRows, labelsRows(t, c))
	}
	for _, g := range b.gradients {
		m.gradients = append(m.gradients, c2pGradientModel{g.Parameter, c2pSnapshot(t, g.Block)})
	}
	return m
}

// c2pModelMove moves axis of a row-major array to the front of its last axis, the way
// components_to_properties is meant to: out[..., k*P + p] = in[..., k (at axis), ..., p].
func c2pModelMove(values []float64, shape []int, axis int) ([]float64, []int) {
	last := len(shape) - 1
	outShape := slices.Delete(slices.Clone(shape), axis, axis+1)
	outShape[len(outShape)-1] = shape[axis] * shape[last]
	out := make([]float64, len(values))
	index := make([]int, len(shape))
	for flat, v := range values {
		rest := flat
		for d := last; d >= 0; d-- {
			index[d] = rest % shape[d]
			rest /= shape[d]
		}
		o := 0
		for d := range last {
			if d != axis {
				o = o*shape[d] + index[d]
			}
		}
		o = o*shape[axis]*shape[last] + index[axis]*shape[last] + index[last]
		out[o] = v
	}
	return out, outShape
}

// move gives the model of the block after moving the component name, gradients included.
func (m c2pBlockModel) move(t testing.TB, name string) c2pBlockModel {
	t.Helper()
	c := slices.Index(m.components, name)
	require.GreaterOrEqual(t, c, 0, "no component %s in the model", name)
	out := c2pBlockModel{
		components:    slices.Delete(slices.Clone(m.components), c, c+1),
		componentRows: slices.Delete(slices.Clone(m.componentRows), c, c+1),
		propertyNames: append([]string{name}, m.propertyNames...),
		propertyRows:  [][]int32{},
	}
	out.values, out.shape = c2pModelMove(m.values, m.shape, c+1)
	for _, componentRow := range m.componentRows[c] {
		for _, propertyRow := range m.propertyRows {
			out.propertyRows = append(out.propertyRows, append(slices.Clone(componentRow), propertyRow...))
		}
	}
	for _, g := range m.gradients {
		out.gradients = append(out.gradients, c2pGradientModel{g.parameter, g.block.move(t, name)})
	}
	return out
}

func c2pRequireBlock(t testing.TB, want c2pBlockModel, got *Block, path string) {
	t.Helper()
	have := c2pSnapshot(t, got)
	require.Equal(t, want.shape, have.shape, "%s: shape", path)
	require.Equal(t, want.values, have.values, "%s: values", path)
	require.Equal(t, want.components, have.components, "%s: component names", path)
	require.Equal(t, want.componentRows, have.componentRows, "%s: component entries", path)
	require.Equal(t, want.propertyNames, have.propertyNames, "%s: property names", path)
	require.Equal(t, want.propertyRows, have.propertyRows, "%s: property entries", path)
	require.Len(t, got.gradients, len(want.gradients), "%s: gradients", path)
	for i, g := range want.gradients {
		require.Equal(t, g.parameter, got.gradients[i].Parameter, "%s: gradient %d", path, i)
		c2pRequireBlock(t, g.block, got.gradients[i].Block, path+"/"+g.parameter)
	}
}

// c2pRequireLike checks that the properties of a block and its gradients were built like the
// old ones: in the library's array, or through the user array's FromDLPack.
func c2pRequireLike(t testing.TB, b *Block, wrapped bool) {
	t.Helper()
	if wrapped {
		require.IsType(t, &c2pArray{}, b.properties.Array())
	} else {
		require.IsType(t, &ReadOnlyLabelsValues{}, b.properties.Array())
	}
	require.EqualValues(t, 1, b.properties.references.Load(), "new properties belong to the block only")
	for _, g := range b.gradients {
		c2pRequireLike(t, g.Block, wrapped)
	}
}

// c2pAllLabels lists every labels of a tensor map: keys, then each block's, recursively.
func c2pAllLabels(tensor *TensorMap) []*ArrayLabels {
	all := []*ArrayLabels{tensor.keys}
	var visit func(b *Block)
	visit = func(b *Block) {
		all = append(all, b.samples)
		all = append(all, b.components...)
		all = append(all, b.properties)
		for _, g := range b.gradients {
			visit(g.Block)
		}
	}
	for _, b := range tensor.blocks {
		visit(b)
	}
	return all
}

// c2pInput is what a test records of a tensor before a call, to check afterwards that the
// call left the references to its labels as they were.
type c2pInput struct {
	tensor     *TensorMap
	labels     []*ArrayLabels
	references []int64
}

func c2pRecord(tensor *TensorMap) c2pInput {
	labels := c2pAllLabels(tensor)
	return c2pInput{tensor: tensor, labels: labels, references: c2pReferences(labels)}
}

// requireUnchangedThenFree requires the references as recorded, frees the tensor and requires
// every array of s destroyed exactly once.
func (in c2pInput) requireUnchangedThenFree(t testing.TB, s *c2pArrays) {
	t.Helper()
	require.Equal(t, in.references, c2pReferences(in.labels))
	in.tensor.Free()
	s.requireDestroyedOnce(t)
}

func c2pReferences(labels []*ArrayLabels) []int64 {
	out := make([]int64, len(labels))
	for i, l := range labels {
		out[i] = l.references.Load()
	}
	return out
}

func c2pMessage(t testing.TB, err error, status Status) string {
	t.Helper()
	require.Error(t, err)
	e, ok := err.(*Error)
	require.True(t, ok, "not an *Error: %T %v", err, err)
	require.Equal(t, status, e.Status, "%v", err)
	return e.Message
}

func TestComponentsToPropertiesSmallExamples(t *testing.T) {
	// One component: [1 sample, a = 0 1, p = 5 6].
	s := newC2PArrays()
	block := s.block(t, []float64{1, 2, 3, 4},
		rowsLabels(t, []string{"s"}, []int32{0}),
		[]*ArrayLabels{rowsLabels(t, []string{"a"}, []int32{0}, []int32{1})},
		rowsLabels(t, []string{"p"}, []int32{5}, []int32{6}))
	tensor := singleBlockTensor(t, "key", block)

	result, err := tensor.ComponentsToProperties([]string{"a"})
	require.NoError(t, err)
	got := result.blocks[0]
	require.Empty(t, got.components)
	require.Equal(t, []string{"a", "p"}, got.properties.Names())
	require.Equal(t, [][]int32{{0, 5}, {0, 6}, {1, 5}, {1, 6}}, labelsRows(t, got.properties))
	shape, err := got.values.Shape()
	require.NoError(t, err)
	require.Equal(t, []uintptr{1, 4}, shape)
	require.Equal(t, []float64{1, 2, 3, 4}, f64Values(t, c2pUnwrap(got.values)))
	result.Free()
	tensor.Free()
	s.requireDestroyedOnce(t)

	// Two components: [1 sample, a = 0 1, b = 0 1, p = 9], values a-major.
	s = newC2PArrays()
	block = s.block(t, []float64{1, 2, 3, 4},
		rowsLabels(t, []string{"s"}, []int32{0}),
		[]*ArrayLabels{
			rowsLabels(t, []string{"a"}, []int32{0}, []int32{1}),
			rowsLabels(t, []string{"b"}, []int32{0}, []int32{1}),
		},
		rowsLabels(t, []string{"p"}, []int32{9}))
	tensor = singleBlockTensor(t, "key", block)

	result, err = tensor.ComponentsToProperties([]string{"a"})
	require.NoError(t, err)
	got = result.blocks[0]
	require.Len(t, got.components, 1)
	require.Equal(t, []string{"b"}, got.components[0].Names())
	require.Equal(t, []string{"a", "p"}, got.properties.Names())
	require.Equal(t, [][]int32{{0, 9}, {1, 9}}, labelsRows(t, got.properties))
	// out[b][a] = in[a][b]
	require.Equal(t, []float64{1, 3, 2, 4}, f64Values(t, c2pUnwrap(got.values)))
	result.Free()

	result, err = tensor.ComponentsToProperties([]string{"a", "b"})
	require.NoError(t, err)
	got = result.blocks[0]
	require.Empty(t, got.components)
	require.Equal(t, []string{"b", "a", "p"}, got.properties.Names())
	require.Equal(t, [][]int32{{0, 0, 9}, {0, 1, 9}, {1, 0, 9}, {1, 1, 9}}, labelsRows(t, got.properties))
	shape, err = got.values.Shape()
	require.NoError(t, err)
	require.Equal(t, []uintptr{1, 4}, shape)
	require.Equal(t, []float64{1, 3, 2, 4}, f64Values(t, c2pUnwrap(got.values)))
	result.Free()

	result, err = tensor.ComponentsToProperties([]string{"b", "a"})
	require.NoError(t, err)
	got = result.blocks[0]
	require.Equal(t, []string{"a", "b", "p"}, got.properties.Names())
	require.Equal(t, []float64{1, 2, 3, 4}, f64Values(t, c2pUnwrap(got.values)))
	result.Free()

	tensor.Free()
	s.requireDestroyedOnce(t)
}

func TestComponentsToPropertiesAgainstModel(t *testing.T) {
	for _, kind := range c2pKinds {
		for _, dimensions := range [][]string{{"a"}, {"b"}, {"a", "b"}, {"b", "a"}} {
			t.Run(fmt.Sprintf("%s/%v", kind.name, dimensions), func(t *testing.T) {
				s := newC2PArrays()
				tensor := c2pTensor(t, s, kind)
				input := c2pRecord(tensor)

				want := make([]c2pBlockModel, len(tensor.blocks))
				for i, b := range tensor.blocks {
					want[i] = c2pSnapshot(t, b)
				}
				before := slices.Clone(want)
				for i := range want {
					for _, d := range dimensions {
						want[i] = want[i].move(t, d)
					}
				}

				swaps, reshapes, created := s.count("swap_axes"), s.count("reshape"), s.count("from_dlpack")
				result, err := tensor.ComponentsToProperties(dimensions)
				require.NoError(t, err)
				require.Same(t, tensor.keys, result.keys)
				require.Len(t, result.blocks, 2)
				for i, b := range result.blocks {
					c2pRequireBlock(t, want[i], b, fmt.Sprintf("block %d", i))
					c2pRequireLike(t, b, kind.wrapped)
				}
				// one swap, one reshape and (for user labels) one FromDLPack per name, per
				// block and per gradient, nested ones included
				calls := len(dimensions) * 2 * 3
				require.Equal(t, calls, s.count("swap_axes")-swaps)
				require.Equal(t, calls, s.count("reshape")-reshapes)
				if kind.wrapped {
					require.Equal(t, calls, s.count("from_dlpack")-created)
				}

				// the input did not change
				for i, b := range tensor.blocks {
					c2pRequireBlock(t, before[i], b, fmt.Sprintf("input block %d", i))
				}

				result.Free()
				input.requireUnchangedThenFree(t, s)
			})
		}
	}
}

func TestComponentsToPropertiesPrependsEachName(t *testing.T) {
	s := newC2PArrays()
	tensor := c2pTensor(t, s, c2pKinds[1])
	defer func() {
		tensor.Free()
		s.requireDestroyedOnce(t)
	}()

	result, err := tensor.ComponentsToProperties([]string{"a", "b"})
	require.NoError(t, err)
	defer result.Free()
	block := result.blocks[0]
	require.Equal(t, []string{"b", "a", "p", "q"}, block.properties.Names())
	// b is the slowest, then a, then the old properties
	rows := labelsRows(t, block.properties)
	require.Len(t, rows, 3*2*2)
	require.Equal(t, []int32{5, 0, 0, 100}, rows[0])
	require.Equal(t, []int32{5, 0, 0, 101}, rows[1])
	require.Equal(t, []int32{5, 1, 0, 100}, rows[2])
	require.Equal(t, []int32{3, 0, 0, 100}, rows[4])
	require.Equal(t, []int32{4, 1, 0, 101}, rows[11])

	g := block.gradients[0].Block
	require.Equal(t, "g", block.gradients[0].Parameter)
	require.Len(t, g.components, 1)
	require.Equal(t, []string{"x"}, g.components[0].Names())
	require.Equal(t, []string{"b", "a", "p", "q"}, g.properties.Names())
	h := g.gradients[0].Block
	require.Len(t, h.components, 2)
	require.Equal(t, []string{"y"}, h.components[0].Names())
	require.Equal(t, []string{"x"}, h.components[1].Names())
	require.Equal(t, []string{"b", "a", "p", "q"}, h.properties.Names())
	shape, err := h.values.Shape()
	require.NoError(t, err)
	require.Equal(t, []uintptr{2, 2, 2, 12}, shape)
}

// With three components, the reference's swap-then-reshape does not move the data as the labels
// say when the component is not one of the last two. We do what it does: these are the values
// metatensor-core 0.2.6 gives (Python, numpy arrays).
func TestComponentsToPropertiesThreeComponentsLikeReference(t *testing.T) {
	s := newC2PArrays()
	block := s.block(t, nil,
		rowsLabels(t, []string{"s"}, []int32{0}),
		[]*ArrayLabels{rangeLabels(t, "a", 2), rangeLabels(t, "b", 3), rangeLabels(t, "c", 4)},
		rowsLabels(t, []string{"p"}, []int32{7}))
	tensor := singleBlockTensor(t, "k", block)

	result, err := tensor.ComponentsToProperties([]string{"a"})
	require.NoError(t, err)
	got := result.blocks[0]
	require.Len(t, got.components, 2)
	require.Equal(t, []string{"b"}, got.components[0].Names())
	require.Equal(t, []string{"c"}, got.components[1].Names())
	require.Equal(t, [][]int32{{0, 7}, {1, 7}}, labelsRows(t, got.properties))
	shape, err := got.values.Shape()
	require.NoError(t, err)
	require.Equal(t, []uintptr{1, 3, 4, 2}, shape)
	reference := []float64{
		0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23,
	}
	require.Equal(t, reference, f64Values(t, c2pUnwrap(got.values)))
	// ... which is not the plain move of the axis
	moved, _ := c2pModelMove(f64Values(t, c2pUnwrap(block.values)), []int{1, 2, 3, 4, 1}, 1)
	require.NotEqual(t, moved, reference)

	result.Free()
	tensor.Free()
	s.requireDestroyedOnce(t)
}

func TestComponentsToPropertiesComponentNotFound(t *testing.T) {
	for _, kind := range c2pKinds {
		for _, tc := range []struct {
			dimensions []string
			missing    string
		}{
			{[]string{"nope"}, "nope"},
			{[]string{"a", "nope"}, "nope"},
			{[]string{"a", "a"}, "a"},
			{[]string{"x"}, "x"}, // a component of the gradients only
			{[]string{"p"}, "p"}, // a property
		} {
			t.Run(fmt.Sprintf("%s/%v", kind.name, tc.dimensions), func(t *testing.T) {
				s := newC2PArrays()
				tensor := c2pTensor(t, s, kind)
				input := c2pRecord(tensor)
				before := c2pSnapshot(t, tensor.blocks[0])

				result, err := tensor.ComponentsToProperties(tc.dimensions)
				require.Nil(t, result)
				require.Equal(t, "unable to find '"+tc.missing+"' in the components ",
					c2pMessage(t, err, InvalidParameterError))
				require.Equal(t, "invalid parameter: unable to find '"+tc.missing+"' in the components ", err.Error())

				c2pRequireBlock(t, before, tensor.blocks[0], "input block 0")
				input.requireUnchangedThenFree(t, s)
			})
		}
	}
}

func TestComponentsToPropertiesEmptyDimensions(t *testing.T) {
	s := newC2PArrays()
	tensor := c2pTensor(t, s, c2pKinds[1])
	input := c2pRecord(tensor)
	copies := s.count("copy")
	for _, dimensions := range [][]string{nil, {}} {
		result, err := tensor.ComponentsToProperties(dimensions)
		require.Nil(t, result)
		require.Equal(t, "at least one dimension must be given to components_to_properties, got none",
			c2pMessage(t, err, InvalidParameterError))
	}
	require.Equal(t, copies, s.count("copy"), "nothing is copied")
	input.requireUnchangedThenFree(t, s)
}

func TestComponentsToPropertiesNameAlreadyAProperty(t *testing.T) {
	s := newC2PArrays()
	block := s.block(t, nil,
		rowsLabels(t, []string{"s"}, []int32{0}),
		[]*ArrayLabels{rangeLabels(t, "x", 2)},
		rowsLabels(t, []string{"x"}, []int32{0}))
	tensor := singleBlockTensor(t, "k", block)
	input := c2pRecord(tensor)
	swaps := s.count("swap_axes")

	result, err := tensor.ComponentsToProperties([]string{"x"})
	require.Nil(t, result)
	// the reference's panic message, as metatensor-core 0.2.6 reports it
	require.Equal(t,
		`invalid labels in components_to_properties: InvalidParameter("label dimensions must be unique, got 'x' multiple times")`,
		c2pMessage(t, err, InternalError))
	require.Equal(t, swaps, s.count("swap_axes"), "the values are not touched")
	input.requireUnchangedThenFree(t, s)
}

func TestComponentsToPropertiesCallbackErrors(t *testing.T) {
	// With ["a", "b"] on the fixture: 6 arrays are copied, then every name calls Shape,
	// SwapAxes, Reshape and (user labels) FromDLPack once per block, gradient and nested
	// gradient: 12 calls of each.
	for _, tc := range []struct {
		member string
		n      int
	}{
		{"copy", 1}, {"copy", 4}, {"copy", 6},
		{"shape", 1}, {"shape", 3}, {"shape", 12},
		{"swap_axes", 1}, {"swap_axes", 2}, {"swap_axes", 3}, {"swap_axes", 5}, {"swap_axes", 12},
		{"reshape", 1}, {"reshape", 3}, {"reshape", 7},
		{"from_dlpack", 1}, {"from_dlpack", 3}, {"from_dlpack", 10},
	} {
		t.Run(fmt.Sprintf("%s#%d", tc.member, tc.n), func(t *testing.T) {
			s := newC2PArrays()
			tensor := c2pTensor(t, s, c2pKinds[1])
			input := c2pRecord(tensor)
			before := c2pSnapshot(t, tensor.blocks[1])

			injected := s.failOn(tc.member, tc.n)
			result, err := tensor.ComponentsToProperties([]string{"a", "b"})
			require.Nil(t, result)
			require.Same(t, injected, err, "the callback's error is returned as it is")

			c2pRequireBlock(t, before, tensor.blocks[1], "input block 1")
			input.requireUnchangedThenFree(t, s)
		})
	}
}

func TestComponentsToPropertiesKeepsInfoAndKeys(t *testing.T) {
	s := newC2PArrays()
	tensor := c2pTensor(t, s, c2pKinds[0])
	for _, kv := range [][2]string{{"zeta", "1"}, {"alpha", "2"}, {"mid", "3"}, {"zeta", "4"}} {
		require.NoError(t, tensor.Info().Set(kv[0], kv[1]))
	}
	result, err := tensor.ComponentsToProperties([]string{"b"})
	require.NoError(t, err)
	require.Equal(t, []string{"zeta", "alpha", "mid"}, result.Info().Keys())
	for key, value := range map[string]string{"zeta": "4", "alpha": "2", "mid": "3"} {
		got, ok := result.Info().Get(key)
		require.True(t, ok)
		require.Equal(t, value, got)
	}
	require.Same(t, tensor.keys, result.keys)
	require.EqualValues(t, 2, tensor.keys.references.Load())

	// the result is independent: setting info on it does not change the input
	require.NoError(t, result.Info().Set("new", "x"))
	require.Equal(t, []string{"zeta", "alpha", "mid"}, tensor.Info().Keys())

	result.Free()
	require.EqualValues(t, 1, tensor.keys.references.Load())
	tensor.Free()
	s.requireDestroyedOnce(t)
}

func TestComponentsToPropertiesDropsTheMovedComponents(t *testing.T) {
	s := newC2PArrays()
	tensor := c2pTensor(t, s, c2pKinds[1])
	block := tensor.blocks[0]
	a, b := block.components[0], block.components[1]
	properties := block.properties
	require.EqualValues(t, 1, a.references.Load())

	result, err := tensor.ComponentsToProperties([]string{"a"})
	require.NoError(t, err)
	// the copy shared the labels; the result keeps b only
	require.EqualValues(t, 1, a.references.Load())
	require.EqualValues(t, 2, b.references.Load())
	require.EqualValues(t, 1, properties.references.Load())
	require.Same(t, b, result.blocks[0].components[0])
	require.Same(t, block.samples, result.blocks[0].samples)
	require.NotSame(t, properties, result.blocks[0].properties)

	result.Free()
	require.EqualValues(t, 1, b.references.Load())
	tensor.Free()
	s.requireDestroyedOnce(t)
}

func TestComponentsToPropertiesEmptyCases(t *testing.T) {
	// no blocks: nothing to look for
	keys := rowsLabels(t, []string{"key"})
	tensor, err := NewTensorMap(keys, nil)
	require.NoError(t, err)
	keys.Release()
	result, err := tensor.ComponentsToProperties([]string{"anything"})
	require.NoError(t, err)
	require.Empty(t, result.blocks)
	result.Free()
	tensor.Free()

	// properties without entries
	for _, kind := range c2pKinds {
		s := newC2PArrays()
		block := s.block(t, nil,
			kind.make(t, s, []string{"s"}, []int32{0}, []int32{1}),
			[]*ArrayLabels{kind.make(t, s, []string{"a"}, []int32{4}, []int32{2}, []int32{3})},
			kind.make(t, s, []string{"p"}))
		keys := kind.make(t, s, []string{"k"}, []int32{0})
		tensor, err := NewTensorMap(keys, []*Block{block})
		require.NoError(t, err)
		keys.Release()

		result, err := tensor.ComponentsToProperties([]string{"a"})
		require.NoError(t, err, kind.name)
		got := result.blocks[0]
		require.Equal(t, []string{"a", "p"}, got.properties.Names())
		require.Equal(t, 0, got.properties.Count())
		shape, err := got.values.Shape()
		require.NoError(t, err)
		require.Equal(t, []uintptr{2, 0}, shape)
		result.Free()
		tensor.Free()
		s.requireDestroyedOnce(t)
	}
}
