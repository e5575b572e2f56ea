package main

// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// askedOf gives what a fast path asked before handing a call over (nothing for nil). Its
// error, a shape the array gave as NULL with dimensions, is the one Go gives when it asks; the
// export asked is then released.
func askedOf(asked *C.struct_mtsgo_asked) (core.Asked, error) {
	var known core.Asked
	if asked == nil || asked.has_shape == 0 {
		return known, nil
	}
	if asked.exported != 0 {
		known.Exported = true
		known.Tensor, known.ExportError = exportedTensor(asked.managed)
	}
	shape, err := shapeFromC(asked.shape, asked.dimensions)
	if err != nil {
		known.Tensor.Release()
		return core.Asked{}, err
	}
	known.Shape, known.HasShape = shape, true
	if asked.devices_count > 0 {
		known.Devices = make([]core.Device, asked.devices_count)
		for i, device := range unsafe.Slice(&asked.devices[0], asked.devices_count) {
			known.Devices[i] = deviceFromC(device)
		}
	}
	return known, nil
}
