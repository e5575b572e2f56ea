package core

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The model of the sample reductions works element by element on plain rows, with the
// formulas of metatensor-operations written out.

// modelBlock is a block in plain Go: samples rows, values with inner elements per sample, a
// "positions" gradient whose rows start with the sample, and gradient values with gInner
// elements per row (3 times inner).
type modelBlock struct {
	samples  [][]int32
	values   []float64
	inner    int
	gSamples [][]int32
	gValues  []float64
	gInner   int
}

// modelReduced is the model's result: the new samples and values, and the new gradient.
type modelReduced struct {
	samples  [][]int32
	values   []float64
	gSamples [][]int32
	gValues  []float64
}

// sortedGroups gives the distinct keys, sorted, and for each the rows that have it.
func sortedGroups(keys [][]int32) ([][]int32, [][]int) {
	var distinct [][]int32
	for _, k := range keys {
		if !slices.ContainsFunc(distinct, func(d []int32) bool { return slices.Equal(d, k) }) {
			distinct = append(distinct, k)
		}
	}
	slices.SortFunc(distinct, slices.Compare)
	members := make([][]int, len(distinct))
	for i, k := range keys {
		g := slices.IndexFunc(distinct, func(d []int32) bool { return slices.Equal(d, k) })
		members[g] = append(members[g], i)
	}
	return distinct, members
}

func modelReduce(m modelBlock, keep []int, op SampleReduction, ignoreNaN bool) modelReduced {
	keys := make([][]int32, len(m.samples))
	for i, s := range m.samples {
		for _, c := range keep {
			keys[i] = append(keys[i], s[c])
		}
	}
	samples, members := sortedGroups(keys)
	groupOf := make([]int, len(m.samples))
	for g, ms := range members {
		for _, i := range ms {
			groupOf[i] = g
		}
	}
	out := modelReduced{samples: samples}
	mean := make([]float64, len(samples)*m.inner)
	spread := make([]float64, len(samples)*m.inner)
	selected := make([]int, len(samples)*m.inner)
	for g, ms := range members {
		for j := range m.inner {
			var sum, squares float64
			pick := ms[0]
			for _, i := range ms {
				sum += m.values[i*m.inner+j]
			}
			c := float64(len(ms))
			for _, i := range ms {
				v := m.values[i*m.inner+j]
				squares += (v - sum/c) * (v - sum/c)
				best := m.values[pick*m.inner+j]
				better := (op == SamplesMax && v > best) || (op == SamplesMin && v < best)
				if ignoreNaN && v == v && (best != best || better) || !ignoreNaN && best == best && (v != v || better) {
					pick = i
				}
			}
			mean[g*m.inner+j] = sum / c
			variance := squares / c
			spread[g*m.inner+j] = math.Sqrt(variance)
			selected[g*m.inner+j] = pick
			result := map[SampleReduction]float64{
				SamplesSum: sum, SamplesMean: sum / c, SamplesVar: variance, SamplesStd: math.Sqrt(variance),
				SamplesMax: m.values[pick*m.inner+j], SamplesMin: m.values[pick*m.inner+j],
			}[op]
			out.values = append(out.values, result)
		}
	}

	gKeys := make([][]int32, len(m.gSamples))
	for i, s := range m.gSamples {
		gKeys[i] = append([]int32{int32(groupOf[s[0]])}, s[1:]...)
	}
	gSamples, gMembers := sortedGroups(gKeys)
	out.gSamples = gSamples
	for r, ms := range gMembers {
		s := int(gSamples[r][0])
		for j := range m.gInner {
			x := j % m.inner
			var sum, sumGX, picked float64
			for _, i := range ms {
				old := int(m.gSamples[i][0])
				gv := m.gValues[i*m.gInner+j]
				sum += gv
				sumGX += gv * m.values[old*m.inner+x]
				if selected[s*m.inner+x] == old {
					picked += gv
				}
			}
			c := float64(len(ms))
			d := sumGX/c - (sum/c)*mean[s*m.inner+x]
			q := d / spread[s*m.inner+x]
			if math.IsNaN(q) || math.IsInf(q, 0) {
				q = 0
			}
			result := map[SampleReduction]float64{
				SamplesSum: sum, SamplesMean: sum / c, SamplesVar: 2 * d, SamplesStd: q,
				SamplesMax: picked, SamplesMin: picked,
			}[op]
			out.gValues = append(out.gValues, result)
		}
	}
	return out
}

