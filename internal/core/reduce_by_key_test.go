package core

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// naiveByKey is the model of ReduceByKey: element by element, with the runs found by
// comparing each key with the previous one.
func naiveByKey[T Reducible](op Reduction, values []T, shape []int, axis int, keys []int64, ignoreNaN bool) ([]int64, []int64, []T, []int) {
	var runs [][]int
	var runKeys []int64
	for i, k := range keys {
		if i == 0 || keys[i-1] != k {
			runs = append(runs, nil)
			runKeys = append(runKeys, k)
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], i)
	}
	outer, inner := 1, 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	n := shape[axis]
	counts := make([]int64, len(runs))
	for r, members := range runs {
		counts[r] = int64(len(members))
	}
	var out []T
	var selected []int
	for o := range outer {
		for _, members := range runs {
			for j := range inner {
				at := func(i int) T { return values[(o*n+i)*inner+j] }
				switch op {
				case ReduceSum, ReduceMean:
					var sum T
					for _, i := range members {
						sum += at(i)
					}
					if op == ReduceMean {
						sum /= T(len(members))
					}
					out = append(out, sum)
				default:
					pick := members[0]
					for _, i := range members {
						v, best := at(i), at(pick)
						if ignoreNaN {
							if v != v {
								continue
							}
							if best != best {
								pick = i
								continue
							}
						} else {
							if best != best {
								break
							}
							if v != v {
								pick = i
								break
							}
						}
						if (op == ReduceMax && v > best) || (op == ReduceMin && v < best) {
							pick = i
						}
					}
					out = append(out, at(pick))
					selected = append(selected, pick)
				}
			}
		}
	}
	return runKeys, counts, out, selected
}

// sameValues compares element by element, NaN equal to NaN.
func sameValues[T Reducible](a, b []T) bool {
	return slices.EqualFunc(a, b, func(x, y T) bool { return x == y || (x != x && y != y) })
}

// checkByKey runs ReduceByKey against the model.
func checkByKey[T Reducible](t *testing.T, op Reduction, values []T, shape []int, axis int, keys []int64, ignoreNaN bool) {
	t.Helper()
	got, err := ReduceByKey(op, values, shape, axis, keys, ignoreNaN)
	if err != nil {
		t.Fatalf("%s over axis %d of %v: %v", op, axis, shape, err)
	}
	keysWant, counts, want, selected := naiveByKey(op, values, shape, axis, keys, ignoreNaN)
	wantShape := slices.Clone(shape)
	wantShape[axis] = len(keysWant)
	if !slices.Equal(got.Keys, keysWant) || !slices.Equal(got.Counts, counts) || !slices.Equal(got.Shape, wantShape) {
		t.Fatalf("%s over axis %d of %v: keys %v counts %v shape %v, want %v %v %v",
			op, axis, shape, got.Keys, got.Counts, got.Shape, keysWant, counts, wantShape)
	}
	if !sameValues(got.Values, want) || !slices.Equal(got.Selected, selected) {
		t.Fatalf("%s (ignoreNaN %v) over axis %d of %v, keys %v, values %v:\ngot  %v %v\nwant %v %v",
			op, ignoreNaN, axis, shape, keys, values, got.Values, got.Selected, want, selected)
	}
	if op == ReduceMax || op == ReduceMin {
		// without positions (a block without gradients), max and min take other loops, with
		// and without vector instructions: the same values to the bit, NaN and the sign of
		// zero included
		outer, n, inner, _ := splitAxis(shape, axis, len(values))
		groupOf, _ := keyRuns(keys)
		for _, vectors := range []bool{true, false} {
			foldVectors = vectors
			valuesOnly := make([]T, len(got.Values))
			err := reduceGroups(op, values, outer, n, inner, groupsOf(groupOf, len(got.Keys)), ignoreNaN, valuesOnly, nil)
			foldVectors = true
			require.NoError(t, err)
			if !bytes.Equal(bytesOf(valuesOnly), bytesOf(got.Values)) {
				t.Fatalf("%s (ignoreNaN %v) without positions (vectors %v) over axis %d of %v, keys %v, values %v:\ngot  %v\nwant %v",
					op, ignoreNaN, vectors, axis, shape, keys, values, valuesOnly, got.Values)
			}
		}
	}
}

// bytesOf views the memory of s.
func bytesOf[T Reducible](s []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*sizeOf[T]())
}

