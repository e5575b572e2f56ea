package main

// #include "fastpath.h"
import "C"

import "github.com/metatensor-go/metatensor/internal/core"

// The Go side of the gradient fast path (fastpath_gradient.c): its errors. Blocks with C
// gradients are made in Go by materializeBlocks.

// mtsgo_gradient_refused records the error of a gradient the fast path refused after asking
// the arrays and the gradient's samples, worded as core's AddGradient words it; when they all
// agreed, C lacked the memory for the list entry.
//
//export mtsgo_gradient_refused
func mtsgo_gradient_refused(asked *C.struct_mtsgo_gradient_asked) (status C.mts_status_t) {
	defer recoverStatus("mts_block_add_gradient", &status)
	values, gradient, err := comparisonOf(&asked.comparison)
	if err == nil {
		err = core.GradientDataError(values, gradient)
	}
	if err == nil && asked.samples_failed != 0 {
		err = failed("device")
	}
	if err == nil {
		err = core.GradientSamplesError(int32(asked.lowest), int32(asked.highest), int(asked.samples))
	}
	if err == nil {
		err = core.Errorf(core.InternalError, "out of memory adding a gradient")
	}
	return recordError(err)
}
