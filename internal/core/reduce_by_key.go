package core

import (
	"slices"
	"unsafe"
)

// Reduction by key: the values of an n-dimensional array are reduced along one axis over
// groups of positions. ReduceByKey makes the groups from runs of equal consecutive keys, as
// ArrayFire's sumByKey family does: keys [0 0 1 1 1 0 0 2 2] give the groups [0 1 0 2], a
// key that comes back later starting a new group. The sample reductions of blocks reuse the
// same loops with groups that need not be consecutive.
//
// NaN: sum and mean follow IEEE arithmetic, so a NaN member makes the result NaN. Max and min
// propagate NaN by default (as numpy's max does): a group with a NaN gives NaN, and the
// selected position is that of its first NaN. With ignoreNaN they skip NaN members; a group
// of NaN only gives NaN and selects its first position.

// Reduction is what a reduction by key computes over each group.
type Reduction int

const (
	ReduceSum Reduction = iota
	ReduceMean
	ReduceMax
	ReduceMin
)

// String names a reduction as the error messages do.
func (r Reduction) String() string {
	switch r {
	case ReduceSum:
		return "sum"
	case ReduceMean:
		return "mean"
	case ReduceMax:
		return "max"
	case ReduceMin:
		return "min"
	}
	return "unknown reduction"
}

// Reducible are the element types a reduction by key works on.
type Reducible interface {
	~float32 | ~float64 | ~int32 | ~int64
}

// ReduceKey are the types of the keys of ReduceByKey.
type ReduceKey interface {
	~int32 | ~int64 | ~int
}

// ByKey is the result of ReduceByKey.
type ByKey[T Reducible, K ReduceKey] struct {
	Keys   []K     // the key of every group, in order
	Counts []int64 // the number of positions of every group
	Shape  []int   // the input's shape with len(Keys) along the axis
	Values []T     // the reduced values, row-major in Shape
	// Selected is, for max and min, the position along the axis of the element each value
	// comes from (ties pick the first); nil for sum and mean.
	Selected []int
}

// ReduceByKey reduces values, row-major of the given shape, along axis over the runs of equal
// consecutive keys (one key per position along the axis).
func ReduceByKey[T Reducible, K ReduceKey](op Reduction, values []T, shape []int, axis int, keys []K, ignoreNaN bool) (*ByKey[T, K], error) {
	outer, n, inner, err := splitAxis(shape, axis, len(values))
	if err != nil {
		return nil, err
	}
	if len(keys) != n {
		return nil, Errorf(InvalidParameterError,
			"invalid keys for a reduction by key: got %d keys for an axis of size %d", len(keys), n)
	}
	groupOf, outKeys := keyRuns(keys)
	g := groupsOf(groupOf, len(outKeys))
	out := make([]T, outer*len(outKeys)*inner)
	var selected []int
	if op == ReduceMax || op == ReduceMin {
		selected = make([]int, len(out))
	}
	if err := reduceGroups(op, values, outer, n, inner, g, ignoreNaN, out, selected); err != nil {
		return nil, err
	}
	outShape := append([]int(nil), shape...)
	outShape[axis] = len(outKeys)
	return &ByKey[T, K]{Keys: outKeys, Counts: g.counts, Shape: outShape, Values: out, Selected: selected}, nil
}

// splitAxis views a row-major shape as (outer, n, inner) around axis, checking that it holds
// exactly length elements.
func splitAxis(shape []int, axis int, length int) (outer, n, inner int, err error) {
	if axis < 0 || axis >= len(shape) {
		return 0, 0, 0, Errorf(InvalidParameterError,
			"invalid axis %d for a reduction by key over an array with %d axes", axis, len(shape))
	}
	outer, inner = 1, 1
	for i, d := range shape {
		if d < 0 {
			return 0, 0, 0, Errorf(InvalidParameterError, "invalid shape for a reduction by key: axis %d has size %d", i, d)
		}
		switch {
		case i < axis:
			outer *= d
		case i > axis:
			inner *= d
		}
	}
	n = shape[axis]
	if outer*n*inner != length {
		return 0, 0, 0, Errorf(InvalidParameterError,
			"invalid values for a reduction by key: got %d values, but the shape needs %d", length, outer*n*inner)
	}
	return outer, n, inner, nil
}

