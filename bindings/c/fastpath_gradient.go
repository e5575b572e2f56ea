package main

// #include "fastpath.h"
import "C"

import "github.com/metatensor-go/metatensor/internal/core"

// The Go side of the gradient fast path (fastpath_gradient.c): its errors. Blocks with C
// gradients are made in Go by materializeBlocks.

// mtsgo_gradient_refused records the error of a gradient the fast path refused after asking
// the arrays, the gradient's samples and labels, worded as core's AddGradient words it; when they all
// agreed, C lacked the memory for the list entry.
//
//export mtsgo_gradient_refused
func mtsgo_gradient_refused(asked *C.struct_mtsgo_gradient_asked) (status C.mts_status_t) {
	defer recoverStatus("mts_block_add_gradient", &status)
	values, gradient, err := comparisonOf(&asked.comparison)
	if err == nil {
		err = core.GradientDataError(values, gradient)
	}
	if err == nil && asked.device_failed != 0 {
		err = failed("device")
	}
	if err == nil && asked.samples_read != 0 {
		err = core.GradientSamplesError(int32(asked.lowest), int32(asked.highest), int(asked.samples))
	}
	if differ := int(asked.labels_differ); err == nil && differ >= 0 {
		name := ""
		if differ > 0 {
			name = C.GoString(asked.component_name)
		}
		err = core.GradientLabelsError(differ-1, name)
	}
	if err == nil {
		err = core.Errorf(core.InternalError, "out of memory adding a gradient")
	}
	return recordError(err)
}
