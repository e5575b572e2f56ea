package main

// #include "fastpath.h"
import "C"

import "github.com/metatensor-go/metatensor/internal/core"

// comparisonOf reads what mtsgo_compare_blocks (fastpath_compare_arrays.c) found for a fast path: the
// descriptions, or the error of the member that failed.
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
