package main

// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// CopyOnOwnDevices copies the run of C arrays at the start of arrays in one call into C
// (core.ArraysCopier, array_copy_many.c), making their adaptors in one allocation; it stops
// before an array that is not a C array with both members, which the core copies on its own.
func (a *cArray) CopyOnOwnDevices(arrays []core.Array) (int, error) {
	run := 0
	for run < len(arrays) {
		c, ok := arrays[run].(*cArray)
		if !ok || c.raw == nil || c.raw.device == nil || c.raw.copy == nil {
			break
		}
		run++
	}
	if run == 0 {
		return 0, nil
	}
	// the addresses of the arrays' structs, replaced by their copies' in place: integers, as
	// cgo checks every pointer in memory a pointer argument points to
	addresses := make([]C.uintptr_t, run)
	for i, array := range arrays[:run] {
		addresses[i] = array.(*cArray).address()
	}
	out := C.mtsgo_copy_on_own_devices(&addresses[0], C.uintptr_t(run))
	copies := unsafe.Slice((**C.struct_mts_array_t)(unsafe.Pointer(&addresses[0])), run)
	done := int(out.copied)
	adaptors := make([]cArray, done)
	for i := range adaptors {
		adaptors[i] = cArray{raw: copies[i], allocated: true}
		arrays[i] = &adaptors[i]
	}
	switch {
	case out.failed_device != 0:
		return done, failed("device")
	case out.failed_copy != 0:
		return done, failed("copy")
	case out.out_of_memory != 0:
		return done, core.Errorf(core.InternalError, "out of memory allocating an array")
	}
	return done, nil
}

var _ core.ArraysCopier = (*cArray)(nil)