var allReductions = []Reduction{ReduceSum, ReduceMean, ReduceMax, ReduceMin}

func TestReduceByKeyArrayFireExample(t *testing.T) {
	keys := []int32{0, 0, 1, 1, 1, 0, 0, 2, 2}
	values := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8}
	got, err := ReduceByKey(ReduceSum, values, []int{9}, 0, keys, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Keys, []int32{0, 1, 0, 2}) || !slices.Equal(got.Values, []float64{1, 9, 11, 15}) ||
		!slices.Equal(got.Counts, []int64{2, 3, 2, 2}) {
		t.Fatalf("got %+v", got)
	}
	got, err = ReduceByKey(ReduceMax, values, []int{9}, 0, keys, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Values, []float64{1, 4, 6, 8}) || !slices.Equal(got.Selected, []int{1, 4, 6, 8}) {
		t.Fatalf("got %+v", got)
	}
}

func TestReduceByKeyTable(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name   string
		values []float64
		shape  []int
		keys   []int64
	}{
		{"empty", nil, []int{0}, nil},
		{"empty inner", nil, []int{3, 0}, []int64{1, 1, 2}},
		{"single", []float64{4}, []int{1}, []int64{7}},
		{"last axis", []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, []int64{5, 5, 1}},
		{"middle axis", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, []int{2, 3, 2}, []int64{0, 1, 1}},
		{"ties", []float64{2, 2, -1, -1}, []int{4}, []int64{0, 0, 0, 0}},
		{"nan first", []float64{nan, 1, 3, nan}, []int{4}, []int64{0, 0, 0, 0}},
		{"nan later", []float64{1, nan, 3, 0}, []int{4}, []int64{0, 0, 1, 1}},
		{"all nan", []float64{nan, nan, 2}, []int{3}, []int64{0, 0, 1}},
		{"infinities", []float64{math.Inf(-1), math.Inf(1), -1}, []int{3}, []int64{0, 0, 0}},
		{"negative zero", []float64{math.Copysign(0, -1), 1, math.Copysign(0, -1)}, []int{3}, []int64{0, 1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for axis := range c.shape {
				if len(c.keys) != c.shape[axis] {
					continue
				}
				for _, op := range allReductions {
					for _, ignore := range []bool{false, true} {
						checkByKey(t, op, c.values, c.shape, axis, c.keys, ignore)
						f32 := make([]float32, len(c.values))
						for i, v := range c.values {
							f32[i] = float32(v)
						}
						checkByKey(t, op, f32, c.shape, axis, c.keys, ignore)
					}
				}
			}
		})
	}
}

// TestReduceByKeySumStartsFromZero checks that a sum is 0 + the values, as a sum from zero
// is: -0 alone sums to +0.
func TestReduceByKeySumStartsFromZero(t *testing.T) {
	got, err := ReduceByKey(ReduceSum, []float64{math.Copysign(0, -1)}, []int{1}, 0, []int{0}, false)
	require.NoError(t, err)
	require.False(t, math.Signbit(got.Values[0]))
}

func TestReduceByKeyIntegers(t *testing.T) {
	values := []int64{math.MaxInt64, 1, -3, 7, 7, 2}
	keys := []int64{1, 1, 2, 2, 2, 3}
	for _, op := range []Reduction{ReduceSum, ReduceMax, ReduceMin} {
		checkByKey(t, op, values, []int{6}, 0, keys, false)
		i32 := []int32{5, -5, 0, 9, 9, 1}
		checkByKey(t, op, i32, []int{3, 2}, 0, keys[:3], false)
		checkByKey(t, op, i32, []int{2, 3}, 1, keys[:3], true)
	}
	_, err := ReduceByKey(ReduceMean, values, []int{6}, 0, keys, false)
	if err == nil || err.Error() != "invalid parameter: can not take the mean of integer values: reduce with a sum and divide by the counts" {
		t.Fatalf("mean of integers: %v", err)
	}
}