// randomModelBlock makes a block of unsorted samples (structure, atom, spin), one component
// of size 2, 3 properties and a positions gradient on a random subset of samples and atoms.
// Values are small integers (to get ties) with some NaN when nan is set.
func randomModelBlock(rng *rand.Rand, nan bool) modelBlock {
	m := modelBlock{inner: 2 * 3, gInner: 3 * 2 * 3}
	seen := map[[3]int32]bool{}
	for range 1 + rng.IntN(30) {
		row := [3]int32{rng.Int32N(4), rng.Int32N(5), rng.Int32N(2)}
		if !seen[row] {
			seen[row] = true
			m.samples = append(m.samples, row[:])
		}
	}
	value := func() float64 {
		if nan && rng.IntN(10) == 0 {
			return math.NaN()
		}
		if rng.IntN(2) == 0 {
			return float64(rng.IntN(5))
		}
		return rng.NormFloat64()
	}
	for range len(m.samples) * m.inner {
		m.values = append(m.values, value())
	}
	for s := range m.samples {
		for atom := range int32(3) {
			if rng.IntN(2) == 0 {
				m.gSamples = append(m.gSamples, []int32{int32(s), m.samples[s][0], atom})
				for range m.gInner {
					m.gValues = append(m.gValues, value())
				}
			}
		}
	}
	rng.Shuffle(len(m.gSamples), func(i, j int) {
		m.gSamples[i], m.gSamples[j] = m.gSamples[j], m.gSamples[i]
		for k := range m.gInner {
			m.gValues[i*m.gInner+k], m.gValues[j*m.gInner+k] = m.gValues[j*m.gInner+k], m.gValues[i*m.gInner+k]
		}
	})
	return m
}

// coreBlock builds the block of a model, in the dtype of T.
func coreBlock[T Reducible](t testing.TB, m modelBlock) *Block {
	t.Helper()
	convert := func(values []float64) []T {
		out := make([]T, len(values))
		for i, v := range values {
			out[i] = T(v)
		}
		return out
	}
	samples := rowsLabels(t, []string{"structure", "atom", "spin"}, m.samples...)
	component := rangeLabels(t, "c", 2)
	properties := rangeLabels(t, "p", 3)
	values, err := HostArrayFromValues([]uintptr{uintptr(len(m.samples)), 2, 3}, convert(m.values))
	require.NoError(t, err)
	component.Retain()
	properties.Retain()
	block := blockOwningLabels(t, values, samples, []*ArrayLabels{component}, properties)

	gSamples := rowsLabels(t, []string{"sample", "structure", "atom"}, m.gSamples...)
	xyz := rangeLabels(t, "xyz", 3)
	gValues, err := HostArrayFromValues([]uintptr{uintptr(len(m.gSamples)), 3, 2, 3}, convert(m.gValues))
	require.NoError(t, err)
	require.NoError(t, block.AddGradient("positions", blockOwningLabels(t, gValues, gSamples, []*ArrayLabels{xyz, component}, properties)))
	return block
}

// requireSameAsModel compares a reduced block with the model, values in the dtype of T.
func requireSameAsModel[T Reducible](t *testing.T, got *Block, want modelReduced) {
	t.Helper()
	require.Equal(t, []string{"structure", "spin"}, got.Samples().Names())
	require.Equal(t, want.samples, nonNil(labelsRows(t, got.Samples())))
	requireSameElements[T](t, want.values, got.Values())
	gradient, err := got.Gradient("positions")
	require.NoError(t, err)
	require.Equal(t, want.gSamples, nonNil(labelsRows(t, gradient.Samples())))
	requireSameElements[T](t, want.gValues, gradient.Values())
}

// nonNil makes an empty list of rows comparable with the model's nil.
func nonNil(rows [][]int32) [][]int32 {
	if len(rows) == 0 {
		return nil
	}
	return rows
}

func requireSameElements[T Reducible](t *testing.T, want []float64, array Array) {
	t.Helper()
	values, err := HostValues[T](array.(*HostArray))
	require.NoError(t, err)
	converted := make([]T, len(want))
	for i, v := range want {
		converted[i] = T(v)
	}
	require.True(t, sameValues(values, converted), "got %v\nwant %v", values, converted)
}

// forModelReductions calls check with every reduction on trials random model blocks, one in
// three with NaN, and with max and min ignoring NaN.
func forModelReductions(t *testing.T, trials int, check func(m modelBlock, op SampleReduction, ignoreNaN bool)) {
	rng := rand.New(rand.NewPCG(21, 5))
	for trial := range trials {
		m := randomModelBlock(rng, trial%3 == 0)
		for _, op := range []SampleReduction{SamplesSum, SamplesMean, SamplesVar, SamplesStd, SamplesMax, SamplesMin} {
			check(m, op, false)
		}
		check(m, SamplesMax, true)
		check(m, SamplesMin, true)
	}
}