// keyRuns numbers the runs of equal consecutive keys: groupOf[i] is the run of position i,
// and runKeys the key of every run.
func keyRuns[K ReduceKey](keys []K) (groupOf []int, runKeys []K) {
	groupOf = make([]int, len(keys))
	for i, k := range keys {
		if i == 0 || k != keys[i-1] {
			runKeys = append(runKeys, k)
		}
		groupOf[i] = len(runKeys) - 1
	}
	return groupOf, runKeys
}

// groups says which positions along the reduced axis every group gathers.
type groups struct {
	counts  []int64 // the number of positions of every group
	offsets []int   // the members of group r are members[offsets[r]:offsets[r+1]]
	members []int   // the positions, group after group, in increasing order within a group
}

// groupsOf describes count groups from the group of every position.
func groupsOf(groupOf []int, count int) groups {
	g := groups{counts: make([]int64, count), offsets: make([]int, count+1), members: make([]int, len(groupOf))}
	for _, group := range groupOf {
		g.counts[group]++
	}
	for group, c := range g.counts {
		g.offsets[group+1] = g.offsets[group] + int(c)
	}
	next := slices.Clone(g.offsets[:count])
	for i, group := range groupOf {
		g.members[next[group]] = i
		next[group]++
	}
	return g
}

// of gives the members of group r.
func (g groups) of(r int) []int { return g.members[g.offsets[r]:g.offsets[r+1]] }

// reduceGroups reduces values, seen as (outer, n, inner), into out, (outer, groups, inner),
// whose contents it does not read. Each output row is made at once from the rows of its
// members, in order, and written once: no pass over the output but that one, and no
// temporary array. For max and min, selected (as long as out, or nil when the positions are
// not wanted) receives the position along the axis of every value.
func reduceGroups[T Reducible](op Reduction, values []T, outer, n, inner int, g groups, ignoreNaN bool, out []T, selected []int) error {
	count := len(g.counts)
	switch op {
	case ReduceSum, ReduceMean:
		if op == ReduceMean && !isFloat[T]() {
			return Errorf(InvalidParameterError,
				"can not take the mean of integer values: reduce with a sum and divide by the counts")
		}
		for o := range outer {
			in := values[o*n*inner : (o+1)*n*inner]
			forRowRanges(count, len(in)*sizeOf[T](), func(lo, hi int) {
				for r := lo; r < hi; r++ {
					dst := out[(o*count+r)*inner : (o*count+r+1)*inner]
					sumRows(dst, in, inner, g.of(r))
					if op == ReduceMean {
						divideRow(dst, g.counts[r])
					}
				}
			})
		}
	case ReduceMax, ReduceMin:
		for o := range outer {
			in := values[o*n*inner : (o+1)*n*inner]
			forRowRanges(count, len(in)*sizeOf[T](), func(lo, hi int) {
				for r := lo; r < hi; r++ {
					at := (o*count + r) * inner
					var sel []int
					if selected != nil {
						sel = selected[at : at+inner]
					}
					extremeRows(out[at:at+inner], sel, in, inner, g.of(r), ignoreNaN, op == ReduceMax)
				}
			})
		}
	default:
		return Errorf(InvalidParameterError, "unknown reduction %d", op)
	}
	return nil
}

// sumRows sets dst to the sum of the rows members of in (inner elements each), added in
// order to zero.
func sumRows[T Reducible](dst, in []T, inner int, members []int) {
	for k, i := range members {
		if k == 0 {
			startRow(dst, in[i*inner:(i+1)*inner])
		} else {
			addRow(dst, in[i*inner:(i+1)*inner])
		}
	}
}

// extremeRows sets dst to the max or min of the rows members of in, and sel (unless nil) to
// the position each element comes from.
func extremeRows[T Reducible](dst []T, sel []int, in []T, inner int, members []int, ignoreNaN, max bool) {
	if len(members) == 0 {
		clear(dst)
		fillInts(sel, -1)
		return
	}
	for k, i := range members {
		row := in[i*inner : (i+1)*inner]
		if k == 0 {
			copy(dst, row)
			fillInts(sel, i)
		} else {
			if sizeOf[T]() == 8 {
				foldExtremeRow[T, uint64](dst, sel, row, i, ignoreNaN, max)
			} else {
				foldExtremeRow[T, uint32](dst, sel, row, i, ignoreNaN, max)
			}
		}
	}
}

// isFloat tells whether T is a floating point type.
func isFloat[T Reducible]() bool {
	var x T = 1
	return x/2 != 0
}

// sizeOf is the size in bytes of a T.
func sizeOf[T Reducible]() int {
	var x T
	return int(unsafe.Sizeof(x))
}