func TestReduceByKeyErrors(t *testing.T) {
	values := []float64{1, 2, 3, 4}
	for _, c := range []struct {
		shape   []int
		axis    int
		keys    []int
		message string
	}{
		{[]int{4}, 1, []int{0, 0, 0, 0}, "invalid parameter: invalid axis 1 for a reduction by key over an array with 1 axes"},
		{[]int{4}, -1, []int{0, 0, 0, 0}, "invalid parameter: invalid axis -1 for a reduction by key over an array with 1 axes"},
		{[]int{5}, 0, []int{0, 0, 0, 0, 0}, "invalid parameter: invalid values for a reduction by key: got 4 values, but the shape needs 5"},
		{[]int{2, -2}, 0, []int{0, 0}, "invalid parameter: invalid shape for a reduction by key: axis 1 has size -2"},
		{[]int{2, 2}, 0, []int{0}, "invalid parameter: invalid keys for a reduction by key: got 1 keys for an axis of size 2"},
	} {
		_, err := ReduceByKey(ReduceSum, values, c.shape, c.axis, c.keys, false)
		if err == nil || err.Error() != c.message {
			t.Errorf("shape %v axis %d: got %v, want %q", c.shape, c.axis, err, c.message)
		}
	}
	if _, err := ReduceByKey(Reduction(9), values, []int{4}, 0, []int{0, 0, 1, 1}, false); err == nil {
		t.Error("unknown reduction accepted")
	}
}

// TestReduceByKeyConcurrent runs reductions of shared inputs at once (meant for -race):
// the inputs are only read. With small thresholds, every reduction also splits its rows
// between goroutines.
func TestReduceByKeyConcurrent(t *testing.T) {
	shape := []int{64, 3, 16}
	values := make([]float64, 64*3*16)
	for i := range values {
		values[i] = float64(i%37) - 11
	}
	keys := make([]int64, 64)
	for i := range keys {
		keys[i] = int64(i / 5)
	}
	for _, small := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "small thresholds"}[small], func(t *testing.T) {
			if small {
				withSmallThresholds(t)
			}
			var wg sync.WaitGroup
			for w := range 8 {
				op := allReductions[w%len(allReductions)]
				_, _, want, _ := naiveByKey(op, values, shape, 0, keys, w%2 == 0)
				wg.Go(func() {
					for range 20 {
						got, err := ReduceByKey(op, values, shape, 0, keys, w%2 == 0)
						if err != nil {
							t.Error(err)
							return
						}
						if !sameValues(got.Values, want) {
							t.Errorf("%s: concurrent result differs from the model", op)
							return
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

// FuzzReduceByKey compares ReduceByKey with the model on random shapes, axes, keys and
// values (NaN and infinities included, in f64 and f32), every reduction split between
// goroutines as large ones are.
func FuzzReduceByKey(f *testing.F) {
	withSmallThresholds(f)
	f.Add([]byte{2, 3, 1, 0, 0, 1, 1, 1, 0, 0, 2}, uint8(0), uint8(1), false)
	f.Add([]byte{1, 9, 0, 0, 1, 1, 1, 0, 0, 2, 2, 0xff, 0xf8, 0, 0, 0, 0, 0, 1}, uint8(2), uint8(0), true)
	f.Fuzz(func(t *testing.T, data []byte, opByte, axisByte uint8, ignoreNaN bool) {
		if len(data) < 1 {
			return
		}
		ndim := int(data[0])%4 + 1
		data = data[1:]
		if len(data) < ndim {
			return
		}
		shape := make([]int, ndim)
		size := 1
		for i := range shape {
			shape[i] = int(data[i]) % 6
			size *= shape[i]
		}
		data = data[ndim:]
		axis := int(axisByte) % ndim
		keys := make([]int64, shape[axis])
		for i := range keys {
			if len(data) > 0 {
				keys[i] = int64(data[0] % 4)
				data = data[1:]
			}
		}
		values := make([]float64, size)
		for i := range values {
			if len(data) >= 8 {
				values[i] = math.Float64frombits(binary.LittleEndian.Uint64(data))
				data = data[8:]
			} else if len(data) > 0 {
				values[i] = float64(int8(data[0]))
				data = data[1:]
			}
		}
		op := allReductions[int(opByte)%len(allReductions)]
		checkByKey(t, op, values, shape, axis, keys, ignoreNaN)
		f32 := make([]float32, size)
		for i, v := range values {
			f32[i] = float32(v)
		}
		checkByKey(t, op, f32, shape, axis, keys, ignoreNaN)
		if op != ReduceMean {
			i64 := make([]int64, size)
			for i, v := range values {
				if !math.IsNaN(v) && math.Abs(v) < 1e15 {
					i64[i] = int64(v)
				}
			}
			checkByKey(t, op, i64, shape, axis, keys, ignoreNaN)
		}
	})
}