func TestReduceOverSamplesModel(t *testing.T) {
	forModelReductions(t, 200, func(m modelBlock, op SampleReduction, ignoreNaN bool) {
		block := coreBlock[float64](t, m)
		got, err := block.ReduceOverSamples([]string{"atom"}, op, ignoreNaN)
		require.NoError(t, err, "%s", op)
		requireSameAsModel[float64](t, got, modelReduce(m, []int{0, 2}, op, ignoreNaN))
		got.Free()
		block.Free()
	})
}

func TestReduceOverSamplesIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 6))
	for range 50 {
		m := randomModelBlock(rng, false)
		for i, v := range m.values {
			m.values[i] = math.Round(v * 10)
		}
		for i, v := range m.gValues {
			m.gValues[i] = math.Round(v * 10)
		}
		for _, op := range []SampleReduction{SamplesSum, SamplesMax, SamplesMin} {
			checkIntegerReduction[int32](t, m, op)
			checkIntegerReduction[int64](t, m, op)
		}
	}
}

// checkIntegerReduction compares the reduction of the block of m in integers of type T with
// the model.
func checkIntegerReduction[T Reducible](t *testing.T, m modelBlock, op SampleReduction) {
	t.Helper()
	block := coreBlock[T](t, m)
	defer block.Free()
	got, err := block.ReduceOverSamples([]string{"atom"}, op, false)
	require.NoError(t, err)
	defer got.Free()
	requireSameAsModel[T](t, got, modelReduce(m, []int{0, 2}, op, false))
}

// TestReduceOverSamplesDocumentedExample is the example of metatensor-operations'
// sum_over_samples_block.
func TestReduceOverSamplesDocumentedExample(t *testing.T) {
	samples := rowsLabels(t, []string{"structure", "center"}, []int32{0, 0}, []int32{0, 1}, []int32{1, 0}, []int32{1, 1})
	block := newTestBlock(t, []float64{1, 2, 4, 3, 5, 6, 7, 8, 9, 10, 11, 12}, samples, nil, rangeLabels(t, "properties", 3))
	defer block.Free()
	tensor := singleBlockTensor(t, "key", block.mustCopy(t))
	defer tensor.Free()
	reduced, err := tensor.ReduceOverSamples([]string{"center"}, SamplesSum, false)
	require.NoError(t, err)
	defer reduced.Free()
	out := reduced.Blocks()[0]
	require.Equal(t, [][]int32{{0}, {1}}, labelsRows(t, out.Samples()))
	require.Equal(t, []float64{4, 7, 10, 17, 19, 21}, f64Values(t, out.Values()))
	require.Equal(t, [][]int32{{0}}, labelsRows(t, reduced.Keys()))
}

func (b *Block) mustCopy(t testing.TB) *Block {
	t.Helper()
	c, err := b.Copy()
	require.NoError(t, err)
	return c
}

// deviceArray claims its data lives on a GPU.
type deviceArray struct{ *HostArray }

func (deviceArray) Device() (Device, error) { return Device{Type: DeviceCUDA, ID: 0}, nil }

func TestReduceOverSamplesErrors(t *testing.T) {
	m := randomModelBlock(rand.New(rand.NewPCG(1, 2)), false)
	block := coreBlock[float64](t, m)
	defer block.Free()
	for _, c := range []struct {
		names   []string
		op      SampleReduction
		message string
	}{
		{[]string{"center"}, SamplesSum, "invalid parameter: 'center' is not one of the sample dimensions (structure, atom, spin)"},
		{[]string{"structure", "atom", "spin"}, SamplesSum, "invalid parameter: can not remove every sample dimension (structure, atom, spin): at least one must remain"},
		{[]string{"atom"}, SampleReduction(17), "invalid parameter: unknown reduction over samples 17"},
	} {
		_, err := block.ReduceOverSamples(c.names, c.op, false)
		require.EqualError(t, err, c.message)
	}

	integers := coreBlock[int32](t, m)
	defer integers.Free()
	for _, op := range []SampleReduction{SamplesMean, SamplesVar, SamplesStd} {
		_, err := integers.ReduceOverSamples([]string{"atom"}, op, false)
		require.EqualError(t, err, "invalid parameter: can not take the "+op.String()+" over samples of i32 values: it needs floating point values")
	}

	bytes, err := NewHostArray(DType{Code: CodeUInt, Bits: 8, Lanes: 1}, []uintptr{2, 1})
	require.NoError(t, err)
	u8 := blockOwningLabels(t, bytes, rowsLabels(t, []string{"s", "t"}, []int32{0, 0}, []int32{0, 1}), nil, rangeLabels(t, "p", 1))
	defer u8.Free()
	_, err = u8.ReduceOverSamples([]string{"t"}, SamplesSum, false)
	require.EqualError(t, err, "invalid parameter: can not reduce over samples values of dtype u8: only f64, f32, i64 and i32 are supported")

	var nilBlock *Block
	_, err = nilBlock.ReduceOverSamples([]string{"s"}, SamplesSum, false)
	require.EqualError(t, err, "invalid parameter: got invalid NULL pointer for block")

	tensor := singleBlockTensor(t, "key", block.mustCopy(t))
	defer tensor.Free()
	_, err = tensor.ReduceOverSamples([]string{"center"}, SamplesMax, false)
	require.EqualError(t, err, "invalid parameter: 'center' is not one of the sample dimensions (structure, atom, spin)")

	for _, op := range []SampleReduction{SamplesSum, SamplesMean, SamplesVar, SamplesStd} {
		_, err := block.ReduceOverSamples([]string{"atom"}, op, true)
		require.EqualError(t, err, "invalid parameter: ignore_nan only applies to max and min, not to "+op.String())
	}
}

