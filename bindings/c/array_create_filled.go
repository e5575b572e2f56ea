package main

// #include "mtsgo.h"
import "C"

import "github.com/metatensor-go/metatensor/internal/core"

// CreateFilled makes createFilled's five calls in one call into C (core.FilledCreator,
// array_create_filled.c): each call into C costs more than what it asks. A fill that is not a
// C array is left to the core, member by member.
func (a *cArray) CreateFilled(shape []uintptr, fill core.Array) (core.FilledAsked, bool) {
	filler, ok := fill.(*cArray)
	if !ok || a.raw == nil || filler.raw == nil {
		return core.FilledAsked{}, false
	}
	out := C.mtsgo_create_filled(a.address(), sizesToC(shape), C.uintptr_t(len(shape)), filler.address())
	asked := core.FilledAsked{
		DType:      dtypeFromC(out.dtype),
		FillDType:  dtypeFromC(out.fill_dtype),
		FillDevice: deviceFromC(out.fill_device),
		Calls:      int(out.calls),
	}
	member := [...]string{"dtype", "dtype", "shape", "device", "create"}[asked.Calls-1]
	switch {
	case out.missing != 0:
		asked.Err = missing(member)
	case out.failed != 0:
		asked.Err = failed(member)
	case asked.Calls == 3 && out.fill_shape_count != 0:
		// only a shape with axes is read: the error names it
		asked.FillShape, asked.Err = shapeFromC(out.fill_shape, out.fill_shape_count)
	case asked.Calls == 5:
		asked.Created = createdCArray(out.created)
	}
	return asked, true
}

var _ core.FilledCreator = (*cArray)(nil)
