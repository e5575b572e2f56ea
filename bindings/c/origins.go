package main

// #include "mtsgo.h"
import "C"

import (
	"unicode/utf8"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

func implRegisterDataOrigin(name *C.char, origin *C.mts_data_origin_t) error {
	text := C.GoString(name)
	if !utf8.ValidString(text) {
		// The reference fails the same way (status 255) on a name that is not UTF-8.
		return core.Errorf(core.InternalError, "data origin name is not valid UTF-8")
	}
	*origin = C.mts_data_origin_t(core.RegisterOrigin(text))
	return nil
}

func implGetDataOrigin(origin C.mts_data_origin_t, buffer *C.char, bufferSize C.uintptr_t) error {
	name := core.OriginName(core.Origin(origin))
	if uint64(bufferSize) < uint64(len(name))+1 {
		space := uint64(bufferSize)
		if space > 0 {
			space-- // room for the final NUL
		}
		return core.Errorf(core.BufferSizeError, "got space for %d characters, but we need to write %d", space, len(name))
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(buffer)), len(name)+1)
	copy(out, name)
	out[len(name)] = 0
	return nil
}