// isNaN works for every element type (integers are never NaN).
func isNaN[T Reducible](v T) bool { return v != v }

// addRow adds src to dst, element by element, four at a time.
func addRow[T Reducible](dst, src []T) {
	src = src[:len(dst)]
	j := 0
	for ; j+4 <= len(dst); j += 4 {
		d, s := dst[j:j+4:j+4], src[j:j+4:j+4]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
	}
	for ; j < len(dst); j++ {
		dst[j] += src[j]
	}
}

// startRow sets dst to 0 + src without reading dst (zero already): adding to zero, rather
// than copying, turns -0 into +0 as a sum from zero does.
func startRow[T Reducible](dst, src []T) {
	src = src[:len(dst)]
	for j, v := range src {
		dst[j] = 0 + v
	}
}

// divideRow divides every element of row by count; a count of 1 leaves the row as it is,
// which the division would too.
func divideRow[T Reducible](row []T, count int64) {
	if count == 1 {
		return
	}
	for j := range row {
		row[j] /= T(count)
	}
}

// fillInts sets every element of s to v.
func fillInts(s []int, v int) {
	for j := range s {
		s[j] = v
	}
}

// foldExtremeRow folds row (at position i) into the running max or min dst and, unless nil,
// the positions sel it comes from. Only a strictly better value replaces the current one, so
// ties keep the first; NaN replaces a number (propagating), or the other way round with
// ignoreNaN. Each case has its own loop, with its test inlined, rather than one loop testing
// max and ignoreNaN for every element. B is the unsigned integer of T's size.
func foldExtremeRow[T Reducible, B uint32 | uint64](dst []T, sel []int, row []T, i int, ignoreNaN, max bool) {
	if sel == nil && !ignoreNaN && foldVectors && foldFloatsVector(dst, row, max) {
		return
	}
	switch {
	case max && !ignoreNaN && sel == nil:
		foldValues[T, B](dst, row, largerOrNaN[T])
	case max && !ignoreNaN:
		foldRow(dst, sel, row, i, largerOrNaN[T])
	case !ignoreNaN && sel == nil:
		foldValues[T, B](dst, row, smallerOrNaN[T])
	case !ignoreNaN:
		foldRow(dst, sel, row, i, smallerOrNaN[T])
	case max && sel == nil:
		foldValues[T, B](dst, row, largerNumber[T])
	case max:
		foldRow(dst, sel, row, i, largerNumber[T])
	case sel == nil:
		foldValues[T, B](dst, row, smallerNumber[T])
	default:
		foldRow(dst, sel, row, i, smallerNumber[T])
	}
}

// foldVectors lets foldExtremeRow use foldFloatsVector; tests and benchmarks turn it off to
// run the element-by-element loops on the same platform.
var foldVectors = true

// The tests of foldExtremeRow: whether v replaces the current value c. Without ignoreNaN,
// !(v <= c) holds when v is larger or either is NaN: one comparison for the common case (v no
// better), the second only then, to keep a NaN already there.
func largerOrNaN[T Reducible](v, c T) bool   { return !(v <= c) && c == c }
func smallerOrNaN[T Reducible](v, c T) bool  { return !(v >= c) && c == c }
func largerNumber[T Reducible](v, c T) bool  { return v > c || c != c && v == v }
func smallerNumber[T Reducible](v, c T) bool { return v < c || c != c && v == v }

// foldRow replaces the elements of dst for which take(new value, current value) holds,
// noting position i in sel.
func foldRow[T Reducible](dst []T, sel []int, row []T, i int, take func(v, c T) bool) {
	row, sel = row[:len(dst)], sel[:len(dst)]
	for j, v := range row {
		if take(v, dst[j]) {
			dst[j], sel[j] = v, i
		}
	}
}

// foldValues is foldRow without positions, B being the unsigned integer of T's size. Every
// element is stored back, as the bits of the new or of the current value: that unconditional
// store of integers ran about a fifth faster than storing the new value only when taken (the
// branch mispredicting on varied data either way), and the compiler does not find it for floats.
func foldValues[T Reducible, B uint32 | uint64](dst, row []T, take func(v, c T) bool) {
	row = row[:len(dst)]
	dstBits := unsafe.Slice((*B)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
	rowBits := unsafe.Slice((*B)(unsafe.Pointer(unsafe.SliceData(row))), len(dst))
	for j, v := range row {
		bits := dstBits[j]
		if take(v, dst[j]) {
			bits = rowBits[j]
		}
		dstBits[j] = bits
	}
}
