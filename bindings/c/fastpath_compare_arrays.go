package main

// #include "fastpath.h"
import "C"

import "github.com/metatensor-go/metatensor/internal/core"

// comparisonOf reads what mtsgo_compare_blocks (fastpath_compare_arrays.c) found for a fast path: the
// descriptions, or the error of the member that failed.
func comparisonOf(out *C.struct_mtsgo_comparison) (first, other core.ArrayDescription, err error) {
	return descriptionFromC(out.first), descriptionFromC(out.other), describeFailure(out.failure)
}

// Describe asks the array's origin, device and dtype in one call into C (core.ArrayDescriber),
// as three calls would: cgo's cost per call is most of what asking costs.
func (a *cArray) Describe() (core.ArrayDescription, error) {
	if a.raw == nil {
		return core.ArrayDescription{}, core.Errorf(core.InternalError, "an array was described after its release")
	}
	out := C.mtsgo_describe_array(a.address())
	return descriptionFromC(out.description), describeFailure(out.failure)
}

// describeFailure is the error of the member a description's failure names (0 for none; 1
// origin, 2 device, 3 dtype; negated when the member is NULL).
func describeFailure(failure C.int) error {
	if failure == 0 {
		return nil
	}
	member := [...]string{"origin", "device", "dtype"}[max(failure, -failure)-1]
	if failure < 0 {
		return missing(member)
	}
	return failed(member)
}

func descriptionFromC(d C.struct_mtsgo_array_description) core.ArrayDescription {
	return core.ArrayDescription{Origin: core.Origin(d.origin), Device: deviceFromC(d.device), DType: dtypeFromC(d.dtype)}
}
