package main

// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// CompareArrays runs core's compareArrays in C (fastpath_compare_arrays.c) when every array is
// a C array. The list holds the arrays' addresses as integers: cgo checks a list of pointers
// in Go memory one pointer at a time, and C memory would cost two more calls into C. The
// results are written after the list, in the same allocation.
func (a *cArray) CompareArrays(count int, array func(i int) core.Array) (first, other core.ArrayDescription, index int, ok bool, err error) {
	if C.mtsgo_fastpaths&C.MTSGO_FASTPATH_COMPARE == 0 {
		return first, other, 0, false, nil
	}
	const resultWords = (unsafe.Sizeof(C.struct_mtsgo_comparison{}) + 7) / 8
	words := make([]C.uintptr_t, count+int(resultWords))
	raws, out := words[:count], (*C.struct_mtsgo_comparison)(unsafe.Pointer(&words[count]))
	for i := range raws {
		c, isC := array(i).(*cArray)
		if !isC {
			return first, other, 0, false, nil
		}
		raws[i] = C.uintptr_t(uintptr(unsafe.Pointer(c.raw)))
	}
	stop := C.mtsgo_compare_arrays(&raws[0], C.uintptr_t(count), out)
	first, other, err = comparisonOf(out)
	return first, other, int(stop), true, err
}

// comparisonOf reads what mtsgo_compare found: the descriptions, or the error of the member
// that failed.
func comparisonOf(out *C.struct_mtsgo_comparison) (first, other core.ArrayDescription, err error) {
	first, other = descriptionFromC(out.first), descriptionFromC(out.other)
	if failure := int(out.failure); failure != 0 {
		member := [...]string{"origin", "device", "dtype"}[max(failure, -failure)-1]
		if failure < 0 {
			return first, other, missing(member)
		}
		return first, other, failed(member)
	}
	return first, other, nil
}

func descriptionFromC(d C.struct_mtsgo_array_description) core.ArrayDescription {
	return core.ArrayDescription{Origin: core.Origin(d.origin), Device: deviceFromC(d.device), DType: dtypeFromC(d.dtype)}
}
