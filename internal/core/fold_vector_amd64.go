//go:build !purego

package core

import "unsafe"

// The max and min folds without positions, two to four elements per instruction
// (fold_vector_amd64.s); BenchmarkFoldExtremeValues compares them with foldValues. The purego
// build tag leaves them out.

func maxFloat64s(dst, row []float64) (sawNaN bool)
func minFloat64s(dst, row []float64) (sawNaN bool)
func maxFloat32s(dst, row []float32) (sawNaN bool)
func minFloat32s(dst, row []float32) (sawNaN bool)

// foldFloatsVector folds row into dst as foldExtremeRow does for max (or min) without
// ignoreNaN and without positions, and reports whether it could: only floating point T.
func foldFloatsVector[T Reducible](dst, row []T, max bool) bool {
	if !isFloat[T]() {
		return false
	}
	row = row[:len(dst)]
	var sawNaN bool
	switch {
	case sizeOf[T]() == 8 && max:
		sawNaN = foldAs(dst, row, maxFloat64s)
	case sizeOf[T]() == 8:
		sawNaN = foldAs(dst, row, minFloat64s)
	case max:
		sawNaN = foldAs(dst, row, maxFloat32s)
	default:
		sawNaN = foldAs(dst, row, minFloat32s)
	}
	if sawNaN {
		// the instructions kept the current value where the new one was NaN: a NaN replaces
		// a number (propagating), not an earlier NaN (the first one stays)
		for j, v := range row {
			if v != v && dst[j] == dst[j] {
				dst[j] = v
			}
		}
	}
	return true
}

// foldAs runs fold over dst and row seen as slices of E, the float type of T's size.
func foldAs[E float32 | float64, T Reducible](dst, row []T, fold func(dst, row []E) bool) bool {
	return fold(unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)),
		unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(row))), len(dst)))
}
