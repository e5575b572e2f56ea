package main

// #include <stdlib.h>
// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// CompareArrays runs core's compareArrays in C (fastpath_compare_arrays.c) when every array is
// a C array. The list of arrays is in C memory: thousands of pointers in Go memory would be
// checked one by one by cgo's pointer checks.
func (a *cArray) CompareArrays(count int, array func(i int) core.Array) (first, other core.ArrayDescription, index int, ok bool, err error) {
	if C.mtsgo_fastpaths&C.MTSGO_FASTPATH_COMPARE == 0 {
		return first, other, 0, false, nil
	}
	// Zeroed: Go's write barrier reads the old value of every pointer stored in the list, and
	// malloc's leftovers may look like pointers into the Go heap.
	memory := C.calloc(C.size_t(count), C.size_t(unsafe.Sizeof(uintptr(0))))
	if memory == nil {
		return first, other, 0, false, nil
	}
	defer C.free(memory)
	raws := unsafe.Slice((**C.struct_mts_array_t)(memory), count)
	for i := range raws {
		c, isC := array(i).(*cArray)
		if !isC {
			return first, other, 0, false, nil
		}
		raws[i] = c.raw
	}
	var cFirst, cOther C.struct_mtsgo_array_description
	var failure C.int
	stop := C.mtsgo_compare_arrays(&raws[0], C.uintptr_t(count), &cFirst, &cOther, &failure)
	first, other = descriptionFromC(cFirst), descriptionFromC(cOther)
	if failure != 0 {
		member := [...]string{"origin", "device", "dtype"}[max(failure, -failure)-1]
		if failure < 0 {
			return first, other, int(stop), true, missing(member)
		}
		return first, other, int(stop), true, failed(member)
	}
	return first, other, int(stop), true, nil
}

func descriptionFromC(d C.struct_mtsgo_array_description) core.ArrayDescription {
	return core.ArrayDescription{Origin: core.Origin(d.origin), Device: deviceFromC(d.device), DType: dtypeFromC(d.dtype)}
}