func TestReduceOverSamplesNotOnCPU(t *testing.T) {
	onDevice := func(names []string, rows ...[]int32) *ArrayLabels {
		values := slices.Concat(rows...)
		array, err := HostArrayFromValues([]uintptr{uintptr(len(rows)), uintptr(len(names))}, values)
		require.NoError(t, err)
		labels, err := NewArrayLabels(names, deviceArray{array}, true)
		require.NoError(t, err)
		return labels
	}
	values := f64Array(t, []uintptr{2, 1}, []float64{1, 2})
	block := blockOwningLabels(t, deviceArray{values},
		onDevice([]string{"a", "b"}, []int32{0, 0}, []int32{0, 1}), nil, onDevice([]string{"p"}, []int32{0}))
	defer block.Free()
	_, err := block.ReduceOverSamples([]string{"b"}, SamplesSum, false)
	require.EqualError(t, err, "invalid parameter: can not reduce over samples data on CUDA:0: only data on the CPU is supported")
}

// TestReduceOverSamplesConcurrent reduces one tensor map from several goroutines at once
// (meant for -race): the inputs are only read. With small thresholds, every reduction also
// splits its rows between goroutines and the results go through the recycled buffers, which
// the goroutines then share.
func TestReduceOverSamplesConcurrent(t *testing.T) {
	for _, small := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "small thresholds"}[small], func(t *testing.T) {
			if small {
				withSmallThresholds(t)
			}
			m := randomModelBlock(rand.New(rand.NewPCG(3, 4)), false)
			tensor := singleBlockTensor(t, "key", coreBlock[float64](t, m))
			defer tensor.Free()
			var wg sync.WaitGroup
			for w := range 12 {
				op := SampleReduction(w % 6)
				want := modelReduce(m, []int{0, 2}, op, false)
				wg.Go(func() {
					for range 10 {
						reduced, err := tensor.ReduceOverSamples([]string{"atom"}, op, false)
						if err != nil {
							t.Error(err)
							return
						}
						if !sameAsModel(reduced.Blocks()[0], want) {
							t.Errorf("%s: concurrent result differs from the model", op)
						}
						reduced.Free()
					}
				})
			}
			wg.Wait()
		})
	}
}

// sameAsModel tells whether the values of a reduced block and of its gradient are the model's
// (requireSameAsModel, without require, for goroutines).
func sameAsModel(block *Block, want modelReduced) bool {
	values, err := HostValues[float64](block.Values().(*HostArray))
	if err != nil || !sameValues(values, want.values) {
		return false
	}
	gradient, err := block.Gradient("positions")
	if err != nil {
		return false
	}
	gValues, err := HostValues[float64](gradient.Values().(*HostArray))
	return err == nil && sameValues(gValues, want.gValues)
}

// TestReduceOverSamplesEmpty reduces a block without samples: no samples remain, with the
// kept names, and the gradient stays empty.
func TestReduceOverSamplesEmpty(t *testing.T) {
	block := coreBlock[float64](t, modelBlock{inner: 6, gInner: 18})
	defer block.Free()
	for _, op := range []SampleReduction{SamplesSum, SamplesMean, SamplesVar, SamplesStd, SamplesMax, SamplesMin} {
		got, err := block.ReduceOverSamples([]string{"atom"}, op, false)
		require.NoError(t, err)
		requireSameAsModel[float64](t, got, modelReduced{})
		shape, err := got.Values().Shape()
		require.NoError(t, err)
		require.Equal(t, []uintptr{0, 2, 3}, shape)
		got.Free()
	}
}
